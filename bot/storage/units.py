"""The unit of work of both storages (``Storage`` on SQLite, ``PgStorage`` on
PostgreSQL), written once: the connection lock, the open ``atomic()`` block of
each task, its queued writes, and the ``Tx`` protocol the shared statements run
against (docs/ARCHITECTURE.md "Storage").

A unit of work (``atomic()``) does not talk to the database while it runs: each
write made inside it is queued, and at its end ONE transaction runs every queued
write and commits (or, on any error, rolls back). A read, or a write whose result
the caller needs, inside a unit first "flushes": that call opens the transaction
and runs what is queued, and the unit then holds the connection until its commit.

What differs between the drivers is theirs (``UnitOfWork``'s abstract hooks): how
one transaction is sent (SQLite: one call on aiosqlite's thread; PostgreSQL: one
asyncpg transaction, fenced by the process's claim), how a read runs alone, and
how a rolled-back unit is abandoned. A driver's *native* functions (of the raw
``sqlite3`` connection, or async functions of the asyncpg connection) are what the
queue holds; the statements shared by both are *steps*, async functions of a
``Tx``, which ``_native`` turns into the driver's native functions.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import AsyncIterator, Callable, Coroutine, Iterable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol, TypeVar, cast

from .errors import TableClosed
from .shared import OPEN_STATUSES
from .waiting import acknowledge

log = logging.getLogger(__name__)

T = TypeVar("T")
H = TypeVar("H")
C = TypeVar("C")


class Tx(Protocol):
    """The statements of one driver's connection, inside its open transaction (or a
    read): SQL written with SQLite's ``?`` placeholders (PostgreSQL's driver
    translates them); rows are read by position or by column name."""

    async def one(self, sql: str, params: Sequence[Any] = ()) -> Any:
        """The first row of ``sql``, or ``None``."""

    async def all(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        """Every row of ``sql``, in its order."""

    async def run(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run a write; returns the number of rows it touched."""

    async def many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        """Run a write once for each of ``rows`` (nothing for none)."""

    async def insert(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run an ``INSERT`` of one row; returns the ``id`` the database gave it."""


#: a statement shared by both drivers: an async function of a ``Tx``
Step = Callable[[Tx], Coroutine[Any, Any, T]]
#: a driver's native function: an async function of its raw connection ``C`` (on
#: SQLite, run on aiosqlite's thread by ``drive``: it may not suspend)
Native = Callable[[C], Coroutine[Any, Any, T]]


def drive(coro: Coroutine[Any, Any, T]) -> T:
    """Run ``coro`` to its end here and now, without an event loop: for SQLite's
    steps on aiosqlite's thread, whose ``Tx`` is synchronous underneath, so no
    ``await`` of theirs ever suspends. Raises RuntimeError (the coroutine closed)
    if one does; any error of the step itself is raised as it is."""
    try:
        coro.send(None)
    except StopIteration as done:
        return cast(T, done.value)
    coro.close()
    raise RuntimeError("a storage step waited on something other than its Tx")


#: work done while a unit commits (``UnitOfWork.while_committing``): synchronous work on
#: the event loop, called with no argument
Meanwhile = Callable[[], object]


def _run_all(fns: list[Meanwhile]) -> None:
    """Call each of ``fns`` (``UnitOfWork.while_committing``), logging an error."""
    for fn in fns:
        try:
            fn()
        except Exception:
            log.exception("work done while a unit committed failed; it is left out")


class Statements:
    """The base of the shared statements' mixins (``Tables``, ``Games``,
    ``Ledger``): what they use of ``UnitOfWork``, declared once for the type
    checker (``UnitOfWork`` comes first among a storage's bases)."""

    if TYPE_CHECKING:
        def _read(self) -> AbstractAsyncContextManager[Any]: ...

        def _write(self) -> AbstractAsyncContextManager[Tx]: ...

        @staticmethod
        def _loop_tx(conn: Any) -> Tx: ...

        async def _step_read(self, step: Step[T]) -> T: ...

        async def _step_later(self, step: Step[object]) -> None: ...

        async def _step_now(self, step: Step[T]) -> T: ...

        async def _step_rows(self, key: object, row: Sequence[Any],
                             step: Callable[[list[Sequence[Any]]], Step[object]]) -> None: ...


class UnitFailed(RuntimeError):
    """A storage call inside a unit of work whose transaction already failed (and
    was rolled back): nothing of the unit will be written."""


@dataclasses.dataclass(eq=False)
class Unit(Generic[H]):
    """An open ``atomic()`` block: its queued native writes, whether it holds the
    connection lock, its open transaction (``tx``: the driver's handle, ``None``
    until it flushed), whether that transaction failed, and the work to do on the
    event loop while its commit is on the database's side (``while_committing``)."""

    pending: list[Any] = dataclasses.field(default_factory=list)
    locked: bool = False
    tx: H | None = None
    failed: bool = False
    meanwhile: list[Meanwhile] = dataclasses.field(default_factory=list)
    #: the write ``UnitOfWork._step_rows`` queued last: its key, native function and
    #: rows (which more rows join while it is still the last one queued)
    tail: tuple[object, Any, list[Sequence[Any]]] | None = None

    @property
    def begun(self) -> bool:
        """The unit's transaction is open (it flushed)."""
        return self.tx is not None


class UnitOfWork(Generic[H, C]):
    """The transactions of a storage: one connection, one lock (every public
    coroutine holds it for its whole run, so the statements of one call never
    interleave with another coroutine's), and a unit of work per task inside
    ``atomic()``. ``H``: the driver's handle on an open transaction; ``C``: its raw
    connection, which native functions (``Native``) are given."""

    #: ``" FOR SHARE"`` where the driver locks the row ``require_open`` reads
    FOR_SHARE: ClassVar[str] = ""

    def __init__(self) -> None:
        """The lock and the (no) open units; the driver sets up its connection."""
        self._lock = asyncio.Lock()
        #: the open unit of work (``atomic()``) of each task inside one
        self._units: dict[asyncio.Task[Any], Unit[H]] = {}
        #: calls sent to the database so far (benchmarks and tests count them)
        self.round_trips = 0

    # ------------------------------------------------------------ the driver's part

    async def _transaction(self, unit: Unit[H] | None, fn: Native[C, T] | None, *,
                           commit: bool) -> T | None:
        """Send one transaction (or, for a unit that has begun, more of it): the
        unit's queued writes, the native ``fn`` (``None``: nothing more), then the
        commit when ``commit``; rolled back on any error, which is raised. Sets
        ``unit.tx`` and empties ``unit.pending``. The caller holds the lock."""
        raise NotImplementedError

    async def _call(self, fn: Native[C, T], *, alone: bool) -> T:
        """Run the native read ``fn``: ``alone`` holding the lock outside any unit,
        else inside the running unit's flushed transaction."""
        raise NotImplementedError

    async def _abandon_unit(self, unit: Unit[H]) -> None:
        """Roll back the open transaction of ``unit``, which failed in its block."""
        raise NotImplementedError

    def _reading(self) -> AbstractAsyncContextManager[Any]:
        """The driver's async connection for reads outside a unit (the lock held)."""
        raise NotImplementedError

    def _native_db(self) -> Any:
        """The driver's async connection, inside a flushed unit."""
        raise NotImplementedError

    @staticmethod
    def _raw_tx(conn: C) -> Tx:
        """The ``Tx`` over the raw connection a native function is given."""
        raise NotImplementedError

    @staticmethod
    def _loop_tx(conn: Any) -> Tx:
        """The ``Tx`` over the driver's async connection (the one ``_read`` yields)."""
        raise NotImplementedError

    # ------------------------------------------------------------ units

    def _unit(self) -> Unit[H] | None:
        """The unit of work the running task has open, if any."""
        task = asyncio.current_task()
        return None if task is None else self._units.get(task)

    async def _acquire(self) -> None:
        """Take the connection lock, acknowledging the interaction first if taken."""
        if self._lock.locked():
            await acknowledge()
        await self._lock.acquire()

    async def _hold(self, unit: Unit[H]) -> None:
        """Take the connection lock for ``unit`` (kept until its end)."""
        if not unit.locked:
            await self._acquire()
            unit.locked = True

    async def _flush(self, unit: Unit[H]) -> None:
        """Open the unit's transaction (taking the lock) and run what it queued."""
        await self._hold(unit)
        if not unit.begun or unit.pending:
            await self._transaction(unit, None, commit=False)

    async def _read_now(self, fn: Native[C, T]) -> T:
        """A native read: inside a unit it sees the unit's writes (flushed first)."""
        unit = self._unit()
        if unit is not None:
            await self._flush(unit)
            return await self._call(fn, alone=False)
        await self._acquire()
        try:
            return await self._call(fn, alone=True)
        finally:
            self._lock.release()

    async def _write_later(self, fn: Native[C, object]) -> None:
        """A native write whose result nobody needs: queued in the running unit (run
        at its commit, in order), or its own transaction outside any unit."""
        unit = self._unit()
        if unit is None:
            await self._write_now(fn)
            return
        if unit.failed:
            raise UnitFailed("this unit of work already failed; nothing of it is kept")
        unit.pending.append(fn)

    async def _write_now(self, fn: Native[C, T]) -> T:
        """A native write whose result the caller needs: run now, in the running
        unit's transaction (after what it queued, in the same call) or in its own."""
        unit = self._unit()
        if unit is not None:
            await self._hold(unit)
            return cast(T, await self._transaction(unit, fn, commit=False))
        await self._acquire()
        try:
            return cast(T, await self._transaction(None, fn, commit=True))
        finally:
            self._lock.release()

    def _native(self, step: Step[T]) -> Native[C, T]:
        """The native function that runs ``step`` on the driver's raw connection."""
        def native(conn: C) -> Coroutine[Any, Any, T]:
            return step(self._raw_tx(conn))
        return native

    async def _step_read(self, step: Step[T]) -> T:
        """``step`` as one read (``_read_now``)."""
        return await self._read_now(self._native(step))

    async def _step_later(self, step: Step[object]) -> None:
        """``step`` as a write whose result nobody needs (``_write_later``)."""
        await self._write_later(self._native(step))

    async def _step_now(self, step: Step[T]) -> T:
        """``step`` as a write whose result the caller needs (``_write_now``)."""
        return await self._write_now(self._native(step))

    async def _step_rows(self, key: object, row: Sequence[Any],
                         step: Callable[[list[Sequence[Any]]], Step[object]]) -> None:
        """Queue ``step(rows)`` with ``rows = [row]`` (``_step_later``); a next call
        with the same ``key`` in the same unit, while that write is still the last
        one queued and unsent, adds its row to those rows instead: consecutive rows
        of one kind (a move's actions and its AI's answers) go in one write, in the
        order they came, and any other write queued in between starts a new one."""
        unit = self._unit()
        tail = None if unit is None else unit.tail
        if (unit is not None and tail is not None and not unit.failed and tail[0] == key
                and unit.pending and unit.pending[-1] is tail[1]):
            tail[2].append(row)
            return
        rows: list[Sequence[Any]] = [row]
        native = self._native(step(rows))
        await self._write_later(native)
        if unit is not None and unit.pending and unit.pending[-1] is native:
            unit.tail = (key, native, rows)

    async def ping(self) -> None:
        """Ask the database a trivial question (``SELECT 1``) and return once it
        answered (``bot.process.health``); it waits its turn on the connection.

        Raises:
            sqlite3.Error (SQLite); asyncpg.PostgresError, asyncpg.InterfaceError
                or OSError (PostgreSQL): the database did not answer.
            RuntimeError: the storage is closed.
        """
        async def ask(tx: Tx) -> None:
            await tx.one("SELECT 1")
        await self._step_read(ask)

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[Any]:
        """The driver's async connection for several reads in a row (inside a unit:
        after flushing it, so they see its writes)."""
        unit = self._unit()
        if unit is not None:
            await self._flush(unit)
            yield self._native_db()
            return
        await self._acquire()
        try:
            async with self._reading() as db:
                yield db
        finally:
            self._lock.release()

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[Tx]:
        """A ``Tx`` inside an open transaction: the running unit's (flushed) or a
        unit of its own, committed when the block ends."""
        async with self.atomic():
            unit = self._unit()
            assert unit is not None
            await self._flush(unit)
            yield self._loop_tx(self._native_db())

    @asynccontextmanager
    async def atomic(self) -> AsyncIterator[None]:
        """One unit of work: every storage call the running task makes inside the
        block is committed together in one transaction, or (on any error, a failed
        commit included) none is. Writes are queued and sent in one transaction at
        the end; a block that wrote nothing touches nothing. Nested blocks join the
        outer one.

        Raises:
            sqlite3.Error (SQLite), asyncpg.PostgresError or asyncpg.InterfaceError
                (PostgreSQL): the transaction could not begin (e.g. another
                connection's lock still held after ``BUSY_WAIT``), failed, or could
                not commit; nothing was written.
            TableClosed: a ``require_open`` check failed; nothing was written.
        """
        if self._unit() is not None:
            yield
            return
        task = asyncio.current_task()
        assert task is not None
        unit = self._units[task] = Unit[H]()
        try:
            try:
                yield
            except BaseException:
                if unit.begun:
                    await self._abandon_unit(unit)
                raise
            if unit.begun or unit.pending:
                await self._hold(unit)
                if unit.meanwhile:  # runs once the commit is handed over (its first wait)
                    asyncio.get_running_loop().call_soon(_run_all, unit.meanwhile)
                await self._transaction(unit, None, commit=True)
            else:
                _run_all(unit.meanwhile)  # nothing to commit: at once
        finally:
            del self._units[task]
            if unit.locked:
                self._lock.release()

    def while_committing(self, fn: Meanwhile) -> None:
        """Run ``fn()`` (synchronous work on the event loop, e.g. drawing what the
        answer will show) while the running unit's commit is on the database's
        side: on SQLite, once its one call is handed to aiosqlite's thread, which
        then runs the unit's statements and commits (fsync included) while the
        loop runs ``fn``; ``fn`` has run before the unit's block ends. ``fn``
        runs before the commit is known to have succeeded, so it must change
        nothing that lasts: what it makes is for the caller to use once the unit
        has committed, and to drop otherwise. It runs in the running task's
        context (its language, say), at once when the unit has nothing to
        commit, never when the unit's block fails, and at once outside any unit.
        An error of ``fn`` is logged and leaves the unit alone."""
        unit = self._unit()
        if unit is None:
            _run_all([fn])
        else:
            unit.meanwhile.append(fn)

    async def require_open(self, table_id: int) -> None:
        """Inside a unit: its commit first checks that the table is still open
        (``lobby`` or ``playing``; on PostgreSQL holding its row until the commit),
        else raises ``TableClosed`` and writes nothing."""
        async def check(tx: Tx) -> None:
            row = await tx.one("SELECT status FROM tables WHERE id = ?" + self.FOR_SHARE,
                               (table_id,))
            if row is None or row[0] not in OPEN_STATUSES:
                raise TableClosed(table_id)
        await self._step_later(check)

    @classmethod
    async def _one(cls, db: Any, sql: str, params: Iterable[Any] = ()) -> Any:
        """The first row of ``sql`` on ``db`` (a connection ``_read`` yielded), or None."""
        return await cls._loop_tx(db).one(sql, tuple(params))

    @classmethod
    async def _all(cls, db: Any, sql: str, params: Iterable[Any] = ()) -> list[Any]:
        """Every row of ``sql`` on ``db`` (a connection ``_read`` yielded)."""
        return await cls._loop_tx(db).all(sql, tuple(params))
