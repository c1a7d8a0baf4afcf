"""Acknowledge before waiting: a hook that the Discord layer sets per interaction
and that the table locks and storage call just before they would wait.

Discord fails an interaction that gets no first answer within 3 seconds. The
cogs set ``before_wait`` (a context variable, so it belongs to the running
interaction only) to a coroutine that defers the interaction; a lock that is
taken, or a database whose write lock another connection holds, calls it
first, so the player sees "thinking…" instead of a failed interaction, and the
result (or a clear failure) follows once the wait is over. A computation of no
fixed length (a strong AI seat's decision in the worker process, which may
queue behind other tables' or wait for a fresh worker) is awaited through
``in_time``: the interaction is acknowledged once its answer is due
(``ANSWER_WITHIN`` after the hook was set), if the computation is still running.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Iterator
from contextvars import ContextVar
from typing import TypeVar

T = TypeVar("T")

#: seconds after the hook is set (the interaction reached its handler) by which an
#: interaction still waiting on a computation is acknowledged: half of Discord's 3 s,
#: which count from Discord's side, leaving the rest for the gateway and the defer
ANSWER_WITHIN = 1.5

#: what acknowledges the interaction being handled (``defer_hook``)
Hook = Callable[[], Awaitable[None]]

#: what to do before a wait: defer the interaction being handled (or nothing)
before_wait: ContextVar[Hook | None] = ContextVar(
    "before_wait", default=None)
#: the event loop's time by which the running interaction should be acknowledged
#: (``in_time``; ``None``: no interaction, or none due)
answer_by: ContextVar[float | None] = ContextVar("answer_by", default=None)


async def acknowledge() -> None:
    """Call the running interaction's hook (once; later calls do nothing)."""
    hook = before_wait.get()
    if hook is not None:
        before_wait.set(None)
        await hook()


async def in_time(work: Awaitable[T]) -> T:
    """Await ``work`` (a computation of no fixed length, e.g. a strong AI seat's
    decision in the worker); if it has not ended when the running interaction's
    answer is due (``answer_by``), acknowledge the interaction (``acknowledge``)
    and go on waiting. Outside an interaction, or once it is acknowledged, this is
    a plain ``await``. Returns what ``work`` returns; raises what it raises (a
    cancellation cancels ``work`` too)."""
    due = answer_by.get()
    if due is None or before_wait.get() is None:
        return await work
    future = asyncio.ensure_future(work)
    left = max(0.0, due - asyncio.get_running_loop().time())
    try:
        with contextlib.suppress(TimeoutError):  # ours, or the work's own: raised below
            await asyncio.wait_for(asyncio.shield(future), left)
        if not future.done():
            await acknowledge()
        return await future
    except asyncio.CancelledError:
        future.cancel()
        raise


@contextlib.contextmanager
def hook(callback: Hook, *,
         within: float | None = ANSWER_WITHIN) -> Iterator[None]:
    """Install ``callback`` as the hook for the code run inside the block, due
    ``within`` seconds from now (``in_time``; ``None``: never due)."""
    token = before_wait.set(callback)
    due = answer_by.set(None if within is None else asyncio.get_running_loop().time() + within)
    try:
        yield
    finally:
        answer_by.reset(due)
        before_wait.reset(token)
