"""A replay is a pure function of its record (docs/RECORDS.md "Rulings").

A record that lacks something the replay needs — a reshuffle order, a deck, the
actions of a deal, a card, a target, the options, the first dealer, the
players... — is an error (``RecordError``; the CLI prints the error object and
exits 2), never a gap filled with fresh randomness or a default. The same
record always gives the same output. Live play still reshuffles with the OS
CSPRNG.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from bot.engine import discard as discard_module
from bot.engine.cards import parse_card, shuffled_deck
from bot.engine.discard import DiscardDeal
from bot.engine.family import Decision, IllegalAction
from bot.engine.game import AnyDeal, Game, RecordError, replay
from bot.engine.operations import Draw
from bot.engine.rules import PRESETS, get_preset
from bot.engine.widow import WidowDeal
from tests.profiles import examples

from .families import Move, layout_deck, play, random_move, reshuffled_game, snapshot
from .support import worked_record

C = parse_card
NOTHING = ["2c 5d 9h", "3c 7d Js", "4h 8s Kd"]


class RandomnessUsed(AssertionError):
    """A replay asked for a random source."""


@contextmanager
def no_randomness() -> Iterator[None]:
    """Any use of the OS random source fails inside this block (a replay must
    never need one)."""

    def refuse(*args: object, **kwargs: object) -> None:
        raise RandomnessUsed("a replay used a random source")

    saved = discard_module.secrets.SystemRandom
    discard_module.secrets.SystemRandom = refuse  # type: ignore[assignment,misc]
    try:
        yield
    finally:
        discard_module.secrets.SystemRandom = saved  # type: ignore[misc]


def outcome(record: Any) -> str:
    """What ``python -m bot.engine replay`` prints for ``record``: the summary or
    the error object, as JSON. Any other exception propagates (a test failure)."""
    with no_randomness():
        try:
            game = replay(copy.deepcopy(record))
        except RecordError as exc:
            return json.dumps(exc.to_dict())
    return json.dumps(game.summary())


def error_of(record: Any) -> dict[str, Any]:
    """The error object of a record that must not replay; checks that a second
    replay gives the very same output."""
    first = outcome(record)
    assert outcome(record) == first
    out = json.loads(first)
    assert set(out) == {"error"}, out
    assert set(out["error"]) == {"deal", "action", "reason"}
    return dict(out["error"])


# ----------------------------------------------------------- reshuffles
def test_a_draw_from_an_empty_stock_without_its_reshuffle_is_an_error():
    game, index = reshuffled_game()
    record = game.to_record(["a", "b", "c"])
    action = record["deals"][0]["actions"][index]
    assert action["action"] == "draw" and len(action["reshuffle"]) == 42
    assert json.loads(outcome(record)) == json.loads(json.dumps(game.summary()))
    del action["reshuffle"]
    error = error_of(record)
    assert (error["deal"], error["action"]) == (0, index)
    assert "reshuffle" in error["reason"]
    # a partial order is no better: it must be the discard pile but its top
    record = game.to_record(["a", "b", "c"])
    del record["deals"][0]["actions"][index]["reshuffle"][41:]
    error = error_of(record)
    assert (error["deal"], error["action"]) == (0, index)
    assert "discard pile" in error["reason"]


def test_a_recorded_draw_without_its_reshuffle_changes_nothing():
    game, _ = reshuffled_game()
    deal = game.deals[0]
    assert isinstance(deal, DiscardDeal)
    # rebuild the deal up to the emptied stock
    again = Game(get_preset("jaques"), 3, 0)
    copy_deal = again.start_deal(deal.deck)
    assert isinstance(copy_deal, DiscardDeal)
    for op in deal.operations:
        if isinstance(op, Draw) and op.reshuffle is not None:
            break
        copy_deal.apply(op)
    assert not copy_deal.stock
    seat = copy_deal.to_act
    assert seat is not None
    before = snapshot(copy_deal)
    with no_randomness(), pytest.raises(IllegalAction, match="reshuffle"):
        copy_deal.apply(Draw(seat))
    assert not copy_deal.can_recorded_draw(seat, None)
    assert copy_deal.can_draw(seat)  # a live draw is still allowed
    assert snapshot(copy_deal) == before


def test_live_reshuffles_draw_from_the_os_csprng(monkeypatch):
    calls: list[list[int]] = []

    class RecordingSystemRandom(random.Random):
        def shuffle(self, x, *args, **kwargs):  # test double
            calls.append(list(x))
            x.reverse()

    monkeypatch.setattr(discard_module.secrets, "SystemRandom", RecordingSystemRandom)
    rules = get_preset("jaques")
    deal = DiscardDeal(rules, 3, 0, layout_deck(NOTHING, after="Qs"))  # no seeded rng
    while deal.stock:
        seat = deal.to_act
        assert seat is not None
        deal.draw(seat)
        deal.draw_discard(seat)
    pile = list(deal.discard[:-1])
    seat = deal.to_act
    assert seat is not None
    op = deal.draw(seat)
    assert calls == [pile]
    assert op.reshuffle == tuple(reversed(pile))  # the order is written into the draw
    assert deal.drawn == pile[-1]


# ------------------------------------------------- every missing field
def _jaques_offer_record() -> dict[str, Any]:
    game = Game(get_preset("jaques", {"direct_trading": True}), 3, 0)
    deal = game.start_deal(layout_deck(NOTHING, after="Qs"))
    assert isinstance(deal, DiscardDeal)
    deal.offer(1, 2, C("Js"))
    deal.answer(2, C("Kd"))
    return game.to_record(["a", "b", "c"])


def _widow_swap_record() -> dict[str, Any]:
    game = Game(get_preset("widow"), 3, 0)
    deal = game.start_deal(shuffled_deck(random.Random(5)))
    assert isinstance(deal, WidowDeal)
    deal.keep_hand(0)
    deal.swap(1, (deal.hands[1][0],), (deal.widow[0],))
    return game.to_record(["a", "b", "c"])


def _without(path: tuple[str | int, ...]) -> Callable[[dict[str, Any]], None]:
    def change(record: dict[str, Any]) -> None:
        node: Any = record
        for key in path[:-1]:
            node = node[key]
        del node[path[-1]]
    return change


def _set(path: tuple[str | int, ...], value: Any) -> Callable[[dict[str, Any]], None]:
    def change(record: dict[str, Any]) -> None:
        node: Any = record
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value
    return change


FOSTER = worked_record
MISSING: list[tuple[str, Callable[[], dict[str, Any]], Callable[[dict[str, Any]], None],
                    int | None, int | None, str]] = [
    ("rules", FOSTER, _without(("rules",)), None, None, "rules"),
    ("rules not a name", FOSTER, _set(("rules",), None), None, None, "rules"),
    ("options", FOSTER, _without(("options",)), None, None, "options"),
    ("options null", FOSTER, _set(("options",), None), None, None, "options"),
    ("players", FOSTER, _without(("players",)), None, None, "players"),
    ("a player name", FOSTER, _set(("players", 1), None), None, None, "players"),
    ("first_dealer", FOSTER, _without(("first_dealer",)), None, None, "first_dealer"),
    ("deals", FOSTER, _without(("deals",)), None, None, "deals"),
    ("deck", FOSTER, _without(("deals", 0, "deck")), 0, None, "deck"),
    ("actions", FOSTER, _without(("deals", 0, "actions")), 0, None, "actions"),
    ("actions null", FOSTER, _set(("deals", 0, "actions"), None), 0, None, "actions"),
    ("action name", FOSTER, _without(("deals", 0, "actions", 0, "action")), 0, 0, "action"),
    ("action name a list", _widow_swap_record, _set(("deals", 0, "actions", 1, "action"), ["x"]),
     0, 1, "action"),
    ("seat", FOSTER, _without(("deals", 0, "actions", 0, "seat")), 0, 0, "seat"),
    ("card", FOSTER, _without(("deals", 0, "actions", 0, "card")), 0, 0, "card"),
    ("target", _jaques_offer_record, _without(("deals", 0, "actions", 0, "target")), 0, 0,
     "target"),
    ("give", _widow_swap_record, _without(("deals", 0, "actions", 1, "give")), 0, 1, "give"),
    ("take", _widow_swap_record, _without(("deals", 0, "actions", 1, "take")), 0, 1, "take"),
]


@pytest.mark.parametrize(
    ("build", "change", "deal", "action", "reason"),
    [case[1:] for case in MISSING],
    ids=[case[0] for case in MISSING],
)
def test_a_record_missing_what_the_replay_needs_is_an_error(build, change, deal, action, reason):
    record = build()
    assert "error" not in json.loads(outcome(record))  # the intact record replays
    change(record)
    error = error_of(record)
    assert (error["deal"], error["action"]) == (deal, action)
    assert reason in error["reason"]


# -------------------------------------------- damaged records, at random
#: a few tables of every preset (options as a record carries them)
TABLES: dict[str, list[dict[str, Any]]] = {
    "foster": [{}, {"direction": "anticlockwise", "deals": 2}],
    "hoyle": [{"deals": 2}],
    "parlett": [{"direction": "clockwise"}],
    "foster-more": [{}],
    "widow": [{"deals": 2}],
    "oldway": [{"pounce": True}, {}],
    "jaques": [{"chips": 3}, {"chips": 4, "three_stake": True},
               {"fixed_rounds": 2, "open_trading": True}, {"dead_knock": True}],
}

#: the keys a record or an action object may hold
FIELDS = {"rules", "options", "players", "first_dealer", "deals", "deck", "actions", "seat",
          "action", "card", "response", "knock", "give", "take", "target", "discard",
          "reshuffle"}

DAMAGE_SETTINGS = settings(
    max_examples=examples(25),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def patient_move(deal: AnyDeal, rng: random.Random) -> Move:
    """Mostly draw and throw the drawn card away (so jaques stocks run out and
    get reshuffled); otherwise a random legal move."""
    if isinstance(deal, DiscardDeal) and len(deal.operations) < 300 and rng.random() < 0.97:
        seat = deal.to_act
        for kind in ("draw", "draw_discard"):
            if seat is not None and kind in deal.legal_actions(seat):
                return seat, Decision(kind)
    return random_move(deal, rng)


def places(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The path of every value inside a JSON tree."""
    out: list[tuple[Any, ...]] = []
    if isinstance(node, dict):
        items: list[tuple[Any, Any]] = list(node.items())
    elif isinstance(node, list):
        items = list(enumerate(node))
    else:
        items = []
    for key, value in items:
        out.append((*path, key))
        out += places(value, (*path, key))
    return out


def damage(record: dict[str, Any], data: st.DataObject) -> list[tuple[str, tuple[Any, ...]]]:
    """Remove a key, drop a list item, truncate a list or null a value — one to
    three times, at places hypothesis chooses (reshuffles, named fields and the
    tails of the deals and actions more often than their share). Returns what
    was done: ``(remove | null | truncate, path)`` each time."""
    done: list[tuple[str, tuple[Any, ...]]] = []
    for _ in range(data.draw(st.integers(1, 3), label="damages")):
        every = places(record)
        if not every:
            break
        focus = data.draw(st.sampled_from(["reshuffle", "field", "tail", "any"]), label="focus")
        chosen = {
            "reshuffle": [p for p in every if p[-1] == "reshuffle"],
            "field": [p for p in every if p[-1] in FIELDS],
            "tail": [p for p in every if p[-1] in ("deals", "actions")],
            "any": every,
        }[focus]
        pool = chosen or every
        path = pool[data.draw(st.integers(0, len(pool) - 1), label="place")]
        parent: Any = record
        for key in path[:-1]:
            parent = parent[key]
        value = parent[path[-1]]
        how = "truncate" if focus == "tail" else data.draw(
            st.sampled_from(["remove", "null", "truncate"]), label="how")
        if how == "truncate" and isinstance(value, list) and value:
            del value[data.draw(st.integers(0, len(value) - 1), label="keep"):]
        elif how == "null":
            parent[path[-1]] = None
        else:
            how = "remove"
            del parent[path[-1]]
        event(f"damage: {how} {path[-1] if isinstance(path[-1], str) else 'a list item'}")
        done.append((how, path))
    return done


#: what an action object cannot do without (where it has it)
ACTION_NEEDS = {"seat", "action", "card", "target", "give", "take", "reshuffle"}


def needed(path: tuple[Any, ...]) -> bool:
    """``path`` names something the replay cannot do without: a record key, a
    deal's deck or actions, or what an action needs (an options key, ``knock``,
    a pending ``response`` or ``discard`` may be absent by the format)."""
    if len(path) == 1:
        return path[0] in ("rules", "options", "players", "first_dealer", "deals")
    if len(path) == 3 and path[0] == "deals":
        return path[2] in ("deck", "actions")
    return len(path) == 5 and path[0] == "deals" and path[4] in ACTION_NEEDS


DEAL_KEYS = {"dealer", "hands", "categories", "winner", "ended_by", "knocker", "ledger_delta"}


@pytest.mark.parametrize("preset", sorted(TABLES))
@DAMAGE_SETTINGS
@given(data=st.data())
def test_a_damaged_record_replays_the_same_way_every_time(preset, data):
    options = data.draw(st.sampled_from(TABLES[preset]), label="options")
    rules = get_preset(preset, options)
    n = data.draw(st.integers(rules.min_players, min(rules.max_players, 5)), label="seats")
    first = data.draw(st.integers(0, n - 1), label="first dealer")
    rng = random.Random(data.draw(st.integers(0, 2**32 - 1), label="seed"))
    game = play(rules, n, first, rng, choose=patient_move, max_deals=2)
    record = json.loads(json.dumps(game.to_record([f"p{i}" for i in range(n)])))
    assert json.loads(outcome(record)) == json.loads(json.dumps(game.summary()))
    done = damage(record, data)
    first_out = outcome(record)
    assert outcome(record) == first_out  # the same record, the same output
    out = json.loads(first_out)
    event("outcome: error" if "error" in out else "outcome: a game")
    if len(done) == 1 and done[0][0] != "truncate" and needed(done[0][1]):
        event(f"needed: {done[0]}")
        assert "error" in out, f"{done[0]} replays without it, by default"
    if "error" in out:
        assert set(out) == {"error"}
        error = out["error"]
        assert set(error) == {"deal", "action", "reason"}
        assert isinstance(error["reason"], str) and error["reason"]
        assert error["deal"] is None or isinstance(error["deal"], int)
        assert error["action"] is None or isinstance(error["action"], int)
        assert error["action"] is None or error["deal"] is not None
    else:
        assert {"deals", "ledger", "complete", "winners"} <= set(out)
        assert len(out["ledger"]) == len(record["players"])
        assert all(DEAL_KEYS <= set(d) for d in out["deals"])


def test_the_damage_tests_cover_every_preset():
    assert set(TABLES) == set(PRESETS)
