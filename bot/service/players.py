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
from collections.abc import Callable
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor
from typing import Any, TypeVar

from ..engine import AnyDeal, Decision, coach, levels, worker
from ..engine import easy as engine_easy
from ..engine import review as engine_review
from ..engine.strong import DEFAULT_BUDGET, Budget
from ..engine.view import seat_view
from ..storage import waiting

log = logging.getLogger(__name__)

T = TypeVar("T")

#: seconds a strong decision may take, worker start-up included
DEADLINE = 5.0
#: seconds a hint may take in the worker before the coach answers here instead
HINT_DEADLINE = 0.8
#: the coach's budget when it answers here (no worker ready in time): a short search
#: of a fixed size (the same position gives the same quick hint), so the event loop is
#: held for a few tens of milliseconds; its deadline is a safety net
QUICK = Budget(playouts=60, seconds=0.06)
#: seconds one decision of a review may take in the worker (a coach's search and the
#: playouts that price the difference: about a second; docs/AI.md "Review")
JUDGE_DEADLINE = 30.0
#: the coach's search and the worlds of a review's cost when the tests decide here
#: (``rng``): small, so that a review of a whole game takes well under a second
TEST_REVIEW = Budget(playouts=40, seconds=None)
TEST_WORLDS = 6


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
        self._warm: asyncio.Future[bool] | None = None

    def warm(self) -> None:
        """Start the worker now, in the background (the bot's start): the first
        strong decision or hint then does not wait for a fresh process (which
        takes seconds). Tests with a seeded ``rng`` start none."""
        if self.rng is None and self._warm is None:
            loop = asyncio.get_running_loop()
            self._warm = asyncio.ensure_future(loop.run_in_executor(self._worker(), worker.ready))

    def ready(self) -> bool:
        """Whether the worker has started and answered."""
        warm = self._warm
        return warm is not None and warm.done() and not warm.cancelled() \
            and warm.exception() is None

    def decide_now(self, deal: AnyDeal, seat: int) -> Decision:
        """The ``easy`` decision for a member's seat the AI plays (away, gone, or
        out of time): predictable, and never spends what the member would not."""
        return engine_easy.choose(deal.observation(seat))

    async def decide(self, deal: AnyDeal, seat: int, level: str) -> Decision:
        """The decision of the AI seat ``seat`` (the seat to act) at ``level``,
        from its own view only (docs/AI.md). A strong decision is awaited through
        ``waiting.in_time``: a member's move that a strong seat answers is
        acknowledged once its answer is due (``waiting.ANSWER_WITHIN``), should
        the worker be slow (several tables' decisions queued, a fresh worker
        starting), instead of failing after Discord's 3 seconds."""
        if level != "strong":
            return levels.decide(deal, seat, level)
        view = seat_view(deal, seat)
        if self.rng is not None:
            return levels.choose(view, "strong", rng=self.rng, budget=self.budget)
        try:  # the member's interaction acknowledged if it runs late (a busy worker)
            return await waiting.in_time(self._off_loop(worker.strong, view, self.budget))
        except Exception:
            log.warning("the strong AI did not answer in time; seat %s plays normal", seat,
                        exc_info=True)
            return levels.choose(view.obs, "normal")

    async def advise(self, deal: AnyDeal, seat: int) -> coach.Advice:
        """The coach's advice for the member at ``seat`` (the seat to act), from
        that seat's view only, within about ``HINT_DEADLINE`` seconds: from the
        worker when it is ready and answers in time, else from a short search
        here (``QUICK``), so that a hint never keeps the member waiting. The
        same position gives the same hint (``coach.hint_seed``, a fixed
        playout budget: ``coach.BUDGET`` in the worker).

        Raises:
            Exception: the coach failed here too (logged by the caller).
        """
        view = seat_view(deal, seat)
        if self.rng is not None:
            return coach.advise(view, budget=self.budget, worlds=50)
        if self.ready():
            try:
                return await self._off_loop(worker.advise, view, coach.BUDGET, deadline=HINT_DEADLINE)
            except Exception:
                log.warning("the coach's worker did not answer in time; a short search instead",
                            exc_info=True)
        else:
            self.warm()  # for the next one
        return coach.advise(view, budget=QUICK, worlds=60)

    async def judge(self, moment: engine_review.Moment) -> engine_review.Judged:
        """One decision of a member's review, judged in the worker (off the event
        loop; other interactions go on), within ``JUDGE_DEADLINE`` seconds; tests
        with a seeded ``rng`` judge here, with ``TEST_REVIEW`` and ``TEST_WORLDS``.

        Raises:
            Exception: the worker failed or overran (the caller says so).
        """
        if self.rng is not None:
            return engine_review.judge(moment, TEST_REVIEW, worlds=TEST_WORLDS)
        return await self._off_loop(worker.judge, moment, deadline=JUDGE_DEADLINE)

    async def _off_loop(self, fn: Callable[..., T], *args: Any,
                        deadline: float = DEADLINE) -> T:
        """``fn(*args)`` in the worker, within ``deadline`` seconds. A worker that
        died (killed, out of memory) or overran is dropped, and the next call
        starts a fresh one."""
        loop = asyncio.get_running_loop()
        try:
            return await asyncio.wait_for(loop.run_in_executor(self._worker(), fn, *args),
                                          deadline)
        except BrokenExecutor:
            self.close()
            raise
        except TimeoutError:
            if deadline >= DEADLINE:  # stuck, not just busy: a fresh worker next time
                self.close()
            raise

    def _worker(self) -> Executor:
        if self._pool is None:
            # spawn: a clean process (the bot's threads and sockets are not copied)
            self._pool = ProcessPoolExecutor(max_workers=1,
                                             mp_context=multiprocessing.get_context("spawn"),
                                             initializer=worker.ignore_interrupts)
        return self._pool

    def close(self) -> None:
        """Stop the worker, if one was started (pending searches are dropped)."""
        if self._warm is not None:
            self._warm.cancel()
            self._warm = None
        if self._pool is not None:
            pool, self._pool = self._pool, None
            pool.shutdown(wait=False, cancel_futures=True)
