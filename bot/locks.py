"""A keyed asyncio lock: one lock per table id (python-discord's keyed lock)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Hashable
from contextlib import asynccontextmanager

from .waiting import acknowledge


class KeyedLock:
    """``async with locks(key):`` serialises work per key; different keys never wait
    for each other. Before waiting for a taken lock the running interaction is
    acknowledged (``bot.waiting``). Idle locks are dropped so the map does not grow without bound."""

    def __init__(self) -> None:
        """No lock is held, and none is kept until a key is first used."""
        self._locks: dict[Hashable, asyncio.Lock] = {}
        self._users: dict[Hashable, int] = {}

    def locked(self, key: Hashable) -> bool:
        """Whether someone holds ``key``'s lock now."""
        lock = self._locks.get(key)
        return lock is not None and lock.locked()

    @asynccontextmanager
    async def __call__(self, key: Hashable) -> AsyncIterator[None]:
        """Hold ``key``'s lock for the ``async with`` block, acknowledging the
        running interaction first when the lock is taken; the lock is dropped
        once no one holds or waits for it."""
        lock = self._locks.setdefault(key, asyncio.Lock())
        self._users[key] = self._users.get(key, 0) + 1
        try:
            if lock.locked():  # someone else holds it: answer Discord before waiting
                await acknowledge()
            async with lock:
                yield
        finally:
            self._users[key] -= 1
            if not self._users[key]:
                del self._users[key]
                del self._locks[key]
