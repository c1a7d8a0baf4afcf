"""Jaques' Commerce (docs/RULES.md §2.7): chips, a stock and a
discard pile, the final round after a knock, all-pass showdowns, the lowest
hand paying the pot, elimination, and the options (fixed rounds, direct and
open trading, dead knock, three-stake pot)."""

from __future__ import annotations

import random

import pytest

from bot.engine import easy
from bot.engine.cards import card_code, parse_card
from bot.engine.discard import DiscardDeal
from bot.engine.family import Decision, IllegalAction, Movement
from bot.engine.game import Game, record_actions, replay
from bot.engine.hands import Category
from bot.engine.operations import Draw, DrawDiscard, DrawKeep, Offer, OfferAnswer, Pass, TakeDiscard
from bot.engine.rules import PRESETS, RulesError, get_preset

from .families import (
    assert_cards_conserved,
    assert_money_conserved,
    check_replay,
    layout_deck,
    play,
    random_move,
    snapshot,
)
from .support import cards

JAQUES = PRESETS["jaques"]
C = parse_card
NOTHING = ["2c 5d 9h", "3c 7d Js", "4h 8s Kd"]


def jaques(hands: list[str], after: str = "Qs 2s 3s", dealer: int = 0, options=None,
           **kwargs) -> DiscardDeal:
    rules = get_preset("jaques", options or {})
    return DiscardDeal(rules, len(hands), dealer,
                       layout_deck(hands, dealer=dealer, step=rules.step, after=after), **kwargs)


def pass_round(deal: DiscardDeal) -> None:
    while not deal.finished:
        seat = deal.to_act
        assert seat is not None
        deal.pass_turn(seat)


def test_jaques_rules_are_the_rulings_of_section_2():
    r = JAQUES
    assert r.family == "discard" and r.ranking == "jaques" and r.game_end == "chips"
    assert (r.min_players, r.max_players) == (3, 10)
    assert r.chips == 10 and r.stake == 1 and r.ante == 0
    assert r.knock_fee == 1 and r.lowest_pays == 1 and r.dead_knock_fine == 2
    assert not (r.dead_knock or r.direct_trading or r.open_trading or r.three_stake)
    assert r.fixed_rounds is None and Game(JAQUES, 4, 0).deals_total is None
    assert get_preset("jaques", {"open_trading": True}).direct_trading
    three = get_preset("jaques", {"three_stake": True})
    assert three.n_pots == 3 and three.stake == 0 and three.ante == 1
    for bad in ({"three_stake": True, "stake": 2}, {"chips": 3, "stake": 3}, {"chips": 1},
                {"fixed_rounds": 0}, {"dead_knock": "yes"}, {"deals_per_player": 2}):
        with pytest.raises(RulesError):
            get_preset("jaques", bad)


def test_setup_stake_discard_pile_and_stock():
    deal = jaques(NOTHING)
    assert deal.hands == [cards(h) for h in NOTHING]
    assert deal.discard == [C("Qs")] and list(deal.stock)[:2] == cards("2s 3s")
    assert len(deal.stock) == 52 - 9 - 1
    assert deal.pots == (3,) and [deal.chips(s) for s in range(3)] == [9, 9, 9]
    assert [m.reason for m in deal.movements] == ["stake"] * 3
    assert deal.to_act == 1
    assert deal.legal_actions(1) == ["take_discard", "draw", "pass", "knock"]
    assert deal.legal_actions(0) == []
    public = deal.observation()
    assert public.hand is None and public.discard_top == C("Qs") and public.discard_count == 1
    assert public.chips == (9, 9, 9) and public.pots == (3,) and public.stock_count == 42
    assert_cards_conserved(deal)
    later = jaques(NOTHING, first=False, chips=[5, 6, 7], carried_pots=[4])
    assert later.pots == (4,) and later.movements == []  # the stake is paid once


def test_take_the_discard_draw_and_keep_or_discard():
    deal = jaques(NOTHING)
    assert deal.take_discard(1, C("Js")) == TakeDiscard(1, C("Js"))
    assert deal.hands[1] == cards("3c 7d Qs") and deal.discard == cards("Js")
    assert deal.to_act == 2
    assert deal.draw(2) == Draw(2)
    assert deal.drawn == C("2s") and deal.to_act == 2
    assert deal.legal_actions(2) == ["draw_keep", "draw_discard"]
    assert deal.observation(2).drawn == C("2s")
    assert deal.observation(1).drawn is None and deal.observation().drawn is None
    assert deal.observation().drawing == 2
    assert_cards_conserved(deal)
    before = snapshot(deal)
    with pytest.raises(IllegalAction, match="Keep or discard"):
        deal.pass_turn(2)
    with pytest.raises(IllegalAction, match="Wait"):
        deal.pass_turn(0)
    assert snapshot(deal) == before
    assert deal.draw_keep(2, C("Kd")) == DrawKeep(2, C("Kd"))
    assert deal.hands[2] == cards("4h 8s 2s") and deal.discard[-1] == C("Kd")
    deal.draw(0)
    assert deal.draw_discard(0) == DrawDiscard(0)
    assert deal.discard[-1] == C("3s") and deal.hands[0] == cards("2c 5d 9h")
    assert deal.observation().last_event is not None
    assert deal.observation().last_event.shown == C("3s")
    assert_cards_conserved(deal)


def test_knock_costs_a_chip_and_every_other_player_gets_one_more_turn():
    deal = jaques(["2c 5d 9h", "3c 7d Js", "7c 7h 7s", "4h 8s Kd"])
    deal.pass_turn(1)
    deal.knock(2)
    assert deal.chips(2) == 8 and deal.pots == (5,)
    assert deal.movements[-1] == Movement(2, None, 1, "knock")
    assert deal.knocker == 2 and deal.final_turns == 3
    assert deal.observation().phase == "final"
    with pytest.raises(IllegalAction, match="already knocked"):
        deal.knock(3)
    turns = []
    while not deal.finished:
        seat = deal.to_act
        assert seat is not None
        turns.append(seat)
        assert "knock" not in deal.legal_actions(seat)
        deal.draw(seat)
        deal.draw_discard(seat)
    assert turns == [3, 0, 1]  # the knocker does not play again
    sd = deal.showdown
    assert sd is not None and sd.ended_by == "knock" and sd.knocker == 2
    assert sd.winner == 2 and sd.categories[2] is Category.TRICON


def test_a_full_circuit_of_passes_ends_the_deal_at_once():
    deal = jaques(NOTHING)
    deal.pass_turn(1)
    deal.pass_turn(2)
    deal.draw(0)
    deal.draw_discard(0)  # not a pass: the count starts again
    deal.pass_turn(1)
    deal.pass_turn(2)
    assert not deal.finished and deal.passes == 2
    assert deal.pass_turn(0) == Pass(0)
    sd = deal.showdown
    assert sd is not None and sd.ended_by == "pass" and sd.knocker is None


def test_the_lowest_hand_pays_and_all_tied_lowest_pay():
    # jaques ranks high cards: 2c 5d 9h < 3c 7d Js < 4h 8s Kd
    deal = jaques(NOTHING)
    pass_round(deal)
    sd = deal.showdown
    assert sd is not None and sd.losers == (0,) and sd.winner == 2
    assert sd.payments == (Movement(0, None, 1, "lowest"),)
    assert deal.pots == (4,) and [deal.chips(s) for s in range(3)] == [8, 9, 9]
    # the same high cards in other suits tie for lowest
    deal = jaques(["2c 5d 9h", "2d 5h 9s", "Ac Kd 4h"])
    pass_round(deal)
    assert deal.showdown is not None and deal.showdown.losers == (1, 0)  # from the dealer's left
    assert [deal.chips(s) for s in range(3)] == [8, 8, 9]
    assert deal.game_over is False and deal.showdown.game_winners == ()


def test_dead_knock():
    hands = ["2c 5d 9h", "3c 7d Js", "4h 8s Kd"]
    deal = jaques(hands, options={"dead_knock": True})
    deal.knock(1)  # seat 1 does not hold the best hand
    deal.pass_turn(2)
    deal.pass_turn(0)
    sd = deal.showdown
    assert sd is not None and sd.losers == (1, 0)
    assert sd.payments == (Movement(1, None, 2, "dead_knock"), Movement(0, None, 1, "lowest"))
    assert [deal.chips(s) for s in range(3)] == [8, 6, 9]
    # a dead knocker who also holds the lowest hand pays 2, not 3
    deal = jaques(hands, dealer=2, options={"dead_knock": True})
    deal.knock(0)
    deal.pass_turn(1)
    deal.pass_turn(2)
    assert deal.showdown is not None and deal.showdown.losers == (0,)
    assert [deal.chips(s) for s in range(3)] == [6, 9, 9]
    # a knocker with the best hand pays only the knock
    deal = jaques(hands, dealer=1, options={"dead_knock": True})
    deal.knock(2)
    deal.pass_turn(0)
    deal.pass_turn(1)
    assert [deal.chips(s) for s in range(3)] == [8, 9, 8]


def test_three_stake_pots():
    rules = {"three_stake": True}
    deal = jaques(["Kc Kd 2h", "7c 7d 7h", "2s 9s Js"], after="Qc", options=rules)
    assert deal.pots == (3, 3, 3) and [deal.chips(s) for s in range(3)] == [7, 7, 7]
    pass_round(deal)
    sd = deal.showdown
    assert sd is not None and sd.losers == (0,)  # the pair is lowest: 1 into the first pot
    assert sd.pot_winners == ((1,), (2,), (0,))
    assert deal.pots == (0, 0, 0)
    assert [deal.chips(s) for s in range(3)] == [9, 11, 10]
    # no tricon: that pot carries over; a tie splits a pot
    deal = jaques(["Kc Kd 2h", "Ks Kh 2d", "2s 9s Js"], after="Qc", options=rules,
                  first=False, chips=[5, 5, 5], carried_pots=[1, 0, 0])
    assert deal.pots == (4, 3, 3)
    pass_round(deal)
    sd = deal.showdown
    assert sd is not None and sd.losers == (1, 0) and sd.pot_winners == ((), (2,), (1, 0))
    assert deal.pots == (6, 0, 0)
    # pot 3 shared by seats 1 and 0: 1 each, the odd chip to seat 1 (dealer's left)
    assert [deal.chips(s) for s in range(3)] == [2 - 1 + 1, 2 - 1 + 2, 2 + 3]
    assert deal.conserved_total() == 0


def test_payments_never_exceed_the_chips_and_a_knock_needs_one():
    deal = jaques(NOTHING, options={"three_stake": True}, first=False, chips=[1, 3, 3],
                  carried_pots=[0, 0, 0])
    assert deal.chips(0) == 0 and deal.pots == (3, 2, 2)
    deal.pass_turn(1)
    deal.pass_turn(2)
    assert "knock" not in deal.legal_actions(0)
    with pytest.raises(IllegalAction, match="no chip"):
        deal.knock(0)
    deal.pass_turn(0)
    assert deal.showdown is not None and deal.showdown.losers == (0,)
    assert deal.chips(0) == 0 and deal.conserved_total() == 0


def test_elimination_and_the_last_player_takes_the_pot():
    game = Game(get_preset("jaques", {"chips": 2}), 3, 0)
    deal = game.start_deal(layout_deck(NOTHING, after="Qs 2s 3s"))
    pass_round(deal)  # seat 0 lowest: 2 - 1 stake - 1 = 0 chips
    assert game.chips == [0, 1, 1] and game.in_play == [1, 2] and game.pots == (4,)
    assert not game.complete and game.next_dealer == 1
    deal = game.start_deal(layout_deck(["", "2c 5d 9h", "4h 8s Kd"], dealer=1, after="Qs"))
    assert isinstance(deal, DiscardDeal)
    assert deal.active == (1, 2) and deal.hands[0] == [] and deal.to_act == 2
    pass_round(deal)
    sd = deal.showdown
    assert sd is not None and sd.losers == (1,) and sd.game_winners == (2,)
    assert deal.movements[-1] == Movement(None, 2, 5, "sweep")
    assert game.complete and game.winners == [2]
    assert game.chips == [0, 0, 6] and game.pots == (0,) and sum(game.ledger) == 0
    summary = game.summary()
    assert summary["chips"] == [0, 0, 6] and summary["pots"] == [0]
    assert summary["deals"][1]["hands"][0] == [] and summary["deals"][1]["categories"][0] is None
    check_replay(game)


def test_the_last_players_dropping_out_together_share_the_pot():
    deal = jaques(["", "2c 5d 9h", "2d 5h 9s"], dealer=1, after="Qs", first=False,
                  chips=[0, 1, 1], carried_pots=[7])
    pass_round(deal)
    sd = deal.showdown
    assert sd is not None and sd.losers == (2, 1)
    # 9 chips shared: 4 each, the odd one to the earliest from the dealer's left (seat 2)
    assert sd.game_winners == (2, 1)
    assert [deal.chips(s) for s in range(3)] == [0, 4, 5]


def test_fixed_rounds_ties_split_with_the_remainder_to_the_earliest_seat():
    game = Game(get_preset("jaques", {"fixed_rounds": 2}), 3, 0)
    assert game.deals_total == 2
    deal = game.start_deal(layout_deck(NOTHING, after="Qs"))
    pass_round(deal)  # seat 0 pays
    deal = game.start_deal(layout_deck(NOTHING, dealer=1, after="Qs"))
    assert isinstance(deal, DiscardDeal) and deal.final
    pass_round(deal)  # seat 0 pays again: chips 7, 9, 9; pot 5
    sd = deal.showdown
    assert sd is not None and sd.game_winners == (2, 1)  # from the dealer's (1) left
    assert [deal.chips(s) for s in range(3)] == [7, 9 + 2, 9 + 3]
    assert game.complete and game.winners == [1, 2] and game.pots == (0,)
    check_replay(game)


#: three-stake hands by role: the pair wins the pair/high-card pot, the lowest
#: pays 1 into the first pot; nobody holds a tricon, sequence or flush
PAIR, LOW, MID = "Ac Ad 3h", "2c 5d 9h", "3c 6d Th"


@pytest.mark.parametrize("direction", ["clockwise", "anticlockwise"])
@pytest.mark.parametrize("dealer", [0, 1, 2])
@pytest.mark.parametrize(
    ("carried", "pots_at_end", "shares"),
    [
        ((0, 2, 0), (4, 5, 0), (3, 3, 3)),  # 9 chips over 3 tied seats: 3 each
        ((1, 2, 0), (5, 5, 0), (4, 3, 3)),  # 10 chips: the odd one to the dealer's left
        ((2, 3, 0), (6, 6, 0), (4, 4, 4)),
        ((3, 2, 0), (7, 5, 0), (4, 4, 4)),
        ((3, 3, 0), (7, 6, 0), (5, 4, 4)),  # 13 chips: one remainder of 1
    ],
    ids=["9 chips", "10 chips", "12 chips", "12 chips uneven pots", "13 chips"],
)
def test_three_stake_game_end_shares_the_total_of_the_pots(
    direction, dealer, carried, pots_at_end, shares
):
    # seats 0, 1, 2 hold the pair, the lowest and the middle hand; their stacks
    # are set so that all three have 5 chips after the deal (a three-way tie)
    options = {"three_stake": True, "direction": direction}
    deal = jaques([PAIR, LOW, MID], after="Qs", dealer=dealer, options=options, first=False,
                  final=True, chips=[5, 9, 8], carried_pots=carried)
    pass_round(deal)
    sd = deal.showdown
    assert sd is not None
    assert sd.pot_winners == ((), (), (0,)) and sd.losers == (1,)
    # the pots as they stood before the sweep, and every seat at 5 chips
    swept = [m for m in deal.movements if m.reason == "sweep"]
    assert tuple(sum(m.amount for m in swept if m.pot == p) for p in range(3)) == pots_at_end
    assert [deal.chips(s) - sum(m.amount for m in swept if m.payee == s)
            for s in range(3)] == [5, 5, 5]
    # the takers from the dealer's left; the first of them gets the odd chips
    step = 1 if direction == "clockwise" else -1
    takers = [(dealer + step * k) % 3 for k in (1, 2, 3)]
    assert sd.game_winners == tuple(takers) and deal.game_over
    expected = [0, 0, 0]
    for seat, share in zip(takers, shares, strict=True):
        expected[seat] = 5 + share
    assert [deal.chips(s) for s in range(3)] == expected
    assert deal.pots == (0, 0, 0) and deal.conserved_total() == 0


def test_three_stake_game_end_shares_the_pots_among_the_tied_leaders_only():
    # four seats: seats 1 and 3 lead with 6 chips after the deal, the others trail
    hands = [LOW, "4c 7d Jh", MID, PAIR]
    deal = jaques(hands, after="Qs", dealer=3, options={"three_stake": True}, first=False,
                  final=True, chips=[6, 9, 6, 5], carried_pots=[0, 3, 0])
    pass_round(deal)
    sd = deal.showdown
    assert sd is not None and sd.pot_winners == ((), (), (3,)) and sd.losers == (0,)
    # before the sweep: chips 2, 6, 3, 6; pots 5 + 7 + 0 = 12 chips for two leaders
    assert sd.game_winners == (1, 3)  # seat 1 is nearer the dealer's (3) left than seat 3
    assert [deal.chips(s) for s in range(4)] == [2, 12, 3, 12]
    # 13 chips for the same two: the odd chip goes to seat 1
    deal = jaques(hands, after="Qs", dealer=3, options={"three_stake": True}, first=False,
                  final=True, chips=[6, 9, 6, 5], carried_pots=[1, 3, 0])
    pass_round(deal)
    assert [deal.chips(s) for s in range(4)] == [2, 13, 3, 12]
    assert deal.pots == (0, 0, 0) and deal.conserved_total() == 0


def test_direct_trading_on_your_turn():
    deal = jaques(NOTHING, options={"direct_trading": True})
    assert "offer" in deal.legal_actions(1) and deal.legal_actions(2) == []
    with pytest.raises(IllegalAction, match="not your turn"):
        deal.offer(2, 1, C("Kd"))
    with pytest.raises(IllegalAction, match="another player"):
        deal.offer(1, 1, C("Js"))
    assert deal.offer(1, 2, C("Js")) == Offer(1, 2, C("Js"))
    assert deal.to_act == 2 and deal.legal_actions(2) == ["accept", "refuse"]
    assert deal.observation(2).offered_card == C("Js")
    assert deal.observation(0).offered_card is None and deal.observation(1).offered_card is None
    assert deal.observation().offer == (1, 2)
    assert deal.answer(2, C("Kd")) == OfferAnswer(2, C("Kd"))
    assert deal.hands[1] == cards("3c 7d Kd") and deal.hands[2] == cards("4h 8s Js")
    assert deal.to_act == 2  # the accepted offer used seat 1's turn
    deal.offer(2, 0, C("Js"))
    deal.answer(0, None)  # a refused offer still uses the turn
    assert deal.to_act == 0 and deal.hands[2] == cards("4h 8s Js")
    deal.knock(0)
    with pytest.raises(IllegalAction, match="knocker"):
        deal.offer(1, 0, C("Kd"))
    plain = jaques(NOTHING)
    with pytest.raises(IllegalAction, match="no direct trading"):
        plain.offer(1, 2, C("Js"))
    assert_cards_conserved(deal)


def test_open_trading_outside_your_turn():
    deal = jaques(NOTHING, options={"open_trading": True})
    assert deal.legal_actions(0) == ["offer"]  # not seat 0's turn
    deal.offer(0, 2, C("9h"))
    assert deal.to_act == 2
    deal.answer(2, C("Kd"))
    assert deal.hands[0] == cards("2c 5d Kd") and deal.turn == 1 and deal.to_act == 1
    deal.offer(1, 0, C("Js"))  # on the turn: it uses the turn
    deal.answer(0, None)
    assert deal.to_act == 2
    record = record_actions(deal.operations)
    assert record == [
        {"seat": 0, "action": "offer", "target": 2, "card": "9h", "response": "Kd"},
        {"seat": 1, "action": "offer", "target": 0, "card": "Js", "response": "refuse"},
    ]


def test_an_empty_stock_is_rebuilt_from_the_discard_pile_but_its_top():
    game = Game(JAQUES, 3, 0)
    deal = game.start_deal(layout_deck(NOTHING, after="Qs"), rng=random.Random(1))
    assert isinstance(deal, DiscardDeal)
    while deal.stock:
        seat = deal.to_act
        assert seat is not None
        deal.draw(seat)
        deal.draw_discard(seat)
    top = deal.discard[-1]
    rest = sorted(deal.discard[:-1])
    assert len(rest) == 42
    seat = deal.to_act
    assert seat is not None
    op = deal.draw(seat)
    assert op.reshuffle is not None and sorted(op.reshuffle) == rest
    assert deal.discard == [top]  # the top card stays face up
    assert deal.drawn == op.reshuffle[0] and list(deal.stock) == list(op.reshuffle[1:])
    assert deal.reshuffles == 1
    public = deal.observation()
    assert public.reshuffles == 1 and public.stock_count == 41 and public.discard_top == top
    assert_cards_conserved(deal)
    record = game.to_record(["a", "b", "c"])
    assert record["deals"][0]["actions"][-1] == {
        "seat": seat, "action": "draw", "reshuffle": [card_code(c) for c in op.reshuffle],
    }
    again = replay(record)
    assert [d.operations for d in again.deals] == [d.operations for d in game.deals]
    assert list(again.deals[0].stock) == list(deal.stock)  # type: ignore[union-attr]
    deal.draw_discard(seat)
    with pytest.raises(IllegalAction, match="not empty"):
        deal.apply(Draw(deal.to_act or 0, op.reshuffle))
    assert len(replay(game.to_record(["a", "b", "c"])).deals[0].operations) == len(deal.operations)


def test_a_recorded_reshuffle_must_be_the_discard_pile():
    deal = jaques(NOTHING, after="Qs")
    while deal.stock:
        seat = deal.to_act
        assert seat is not None
        deal.draw(seat)
        deal.draw_discard(seat)
    seat = deal.to_act
    assert seat is not None
    before = snapshot(deal)
    with pytest.raises(IllegalAction, match="discard pile"):
        deal.apply(Draw(seat, tuple(range(42))))
    assert snapshot(deal) == before


def test_live_reshuffles_are_not_predictable():
    orders = set()
    for _ in range(3):
        deal = jaques(NOTHING, after="Qs")  # no rng: the OS CSPRNG
        assert deal.rng is None
        while deal.stock:
            seat = deal.to_act
            assert seat is not None
            deal.draw(seat)
            deal.draw_discard(seat)
        seat = deal.to_act
        assert seat is not None
        op = deal.draw(seat)
        assert op.reshuffle is not None
        orders.add(op.reshuffle)
    assert len(orders) == 3  # 42! orders: a repeat would be a broken shuffle


def test_jaques_games_by_the_ai_and_at_random_end_and_replay():
    rng = random.Random(8)
    for options in [
        {"chips": 3}, {"chips": 6, "three_stake": True}, {"chips": 3, "dead_knock": True},
        {"fixed_rounds": 3, "open_trading": True}, {"chips": 4, "direct_trading": True},
    ]:
        rules = get_preset("jaques", options)
        for choose in (None, random_move):
            n = rng.randint(3, 10)
            game = play(rules, n, rng.randrange(n), rng, choose=choose)
            assert game.complete and game.winners
            assert_money_conserved(game)
            assert game.pots == (0,) * rules.n_pots
            assert sum(game.chips or []) == n * rules.chips
            check_replay(game)


def test_ai_knocks_on_a_tricon_and_keeps_what_improves():
    deal = jaques(["2c 5d 9h", "7c 7d 7h", "4h 8s Kd"])
    assert easy.choose(deal.observation(1)) == Decision("knock")
    deal = jaques(NOTHING, after="Jc 9c")
    deal.draw(1)  # draws 9c: no better with 3c 7d Js
    assert easy.choose(deal.observation(1)).kind in ("draw_keep", "draw_discard")
    deal = jaques(["2c 5d 9h", "3c 3d Js", "4h 8s Kd"], after="3s")
    assert easy.choose(deal.observation(1)) == Decision("take_discard", C("Js"))  # a tricon
