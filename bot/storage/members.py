"""A member's own settings in a guild (``member_settings``, migration 0013), written
once for both storages (``Members``: a mixin of ``Storage`` and ``PgStorage``).
Today one setting: the deck of the member's private pictures and texts
(``DECKS``, the same as ``bot.i18n.deck.DECKS``: it says what each shows)."""

from __future__ import annotations

from .shared import utc_now
from .units import Statements

#: the decks a member may choose, the first the default (the server's two colours)
DECKS = ("two", "four")


class Members(Statements):
    """Members' own settings of both storages."""

    async def member_deck(self, guild_id: int, member_id: int) -> str:
        """The deck member ``member_id`` chose in guild ``guild_id`` (one of
        ``DECKS``; the default when they never chose)."""
        async with self._read() as db:
            row = await self._loop_tx(db).one(
                "SELECT deck FROM member_settings WHERE guild_id = ? AND member_id = ?",
                (guild_id, member_id))
        return DECKS[0] if row is None else str(row["deck"])

    async def set_member_deck(self, guild_id: int, member_id: int, deck: str) -> None:
        """Keep ``deck`` as the deck of member ``member_id`` in guild ``guild_id``.

        Raises:
            ValueError: ``deck`` is not one of ``DECKS``.
        """
        if deck not in DECKS:
            raise ValueError(f"deck must be one of {', '.join(DECKS)}")
        async with self._write() as tx:
            await tx.run("INSERT INTO member_settings (guild_id, member_id, deck, updated_at)"
                         " VALUES (?, ?, ?, ?) ON CONFLICT (guild_id, member_id) DO UPDATE SET"
                         " deck = excluded.deck, updated_at = excluded.updated_at",
                         (guild_id, member_id, deck, utc_now()))
