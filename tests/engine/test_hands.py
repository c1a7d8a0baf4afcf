"""Hand evaluation and the tie rules (docs/RULES.md §1.4, §1.5)."""

from __future__ import annotations

from itertools import combinations, permutations

import pytest

from bot.engine.cards import RANKS, Card, rank, suit
from bot.engine.hands import (
    POINT_VALUES,
    RANKINGS,
    Category,
    Ranking,
    _compute,
    category_of,
    describe,
    score,
    score_table,
)
from bot.engine.seating import best_seat, deal_target, priority_order, turn_order

from .support import cards


def s(text: str, ranking: Ranking = "classic") -> int:
    return score(cards(text), ranking)


def cat(text: str, ranking: Ranking = "classic") -> Category:
    return category_of(s(text, ranking))


# ---------------------------------------------------------------- an oracle
# Written from RULES.md alone, independently of hands.py, to check the
# engine's ordering over all 22,100 hands.

RUNS = {frozenset({t - 2, t - 1, t}): t for t in range(2, 13)} | {frozenset({12, 0, 1}): 1}
VALUE = {r: (11 if RANKS[r] == "A" else 10 if RANKS[r] in "TJQK" else r + 2) for r in range(13)}


def oracle(hand: tuple[Card, ...], ranking: Ranking) -> tuple[int, ...]:
    ranks = [rank(c) for c in hand]
    suits = [suit(c) for c in hand]
    if len(set(ranks)) == 1:
        return (5, ranks[0])
    one_suit = len(set(suits)) == 1
    if one_suit and frozenset(ranks) in RUNS:
        return (4, RUNS[frozenset(ranks)])
    best: tuple[int, int] | None = None
    for x in set(suits):
        same = [r for r, y in zip(ranks, suits, strict=True) if y == x]
        if len(same) >= 2:
            best = max(best or (0, 0), (sum(VALUE[r] for r in same), len(same)))
    if ranking == "more":
        if one_suit:
            assert best is not None
            return (3, best[0])
        for r in set(ranks):
            if ranks.count(r) == 2:
                odd = next(o for o in ranks if o != r)
                return (2, r, odd)
    if best is not None:
        return (1, *best)
    return (0,)


ORACLE_CATEGORY = {
    5: Category.TRICON,
    4: Category.SEQUENCE,
    3: Category.FLUSH,
    2: Category.PAIR,
    1: Category.POINT,
    0: Category.NONE,
}


@pytest.mark.parametrize("ranking", ["classic", "more"])
def test_engine_order_matches_the_rules_over_every_hand(ranking: Ranking):
    hands = list(combinations(range(52), 3))
    assert len(hands) == 22_100
    keyed = sorted((oracle(h, ranking), score(h, ranking), h) for h in hands)
    for (key_a, score_a, hand_a), (key_b, score_b, hand_b) in zip(keyed, keyed[1:], strict=False):
        if key_a == key_b:
            assert score_a == score_b, (hand_a, hand_b)
        else:
            assert score_a < score_b, (hand_a, hand_b)
    for key, sc, hand in keyed:
        assert category_of(sc) is ORACLE_CATEGORY[key[0]], hand


@pytest.mark.parametrize("ranking", ["classic", "more"])
def test_table_is_the_uncached_evaluator(ranking: Ranking):
    table = score_table(ranking)
    assert len(table) == 22_100
    for a, b, c in combinations(range(0, 52, 3), 3):
        assert table[(1 << a) | (1 << b) | (1 << c)] == _compute((a, b, c), ranking)
    # card order within the hand does not matter
    assert s("Ah Kh 4d") == s("4d Kh Ah") == s("Kh 4d Ah")


def test_classic_uses_only_four_categories():
    used = {category_of(v) for v in score_table("classic").values()}
    assert used == {Category.NONE, Category.POINT, Category.SEQUENCE, Category.TRICON}
    used_more = {category_of(v) for v in score_table("more").values()}
    assert used_more == set(Category) - {Category.FOUR}


def test_score_rejects_repeated_cards():
    with pytest.raises(KeyError):
        score(cards("Ah Ah Kd"))


@pytest.mark.parametrize("ranking", RANKINGS)
def test_score_is_the_table_whatever_the_order_of_the_cards(ranking: Ranking):
    # score() reads a table indexed by the cards themselves: every order of every
    # hand, as a tuple or a list, must give the value of the mask-keyed table
    table = score_table(ranking)
    for hand in combinations(range(52), 3):
        want = table[(1 << hand[0]) | (1 << hand[1]) | (1 << hand[2])]
        for order in permutations(hand):
            assert score(order, ranking) == want, order
            assert score(list(order), ranking) == want, order


@pytest.mark.parametrize("ranking", RANKINGS)
@pytest.mark.parametrize(
    "bad",
    [(0, 0, 5), (5, 0, 5), (7, 7, 7), (52, 0, 1), (0, 1, 52), (-1, 0, 1), (0, -52, 1),
     (0, 1, 103), (0, 1, 104), (1000, 0, 1), (0, 1, -1000), (0, 1), (0, 1, 2, 3, 4), ()],
)
def test_score_refuses_anything_but_three_distinct_cards_of_the_deck(ranking: Ranking, bad):
    # (numbers from -53 to -104 are not looked for: see hands._SIDE)
    with pytest.raises(KeyError):
        score(bad, ranking)


def test_category_of_refuses_a_number_that_is_no_score():
    assert category_of(score(cards("7c 7d 7h 7s"))) is Category.FOUR
    for bad in (-1, -1000, 7000):
        with pytest.raises(ValueError):
            category_of(bad)


# ------------------------------------------------------------------ tricons
def test_tricons_rank_ace_high_two_low():
    order = [f"{r}c {r}d {r}h" for r in RANKS]
    values = [s(h) for h in order]
    assert values == sorted(values)
    assert len(set(values)) == 13
    assert s("Ac Ad Ah") > s("Kc Kd Ks") > s("2c 2d 2s")
    assert describe(cards("7c 7d 7s")) == "tricon of 7s"
    assert describe(cards("Ac Ad Ah")) == "tricon of aces"


def test_lowest_tricon_beats_highest_sequence():
    assert s("2c 2d 2h") > s("Qs Ks As")
    assert cat("2c 2d 2h") is Category.TRICON


# ---------------------------------------------------------------- sequences
def test_sequences_rank_by_top_card():
    assert s("Qs Ks As") > s("Jh Qh Kh") > s("8c 9c Tc") > s("2d 3d 4d") > s("Ad 2d 3d")
    assert describe(cards("Qs Ks As")) == "sequence to A"
    assert describe(cards("8c 9c Tc")) == "sequence to 10"


def test_ace_two_three_is_the_lowest_sequence_topped_by_the_three():
    low = s("Ah 2h 3h")
    assert cat("Ah 2h 3h") is Category.SEQUENCE
    assert describe(cards("Ah 2h 3h")) == "sequence to 3"
    sequences = [v for v in score_table().values() if category_of(v) is Category.SEQUENCE]
    assert low == min(sequences)
    assert s("Qd Kd Ad") == max(sequences)
    # a sequence of a different suit with the same top card ties
    assert s("Ah 2h 3h") == s("3c Ac 2c")


def test_king_ace_two_is_not_a_sequence():
    assert cat("Kh Ah 2h") is Category.POINT
    assert describe(cards("Kh Ah 2h")) == "point 23 (3 cards)"
    assert s("Kh Ah 2h") < s("Ad 2d 3d")


def test_a_sequence_needs_one_suit():
    # 5c 6d 7c: consecutive ranks, but not in one suit; its clubs are a point.
    assert cat("5c 6d 7c") is Category.POINT
    assert describe(cards("5c 6d 7c")) == "point 12"
    assert cat("5c 6c 7c") is Category.SEQUENCE
    # same suit but not consecutive: a plain flush, i.e. a 3-card point
    assert cat("5c 6c 8c") is Category.POINT


@pytest.mark.parametrize("odd", ["5d", "6d", "7d", "5h", "7s"])
def test_sequence_and_suit_checks_look_at_the_same_cards(odd):
    # Two clubs of a run plus the missing rank in another suit is never a
    # sequence, whichever card is the odd one out.
    base = {"5": "5c", "6": "6c", "7": "7c"}
    base[odd[0]] = odd
    hand = " ".join(base.values())
    assert cat(hand) is Category.POINT


# ------------------------------------------------------------------- points
@pytest.mark.parametrize(
    ("hand", "text"),
    [
        ("Ah Kh 4d", "point 21"),
        ("Qs Js 2d", "point 20"),
        ("Ts 9s 2d", "point 19"),
        ("Ac Kc Jc", "point 31 (3 cards)"),
        ("2c 3c 5c", "point 10 (3 cards)"),
        ("Ad Kd 4d", "point 25 (3 cards)"),
        ("4h 2h Ac", "point 6"),
    ],
)
def test_point_values_ace_eleven_faces_ten(hand, text):
    assert describe(cards(hand)) == text


def test_point_values_table():
    assert POINT_VALUES[RANKS.index("A")] == 11
    assert [POINT_VALUES[RANKS.index(r)] for r in "KQJT"] == [10, 10, 10, 10]
    assert [POINT_VALUES[RANKS.index(r)] for r in "23456789"] == list(range(2, 10))


def test_a_lone_card_of_a_suit_counts_nothing():
    assert cat("Ah Kd Qc") is Category.NONE
    assert describe(cards("Ah Kd Qc")) == "nothing"
    # the lone ace adds nothing to the point of the other two
    assert s("Ac 3d 2d") == s("4c 3d 2d")
    assert describe(cards("Ac 3d 2d")) == "point 5"


def test_higher_total_wins():
    assert s("Ah Kh 4d") > s("Qs Js 2d") > s("9c 8c Ad")


def test_equal_totals_three_cards_beat_two():
    two = s("Kh Qh 2d")  # 20 in two cards
    three = s("9s 8s 3s")  # 20 in three cards
    assert three > two
    # but a higher two-card total still beats a lower three-card total
    assert s("Ah Th 2d") > s("9s 8s 2s")  # 21 vs 19
    # equal totals with equal counts tie, whatever the suit or cards
    assert s("Kh Qh 2d") == s("Jc Tc 3d")


def test_pairs_and_plain_flushes_count_nothing_extra_in_classic():
    # a pair: only its point counts
    assert s("Kh Kd 5h") == s("Qh 5h 9c")  # both point 15, 2 cards
    assert s("Kh Kd 5h") < s("9c 7c 2d")  # point 15 < point 16
    assert cat("Ac Ad 2s") is Category.NONE
    # a plain flush is a 3-card point
    assert s("2h 5h 9h") > s("9c 7c 2d")  # 16 in 3 cards beats 16 in 2
    assert s("2h 5h 9h") < s("Kc Qc 2d")  # 16 < 20
    assert s("2h 5h 9h") == s("2s 5s 9s")


# ------------------------------------------------------------- foster-more
def test_more_order_tricon_sequence_flush_pair_point_none():
    ladder = ["2c 2d 2h", "Ac 2c 3c", "2h 3h 5h", "2c 2d 3h", "Ah Kh Qd", "Ah Kd Qc"]
    values = [s(h, "more") for h in ladder]
    assert values == sorted(values, reverse=True)
    assert len(set(values)) == len(values)
    assert [category_of(v) for v in values] == [
        Category.TRICON,
        Category.SEQUENCE,
        Category.FLUSH,
        Category.PAIR,
        Category.POINT,
        Category.NONE,
    ]


def test_more_flush_ranks_by_point_and_stays_below_sequences():
    assert s("2h 5h 9h", "more") < s("2s 5s Ts", "more")
    assert s("As Ks 9s", "more") < s("2d 3d 4d", "more")
    assert describe(cards("As Ks 9s"), "more") == "flush 30"
    # K-A-2 in one suit is a flush under "more", not a sequence
    assert cat("Kh Ah 2h", "more") is Category.FLUSH


def test_more_pair_ranks_by_pair_then_odd_card():
    assert s("Kc Kd 5h", "more") < s("Kc Kd 6h", "more") < s("Ac Ad 2h", "more")
    assert s("Kc Kd 5h", "more") == s("Kh Ks 5c", "more")
    assert describe(cards("Kc Kd 5h"), "more") == "pair of kings"
    # a pair with a two-card point is still a pair (above any point)
    assert cat("Kc Kd 5d", "more") is Category.PAIR
    assert s("2c 2d 3h", "more") > s("Ac Kc Qd", "more")


# -------------------------------------------------------------------- ties
def test_priority_order_starts_with_the_dealer_then_play_order():
    assert priority_order(2, 4, 1) == [2, 3, 0, 1]
    assert priority_order(2, 4, -1) == [2, 1, 0, 3]
    assert turn_order(2, 4, 1) == [3, 0, 1, 2]
    assert turn_order(2, 4, -1) == [1, 0, 3, 2]
    assert [deal_target(i, 2, 4, 1) for i in range(5)] == [3, 0, 1, 2, 3]
    assert [deal_target(i, 2, 4, -1) for i in range(5)] == [1, 0, 3, 2, 1]


def test_dealer_wins_ties():
    assert best_seat([5, 9, 9], dealer=1, step=1) == 1
    assert best_seat([5, 9, 9], dealer=2, step=1) == 2
    assert best_seat([9, 9, 9], dealer=0, step=-1) == 0


def test_tie_goes_to_the_seat_nearest_the_dealers_left():
    # dealer seat 2: priority 2, 0, 1 -> seat 0 wins (seat 0 is a seat, not "nobody")
    assert best_seat([9, 9, 1], dealer=2, step=1) == 0
    # dealer seat 2 of 4: priority 2, 3, 0, 1 -> seat 3, not the lower list index 0
    assert best_seat([9, 1, 1, 9], dealer=2, step=1) == 3
    assert best_seat([9, 9, 1, 1], dealer=3, step=1) == 0


def test_tie_goes_to_the_dealers_right_when_anticlockwise():
    assert best_seat([9, 9, 1], dealer=2, step=-1) == 1
    assert best_seat([9, 1, 9, 1], dealer=1, step=-1) == 0
    assert best_seat([1, 9, 1, 9], dealer=0, step=-1) == 3


def test_best_score_beats_priority():
    assert best_seat([1, 2, 9], dealer=0, step=1) == 2
    assert best_seat([9, 2, 1], dealer=2, step=1) == 0


def test_nobody_holds_anything_dealer_wins():
    none = s("Ah Kd Qc")
    for dealer in range(4):
        for step in (1, -1):
            assert best_seat([none] * 4, dealer, step) == dealer


# ------------------------------------------------------------------ jaques
def jaques_oracle(hand: tuple[Card, ...]) -> tuple[int, ...]:
    """docs/RULES.md §1.4 (jaques), written independently: tricon > sequence (Q-K-A best,
    A-2-3 lowest) > flush (highest, second, third card) > pair (pair, then odd
    card) > high card (highest, second, third)."""
    ranks = sorted((rank(c) for c in hand), reverse=True)
    one_suit = len({suit(c) for c in hand}) == 1
    if len(set(ranks)) == 1:
        return (5, ranks[0])
    if one_suit and frozenset(ranks) in RUNS:
        return (4, RUNS[frozenset(ranks)])
    if one_suit:
        return (3, *ranks)
    for r in set(ranks):
        if ranks.count(r) == 2:
            return (2, r, next(o for o in ranks if o != r))
    return (1, *ranks)


def test_jaques_order_matches_the_rules_over_every_hand():
    keyed = sorted((jaques_oracle(h), score(h, "jaques"), h) for h in combinations(range(52), 3))
    for (key_a, score_a, hand_a), (key_b, score_b, hand_b) in zip(keyed, keyed[1:], strict=False):
        if key_a == key_b:
            assert score_a == score_b, (hand_a, hand_b)
        else:
            assert score_a < score_b, (hand_a, hand_b)
    names = {5: Category.TRICON, 4: Category.SEQUENCE, 3: Category.FLUSH, 2: Category.PAIR,
             1: Category.NONE}
    for key, sc, hand in keyed[::97]:
        assert category_of(sc) is names[key[0]], hand


def test_jaques_examples():
    j = "jaques"
    assert s("Qh Kh Ah", j) > s("Jh Qh Kh", j) > s("2h 3h 4h", j) > s("Ah 2h 3h", j)
    assert s("Ah 2h 3h", j) > s("Ah Kh Jh", j)  # the lowest sequence beats every flush
    assert s("Ah Kh 2h", j) > s("Ah Qh Jh", j)  # flush: highest, then the second card
    assert s("Ks Qs 4s", j) > s("Kd Qd 3d", j)  # ... then the third
    assert s("2c 2d 3h", j) > s("Ac Kd Jh", j)  # any pair beats any high card
    assert s("9c 9d Kh", j) > s("9h 9s Qc", j)  # equal pairs: the odd card
    assert s("Ac 9d 2h", j) > s("Kc Qd Jh", j)  # the highest card first
    assert s("Kc Qd 2h", j) == s("Ks Qh 2d", j)  # a true tie
    assert cat("Kc Ad 2h", j) is Category.NONE and cat("Ks 9s 4s", j) is Category.FLUSH
    assert describe(cards("Ks 9s 4s"), j) == "flush, K high"
    assert describe(cards("Tc 9s 4d"), j) == "10 high"
    assert describe(cards("9c 9s 4d"), j) == "pair of 9s"
    assert cat("Ks Kh 4d", j) is Category.PAIR and cat("Ks Kh 4d") is Category.NONE


@pytest.mark.parametrize("ranking", ["classic", "more", "jaques"])
def test_four_of_a_kind_beats_every_three_card_hand(ranking: Ranking):
    four_twos = score(cards("2c 2d 2h 2s"), ranking)
    assert four_twos > max(score_table(ranking).values())
    assert score(cards("3c 3d 3h 3s"), ranking) > four_twos
    assert category_of(four_twos) is Category.FOUR
    assert describe(cards("7c 7d 7h 7s"), ranking) == "four 7s"
    for bad in ("2c 2d 2h 3s", "2c 2d 2h 2h", "2c 2d"):
        with pytest.raises(KeyError):
            score(cards(bad), ranking)


def test_seed_001_point_examples():
    # K and 9 of diamonds make 19; A 5 3 of hearts make 19 with three cards and win
    assert describe(cards("Kd 9d 4c")) == "point 19"
    assert describe(cards("Ah 5h 3h")) == "point 19 (3 cards)"
    assert s("Ah 5h 3h") > s("Kd 9d 4c")
    assert cat("6s 7c Qh") is Category.NONE
    # Ben's trade: K 10 9 of spades is a point of 29, not a sequence
    assert describe(cards("Ks Ts 9s")) == "point 29 (3 cards)"
    assert s("7c 7h 7d") > s("Ks Ts 9s")
