"""What both storages share that needs no connection of theirs: the statuses, the
rows read back as ``models`` (``table_row``, ``seat_row``), the shards' check, the
clock; and ``TableUpdates`` (a mixin of ``Storage`` and ``PgStorage``): the writes
that are one ``UPDATE tables`` through ``Tables._update_table`` (``?``
placeholders; PgStorage translates them) and a few reads through ``_read()``."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from .models import GuildSettings, SeatRow, TableRow

TABLE_STATUSES = ("lobby", "playing", "finished", "closed")
#: the statuses of a table that is open: a lobby or a game being played
OPEN_STATUSES = ("lobby", "playing")

#: a table's row with its game's first dealer, as ``table_row`` reads it
TABLE_SELECT = """
    SELECT t.id, t.guild_id, t.channel_id, t.number, t.host_id, t.preset, t.options,
           t.status, t.lobby_message_id, t.table_message_id, t.next_deal_delay,
           g.first_dealer, t.created_at, t.offer_key, t.offer_message_id, t.place,
           t.game_commitment, t.commitment_message_id, t.coach, t.end_shown, t.ended_at,
           t.channel_removed, t.opened_by, t.final_message_id
    FROM tables t LEFT JOIN games g ON g.table_id = t.id
"""


def table_row(row: Any) -> TableRow:  # a row of sqlite3 or asyncpg
    """A ``TableRow`` from a row of ``TABLE_SELECT`` (sqlite3 or asyncpg)."""
    return TableRow(
        id=row["id"], guild_id=row["guild_id"], channel_id=row["channel_id"],
        number=row["number"], host_id=row["host_id"], preset=row["preset"],
        options=json.loads(row["options"]), status=row["status"],
        lobby_message_id=row["lobby_message_id"], table_message_id=row["table_message_id"],
        next_deal_delay=row["next_deal_delay"], first_dealer=row["first_dealer"],
        created_at=row["created_at"], offer_key=row["offer_key"],
        offer_message_id=row["offer_message_id"], place=row["place"],
        game_commitment=row["game_commitment"],
        commitment_message_id=row["commitment_message_id"], coach=bool(row["coach"]),
        end_shown=bool(row["end_shown"]), ended_at=row["ended_at"],
        channel_removed=bool(row["channel_removed"]), opened_by=row["opened_by"],
        final_message_id=row["final_message_id"],
    )


def seat_row(row: Any) -> SeatRow:  # a row of sqlite3 or asyncpg
    """A ``SeatRow`` from a row of ``seats`` (sqlite3 or asyncpg)."""
    return SeatRow(
        table_id=row["table_id"], seat=row["seat"], member_id=row["member_id"], name=row["name"],
        away=bool(row["away"]), timeouts=row["timeouts"], gone=bool(row["gone"]),
        ai_level=row["ai_level"],
    )


def check_shards(shard_ids: Iterable[int], shard_count: int) -> tuple[int, ...]:
    """``shard_ids`` sorted, once each, after checking them against ``shard_count``.
    Raises ValueError for a count below 1, no shard, or an id outside ``0…count-1``."""
    if shard_count < 1:
        raise ValueError(f"a shard count is 1 or more, not {shard_count}")
    ids = tuple(sorted({int(i) for i in shard_ids}))
    if not ids or ids[0] < 0 or ids[-1] >= shard_count:
        raise ValueError(f"shard ids must be among 0-{shard_count - 1}, not {list(shard_ids)}")
    return ids


def utc_now() -> str:
    """Now, as the storage writes timestamps: ISO 8601 UTC to the second."""
    return datetime.now(UTC).isoformat(timespec="seconds")


CLOSED_DEAL_STATUSES = ("finished", "void")


class TableUpdates:
    """Writes, reads and checks shared by ``Storage`` and ``PgStorage``."""

    if TYPE_CHECKING:  # provided by Storage and PgStorage; ``db`` is their connection
        def _read(self) -> AbstractAsyncContextManager[Any]: ...

        async def _update_table(self, table_id: int, sql: str,
                                params: tuple[Any, ...]) -> None: ...

        async def _settings(self, db: Any, guild_id: int) -> GuildSettings: ...

        @staticmethod
        async def _one(db: Any, sql: str, params: Iterable[Any] = ()) -> Any: ...

        @staticmethod
        async def _all(db: Any, sql: str, params: Iterable[Any] = ()) -> list[Any]: ...

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

    async def set_game_seed(self, table_id: int, seed: str, commitment: str) -> None:
        """Keep the game's secret seed (hex) and its public commitment; they never
        change afterwards (a trigger refuses). Raises ValueError for an unknown table."""
        await self._update_table(
            table_id, "UPDATE tables SET game_seed = ?, game_commitment = ? WHERE id = ?",
            (seed, commitment))

    async def set_commitment_message(self, table_id: int, message_id: int) -> None:
        """Remember the fair-shuffle message that shows the game's commitment; it
        never changes afterwards (a trigger refuses). Raises ValueError for an
        unknown table."""
        await self._update_table(
            table_id, "UPDATE tables SET commitment_message_id = ? WHERE id = ?",
            (message_id,))

    # ------------------------------------------------- a table's end and its channel
    # (docs/RELIABILITY.md "A table's channel")

    async def set_ended(self, table_id: int) -> None:
        """Note that the table finished or closed now (``ended_at``), with its end
        still to be shown (``end_shown`` = 0). Raises ValueError for an unknown table."""
        await self._update_table(
            table_id, "UPDATE tables SET ended_at = COALESCE(ended_at, ?), end_shown = 0"
            " WHERE id = ?", (utc_now(),))

    async def set_end_shown(self, table_id: int) -> None:
        """Note that the table's end has been shown in Discord (``end_shown``).
        Raises ValueError for an unknown table."""
        await self._update_table(table_id, "UPDATE tables SET end_shown = 1 WHERE id = ?", ())

    async def set_final_message(self, table_id: int, message_id: int) -> None:
        """Remember the table's final standings message. Raises ValueError for an
        unknown table."""
        await self._update_table(
            table_id, "UPDATE tables SET final_message_id = ? WHERE id = ?", (message_id,))

    async def last_audit_detail(self, guild_id: int, action: str) -> str | None:
        """The detail of the guild's latest audit row of ``action``, ``None`` if none."""
        async with self._read() as db:
            row = await self._one(
                db, "SELECT detail FROM audit WHERE guild_id = ? AND action = ?"
                " ORDER BY id DESC LIMIT 1", (guild_id, action))
        return None if row is None else str(row[0])

    async def set_channel_removed(self, table_id: int) -> None:
        """Note that the channel or thread the bot made for the table is gone.
        Raises ValueError for an unknown table."""
        await self._update_table(
            table_id, "UPDATE tables SET channel_removed = 1 WHERE id = ?", ())

    async def kept_channels(self, shards: tuple[Sequence[int], int] | None = None,
                            ) -> list[tuple[TableRow, int]]:
        """The ended tables whose channel or thread the bot made and still keeps
        (its end shown), with their guild's ``keep_days``, oldest end first;
        ``shards`` (``(shard_ids, shard_count)``): only the guilds they own."""
        where = ("t.ended_at IS NOT NULL AND t.channel_removed = 0 AND t.end_shown = 1"
                 " AND t.place IN ('channel', 'thread')")
        if shards is not None:
            ids = ", ".join(str(int(i)) for i in shards[0])
            where += f" AND (t.guild_id >> 22) % {int(shards[1])} IN ({ids})"
        async with self._read() as db:
            rows = await self._all(
                db, TABLE_SELECT.replace("FROM tables t", ", COALESCE(s.keep_days, 7) AS keep"
                                         " FROM tables t LEFT JOIN guild_settings s"
                                         " ON s.guild_id = t.guild_id")
                + f" WHERE {where} ORDER BY t.ended_at, t.id")
        return [(table_row(row), int(row["keep"])) for row in rows]

    async def unfinished_tables_since(self, guild_id: int, member_id: int, since: str) -> int:
        """How many tables ``member_id`` opened in the guild at or after ``since``
        (ISO 8601 UTC, as ``utc_now``) that were not played to their end: lobbies
        and games still open, lobbies that closed, and games ended early."""
        async with self._read() as db:
            row = await self._one(
                db, "SELECT COUNT(*) FROM tables WHERE guild_id = ? AND opened_by = ?"
                " AND created_at >= ? AND status <> 'finished'", (guild_id, member_id, since))
        return int(row[0])
