"""The coach's review of a finished game (docs/AI.md "Review"): every decision
one seat made, what the coach would have done there, and what the difference
cost in expected points.

Each decision is judged from the seat's view at that moment alone
(``view.seat_view`` of the deal replayed up to it): what the coach would have
done is ``coach.advise`` of that view (seeded by ``coach.hint_seed``, with a
fixed playout budget and no clock, so it is the hint the member would have been
given), and the cost is the mean difference of ``strong.outcome`` between the
coach's decision and the member's, both played out by the ``normal`` policy in
the same ``WORLDS`` worlds sampled from that view (seeded by the view too). A
review is therefore a function of the seat's views alone: the same game gives
the same review in any process, and no card the seat never saw enters it.

Pure: no discord, no storage.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Iterator
from dataclasses import dataclass

from . import coach, normal, strong
from .cards import Card
from .family import DealBase, Decision, IllegalAction
from .operations import (
    BarterAnswer,
    BarterOffer,
    DrawKeep,
    Offer,
    OfferAnswer,
    Operation,
    Swap,
    TakeDiscard,
    Trade,
)
from .strong import Budget
from .view import SeatView, _fresh, seat_view

__all__ = ["BUDGET", "WORLDS", "Judged", "Moment", "Summary", "decision_of", "judge",
           "moments", "summarise"]

#: the coach's search in a review: ``coach.BUDGET``'s playouts and no clock, so the
#: advice is a function of the view alone (the hint a member was given, unless that
#: hint's safety-net deadline cut its search short)
BUDGET = Budget(playouts=coach.BUDGET.playouts, seconds=None)
#: worlds in which the member's decision and the coach's are both played out to
#: price their difference
WORLDS = 120


def decision_of(op: Operation) -> Decision:
    """The ``Decision`` that makes ``op``: acting on it for ``op.seat`` applies
    the same operation (a draw's reshuffle comes from the deal itself).
    An answer is ``accept`` with the card given back, or ``refuse``."""
    if isinstance(op, Trade | BarterOffer):
        return Decision("trade" if isinstance(op, Trade) else "barter", op.card, knock=op.knock)
    if isinstance(op, BarterAnswer | OfferAnswer):
        return Decision("refuse") if op.card is None else Decision("accept", op.card)
    if isinstance(op, Swap):
        return Decision("swap", give=op.give, take=op.take)
    if isinstance(op, TakeDiscard | DrawKeep):
        return Decision(op.kind, op.card)
    if isinstance(op, Offer):
        return Decision("offer", op.card, target=op.target)
    return Decision(op.kind)  # the seat alone: knock, pass, draw, pounce, stand, ...


@dataclass(frozen=True)
class Moment:
    """A decision the seat made, as it stood then.

    Attributes:
        deal: the deal's number (from 1).
        seq: operations of the deal before the decision.
        view: what the seat knew then (``view.seat_view``).
        decision: what the seat did.
        forced: it was the only legal decision (the coach cannot differ).
    """

    deal: int
    seq: int
    view: SeatView
    decision: Decision
    forced: bool


def _options(deal: DealBase, seat: int) -> set[Decision]:
    return {d for action in deal.legal_actions(seat) for d in deal.choices(seat, action)}


def moments(deals: list[DealBase], seat: int,
            mine: Collection[tuple[int, int]] | None = None) -> Iterator[Moment]:
    """Every decision ``seat`` made in ``deals`` (a game's deals in order, each
    played as far as it went), in order, each with the seat's view just before it.

    Args:
        deals: the game's deals (``Game.deals``).
        seat: the seat reviewed.
        mine: the ``(deal number, seq)`` of the operations the member chose
            themselves (``None``: every operation of the seat); a move the AI
            or the turn timer made for the seat is left out.

    A move made out of turn (a pounce while another seat is to act) has no
    coach's view of its own and is left out too.
    """
    for number, deal in enumerate(deals, start=1):
        replica = _fresh(deal)
        for seq, op in enumerate(deal.operations):
            if (op.seat == seat and (mine is None or (number, seq) in mine)
                    and replica.to_act == seat and not replica.finished):
                view = seat_view(replica, seat)
                forced = len(_options(replica, seat)) <= 1
                yield Moment(number, seq, view, decision_of(op), forced)
            replica.apply(op)


@dataclass(frozen=True)
class Judged:
    """One decision reviewed.

    Attributes:
        deal, seq: where it was (``Moment``).
        hand: the seat's hand then (``None``: an oldway dealer who had not looked).
        decision: what the seat did.
        advice: what the coach would have done.
        forced: the only legal decision.
        cost: expected points the seat's decision gave up against the coach's
            (0.0 when they agree or the sampled worlds show no loss; never negative).
    """

    deal: int
    seq: int
    hand: tuple[Card, ...] | None
    decision: Decision
    advice: Decision
    forced: bool
    cost: float

    @property
    def agrees(self) -> bool:
        """The seat did what the coach would have done."""
        return self.decision == self.advice


def _difference(view: SeatView, better: Decision, worse: Decision, rng: random.Random,
                worlds: int) -> float:
    """The mean of ``outcome(better) - outcome(worse)`` over ``worlds`` worlds
    sampled from ``view``, both decisions played out in the same world."""
    seat = view.seat
    total, played = 0.0, 0
    for _ in range(worlds):
        state = rng.getstate()
        first = strong.world(view, rng)
        after = rng.getstate()
        rng.setstate(state)
        second = strong.world(view, rng)
        rng.setstate(after)
        try:
            total += (strong.playout(first, seat, better, normal.choose)
                      - strong.playout(second, seat, worse, normal.choose))
        except IllegalAction:  # not legal in that world: a world the view cannot rule out
            continue
        played += 1
    return total / played if played else 0.0


def judge(moment: Moment, budget: Budget = BUDGET, worlds: int = WORLDS) -> Judged:
    """The coach's advice at ``moment`` and what the seat's decision cost against
    it (see the module docstring): a function of ``moment.view`` alone.

    Args:
        moment: a decision of the seat (``moments``).
        budget: the coach's search (default ``BUDGET``; a short one in tests).
        worlds: the worlds the cost is measured in.
    """
    view = moment.view
    advice = coach.advise(view, budget=budget, worlds=1).decision
    cost = 0.0
    if advice != moment.decision and not moment.forced:
        rng = random.Random(f"{coach.hint_seed(view)}:review")
        cost = max(0.0, _difference(view, advice, moment.decision, rng, worlds))
    return Judged(moment.deal, moment.seq, view.obs.hand, moment.decision, advice,
                  moment.forced, cost)


@dataclass(frozen=True)
class Summary:
    """A game's review in figures.

    Attributes:
        decisions: decisions with a choice (forced ones left out).
        agreed: of those, the ones where the seat did what the coach would have.
        cost: expected points given up in all.
        accuracy: ``agreed / decisions`` (0..1), ``None`` with no decision.
    """

    decisions: int
    agreed: int
    cost: float
    accuracy: float | None


def summarise(judged: list[Judged]) -> Summary:
    """The figures of a reviewed game (``Summary``)."""
    real = [j for j in judged if not j.forced]
    agreed = sum(1 for j in real if j.agrees)
    cost = sum(j.cost for j in real)
    return Summary(len(real), agreed, cost, agreed / len(real) if real else None)
