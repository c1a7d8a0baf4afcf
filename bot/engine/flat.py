"""A flat determinised Monte Carlo player: a baseline for the arena (docs/AI.md
"The flat Monte Carlo player"), not an AI level.

``choose(view, rng, budget)`` decides from a ``SeatView`` alone, like ``strong``
but without its refinements: it samples worlds consistent with the view
(``strong.sample_world`` without the opponent model: the hidden cards at
random, the seat's log honoured), tries every legal decision in each world
(no trimming, no favoured default), plays each to the end of the deal with
``normal`` at every seat, and picks the best mean ``strong.outcome``. Every
candidate is played in the same worlds, round-robin, until the budget is
spent: a number of playouts and/or seconds (checked between playouts). With a
playout budget alone the choice is a pure function of the view and ``rng``.

Two rules keep its deals finite, as every other baseline's: once the deal runs
long (``normal.late``: ``normal.LATE_CIRCUITS`` circuits, twice that in the
trade family) it plays ``normal``'s decision, which stops (knocks, stands or
passes) there; and candidates with equal means go to ``normal``'s choice if it
is among them, else to a stand, pass or knock (``STOPS``, in that order), else
to the first.
"""

from __future__ import annotations

import random
import time

from . import normal
from .family import Decision, Observation
from .strong import Budget, Clock, _Builder, candidates, playout, sample_world
from .view import SeatView

__all__ = ["STOPS", "choose"]

#: on a tie without ``normal``'s choice among the best, these win, in this order
STOPS = ("stand", "pass", "knock")


def choose(view: SeatView, rng: random.Random, budget: Budget,
           *, clock: Clock = time.perf_counter) -> Decision:
    """The flat Monte Carlo decision for ``view.seat`` (the seat to act).

    Args:
        view: what the seat knows (``view.seat_view(deal, seat)``).
        rng: the random source of the worlds.
        budget: playouts (across candidates) and/or seconds; with neither,
            one world.
        clock: seconds on a monotonic clock (tests pass a fake one).

    Returns:
        A legal decision: ``normal.choose``'s once the deal runs long
        (``normal.late``); else the best mean over the worlds every candidate
        finished, a tie broken as the module docstring says.

    Raises:
        ValueError: not this seat's decision.
    """
    start = clock()
    obs = view.obs
    if obs.seat is None or obs.to_act != obs.seat or obs.finished:
        raise ValueError("the flat player can only decide for the seat to act")
    if normal.late(obs):
        return normal.choose(obs)
    builder = _Builder(view)
    cards = sample_world(view, rng)
    seed = rng.randrange(1 << 30)
    options = candidates(view, builder.build(cards, seed))
    if len(options) == 1:
        return options[0]
    totals = [0.0] * len(options)
    played = 0
    rounds = 0
    while True:
        values = []
        for decision in options:
            values.append(playout(builder.build(cards, seed), view.seat, decision, normal.choose))
            played += 1
        totals = [t + v for t, v in zip(totals, values, strict=True)]
        rounds += 1
        if budget.playouts is not None and played + len(options) > budget.playouts:
            break
        if budget.seconds is not None and clock() - start >= budget.seconds:
            break
        if budget.playouts is None and budget.seconds is None:
            break
        cards = sample_world(view, rng)
        seed = rng.randrange(1 << 30)
    top = max(totals)
    tied = [d for d, t in zip(options, totals, strict=True) if t == top]
    if len(tied) == 1:
        return tied[0]
    return _tie_break(obs, tied)


def _tie_break(obs: Observation, tied: list[Decision]) -> Decision:
    """``normal``'s choice if it is among ``tied``, else the first stop of
    ``STOPS`` among them, else the first of them."""
    preferred = normal.choose(obs)
    if preferred in tied:
        return preferred
    for kind in STOPS:
        for decision in tied:
            if decision.kind == kind:
                return decision
    return tied[0]
