"""The arena's flat determinised Monte Carlo player (docs/AI.md "The flat Monte
Carlo player"): legal everywhere, blind to the cards its seat cannot see."""

from __future__ import annotations

import random

import pytest

from bot.engine import arena, flat
from bot.engine.strong import Budget
from bot.engine.view import seat_view

from .test_ai_levels import TABLES, every_choice, twin, walk

SMALL = Budget(playouts=24, seconds=None)


@pytest.mark.parametrize(("preset", "options"), TABLES)
def test_the_flat_player_decides_legally(preset, options):
    points = 0
    for deal, seat in walk(preset, options, 5, deals=4):
        if points >= 12:
            break
        decision = flat.choose(seat_view(deal, seat), random.Random(points), SMALL)
        assert decision in every_choice(deal, seat), (decision, deal.legal_actions(seat))
        points += 1
    assert points >= 5


@pytest.mark.parametrize(("preset", "options"), TABLES)
def test_the_flat_player_decides_the_same_whatever_its_seat_cannot_see(preset, options):
    """Twin deals: every card the seat never saw shuffled among themselves and
    every action renamed alike. The views are equal, so are the decisions; the
    hidden hands differ at least once, so the player would notice a peek."""
    rng = random.Random(f"flat-twin{preset}{options}")
    compared = differed = 0
    for deal, seat in walk(preset, options, 2, deals=8):
        if compared >= 6 or rng.random() < 0.5:
            continue
        other = twin(deal, seat, rng)
        if other is None or other.finished or other.to_act != seat:
            continue
        assert seat_view(deal, seat) == seat_view(other, seat)
        if other.hands != deal.hands:
            differed += 1
        a = flat.choose(seat_view(deal, seat), random.Random(3), SMALL)
        b = flat.choose(seat_view(other, seat), random.Random(3), SMALL)
        assert a == b
        compared += 1
    assert compared >= 3 and differed >= 1


def test_the_flat_player_picks_the_best_mean_and_stops_on_its_clock():
    deal, seat = next((d, s) for d, s in walk("foster", {}, 1, deals=2)
                      if len(every_choice(d, s)) > 2)
    view = seat_view(deal, seat)
    ticks = iter(range(1000))
    decision = flat.choose(view, random.Random(1), Budget(playouts=None, seconds=2.5),
                           clock=lambda: float(next(ticks)))
    assert decision in every_choice(deal, seat)
    assert next(ticks) == 4  # one look at the start, one after each of 3 rounds


def test_the_arena_seats_the_flat_player():
    report = arena.run_arena("foster", ["flat", "normal"], 1, 2, playouts=12)
    assert report.decisions["flat"] > 0
    again = arena.run_arena("foster", ["flat", "normal"], 1, 2, playouts=12)
    assert again.per_deck == report.per_deck
