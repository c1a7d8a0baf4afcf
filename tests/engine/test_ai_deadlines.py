"""The strong AI's deadline holds inside its search (docs/AI.md "Budget"):
checked with a fake clock that moves only when the playouts move, never by
timing anything."""

from __future__ import annotations

import copy
import math
import random

import pytest

from bot.engine import arena, normal, strong
from bot.engine.__main__ import main as engine_main
from bot.engine.cards import shuffled_deck
from bot.engine.family import Observation
from bot.engine.game import AnyDeal, Game
from bot.engine.rules import get_preset
from bot.engine.view import seat_view

#: fake seconds one playout move takes
TICK = 0.15


def opening(preset: str, seed: int) -> tuple[AnyDeal, int]:
    """The first decision of a seeded 3-seat deal and its seat."""
    rng = random.Random(seed)
    deal = Game(get_preset(preset), 3, 0).start_deal(shuffled_deck(rng), rng=rng)
    seat = deal.to_act
    assert seat is not None
    return deal, seat


class FakeClock:
    """A clock that advances ``TICK`` per playout move (the rollout policy
    calls ``tick``), and counts the moves."""

    def __init__(self) -> None:
        self.now = 0.0
        self.moves = 0

    def __call__(self) -> float:
        return self.now

    def tick(self, obs: Observation):  # the rollout policy, counted
        self.now += TICK
        self.moves += 1
        return normal.patient(obs)


def full_playout_moves(deal: AnyDeal, seat: int) -> int:
    """Moves of the first playout the search would make (no deadline)."""
    view = seat_view(deal, seat)
    moves = [0]

    def counted(obs: Observation):
        moves[0] += 1
        return normal.choose(obs)

    world = strong.world(view, random.Random(1))
    strong.playout(world, seat, normal.choose(view.obs), counted)
    return moves[0]


@pytest.mark.parametrize(("preset", "seed"), [("jaques", 1), ("widow", 3)])
def test_a_deadline_passed_mid_playout_stops_the_search_at_once(preset, seed, monkeypatch):
    deal, seat = opening(preset, seed)
    allowed = math.ceil(0.2 / TICK)  # moves until the deadline has passed
    # the playouts here are long: waiting for one to end would overrun the deadline
    assert full_playout_moves(copy.deepcopy(deal), seat) > allowed + strong.CLOCK_EVERY
    clock = FakeClock()
    monkeypatch.setitem(strong.ROLLOUTS, strong.ROLLOUT, clock.tick)
    view = seat_view(deal, seat)
    decision = strong.choose(view, random.Random(1), strong.Budget(playouts=2000, seconds=0.2),
                             clock=clock)
    assert decision in [d for a in deal.legal_actions(seat) for d in deal.choices(seat, a)]
    # it stopped within CLOCK_EVERY moves of the deadline, mid-playout, far from 2000 playouts
    assert allowed <= clock.moves <= allowed + strong.CLOCK_EVERY
    # with nothing finished in every candidate's world, the rollout policy's choice stands
    assert decision == normal.patient(view.obs)


def test_a_playout_told_to_stop_raises_and_leaves_the_deal_unfinished():
    deal, seat = opening("jaques", 3)
    asked = [0]

    def stop() -> bool:
        asked[0] += 1
        return asked[0] >= 2

    with pytest.raises(TimeoutError):
        strong.playout(deal, seat, normal.choose(deal.observation(seat)), normal.choose, stop)
    assert not deal.finished and asked[0] == 2


def test_without_a_deadline_the_clock_changes_nothing():
    deal, seat = opening("foster", 4)
    view = seat_view(deal, seat)
    budget = strong.Budget(playouts=60, seconds=None)
    jumps = iter(range(0, 10**6, 1000))
    a = strong.choose(view, random.Random(5), budget, clock=lambda: float(next(jumps)))
    b = strong.choose(view, random.Random(5), budget)
    assert a == b


def test_world_sampling_gives_up_on_retries_once_told_to_stop(monkeypatch):
    # every sample contradicts the log: without a stop it would try SAMPLE_ATTEMPTS times
    deal, seat = opening("jaques", 3)
    view = seat_view(deal, seat)
    tries = [0]

    def contradicted(self):
        tries[0] += 1
        raise strong._Contradiction

    monkeypatch.setattr(strong._Sampler, "run", contradicted)
    cards = strong.sample_world(view, random.Random(1), stop=lambda: True)
    assert tries[0] == 1  # one attempt, then the present-only world
    assert view.obs.hand is not None and cards.hands[seat] == list(view.obs.hand)
    tries[0] = 0
    strong.sample_world(view, random.Random(1))
    assert tries[0] == strong.SAMPLE_ATTEMPTS


@pytest.mark.parametrize(("jump", "earliest"), [(0.04, 0.15), (0.1, 0.14)])
def test_a_long_stall_makes_the_search_keep_a_reserve(jump, earliest, monkeypatch):
    """After one stall of ``jump`` seconds (the process waited for its core), the
    search stops early enough that a second one would still end by the
    deadline; the reserve is at most RESERVE_SHARE of the budget."""
    deal, seat = opening("jaques", 1)
    moves = [0]
    now = [0.0]

    def policy(obs: Observation):
        moves[0] += 1
        now[0] += 0.001 + (jump if moves[0] == 10 else 0.0)
        return normal.patient(obs)

    monkeypatch.setitem(strong.ROLLOUTS, strong.ROLLOUT, policy)
    decision = strong.choose(seat_view(deal, seat), random.Random(2),
                             strong.Budget(playouts=2000, seconds=0.2), clock=lambda: now[0])
    assert decision in [d for a in deal.legal_actions(seat) for d in deal.choices(seat, a)]
    assert earliest <= now[0] <= 0.2


def test_the_arena_searches_at_the_live_budget_when_asked(monkeypatch, capsys):
    budgets: list[strong.Budget | None] = []
    decide = arena.levels.decide

    def recorded(deal, seat, level, *, rng=None, budget=None):
        if level == "strong":
            budgets.append(budget)
        return decide(deal, seat, level, rng=rng, budget=strong.Budget(playouts=8, seconds=None))

    monkeypatch.setattr(arena.levels, "decide", recorded)
    report = arena.run_arena("hoyle", ["strong", "normal"], 1, 2, playouts=50, seconds=0.05)
    assert report.seconds == 0.05 and "within 0.05 s" in report.text()
    assert budgets and set(budgets) == {strong.Budget(playouts=50, seconds=0.05)}
    budgets.clear()
    assert engine_main(["arena", "--preset", "hoyle", "--policies", "strong,normal",
                        "--deals", "1", "--live"]) == 0
    assert set(budgets) == {strong.DEFAULT_BUDGET}
    assert "strong playouts 2000 within 0.2 s" in capsys.readouterr().out
    budgets.clear()
    arena.run_arena("hoyle", ["strong", "normal"], 1, 2, playouts=50)  # the default: no clock
    assert set(budgets) == {strong.Budget(playouts=50, seconds=None)}
