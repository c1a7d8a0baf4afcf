"""The widow preset (docs/RULES.md §2.5): a face-up widow,
the dealer's whole-hand exchange, one-card exchanges, two knocks end play."""

from __future__ import annotations

import random

import pytest

from bot.engine import easy
from bot.engine.cards import parse_card
from bot.engine.family import Decision, IllegalAction, Movement
from bot.engine.game import Game, record_actions, replay
from bot.engine.hands import Category
from bot.engine.operations import KeepHand, Knock, Swap, TakeWidow
from bot.engine.rules import PRESETS, get_preset
from bot.engine.widow import WidowDeal

from .families import (
    assert_cards_conserved,
    check_replay,
    layout_deck,
    play,
    random_move,
    snapshot,
)
from .support import cards

WIDOW = PRESETS["widow"]
C = parse_card

# Our own worked example (the source gives none with cards): dealer 0.
EXAMPLE = ["5s 9h 2c", "6s 7s Kd", "Ah Kh 4d"]
EXAMPLE_WIDOW = "Qc Kc 3h"


def example() -> WidowDeal:
    return WidowDeal(WIDOW, 3, 0, layout_deck(EXAMPLE, after=EXAMPLE_WIDOW))


def test_widow_rules_are_the_rulings_of_section_2():
    assert WIDOW.family == "widow"
    assert WIDOW.dealer_widow and not WIDOW.blind_widow_choice and not WIDOW.widow_taker_stands
    assert WIDOW.swap_max == 1 and WIDOW.widow_end == "two_knocks"
    assert WIDOW.ante == 1 and WIDOW.trade_fee == 0 and WIDOW.dealer_penalty == "none"
    assert WIDOW.lives == 0 and WIDOW.stake == 0 and WIDOW.game_end == "deals"
    assert WIDOW.direction == "clockwise" and WIDOW.ranking == "classic"


def test_deal_lays_three_face_up_cards_after_the_hands():
    deal = example()
    assert deal.hands == [cards(h) for h in EXAMPLE]
    assert deal.widow == cards(EXAMPLE_WIDOW)
    assert len(deal.stock) == 52 - 12  # not used in play
    assert deal.pool == 3 and deal.delta == [-1, -1, -1]
    assert deal.to_act == 0  # the dealer decides about the widow first
    assert deal.legal_actions(0) == ["take_widow", "keep_hand"]
    assert deal.legal_actions(1) == [] and deal.legal_actions(2) == []
    public = deal.observation()
    assert public.hand is None and public.widow == tuple(cards(EXAMPLE_WIDOW))
    assert public.phase == "choice" and public.family == "widow" and public.legal == ()
    assert deal.observation(1).hand == tuple(cards("6s 7s Kd"))
    assert_cards_conserved(deal)


def test_worked_example_dealer_takes_the_widow_then_two_knocks():
    deal = example()
    assert deal.take_widow(0) == TakeWidow(0)
    assert deal.hands[0] == cards("Qc Kc 3h")
    assert deal.widow == cards("5s 9h 2c")  # the old hand, face up
    assert deal.to_act == 1  # eldest hand; the dealer plays again at the end of the circuit
    assert deal.swap(1, [C("Kd")], [C("5s")]) == Swap(1, (C("Kd"),), (C("5s"),))
    assert sorted(deal.hands[1]) == sorted(cards("5s 6s 7s"))
    assert deal.widow == cards("Kd 9h 2c")  # Kd lies where 5s was
    deal.swap(2, [C("4d")], [C("9h")])  # Ah Kh 9h: point 30
    assert deal.legal_actions(0) == ["swap", "knock"]
    deal.knock(0)
    assert deal.to_act == 1 and not deal.finished
    deal.knock(1)  # the second knock stops play
    sd = deal.showdown
    assert deal.finished and sd is not None
    assert sd.categories == (Category.POINT, Category.SEQUENCE, Category.POINT)
    assert sd.winner == 1 and sd.ended_by == "knock" and sd.knocker == 1
    assert sd.pool_won == 3
    assert deal.delta == [-1, 2, -1]  # no dealer penalty, no fees
    assert sd.payments == (Movement(None, 1, 3, "pool"),)
    assert deal.conserved_total() == 0
    assert_cards_conserved(deal)


def test_exactly_one_card_is_exchanged():
    deal = example()
    deal.keep_hand(0)
    before = snapshot(deal)
    for give, take, reason in [
        (["6s", "7s"], ["Qc", "Kc"], "exactly one"),
        (["6s"], ["Qc", "Kc"], "as many"),
        ([], [], "as many|exactly one"),
        (["Ah"], ["Qc"], "do not hold"),
        (["6s"], ["Ah"], "not in the widow"),
    ]:
        g, t = [C(c) for c in give], [C(c) for c in take]
        assert not deal.can_swap(1, g, t)
        with pytest.raises(IllegalAction, match=reason):
            deal.swap(1, g, t)
    with pytest.raises(IllegalAction, match="not your turn"):
        deal.swap(2, [C("4d")], [C("Qc")])
    with pytest.raises(IllegalAction, match="stand instead|knock"):
        deal.stand(1)
    with pytest.raises(IllegalAction, match="Unknown action"):
        deal.act(1, Decision("trade", C("6s")))
    assert snapshot(deal) == before


def test_the_widow_is_taken_only_by_the_dealer_and_only_first():
    deal = example()
    with pytest.raises(IllegalAction, match="Only the dealer"):
        deal.take_widow(1)
    with pytest.raises(IllegalAction, match="dealer decides"):
        deal.swap(1, [C("Kd")], [C("Qc")])
    assert deal.keep_hand(0) == KeepHand(0)
    assert deal.hands[0] == cards("5s 9h 2c") and deal.widow == cards(EXAMPLE_WIDOW)
    with pytest.raises(IllegalAction, match="before play starts"):
        deal.take_widow(0)


def test_a_knocked_player_takes_no_more_turns():
    hands = ["2c 5d 9h", "3c 7d Js", "4h 8s Kd", "5c 6h Ts"]
    deal = WidowDeal(WIDOW, 4, 0, layout_deck(hands, after="Ac Ad Ah"))
    deal.keep_hand(0)
    deal.knock(1)
    turns = []
    for _ in range(5):
        seat = deal.to_act
        assert seat is not None
        turns.append(seat)
        hand = deal.hands[seat]
        deal.swap(seat, [hand[0]], [deal.widow[0]])
    assert turns == [2, 3, 0, 2, 3]  # seat 1 is skipped
    with pytest.raises(IllegalAction, match="stopped"):
        deal.swap(1, [deal.hands[1][0]], [deal.widow[0]])
    deal.knock(0)
    assert deal.finished and deal.showdown is not None and deal.showdown.knocker == 0


def test_ties_go_to_the_dealer_then_the_eldest():
    # nobody holds anything: the dealer wins
    deal = WidowDeal(WIDOW, 3, 1, layout_deck(["2c 5d 9h", "3c 7d Js", "4h 8s Kd"], dealer=1,
                                              after="5c 6h Ts"))
    deal.keep_hand(1)
    deal.knock(2)
    deal.knock(0)
    assert deal.showdown is not None and deal.showdown.winner == 1
    assert deal.delta == [-1, 2, -1]
    # equal points without the dealer: the seat nearest the dealer's left
    deal = WidowDeal(WIDOW, 3, 0, layout_deck(["2c 5d 9h", "Kc Qc 2d", "Kh Qh 3s"],
                                              after="5c 6h Ts"))
    deal.keep_hand(0)
    deal.knock(1)
    deal.knock(2)
    assert deal.showdown is not None and deal.showdown.winner == 1


def test_anticlockwise_widow_starts_at_the_dealers_right():
    rules = get_preset("widow", {"direction": "anticlockwise"})
    deal = WidowDeal(rules, 4, 0, layout_deck(["2c 5d 9h", "3c 7d Js", "4h 8s Kd", "5c 6h Ts"],
                                              step=-1, after="Ac Ad Ah"))
    assert deal.hands[3] == cards("5c 6h Ts")
    deal.keep_hand(0)
    assert deal.to_act == 3


def test_observations_hide_other_hands_until_the_showdown():
    deal = example()
    deal.take_widow(0)
    for seat in range(3):
        obs = deal.observation(seat)
        assert obs.hand == tuple(deal.hands[seat]) and obs.showdown is None
        assert obs.legal == tuple(deal.legal_actions(seat))
    assert deal.observation().hand is None
    assert deal.observation().last_event is not None
    assert deal.observation().last_event.given == tuple(cards("5s 9h 2c"))  # shown face up
    deal.knock(1)
    deal.knock(2)
    assert deal.observation().showdown is not None
    assert deal.observation().phase == "over"


def test_record_actions_and_replay_of_a_widow_game():
    game = Game(WIDOW, 3, 0)
    deal = game.start_deal(layout_deck(EXAMPLE, after=EXAMPLE_WIDOW))
    deal.take_widow(0)
    deal.swap(1, [C("Kd")], [C("5s")])
    deal.knock(2)
    deal.knock(0)
    assert record_actions(deal.operations) == [
        {"seat": 0, "action": "take_widow"},
        {"seat": 1, "action": "swap", "give": ["Kd"], "take": ["5s"]},
        {"seat": 2, "action": "knock"},
        {"seat": 0, "action": "knock"},
    ]
    record = game.to_record(["Ann", "Ben", "Cat"])
    again = replay(record)
    assert again.summary() == game.summary()
    summary = game.summary()["deals"][0]
    assert summary["widow"] == ["Kd", "9h", "2c"]
    assert summary["ended_by"] == "knock" and summary["knocker"] == 0
    assert deal.operations == [TakeWidow(0), Swap(1, (C("Kd"),), (C("5s"),)), Knock(2), Knock(0)]


def test_a_widow_game_has_one_deal_per_player_and_balances():
    rng = random.Random(5)
    game = play(WIDOW, 4, 2, rng)
    assert game.deals_total == 4 and len(game.deals) == 4 and game.complete
    assert [d.dealer for d in game.deals] == [2, 3, 0, 1]
    assert sum(game.ledger) == 0 and game.conserved_total() == 0
    assert game.winners == [s for s, v in enumerate(game.ledger) if v == max(game.ledger)]
    check_replay(game)


def test_random_widow_play_and_the_ai_keep_the_invariants():
    rng = random.Random(11)
    for number in range(12):
        n = 3 + number % 10
        game = play(get_preset("widow", {"deals": 2}), n, number % n, rng,
                    choose=random_move if number % 2 else None)
        assert game.complete and game.winners
        check_replay(game)
    deal = example()
    assert easy.choose(deal.observation(0)).kind == "take_widow"  # Qc Kc 3h beats nothing
