"""The ``Storage`` repository on SQLite: one aiosqlite connection, one lock,
explicit transactions.

What is SQLite's alone lives here: opening the file (its lock, checks,
migrations and a probe write), and how a transaction is sent: every write runs
in its own ``BEGIN IMMEDIATE … COMMIT`` (rolled back on any error), and a unit of
work's queued writes go in ONE call on aiosqlite's worker thread. The statements
are shared with ``PgStorage`` (``tables.py``, ``games.py``, ``ledger.py``,
``shared.py``, ``reports.py``) and so is the unit of work (``units.py``).
"""

from __future__ import annotations

import asyncio
import errno
import fcntl
import os
import re
import shutil
import sqlite3
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from .daily import DailyDeals
from .errors import (
    CorruptDatabase,
    DatabaseInUse,
    DatabaseNotWritable,
    DatabaseUnavailable,
    TableClosed,
)
from .games import Games
from .ledger import Ledger
from .members import Members
from .ratings import Ratings
from .reports import Reports
from .reviews import Reviews
from .shared import TableUpdates, check_shards, utc_now
from .tables import TABLE_MODES, Tables
from .units import Native, Unit, UnitOfWork, drive
from .waiting import acknowledge

MIGRATIONS_DIR = Path(__file__).with_name("migrations")
_MIGRATION_NAME = re.compile(r"^(\d{4})_(\w+)\.sql$")
_SQLITE_HEADER = b"SQLite format 3\x00"

#: seconds a write waits for another connection's write lock before it gives up
BUSY_WAIT = 5.0

#: ``Storage.open`` refuses a database whose folder has less free space than this
#: (1 MiB): a start that fails at once beats a game that fails at its next write
MIN_FREE_BYTES = 1 << 20

T = TypeVar("T")

__all__ = ["BUSY_WAIT", "MIGRATIONS_DIR", "MIN_FREE_BYTES", "TABLE_MODES", "CorruptDatabase",
           "DatabaseInUse", "DatabaseNotWritable", "DatabaseUnavailable", "Storage",
           "TableClosed", "lock_path"]


def lock_path(path: Path) -> Path:
    """The lock file beside the database (``commerce.db`` → ``commerce.db.lock``)."""
    return path.with_name(path.name + ".lock")


def _take_lock(path: Path) -> int:
    """An exclusive ``flock`` on the database's lock file, as an open descriptor
    (closing it releases the lock, and so does the death of the process).
    ``flock`` rather than POSIX record locks: two descriptors of one process
    conflict too, so a second ``Storage`` on the same file in the same process
    is refused like a second process. Writes our pid into the file (best effort).

    Raises:
        DatabaseInUse: another holder has it; the message carries its pid.
        DatabaseNotWritable: the lock file cannot be created (read-only folder).
    """
    target = lock_path(path)
    try:
        fd = os.open(target, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    except OSError as exc:
        if exc.errno not in (errno.EACCES, errno.EPERM, errno.EROFS):
            raise
        try:  # an existing lock file we may not write can still be locked
            fd = os.open(target, os.O_RDONLY | os.O_CLOEXEC)
        except OSError:
            cause = ("read-only file system" if exc.errno == errno.EROFS
                     else f"read-only folder: cannot create {target.name}")
            raise DatabaseNotWritable(
                f"{path} cannot be written ({cause}): fix the permissions of {path.parent}"
            ) from exc
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
        os.close(fd)
        pid = f"pid {holder}" if holder.isdigit() else "pid unknown"
        if holder == str(os.getpid()):
            raise DatabaseInUse(
                f"{path} is already open in this process ({pid}); close it first"
            ) from None
        raise DatabaseInUse(
            f"{path} is in use by another Commerce process ({pid}); stop it first"
        ) from None
    except BaseException:
        os.close(fd)
        raise
    try:  # the pid only makes the refusal clearer: a full disk must not stop us here
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
    except OSError:
        pass
    return fd


def _check_free_space(path: Path) -> None:
    """Raise DatabaseNotWritable when the database's folder has less than
    ``MIN_FREE_BYTES`` free."""
    free = shutil.disk_usage(path.parent).free
    if free < MIN_FREE_BYTES:
        raise DatabaseNotWritable(
            f"{path} cannot be written (disk full: {free // 1024} KiB free, "
            f"at least {MIN_FREE_BYTES // 1024} KiB needed): free some space on that disk"
        )


def _not_writable(path: Path, exc: sqlite3.Error) -> DatabaseNotWritable | None:
    """The one-line DatabaseNotWritable for an SQLite error that means the file
    cannot be written; None for any other error."""
    name = getattr(exc, "sqlite_errorname", "") or ""
    if name == "SQLITE_READONLY_DIRECTORY" or name.startswith("SQLITE_CANTOPEN"):
        cause, fix = ("read-only folder: SQLite cannot create its -wal and -shm files",
                      f"fix the permissions of {path.parent}")
    elif name.startswith("SQLITE_READONLY"):
        cause, fix = "read-only file", "fix its permissions"
    elif name.startswith("SQLITE_FULL"):
        cause, fix = "disk or database full", "free some space on that disk"
    elif name.startswith("SQLITE_IOERR"):
        cause, fix = f"disk I/O error, {name}", "check the disk"
    elif name.startswith(("SQLITE_PERM", "SQLITE_AUTH")):
        cause, fix = "permission denied", "fix its permissions"
    else:
        return None
    return DatabaseNotWritable(f"{path} cannot be written ({cause}): {fix}")


def _migrations(folder: Path | None = None) -> list[tuple[int, str, str]]:
    """``[(version, name, sql)]`` from ``folder/NNNN_name.sql``, by version
    (``MIGRATIONS_DIR`` by default; ``pg_migrate`` renders them for PostgreSQL).

    Raises:
        RuntimeError: a file named otherwise, or two files with one number.
    """
    found: dict[int, tuple[int, str, str]] = {}
    for path in (MIGRATIONS_DIR if folder is None else folder).glob("*.sql"):
        match = _MIGRATION_NAME.match(path.name)
        if match is None:
            raise RuntimeError(f"badly named migration {path.name} (want NNNN_name.sql)")
        version = int(match[1])
        if version in found:
            raise RuntimeError(f"two migrations numbered {version:04d}")
        found[version] = (version, match[2], path.read_text(encoding="utf-8"))
    return [found[v] for v in sorted(found)]


class ThreadTx:
    """``Tx`` on the raw ``sqlite3`` connection, on aiosqlite's thread: its
    coroutines never suspend (``units.drive`` runs the steps that use it)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        """``conn``: the raw connection, used on its own thread only."""
        self.conn = conn

    async def one(self, sql: str, params: Sequence[Any] = ()) -> Any:
        """The first row, or None."""
        return self.conn.execute(sql, tuple(params)).fetchone()

    async def all(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        """Every row."""
        return self.conn.execute(sql, tuple(params)).fetchall()

    async def run(self, sql: str, params: Sequence[Any] = ()) -> int:
        """The rows the write touched."""
        return self.conn.execute(sql, tuple(params)).rowcount

    async def many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        """The write once per row."""
        self.conn.executemany(sql, rows)

    async def insert(self, sql: str, params: Sequence[Any] = ()) -> int:
        """The new row's id (``lastrowid``)."""
        return int(self.conn.execute(sql, tuple(params)).lastrowid or 0)


class LoopTx:
    """``Tx`` on the aiosqlite connection, from the event loop (each statement one
    call on its thread)."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        """``conn``: the storage's aiosqlite connection."""
        self.conn = conn

    async def one(self, sql: str, params: Sequence[Any] = ()) -> Any:
        """The first row, or None."""
        async with self.conn.execute(sql, tuple(params)) as cursor:
            return await cursor.fetchone()

    async def all(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        """Every row."""
        async with self.conn.execute(sql, tuple(params)) as cursor:
            return list(await cursor.fetchall())

    async def run(self, sql: str, params: Sequence[Any] = ()) -> int:
        """The rows the write touched."""
        async with self.conn.execute(sql, tuple(params)) as cursor:
            return cursor.rowcount

    async def many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        """The write once per row."""
        await self.conn.executemany(sql, rows)

    async def insert(self, sql: str, params: Sequence[Any] = ()) -> int:
        """The new row's id (``lastrowid``)."""
        async with self.conn.execute(sql, tuple(params)) as cursor:
            return int(cursor.lastrowid or 0)


class _Busy(Exception):
    """``BEGIN IMMEDIATE`` failed (its cause): nothing of the call ran."""


def _batch(conn: sqlite3.Connection, begun: bool,
           pending: list[Native[sqlite3.Connection, object]],
           fn: Native[sqlite3.Connection, T] | None,
           commit: Callable[[sqlite3.Connection], None] | None) -> T | None:
    """On the database thread: ``BEGIN IMMEDIATE`` (unless ``begun``), the
    ``pending`` writes, ``fn``, then ``commit``; rolled back on any error.
    Raises ``_Busy`` when the transaction could not begin."""
    if not begun:
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            raise _Busy(exc) from exc
    try:
        for write in pending:
            drive(write(conn))
        result = None if fn is None else drive(fn(conn))
        if commit is not None:
            commit(conn)
    except BaseException:
        _rollback(conn)
        raise
    return result


def _rollback(conn: sqlite3.Connection) -> None:
    if conn.in_transaction:
        conn.execute("ROLLBACK")


class Storage(UnitOfWork[bool, sqlite3.Connection], Tables, TableUpdates, Games, Ledger,
              Reports, Ratings, Reviews, DailyDeals, Members):
    """All persistence on SQLite. Every public coroutine is its own transaction
    unless noted (``atomic()``: ``units.UnitOfWork``); a duplicate or a write the
    schema's triggers refuse raises ``sqlite3.IntegrityError``, a failed write
    another ``sqlite3.Error``."""

    def __init__(self, db: aiosqlite.Connection, path: Path, lock_fd: int | None = None) -> None:
        """Use ``Storage.open``; this only wraps an already prepared connection
        (and the descriptor holding the file's lock, released by ``close``)."""
        super().__init__()
        self._db: aiosqlite.Connection | None = db
        self._lock_fd = lock_fd
        self.path = path
        #: the shards claimed (``claim_shards``), and how many claims were made or
        #: lost (with SQLite, never: the file's lock holds them; ``bot.process.health``)
        self._claimed: tuple[int, ...] = ()
        self.claims_made = self.claims_lost = 0

    # ------------------------------------------------------------------ lifecycle

    @classmethod
    async def open(cls, path: str | Path) -> Storage:
        """Open (creating parent dirs and file), set WAL + foreign keys, apply
        numbered migrations from ``migrations/NNNN_name.sql`` in one transaction
        each (idempotent: a ``schema_version`` table).

        One writer per file: the first thing taken is an exclusive ``flock`` on
        ``<name>.lock`` beside the database, held until ``close`` (or the death of
        the process); a second ``Storage`` on the same file, in this process or
        another, raises ``DatabaseInUse``.

        Before anything is written, an existing file must start with the SQLite
        header, pass ``PRAGMA quick_check``, and be either empty or a Commerce
        database whose ``schema_version`` this code knows; otherwise
        ``CorruptDatabase`` is raised and the file is left untouched. Its folder
        must have ``MIN_FREE_BYTES`` free, and after the migrations a real write
        (``PRAGMA user_version`` set again to its value, which rewrites page 1)
        must commit; otherwise ``DatabaseNotWritable`` is raised (read-only file
        or folder, full disk, I/O error). All three are ``DatabaseUnavailable``
        with a one-line message naming the file.
        """
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        lock_fd = _take_lock(path)
        try:
            db = await cls._connect(path)
        except BaseException:
            os.close(lock_fd)
            raise
        return cls(db, path, lock_fd)

    @classmethod
    async def _connect(cls, path: Path) -> aiosqlite.Connection:
        """``open`` once the lock is held: check, migrate, prove a write."""
        if path.exists() and path.stat().st_size > 0:
            with path.open("rb") as handle:
                header = handle.read(len(_SQLITE_HEADER))
            if header != _SQLITE_HEADER:
                raise CorruptDatabase(
                    f"{path} is not an SQLite database (bad header); "
                    "it was left untouched: move it aside or restore a backup"
                )
        _check_free_space(path)
        migrations = _migrations()
        db = await aiosqlite.connect(path, isolation_level=None)
        try:
            db.row_factory = aiosqlite.Row
            current = await cls._check(db, path, migrations)
            try:
                await cls._prepare(db, current, migrations)
            except sqlite3.Error as exc:
                name = getattr(exc, "sqlite_errorname", "") or ""
                if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
                    raise DatabaseInUse(
                        f"{path} is locked by another program ({exc}); close it first"
                    ) from exc
                refusal = _not_writable(path, exc)
                if refusal is None:
                    raise
                raise refusal from exc
        except BaseException:
            await db.close()
            raise
        return db

    @classmethod
    async def _prepare(
        cls, db: aiosqlite.Connection, current: int, migrations: list[tuple[int, str, str]],
    ) -> None:
        """Pragmas, migrations, then a write that must really reach the file."""
        # a short busy timeout while opening; see the end of this method
        for pragma in ("journal_mode=WAL", "foreign_keys=ON", "busy_timeout=100"):
            async with db.execute(f"PRAGMA {pragma}") as cursor:
                await cursor.fetchall()
        await cls._migrate(db, current, migrations)
        await cls._probe_write(db)
        # from here on a write lock held elsewhere is seen at once, so the running
        # interaction is acknowledged before any wait (``_begin``); WAL readers
        # never wait for writers
        async with db.execute("PRAGMA busy_timeout=0") as cursor:
            await cursor.fetchall()

    @staticmethod
    async def _probe_write(db: aiosqlite.Connection) -> None:
        """Commit a write that changes nothing: ``PRAGMA user_version`` set to its
        own value still rewrites page 1 (one WAL frame, and ``data_version``
        changes for other connections), so a read-only file, folder or disk
        fails here, at start, rather than at the first move of a game. Waits up
        to ``BUSY_WAIT`` seconds for another connection's write lock."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + BUSY_WAIT
        while True:
            try:
                await db.execute("BEGIN IMMEDIATE")
                break
            except sqlite3.OperationalError as exc:
                busy = (getattr(exc, "sqlite_errorname", "") or "").startswith("SQLITE_BUSY")
                if not busy or loop.time() >= deadline:
                    raise
            await asyncio.sleep(0.05)
        try:
            async with db.execute("PRAGMA user_version") as cursor:
                (version,) = await cursor.fetchone() or (0,)
            await db.execute(f"PRAGMA user_version = {int(version)}")
            await db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                await db.execute("ROLLBACK")
            raise

    @staticmethod
    async def _check(
        db: aiosqlite.Connection, path: Path, migrations: list[tuple[int, str, str]],
    ) -> int:
        """Read-only checks; returns the schema version (0 for an empty database)."""
        try:
            async with db.execute("PRAGMA quick_check") as cursor:
                problems = [row[0] for row in await cursor.fetchall()]
            if problems != ["ok"]:
                raise CorruptDatabase(
                    f"{path} failed PRAGMA quick_check ({'; '.join(problems[:3])}); "
                    "it was left untouched: restore a backup"
                )
            async with db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            ) as cursor:
                names = {row[0] for row in await cursor.fetchall()}
            if not names:
                return 0
            if "schema_version" not in names:
                raise CorruptDatabase(
                    f"{path} is an SQLite database but not a Commerce one (no schema_version); "
                    "it was left untouched"
                )
            async with db.execute("SELECT COALESCE(MAX(version), 0) FROM schema_version") as cur:
                (version,) = await cur.fetchone() or (0,)
        except sqlite3.DatabaseError as exc:
            name = getattr(exc, "sqlite_errorname", "") or ""
            # reading a WAL database creates its -shm (and -wal) files: failing to is
            # a read-only folder or a full disk, not a damaged file
            if name.startswith(("SQLITE_CANTOPEN", "SQLITE_READONLY", "SQLITE_FULL",
                                "SQLITE_IOERR_SHM")):
                raise _not_writable(path, exc) or CorruptDatabase(str(exc)) from exc
            raise CorruptDatabase(
                f"{path} cannot be read as SQLite ({exc}); it was left untouched"
            ) from exc
        known = migrations[-1][0] if migrations else 0
        if version > known:
            raise CorruptDatabase(
                f"{path} has schema version {version}, newer than this bot knows ({known}); "
                "upgrade the bot. The file was left untouched"
            )
        return int(version)

    @staticmethod
    async def _migrate(
        db: aiosqlite.Connection, current: int, migrations: list[tuple[int, str, str]],
    ) -> None:
        """Apply every migration above ``current``, each with its version row in one transaction."""
        for version, name, sql in migrations:
            if version <= current:
                continue
            script = (
                "BEGIN IMMEDIATE;\n"
                "CREATE TABLE IF NOT EXISTS schema_version (\n"
                "    version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL);\n"
                f"{sql}\n;\n"
                f"INSERT INTO schema_version (version, name, applied_at) "
                f"VALUES ({version}, '{name}', '{utc_now()}');\n"
                "COMMIT;"
            )
            try:
                await db.executescript(script)
            except BaseException:
                if db.in_transaction:
                    await db.execute("ROLLBACK")
                raise

    async def close(self) -> None:
        """Close the connection, then release the file's lock (idempotent)."""
        try:
            if self._db is not None:
                db, self._db = self._db, None
                async with self._lock:
                    await db.close()
        finally:
            if self._lock_fd is not None:
                fd, self._lock_fd = self._lock_fd, None
                os.close(fd)

    async def claim_shards(self, shard_ids: Sequence[int], shard_count: int, *,
                           on_lost: Callable[[str], None] | None = None) -> None:
        """Serve the guilds of these shards: with SQLite nothing more than the
        file's lock, which already keeps every other process out (one writer per
        file) and is held by an open file, so it is never lost (``on_lost`` is
        never called). Raises ValueError for bad shards (``check_shards``)."""
        self._claimed = check_shards(shard_ids, shard_count)
        self.claims_made += 1

    def held_shards(self) -> tuple[int, ...]:
        """The shards this storage holds now, sorted (``()`` once closed)."""
        return self._claimed if self._db is not None else ()

    # ------------------------------------------------------------------ transactions
    #
    # The unit of work is ``units.UnitOfWork``; here is how SQLite sends one: a
    # native function is one of the raw ``sqlite3`` connection, run on aiosqlite's
    # worker thread, and a transaction (``BEGIN IMMEDIATE``, the unit's queued
    # writes, the call's own, ``COMMIT``) is ONE call there. A unit's ``tx`` is
    # ``True`` while its transaction is open on the connection.

    def _conn(self) -> aiosqlite.Connection:
        if self._db is None:
            raise RuntimeError("Storage is closed")
        return self._db

    async def _on_thread(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``fn(raw connection)`` on aiosqlite's worker thread: one round trip.

        aiosqlite runs every call of a connection on one thread through its
        ``_execute``; it offers no public way to run several statements there in
        one go, so this is the one place that uses it (pinned in pyproject.toml,
        checked by tests/storage/test_storage.py)."""
        db = self._conn()
        self.round_trips += 1
        return await db._execute(lambda: fn(db._conn))  # type: ignore[no-untyped-call,no-any-return]

    #: a native function's ``Tx`` (synchronous underneath: ``drive`` runs its steps),
    #: and the one over the aiosqlite connection ``_read`` yields
    _raw_tx = staticmethod(ThreadTx)
    _loop_tx = staticmethod(LoopTx)

    def _native_db(self) -> aiosqlite.Connection:
        return self._conn()

    @asynccontextmanager
    async def _reading(self) -> AsyncIterator[aiosqlite.Connection]:
        yield self._conn()

    async def _call(self, fn: Native[sqlite3.Connection, T], *, alone: bool) -> T:
        """A read: one call on the thread (inside a unit, in its transaction)."""
        return await self._on_thread(lambda conn: drive(fn(conn)))

    async def _abandon_unit(self, unit: Unit[bool]) -> None:
        """Roll the unit's open transaction back, on the thread."""
        await asyncio.shield(self._on_thread(_rollback))

    async def _transaction(self, unit: Unit[bool] | None, fn: Native[sqlite3.Connection, T] | None,
                           *, commit: bool) -> T | None:
        """One thread call: ``BEGIN IMMEDIATE`` (unless ``unit`` has begun), the
        unit's queued writes, ``fn``, then ``COMMIT`` when ``commit``. On any error
        the transaction is rolled back in the same call. The caller holds the lock.

        While another connection holds the write lock, ``BEGIN IMMEDIATE`` fails at
        once (busy timeout 0): the interaction is acknowledged and the call is
        retried on the event loop for up to ``BUSY_WAIT`` seconds; then
        ``sqlite3.OperationalError`` (``database is locked``) is raised."""
        pending = [] if unit is None else unit.pending
        begun = unit is not None and unit.begun
        loop = asyncio.get_running_loop()
        deadline = loop.time() + BUSY_WAIT
        pause = 0.05

        def run(conn: sqlite3.Connection) -> T | None:
            return _batch(conn, begun, pending, fn, self._commit if commit else None)

        while True:
            try:
                result = await self._on_thread(run)
                break
            except _Busy as busy:
                exc = busy.__cause__
                assert isinstance(exc, sqlite3.OperationalError)
                if "locked" not in str(exc) and "busy" not in str(exc):
                    raise exc from None
                if loop.time() >= deadline:
                    raise exc from None
            await acknowledge()
            await asyncio.sleep(pause)
            pause = min(pause * 2, 0.5)
        if unit is not None:
            unit.pending = []
            unit.tx = None if commit else True
        return result

    def _commit(self, conn: sqlite3.Connection) -> None:
        """``COMMIT`` the open transaction, on the database thread (the one place
        every write is made durable; fault-injection tests make it fail)."""
        conn.execute("COMMIT")
