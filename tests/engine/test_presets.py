"""Every preset of docs/RULES.md §2 as data, the table options, and the rulings of
the trade-and-barter presets (hoyle, parlett, foster-more) with the sources'
worked examples."""

from __future__ import annotations

import json
import random

import pytest

from bot.engine.cards import parse_card, shuffled_deck
from bot.engine.discard import DiscardDeal
from bot.engine.family import IllegalAction, Movement
from bot.engine.game import Game, replay
from bot.engine.hands import Category
from bot.engine.rules import OPTIONS, PRESETS, RulesError, get_preset
from bot.engine.trade import TradeDeal
from bot.engine.widow import WidowDeal

from .families import check_replay, knock_or_stop
from .support import cards, make_deck

C = parse_card


def test_every_preset_of_the_rules_exists_with_its_family():
    assert {name: r.family for name, r in PRESETS.items()} == {
        "foster": "trade", "hoyle": "trade", "parlett": "trade", "foster-more": "trade",
        "widow": "widow", "oldway": "widow", "jaques": "discard",
    }
    for name, rules in PRESETS.items():
        assert rules.name == name and rules.summary and rules.source.startswith("docs/RULES.md §2.")
        assert set(rules.table_options) <= set(OPTIONS)
        assert "direction" in rules.table_options


def test_each_family_plays_with_its_deal_class():
    rng = random.Random(1)
    classes = {"trade": TradeDeal, "widow": WidowDeal, "discard": DiscardDeal}
    for rules in PRESETS.values():
        game = Game(rules, 4, 0)
        deal = game.start_deal(shuffled_deck(rng))
        assert type(deal) is classes[rules.family]
        assert deal.family == rules.family
        with pytest.raises(ValueError, match="not played with"):
            (TradeDeal if rules.family != "trade" else WidowDeal)(rules, 4, 0, shuffled_deck(rng))


def test_trade_presets_differ_from_foster_exactly_as_section_2_says():
    foster, hoyle, parlett, more = (PRESETS[n] for n in ("foster", "hoyle", "parlett", "foster-more"))
    assert (foster.direction, hoyle.direction, parlett.direction) == (
        "clockwise", "clockwise", "anticlockwise")
    assert foster.barter_refusal and not hoyle.barter_refusal and parlett.barter_refusal
    assert (foster.traded_card, hoyle.traded_card, parlett.traded_card) == (
        "waste", "under_stock", "face_up")
    assert hoyle.knock_after_exchange and not foster.knock_after_exchange
    assert (foster.no_hand, hoyle.no_hand, parlett.no_hand) == ("dealer", "carry", "dealer")
    assert parlett.dealer_penalty == "any_combination" and foster.dealer_penalty == "same_category"
    assert more.ranking == "more" and foster.ranking == "classic"
    diff = {k for k in vars(foster) if getattr(foster, k) != getattr(more, k)}
    assert diff == {"name", "summary", "source", "ranking"}


def test_table_options():
    hoyle = get_preset("hoyle", {"direction": "anticlockwise", "deals": 7})
    assert hoyle.step == -1 and Game(hoyle, 4, 0).deals_total == 7
    assert Game(PRESETS["hoyle"], 4, 0).deals_total == 4  # one deal per player by default
    assert Game(get_preset("parlett", {"direction": "clockwise"}), 3, 0).rules.step == 1
    assert get_preset("oldway", {"pounce": True}).pounce
    for preset, bad in [
        ("foster", {"pounce": True}), ("oldway", {"deals": 3}), ("widow", {"chips": 5}),
        ("hoyle", {"deals": 0}), ("hoyle", {"deals": 61}), ("oldway", {"pounce": "yes"}),
    ]:
        with pytest.raises(RulesError):
            get_preset(preset, bad)


def test_game_options_round_trip_through_records():
    rules = get_preset("jaques", {"three_stake": True, "open_trading": True, "chips": 6})
    game = Game(rules, 3, 1)
    assert game.options == {"chips": 6, "direct_trading": True, "open_trading": True,
                            "three_stake": True}
    assert get_preset("jaques", game.options) == rules
    game = Game(get_preset("hoyle", {"deals": 2, "direction": "anticlockwise"}), 3, 0)
    assert game.options == {"direction": "anticlockwise", "deals": 2}
    rng = random.Random(4)
    while not game.complete:
        deal = game.start_deal(shuffled_deck(rng))
        knock_or_stop(deal)
    assert len(game.deals) == 2
    check_replay(game)


# ----------------------------------------------------------------- hoyle
def hoyle_example(anna: str) -> TradeDeal:
    """Seed 001's example: Anna deals to Ben, Carla and Dan (seats 0..3)."""
    deck = make_deck([anna, "Ks 9s 4h", "7c 7h 3c", "7d 5h 8c"], stock="Ts")
    deal = TradeDeal(PRESETS["hoyle"], 4, 0, deck)
    deal.trade(1, C("4h"))  # Ben pays Anna 1 and draws 10s: K 10 9 of spades, point 29
    assert sorted(deal.hands[1]) == sorted(cards("Ks Ts 9s"))
    assert list(deal.stock)[-1] == C("4h")  # the traded card goes under the stock
    deal.barter(2, C("3c"), knock=True)  # Carla barters the 3c to Dan and will knock
    deal.answer(3, C("7d"))  # Dan must give a card: the 7d
    return deal


def test_hoyle_worked_example_of_seed_001():
    deal = hoyle_example("Ad Jd 2c")  # Anna holds only a point
    sd = deal.showdown
    assert sd is not None and sd.winner == 2 and sd.knocker == 2
    assert sd.categories == (Category.POINT, Category.POINT, Category.TRICON, Category.POINT)
    assert [m for m in sd.payments if m.reason == "penalty"] == [Movement(0, 2, 1, "penalty")]
    assert deal.delta == [-1, -2, 4, -1]
    # had Anna held three 4s, she loses in the same category and pays everyone
    deal = hoyle_example("4c 4d 4s")
    assert deal.delta == [-3, -1, 4, 0]
    assert sum(deal.delta) == 0


def test_hoyle_trade_after_a_full_cycle_returns_the_first_card_traded_away():
    deal = TradeDeal(PRESETS["hoyle"], 3, 0, shuffled_deck(random.Random(9)))
    first = deal.hands[1][0]
    deal.trade(1, first)
    for _ in range(52 - 9 - 1):  # the 42 other stock cards come first
        seat = deal.to_act
        assert seat is not None
        deal.trade(seat, deal.hands[seat][0])
        assert first not in deal.hands[seat]
    seat = deal.to_act
    assert seat is not None
    deal.trade(seat, deal.hands[seat][0])
    assert first in deal.hands[seat]  # the first card traded away comes back
    assert not deal.finished  # the stock never runs out


def test_hoyle_barter_to_the_right_when_anticlockwise():
    rules = get_preset("hoyle", {"direction": "anticlockwise"})
    deck = make_deck(["2c 5d 9h", "3c 7d Js", "4h 8s Kd", "5c 6h Ts"], step=-1)
    deal = TradeDeal(rules, 4, 0, deck)
    assert deal.to_act == 3  # the eldest hand is the dealer's right
    deal.barter(3, C("5c"))
    assert deal.to_act == 2 and deal.neighbour(3) == 2  # offered to the right
    with pytest.raises(IllegalAction, match="must be accepted"):
        deal.answer(2, None)
    deal.answer(2, C("4h"))
    assert sorted(deal.hands[3]) == sorted(cards("4h 6h Ts"))
    assert sorted(deal.hands[2]) == sorted(cards("5c 8s Kd"))
    assert deal.to_act == 2  # the neighbour keeps its own turn
    deal.barter(2, C("5c"), knock=True)
    deal.answer(1, C("3c"))
    assert deal.finished and deal.showdown is not None and deal.showdown.knocker == 2


# --------------------------------------------------------------- parlett
def test_parlett_runs_anticlockwise_in_every_respect():
    game = Game(PRESETS["parlett"], 4, 0)
    deal = game.start_deal(list(range(52)))
    assert isinstance(deal, TradeDeal)
    assert deal.hands[3] == [0, 4, 8] and deal.hands[0] == [3, 7, 11]  # dealt to the right
    turns = []
    for _ in range(4):
        seat = deal.to_act
        assert seat is not None
        turns.append(seat)
        deal.trade(seat, deal.hands[seat][0])
    assert turns == [3, 2, 1, 0]
    deal.knock(3)
    dealers = [deal.dealer]
    while not game.complete:
        deal = game.start_deal(shuffled_deck(random.Random(len(dealers))))
        dealers.append(deal.dealer)
        knock_or_stop(deal)
    assert dealers == [0, 3, 2, 1]


def test_parlett_dealer_holding_any_combination_pays_everyone():
    hands = ["Ad Jd 2c", "7c 7h 7s", "3c 8d Js", "4h 9s Kd"]  # dealer: point; seat 1: tricon
    foster = TradeDeal(PRESETS["foster"], 4, 0, make_deck(hands))
    foster.knock(1)
    assert foster.delta == [-2, 4, -1, -1]  # foster: other category, pays the winner only
    parlett = TradeDeal(PRESETS["parlett"], 4, 0, make_deck(hands, step=-1))
    parlett.knock(3)
    assert parlett.showdown is not None and parlett.showdown.winner == 1
    assert parlett.delta == [-4, 4, 0, 0]  # any point, sequence or tricon: pays everyone
    nothing = ["2c 5d 9h", "7c 7h 7s", "3c 8d Js", "4h 9s Kd"]
    parlett = TradeDeal(PRESETS["parlett"], 4, 0, make_deck(nothing, step=-1))
    parlett.knock(3)
    assert parlett.delta == [-2, 4, -1, -1]  # nothing held: pays the winner only


def test_parlett_trades_are_shown_and_leave_play():
    deal = TradeDeal(PRESETS["parlett"], 3, 0, make_deck(["2c 5d 9h", "3c 7d Js", "4h 8s Kd"], step=-1))
    deal.trade(2, C("4h"))
    assert deal.observation().shown_waste == (C("4h"),)
    assert deal.observation().last_event is not None
    assert deal.observation().last_event.shown == C("4h")
    assert C("4h") not in deal.stock


# ------------------------------------------------------------ foster-more
def test_foster_more_adds_flush_and_pair():
    rules = PRESETS["foster-more"]
    deal = TradeDeal(rules, 4, 0, make_deck(["2c 5d 9h", "2s 9s Js", "Kc Kd 2h", "Ah Kh 4d"]))
    deal.knock(1)
    sd = deal.showdown
    assert sd is not None
    assert sd.categories == (Category.NONE, Category.FLUSH, Category.PAIR, Category.POINT)
    assert sd.winner == 1  # flush > pair > point


# ------------------------------------------------------------- every preset
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_preset_plays_a_whole_game_and_replays(preset):
    rules = get_preset(preset, {"chips": 3} if preset == "jaques" else {})
    rng = random.Random(preset)
    game = Game(rules, 5, 2)
    while not game.complete:
        deal = game.start_deal(shuffled_deck(rng), rng=rng)
        knock_or_stop(deal)
        assert game.conserved_total() == 0
        assert len(game.deals) < 100
    assert game.winners
    record = json.loads(json.dumps(game.to_record(["a", "b", "c", "d", "e"])))
    assert replay(record).summary() == game.summary()
