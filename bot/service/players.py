"""AI seats and the coach (docs/AI.md): who decides for an AI seat at its level,
and the hint a member asks for.

``easy`` and ``normal`` decide in microseconds, on the event loop. ``strong`` and
the coach search for about 0.2 s (``strong.DEFAULT_BUDGET``), so they run in a
worker process, off the event loop and outside the GIL of the bot: other tables'
interactions go on while one table's AI thinks (only that table waits, under its
own lock). Each search has a deadline (``DEADLINE`` seconds); past it, or if the
worker fails, the seat plays ``normal`` instead and the failure is logged.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import random
import signal
from collections.abc import Callable
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor
from typing import Any, TypeVar

from ..engine import AnyDeal, Decision, coach, levels
from ..engine import ai as engine_ai
from ..engine.strong import DEFAULT_BUDGET, Budget
from ..engine.view import SeatView, seat_view

log = logging.getLogger(__name__)

T = TypeVar("T")

#: seconds a strong decision or a hint may take, worker start-up included
DEADLINE = 5.0


def _strong(view: SeatView, budget: Budget) -> Decision:
    """In the worker: the strong AI's decision."""
    return levels.choose(view, "strong", budget=budget)


def _advise(view: SeatView, budget: Budget) -> coach.Advice:
    """In the worker: the coach's advice."""
    return coach.advise(view, budget=budget)


def _ignore_interrupts() -> None:
    """In the worker, first: Ctrl+C in a terminal reaches the whole process group,
    the worker included. Interrupted, a search would send back a
    ``KeyboardInterrupt``, which no ``except Exception`` stops and which ends the
    bot's event loop; so the worker ignores SIGINT, and the bot stops it itself
    (``AiPlayers.close``) once the searches in flight are done."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class AiPlayers:
    """Decisions of AI seats and hints, each from one seat's view only.

    Args:
        rng: tests only: decide in this process, with this seeded source (strong
            search and the coach then use a fixed playout budget, no clock).
        budget: the strong AI's budget in the worker.
    """

    def __init__(self, rng: random.Random | None = None,
                 budget: Budget = DEFAULT_BUDGET) -> None:
        """No worker is started until the first strong decision or hint."""
        self.rng = rng
        self.budget = budget if rng is None else Budget(playouts=200, seconds=None)
        self._pool: Executor | None = None

    def decide_now(self, deal: AnyDeal, seat: int) -> Decision:
        """The ``easy`` decision for a member's seat the AI plays (away, gone, or
        out of time): predictable, and never spends what the member would not."""
        return engine_ai.choose(deal.observation(seat))

    async def decide(self, deal: AnyDeal, seat: int, level: str) -> Decision:
        """The decision of the AI seat ``seat`` (the seat to act) at ``level``,
        from its own view only (docs/AI.md)."""
        if level != "strong":
            return levels.decide(deal, seat, level)
        view = seat_view(deal, seat)
        if self.rng is not None:
            return levels.choose(view, "strong", rng=self.rng, budget=self.budget)
        try:
            return await self._off_loop(_strong, view, self.budget)
        except Exception:
            log.warning("the strong AI did not answer in time; seat %s plays normal", seat,
                        exc_info=True)
            return levels.choose(view.obs, "normal")

    async def advise(self, deal: AnyDeal, seat: int) -> coach.Advice:
        """The coach's advice for the member at ``seat`` (the seat to act), from
        that seat's view only.

        Raises:
            TimeoutError: no answer within ``DEADLINE`` seconds.
            Exception: the worker failed (logged by the caller).
        """
        view = seat_view(deal, seat)
        if self.rng is not None:
            return coach.advise(view, self.rng, self.budget, worlds=50)
        return await self._off_loop(_advise, view, self.budget)

    async def _off_loop(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in the worker, within ``DEADLINE`` seconds. A worker that
        died (killed, out of memory) or overran is dropped, and the next call
        starts a fresh one."""
        loop = asyncio.get_running_loop()
        try:
            return await asyncio.wait_for(loop.run_in_executor(self._worker(), fn, *args),
                                          DEADLINE)
        except (BrokenExecutor, TimeoutError):
            self.close()
            raise

    def _worker(self) -> Executor:
        if self._pool is None:
            # spawn: a clean process (the bot's threads and sockets are not copied)
            self._pool = ProcessPoolExecutor(max_workers=1,
                                             mp_context=multiprocessing.get_context("spawn"),
                                             initializer=_ignore_interrupts)
        return self._pool

    def close(self) -> None:
        """Stop the worker, if one was started (pending searches are dropped)."""
        if self._pool is not None:
            pool, self._pool = self._pool, None
            pool.shutdown(wait=False, cancel_futures=True)
