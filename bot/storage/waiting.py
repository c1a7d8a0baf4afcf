"""Acknowledge before waiting: a hook that the Discord layer sets per interaction
and that the table locks and storage call just before they would wait.

Discord fails an interaction that gets no first answer within 3 seconds. The
cogs set ``before_wait`` (a context variable, so it belongs to the running
interaction only) to a coroutine that defers the interaction; a lock that is
taken, or a database whose write lock another connection holds, calls it
first, so the player sees "thinking…" instead of a failed interaction, and the
result (or a clear failure) follows once the wait is over.
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable, Iterator
from contextvars import ContextVar

#: what to do before a wait: defer the interaction being handled (or nothing)
before_wait: ContextVar[Callable[[], Awaitable[None]] | None] = ContextVar(
    "before_wait", default=None)


async def acknowledge() -> None:
    """Call the running interaction's hook (once; later calls do nothing)."""
    hook = before_wait.get()
    if hook is not None:
        before_wait.set(None)
        await hook()


@contextlib.contextmanager
def hook(callback: Callable[[], Awaitable[None]]) -> Iterator[None]:
    """Install ``callback`` as the hook for the code run inside the block."""
    token = before_wait.set(callback)
    try:
        yield
    finally:
        before_wait.reset(token)
