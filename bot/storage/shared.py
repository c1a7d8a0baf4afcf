"""What both storages do the same way (a mixin: ``class Storage(TableUpdates,
Reports)``, ``class PgStorage(..., TableUpdates, Reports)``): the writes that are one
``UPDATE tables`` through the storage's ``_update_table`` (``?`` placeholders;
PgStorage translates them), the reads through its ``_read()`` helpers, and the
checks of status values. Each storage supplies the helpers it names."""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
from typing import TYPE_CHECKING, Any

from .models import GuildSettings

TABLE_STATUSES = ("lobby", "playing", "finished", "closed")
CLOSED_DEAL_STATUSES = ("finished", "void")


class TableUpdates:
    """Writes, reads and checks shared by ``Storage`` and ``PgStorage``."""

    if TYPE_CHECKING:  # provided by Storage and PgStorage; ``db`` is their connection
        def _read(self) -> AbstractAsyncContextManager[Any]: ...

        async def _update_table(self, table_id: int, sql: str,
                                params: tuple[Any, ...]) -> None: ...

        async def _settings(self, db: Any, guild_id: int) -> GuildSettings: ...

        @staticmethod
        async def _points_in_pots(db: Any, guild_id: int) -> int: ...

    async def get_settings(self, guild_id: int) -> GuildSettings:
        """The guild's settings (``GuildSettings`` defaults when never set)."""
        async with self._read() as db:
            return await self._settings(db, guild_id)

    async def set_next_deal_delay(self, table_id: int, seconds: int) -> None:
        """Seconds before the next deal starts by itself (0 = only by the button).
        Raises ValueError for an unknown table or a negative delay."""
        if seconds < 0:
            raise ValueError("the delay cannot be negative")
        await self._update_table(table_id, "UPDATE tables SET next_deal_delay = ? WHERE id = ?",
                                 (seconds,))

    async def set_offer_message(self, table_id: int, key: str | None,
                                message_id: int | None) -> None:
        """Remember (or, with ``None``, forget) the message announcing the table's
        pending offer ``key`` (``"deal:seq"``). Raises ValueError for an unknown table."""
        await self._update_table(
            table_id, "UPDATE tables SET offer_key = ?, offer_message_id = ? WHERE id = ?",
            (key, message_id))

    async def set_host(self, table_id: int, member_id: int) -> None:
        """Hand the table to another member. Raises ValueError for an unknown table."""
        await self._update_table(table_id, "UPDATE tables SET host_id = ? WHERE id = ?",
                                 (member_id,))

    async def points_in_pots(self, guild_id: int) -> int:
        """Points in the pools and pots of the guild's open tables (see
        ``reset_ledger``); ``guild_ledger_sum`` equals minus this when consistent."""
        async with self._read() as db:
            return await self._points_in_pots(db, guild_id)

    async def set_messages(
        self, table_id: int, *, lobby_message_id: int | None = None,
        table_message_id: int | None = None,
    ) -> None:
        """Set whichever ids are given (not None). Raises ValueError for an unknown table."""
        await self._update_table(
            table_id,
            "UPDATE tables SET lobby_message_id = COALESCE(?, lobby_message_id),"
            " table_message_id = COALESCE(?, table_message_id) WHERE id = ?",
            (lobby_message_id, table_message_id),
        )

    async def set_status(self, table_id: int, status: str) -> None:
        """Set the table status (``lobby``, ``playing``, ``finished``, ``closed``).
        Raises ValueError for another status or an unknown table."""
        if status not in TABLE_STATUSES:
            raise ValueError(f"unknown table status {status!r}")
        await self._update_table(table_id, "UPDATE tables SET status = ? WHERE id = ?", (status,))

    async def set_next_seed(self, table_id: int, seed: str | None,
                            commitment: str | None) -> None:
        """Keep the seed (hex) drawn for the table's next deal and its public
        commitment, or forget them (``None``). Raises ValueError for an unknown table."""
        await self._update_table(
            table_id, "UPDATE tables SET next_seed = ?, next_commitment = ? WHERE id = ?",
            (seed, commitment))

    @staticmethod
    def _check_finish(status: str) -> None:
        if status not in CLOSED_DEAL_STATUSES:
            raise ValueError(f"a deal closes as 'finished' or 'void', not {status!r}")
