"""A member's own settings in a guild (part of ``TableService``): today the deck
of their private pictures and texts (``bot.i18n.deck.DECKS``; what each
shows there). Read once per member and kept in memory, so that
answering a click costs no read; a change is written first, then kept.
"""

from __future__ import annotations

from ..i18n import _
from ..i18n.deck import DECKS
from .core import ServiceBase
from .errors import STORAGE_ERRORS, UserError


class Preferences(ServiceBase):
    """Members' own settings (part of ``TableService``)."""

    async def deck(self, guild_id: int, member_id: int) -> str:
        """The deck member ``member_id`` chose in guild ``guild_id`` (one of
        ``DECKS``; cached). Never raises: when the database cannot be read it is
        the default, and read again next time."""
        key = (guild_id, member_id)
        cached = self._decks.get(key)
        if cached is None:
            try:
                cached = self._decks[key] = await self.storage.member_deck(guild_id, member_id)
            except STORAGE_ERRORS:
                return DECKS[0]
        return cached

    async def set_deck(self, guild_id: int, member_id: int, deck: str) -> str:
        """Keep ``deck`` as member ``member_id``'s deck in guild ``guild_id``;
        returns it.

        Raises:
            UserError: ``deck`` is not one of ``DECKS``. StorageFailure: nothing changed.
        """
        if deck not in DECKS:
            raise UserError(_("There is no deck called {name}.").format(name=repr(deck)))
        async with self._unit(None):
            await self.storage.set_member_deck(guild_id, member_id, deck)
        self._decks[(guild_id, member_id)] = deck
        return deck
