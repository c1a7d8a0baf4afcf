"""The equilibrium tables of the short trade presets (docs/AI.md "Equilibrium
tables (issue 25)")."""

from __future__ import annotations

import random

import pytest

from bot.engine import equilibrium, strong
from bot.engine.cards import shuffled_deck
from bot.engine.family import Decision
from bot.engine.game import Game
from bot.engine.rules import get_preset
from bot.engine.view import seat_view

from .test_ai_levels import every_choice, twin, walk


def test_every_covered_preset_has_a_valid_table():
    tables = equilibrium.load()
    assert set(equilibrium.PRESETS) <= set(tables)
    for preset, table in tables.items():
        rules = get_preset(preset)
        assert list(table.potential_edges) == sorted(table.potential_edges)
        assert len(table.strategies) > 100
        for key, probs in table.strategies.items():
            n, role, history, mode, s, p = key.split("|")
            assert 0 <= int(role) < int(n) and set(history) <= {"T", "B"}
            assert len(history) < equilibrium.HISTORY_CAP
            assert 0 <= int(s) < equilibrium.STRENGTH_BINS
            assert 0 <= int(p) <= len(table.potential_edges)
            actions = equilibrium.actions_for(rules, mode == "a", 1)
            assert len(probs) == len(actions), (preset, key)
            assert all(x >= 0 for x in probs) and sum(probs) == pytest.approx(1.0, abs=1e-3)


@pytest.mark.parametrize("preset", equilibrium.PRESETS)
def test_its_decisions_are_legal_in_every_state(preset):
    covered = 0
    points = 0
    for seed in range(3):
        for deal, seat in walk(preset, {}, seed):
            view = seat_view(deal, seat)
            decision = equilibrium.choose(view, random.Random(seed))
            points += 1
            if decision is None:
                continue
            covered += 1
            assert decision in every_choice(deal, seat), (decision, deal.legal_actions(seat))
    assert points > 30 and covered > points // 4


@pytest.mark.parametrize("preset", equilibrium.PRESETS)
def test_it_covers_the_opening_decisions_and_is_deterministic(preset):
    rules = get_preset(preset)
    rng = random.Random(preset)
    kinds: set[str] = set()
    for _ in range(40):
        deal = Game(rules, 3, 0).start_deal(shuffled_deck(rng))
        seat = deal.to_act
        assert seat is not None
        view = seat_view(deal, seat)
        first = equilibrium.choose(view, random.Random(7))
        assert first is not None and first == equilibrium.choose(view, random.Random(7))
        assert first in every_choice(deal, seat)
        assert strong.choose(view, random.Random(7), strong.Budget(playouts=16, seconds=None),
                             overrule=False) == first
        kinds.add(first.kind)
    assert "knock" in kinds and len(kinds) >= 2  # not one fixed answer


def test_the_history_and_roles_are_the_solver_s():
    rules = get_preset("foster")
    deal = Game(rules, 3, 0).start_deal(shuffled_deck(random.Random(3)))
    assert deal.to_act == 1
    assert [equilibrium.role_of(s, 0, 3, 1) for s in (1, 2, 0)] == [0, 1, 2]
    assert [equilibrium.role_of(s, 0, 3, -1) for s in (2, 1, 0)] == [0, 1, 2]
    deal.act(1, Decision("trade", deal.hands[1][0]))
    deal.act(2, Decision("barter", deal.hands[2][0]))
    assert equilibrium.history_of(seat_view(deal, 0)) == "T"  # a barter waits for seat 0
    deal.act(0, Decision("accept", deal.hands[0][0]))
    view = seat_view(deal, 0)
    assert equilibrium.history_of(view) == "TB"
    assert equilibrium.choose(view, random.Random(1), "no such preset") is None


def _the_search_decides(deal) -> None:
    """The table has nothing for the seat to act in ``deal``; strong's search
    still gives it a legal decision."""
    seat = deal.to_act
    assert seat is not None
    view = seat_view(deal, seat)
    assert equilibrium.choose(view, random.Random(1)) is None
    decision = strong.choose(view, random.Random(1), strong.Budget(playouts=16, seconds=None))
    assert decision in every_choice(deal, seat)


def test_a_missing_state_falls_back_to_the_search():
    rules = get_preset("foster")
    deal = Game(rules, 3, 0).start_deal(shuffled_deck(random.Random(5)))
    for _ in range(equilibrium.HISTORY_CAP):  # past the table's histories
        seat = deal.to_act
        assert seat is not None
        deal.act(seat, Decision("trade", deal.hands[seat][0]))
    _the_search_decides(deal)


def test_the_abstraction_features():
    ranking = get_preset("foster").ranking
    tricon = [0, 1, 2]  # three twos
    assert equilibrium.strength(tricon, ranking) > 0.9
    assert 0.0 < equilibrium.potential(tricon, ranking) <= 1.0
    hand = [51, 47, 4]  # the ace and king of spades and a three of clubs
    assert equilibrium.best_card(hand, ranking, 2, list(range(52))) == 4


def test_the_solver_writes_a_table_that_loads(monkeypatch, tmp_path, capsys):
    import json
    import sys

    from .support import load_script

    module = load_script("solve_equilibrium")
    out = tmp_path / "table.json"
    state = tmp_path / "state.pkl"
    for _ in range(2):  # the second run continues the first from its state
        monkeypatch.setattr(sys, "argv", ["solve_equilibrium.py", "--preset", "hoyle", "--iterations",
                                          "10", "--out", str(out), "--state", str(state)])
        assert module.main() == 0
    body = json.loads(out.read_text())["presets"]["hoyle"]
    assert body["iterations"] == 20 and body["strategies"]
    actions = equilibrium.actions_for(get_preset("hoyle"), False, 1)
    for probs in body["strategies"].values():
        assert len(probs) == len(actions) and sum(probs) == pytest.approx(1.0, abs=1e-3)
    assert "hoyle: 20 iterations" in capsys.readouterr().out


class _Text:
    """A package file whose text is ``text`` (``importlib.resources.files``'s
    traversable, as far as ``equilibrium.load`` uses it)."""

    def __init__(self, text: str | None) -> None:
        self.text = text

    def joinpath(self, _name: str) -> _Text:
        return self

    def read_text(self, encoding: str = "utf-8") -> str:
        if self.text is None:
            raise FileNotFoundError("equilibrium.json")
        return self.text


@pytest.mark.parametrize("text", [
    None, "", "{", "[]", "null", '{"presets": []}', '{"presets": {"foster": {}}}',
    '{"presets": {"foster": {"potential_edges": [0.5], "strategies": {"k": [2, -1]}}}}',
    '{"presets": {"foster": {"potential_edges": [0.5], "strategies": {"k": [NaN, 1]}}}}',
    '{"presets": {"foster": {"potential_edges": "x", "strategies": {"k": [1]}}}}',
    '{"presets": {"foster": {"potential_edges": [], "strategies": {"k": 1}}}}',
])
def test_a_missing_or_damaged_table_leaves_strong_to_its_search(monkeypatch, caplog, text):
    """A damaged equilibrium.json must not stop strong, the coach or a review
    (each raised from ``load`` before): no table, the search decides."""
    monkeypatch.setattr(equilibrium.resources, "files", lambda _package: _Text(text))
    equilibrium.load.cache_clear()
    try:
        assert equilibrium.load() == {}
        deal = Game(get_preset("foster"), 3, 0).start_deal(shuffled_deck(random.Random(2)))
        _the_search_decides(deal)
        assert (text is None) == ("not a valid table" not in caplog.text)
    finally:
        equilibrium.load.cache_clear()


@pytest.mark.parametrize("preset", equilibrium.PRESETS)
def test_its_decision_never_depends_on_a_card_the_seat_cannot_see(preset):
    """The table is keyed by the seat's view alone: the same deal with every
    card the seat has not seen dealt elsewhere gives the same decision."""
    rng = random.Random(f"hidden{preset}")
    compared = differed = 0
    for seed in range(2):
        for deal, seat in walk(preset, {}, seed):
            other = twin(deal, seat, rng)
            if other is None or other.finished or other.to_act != seat:
                continue
            mine = equilibrium.choose(seat_view(deal, seat), random.Random(1))
            assert equilibrium.choose(seat_view(other, seat), random.Random(1)) == mine
            compared += mine is not None
            differed += other.hands != deal.hands
    assert compared >= 5 and differed >= 5


def _strong_opening(preset: str, floor: float):
    """The first decision of a seeded 3-seat deal whose eldest hand holds a hand
    above the ``floor`` percentile."""
    rules = get_preset(preset)
    rng = random.Random(f"strong-opening{preset}")
    while True:
        deal = Game(rules, 3, 0).start_deal(shuffled_deck(rng))
        seat = deal.to_act
        assert seat is not None
        if equilibrium.strength(deal.hands[seat], rules.ranking) > floor:
            return deal, seat


def test_the_search_overrules_the_table_only_when_clearly_better(monkeypatch):
    """The table's decision is the search's default: a table answer that throws
    away a top hand is overruled by the playouts; without ``overrule`` it stands;
    and a sound answer (the real table's) is kept."""
    deal, seat = _strong_opening("foster", 0.995)
    view = seat_view(deal, seat)
    budget = strong.Budget(playouts=200, seconds=None)
    sound = strong.choose(view, random.Random(3), budget)
    assert sound == equilibrium.choose(view, random.Random(3))
    assert sound.kind == "knock"  # the real table knocks on a top hand, and it stands
    bad = Decision("trade", max(deal.hands[seat]))
    assert bad in every_choice(deal, seat)
    monkeypatch.setattr(equilibrium, "choose", lambda _view, _rng, preset=None: bad)
    assert strong.choose(view, random.Random(3), budget, overrule=False) == bad
    overruled = strong.choose(view, random.Random(3), budget)
    assert overruled != bad and overruled.kind == "knock"
    monkeypatch.setattr(strong, "TABLE_CONFIDENCE", float("inf"))  # never sure enough
    assert strong.choose(view, random.Random(3), budget) == bad


def test_pick_needs_the_margin():
    """``_pick`` replaces the default only when the paired mean gain exceeds
    ``confidence`` standard errors of the paired difference."""
    a, b = Decision("knock"), Decision("trade", 1)
    # b gains 1 in half of 8 worlds: a mean gain of 0.5
    results = {a: [0.0] * 8, b: [1.0, 0.0] * 4}
    gain_se = 0.5 / (8 ** 0.5) * (8 / 7) ** 0.5  # the sample SD 0.53 over sqrt(8)
    assert strong._pick([a, b], results, a, confidence=0.5 / gain_se - 0.1) == b
    assert strong._pick([a, b], results, a, confidence=0.5 / gain_se + 0.1) == a
    assert strong._pick([a, b], results, b, confidence=100.0) == b


def test_the_arena_table_seat_answers_from_the_table():
    """The arena's ``table`` seat is ``strong`` without the search over the
    table: the table's decision where it covers the state, always legal; the
    arena seats it deterministically."""
    from bot.engine import arena

    budget = arena.Budget(16, None)
    covered = 0
    for deal, seat in walk("foster", {}, 4, deals=3):
        if seat != deal.to_act:
            continue
        table = equilibrium.choose(seat_view(deal, seat), random.Random("t"))
        decision = arena._decide(deal, seat, "table", random.Random("t"), budget, arena.Thresholds())
        assert decision in every_choice(deal, seat)
        if table is not None:
            assert decision == table
            covered += 1
    assert covered >= 3
    first = arena.run_arena("foster", ["table", "strong", "easy"], 1, 3, playouts=16)
    assert first.per_deck == arena.run_arena("foster", ["table", "strong", "easy"], 1, 3,
                                             playouts=16).per_deck
    assert first.decisions["table"] > 0 and ("table", "strong") in first.pairs
