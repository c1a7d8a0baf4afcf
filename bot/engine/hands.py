"""Hand categories and evaluation (docs/RULES.md §1.4, §1.5).

Every 3-card hand gets an integer *score*: a higher score is a better hand and
equal scores tie (ties are then broken by seat position, see ``seating``).
Scores come from a table of all 22,100 three-card hands per ranking scheme,
built once on first use. ``score`` reads it indexed by the cards themselves
(``table[a][b][c]``, every order of the three cards filled in), so a call
allocates nothing; ``score_table`` gives the same scores keyed by the hand's
52-bit card mask.

Ranking schemes (``Rules.ranking``):

- ``classic`` (docs/RULES.md §1): tricon > sequence > point > none.
- ``more`` (§1.4, §2.4): tricon > sequence > flush (by its point) > pair
  (pair rank, then odd card) > point > none.
- ``jaques`` (§1.4, §2.7): tricon > sequence > flush > pair > high card, where a
  flush and a high-card hand compare their highest card, then the second, then
  the third (ace high); a pair compares the pair, then the odd card. High-card
  hands use the category ``NONE`` (``describe`` calls them "... high").

Four cards: a hand of four exists only after a pounce (§2.6), and a pounce
always completes four of a kind; such a hand scores ``FOUR`` (ranked by rank),
above every 3-card hand of every scheme. Any other 4-card hand is refused.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum
from itertools import combinations
from math import comb
from typing import Literal

from .cards import RANK_NAMES, RANKS, Card, rank, suit

Ranking = Literal["classic", "more", "jaques"]

#: every ranking scheme
RANKINGS: tuple[Ranking, ...] = ("classic", "more", "jaques")

#: Face value for points: A = 11, K Q J = 10, others their number (docs/RULES.md §1.4).
POINT_VALUES = (2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 11)

_BASE = 1000  # score = category * _BASE + key within the category


class Category(IntEnum):
    """Hand categories, lowest first. ``classic`` uses NONE, POINT, SEQUENCE, TRICON;
    ``jaques`` uses NONE (high card), PAIR, FLUSH, SEQUENCE, TRICON; FOUR (four of a
    kind) exists only after an oldway pounce."""

    NONE = 0
    POINT = 1
    PAIR = 2
    FLUSH = 3
    SEQUENCE = 4
    TRICON = 5
    FOUR = 6


def _sequence_top(ranks: list[int]) -> int | None:
    """Top rank of a 3-rank run (A-2-3 tops at the 3; K-A-2 is not a run)."""
    r = sorted(ranks)
    if r[1] == r[0] + 1 and r[2] == r[1] + 1:
        return r[2]
    if r == [0, 1, 12]:  # A-2-3
        return 1
    return None


def _best_point(cards: tuple[Card, ...]) -> tuple[int, int]:
    """(total, number of cards) of the best suit holding 2 or 3 cards, or (0, 0)."""
    best = (0, 0)
    for s in {suit(c) for c in cards}:
        same = [c for c in cards if suit(c) == s]
        if len(same) >= 2:
            best = max(best, (sum(POINT_VALUES[rank(c)] for c in same), len(same)))
    return best


def _high_cards(ranks: list[int]) -> int:
    """Key of three distinct ranks compared highest first, then second, then third
    (the combinatorial number system: monotone and below 286)."""
    a, b, c = sorted(ranks, reverse=True)
    return comb(a, 3) + comb(b, 2) + c


def _compute(cards: tuple[Card, ...], ranking: Ranking) -> int:
    ranks = [rank(c) for c in cards]
    suits = {suit(c) for c in cards}
    if ranks[0] == ranks[1] == ranks[2]:
        return Category.TRICON * _BASE + ranks[0]
    top = _sequence_top(ranks) if len(suits) == 1 else None
    if top is not None:
        return Category.SEQUENCE * _BASE + top
    if ranking == "jaques":
        if len(suits) == 1:
            return Category.FLUSH * _BASE + _high_cards(ranks)
        pair = [r for r in set(ranks) if ranks.count(r) == 2]
        if pair:
            odd = next(r for r in ranks if r != pair[0])
            return Category.PAIR * _BASE + pair[0] * 16 + odd
        return Category.NONE * _BASE + _high_cards(ranks)
    total, count = _best_point(cards)
    if ranking == "more":
        if len(suits) == 1:
            return Category.FLUSH * _BASE + total
        pair = [r for r in set(ranks) if ranks.count(r) == 2]
        if pair:
            odd = next(r for r in ranks if r != pair[0])
            return Category.PAIR * _BASE + pair[0] * 16 + odd
    if count:
        return Category.POINT * _BASE + total * 4 + count
    return Category.NONE * _BASE


_TABLES: dict[str, dict[int, int]] = {}

#: the side of each level of the by-card table: 104, so that a card number from 52
#: to 103, or from -1 to -52 (which Python counts from the end), lands on an entry
#: that holds no hand and is refused; a number of 104 or more is out of range. Other
#: negative numbers are not cards and are not looked for: the engine's cards come
#: from a checked deck.
_SIDE = 104
#: one level of the by-card table
_Leaf = tuple[int | None, ...]
#: scores by card, per ranking: ``_BY_CARD[ranking][a][b][c]``, ``None`` where
#: ``a, b, c`` are not three distinct cards of the deck. Tuples, not lists: one
#: pointer less to follow on each read.
_BY_CARD: dict[str, tuple[tuple[_Leaf, ...], ...]] = {}


def score_table(ranking: Ranking = "classic") -> dict[int, int]:
    """The table ``{card mask: score}`` of all 22,100 hands for ``ranking`` (built once)."""
    table = _TABLES.get(ranking)
    if table is None:
        # a score depends on the ranks and on which cards share a suit, never on the
        # suits themselves: each of those patterns is worked out once
        patterns: dict[tuple[int, int, int, bool, bool, bool], int] = {}
        table = {}
        for a, b, c in combinations(range(52), 3):
            sa, sb, sc = a & 3, b & 3, c & 3
            key = (a >> 2, b >> 2, c >> 2, sa == sb, sa == sc, sb == sc)
            value = patterns.get(key)
            if value is None:
                value = patterns[key] = _compute((a, b, c), ranking)
            table[(1 << a) | (1 << b) | (1 << c)] = value
        _TABLES[ranking] = table
    return table


def _by_card(ranking: Ranking) -> tuple[tuple[_Leaf, ...], ...]:
    """The by-card table of ``ranking`` (built once, from ``score_table``)."""
    table = _BY_CARD.get(ranking)
    if table is None:
        masks = score_table(ranking)
        nothing: _Leaf = (None,) * _SIDE
        no_card = (nothing,) * _SIDE
        leaves: dict[tuple[int, int], _Leaf] = {}
        for a in range(52):
            for b in range(a + 1, 52):  # the leaf of (b, a) is the same one
                pair = (1 << a) | (1 << b)
                leaf: list[int | None] = [None] * _SIDE
                for c in range(52):
                    if c != a and c != b:
                        leaf[c] = masks[pair | (1 << c)]
                leaves[a, b] = leaves[b, a] = tuple(leaf)
        table = tuple(
            tuple(leaves.get((a, b), nothing) for b in range(52)) + no_card[52:]
            for a in range(52)
        ) + (no_card,) * (_SIDE - 52)
        _BY_CARD[ranking] = table
    return table


def _score_other(cards: tuple[Card, ...] | list[Card], ranking: Ranking) -> int:
    """Score of a hand that is not three cards: four of a kind, else ``KeyError``."""
    if len(cards) == 4:
        ranks = {rank(c) for c in cards}
        if len(ranks) != 1 or len(set(cards)) != 4:
            raise KeyError("a hand of four cards must be four of a kind")
        return Category.FOUR * _BASE + ranks.pop()
    raise KeyError("a hand holds three cards")


def score(cards: tuple[Card, ...] | list[Card], ranking: Ranking = "classic") -> int:
    """Score of a hand: higher is better, equal ties. A hand is three distinct
    cards, or four of a kind (after a pounce), which beats every 3-card hand
    (docs/RULES.md §1.4, §2.6). The same value as ``score_table(ranking)[mask]``,
    read from a precomputed table without allocating anything.

    Raises:
        KeyError: ``cards`` is neither three distinct cards nor four of a kind.
    """
    try:
        a, b, c = cards
        value = _BY_CARD[ranking][a][b][c]
    except ValueError:  # not three cards
        return _score_other(cards, ranking)
    except KeyError:  # the first hand of this ranking: build its table, then read it
        _by_card(ranking)
        return score(cards, ranking)
    except IndexError:
        raise KeyError("not a card of the deck") from None
    if value is None:
        raise KeyError("a hand holds three distinct cards of the deck")
    return value


def scores_of(hands: Sequence[tuple[Card, ...] | list[Card]], ranking: Ranking = "classic",
              ) -> tuple[int, ...]:
    """``score(hand, ranking)`` of each hand, in order: the same values and errors,
    three-card hands read from the table in one pass (a showdown's scores).

    Raises:
        KeyError: as ``score``, for the first hand it refuses.
    """
    table = _BY_CARD.get(ranking)
    if table is not None:
        try:
            scores = tuple([table[a][b][c] for a, b, c in hands])
        except (ValueError, TypeError, IndexError):  # a hand not of three cards: as ``score``
            pass
        else:
            if None not in scores:
                return scores  # type: ignore[return-value]  # no ``None``: checked just above
    return tuple([score(hand, ranking) for hand in hands])


#: the categories by number (``Category(n)`` without the enum call)
_CATEGORIES: dict[int, Category] = {c.value: c for c in Category}


def category_of(hand_score: int) -> Category:
    """Category of a score from ``score``.

    Raises:
        ValueError: not a score from ``score``.
    """
    try:
        return _CATEGORIES[hand_score // _BASE]
    except KeyError:
        raise ValueError(f"{hand_score} is not a hand score") from None


def categories_of(scores: Sequence[int]) -> tuple[Category, ...]:
    """``category_of`` of each score, in order.

    Raises:
        ValueError: one is not a score from ``score``.
    """
    try:
        return tuple([_CATEGORIES[s // _BASE] for s in scores])
    except KeyError:
        return tuple([category_of(s) for s in scores])  # raises for the first bad one


def describe(cards: tuple[Card, ...] | list[Card], ranking: Ranking = "classic") -> str:
    """Short name of a hand for people: ``"tricon of 7s"``, ``"sequence to 8"``,
    ``"point 21"``, ``"point 21 (3 cards)"``, ``"pair of kings"``, ``"flush 25"``,
    ``"nothing"``; under ``jaques`` ``"flush, K high"`` and ``"K high"``; after a
    pounce ``"four 7s"``."""
    s = score(cards, ranking)
    cat, key = category_of(s), s % _BASE
    if cat is Category.FOUR:
        return f"four {RANK_NAMES[RANKS[key]]}"
    if ranking == "jaques" and cat in (Category.FLUSH, Category.NONE):
        top = RANKS[max(rank(c) for c in cards)]
        label = "10" if top == "T" else top
        return f"flush, {label} high" if cat is Category.FLUSH else f"{label} high"
    if cat is Category.TRICON:
        return f"tricon of {RANK_NAMES[RANKS[key]]}"
    if cat is Category.SEQUENCE:
        label = RANKS[key] if RANKS[key] != "T" else "10"
        return f"sequence to {label}"
    if cat is Category.FLUSH:
        return f"flush {key}"
    if cat is Category.PAIR:
        return f"pair of {RANK_NAMES[RANKS[key // 16]]}"
    if cat is Category.POINT:
        total, count = divmod(key, 4)
        return f"point {total}" + (" (3 cards)" if count == 3 else "")
    return "nothing"
