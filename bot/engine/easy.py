"""The AI seats: three levels behind one entry point (docs/AI.md).

``choose(observation)`` returns a ``Decision`` whose ``kind`` is one of
the observation's ``legal`` action names (``deal.act(seat, decision)`` applies
it). The levels (``levels.LEVELS``; ``levels.choose``/``levels.decide`` pick one):

- ``easy``: the rules below (``choose_easy``), from the observation alone;
- ``normal``: a heuristic that counts the unseen cards (``normal.py``);
- ``strong``: determinised Monte Carlo over the cards the seat cannot see
  (``strong.py``); it needs the seat's memory of the deal, a ``SeatView``
  (``view.seat_view``), and takes a random source and a ``Budget``.

The ``easy`` rules, a rule-based player that sees only its own observation
(issue 2 "AI seats"):

- trade and barter: keep the two cards with the most promise, trade or barter
  the third, knock on a good hand; the longer a deal runs, the less it needs.
- widow (widow, oldway): pounce whenever it can; as dealer take the widow when
  it beats the hand (blind under oldway: when the widow alone is good); on a
  turn make the exchange that improves the hand most, else knock or stand;
  always buy the horse. Every exchange strictly improves its own hand, so the
  AI stops after finitely many turns.
- discard (jaques): accept an offered card or keep a drawn one only when it
  improves the hand; take the discard top when it improves the hand, else
  draw; knock on a strong hand; after eight circuits it knocks (or passes
  when it cannot), so deals end. It never offers direct trades itself.
"""

from __future__ import annotations

from itertools import combinations

from .cards import Card, rank, suit
from .family import Decision, Observation
from .hands import POINT_VALUES, Category, category_of, score
from .moves import best_exchange, best_swap, by_family, forced_widow, keep_or_throw

__all__ = ["Decision", "choose", "choose_easy", "worst_card"]

LATE_CIRCUITS = 8  # jaques: after this many circuits the AI ends the deal


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


def _circuits(obs: Observation) -> int:
    return obs.moves // max(len(obs.active) or obs.n_seats, 1)


def _strong(hand: tuple[Card, ...], obs: Observation) -> bool:
    """A hand to stop on (knock, stand, refuse a barter); the longer the deal has
    run, the less it needs. Discard family (a knock costs a chip): a flush or
    better, or a pair of queens or better; else a sequence or better, or enough
    points."""
    s = score(hand, obs.rules.ranking)
    cat = category_of(s)
    if obs.family == "discard":
        return cat >= Category.FLUSH or (
            cat is Category.PAIR and (s % 1000) // 16 >= 10 - _circuits(obs))
    if cat >= Category.SEQUENCE:
        return True
    if cat is Category.NONE:
        return False
    total = (s % 1000) // 4 if cat is Category.POINT else 25
    return total >= 28 - 2 * _circuits(obs)


def choose(obs: Observation) -> Decision:
    """The ``easy`` level (``choose_easy``); other levels: ``levels.choose``."""
    return choose_easy(obs)


def choose_easy(obs: Observation) -> Decision:
    """The ``easy`` level: decide for ``obs.seat``, which must be ``obs.to_act``.

    Raises:
        ValueError: the observation is public or not this seat's decision.
    """
    return by_family(obs, _choose_trade, _choose_widow, _choose_discard)


def _choose_trade(obs: Observation, hand: tuple[Card, ...]) -> Decision:
    if obs.barter is not None:
        if obs.rules.barter_refusal and _strong(hand, obs):
            return Decision("refuse")
        return Decision("accept", worst_card(hand))
    if _strong(hand, obs):
        return Decision("knock")
    card = worst_card(hand)
    kept = [c for c in hand if c != card]
    if "trade" in obs.legal and (obs.seat == obs.dealer or _pair_promise(*kept) > 0):
        return Decision("trade", card)
    return Decision("barter", card)


# ----------------------------------------------------------------- widow family
def _choose_widow(obs: Observation) -> Decision:
    legal = obs.legal
    widow = obs.widow or ()
    ranking = obs.rules.ranking
    forced = forced_widow(obs)
    if forced is not None:
        return forced
    if "take_widow" in legal:
        middle = score(widow, ranking)
        if obs.hand is None:  # blind: take a middle that is good on its own
            cat = category_of(middle)
            good = cat >= Category.SEQUENCE or (cat is Category.POINT and (middle % 1000) // 4 >= 24)
        else:
            good = middle > score(obs.hand, ranking)
        return Decision("take_widow" if good else "keep_hand")
    assert obs.hand is not None
    hand = obs.hand
    current = score(hand, ranking)
    best = best_swap(hand, widow, obs.rules.swap_max, lambda after: score(after, ranking))
    stop = "knock" if "knock" in legal else "stand"
    if best is not None and best[0] > current:
        gains_category = category_of(best[0]) > category_of(current)
        if gains_category or not _strong(hand, obs):
            return Decision("swap", give=best[1], take=best[2])
    return Decision(stop)


# --------------------------------------------------------------- discard family
def _best_with(hand: tuple[Card, ...], card: Card, obs: Observation) -> tuple[int, Card | None]:
    """Best score from putting ``card`` in place of one hand card, and the card to
    give up (``None`` when no exchange beats the hand)."""
    ranking = obs.rules.ranking
    return best_exchange(hand, card, lambda h: score(h, ranking))


def _choose_discard(obs: Observation, hand: tuple[Card, ...]) -> Decision:
    legal = obs.legal
    answer = keep_or_throw(obs, lambda card: _best_with(hand, card, obs)[1])
    if answer is not None:
        return answer
    if "knock" in legal and (_strong(hand, obs) or _circuits(obs) >= LATE_CIRCUITS):
        return Decision("knock")
    if _circuits(obs) >= LATE_CIRCUITS:
        return Decision("pass")
    if obs.discard_top is not None:
        _, out = _best_with(hand, obs.discard_top, obs)
        if out is not None:
            return Decision("take_discard", out)
    return Decision("draw")
