"""A rule-based player that sees only its own observation (issue 2 "AI seats").

It keeps the two cards with the most promise, trades or barters the third, and
knocks on a good hand; the longer a deal runs, the less it needs to knock.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from .cards import Card, rank, suit
from .deal import Observation
from .hands import POINT_VALUES, Category, category_of, score


@dataclass(frozen=True)
class Decision:
    """What the AI chose. ``kind`` is ``trade``, ``barter``, ``knock`` (on its turn)
    or ``accept`` / ``refuse`` (answering a barter); ``card`` is the card given."""

    kind: str
    card: Card | None = None


def _pair_promise(a: Card, b: Card) -> int:
    """How promising a kept pair of cards is (higher is better)."""
    if rank(a) == rank(b):
        return 60 + rank(a)
    value = 0
    if suit(a) == suit(b):
        value = POINT_VALUES[rank(a)] + POINT_VALUES[rank(b)]
        gap = abs(rank(a) - rank(b))
        if gap <= 2:
            value += 8 - gap
    return value


def worst_card(hand: tuple[Card, ...]) -> Card:
    """The card whose removal keeps the most promising pair."""
    best_pair = max(combinations(hand, 2), key=lambda p: (_pair_promise(*p), sorted(p)))
    return next(c for c in hand if c not in best_pair)


def _strong(hand: tuple[Card, ...], obs: Observation) -> bool:
    s = score(hand, obs.rules.ranking)
    cat = category_of(s)
    if cat >= Category.SEQUENCE:
        return True
    if cat is Category.NONE:
        return False
    total = (s % 1000) // 4 if cat is Category.POINT else 25
    circuits = obs.moves // max(obs.n_seats, 1)
    return total >= 28 - 2 * circuits


def choose(obs: Observation) -> Decision:
    """Decide for ``obs.seat``, which must be ``obs.to_act``.

    Raises:
        ValueError: the observation is public or not this seat's decision.
    """
    if obs.seat is None or obs.hand is None or obs.to_act != obs.seat:
        raise ValueError("the AI can only decide for the seat to act")
    hand = obs.hand
    if obs.barter is not None:
        if obs.rules.barter_refusal and _strong(hand, obs):
            return Decision("refuse")
        return Decision("accept", worst_card(hand))
    if _strong(hand, obs):
        return Decision("knock")
    card = worst_card(hand)
    kept = [c for c in hand if c != card]
    if obs.seat == obs.dealer or _pair_promise(*kept) > 0:
        return Decision("trade", card)
    return Decision("barter", card)
