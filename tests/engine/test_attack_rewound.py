"""Attack trial of ``Game.rewound`` (bot/engine/game.py): every intermediate
state of every deal, in presets with the options the hypothesis test of
tests/engine/test_rewound.py does not set (oldway with pounce and the horse
over several deals, jaques with direct/open trading, three stakes and a live
reshuffle, anticlockwise play), is rebuilt exactly, every observation included.
"""

from __future__ import annotations

import random

import pytest

from bot.engine.cards import shuffled_deck
from bot.engine.game import Game
from bot.engine.rules import get_preset

from .families import ai_move, random_move, reshuffled_game, snapshot


def comparable(snap: dict) -> dict:
    return {"state": {k: v for k, v in snap["state"].items() if k != "rng"},
            "observations": snap["observations"]}


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
