"""The arena's tuned threshold player (docs/AI.md "The threshold player")."""

from __future__ import annotations

import dataclasses

import pytest

from bot.engine import arena
from bot.engine.__main__ import main as engine_main
from bot.engine.family import Decision

from .test_ai_levels import TABLES, every_choice, walk


@pytest.mark.parametrize(("preset", "options"), TABLES)
def test_the_threshold_player_decides_legally_everywhere(preset, options):
    t = arena.THRESHOLDS.get(preset, arena.Thresholds())
    kinds: set[str] = set()
    points = 0
    for deal, seat in walk(preset, options, 6):
        decision = arena.threshold_choose(deal.observation(seat), t)
        assert decision in every_choice(deal, seat), (decision, deal.legal_actions(seat))
        kinds.add(decision.kind)
        points += 1
    assert points > 10 and len(kinds) >= 2


def test_its_thresholds_decide_when_it_stops():
    deal, seat = next(walk("foster", {}, 1, deals=1))
    obs = dataclasses.replace(deal.observation(seat), barter=None)
    always = arena.threshold_choose(obs, arena.Thresholds(stop=0.0))
    never = arena.threshold_choose(obs, arena.Thresholds(stop=1.01))
    assert always == Decision("knock") and never.kind in ("trade", "barter")


def test_the_arena_seats_the_threshold_player_and_tunes_it(capsys):
    report = arena.run_arena("foster", ["threshold", "normal"], 2, 3)
    assert set(report.scores) == {"threshold", "normal"} and report.decisions["threshold"] > 0
    eager = arena.run_arena("foster", ["threshold", "normal"], 2, 3,
                            thresholds=arena.Thresholds(stop=0.0))
    patient = arena.run_arena("foster", ["threshold", "normal"], 2, 3,
                              thresholds=arena.Thresholds(stop=1.01))
    assert eager.per_deck != patient.per_deck  # the numbers change its play
    assert eager.decisions["threshold"] < patient.decisions["threshold"]
    assert engine_main(["arena", "--preset", "jaques", "--policies", "threshold,normal",
                        "--deals", "1", "--seed", "2"]) == 0
    assert "threshold - normal" in capsys.readouterr().out


def test_the_tuning_script_prints_entries_for_the_thresholds(monkeypatch, capsys):
    import sys

    from .support import load_script

    module = load_script("tune_threshold")
    assert len(module.grid("trade")) == len(module.STOPS) * len(module.REFUSES) * len(module.TRADES)
    assert len(module.grid("discard")) == len(module.STOPS) * len(module.JAQUES_RISES)
    monkeypatch.setattr(sys, "argv", ["tune_threshold.py", "--presets", "widow", "--deals", "1"])
    module.main()
    out = capsys.readouterr().out
    assert "| `widow` |" in out and '"widow": Thresholds(stop=' in out
