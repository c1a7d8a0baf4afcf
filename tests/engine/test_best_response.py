"""scripts/best_response.py: a best response to fixed opponents within the
equilibrium solver's abstraction, and the arena seats that play it."""

from __future__ import annotations

import json
import random
import sys
from types import ModuleType

import pytest

from bot.engine import arena, equilibrium, normal
from bot.engine.cards import shuffled_deck
from bot.engine.family import Decision
from bot.engine.game import Game
from bot.engine.rules import get_preset

from .support import load_script


def _script() -> ModuleType:
    return load_script("best_response")


def test_only_the_traverser_learns_and_the_table_loads(monkeypatch, tmp_path, capsys):
    br = _script()
    asked: list[tuple[int, int]] = []  # (seat asked, the traverser then)
    solver_ref: list[object] = []

    def spy(obs):
        asked.append((obs.seat, solver_ref[0].traverser))
        return normal.choose(obs)

    real_iterate = br.BestResponse.iterate

    def iterate(self):
        solver_ref[:] = [self]
        real_iterate(self)

    real_walk = br.BestResponse.walk

    def walk(self, deck, moves, history, traverser):
        self.traverser = traverser
        return real_walk(self, deck, moves, history, traverser)

    monkeypatch.setattr(br, "opponent", lambda spec, preset: spy)
    monkeypatch.setattr(br.BestResponse, "iterate", iterate)
    monkeypatch.setattr(br.BestResponse, "walk", walk)
    out = tmp_path / "br.json"
    monkeypatch.setattr(sys, "argv", ["best_response.py", "train", "--preset", "foster",
                                      "--opponents", "normal", "--iterations", "30",
                                      "--strength-bins", "8", "--out", str(out)])
    assert br.main() == 0
    assert asked and all(seat != traverser for seat, traverser in asked)
    tables = equilibrium.parse(out.read_text())
    body = json.loads(out.read_text())["presets"]["foster"]
    assert body["opponents"] == ["normal"] and body["iterations"] == 30
    assert body["strength_bins"] == 8
    rules = get_preset("foster")
    for key, probs in tables["foster"].strategies.items():
        n, role, history, mode, s, p = key.split("|")
        assert (n, mode in "at", set(history) <= set("TB")) == ("3", True, True)
        assert 0 <= int(s) < 8 and 0 <= int(p) <= 3  # the strength bins asked for
        assert len(probs) == len(equilibrium.actions_for(rules, mode == "a", 1))
    assert equilibrium.STRENGTH_BINS == 16  # put back after training
    assert "foster against normal: 30 iterations" in capsys.readouterr().out


def test_an_opponent_spec_names_a_threshold_point():
    br = _script()
    assert br.opponent("normal", "foster") is normal.choose
    with pytest.raises(ValueError):
        br.opponent("strong", "foster")


def test_the_swapped_seats_play_the_given_table_and_put_today_s_back(monkeypatch):
    br = _script()
    monkeypatch.setattr(arena, "POLICIES", arena.POLICIES)
    monkeypatch.setattr(arena, "_decide", arena._decide)
    today = equilibrium.load()["foster"]
    br.install({"foster": today}, {})  # the "learned" table is today's: nothing may change
    same = arena.run_arena("foster", ["strong", "threshold"], 3, 7, playouts=20)
    swapped = arena.run_arena("foster", ["strongbr", "threshold"], 3, 7, playouts=20)
    assert same.per_deck["strong"] == swapped.per_deck["strongbr"]
    table = arena.run_arena("foster", ["eq", "br", "threshold"], 4, 7)
    assert table.per_deck["eq"] == table.per_deck["br"]
    assert equilibrium.load()["foster"] is today


def test_the_card_actions_start_from_the_solver_s_card(monkeypatch, tmp_path):
    br = _script()
    rules = get_preset("foster")
    for seed in range(20):
        deal = Game(rules, 3, 0).start_deal(shuffled_deck(random.Random(seed)))
        obs = deal.observation(deal.to_act)
        order = br.card_order(obs)
        assert sorted(order) == sorted(obs.hand)
        assert br.concrete("barter#0", obs) == equilibrium.concrete("barter", obs)
        assert br.concrete("trade_knock#2", obs) == Decision("trade", order[2], knock=True)
    assert br.expand(("knock", "trade"), True) == ("knock", "trade#0", "trade#1", "trade#2")
    out = tmp_path / "cards.json"
    monkeypatch.setattr(sys, "argv", ["best_response.py", "train", "--preset", "foster",
                                      "--iterations", "20", "--cards", "--out", str(out)])
    assert br.main() == 0
    body = json.loads(out.read_text())["presets"]["foster"]
    assert body["cards"] is True
    sizes = {key.split("|")[3]: len(probs) for key, probs in body["strategies"].items()}
    assert sizes == {"t": 7, "a": 4}  # knock, trade and barter by 3 cards; refuse, accept by 3


@pytest.mark.parametrize("learners", [1, 2])
def test_learners_leave_one_or_two_seats_to_the_fixed_opponents(monkeypatch, tmp_path, learners):
    br = _script()
    fixed: list[tuple[int, tuple[int, ...]]] = []
    real_walk = br.BestResponse.walk

    def walk(self, deck, moves, history, traverser):
        fixed.append((traverser, tuple(sorted(self.fixed))))
        return real_walk(self, deck, moves, history, traverser)

    monkeypatch.setattr(br.BestResponse, "walk", walk)
    out = tmp_path / "br.json"
    monkeypatch.setattr(sys, "argv", ["best_response.py", "train", "--preset", "parlett",
                                      "--learners", str(learners), "--iterations", "30",
                                      "--out", str(out)])
    assert br.main() == 0
    assert len(fixed) == 90
    for traverser, seats in fixed:
        assert traverser not in seats and len(seats) == 3 - learners
    assert json.loads(out.read_text())["presets"]["parlett"]["learners"] == learners
