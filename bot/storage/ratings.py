"""Skill ratings and seasons, written once for both storages (``Ratings``: a mixin
of ``Storage`` and ``PgStorage``; docs/RATINGS.md).

A finished game's ratings are updated by ``rate_game``, a write queued in the unit
of work that finishes the game: the game's ``rated_games`` row and its players'
new ratings are committed with the game's end, or not at all. The row is written
first and only once (``ON CONFLICT DO NOTHING``), so a game is never rated twice.
The storage knows nothing of the rating model: the service hands it the function
that computes the new ratings (``Rater``), which runs inside the transaction.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .shared import utc_now
from .units import Statements, Tx

#: the AI levels rated as pseudo-members (docs/AI.md), in their order of strength
AI_LEVELS = ("easy", "normal", "strong")


@dataclass(frozen=True)
class Player:
    """Whose rating a seat moves: a member (``ai_level`` ``""``) or an AI level
    (``member_id`` 0, ``ai_level`` one of ``AI_LEVELS``)."""

    member_id: int
    ai_level: str = ""


@dataclass(frozen=True)
class SkillRow:
    """A player's rating in one guild, season and preset: ``mu`` and ``sigma``
    (the model's units, docs/RATINGS.md) after ``games`` rated games."""

    player: Player
    mu: float
    sigma: float
    games: int


@dataclass(frozen=True)
class SeasonRow:
    """A season of a guild: its ``number`` (from 1), when it began (ISO 8601 UTC;
    ``None`` for season 1, which began with the guild's first game), who began it,
    and the ledger rows it counts: ids after ``ledger_after`` and up to
    ``ledger_until`` (``None``: the current season, no end)."""

    number: int
    started_at: str | None
    started_by: int | None
    ledger_after: int
    ledger_until: int | None


#: the new ratings of a game's players: given each player's rating before the game
#: (``(mu, sigma)``, ``None`` for a first game) and their ranks (1 is first; ties
#: share a rank), in the same order, returns each player's ``(mu, sigma)`` after it
Rater = Callable[[list[tuple[float, float] | None], list[int]], list[tuple[float, float]]]

_CURRENT = "SELECT COALESCE(MAX(number), 1) FROM seasons WHERE guild_id = ?"

_UPSERT = ("INSERT INTO ratings (guild_id, season, preset, member_id, ai_level, mu, sigma, games,"
           " updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?)"
           " ON CONFLICT (guild_id, season, preset, member_id, ai_level) DO UPDATE SET"
           " mu = excluded.mu, sigma = excluded.sigma, games = ratings.games + 1,"
           " updated_at = excluded.updated_at")


async def current_season(tx: Tx, guild_id: int) -> int:
    """The number of the guild's current season (1 until an admin starts another)."""
    row = await tx.one(_CURRENT, (guild_id,))
    return int(row[0])


async def rate(tx: Tx, table_id: int, guild_id: int, preset: str, players: Sequence[Player],
               ranks: Sequence[int], rater: Rater) -> bool:
    """Rate the finished game of ``table_id`` in the guild's current season, once:
    returns False (nothing written) when it was rated already. A player seated
    more than once (an AI level at two seats) moves by the mean of its seats'
    moves and counts one game."""
    season = await current_season(tx, guild_id)
    now = utc_now()
    if await tx.run("INSERT INTO rated_games (table_id, guild_id, season, preset, rated_at)"
                    " VALUES (?, ?, ?, ?, ?) ON CONFLICT (table_id) DO NOTHING",
                    (table_id, guild_id, season, preset, now)) == 0:
        return False
    ids = sorted({p.member_id for p in players})
    rows = await tx.all(
        "SELECT member_id, ai_level, mu, sigma FROM ratings WHERE guild_id = ? AND season = ?"
        f" AND preset = ? AND member_id IN ({', '.join('?' for _ in ids)})",
        (guild_id, season, preset, *ids))
    known = {Player(int(r["member_id"]), str(r["ai_level"])): (float(r["mu"]), float(r["sigma"]))
             for r in rows}
    after = rater([known.get(p) for p in players], list(ranks))
    moved: dict[Player, list[tuple[float, float]]] = {}
    for player, new in zip(players, after, strict=True):
        moved.setdefault(player, []).append(new)
    await tx.many(_UPSERT, [
        (guild_id, season, preset, p.member_id, p.ai_level,
         sum(m for m, _ in news) / len(news), sum(s for _, s in news) / len(news), now)
        for p, news in moved.items()])
    return True


class Ratings(Statements):
    """The storages' rating and season calls (a mixin of ``Storage`` and ``PgStorage``)."""

    async def rate_game(self, table_id: int, guild_id: int, preset: str,
                        players: Sequence[Player], ranks: Sequence[int], rater: Rater) -> None:
        """Queue the rating of the finished game of ``table_id`` (``rate``): inside
        a unit of work it is written at the unit's commit, with the game's end, and
        costs no call of its own. ``players`` and ``ranks`` (1 is first; ties share
        a rank) in seat order. Raises ValueError (nothing written) when they differ
        in length or name no player."""
        if not players or len(players) != len(ranks):
            raise ValueError("a rated game needs one rank per player")
        seated, placed = tuple(players), tuple(ranks)

        async def write(tx: Tx) -> None:
            await rate(tx, table_id, guild_id, preset, seated, placed, rater)
        await self._step_later(write)

    async def current_season(self, guild_id: int) -> int:
        """The number of the guild's current season (1 until an admin starts another)."""
        async def read(tx: Tx) -> int:
            return await current_season(tx, guild_id)
        return await self._step_read(read)

    async def seasons(self, guild_id: int) -> list[SeasonRow]:
        """Every season of the guild, season 1 first and the current one last."""
        async def read(tx: Tx) -> list[Any]:
            return list(await tx.all(
                "SELECT number, started_at, started_by, ledger_after FROM seasons"
                " WHERE guild_id = ? ORDER BY number", (guild_id,)))
        rows = await self._step_read(read)
        out: list[SeasonRow] = []
        starts: list[tuple[int, str | None, int | None, int]] = [(1, None, None, 0)]
        starts += [(int(r["number"]), str(r["started_at"]),
                    None if r["started_by"] is None else int(r["started_by"]),
                    int(r["ledger_after"])) for r in rows]
        for i, (number, at, by, after) in enumerate(starts):
            until = starts[i + 1][3] if i + 1 < len(starts) else None
            out.append(SeasonRow(number, at, by, after, until))
        return out

    async def start_season(self, guild_id: int, member_id: int | None) -> int:
        """Begin the guild's next season now, and audit it (``member_id``: who asked).
        Returns its number. Two at once: the second raises the driver's
        IntegrityError (PostgreSQL: UniqueViolationError) and writes nothing."""
        async def start(tx: Tx) -> int:
            number = await current_season(tx, guild_id) + 1
            top = await tx.one("SELECT COALESCE(MAX(id), 0) FROM ledger WHERE guild_id = ?",
                               (guild_id,))
            now = utc_now()
            await tx.run("INSERT INTO seasons (guild_id, number, started_at, started_by,"
                         " ledger_after) VALUES (?, ?, ?, ?, ?)",
                         (guild_id, number, now, member_id, int(top[0])))
            await tx.run("INSERT INTO audit (guild_id, member_id, action, detail, created_at)"
                         " VALUES (?, ?, 'season', ?, ?)",
                         (guild_id, member_id, f"season {number} began", now))
            return number
        return await self._step_now(start)

    async def skill_board(self, guild_id: int, season: int, preset: str) -> list[SkillRow]:
        """Every rating of the guild's ``season`` and ``preset``, members' and AI
        levels', by ordinal (``mu - 3 * sigma``) highest first, then member id and
        level."""
        async def read(tx: Tx) -> list[SkillRow]:
            rows = await tx.all(
                "SELECT member_id, ai_level, mu, sigma, games FROM ratings WHERE guild_id = ?"
                " AND season = ? AND preset = ? ORDER BY mu - 3 * sigma DESC, member_id, ai_level",
                (guild_id, season, preset))
            return [SkillRow(Player(int(r["member_id"]), str(r["ai_level"])), float(r["mu"]),
                             float(r["sigma"]), int(r["games"])) for r in rows]
        return await self._step_read(read)

    async def rated_presets(self, guild_id: int, season: int) -> list[str]:
        """The presets with rated games in the guild's ``season``, most rated first."""
        async def read(tx: Tx) -> list[str]:
            rows = await tx.all(
                "SELECT preset FROM rated_games WHERE guild_id = ? AND season = ?"
                " GROUP BY preset ORDER BY COUNT(*) DESC, preset", (guild_id, season))
            return [str(r["preset"]) for r in rows]
        return await self._step_read(read)
