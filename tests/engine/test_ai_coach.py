"""The coach gives the same hint for the same position (docs/AI.md "Coach"),
seeded from what the player sees and nothing else."""

from __future__ import annotations

import copy
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from bot.engine import arena, coach, strong
from bot.engine.view import seat_view

from .test_ai_levels import TABLES, every_choice, twin, walk

SMALL = strong.Budget(playouts=40, seconds=None)


@pytest.mark.parametrize(("preset", "options"), [TABLES[0], TABLES[4], TABLES[8]])
def test_the_same_position_gives_the_same_hint(preset, options):
    rng = random.Random(f"same{preset}")
    asked = 0
    for deal, seat in walk(preset, options, 5, deals=4):
        if asked >= 3 or rng.random() < 0.6:
            continue
        first = coach.advise(seat_view(deal, seat), budget=SMALL, worlds=30)
        again = coach.advise(seat_view(copy.deepcopy(deal), seat), budget=SMALL, worlds=30)
        assert first == again
        assert first.decision in every_choice(deal, seat)
        asked += 1
    assert asked >= 2


def test_the_hint_no_longer_follows_an_outside_random_source(monkeypatch):
    # the module-level random functions and a fresh Random() are not used: seeding
    # them differently between two calls changes nothing
    deal, seat = next(walk("foster", {}, 7, deals=1))
    view = seat_view(deal, seat)
    random.seed(1)
    first = coach.advise(view, budget=SMALL, worlds=30)
    random.seed(2)
    assert coach.advise(view, budget=SMALL, worlds=30) == first


@pytest.mark.parametrize(("preset", "options"), TABLES)
def test_the_hint_seed_never_depends_on_a_card_the_player_cannot_see(preset, options):
    rng = random.Random(f"seed{preset}{options}")
    compared = differed = 0
    seeds = set()
    for deal, seat in walk(preset, options, 4, deals=6):
        if compared >= 6 or rng.random() < 0.5:
            continue
        other = twin(deal, seat, rng)  # every unseen card shuffled among the unseen places
        if other is None or other.finished or other.to_act != seat:
            continue
        seed = coach.hint_seed(seat_view(deal, seat))
        assert coach.hint_seed(seat_view(other, seat)) == seed
        differed += other.hands != deal.hands
        seeds.add(seed)
        compared += 1
    assert compared >= 3 and differed >= 1
    assert len(seeds) == compared  # and it does change with what the player sees


def test_the_hint_seed_changes_with_what_the_player_sees():
    deal, seat = next(walk("jaques", {}, 2, deals=1))
    others = [s for s in deal.active if s != seat]
    mine = coach.hint_seed(seat_view(deal, seat))
    assert all(coach.hint_seed(seat_view(deal, s)) != mine for s in others)


def test_the_hint_seed_is_the_same_in_every_process():
    # a worker process has its own PYTHONHASHSEED: the seed must not depend on it
    code = (
        "from tests.engine.test_ai_levels import walk\n"
        "from bot.engine import coach\n"
        "from bot.engine.view import seat_view\n"
        "deal, seat = next(walk('oldway', {'pounce': True}, 3, deals=1))\n"
        "print(coach.hint_seed(seat_view(deal, seat)))\n"
    )
    root = Path(__file__).resolve().parents[2]
    seeds = set()
    for hash_seed in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed)
        out = subprocess.run([sys.executable, "-c", code], cwd=root, env=env, check=True,
                             capture_output=True, text=True).stdout
        seeds.add(int(out.split()[-1]))
    deal, seat = next(walk("oldway", {"pounce": True}, 3, deals=1))
    seeds.add(coach.hint_seed(seat_view(deal, seat)))
    assert len(seeds) == 1


@pytest.mark.parametrize(("preset", "options"), [TABLES[0], TABLES[4], TABLES[7]])
def test_cards_the_player_has_not_seen_never_change_the_hint(preset, options):
    rng = random.Random(f"hint{preset}")
    compared = differed = 0
    for deal, seat in walk(preset, options, 6, deals=6):
        if compared >= 2 or seat != deal.to_act or rng.random() < 0.5:
            continue
        other = twin(deal, seat, rng)  # every unseen card shuffled among the unseen places
        if other is None or other.finished or other.to_act != seat:
            continue
        hint = coach.advise(seat_view(deal, seat), budget=SMALL, worlds=20)
        assert coach.advise(seat_view(other, seat), budget=SMALL, worlds=20) == hint
        assert coach.hint(seat_view(other, seat), SMALL) == hint.decision
        assert hint.decision in every_choice(other, seat)
        differed += other.hands != deal.hands
        compared += 1
    assert compared >= 1 and differed >= 1


def test_the_arena_coached_seat_plays_the_hint(monkeypatch):
    monkeypatch.setattr(arena, "COACHED", SMALL)
    played = 0
    for deal, seat in walk("foster", {}, 9, deals=2):
        if seat != deal.to_act or played >= 4:
            continue
        hint = coach.hint(seat_view(deal, seat), SMALL)
        for tag in ("a", "b"):  # the arena's random source plays no part
            assert arena._decide(copy.deepcopy(deal), seat, "coached", random.Random(tag),
                                 arena.Budget(300, None), arena.Thresholds()) == hint
        played += 1
    assert played == 4
    first = arena.run_arena("foster", ["coached", "easy"], 2, 3)
    assert first.per_deck == arena.run_arena("foster", ["coached", "easy"], 2, 3).per_deck
    assert first.decisions["coached"] > 0 and ("coached", "easy") in first.pairs
