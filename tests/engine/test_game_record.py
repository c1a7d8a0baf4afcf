"""A whole game (docs/RULES.md §1 "Game length") and game records (docs/RULES.md §3)."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from bot.engine.cards import card_code, parse_card, shuffled_deck
from bot.engine.family import IllegalAction
from bot.engine.game import Game, GameError, RecordError, record_actions, replay
from bot.engine.operations import BarterAnswer, BarterOffer, Knock, Trade
from bot.engine.rules import PRESETS, get_preset

from .support import NOTHING, WORKED, cards, codes, make_deck, play_game, worked_record

FOSTER = PRESETS["foster"]
HOYLE = PRESETS["hoyle"]
C = parse_card


def knock_at_once(game: Game, hands: list[str]) -> None:
    """Play the next deal with ``hands`` dealt; the eldest hand knocks at once."""
    dealer = game.next_dealer
    deal = game.start_deal(make_deck(hands, dealer=dealer, step=game.rules.step))
    assert deal.to_act is not None
    deal.knock(deal.to_act)


# --------------------------------------------------------------------- game
@pytest.mark.parametrize(
    ("preset", "options", "first", "dealers"),
    [
        ("foster", {}, 1, [1, 2, 3, 0]),
        ("foster", {"direction": "anticlockwise"}, 1, [1, 0, 3, 2]),
        ("parlett", {}, 0, [0, 3, 2, 1]),
        ("hoyle", {"deals_per_player": 2}, 3, [3, 0, 1, 2, 3, 0, 1, 2]),
    ],
)
def test_the_deal_passes_one_seat_per_deal(preset, options, first, dealers):
    game = Game(get_preset(preset, options), 4, first)
    assert game.deals_total == len(dealers)
    seen = []
    rng = random.Random(7)
    while not game.complete:
        assert game.winners is None
        deal = game.start_deal(shuffled_deck(rng))
        seen.append(deal.dealer)
        assert deal.final == (len(seen) == len(dealers))
        assert deal.to_act is not None
        deal.knock(deal.to_act)
    assert seen == dealers
    assert game.deals_played == len(dealers)
    with pytest.raises(GameError, match="Every deal"):
        game.start_deal()


def test_ledger_and_single_winner():
    game = Game(FOSTER, 3, 0)
    knock_at_once(game, WORKED)  # seat 1 knocks at once; the dealer's sequence wins
    assert game.deals[0].delta == [2, -1, -1]
    knock_at_once(game, NOTHING)  # dealer 1 wins a deal where nobody holds anything
    assert game.deals[1].delta == [-1, 2, -1]
    assert game.ledger == [1, 1, -2]
    assert game.winners is None and not game.complete
    knock_at_once(game, ["6s 7s 8s", "Kc Qc 2d", "Ah Kh 4d"])  # dealer 2 point 21 vs seq
    assert game.deals[2].dealer == 2
    assert game.deals[2].delta == [3, -1, -2]
    assert game.ledger == [4, 0, -4]
    assert game.complete
    assert game.winners == [0]


def test_tied_leaders_share_the_victory():
    game = Game(FOSTER, 3, 0)
    for _ in range(3):
        knock_at_once(game, NOTHING)  # the dealer takes the pool each time
    assert game.ledger == [0, 0, 0]
    assert game.winners == [0, 1, 2]

    game = Game(FOSTER, 4, 0)
    nothing4 = [*NOTHING, "5c 6h Ts"]
    knock_at_once(game, nothing4)  # dealer 0 wins: [3, -1, -1, -1]
    knock_at_once(game, nothing4)  # dealer 1 wins: [-1, 3, -1, -1]
    # dealer 2 (point 20) loses to seat 3 (point 21): same category, pays all
    knock_at_once(game, ["2c 5d 9h", "3c 7d Js", "Kc Qc 2d", "Ah Kh 4d"])
    assert game.deals[2].delta == [0, 0, -4, 4]
    # dealer 3 (point 20) loses to seat 2 (point 21): same category, pays all
    knock_at_once(game, ["2c 5d 9h", "3c 7d Js", "Ah Kh 4d", "Kc Qc 2d"])
    assert game.ledger == [2, 2, -2, -2]
    assert game.winners == [0, 1]


def test_running_balances_include_the_open_deal():
    game = Game(FOSTER, 3, 0)
    deal = game.start_deal(make_deck(WORKED, stock="8s"))
    deal.trade(1, C("Kd"))
    assert game.ledger == [0, 0, 0]
    assert game.running_balances == [0, -2, -1]
    assert game.current is deal
    game.apply(Knock(2))
    assert game.current is None
    assert game.ledger == [-2, 2, 0]


def test_start_deal_errors():
    game = Game(FOSTER, 3, 0)
    game.start_deal(shuffled_deck(random.Random(1)))
    with pytest.raises(GameError, match="already in progress"):
        game.start_deal()
    voided = game.close()
    assert voided is not None and voided.voided
    assert game.ledger == [0, 0, 0]
    with pytest.raises(GameError, match="closed"):
        game.start_deal()
    with pytest.raises(IllegalAction, match="No deal"):
        game.apply(Knock(0))
    assert not game.complete and game.winners is None


@pytest.mark.parametrize(("n", "first"), [(2, 0), (13, 0), (3, 3), (3, -1)])
def test_game_rejects_bad_tables(n, first):
    with pytest.raises(ValueError):
        Game(FOSTER, n, first)


def test_start_deal_rejects_a_bad_deck():
    game = Game(FOSTER, 3, 0)
    with pytest.raises(ValueError, match="52"):
        game.start_deal([0] * 52)
    assert game.deals == []


def test_hoyle_game_carries_the_pool_between_deals():
    game = Game(HOYLE, 3, 0)
    knock_at_once(game, NOTHING)
    first = game.deals[0]
    assert first.showdown is not None and first.showdown.winner is None
    assert game.carry == 3
    assert game.ledger == [-1, -1, -1]
    knock_at_once(game, WORKED)  # dealer 1; seat 0's sequence to 5 is best
    second = game.deals[1]
    assert second.carried_pool == 3
    assert second.showdown is not None and second.showdown.pool_won == 6
    assert game.carry == 0
    knock_at_once(game, NOTHING)  # final deal: nobody holds anything, dealer 2 wins
    third = game.deals[2]
    assert third.final and third.showdown is not None and third.showdown.winner == 2
    assert sum(game.ledger) == 0
    summary = game.summary()
    assert summary["deals"][0]["winner"] is None
    assert summary["deals"][0]["ledger_delta"] == [-1, -1, -1]


def test_options_direction_and_deals():
    rules = get_preset("foster", {"direction": "anticlockwise", "deals_per_player": 3})
    assert rules.step == -1 and rules.deals_per_player == 3
    assert get_preset("hoyle").no_hand == "carry"
    for bad in ({"direction": "up"}, {"deals_per_player": 0}, {"deals_per_player": True}, {"x": 1}):
        with pytest.raises(ValueError):
            get_preset("foster", bad)
    with pytest.raises(ValueError, match="unknown rules preset"):
        get_preset("whist")


# ------------------------------------------------------------------ records
def test_record_actions_merges_barter_offer_and_answer():
    ops = [
        Trade(1, C("Kd")),
        BarterOffer(2, C("4d")),
        BarterAnswer(0, C("7c")),
        BarterOffer(0, C("9h"), knock=True),
        BarterAnswer(1, None),
        Knock(1),
        BarterOffer(1, C("2c")),
    ]
    assert record_actions(ops) == [
        {"seat": 1, "action": "trade", "card": "Kd"},
        {"seat": 2, "action": "barter", "card": "4d", "response": "7c"},
        {"seat": 0, "action": "barter", "card": "9h", "knock": True, "response": "knock"},
        {"seat": 1, "action": "knock"},
        {"seat": 1, "action": "barter", "card": "2c"},  # pending: no response yet
    ]
    assert record_actions([Trade(2, C("Ts"), knock=True)]) == [
        {"seat": 2, "action": "trade", "card": "Ts", "knock": True}
    ]


def test_to_record_has_the_rules_md_shape():
    game = Game(FOSTER, 3, 0)
    deal = game.start_deal(make_deck(WORKED, stock="8s"))
    deal.trade(1, C("Kd"))
    deal.barter(2, C("4d"))
    deal.answer(0, C("3c"))
    deal.knock(0)
    record = game.to_record(["Ann", "Ben", "Cat"])
    assert record == {
        "rules": "foster",
        "options": {},
        "players": ["Ann", "Ben", "Cat"],
        "first_dealer": 0,
        "deals": [
            {
                "deck": codes(make_deck(WORKED, stock="8s")),
                "actions": [
                    {"seat": 1, "action": "trade", "card": "Kd"},
                    {"seat": 2, "action": "barter", "card": "4d", "response": "3c"},
                    {"seat": 0, "action": "knock"},
                ],
            }
        ],
    }
    assert json.loads(json.dumps(record)) == record
    assert replay(record).summary() == game.summary()


def test_worked_check_replays_to_the_rules_md_outcome():
    game = replay(worked_record())
    assert game.summary() == {
        "deals": [
            {
                "dealer": 0,
                "hands": [["3c", "4c", "5c"], ["6s", "7s", "8s"], ["Ah", "Kh", "4d"]],
                "categories": ["sequence", "sequence", "point"],
                "winner": 1,
                "ended_by": "knock",
                "knocker": 2,
                "ledger_delta": [-2, 2, 0],
            }
        ],
        "ledger": [-2, 2, 0],
        "complete": False,
        "winners": None,
    }


@pytest.mark.parametrize("preset", ["foster", "hoyle", "parlett", "foster-more"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_record_replays_to_an_identical_game(preset, seed):
    rng = random.Random(seed)
    n = rng.randint(3, 8)
    options = {"direction": rng.choice(["clockwise", "anticlockwise"])}
    rules = get_preset(preset, options)
    game = play_game(rules, n, rng.randrange(n), rng)
    record = game.to_record([f"p{i}" for i in range(n)], options)
    again = replay(json.loads(json.dumps(record)))
    assert again.summary() == game.summary()
    assert again.summary()["complete"] is True
    assert [d.operations for d in again.deals] == [d.operations for d in game.deals]
    assert again.to_record([f"p{i}" for i in range(n)], options) == record


def test_unfinished_last_deal_replays_in_progress():
    record = worked_record()
    record["deals"][0]["actions"] = [
        {"seat": 1, "action": "trade", "card": "Kd"},
        {"seat": 2, "action": "barter", "card": "4d"},
    ]
    game = replay(record)
    deal = game.current
    assert deal is not None and deal.pending is not None and deal.to_act == 0
    summary = game.summary()
    assert summary["deals"][0]["categories"] is None
    assert summary["deals"][0]["winner"] is None
    assert summary["deals"][0]["ended_by"] is None
    assert summary["deals"][0]["ledger_delta"] == [0, -2, -1]
    assert summary["ledger"] == [0, 0, 0]
    assert summary["complete"] is False and summary["winners"] is None


# ----------------------------------------------------------- record errors
def _with_actions(*actions: Any) -> dict[str, Any]:
    record = worked_record()
    record["deals"][0]["actions"] = list(actions)
    return record


def _second_deal(first_actions: list[Any]) -> dict[str, Any]:
    record = worked_record()
    record["deals"][0]["actions"] = first_actions
    record["deals"].append({"deck": codes(list(range(52))), "actions": []})
    return record


TRADE_KD = {"seat": 1, "action": "trade", "card": "Kd"}
BAD_RECORDS: list[tuple[str, Any, int | None, int | None, str]] = [
    ("not an object", [], None, None, "JSON object"),
    ("string record", "foster", None, None, "JSON object"),
    ("unknown preset", {**worked_record(), "rules": "whist"}, None, None, "unknown rules"),
    ("bad option", {**worked_record(), "options": {"direction": "up"}}, None, None, "direction"),
    ("options not object", {**worked_record(), "options": [1]}, None, None, "options"),
    ("players not list", {**worked_record(), "players": "abc"}, None, None, "players"),
    ("two players", {**worked_record(), "players": ["a", "b"]}, None, None, "3 to 12"),
    ("first dealer missing", {**worked_record(), "first_dealer": None}, None, None, "first_dealer"),
    ("first dealer off table", {**worked_record(), "first_dealer": 3}, None, None, "first dealer"),
    ("deals not list", {**worked_record(), "deals": {}}, None, None, "deals"),
    ("deal not object", {**worked_record(), "deals": [5]}, 0, None, "deal must be an object"),
    ("deck not list", {**worked_record(), "deals": [{"deck": "x"}]}, 0, None, "deck"),
    ("deck bad code", {**worked_record(), "deals": [{"deck": ["Zz"] * 52}]}, 0, None, "'Zz'"),
    ("deck short", {**worked_record(), "deals": [{"deck": ["2c"] * 52}]}, 0, None, "52"),
    (
        "actions not list",
        {**worked_record(), "deals": [{"deck": codes(list(range(52))), "actions": {}}]},
        0,
        None,
        "actions",
    ),
    ("action not object", _with_actions(TRADE_KD, "knock"), 0, 1, "action must be an object"),
    (
        "bad card code",
        _with_actions(TRADE_KD, {"seat": 2, "action": "trade", "card": "1h"}),
        0,
        1,
        "not a card code: '1h'",
    ),
    (
        "bad response code",
        _with_actions({"seat": 1, "action": "barter", "card": "Kd", "response": "XX"}),
        0,
        0,
        "response",
    ),
    (
        "card not held",
        _with_actions(TRADE_KD, {"seat": 2, "action": "trade", "card": "Kd"}),
        0,
        1,
        "You do not hold that card.",
    ),
    ("wrong seat", _with_actions({"seat": 2, "action": "knock"}), 0, 0, "It is not your turn."),
    ("seat off table", _with_actions({"seat": 3, "action": "knock"}), 0, 0, "not a seat"),
    ("seat as string", _with_actions({"seat": "1", "action": "knock"}), 0, 0, "not a seat"),
    ("seat as bool", _with_actions({"seat": True, "action": "knock"}), 0, 0, "not a seat"),
    ("unknown action", _with_actions({"seat": 1, "action": "pass"}), 0, 0, "unknown action"),
    ("knock flag in foster", _with_actions({**TRADE_KD, "knock": True}), 0, 0, "same turn"),
    ("knock flag not bool", _with_actions({**TRADE_KD, "knock": "yes"}), 0, 0, "true or false"),
    (
        "action after the end",
        _with_actions(TRADE_KD, {"seat": 2, "action": "knock"}, {"seat": 0, "action": "knock"}),
        0,
        2,
        "already over",
    ),
    (
        "unanswered barter then a turn",
        _with_actions({"seat": 1, "action": "barter", "card": "Kd"}, {"seat": 2, "action": "knock"}),
        0,
        1,
        "Answer the barter",
    ),
    ("unfinished deal followed by another", _second_deal([TRADE_KD]), 1, None, "unfinished"),
]


@pytest.mark.parametrize(
    ("record", "deal", "action", "reason"),
    [case[1:] for case in BAD_RECORDS],
    ids=[case[0] for case in BAD_RECORDS],
)
def test_invalid_records_name_the_deal_and_action(record, deal, action, reason):
    with pytest.raises(RecordError) as caught:
        replay(copy.deepcopy(record))
    error = caught.value
    assert (error.deal, error.action) == (deal, action)
    assert reason in error.reason
    assert error.to_dict() == {"error": {"deal": deal, "action": action, "reason": error.reason}}


def test_error_indexes_count_from_zero_in_later_deals():
    record = _second_deal([TRADE_KD, {"seat": 2, "action": "knock"}])
    # deal 1 is dealt by seat 1 from the unshuffled deck: seat 2 acts first
    record["deals"][1]["actions"] = [
        {"seat": 2, "action": "trade", "card": card_code(0)},
        {"seat": 0, "action": "trade", "card": card_code(0)},
    ]
    with pytest.raises(RecordError) as caught:
        replay(record)
    assert (caught.value.deal, caught.value.action) == (1, 1)
    assert caught.value.reason == "You do not hold that card."


def test_too_many_deals_is_an_error():
    rng = random.Random(3)
    game = play_game(FOSTER, 3, 0, rng)
    record = game.to_record(["a", "b", "c"])
    record["deals"].append({"deck": codes(list(range(52))), "actions": []})
    with pytest.raises(RecordError) as caught:
        replay(record)
    assert (caught.value.deal, caught.value.action) == (3, None)


def test_hoyle_record_refusal_is_illegal():
    record = _with_actions({"seat": 1, "action": "barter", "card": "Kd", "response": "knock"})
    record["rules"] = "hoyle"
    with pytest.raises(RecordError) as caught:
        replay(record)
    assert (caught.value.deal, caught.value.action) == (0, 0)
    assert "must be accepted" in caught.value.reason
    record["deals"][0]["actions"] = [
        {"seat": 1, "action": "barter", "card": "Kd", "response": "4d", "knock": True}
    ]
    game = replay(record)
    summary = game.summary()["deals"][0]
    assert summary["knocker"] == 1 and summary["ended_by"] == "knock"
    assert sorted(summary["hands"][1]) == sorted(["6s", "7s", "4d"])
    assert summary["hands"][2] == ["Ah", "Kh", "Kd"]
    assert cards("Ah Kh Kd") == list(game.deals[0].hands[2])


def test_record_keeps_table_options():
    import json as _json
    import random as _random

    from bot.engine import Game, get_preset, replay, shuffled_deck

    rules = get_preset("parlett", {"direction": "clockwise", "deals_per_player": 2})
    game = Game(rules, 3, 1)
    deal = game.start_deal(shuffled_deck(_random.Random(3)))
    deal.knock(deal.to_act)
    record = game.to_record(["a", "b", "c"])
    assert record["options"] == {"direction": "clockwise", "deals_per_player": 2}
    again = replay(_json.loads(_json.dumps(record)))
    assert again.rules == rules and again.deals_total == 6
    assert again.summary() == game.summary()
