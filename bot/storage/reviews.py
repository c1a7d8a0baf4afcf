"""The coach's reviews of finished games and the moments of slow turns, written
once for both storages (``Reviews``: a mixin of ``Storage`` and ``PgStorage``).

- A review (docs/AI.md "Review") is stored the first time a member asks for it:
  its figures, for the member's trend, and its lines (JSON), for its pages. A
  review is a function of the game and the member, so two requests at once
  store one row (``ON CONFLICT DO NOTHING``) and read back the same.
- A turn moment is when a member to act was first given a timed turn, and when
  they were reminded: a turn timer of hours keeps its deadline through a restart,
  and ``claim_reminder`` lets exactly one reminder through.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from .shared import utc_now
from .units import Statements, Tx


@dataclass(frozen=True)
class ReviewRow:
    """A stored review: ``decisions`` with a choice, ``agreed`` with the coach,
    ``cost`` (expected points given up, >= 0) and ``lines`` (the service's JSON
    objects, one per decision, in order)."""

    table_id: int
    member_id: int
    decisions: int
    agreed: int
    cost: float
    lines: list[dict[str, Any]]

    @property
    def accuracy(self) -> float | None:
        """``agreed / decisions`` (0..1); ``None`` with no decision."""
        return self.agreed / self.decisions if self.decisions else None


@dataclass(frozen=True)
class TurnMoment:
    """A timed turn: given to ``seat`` at ``started_at``; ``reminded_at`` once the
    member was reminded (both ISO 8601 UTC)."""

    started_at: str
    reminded_at: str | None


class Reviews(Statements):
    """The storages' review and turn-moment calls."""

    async def review(self, table_id: int, member_id: int) -> ReviewRow | None:
        """The member's stored review of the game at ``table_id``, if any."""
        async def read(tx: Tx) -> ReviewRow | None:
            row = await tx.one(
                "SELECT decisions, agreed, cost, lines FROM reviews"
                " WHERE table_id = ? AND member_id = ?", (table_id, member_id))
            if row is None:
                return None
            return ReviewRow(table_id, member_id, int(row["decisions"]), int(row["agreed"]),
                             float(row["cost"]), json.loads(row["lines"]))
        return await self._step_read(read)

    async def save_review(self, guild_id: int, review: ReviewRow) -> None:
        """Store ``review`` (the first one stored for its game and member stays)."""
        async def write(tx: Tx) -> None:
            await tx.run(
                "INSERT INTO reviews (table_id, member_id, guild_id, decisions, agreed, cost,"
                " lines, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (table_id, member_id) DO NOTHING",
                (review.table_id, review.member_id, guild_id, review.decisions, review.agreed,
                 review.cost, json.dumps(review.lines), utc_now()))
        await self._step_now(write)

    async def accuracy_trend(self, guild_id: int, member_id: int, limit: int,
                             ) -> list[tuple[int, float]]:
        """The accuracy (0..1) of the member's latest ``limit`` reviewed games in the
        guild that had a decision, oldest first: ``(table id, accuracy)``."""
        async def read(tx: Tx) -> list[tuple[int, float]]:
            rows = await tx.all(
                "SELECT table_id, decisions, agreed FROM reviews WHERE guild_id = ?"
                " AND member_id = ? AND decisions > 0 ORDER BY table_id DESC LIMIT ?",
                (guild_id, member_id, limit))
            return [(int(r["table_id"]), int(r["agreed"]) / int(r["decisions"]))
                    for r in reversed(rows)]
        return await self._step_read(read)

    async def latest_game_of(self, guild_id: int, member_id: int) -> int | None:
        """The table id of the member's latest game in the guild that is over
        (``finished`` or ``closed`` after its start), if any."""
        async def read(tx: Tx) -> int | None:
            row = await tx.one(
                "SELECT MAX(t.id) FROM tables t JOIN games g ON g.table_id = t.id"
                " JOIN seats s ON s.table_id = t.id WHERE t.guild_id = ? AND s.member_id = ?"
                " AND t.status IN ('finished', 'closed')", (guild_id, member_id))
            return None if row is None or row[0] is None else int(row[0])
        return await self._step_read(read)

    async def turn_moment(self, table_id: int, deal: int, seq: int, seat: int,
                          now: str) -> TurnMoment:
        """The timed turn of ``seat`` at operation ``seq`` of deal ``deal``: written
        with ``now`` (ISO 8601 UTC) as its start the first time, read back after."""
        async def step(tx: Tx) -> TurnMoment:
            await tx.run(
                "INSERT INTO turn_moments (table_id, deal, seq, seat, started_at)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (table_id, deal, seq) DO NOTHING",
                (table_id, deal, seq, seat, now))
            row = await tx.one("SELECT started_at, reminded_at FROM turn_moments"
                               " WHERE table_id = ? AND deal = ? AND seq = ?",
                               (table_id, deal, seq))
            return TurnMoment(str(row["started_at"]),
                              None if row["reminded_at"] is None else str(row["reminded_at"]))
        return await self._step_now(step)

    async def claim_reminder(self, table_id: int, deal: int, seq: int, now: str) -> bool:
        """Mark the turn's reminder sent at ``now``; ``True`` only for the one call
        that marked it (the reminder is then sent by that caller, once)."""
        async def step(tx: Tx) -> bool:
            return await tx.run(
                "UPDATE turn_moments SET reminded_at = ? WHERE table_id = ? AND deal = ?"
                " AND seq = ? AND reminded_at IS NULL", (now, table_id, deal, seq)) == 1
        return await self._step_now(step)
