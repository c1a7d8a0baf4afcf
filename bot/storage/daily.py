"""The daily deal's seeds and plays, written once for both storages (``DailyDeals``:
a mixin of ``Storage`` and ``PgStorage``; docs/DAILY.md, migration 0014).

A day's seed is written once (``ON CONFLICT DO NOTHING``) and read back, so two
processes that draw a seed for the same day at once both keep the one that was
written first. A play's row is written when the member's game begins: a second
``begin_play`` of the same guild, day and member writes nothing, so nobody plays
a day twice. A move is written only when the play stands at the number of moves
the mover saw (``seq``): a stale or repeated click writes nothing.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from .shared import utc_now
from .units import Statements, Tx


@dataclass(frozen=True)
class DailySeed:
    """A day's seed (hex, secret until the day is over) and its commitment (hex)."""

    day: int
    seed: str
    commitment: str


@dataclass(frozen=True)
class DailyPlay:
    """A member's game of a day's deal: their ``moves`` (the member's operations as
    the action log writes them), how many (``seq``), their ``result`` once the deal
    is over (``None`` while it runs) and their name when they began."""

    guild_id: int
    day: int
    member_id: int
    name: str
    moves: list[dict[str, Any]]
    seq: int
    result: int | None


def _play(row: Any) -> DailyPlay:
    moves = json.loads(str(row["moves"]))
    return DailyPlay(int(row["guild_id"]), int(row["day"]), int(row["member_id"]),
                     str(row["name"]), moves if isinstance(moves, list) else [],
                     int(row["seq"]), None if row["result"] is None else int(row["result"]))


_PLAY = ("SELECT guild_id, day, member_id, name, moves, seq, result FROM daily_plays"
         " WHERE guild_id = ? AND day = ? AND member_id = ?")


class DailyDeals(Statements):
    """The storages' daily-deal calls (a mixin of ``Storage`` and ``PgStorage``)."""

    async def daily_seed(self, day: int, seed: str, commitment: str) -> DailySeed:
        """The seed of ``day`` (days from 1970-01-01): the one stored, or else
        ``seed`` with ``commitment`` (both 64 hex digits), stored now."""
        async def keep(tx: Tx) -> DailySeed:
            await tx.run("INSERT INTO daily_seeds (day, seed, commitment, created_at)"
                         " VALUES (?, ?, ?, ?) ON CONFLICT (day) DO NOTHING",
                         (day, seed, commitment, utc_now()))
            row = await tx.one("SELECT day, seed, commitment FROM daily_seeds WHERE day = ?",
                               (day,))
            return DailySeed(int(row["day"]), str(row["seed"]), str(row["commitment"]))
        return await self._step_now(keep)

    async def stored_daily_seed(self, day: int) -> DailySeed | None:
        """The stored seed of ``day``, or ``None`` when none was drawn."""
        async def read(tx: Tx) -> DailySeed | None:
            row = await tx.one("SELECT day, seed, commitment FROM daily_seeds WHERE day = ?",
                               (day,))
            return None if row is None else DailySeed(int(row["day"]), str(row["seed"]),
                                                      str(row["commitment"]))
        return await self._step_read(read)

    async def daily_play(self, guild_id: int, day: int, member_id: int) -> DailyPlay | None:
        """The member's game of ``day`` in the guild, or ``None`` before they began."""
        async def read(tx: Tx) -> DailyPlay | None:
            row = await tx.one(_PLAY, (guild_id, day, member_id))
            return None if row is None else _play(row)
        return await self._step_read(read)

    async def begin_daily_play(self, guild_id: int, day: int, member_id: int,
                               name: str) -> tuple[DailyPlay, bool] | None:
        """Begin the member's game of ``day`` (the day's seed is stored): returns
        the play and ``True``, or the play begun before in this guild and
        ``False``; ``None`` (nothing written) when the member began the day's game
        in another guild (one a day everywhere: migration 0016's unique index, so
        two guilds at the same instant cannot both begin it)."""
        async def begin(tx: Tx) -> tuple[DailyPlay, bool] | None:
            made = await tx.run(
                "INSERT INTO daily_plays (guild_id, day, member_id, name, started_at)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (guild_id, day, member_id, name, utc_now()))
            row = await tx.one(_PLAY, (guild_id, day, member_id))
            return None if row is None else (_play(row), made == 1)
        return await self._step_now(begin)

    async def save_daily_moves(self, guild_id: int, day: int, member_id: int, seq: int,
                               moves: list[dict[str, Any]], result: int | None) -> bool:
        """Write the member's ``moves`` (and ``result`` once the deal is over) when
        the play still stands at ``seq`` moves and is not over; ``False`` (nothing
        written) otherwise."""
        async def save(tx: Tx) -> bool:
            done = await tx.run(
                "UPDATE daily_plays SET moves = ?, seq = ?, result = ?, finished_at = ?"
                " WHERE guild_id = ? AND day = ? AND member_id = ? AND seq = ?"
                " AND result IS NULL",
                (json.dumps(moves, separators=(",", ":")), len(moves), result,
                 None if result is None else utc_now(), guild_id, day, member_id, seq))
            return done == 1
        return await self._step_now(save)

    async def daily_results(self, guild_id: int, day: int) -> list[tuple[int, str, int]]:
        """``(member, name, result)`` of every finished game of ``day`` in the
        guild, by member id."""
        async def read(tx: Tx) -> list[tuple[int, str, int]]:
            rows = await tx.all(
                "SELECT member_id, name, result FROM daily_plays WHERE guild_id = ? AND day = ?"
                " AND result IS NOT NULL ORDER BY member_id", (guild_id, day))
            return [(int(r["member_id"]), str(r["name"]), int(r["result"])) for r in rows]
        return await self._step_read(read)
