"""One deal: dealing, trade, barter, knock, the showdown and payments
(docs/RULES.md §1; the hoyle and parlett options of §2)."""

from __future__ import annotations

import copy
from itertools import product

import pytest

from bot.engine.cards import parse_card
from bot.engine.family import IllegalAction, Movement
from bot.engine.hands import Category
from bot.engine.operations import BarterAnswer, BarterOffer, Knock, Trade
from bot.engine.rules import PRESETS, Rules, get_preset
from bot.engine.trade import TradeDeal

from .support import (
    NOTHING,
    WORKED,
    Action,
    assert_cards_conserved,
    assert_deal_balanced,
    can,
    cards,
    make_deck,
    perform,
    snapshot,
    verify,
)

FOSTER = PRESETS["foster"]
HOYLE = PRESETS["hoyle"]
PARLETT = PRESETS["parlett"]
MORE = PRESETS["foster-more"]

C = parse_card


def worked_check_deal() -> TradeDeal:
    """docs/RULES.md §1 worked check: 3 seats, dealer 0."""
    deck = make_deck(WORKED, dealer=0, stock="8s")
    return TradeDeal(FOSTER, 3, 0, deck)


# ------------------------------------------------------------ worked check
def test_worked_check_of_rules_section_1():
    deal = worked_check_deal()
    assert deal.hands == [cards("3c 4c 5c"), cards("6s 7s Kd"), cards("Ah Kh 4d")]
    assert deal.pool == 3
    assert deal.delta == [-1, -1, -1]
    assert deal.to_act == 1

    deal.trade(1, C("Kd"))
    assert sorted(deal.hands[1]) == sorted(cards("6s 7s 8s"))
    assert deal.delta == [0, -2, -1]  # the fee went to the dealer
    assert deal.to_act == 2

    deal.knock(2)
    sd = deal.showdown
    assert sd is not None
    assert sd.categories == (Category.SEQUENCE, Category.SEQUENCE, Category.POINT)
    assert sd.winner == 1
    assert sd.ended_by == "knock"
    assert sd.knocker == 2
    assert sd.pool_won == 3
    assert deal.delta == [-2, 2, 0]
    assert [m for m in sd.payments if m.reason == "penalty"] == [
        Movement(0, 1, 1, "penalty"),
        Movement(0, 2, 1, "penalty"),
    ]
    assert deal.pool == 0
    assert_deal_balanced(deal)


# ------------------------------------------------------------------ dealing
def test_deal_one_card_at_a_time_from_the_dealers_left():
    deck = list(range(52))
    deal = TradeDeal(FOSTER, 4, 1, deck)
    # card i goes to seat (dealer + 1 + i) mod n: seat 2 first, dealer last
    assert deal.hands[2] == [0, 4, 8]
    assert deal.hands[3] == [1, 5, 9]
    assert deal.hands[0] == [2, 6, 10]
    assert deal.hands[1] == [3, 7, 11]
    assert list(deal.stock) == list(range(12, 52))
    assert deal.waste == []
    assert deal.to_act == 2  # eldest hand: the dealer's left


def test_anticlockwise_deal_starts_at_the_dealers_right():
    deck = list(range(52))
    deal = TradeDeal(PARLETT, 4, 1, deck)
    # card i goes to seat (dealer - 1 - i) mod n
    assert deal.hands[0] == [0, 4, 8]
    assert deal.hands[3] == [1, 5, 9]
    assert deal.hands[2] == [2, 6, 10]
    assert deal.hands[1] == [3, 7, 11]
    assert deal.to_act == 0


@pytest.mark.parametrize("n", [3, 7, 12])
def test_ante_fills_a_fresh_pool(n):
    deal = TradeDeal(FOSTER, n, 0, list(range(52)))
    assert deal.pool == n
    assert deal.delta == [-1] * n
    assert len(deal.stock) == 52 - 3 * n
    assert_cards_conserved(deal)


@pytest.mark.parametrize(
    ("n", "dealer", "deck", "message"),
    [
        (2, 0, list(range(52)), "3 to 12"),
        (13, 0, list(range(52)), "3 to 12"),
        (3, 3, list(range(52)), "dealer"),
        (3, -1, list(range(52)), "dealer"),
        (3, 0, list(range(51)), "52 cards"),
        (3, 0, [0, *range(1, 51), 0], "52 cards"),
    ],
)
def test_deal_rejects_bad_tables(n, dealer, deck, message):
    with pytest.raises(ValueError, match=message):
        TradeDeal(FOSTER, n, dealer, deck)


# -------------------------------------------------------------------- trade
def test_trade_draws_the_stock_top_and_wastes_the_card():
    deal = worked_check_deal()
    stock_before = list(deal.stock)
    op = deal.trade(1, C("Kd"))
    assert op == Trade(1, C("Kd"), False)
    assert deal.hands[1][-1] == stock_before[0]
    assert list(deal.stock) == stock_before[1:]
    assert deal.waste == [C("Kd")]
    assert C("Kd") not in deal.stock
    assert deal.movements[-1] == Movement(1, 0, 1, "fee")
    assert deal.last_event is not None and deal.last_event.shown is None


def test_dealer_trading_pays_nothing():
    deal = worked_check_deal()
    deal.trade(1, deal.hands[1][0])
    deal.trade(2, deal.hands[2][0])
    assert deal.to_act == 0
    before = list(deal.delta)
    deal.trade(0, deal.hands[0][0])
    assert deal.delta == before == [1, -2, -2]
    assert [m.reason for m in deal.movements].count("fee") == 2
    assert deal.to_act == 1  # a new circuit starts with the eldest hand


def test_traded_cards_never_return_to_the_stock():
    deal = TradeDeal(FOSTER, 3, 0, list(range(52)))
    traded = []
    drawn = []
    for _ in range(30):
        seat = deal.to_act
        assert seat is not None
        card = deal.hands[seat][0]
        top = deal.stock[0]
        deal.trade(seat, card)
        traded.append(card)
        drawn.append(top)
        assert not set(traded) & set(deal.stock)
        assert_cards_conserved(deal)
    assert deal.waste == traded
    assert drawn == list(range(9, 39))  # the stock is drawn top first, in order


def test_stock_running_out_ends_the_deal():
    n = 12
    deal = TradeDeal(FOSTER, n, 5, list(range(52)))
    assert len(deal.stock) == 16
    for _ in range(16):
        assert not deal.finished
        seat = deal.to_act
        assert seat is not None
        last = deal.stock[-1]
        deal.trade(seat, deal.hands[seat][0])
        assert_cards_conserved(deal)
    assert deal.finished
    assert last in deal.hands[seat]  # the last trade completed before the end
    sd = deal.showdown
    assert sd is not None
    assert sd.ended_by == "stock"
    assert sd.knocker is None
    assert len(deal.stock) == 0 and len(deal.waste) == 16
    assert_deal_balanced(deal)
    with pytest.raises(IllegalAction, match="already over"):
        deal.trade(deal.dealer, deal.hands[deal.dealer][0])


# ------------------------------------------------------------------- barter
def test_accepted_barter_swaps_and_play_continues_with_the_neighbour():
    deal = worked_check_deal()
    op = deal.barter(1, C("Kd"))
    assert op == BarterOffer(1, C("Kd"))
    assert deal.pending == op
    assert deal.to_act == 2
    assert deal.hands[1] == cards("6s 7s Kd")  # nothing moves until the answer
    obs = deal.observation(2)
    assert obs.barter == (1, 2)
    assert obs.last_event is not None and obs.last_event.kind == "barter_offer"

    answer = deal.answer(2, C("4d"))
    assert answer == BarterAnswer(2, C("4d"))
    assert sorted(deal.hands[1]) == sorted(cards("6s 7s 4d"))
    assert sorted(deal.hands[2]) == sorted(cards("Ah Kh Kd"))
    assert deal.pending is None
    assert deal.to_act == 2 and deal.turn == 2  # the neighbour's turn is not used up
    assert deal.delta == [-1, -1, -1]  # a barter costs nothing
    assert deal.last_event is not None and deal.last_event.kind == "barter_accept"
    assert not deal.finished
    deal.knock(2)
    assert deal.showdown is not None and deal.showdown.knocker == 2


def test_dealer_barters_with_the_eldest_hand():
    deal = worked_check_deal()
    deal.trade(1, C("Kd"))
    deal.trade(2, C("4d"))
    deal.barter(0, C("3c"))
    assert deal.to_act == 1
    deal.answer(1, C("6s"))
    assert C("6s") in deal.hands[0] and C("3c") in deal.hands[1]
    assert deal.turn == 1


def test_refused_barter_is_a_knock_by_the_neighbour():
    deal = worked_check_deal()
    deal.barter(1, C("Kd"))
    op = deal.answer(2, None)
    assert op == BarterAnswer(2, None)
    assert deal.finished
    sd = deal.showdown
    assert sd is not None
    assert sd.ended_by == "knock"
    assert sd.knocker == 2
    assert deal.hands[1] == cards("6s 7s Kd")  # the offered card stayed home
    assert deal.last_event is not None and deal.last_event.kind == "barter_refuse"
    assert_deal_balanced(deal)


def test_knock_ends_the_deal_at_once():
    deal = worked_check_deal()
    op = deal.knock(1)
    assert op == Knock(1)
    assert deal.finished
    assert deal.to_act is None
    sd = deal.showdown
    assert sd is not None and sd.ended_by == "knock" and sd.knocker == 1
    # the dealer's sequence to 5 beats everyone; the dealer wins, no penalty
    assert sd.winner == 0
    assert deal.delta == [2, -1, -1]


# ------------------------------------------------------------ illegal moves
def _fresh(rules: Rules = FOSTER) -> TradeDeal:
    return TradeDeal(rules, 3, 0, make_deck(WORKED, stock="8s"))


def _pending(rules: Rules = FOSTER) -> TradeDeal:
    deal = _fresh(rules)
    deal.barter(1, C("Kd"))
    return deal


def _over(rules: Rules = FOSTER) -> TradeDeal:
    deal = _fresh(rules)
    deal.knock(1)
    return deal


ILLEGAL: list[tuple[str, object, Action, str]] = [
    ("trade out of turn", _fresh, ("trade", 2, C("Ah"), False), "not your turn"),
    ("dealer trades out of turn", _fresh, ("trade", 0, C("3c"), False), "not your turn"),
    ("barter out of turn", _fresh, ("barter", 2, C("Ah"), False), "not your turn"),
    ("knock out of turn", _fresh, ("knock", 0, None, False), "not your turn"),
    ("trade a card not held", _fresh, ("trade", 1, C("Ah"), False), "do not hold"),
    ("barter a card not held", _fresh, ("barter", 1, C("2c"), False), "do not hold"),
    ("no such seat", _fresh, ("knock", 3, None, False), "not a seat"),
    ("negative seat", _fresh, ("trade", -1, C("Kd"), False), "not a seat"),
    ("knock flag in foster", _fresh, ("trade", 1, C("Kd"), True), "knock in the same turn"),
    ("answer with nothing pending", _fresh, ("answer", 2, C("Ah"), False), "No barter"),
    ("refuse with nothing pending", _fresh, ("answer", 2, None, False), "No barter"),
    ("offerer acts while pending", _pending, ("trade", 1, C("6s"), False), "Wait"),
    ("target trades while pending", _pending, ("trade", 2, C("Ah"), False), "Answer the barter"),
    ("target knocks while pending", _pending, ("knock", 2, None, False), "Answer the barter"),
    ("wrong seat answers", _pending, ("answer", 0, C("3c"), False), "No barter"),
    ("answer a card not held", _pending, ("answer", 2, C("3c"), False), "do not hold"),
    ("trade after the end", _over, ("trade", 2, C("Ah"), False), "already over"),
    ("knock after the end", _over, ("knock", 2, None, False), "already over"),
    ("answer after the end", _over, ("answer", 2, C("Ah"), False), "already over"),
]


@pytest.mark.parametrize(
    ("make", "action", "message"),
    [case[1:] for case in ILLEGAL],
    ids=[case[0] for case in ILLEGAL],
)
def test_illegal_actions_raise_a_readable_reason_and_change_nothing(make, action, message):
    deal = make()
    before = snapshot(deal)
    assert not can(deal, action)
    with pytest.raises(IllegalAction, match=message) as verified:
        verify(deal, action)
    with pytest.raises(IllegalAction) as applied:
        perform(deal, action)
    assert str(applied.value) == str(verified.value)
    text = str(verified.value)
    assert text[0].isupper() and text.endswith(".")
    assert snapshot(deal) == before


def test_hoyle_does_not_allow_refusal():
    deal = TradeDeal(HOYLE, 3, 0, make_deck(WORKED))
    deal.barter(1, C("Kd"))
    before = snapshot(deal)
    with pytest.raises(IllegalAction, match="must be accepted"):
        deal.answer(2, None)
    assert not deal.can_answer(2, None)
    assert snapshot(deal) == before


@pytest.mark.parametrize("make", [_fresh, _pending, _over])
@pytest.mark.parametrize("preset", ["foster", "hoyle"])
def test_can_mirrors_verify_for_every_candidate(make, preset):
    deal = make(PRESETS[preset])
    kinds = ["trade", "barter", "knock", "answer"]
    checked = legal = 0
    for kind, seat, card, knock in product(kinds, range(-1, 4), [*range(52), None], (False, True)):
        if kind in ("trade", "barter") and card is None:
            continue
        if kind in ("knock", "answer") and knock:
            continue
        if kind == "knock" and card is not None:
            continue
        action: Action = (kind, seat, card, knock)
        try:
            verify(deal, action)
        except IllegalAction:
            ok = False
        else:
            ok = True
        assert can(deal, action) is ok, action
        checked += 1
        legal += ok
    assert checked > 1000
    expected_legal = {_fresh: 7 if preset == "foster" else 13, _over: 0}
    expected_legal[_pending] = 4 if preset == "foster" else 3
    assert legal == expected_legal[make]


# -------------------------------------------------------- showdown, payments
def test_tie_with_dealer_seat_two_goes_to_seat_zero():
    # seats 0 and 1 both hold point 20 in two cards; dealer 2 holds point 17
    deck = make_deck(["Kh Qh 2c", "Ks Qs 3d", "9d 8d 4c"], dealer=2)
    deal = TradeDeal(FOSTER, 3, 2, deck)
    assert deal.to_act == 0
    deal.knock(0)
    assert deal.showdown is not None
    assert deal.showdown.winner == 0
    # the dealer lost with a point to a point: pays every other seat
    assert deal.delta == [3, 0, -3]
    assert_deal_balanced(deal)


def test_tie_priority_follows_seats_from_the_dealer_not_list_order():
    # dealer 2 of 4: priority 2, 3, 0, 1; seats 0 and 3 tie
    deck = make_deck(["Kh Qh 2c", "5s 6d 9c", "4d 8c Ts", "Ks Qs 3d"], dealer=2)
    deal = TradeDeal(FOSTER, 4, 2, deck)
    deal.knock(3)
    assert deal.showdown is not None and deal.showdown.winner == 3


def test_anticlockwise_tie_goes_to_the_dealers_right():
    deck = make_deck(["Kh Qh 2c", "Ks Qs 3d", "9d 8d 4c"], dealer=2, step=-1)
    deal = TradeDeal(PARLETT, 3, 2, deck)
    assert deal.hands[0] == cards("Kh Qh 2c")
    assert deal.to_act == 1
    deal.knock(1)
    assert deal.showdown is not None and deal.showdown.winner == 1


def test_dealer_wins_a_tie():
    deck = make_deck(["Ks Qs 3d", "Kh Qh 2c", "9d 8d 4c"], dealer=1)
    deal = TradeDeal(FOSTER, 3, 1, deck)
    deal.knock(2)
    assert deal.showdown is not None and deal.showdown.winner == 1
    assert deal.delta == [-1, 2, -1]  # no penalty when the dealer wins


@pytest.mark.parametrize("dealer", [0, 1, 2])
def test_nobody_holds_anything_dealer_wins(dealer):
    deck = make_deck(["2c 5d 9h", "3c 7d Js", "4h 8s Kd"], dealer=dealer)
    deal = TradeDeal(FOSTER, 3, dealer, deck)
    assert deal.to_act is not None
    deal.knock(deal.to_act)
    sd = deal.showdown
    assert sd is not None
    assert sd.categories == (Category.NONE,) * 3
    assert sd.winner == dealer
    assert deal.delta == [2 if s == dealer else -1 for s in range(3)]


def test_dealer_losing_in_another_category_pays_only_the_winner():
    # seat 1 sequence, dealer point, seat 2 point
    deck = make_deck(["Kc Qc 2d", "6s 7s 8s", "Ah Kh 4d"])
    deal = TradeDeal(FOSTER, 3, 0, deck)
    deal.knock(1)
    assert deal.showdown is not None and deal.showdown.winner == 1
    assert deal.delta == [-2, 3, -1]


def test_dealer_with_nothing_pays_only_the_winner():
    deck = make_deck(["2c 5d 9h", "Ah Kh 4d", "3c 7d Js"])
    deal = TradeDeal(FOSTER, 3, 0, deck)
    deal.knock(1)
    assert deal.showdown is not None and deal.showdown.winner == 1
    assert deal.delta == [-2, 3, -1]


def test_foster_more_same_category_uses_flush_and_pair():
    # seat 1 flush, dealer flush: same category, dealer pays everyone
    deck = make_deck(["2c 5c 9c", "2h 5h Th", "Ah Kd 4s"])
    deal = TradeDeal(MORE, 3, 0, deck)
    deal.knock(1)
    sd = deal.showdown
    assert sd is not None
    assert sd.categories == (Category.FLUSH, Category.FLUSH, Category.NONE)
    assert sd.winner == 1
    assert deal.delta == [-3, 3, 0]
    # the same hands under classic: both points, also the same category
    classic = TradeDeal(FOSTER, 3, 0, deck)
    classic.knock(1)
    assert classic.delta == [-3, 3, 0]
    # a pair winner against a point dealer: different categories
    deck = make_deck(["Kc Qc 2d", "9h 9s 4c", "Ah Kd 4s"])
    deal = TradeDeal(MORE, 3, 0, deck)
    deal.knock(1)
    assert deal.showdown is not None
    assert deal.showdown.categories[:2] == (Category.POINT, Category.PAIR)
    assert deal.delta == [-2, 3, -1]


def test_fees_are_income_not_pool():
    deal = worked_check_deal()
    deal.trade(1, C("Kd"))
    assert deal.pool == 3
    deal.knock(2)
    sd = deal.showdown
    assert sd is not None and sd.pool_won == 3


# -------------------------------------------------------------------- hoyle
def test_hoyle_traded_cards_go_under_the_stock_and_come_back():
    deal = TradeDeal(HOYLE, 3, 0, list(range(52)))
    stock_size = len(deal.stock)
    assert stock_size == 43
    first_traded = deal.hands[1][0]
    for i in range(stock_size):
        seat = deal.to_act
        assert seat is not None
        card = first_traded if i == 0 else deal.hands[seat][0]
        deal.trade(seat, card)
        assert len(deal.stock) == stock_size
        assert deal.waste == []
        assert_cards_conserved(deal)
        if i < stock_size - 1:
            assert first_traded not in [c for h in deal.hands for c in h]
    assert deal.stock[0] == first_traded  # a full cycle of trades: it is on top
    seat = deal.to_act
    assert seat is not None
    deal.trade(seat, deal.hands[seat][0])
    assert first_traded in deal.hands[seat]
    assert not deal.finished


def test_hoyle_knock_after_trade():
    deal = TradeDeal(HOYLE, 3, 0, make_deck(WORKED, stock="8s"))
    op = deal.trade(1, C("Kd"), knock=True)
    assert op == Trade(1, C("Kd"), True)
    assert C("8s") in deal.hands[1]
    sd = deal.showdown
    assert sd is not None and sd.knocker == 1 and sd.ended_by == "knock"
    assert deal.last_event is not None and deal.last_event.knocked
    assert deal.delta == [-2, 2, 0]  # the same outcome as the worked check


def test_hoyle_knock_after_barter():
    deal = TradeDeal(HOYLE, 3, 0, make_deck(["3c 4c 5c", "6s 7s Kd", "Ah Kh 8s"]))
    deal.barter(1, C("Kd"), knock=True)
    assert not deal.finished
    deal.answer(2, C("8s"))
    sd = deal.showdown
    assert sd is not None
    assert sd.knocker == 1 and sd.ended_by == "knock"
    assert sorted(sd.hands[1]) == sorted(cards("6s 7s 8s"))
    assert sd.winner == 1


def test_hoyle_pool_carries_over_when_nobody_holds_anything():
    deal = TradeDeal(HOYLE, 3, 0, make_deck(NOTHING, stock="2h"), final=False)
    deal.trade(1, C("3c"))  # draws the stock top, chosen to keep nothing
    deal.knock(2)
    sd = deal.showdown
    assert sd is not None
    assert all(c is Category.NONE for c in sd.categories), sd.hands
    assert sd.winner is None
    assert sd.pool_won == 0
    assert deal.pool == 3
    assert deal.delta == [0, -2, -1]  # antes and the fee only
    assert sum(deal.delta) + deal.pool == 0
    assert_deal_balanced(deal)
    assert not [m for m in deal.movements if m.reason in ("pool", "penalty")]


def test_hoyle_no_carry_on_the_final_deal():
    deal = TradeDeal(HOYLE, 3, 1, make_deck(NOTHING, dealer=1), carried_pool=6, final=True)
    assert deal.pool == 9
    deal.knock(2)
    sd = deal.showdown
    assert sd is not None and sd.winner == 1  # the foster tie rule: the dealer
    assert sd.pool_won == 9
    assert deal.delta == [-1, 8, -1]
    assert_deal_balanced(deal)


def test_foster_never_carries():
    deal = TradeDeal(FOSTER, 3, 0, make_deck(NOTHING), final=False)
    deal.knock(1)
    assert deal.showdown is not None and deal.showdown.winner == 0


# ------------------------------------------------------------------ parlett
def test_parlett_turns_and_barters_run_anticlockwise():
    deal = TradeDeal(PARLETT, 4, 0, list(range(52)))
    assert deal.to_act == 3
    assert deal.neighbour(3) == 2
    deal.barter(3, deal.hands[3][0])
    assert deal.to_act == 2
    deal.answer(2, deal.hands[2][0])
    order = []
    for _ in range(5):
        seat = deal.to_act
        assert seat is not None
        order.append(seat)
        deal.trade(seat, deal.hands[seat][0])
    assert order == [2, 1, 0, 3, 2]


def test_parlett_clockwise_option():
    rules = get_preset("parlett", {"direction": "clockwise"})
    deal = TradeDeal(rules, 4, 0, list(range(52)))
    assert deal.to_act == 1 and deal.neighbour(1) == 2
    assert rules.dealer_penalty == "any_combination"


def test_parlett_traded_card_is_shown():
    deck = make_deck(WORKED, step=-1, stock="8s")
    deal = TradeDeal(PARLETT, 3, 0, deck)
    assert deal.to_act == 2
    deal.trade(2, C("4d"))
    assert deal.last_event is not None and deal.last_event.shown == C("4d")
    assert deal.observation().shown_waste == (C("4d"),)
    assert deal.observation(1).shown_waste == (C("4d"),)
    foster = worked_check_deal()
    foster.trade(1, C("Kd"))
    assert foster.observation().shown_waste == ()
    assert foster.observation().waste_count == 1


def test_parlett_dealer_holding_any_combination_pays_everyone():
    hands = ["Kc Qc 2d", "6s 7s 8s", "Ah Kh 4d"]  # dealer point, seat 1 sequence
    clockwise = get_preset("parlett", {"direction": "clockwise"})
    deal = TradeDeal(clockwise, 3, 0, make_deck(hands))
    deal.knock(1)
    assert deal.showdown is not None and deal.showdown.winner == 1
    assert deal.delta == [-3, 3, 0]
    foster = TradeDeal(FOSTER, 3, 0, make_deck(hands))
    foster.knock(1)
    assert foster.delta == [-2, 3, -1]
    # a dealer holding nothing pays only the winner
    deal = TradeDeal(clockwise, 3, 0, make_deck(["2c 5d 9h", "6s 7s 8s", "Ah Kh 4d"]))
    deal.knock(1)
    assert deal.delta == [-2, 3, -1]


# --------------------------------------------------------------------- void
def test_void_refunds_antes_and_fees():
    deal = worked_check_deal()
    deal.trade(1, C("Kd"))
    deal.barter(2, C("4d"))
    deal.void()
    assert deal.finished and deal.voided
    assert deal.showdown is None
    assert deal.delta == [0, 0, 0]
    assert deal.pool == 0
    assert deal.pending is None
    assert deal.to_act is None
    assert_cards_conserved(deal)
    with pytest.raises(IllegalAction, match="already over"):
        deal.knock(0)
    with pytest.raises(IllegalAction, match="already over"):
        deal.void()


def test_void_keeps_a_carried_pool():
    deal = TradeDeal(HOYLE, 3, 0, list(range(52)), carried_pool=6, final=False)
    deal.void()
    assert deal.pool == 6
    assert deal.delta == [0, 0, 0]


# -------------------------------------------------------------- observation
def test_observation_shows_only_ones_own_hand_until_the_showdown():
    deal = worked_check_deal()
    for seat in range(3):
        obs = deal.observation(seat)
        assert obs.hand == tuple(deal.hands[seat])
        assert obs.showdown is None
        visible = set(obs.hand) | set(obs.shown_waste)
        others = {c for s, h in enumerate(deal.hands) if s != seat for c in h}
        assert not visible & others
    public = deal.observation()
    assert public.hand is None and public.seat is None
    assert public.to_act == 1 and public.pool == 3 and public.stock_count == 43
    with pytest.raises(ValueError):
        deal.observation(3)
    deal.knock(1)
    assert deal.observation().showdown == deal.showdown
    assert deal.observation().finished


def test_an_observation_is_made_once_per_state_and_never_outlives_it():
    deal = worked_check_deal()
    public, own = deal.observation(), deal.observation(1)
    assert deal.observation() is public and deal.observation(1) is own  # the same state
    assert deal.observation(2) is not own and deal.observation(2).hand == tuple(deal.hands[2])
    clone, twin = copy.copy(deal), copy.deepcopy(deal)
    twin.hands[1].reverse()  # a copy observes afresh: never what its original saw
    assert twin.observation(1).hand == tuple(reversed(own.hand)) != own.hand
    assert clone.observation(1) == own and clone.observation(1) is not own
    deal.trade(1, deal.hands[1][0])
    assert deal.observation(1).hand == tuple(deal.hands[1]) != own.hand
    assert deal.observation().moves == public.moves + 1 and deal.observation().turn == 2
    deal.void()  # no operation, yet another state: voided
    assert deal.observation().finished and not public.finished
    assert deal.observation(1) is deal.observation(1)
