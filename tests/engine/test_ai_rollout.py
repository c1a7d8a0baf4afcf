"""strong's rollout policy (docs/AI.md "How strong decides"): ``normal.patient``
is ``normal`` except that in jaques it passes only with a top hand
(``normal.PATIENT_PASS``)."""

from __future__ import annotations

import random

from bot.engine import normal, strong
from bot.engine.hands import score
from bot.engine.view import seat_view

from .test_ai_levels import every_choice, walk


def test_patient_passes_only_with_a_top_hand_in_jaques():
    early_passes = differ = 0
    for deal, seat in walk("jaques", {}, 3, deals=6):
        obs = deal.observation(seat)
        choice = normal.patient(obs)
        assert choice in every_choice(deal, seat)
        late = obs.moves // len(obs.active) >= normal.LATE_CIRCUITS
        if choice.kind == "pass" and not late and obs.hand is not None:
            assert normal.percentile(score(obs.hand, obs.rules.ranking),
                                     obs.rules.ranking) >= normal.PATIENT_PASS
        if normal.choose(obs) != choice:
            differ += 1
            assert normal.choose(obs).kind == "pass"  # it waits where normal passes
        early_passes += normal.choose(obs).kind == "pass" and not late
    assert differ >= 1 and early_passes > differ - 1


def test_patient_is_normal_outside_jaques():
    for preset in ("foster", "hoyle", "widow", "oldway"):
        for deal, seat in walk(preset, {}, 3, deals=2):
            obs = deal.observation(seat)
            assert normal.patient(obs) == normal.choose(obs)


def test_strong_plays_patient_rollouts_by_default():
    assert strong.ROLLOUT == "patient" and strong.ROLLOUTS["patient"] is normal.patient
    budget = strong.Budget(playouts=30, seconds=None)
    for number, (deal, seat) in enumerate(walk("jaques", {}, 4, deals=1)):
        if number >= 6:
            break
        view = seat_view(deal, seat)
        a = strong.choose(view, random.Random(2), budget)
        assert a == strong.choose(view, random.Random(2), budget, "patient")
        assert a in every_choice(deal, seat)


def test_the_arena_seats_the_rollout_policy(monkeypatch):
    from bot.engine import arena

    asked = []

    def spy(obs):
        asked.append(obs.seat)
        return real(obs)

    real = normal.patient
    monkeypatch.setattr(normal, "patient", spy)
    report = arena.run_arena("jaques", ["patient", "normal"], 2, 3)
    assert len(asked) == report.decisions["patient"] > 0
    monkeypatch.undo()
    assert arena.run_arena("jaques", ["patient", "normal"], 2, 3).per_deck == report.per_deck
