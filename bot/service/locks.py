"""A keyed asyncio lock: one lock per table id (python-discord's keyed lock); and
``InFlight``, the count of some work running now, which a clean stop waits for
(``bot.process.stopping``)."""

from __future__ import annotations

import asyncio
from collections.abc import Hashable, Iterator
from contextlib import contextmanager

from ..storage.waiting import acknowledge


class KeyedLock:
    """``async with locks(key):`` serialises work per key; different keys never wait
    for each other. Before waiting for a taken lock the running interaction is
    acknowledged (``bot.storage.waiting``). Idle locks are dropped so the map does not grow without bound."""

    def __init__(self) -> None:
        """No lock is held, and none is kept until a key is first used."""
        self._locks: dict[Hashable, asyncio.Lock] = {}
        self._users: dict[Hashable, int] = {}

    def locked(self, key: Hashable) -> bool:
        """Whether someone holds ``key``'s lock now."""
        lock = self._locks.get(key)
        return lock is not None and lock.locked()

    def __call__(self, key: Hashable) -> Held:
        """Hold ``key``'s lock for the ``async with`` block, acknowledging the
        running interaction first when the lock is taken; the lock is dropped
        once no one holds or waits for it."""
        return Held(self, key)

    def _leave(self, key: Hashable) -> None:
        """One holder or waiter of ``key``'s lock is done with it."""
        users = self._users[key] - 1
        if users:
            self._users[key] = users
        else:
            del self._users[key]
            del self._locks[key]


class Held:
    """One ``async with`` of a ``KeyedLock``'s key (``KeyedLock.__call__``): a
    plain class rather than a generator's context manager, as every move takes it."""

    __slots__ = ("_owner", "_key", "_lock")

    def __init__(self, owner: KeyedLock, key: Hashable) -> None:
        """The lock of ``key`` in ``owner``, not taken yet."""
        self._owner, self._key = owner, key

    async def __aenter__(self) -> None:
        """Wait for the lock (the interaction acknowledged first when it is taken)."""
        owner, key = self._owner, self._key
        lock = owner._locks.get(key)
        if lock is None:
            lock = owner._locks[key] = asyncio.Lock()
        owner._users[key] = owner._users.get(key, 0) + 1
        try:
            if lock.locked():  # someone else holds it: answer Discord before waiting
                await acknowledge()
            await lock.acquire()
        except BaseException:
            owner._leave(key)
            raise
        self._lock = lock

    async def __aexit__(self, *exc: object) -> None:
        """Release the lock (dropped once no one holds or waits for it)."""
        self._lock.release()
        self._owner._leave(self._key)


class InFlight:
    """How many pieces of some work (interactions, units of work, timer moves) are
    running now, and whether new ones may start: a clean stop (``bot.process.stopping``)
    closes it, then waits until ``count`` is 0.

    Attributes:
        count: pieces running now (``enter`` adds one, ``exit`` takes it away).
        closed: set by ``close``; the owner refuses new pieces from then on (the
            counter itself refuses nothing: a piece already under way may still
            ``enter`` a nested one).
    """

    def __init__(self) -> None:
        """Open, with nothing running."""
        self.count = 0
        self.closed = False
        self._idle: asyncio.Event | None = None

    def close(self) -> None:
        """No new piece should start from now on (``closed``; idempotent)."""
        self.closed = True

    def enter(self) -> None:
        """One more piece is running."""
        self.count += 1

    def exit(self) -> None:
        """One piece has ended (whether it succeeded or not)."""
        self.count -= 1
        if self.count <= 0 and self._idle is not None:
            self._idle.set()

    @contextmanager
    def track(self) -> Iterator[None]:
        """Count the ``with`` block as one piece running, however it ends."""
        self.enter()
        try:
            yield
        finally:
            self.exit()

    async def idle(self) -> None:
        """Return once no piece is running (at once when none is)."""
        while self.count > 0:
            if self._idle is None:
                self._idle = asyncio.Event()  # made on first use: on the running loop
            self._idle.clear()
            await self._idle.wait()
