"""The AI levels behind one entry point (docs/AI.md): ``easy`` (``easy.py``),
``normal`` (``normal.py``) and ``strong`` (``strong.py``). Kept apart from
``easy.py`` so that ``strong``, which plays ``easy`` in its playouts, imports it
without a cycle."""

from __future__ import annotations

import random

from . import normal, strong
from .easy import choose_easy
from .family import DealBase, Decision, Observation
from .strong import Budget
from .view import SeatView, seat_view

#: the AI levels, weakest first
LEVELS = ("easy", "normal", "strong")


def choose(
    seen: Observation | SeatView,
    level: str = "easy",
    *,
    rng: random.Random | None = None,
    budget: Budget | None = None,
) -> Decision:
    """Decide at ``level`` for the seat of ``seen`` (an observation, or a
    ``SeatView``: required by ``strong``), which must be the seat to act.

    Args:
        seen: what the seat sees (``deal.observation(seat)``) or knows
            (``view.seat_view(deal, seat)``).
        level: one of ``LEVELS``.
        rng: ``strong``'s random source (default: a fresh unseeded one).
        budget: ``strong``'s budget (default ``strong.DEFAULT_BUDGET``).

    Raises:
        ValueError: an unknown level, ``strong`` without a ``SeatView``, a
            public observation or not this seat's decision.
    """
    obs = seen.obs if isinstance(seen, SeatView) else seen
    if level == "easy":
        return choose_easy(obs)
    if level == "normal":
        return normal.choose(obs)
    if level == "strong":
        if not isinstance(seen, SeatView):
            raise ValueError("the strong AI needs the seat's view: view.seat_view(deal, seat)")
        return strong.choose(seen, rng, budget)
    raise ValueError(f"unknown AI level {level!r}; choose one of {', '.join(LEVELS)}")


def decide(
    deal: DealBase,
    seat: int,
    level: str = "easy",
    *,
    rng: random.Random | None = None,
    budget: Budget | None = None,
) -> Decision:
    """``choose`` for ``seat`` of ``deal`` at ``level``, from what that seat may
    see (its observation; for ``strong`` its ``seat_view``) and nothing else.

    Raises:
        ValueError: as ``choose``.
    """
    if level == "strong":
        return choose(seat_view(deal, seat), level, rng=rng, budget=budget)
    return choose(deal.observation(seat), level)
