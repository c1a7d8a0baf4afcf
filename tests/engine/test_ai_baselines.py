"""The arena's flat determinised Monte Carlo player (docs/AI.md "The flat Monte
Carlo player"): legal everywhere, blind to the cards its seat cannot see; and the
arena's game mode (docs/AI.md "Game mode")."""

from __future__ import annotations

import random

import pytest

from bot.engine import arena, flat, normal
from bot.engine.cards import shuffled_deck
from bot.engine.game import Game
from bot.engine.rules import get_preset
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


def test_a_tie_goes_to_normals_choice_then_to_a_stop(monkeypatch):
    """Every playout scores alike, so every candidate ties: the flat player
    plays what ``normal`` would (not the first candidate); with ``normal``'s
    choice scoring worse than the rest, a stand, pass or knock among the best."""
    monkeypatch.setattr(flat, "playout", lambda *args: 0.0)
    checked = set()
    for preset in ("foster", "widow", "oldway", "jaques"):
        for deal, seat in walk(preset, {}, 4, deals=6):
            view = seat_view(deal, seat)
            choices = every_choice(deal, seat)
            preferred = normal.choose(view.obs)
            if normal.late(view.obs) or preferred not in choices or preferred == choices[0]:
                continue
            assert flat.choose(view, random.Random(1), SMALL) == preferred
            checked.add(preset)
    assert checked == {"foster", "widow", "oldway", "jaques"}

    stops = 0
    for deal, seat in walk("oldway", {}, 5, deals=6):
        view = seat_view(deal, seat)
        preferred = normal.choose(view.obs)
        if normal.late(view.obs) or preferred.kind == "stand" or "stand" not in deal.legal_actions(seat):
            continue
        def scored(_deal, _seat, decision, _policy, worse=preferred):
            return -1.0 if decision == worse else 0.0

        monkeypatch.setattr(flat, "playout", scored)
        assert flat.choose(view, random.Random(1), SMALL).kind == "stand"
        stops += 1
    assert stops >= 2


def _played_until_late(preset: str, seed: int):
    """A deal where every seat makes a random decision other than a stop
    (stand, pass, knock) while it has one, played until the seat to act is past
    ``normal``'s late circuits (``None`` if it ends first)."""
    rng = random.Random(f"late{seed}")
    deal = Game(get_preset(preset), 3, 0).start_deal(shuffled_deck(rng), rng=rng)
    while not deal.finished:
        seat = deal.to_act
        assert seat is not None
        if normal.late(deal.observation(seat)):
            return deal, seat
        choices = every_choice(deal, seat)
        going = [d for d in choices if d.kind not in flat.STOPS] or choices
        deal.act(seat, rng.choice(going))
    return None


@pytest.mark.parametrize("preset", ["oldway", "jaques"])
def test_past_the_late_circuits_the_flat_player_stops_as_normal_does(preset):
    found = 0
    for seed in range(30):
        late = _played_until_late(preset, seed)
        if late is None:
            continue
        deal, seat = late
        decision = flat.choose(seat_view(deal, seat), random.Random(seed), SMALL)
        assert decision == normal.choose(deal.observation(seat))
        found += decision.kind in ("stand", "pass", "knock")
        if found >= 2:
            break
    assert found >= 2


@pytest.mark.parametrize("preset", ["oldway", "jaques"])
def test_deals_with_the_flat_player_end(preset):
    """In jaques the flat player never passed (a taken card can only help its
    playouts) and in oldway it kept swapping alone: its deals ran to the arena's
    ``MAX_MOVES``. Now they end within the late circuits and one more."""
    report = arena.run_arena(preset, ["flat", "normal"], 1, 11, playouts=12)
    assert report.decisions["flat"] > 0
    limit = 3 * (normal.LATE_CIRCUITS + 2)
    assert sum(report.decisions.values()) <= len(arena.seatings_of(["flat", "normal"], 3)) * limit


def test_the_arena_seats_the_flat_player():
    report = arena.run_arena("foster", ["flat", "normal"], 1, 2, playouts=12)
    assert report.decisions["flat"] > 0
    again = arena.run_arena("foster", ["flat", "normal"], 1, 2, playouts=12)
    assert again.per_deck == report.per_deck


@pytest.mark.parametrize("preset", ["hoyle", "oldway", "jaques"])
def test_game_mode_scores_whole_games_on_the_same_decks(preset):
    """Each unit is a whole game; deal k of a game has the same deck in every
    seating, and a seat scores the game's final ledger."""
    from bot.engine import levels
    from bot.engine.cards import shuffled_deck
    from bot.engine.game import Game
    from bot.engine.rules import get_preset

    report = arena.run_arena(preset, ["normal", "easy"], 1, 4, games=True)
    assert report.games and report.unit in ("points", "chips")
    rules = get_preset(preset)
    expected = {"normal": 0.0, "easy": 0.0}
    counts = {"normal": 0, "easy": 0}
    deals = 0
    for table in arena.seatings_of(["normal", "easy"], 3):
        game = Game(rules, 3, 0)
        number = 0
        while not game.complete and number < arena.MAX_DEALS:
            deal = game.start_deal(shuffled_deck(random.Random(f"arena-game:4:0:{number}")),
                                   rng=random.Random(f"arena:4:0:{number}:stock"))
            while not deal.finished:
                seat = deal.to_act
                assert seat is not None
                deal.act(seat, levels.decide(deal, seat, table[seat]))
            number += 1
        deals += number
        for seat, balance in enumerate(game.ledger):
            expected[table[seat]] += balance
            counts[table[seat]] += 1
    assert report.per_deck == {p: (expected[p] / counts[p],) for p in expected}
    assert report.deals_per_unit == deals / 3 and report.deals_per_unit > 1
    assert "games (" in report.text() and "per game" in report.text()
