"""``Game.rewound(count)``: the latest deal as it was after its first ``count``
operations, for showing a move at a time (docs/AI.md "At a table").

Random games of every preset (a few deals each, the AI and random moves
mixed) are snapshot after every operation; the rewound copy at each count
equals the snapshot taken then, every observation included, and the game
itself is left as it was. Whole games of the presets with the options that
random test does not set (oldway with pounce and the horse over several deals,
jaques with direct/open trading, three stakes and a live reshuffle,
anticlockwise play) rewind exactly at every count too.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine.cards import shuffled_deck
from bot.engine.game import Game, GameError
from bot.engine.rules import PRESETS, get_preset
from tests.profiles import examples

from .families import ai_move, random_move, reshuffled_game, snapshot

PRESET_NAMES = sorted(PRESETS)


def comparable(snap: dict) -> dict:
    """A snapshot without the deal's random source (a replay never needs one)."""
    return {"state": {k: v for k, v in snap["state"].items() if k != "rng"},
            "observations": snap["observations"]}


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(preset=st.sampled_from(PRESET_NAMES), seed=st.integers(0, 2**32 - 1),
       deals=st.integers(1, 3))
def test_every_count_of_every_deal_rewinds_to_what_was_seen(preset, seed, deals):
    rng = random.Random(seed)
    rules = get_preset(preset)
    n = rng.randint(rules.min_players, min(rules.max_players, 6))
    game = Game(rules, n, rng.randrange(n), table=5)
    while not game.complete and len(game.deals) < deals:
        deal = game.start_deal(shuffled_deck(rng), rng=rng)
        seen = [comparable(snapshot(deal))]
        while not deal.finished and len(deal.operations) < 40:
            seat, decision = (ai_move(deal) if rng.random() < 0.6 or len(deal.operations) > 30
                              else random_move(deal, rng))
            deal.act(seat, decision)
            seen.append(comparable(snapshot(deal)))
        before = comparable(snapshot(deal))
        balances = game.running_balances
        for count, expected in enumerate(seen):
            copy = game.rewound(count)
            assert comparable(snapshot(copy.deals[-1])) == expected
            assert copy.deals[:-1] == game.deals[:-1]
            assert copy.proofs == [None] * len(copy.deals)
        assert comparable(snapshot(deal)) == before  # the game itself is untouched
        assert game.running_balances == balances
        assert game.rewound(len(deal.operations)).running_balances == balances
        if not deal.finished:
            break


def test_a_count_outside_the_deal_is_refused_and_a_game_without_deals_has_nothing():
    game = Game(get_preset("foster"), 3, 0)
    with pytest.raises(GameError):
        game.rewound(0)
    game.start_deal(shuffled_deck(random.Random(1)))
    for count in (-1, 1):
        with pytest.raises(ValueError):
            game.rewound(count)
    assert game.rewound(0).deals[-1].observation(None) == game.deals[-1].observation(None)


CASES = [
    ("oldway", {"pounce": True}, 3),
    ("oldway", {"pounce": True, "direction": "anticlockwise"}, 5),
    ("widow", {"direction": "anticlockwise"}, 4),
    ("jaques", {"direct_trading": True}, 3),
    ("jaques", {"open_trading": True, "dead_knock": True}, 4),
    ("jaques", {"three_stake": True}, 5),
    ("hoyle", {"deals": 3}, 3),
]


@pytest.mark.parametrize("preset,options,n", CASES)
@pytest.mark.parametrize("seed", range(3))
def test_every_count_of_every_deal_of_a_whole_game_rewinds_exactly(preset, options, n, seed):
    rng = random.Random(seed)
    rules = get_preset(preset).with_options(options)
    game = Game(rules, n, rng.randrange(n), table=9)
    deals = 0
    while not game.complete and deals < 12:
        deal = game.start_deal(shuffled_deck(rng), rng=random.Random(seed * 100 + deals))
        deals += 1
        seen = [comparable(snapshot(deal))]
        while not deal.finished and len(deal.operations) < 200:
            seat, decision = (ai_move(deal) if rng.random() < 0.7 or len(deal.operations) > 120
                              else random_move(deal, rng))
            deal.act(seat, decision)
            seen.append(comparable(snapshot(deal)))
        for count, expected in enumerate(seen):
            assert comparable(snapshot(game.rewound(count).deals[-1])) == expected, (
                preset, options, deals, count)
        if not deal.finished:
            break


def test_a_live_reshuffle_rewinds_to_the_recorded_stock():
    game, _ = reshuffled_game()
    deal = game.deals[-1]
    assert deal.reshuffles == 1
    last = game.rewound(len(deal.operations)).deals[-1]
    assert comparable(snapshot(last)) == comparable(snapshot(deal))
