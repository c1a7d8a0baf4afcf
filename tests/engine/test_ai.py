"""The rule-based AI: legal choices from its own observation, games that end."""

from __future__ import annotations

import random

import pytest

from bot.engine import easy
from bot.engine.cards import parse_card, shuffled_deck
from bot.engine.rules import PRESETS, get_preset
from bot.engine.trade import TradeDeal

from .support import TRADE_PRESETS, ai_action, can, cards, legal_actions, make_deck, perform, play_game

C = parse_card
FOSTER = PRESETS["foster"]
HOYLE = PRESETS["hoyle"]


@pytest.mark.parametrize("preset", TRADE_PRESETS)
@pytest.mark.parametrize("direction", ["clockwise", "anticlockwise"])
def test_ai_only_chooses_legal_actions(preset, direction):
    rules = get_preset(preset, {"direction": direction})
    rng = random.Random(f"{preset}-{direction}")
    decisions = 0
    kinds: set[str] = set()
    for _ in range(40):
        n = rng.randint(3, 12)
        deal = TradeDeal(rules, n, rng.randrange(n), shuffled_deck(rng))
        while not deal.finished:
            seat = deal.to_act
            assert seat is not None
            obs = deal.observation(seat)
            decision = easy.choose(obs)
            kinds.add(decision.kind)
            action = ai_action(deal)
            assert can(deal, action), (decision, obs)
            assert action in legal_actions(deal)
            if decision.card is not None:
                assert decision.card in obs.hand  # it gives only its own cards
            perform(deal, action)
            decisions += 1
            assert decisions < 100_000
    assert {"trade", "knock"} <= kinds


def test_ai_decides_from_the_observation_alone():
    # Two deals where seat 1 sees the same thing but the other hands differ:
    # the AI must choose the same.
    deck_a = make_deck(["3c 4c 5c", "6s 7s Kd", "Ah Kh 4d"], stock="8s")
    deck_b = make_deck(["Ac Ad 2h", "6s 7s Kd", "Qh Jh 9c"], stock="8s")
    deal_a = TradeDeal(FOSTER, 3, 0, deck_a)
    deal_b = TradeDeal(FOSTER, 3, 0, deck_b)
    obs_a, obs_b = deal_a.observation(1), deal_b.observation(1)
    assert obs_a == obs_b
    assert easy.choose(obs_a) == easy.choose(obs_b)


def test_ai_refuses_to_decide_for_others():
    deal = TradeDeal(FOSTER, 3, 0, list(range(52)))
    with pytest.raises(ValueError):
        easy.choose(deal.observation())  # the public view
    with pytest.raises(ValueError):
        easy.choose(deal.observation(2))  # not seat 2's turn
    deal.knock(1)
    with pytest.raises(ValueError):
        easy.choose(deal.observation(1))  # the deal is over


def test_ai_knocks_on_a_tricon_and_keeps_promising_cards():
    deal = TradeDeal(FOSTER, 3, 0, make_deck(["2c 5d 9h", "7c 7d 7s", "Ah Kh 4d"]))
    assert easy.choose(deal.observation(1)) == easy.Decision("knock")
    assert easy.worst_card(tuple(cards("6s 7s Kd"))) == C("Kd")
    assert easy.worst_card(tuple(cards("Ah Kh 4d"))) == C("4d")
    assert easy.worst_card(tuple(cards("9c 9d 2h"))) == C("2h")


def test_ai_refuses_a_barter_when_strong_unless_the_rules_forbid_it():
    deal = TradeDeal(FOSTER, 3, 0, make_deck(["2c 5d 9h", "3h 8d Js", "7c 7d 7s"]))
    deal.barter(1, C("3h"))
    assert easy.choose(deal.observation(2)) == easy.Decision("refuse")
    deal = TradeDeal(HOYLE, 3, 0, make_deck(["2c 5d 9h", "3h 8d Js", "7c 7d 7s"]))
    deal.barter(1, C("3h"))
    decision = easy.choose(deal.observation(2))
    assert decision.kind == "accept" and decision.card in cards("7c 7d 7s")


def test_ai_dealer_trades_rather_than_barters():
    deal = TradeDeal(FOSTER, 3, 0, make_deck(["2c 5d 9h", "3c 7d Js", "4h 8s Kd"]))
    # a non-dealer holding nothing worth keeping barters with its neighbour
    assert easy.choose(deal.observation(1)).kind == "barter"
    deal.trade(1, C("3c"))
    deal.trade(2, C("4h"))
    decision = easy.choose(deal.observation(0))
    assert decision.kind == "trade"


@pytest.mark.parametrize("preset", TRADE_PRESETS)
def test_ai_games_always_end(preset):
    rng = random.Random(preset)
    for game_number in range(25):
        n = 3 + game_number % 10
        rules = get_preset(preset, {"direction": rng.choice(["clockwise", "anticlockwise"])})
        game = play_game(rules, n, rng.randrange(n), rng, max_moves=2000)
        assert game.complete and game.winners
        assert sum(game.ledger) + game.carry == 0
