"""The coach (docs/AI.md "Coach"): the strong AI's choice for a member's own
decision, with the figure that explains it — how often the member's hand, as it
is now, would win a showdown against the hands the others may hold.

Like the strong AI it sees only the member's view (``view.seat_view``): the other
hands are sampled from the worlds consistent with it, never read from the deal.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from . import strong
from .family import Decision, Observation
from .hands import describe, score
from .strong import Budget
from .view import SeatView

#: sampled worlds behind the showdown figure
WORLDS = 200


@dataclass(frozen=True)
class Advice:
    """What the coach suggests.

    Attributes:
        decision: the strong AI's choice for the seat's decision now.
        wins: the share (0..1) of sampled worlds in which the seat's hand, as it is
            now, beats every other hand still in play (a tie counts as a share).
        worlds: how many worlds ``wins`` was measured on.
    """

    decision: Decision
    wins: float
    worlds: int


def showdown_share(view: SeatView, rng: random.Random, worlds: int = WORLDS) -> float:
    """The share (0..1) of ``worlds`` sampled worlds, consistent with ``view``, in
    which the seat's hand now beats every other active hand at a showdown
    (ranked as the preset ranks hands, docs/RULES.md §1); a tie of k hands counts
    1/k. ``0.0`` when the seat holds no hand yet."""
    me = view.seat
    if not view.obs.hand:
        return 0.0
    ranking = view.obs.rules.ranking
    total = 0.0
    for _ in range(worlds):
        deal = strong.world(view, rng)
        scores = {s: score(deal.hands[s], ranking) for s in deal.active if deal.hands[s]}
        mine = scores.get(me)
        if mine is None:
            continue
        best = max(scores.values())
        if mine == best:
            total += 1 / sum(1 for v in scores.values() if v == best)
    return total / worlds


#: decisions that end the player's exchanging: the hand as it is goes to the showdown
STOPS = frozenset({"knock", "stand", "keep_hand", "pass", "refuse", "pounce"})


def explain(advice: Advice, obs: Observation) -> str:
    """One line of reason for ``advice``, given to the seat that asked (its own
    hand is named), e.g. "your sequence to 8 wins about 83% of showdowns here"."""
    if not obs.hand:  # a dealer who has not looked yet: no figure to give
        return "it is the choice that does best for the hands you could hold"
    hand = describe(obs.hand, obs.rules.ranking)
    share = round(advice.wins * 100)
    if advice.decision.kind in STOPS or advice.decision.knock:
        return f"your {hand} wins about {share}% of showdowns here"
    return f"your {hand} would win only about {share}% of showdowns as it is"


def advise(view: SeatView, rng: random.Random | None = None,
           budget: Budget | None = None, worlds: int = WORLDS) -> Advice:
    """The coach's advice for ``view.seat``, which must be the seat to act.

    Args:
        view: what the seat knows (``view.seat_view(deal, seat)``).
        rng: the random source of the sampled worlds (default: a fresh one).
        budget: the strong AI's budget (default ``strong.DEFAULT_BUDGET``).
        worlds: worlds sampled for ``Advice.wins``.

    Raises:
        ValueError: not this seat's decision.
    """
    rng = rng if rng is not None else random.Random()
    decision = strong.choose(view, rng, budget)
    return Advice(decision, showdown_share(view, rng, worlds), worlds)
