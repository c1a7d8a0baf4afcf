"""What the ``easy`` and ``normal`` AI levels decide alike (docs/AI.md): the checks
and the family dispatch of ``choose``, the widow family's forced moves, the swap
search, and the discard family's answer to an offered or drawn card. Each level
passes its own measure of a hand (a score, a percentile)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations
from typing import TypeVar

from .cards import Card, rank
from .family import Decision, Observation

_Value = TypeVar("_Value", int, float)
#: a level's choice for one family, from the observation and the seat's hand
Chooser = Callable[[Observation, tuple[Card, ...]], Decision]


def best_exchange(hand: Sequence[Card], card: Card, value: Callable[[list[Card]], _Value],
                  ) -> tuple[_Value, Card | None]:
    """The best ``value`` of a hand with ``card`` in place of one card of ``hand``,
    and the card to give up for it (``None``: no exchange beats ``hand`` as it is)."""
    best, out = value(list(hand)), None
    for given in hand:
        v = value([c for c in hand if c != given] + [card])
        if v > best:
            best, out = v, given
    return best, out


def by_family(obs: Observation, trade: Chooser, widow: Callable[[Observation], Decision],
              discard: Chooser) -> Decision:
    """Check that ``obs`` is the decision of its seat, then ask the family's chooser
    (the widow family's also decides blind, without a hand).

    Raises:
        ValueError: the observation is public, not this seat's decision, or
            (outside the widow family) without the seat's hand.
    """
    if obs.seat is None or obs.to_act != obs.seat or obs.finished:
        raise ValueError("the AI can only decide for the seat to act")
    if obs.family == "widow":
        return widow(obs)
    if obs.hand is None:
        raise ValueError("the AI needs to see its hand")
    if obs.family == "discard":
        return discard(obs, obs.hand)
    return trade(obs, obs.hand)


def forced_widow(obs: Observation) -> Decision | None:
    """The widow family's moves every level makes when it may: pounce (the fourth
    card of its tricon from the middle), then buy the horse; else ``None``."""
    if "pounce" in obs.legal and obs.hand is not None:
        fourth = next(c for c in obs.widow or () if rank(c) == rank(obs.hand[0]))
        return Decision("pounce", fourth)
    if "buy_horse" in obs.legal:
        return Decision("buy_horse")
    return None


def best_swap(
    hand: tuple[Card, ...], widow: tuple[Card, ...], swap_max: int,
    value: Callable[[list[Card]], _Value],
) -> tuple[_Value, tuple[Card, ...], tuple[Card, ...]] | None:
    """The swap of 1 to ``swap_max`` cards with ``widow`` whose hand after has the
    highest ``value``: ``(value, give, take)``, the first found on a tie; ``None``
    when no swap is possible."""
    best: tuple[_Value, tuple[Card, ...], tuple[Card, ...]] | None = None
    for k in range(1, min(swap_max, len(widow), len(hand)) + 1):
        for give in combinations(hand, k):
            for take in combinations(widow, k):
                after = value([c for c in hand if c not in give] + list(take))
                if best is None or after > best[0]:
                    best = (after, give, take)
    return best


def keep_or_throw(obs: Observation, out_for: Callable[[Card], Card | None]) -> Decision | None:
    """The discard family's answer to a card on offer or just drawn: take it in place
    of ``out_for(card)`` (the hand card it beats the hand by replacing), or refuse
    or throw it when that is ``None``; ``None`` when neither is to be decided."""
    if "accept" in obs.legal:
        assert obs.offered_card is not None
        out = out_for(obs.offered_card)
        return Decision("refuse") if out is None else Decision("accept", out)
    if "draw_keep" in obs.legal:
        assert obs.drawn is not None
        out = out_for(obs.drawn)
        return Decision("draw_discard") if out is None else Decision("draw_keep", out)
    return None
