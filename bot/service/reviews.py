"""The coach's review of a finished game (docs/AI.md "Review"), for one member:
their own decisions, what the coach would have done, what the difference cost.

A review is computed the first time the member asks (``bot.engine.review``:
each decision judged from the member's view at that moment, one decision at a
time in the AI's worker process, ``AiPlayers.judge``, so the event loop and the
other tables go on), then stored (``Storage.save_review``): its pages and the
member's accuracy trend are read back at once after that. Only games whose
table is no longer open are reviewed (``Archive``), and only the moves the
member chose themselves (a move the AI or the turn timer made for them is not
theirs to answer for).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any

from ..engine import Decision, card_code
from ..engine import review as engine_review
from ..i18n import _
from ..storage import AnyStorage, PastGame, ReviewRow
from .archive import Archive
from .errors import UserError
from .players import AiPlayers

log = logging.getLogger(__name__)

#: reviewed games the trend shows, the latest last
TREND = 8


def decision_dict(decision: Decision) -> dict[str, Any]:
    """``decision`` as a stored review line holds it: ``{"kind"}`` and, when set,
    ``card`` (a card code), ``give``/``take`` (lists of codes), ``target`` (a
    seat), ``knock`` (true)."""
    out: dict[str, Any] = {"kind": decision.kind}
    if decision.card is not None:
        out["card"] = card_code(decision.card)
    if decision.give:
        out["give"] = [card_code(c) for c in decision.give]
        out["take"] = [card_code(c) for c in decision.take]
    if decision.target is not None:
        out["target"] = decision.target
    if decision.knock:
        out["knock"] = True
    return out


def line_of(judged: engine_review.Judged) -> dict[str, Any]:
    """One decision of a review as it is stored: ``deal`` (from 1), ``move`` (the
    deal's operations before it, from 0), ``hand`` (the member's own cards then,
    codes, or ``None``), ``did`` and ``coach`` (``decision_dict``), ``forced`` and
    ``cost`` (expected points, 2 decimals)."""
    return {"deal": judged.deal, "move": judged.seq,
            "hand": None if judged.hand is None else [card_code(c) for c in judged.hand],
            "did": decision_dict(judged.decision), "coach": decision_dict(judged.advice),
            "forced": judged.forced, "cost": round(judged.cost, 2)}


@dataclass(frozen=True)
class Review:
    """A member's review of a game, ready to show.

    Attributes:
        past: the game (its history line: number, preset, seat names).
        seat: the member's seat.
        row: the stored review: figures and lines.
        trend: ``(table id, accuracy)`` of the member's latest reviewed games in
            the guild, oldest first (this one included when it had a decision).
    """

    past: PastGame
    seat: int
    row: ReviewRow
    trend: list[tuple[int, float]]


class Reviews:
    """Reviews of games that are over, computed once and stored.

    Args:
        storage: the opened storage.
        archive: the games that are over (what is reviewed is read from it).
        players: where the coach thinks (``AiPlayers.judge``).
    """

    def __init__(self, storage: AnyStorage, archive: Archive, players: AiPlayers) -> None:
        """Nothing computed yet."""
        self.storage = storage
        self.archive = archive
        self.players = players
        self._computing: dict[tuple[int, int], asyncio.Lock] = {}

    async def find(self, guild_id: int, member_id: int, number: int | None = None,
                   table_id: int | None = None) -> PastGame:
        """The game to review: table ``number`` or ``table_id`` of the guild, else
        the member's latest game there that is over.

        Raises:
            UserError: no such game, still running, or none of the member's.
        """
        if number is not None:
            return await self.archive.find_past(guild_id, number=number)
        if table_id is None:
            table_id = await self.storage.latest_game_of(guild_id, member_id)
            if table_id is None:
                raise UserError(_("You have no finished game in this server to review yet."))
        past = await self.storage.past_game(guild_id, table_id=table_id)
        if past is None:
            raise UserError(_("That game is not in this server's history."))
        return past

    async def review(self, guild_id: int, member_id: int, past: PastGame) -> Review:
        """The member's review of ``past`` (a game of the guild that is over):
        read back when stored, else computed (seconds: one coach's search per
        decision, in the worker) and stored.

        Raises:
            UserError: the member did not play in it, or the coach could not
                finish (nothing is stored then; asking again starts over).
        """
        if member_id not in past.members:
            raise UserError(_("You did not play in the game at table {number}: a review "
                              "covers your own decisions only.").format(number=past.number))
        seat = past.members.index(member_id)
        key = (past.table_id, member_id)
        lock = self._computing.setdefault(key, asyncio.Lock())
        try:
            async with lock:  # two presses at once: the second reads what the first stored
                row = await self.storage.review(past.table_id, member_id)
                if row is None:
                    row = await self._compute(guild_id, member_id, seat, past)
        finally:
            if not lock.locked() and self._computing.get(key) is lock:
                del self._computing[key]
        trend = await self.storage.accuracy_trend(guild_id, member_id, TREND)
        return Review(past, seat, row, trend)

    async def _compute(self, guild_id: int, member_id: int, seat: int,
                       past: PastGame) -> ReviewRow:
        arch = await self.archive.archived(guild_id, past.table_id)
        game = arch.live.game
        assert game is not None
        mine = {(d.number, a.seq) for d in arch.deals for a in d.actions
                if a.member_id == member_id}
        judged = []
        try:
            for moment in engine_review.moments(list(game.deals), seat, mine):
                judged.append(await self.players.judge(moment))
        except Exception:
            log.warning("table %s: the review for a member could not be finished",
                        past.table_id, exc_info=True)
            raise UserError(_("The coach could not finish your review right now; "
                              "try again in a moment.")) from None
        summary = engine_review.summarise(judged)
        row = ReviewRow(past.table_id, member_id, summary.decisions, summary.agreed,
                        round(summary.cost, 2), [line_of(j) for j in judged])
        await self.storage.save_review(guild_id, row)
        stored = await self.storage.review(past.table_id, member_id)
        return stored if stored is not None else row
