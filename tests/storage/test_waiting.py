"""Acknowledging an interaction before a wait (``bot.storage.waiting``): a
computation of no fixed length awaited through ``in_time`` acknowledges the
running interaction once its answer is due, once, and changes nothing of what
the computation returns or raises."""

from __future__ import annotations

import asyncio

import pytest

from bot.storage import waiting


def counter() -> tuple[list[float], waiting.Hook]:
    """A hook that notes the loop time of each call."""
    calls: list[float] = []

    async def hook() -> None:
        calls.append(asyncio.get_running_loop().time())
    return calls, hook


async def slow(seconds: float, value: object = "done") -> object:
    await asyncio.sleep(seconds)
    return value


async def test_a_computation_running_past_the_due_time_acknowledges_once_then_ends():
    calls, hook = counter()
    loop = asyncio.get_running_loop()
    with waiting.hook(hook, within=0.05):
        start = loop.time()
        assert await waiting.in_time(slow(0.2)) == "done"
        assert await waiting.in_time(slow(0.1, 7)) == 7  # acknowledged already
    assert len(calls) == 1
    assert 0.05 <= calls[0] - start < 0.2  # at the due time, before the end


async def test_a_computation_ending_in_time_acknowledges_nothing():
    calls, hook = counter()
    with waiting.hook(hook, within=1.0):
        assert await waiting.in_time(slow(0.01)) == "done"
    assert calls == []


async def test_outside_an_interaction_or_never_due_it_is_a_plain_wait():
    calls, hook = counter()
    assert await waiting.in_time(slow(0.01)) == "done"  # no hook at all
    with waiting.hook(hook, within=None):
        assert await waiting.in_time(slow(0.05)) == "done"
    assert calls == []


async def test_the_computations_error_is_raised_as_it_is():
    calls, hook = counter()

    async def failing(after: float) -> None:
        await asyncio.sleep(after)
        raise TimeoutError("the worker overran")

    with waiting.hook(hook, within=0.2):
        with pytest.raises(TimeoutError, match="overran"):  # its own, before the due time
            await waiting.in_time(failing(0.01))
        assert calls == []
    with waiting.hook(hook, within=0.02):
        with pytest.raises(TimeoutError, match="overran"):  # after being acknowledged
            await waiting.in_time(failing(0.1))
    assert len(calls) == 1


async def test_cancelling_the_wait_cancels_the_computation():
    calls, hook = counter()
    started, ended = asyncio.Event(), []

    async def long() -> None:
        started.set()
        try:
            await asyncio.sleep(10)
        finally:
            ended.append("cancelled")

    with waiting.hook(hook, within=5.0):
        task = asyncio.ensure_future(waiting.in_time(long()))
        await started.wait()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
    await asyncio.sleep(0)
    assert ended == ["cancelled"] and calls == []
