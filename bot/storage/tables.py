"""A guild's settings, its tables and their seats, and its audit trail, written
once for both storages (``Tables``: a mixin of ``Storage`` and ``PgStorage``; the
single-column updates of a table are ``shared.TableUpdates``). Every statement
runs against the unit of work's ``Tx`` (``bot/storage/units.py``)."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from .models import GuildSettings, SeatRow, TableRow
from .shared import TABLE_SELECT, seat_row, table_row, utc_now
from .units import Statements, Tx

#: where a table is played: a channel or a thread the bot makes, or the channel it
#: was opened in (``here``)
TABLE_MODES = ("channel", "thread", "here")
#: a guild's language for its public messages (bot/i18n), ``""``: its Discord locale
LANGUAGES = ("", "en", "de", "fr", "es")
SEAT_SHIFT = 1_000_000  # parks seats above any real seat number while renumbering
SETTING_FIELDS = tuple(f.name for f in dataclasses.fields(GuildSettings) if f.name != "guild_id")

_UPSERT_SETTINGS = (
    f"INSERT INTO guild_settings (guild_id, {', '.join(SETTING_FIELDS)}, updated_at)"
    f" VALUES (?, {', '.join('?' for _ in SETTING_FIELDS)}, ?)"
    " ON CONFLICT (guild_id) DO UPDATE SET "
    + ", ".join(f"{name} = excluded.{name}" for name in (*SETTING_FIELDS, "updated_at"))
)


class Tables(Statements):
    """Settings, tables, seats and the audit trail of both storages."""

    # ------------------------------------------------------------------ settings

    async def _settings(self, db: Any, guild_id: int) -> GuildSettings:
        """The guild's settings read on ``db`` (a connection ``_read`` yielded)."""
        return await self._settings_on(self._loop_tx(db), guild_id)

    @staticmethod
    async def _settings_on(tx: Tx, guild_id: int) -> GuildSettings:
        row = await tx.one(
            f"SELECT {', '.join(SETTING_FIELDS)} FROM guild_settings WHERE guild_id = ?",
            (guild_id,))
        if row is None:
            return GuildSettings(guild_id)
        return GuildSettings(guild_id, **{name: row[name] for name in SETTING_FIELDS})

    async def update_settings(self, guild_id: int, **fields: Any) -> GuildSettings:
        """Change some of ``table_mode``, ``turn_timer`` (s), ``default_preset``,
        ``next_deal_delay`` (s); returns the new settings. Raises ValueError for an
        unknown field, an unknown ``table_mode`` or a negative duration."""
        unknown = set(fields) - set(SETTING_FIELDS)
        if unknown:
            raise ValueError(f"unknown settings: {', '.join(sorted(unknown))}")
        if "table_mode" in fields and fields["table_mode"] not in TABLE_MODES:
            raise ValueError(f"table_mode must be one of {', '.join(TABLE_MODES)}")
        if "language" in fields and fields["language"] not in LANGUAGES:
            raise ValueError(f"language must be one of {', '.join(LANGUAGES[1:])} (or none)")
        for name in ("turn_timer", "next_deal_delay"):
            if name in fields and int(fields[name]) < 0:
                raise ValueError(f"{name} cannot be negative")
        async with self._write() as tx:
            settings = dataclasses.replace(await self._settings_on(tx, guild_id), **fields)
            values = [getattr(settings, name) for name in SETTING_FIELDS]
            await tx.run(_UPSERT_SETTINGS, (guild_id, *values, utc_now()))
        return settings

    # ------------------------------------------------------------------ tables

    async def create_table(
        self, guild_id: int, channel_id: int, host_id: int, preset: str,
        options: dict[str, Any], next_deal_delay: int, place: str | None = None,
        coach: bool = True,
    ) -> TableRow:
        """Insert a lobby table; ``number`` = 1 + max number in the guild.
        ``place``: ``channel`` / ``thread`` (created by the bot for this table) or
        ``here`` (an existing channel); ``coach``: hints allowed. Raises ValueError
        for another place."""
        if place is not None and place not in TABLE_MODES:
            raise ValueError(f"unknown table place {place!r}")

        async def insert(tx: Tx) -> TableRow:
            table_id = await tx.insert(
                "INSERT INTO tables (guild_id, channel_id, number, host_id, preset, options,"
                " status, next_deal_delay, created_at, place, coach, opened_by) VALUES (?, ?,"
                " (SELECT COALESCE(MAX(number), 0) + 1 FROM tables WHERE guild_id = ?), ?, ?,"
                " ?, 'lobby', ?, ?, ?, ?, ?)",
                (guild_id, channel_id, guild_id, host_id, preset, json.dumps(options),
                 next_deal_delay, utc_now(), place, int(coach), host_id))
            return table_row(await tx.one(TABLE_SELECT + " WHERE t.id = ?", (table_id,)))
        return await self._step_now(insert)

    async def next_table_number(self, guild_id: int) -> int:
        """The ``number`` the guild's next table will get (1 + max so far)."""
        async with self._read() as db:
            row = await self._loop_tx(db).one(
                "SELECT COALESCE(MAX(number), 0) + 1 FROM tables WHERE guild_id = ?", (guild_id,))
        return int(row[0])

    async def _update_table(self, table_id: int, sql: str, params: tuple[Any, ...]) -> None:
        """Run ``sql`` (an ``UPDATE tables … WHERE id = ?``) with ``params`` and the
        table's id. Raises ValueError for an unknown table."""
        async def update(tx: Tx) -> None:
            if await tx.run(sql, (*params, table_id)) == 0:
                raise ValueError(f"no table {table_id}")
        await self._step_later(update)

    async def get_table(self, table_id: int) -> TableRow | None:
        """The table with this id, or None."""
        async with self._read() as db:
            row = await self._loop_tx(db).one(TABLE_SELECT + " WHERE t.id = ?", (table_id,))
        return None if row is None else table_row(row)

    async def open_tables(self) -> list[TableRow]:
        """All tables with status lobby or playing, by id."""
        async with self._read() as db:
            rows = await self._loop_tx(db).all(
                TABLE_SELECT + " WHERE t.status IN ('lobby', 'playing') ORDER BY t.id")
        return [table_row(row) for row in rows]

    # ------------------------------------------------------------------ seats

    async def seats(self, table_id: int) -> list[SeatRow]:
        """Seats ordered by seat number (0..n-1)."""
        async with self._read() as db:
            rows = await self._loop_tx(db).all(
                "SELECT * FROM seats WHERE table_id = ? ORDER BY seat", (table_id,))
        return [seat_row(row) for row in rows]

    async def add_seat(self, table_id: int, member_id: int | None, name: str,
                       ai_level: str | None = None) -> SeatRow:
        """Append a seat (next number); an AI seat (``member_id`` None) plays at
        ``ai_level`` (``easy`` when not given). Raises ValueError if the member
        already sits at an open table of the guild, or if the table does not exist."""
        if member_id is None:
            ai_level = ai_level or "easy"
        elif ai_level is not None:
            raise ValueError("a member's seat has no AI level")

        async def insert(tx: Tx) -> SeatRow:
            table = await tx.one("SELECT guild_id FROM tables WHERE id = ?", (table_id,))
            if table is None:
                raise ValueError(f"no table {table_id}")
            if member_id is not None:
                seated = await tx.one(
                    "SELECT t.number FROM tables t JOIN seats s ON s.table_id = t.id"
                    " WHERE t.guild_id = ? AND s.member_id = ? AND t.status IN"
                    " ('lobby', 'playing') ORDER BY t.id LIMIT 1", (table[0], member_id))
                if seated is not None:
                    raise ValueError(f"member {member_id} is already seated at table {seated[0]}")
            row = await tx.one("SELECT COALESCE(MAX(seat) + 1, 0) FROM seats WHERE table_id = ?",
                               (table_id,))
            seat = SeatRow(table_id=table_id, seat=int(row[0]), member_id=member_id, name=name,
                           ai_level=ai_level)
            await tx.run("INSERT INTO seats (table_id, seat, member_id, name, ai_level)"
                         " VALUES (?, ?, ?, ?, ?)",
                         (seat.table_id, seat.seat, seat.member_id, seat.name, seat.ai_level))
            return seat
        return await self._step_now(insert)

    async def remove_seat(self, table_id: int, seat: int) -> None:
        """Lobby only: delete the seat and renumber later seats down by one.
        Raises ValueError if the table is not in the lobby or has no such seat."""
        async def delete(tx: Tx) -> None:
            table = await tx.one("SELECT status FROM tables WHERE id = ?", (table_id,))
            if table is None or table[0] != "lobby":
                raise ValueError(f"table {table_id} is not in the lobby")
            if await tx.run("DELETE FROM seats WHERE table_id = ? AND seat = ?",
                            (table_id, seat)) == 0:
                raise ValueError(f"table {table_id} has no seat {seat}")
            # Two steps so the (table_id, seat) key never collides mid-update.
            await tx.run("UPDATE seats SET seat = seat + ? WHERE table_id = ? AND seat > ?",
                         (SEAT_SHIFT, table_id, seat))
            await tx.run("UPDATE seats SET seat = seat - ? WHERE table_id = ? AND seat >= ?",
                         (SEAT_SHIFT + 1, table_id, SEAT_SHIFT))
        await self._step_later(delete)

    async def set_seat_state(
        self, table_id: int, seat: int, *, away: bool | None = None,
        timeouts: int | None = None, gone: bool | None = None,
    ) -> None:
        """Set whichever presence fields are given. Raises ValueError for an unknown seat."""
        async def update(tx: Tx) -> None:
            if await tx.run(
                "UPDATE seats SET away = COALESCE(?, away), timeouts = COALESCE(?, timeouts),"
                " gone = COALESCE(?, gone) WHERE table_id = ? AND seat = ?",
                (None if away is None else int(away), timeouts,
                 None if gone is None else int(gone), table_id, seat),
            ) == 0:
                raise ValueError(f"no seat {seat} at table {table_id}")
        await self._step_later(update)

    # ------------------------------------------------------------------ audit

    async def audit_entries(self, guild_id: int) -> list[tuple[int | None, str, str]]:
        """The guild's audit trail, oldest first: ``[(member_id, action, detail)]``."""
        async with self._read() as db:
            rows = await self._loop_tx(db).all(
                "SELECT member_id, action, detail FROM audit WHERE guild_id = ? ORDER BY id",
                (guild_id,))
        return [(r["member_id"], r["action"], r["detail"]) for r in rows]

    async def audit(self, guild_id: int, member_id: int | None, action: str, detail: str) -> None:
        """Record an administrative or notable action (``member_id`` None for the bot)."""
        params = (guild_id, member_id, action, detail, utc_now())

        async def insert(tx: Tx) -> None:
            await tx.run("INSERT INTO audit (guild_id, member_id, action, detail, created_at)"
                         " VALUES (?, ?, ?, ?, ?)", params)
        await self._step_later(insert)
