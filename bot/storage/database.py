"""The ``Storage`` repository: one aiosqlite connection, one lock, explicit transactions.

Every public coroutine holds the connection lock for its whole run, so the
statements of one call never interleave with another coroutine's, and every
write runs in its own ``BEGIN IMMEDIATE … COMMIT`` (rolled back on any error).
"""

from __future__ import annotations

import asyncio
import dataclasses
import errno
import fcntl
import json
import os
import re
import shutil
import sqlite3
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import aiosqlite

from ..waiting import acknowledge
from .models import (
    ActionRow,
    DealRow,
    GuildSettings,
    HandResult,
    LedgerEntry,
    MemberStats,
    PastGame,
    PresetStats,
    SeatRow,
    TableRow,
)

MIGRATIONS_DIR = Path(__file__).with_name("migrations")
_MIGRATION_NAME = re.compile(r"^(\d{4})_(\w+)\.sql$")
_SQLITE_HEADER = b"SQLite format 3\x00"

TABLE_STATUSES = ("lobby", "playing", "finished", "closed")
CLOSED_DEAL_STATUSES = ("finished", "void")
TABLE_MODES = ("channel", "thread", "here")
#: seconds a write waits for another connection's write lock before it gives up
BUSY_WAIT = 5.0
_SEAT_SHIFT = 1_000_000  # parks seats above any real seat number while renumbering
_SETTING_FIELDS = tuple(f.name for f in dataclasses.fields(GuildSettings) if f.name != "guild_id")

_UPSERT_SETTINGS = (
    f"INSERT INTO guild_settings (guild_id, {', '.join(_SETTING_FIELDS)}, updated_at)"
    f" VALUES (?, {', '.join('?' for _ in _SETTING_FIELDS)}, ?)"
    " ON CONFLICT (guild_id) DO UPDATE SET "
    + ", ".join(f"{name} = excluded.{name}" for name in (*_SETTING_FIELDS, "updated_at"))
)

_TABLE_SELECT = """
    SELECT t.id, t.guild_id, t.channel_id, t.number, t.host_id, t.preset, t.options,
           t.status, t.lobby_message_id, t.table_message_id, t.next_deal_delay,
           g.first_dealer, t.created_at, t.offer_key, t.offer_message_id, t.place,
           t.next_commitment
    FROM tables t LEFT JOIN games g ON g.table_id = t.id
"""


#: ``Storage.open`` refuses a database whose folder has less free space than this
#: (1 MiB): a start that fails at once beats a game that fails at its next write
MIN_FREE_BYTES = 1 << 20


class DatabaseUnavailable(RuntimeError):
    """The database cannot be used; the message is one line naming the file and
    what to do. The file was left untouched."""


class CorruptDatabase(DatabaseUnavailable):
    """The database file is unreadable or not a Commerce database; never overwritten."""


class DatabaseInUse(DatabaseUnavailable):
    """Another ``Storage`` (another bot process, or another object in this one)
    has the database open: one writer per file."""


class DatabaseNotWritable(DatabaseUnavailable):
    """The database cannot be written (read-only file or folder, full disk, I/O
    error), found at start instead of in the middle of a game."""


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


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _migrations() -> list[tuple[int, str, str]]:
    """``[(version, name, sql)]`` from ``migrations/NNNN_name.sql``, by version."""
    found: dict[int, tuple[int, str, str]] = {}
    for path in MIGRATIONS_DIR.glob("*.sql"):
        match = _MIGRATION_NAME.match(path.name)
        if match is None:
            raise RuntimeError(f"badly named migration {path.name} (want NNNN_name.sql)")
        version = int(match[1])
        if version in found:
            raise RuntimeError(f"two migrations numbered {version:04d}")
        found[version] = (version, match[2], path.read_text(encoding="utf-8"))
    return [found[v] for v in sorted(found)]


def _table_row(row: sqlite3.Row) -> TableRow:
    return TableRow(
        id=row["id"], guild_id=row["guild_id"], channel_id=row["channel_id"],
        number=row["number"], host_id=row["host_id"], preset=row["preset"],
        options=json.loads(row["options"]), status=row["status"],
        lobby_message_id=row["lobby_message_id"], table_message_id=row["table_message_id"],
        next_deal_delay=row["next_deal_delay"], first_dealer=row["first_dealer"],
        created_at=row["created_at"], offer_key=row["offer_key"],
        offer_message_id=row["offer_message_id"], place=row["place"],
        next_commitment=row["next_commitment"],
    )


def _seat_row(row: sqlite3.Row) -> SeatRow:
    return SeatRow(
        table_id=row["table_id"], seat=row["seat"], member_id=row["member_id"], name=row["name"],
        away=bool(row["away"]), timeouts=row["timeouts"], gone=bool(row["gone"]),
    )


class Storage:
    """All persistence. Every public coroutine is its own transaction unless noted."""

    def __init__(self, db: aiosqlite.Connection, path: Path, lock_fd: int | None = None) -> None:
        """Use ``Storage.open``; this only wraps an already prepared connection
        (and the descriptor holding the file's lock, released by ``close``)."""
        self._db: aiosqlite.Connection | None = db
        self._lock_fd = lock_fd
        self.path = path
        self._lock = asyncio.Lock()
        #: the task inside ``atomic()``, if any
        self._owner: asyncio.Task[Any] | None = None

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
                f"VALUES ({version}, '{name}', '{_now()}');\n"
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

    async def backup(self, dest: str | Path) -> None:
        """Write a consistent copy of the database to ``dest`` (``VACUUM INTO``),
        creating its parent dirs. Raises FileExistsError if ``dest`` exists."""
        dest = Path(dest)
        if dest.exists():
            raise FileExistsError(f"backup target {dest} already exists")
        dest.parent.mkdir(parents=True, exist_ok=True)
        async with self._read() as db:
            await db.execute("VACUUM INTO ?", (str(dest),))

    # ------------------------------------------------------------------ transactions

    def _conn(self) -> aiosqlite.Connection:
        if self._db is None:
            raise RuntimeError("Storage is closed")
        return self._db

    def _inside(self) -> bool:
        """Whether the running task holds an ``atomic()`` transaction of ours."""
        return self._owner is not None and self._owner is asyncio.current_task()

    async def _acquire(self) -> None:
        """Take the connection lock, acknowledging the interaction first if taken."""
        if self._lock.locked():
            await acknowledge()
        await self._lock.acquire()

    async def _begin(self, db: aiosqlite.Connection) -> None:
        """``BEGIN IMMEDIATE``, waiting up to ``BUSY_WAIT`` seconds (on the event
        loop, after acknowledging the interaction) while another connection
        holds the write lock. Raises sqlite3.OperationalError (``database is
        locked``) when it is still held then."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + BUSY_WAIT
        pause = 0.05
        while True:
            try:
                await db.execute("BEGIN IMMEDIATE")
                return
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) and "busy" not in str(exc):
                    raise
                if loop.time() >= deadline:
                    raise
            await acknowledge()
            await asyncio.sleep(pause)
            pause = min(pause * 2, 0.5)

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[aiosqlite.Connection]:
        if self._inside():  # reads inside atomic() see its uncommitted writes
            yield self._conn()
            return
        await self._acquire()
        try:
            yield self._conn()
        finally:
            self._lock.release()

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[aiosqlite.Connection]:
        """One write transaction (or a part of the enclosing ``atomic()`` one)."""
        async with self.atomic():
            yield self._conn()

    @asynccontextmanager
    async def atomic(self) -> AsyncIterator[None]:
        """One ``BEGIN IMMEDIATE … COMMIT`` for every storage call the running task
        makes inside the block: all of them are committed together, or (on any
        error, a failed commit included) none is. Nested blocks join the outer one.

        Raises:
            sqlite3.Error: the transaction could not begin (e.g. ``database is
                locked`` after the busy timeout) or commit; nothing was written.
        """
        if self._inside():
            yield
            return
        await self._acquire()
        try:
            db = self._conn()
            await self._begin(db)
            self._owner = asyncio.current_task()
            try:
                yield
                await self._commit(db)
            except BaseException:
                if db.in_transaction:
                    await db.execute("ROLLBACK")
                raise
            finally:
                self._owner = None
        finally:
            self._lock.release()

    async def _commit(self, db: aiosqlite.Connection) -> None:
        """``COMMIT`` the open transaction (the one place every write is made
        durable; fault-injection tests make it fail)."""
        await db.execute("COMMIT")

    @staticmethod
    async def _one(db: aiosqlite.Connection, sql: str, params: Iterable[Any] = ()) -> Any:
        async with db.execute(sql, tuple(params)) as cursor:
            return await cursor.fetchone()

    @staticmethod
    async def _all(db: aiosqlite.Connection, sql: str, params: Iterable[Any] = ()) -> list[Any]:
        async with db.execute(sql, tuple(params)) as cursor:
            return list(await cursor.fetchall())

    # ------------------------------------------------------------------ settings

    async def get_settings(self, guild_id: int) -> GuildSettings:
        """The guild's settings (``GuildSettings`` defaults when never set)."""
        async with self._read() as db:
            return await self._settings(db, guild_id)

    async def _settings(self, db: aiosqlite.Connection, guild_id: int) -> GuildSettings:
        row = await self._one(
            db, f"SELECT {', '.join(_SETTING_FIELDS)} FROM guild_settings WHERE guild_id = ?",
            (guild_id,),
        )
        if row is None:
            return GuildSettings(guild_id)
        return GuildSettings(guild_id, **{name: row[name] for name in _SETTING_FIELDS})

    async def update_settings(self, guild_id: int, **fields: Any) -> GuildSettings:
        """Change some of ``table_mode``, ``turn_timer`` (s), ``default_preset``,
        ``next_deal_delay`` (s); returns the new settings. Raises ValueError for an
        unknown field, an unknown ``table_mode`` or a negative duration."""
        unknown = set(fields) - set(_SETTING_FIELDS)
        if unknown:
            raise ValueError(f"unknown settings: {', '.join(sorted(unknown))}")
        if "table_mode" in fields and fields["table_mode"] not in TABLE_MODES:
            raise ValueError(f"table_mode must be one of {', '.join(TABLE_MODES)}")
        for name in ("turn_timer", "next_deal_delay"):
            if name in fields and int(fields[name]) < 0:
                raise ValueError(f"{name} cannot be negative")
        async with self._write() as db:
            settings = dataclasses.replace(await self._settings(db, guild_id), **fields)
            values = [getattr(settings, name) for name in _SETTING_FIELDS]
            await db.execute(_UPSERT_SETTINGS, (guild_id, *values, _now()))
        return settings

    # ------------------------------------------------------------------ tables and seats

    async def create_table(
        self, guild_id: int, channel_id: int, host_id: int, preset: str,
        options: dict[str, Any], next_deal_delay: int, place: str | None = None,
    ) -> TableRow:
        """Insert a lobby table; ``number`` = 1 + max number in the guild.
        ``place``: ``channel`` / ``thread`` (created by the bot for this table) or
        ``here`` (an existing channel). Raises ValueError for another place."""
        if place is not None and place not in TABLE_MODES:
            raise ValueError(f"unknown table place {place!r}")
        async with self._write() as db:
            cursor = await db.execute(
                "INSERT INTO tables (guild_id, channel_id, number, host_id, preset, options,"
                " status, next_deal_delay, created_at, place)"
                " SELECT ?, ?, COALESCE(MAX(number), 0) + 1, ?, ?, ?, 'lobby', ?, ?, ?"
                " FROM tables WHERE guild_id = ?",
                (guild_id, channel_id, host_id, preset, json.dumps(options), next_deal_delay,
                 _now(), place, guild_id),
            )
            row = await self._one(db, _TABLE_SELECT + " WHERE t.id = ?", (cursor.lastrowid,))
        return _table_row(row)

    async def next_table_number(self, guild_id: int) -> int:
        """The ``number`` the guild's next table will get (1 + max so far)."""
        async with self._read() as db:
            row = await self._one(
                db, "SELECT COALESCE(MAX(number), 0) + 1 FROM tables WHERE guild_id = ?",
                (guild_id,),
            )
        return int(row[0])

    async def _update_table(self, table_id: int, sql: str, params: tuple[Any, ...]) -> None:
        async with self._write() as db:
            cursor = await db.execute(sql, (*params, table_id))
            if cursor.rowcount == 0:
                raise ValueError(f"no table {table_id}")

    async def set_next_deal_delay(self, table_id: int, seconds: int) -> None:
        """Seconds before the next deal starts by itself (0 = only by the button).
        Raises ValueError for an unknown table or a negative delay."""
        if seconds < 0:
            raise ValueError("the delay cannot be negative")
        await self._update_table(table_id, "UPDATE tables SET next_deal_delay = ? WHERE id = ?",
                                 (seconds,))

    async def add_ledger(self, guild_id: int, table_id: int, deal_id: int | None,
                         entries: list[LedgerEntry]) -> None:
        """Append point movements that belong to no deal's close (e.g. a closed
        game's carried pot shared out), in one transaction."""
        async with self._write() as db:
            await db.executemany(
                "INSERT INTO ledger (guild_id, table_id, deal_id, seat, member_id, amount,"
                " reason, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [(guild_id, table_id, deal_id, e.seat, e.member_id, e.amount, e.reason, _now())
                 for e in entries],
            )

    async def set_offer_message(self, table_id: int, key: str | None,
                                message_id: int | None) -> None:
        """Remember (or, with ``None``, forget) the message announcing the table's
        pending offer ``key`` (``"deal:seq"``). Raises ValueError for an unknown table."""
        await self._update_table(
            table_id, "UPDATE tables SET offer_key = ?, offer_message_id = ? WHERE id = ?",
            (key, message_id))

    async def set_host(self, table_id: int, member_id: int) -> None:
        """Hand the table to another member. Raises ValueError for an unknown table."""
        await self._update_table(table_id, "UPDATE tables SET host_id = ? WHERE id = ?",
                                 (member_id,))

    async def set_showdown_message(self, deal_id: int, message_id: int) -> None:
        """Remember the message that announced the deal's showdown.
        Raises ValueError for an unknown deal."""
        async with self._write() as db:
            cursor = await db.execute(
                "UPDATE deals SET showdown_message_id = ? WHERE id = ?", (message_id, deal_id))
            if cursor.rowcount == 0:
                raise ValueError(f"no deal {deal_id}")

    async def set_seat_state(
        self, table_id: int, seat: int, *, away: bool | None = None,
        timeouts: int | None = None, gone: bool | None = None,
    ) -> None:
        """Set whichever presence fields are given. Raises ValueError for an unknown seat."""
        async with self._write() as db:
            cursor = await db.execute(
                "UPDATE seats SET away = COALESCE(?, away), timeouts = COALESCE(?, timeouts),"
                " gone = COALESCE(?, gone) WHERE table_id = ? AND seat = ?",
                (None if away is None else int(away), timeouts,
                 None if gone is None else int(gone), table_id, seat),
            )
            if cursor.rowcount == 0:
                raise ValueError(f"no seat {seat} at table {table_id}")

    async def reset_ledger(self, guild_id: int, member_id: int | None) -> int:
        """Bring every balance in the guild back to zero — members' and AI seats'
        (an AI seat's account is its ``(table_id, seat)``) — by appending
        offsetting ``reset`` rows (the ledger stays append-only), and audit it.

        Points still in the pool or pots of an open table are not refunded: one
        ``pot`` row leaves the guild's sum at minus those points, so when a pot
        is later won or shared the sum is zero again (docs/RELIABILITY.md,
        "Ledger"). Returns the number of members whose balance was not zero.
        """
        async with self._write() as db:
            members = await self._all(
                db,
                "SELECT member_id, SUM(amount) AS balance FROM ledger WHERE guild_id = ?"
                " AND member_id IS NOT NULL GROUP BY member_id HAVING SUM(amount) <> 0",
                (guild_id,),
            )
            seats = await self._all(
                db,
                "SELECT table_id, seat, SUM(amount) AS balance FROM ledger WHERE guild_id = ?"
                " AND member_id IS NULL AND seat IS NOT NULL GROUP BY table_id, seat"
                " HAVING SUM(amount) <> 0",
                (guild_id,),
            )
            now = _now()
            insert = ("INSERT INTO ledger (guild_id, table_id, deal_id, seat, member_id, amount,"
                      " reason, created_at) VALUES (?, ?, NULL, ?, ?, ?, ?, ?)")
            await db.executemany(
                insert,
                [(guild_id, None, None, r["member_id"], -r["balance"], "reset", now)
                 for r in members]
                + [(guild_id, r["table_id"], r["seat"], None, -r["balance"], "reset", now)
                   for r in seats],
            )
            pots = await self._points_in_pots(db, guild_id)
            total = await self._one(
                db, "SELECT COALESCE(SUM(amount), 0) FROM ledger WHERE guild_id = ?", (guild_id,))
            if int(total[0]) != -pots:
                await db.execute(insert, (guild_id, None, None, None, -pots - int(total[0]),
                                          "reset-pot", now))
            await db.execute(
                "INSERT INTO audit (guild_id, member_id, action, detail, created_at)"
                " VALUES (?, ?, 'reset_ledger', ?, ?)",
                (guild_id, member_id, f"{len(members)} balances reset", now),
            )
            return len(members)

    @staticmethod
    async def _points_in_pots(db: aiosqlite.Connection, guild_id: int) -> int:
        """Points staked into the pools and pots of the guild's open tables and not
        yet paid out: minus the sum of those tables' game rows (resets excluded)."""
        row = await Storage._one(
            db,
            "SELECT COALESCE(SUM(l.amount), 0) FROM ledger l JOIN tables t ON t.id = l.table_id"
            " WHERE t.guild_id = ? AND t.status IN ('lobby', 'playing')"
            " AND l.reason NOT IN ('reset', 'reset-pot')",
            (guild_id,),
        )
        return -int(row[0])

    async def points_in_pots(self, guild_id: int) -> int:
        """Points in the pools and pots of the guild's open tables (see
        ``reset_ledger``); ``guild_ledger_sum`` equals minus this when consistent."""
        async with self._read() as db:
            return await self._points_in_pots(db, guild_id)

    async def set_messages(
        self, table_id: int, *, lobby_message_id: int | None = None,
        table_message_id: int | None = None,
    ) -> None:
        """Set whichever ids are given (not None). Raises ValueError for an unknown table."""
        await self._update_table(
            table_id,
            "UPDATE tables SET lobby_message_id = COALESCE(?, lobby_message_id),"
            " table_message_id = COALESCE(?, table_message_id) WHERE id = ?",
            (lobby_message_id, table_message_id),
        )

    async def get_table(self, table_id: int) -> TableRow | None:
        """The table with this id, or None."""
        async with self._read() as db:
            row = await self._one(db, _TABLE_SELECT + " WHERE t.id = ?", (table_id,))
        return None if row is None else _table_row(row)

    async def open_tables(self) -> list[TableRow]:
        """All tables with status lobby or playing, by id."""
        async with self._read() as db:
            rows = await self._all(
                db, _TABLE_SELECT + " WHERE t.status IN ('lobby', 'playing') ORDER BY t.id"
            )
        return [_table_row(row) for row in rows]

    @staticmethod
    async def _table_of_member(
        db: aiosqlite.Connection, guild_id: int, member_id: int,
    ) -> TableRow | None:
        row = await Storage._one(
            db,
            _TABLE_SELECT + " JOIN seats s ON s.table_id = t.id"
            " WHERE t.guild_id = ? AND s.member_id = ? AND t.status IN ('lobby', 'playing')"
            " ORDER BY t.id LIMIT 1",
            (guild_id, member_id),
        )
        return None if row is None else _table_row(row)

    async def seats(self, table_id: int) -> list[SeatRow]:
        """Seats ordered by seat number (0..n-1)."""
        async with self._read() as db:
            rows = await self._all(
                db, "SELECT * FROM seats WHERE table_id = ? ORDER BY seat", (table_id,)
            )
        return [_seat_row(row) for row in rows]

    async def add_seat(self, table_id: int, member_id: int | None, name: str) -> SeatRow:
        """Append a seat (next number). Raises ValueError if the member already
        sits at an open table of the guild, or if the table does not exist."""
        async with self._write() as db:
            table = await self._one(db, "SELECT guild_id FROM tables WHERE id = ?", (table_id,))
            if table is None:
                raise ValueError(f"no table {table_id}")
            if member_id is not None:
                seated = await self._table_of_member(db, table["guild_id"], member_id)
                if seated is not None:
                    raise ValueError(
                        f"member {member_id} is already seated at table {seated.number}"
                    )
            row = await self._one(
                db, "SELECT COALESCE(MAX(seat) + 1, 0) FROM seats WHERE table_id = ?",
                (table_id,),
            )
            seat = SeatRow(table_id=table_id, seat=int(row[0]), member_id=member_id, name=name)
            await db.execute(
                "INSERT INTO seats (table_id, seat, member_id, name) VALUES (?, ?, ?, ?)",
                (seat.table_id, seat.seat, seat.member_id, seat.name),
            )
        return seat

    async def remove_seat(self, table_id: int, seat: int) -> None:
        """Lobby only: delete the seat and renumber later seats down by one.
        Raises ValueError if the table is not in the lobby or has no such seat."""
        async with self._write() as db:
            table = await self._one(db, "SELECT status FROM tables WHERE id = ?", (table_id,))
            if table is None or table["status"] != "lobby":
                raise ValueError(f"table {table_id} is not in the lobby")
            cursor = await db.execute(
                "DELETE FROM seats WHERE table_id = ? AND seat = ?", (table_id, seat)
            )
            if cursor.rowcount == 0:
                raise ValueError(f"table {table_id} has no seat {seat}")
            # Two steps so the (table_id, seat) key never collides mid-update.
            await db.execute(
                "UPDATE seats SET seat = seat + ? WHERE table_id = ? AND seat > ?",
                (_SEAT_SHIFT, table_id, seat),
            )
            await db.execute(
                "UPDATE seats SET seat = seat - ? WHERE table_id = ? AND seat >= ?",
                (_SEAT_SHIFT + 1, table_id, _SEAT_SHIFT),
            )

    async def set_status(self, table_id: int, status: str) -> None:
        """Set the table status (``lobby``, ``playing``, ``finished``, ``closed``).
        Raises ValueError for another status or an unknown table."""
        if status not in TABLE_STATUSES:
            raise ValueError(f"unknown table status {status!r}")
        await self._update_table(table_id, "UPDATE tables SET status = ? WHERE id = ?", (status,))

    # ------------------------------------------------------------------ games, deals, actions

    async def start_game(self, table_id: int, first_dealer: int) -> None:
        """Set first_dealer and status 'playing' (creates the ``games`` row).
        Raises ValueError unless the table is in the lobby."""
        async with self._write() as db:
            cursor = await db.execute(
                "UPDATE tables SET status = 'playing' WHERE id = ? AND status = 'lobby'",
                (table_id,),
            )
            if cursor.rowcount == 0:
                raise ValueError(f"table {table_id} is not in the lobby")
            await db.execute(
                "INSERT INTO games (table_id, first_dealer, started_at) VALUES (?, ?, ?)",
                (table_id, first_dealer, _now()),
            )

    async def start_deal(
        self, table_id: int, number: int, dealer: int, deck: list[str], *,
        commitment: str | None = None, seed: str | None = None,
        cuts: list[str] | None = None, cut_by: int | None = None,
    ) -> int:
        """Insert an open deal; returns its id. UNIQUE(table_id, number): a
        duplicate raises sqlite3.IntegrityError. ``deck`` is 52 card codes, top
        first; raises ValueError otherwise. A fair deal (docs/FAIRNESS.md) also
        stores its ``commitment`` and ``seed`` (hex), ``cuts`` (hex strings) and
        ``cut_by`` (the member who cut; ``None``: the bot), never changed later."""
        if len(deck) != 52 or any(len(code) != 2 or not code.isalnum() for code in deck):
            raise ValueError("deck must be 52 two-character card codes")
        async with self._write() as db:
            cursor = await db.execute(
                "INSERT INTO deals (table_id, number, dealer, deck, status, started_at,"
                " commitment, seed, cuts, cut_by) VALUES (?, ?, ?, ?, 'open', ?, ?, ?, ?, ?)",
                (table_id, number, dealer, " ".join(deck), _now(), commitment, seed,
                 None if cuts is None else json.dumps(cuts), cut_by),
            )
        return int(cursor.lastrowid or 0)

    async def set_next_seed(self, table_id: int, seed: str | None,
                            commitment: str | None) -> None:
        """Keep the seed (hex) drawn for the table's next deal and its public
        commitment, or forget them (``None``). Raises ValueError for an unknown table."""
        await self._update_table(
            table_id, "UPDATE tables SET next_seed = ?, next_commitment = ? WHERE id = ?",
            (seed, commitment))

    async def next_seed(self, table_id: int) -> str | None:
        """The secret seed (hex) drawn for the table's next deal, if any. Only the
        deal that uses it reads it: it is in no row the other queries return."""
        async with self._read() as db:
            row = await self._one(db, "SELECT next_seed FROM tables WHERE id = ?", (table_id,))
        return None if row is None else row["next_seed"]

    async def append_action(
        self, deal_id: int, seq: int, payload: dict[str, Any], member_id: int | None,
        *, finish: tuple[str, list[LedgerEntry], list[HandResult]] | None = None,
    ) -> None:
        """Append one action (UNIQUE(deal_id, seq): a duplicate raises
        sqlite3.IntegrityError and changes nothing). With ``finish=(status,
        ledger, hands)`` the deal is closed in the same transaction: status set,
        ledger rows (guild, table, deal, seat, member, amount, reason) and hand
        results inserted. Appending to a closed deal raises sqlite3.IntegrityError;
        a bad ``finish`` raises ValueError (see ``finish_deal``); nothing is written
        on any error."""
        if finish is not None:
            self._check_finish(finish[0])
        async with self._write() as db:
            await db.execute(
                "INSERT INTO actions (deal_id, seq, payload, member_id, created_at)"
                " VALUES (?, ?, ?, ?, ?)",
                (deal_id, seq, json.dumps(payload), member_id, _now()),
            )
            if finish is not None:
                await self._close_deal(db, deal_id, *finish)

    async def finish_deal(
        self, deal_id: int, status: str, ledger: list[LedgerEntry], hands: list[HandResult],
    ) -> None:
        """Close a deal without an action (void: status 'void', refund rows).
        ``status`` is ``finished`` or ``void``; raises ValueError for another
        status or a deal that is not open (nothing is written)."""
        self._check_finish(status)
        async with self._write() as db:
            await self._close_deal(db, deal_id, status, ledger, hands)

    @staticmethod
    def _check_finish(status: str) -> None:
        if status not in CLOSED_DEAL_STATUSES:
            raise ValueError(f"a deal closes as 'finished' or 'void', not {status!r}")

    @staticmethod
    async def _close_deal(
        db: aiosqlite.Connection, deal_id: int, status: str,
        ledger: list[LedgerEntry], hands: list[HandResult],
    ) -> None:
        now = _now()
        cursor = await db.execute(
            "UPDATE deals SET status = ?, finished_at = ? WHERE id = ? AND status = 'open'",
            (status, now, deal_id),
        )
        if cursor.rowcount == 0:
            raise ValueError(f"deal {deal_id} is not open")
        deal = await Storage._one(
            db,
            "SELECT d.table_id, t.guild_id FROM deals d JOIN tables t ON t.id = d.table_id"
            " WHERE d.id = ?",
            (deal_id,),
        )
        await db.executemany(
            "INSERT INTO ledger (guild_id, table_id, deal_id, seat, member_id, amount, reason,"
            " created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [(deal["guild_id"], deal["table_id"], deal_id, e.seat, e.member_id, e.amount,
              e.reason, now) for e in ledger],
        )
        await db.executemany(
            "INSERT INTO deal_hands (deal_id, seat, member_id, score, label, won, category,"
            " knocked) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [(deal_id, h.seat, h.member_id, h.score, h.label, int(h.won), h.category,
              int(h.knocked)) for h in hands],
        )

    async def finish_game(self, table_id: int, winners: list[int], status: str) -> None:
        """Record the game's winning seats and set the table status (normally
        ``finished``; ``closed`` for an abandoned game). Raises ValueError if the
        game was never started or the status is unknown."""
        if status not in TABLE_STATUSES:
            raise ValueError(f"unknown table status {status!r}")
        async with self._write() as db:
            cursor = await db.execute(
                "UPDATE games SET winners = ?, finished_at = ? WHERE table_id = ?",
                (json.dumps(list(winners)), _now(), table_id),
            )
            if cursor.rowcount == 0:
                raise ValueError(f"table {table_id} has no started game")
            await db.execute("UPDATE tables SET status = ? WHERE id = ?", (status, table_id))

    async def deals(self, table_id: int) -> list[DealRow]:
        """Every deal of the table, by number, with its actions in seq order."""
        async with self._read() as db:
            deal_rows = await self._all(
                db, "SELECT * FROM deals WHERE table_id = ? ORDER BY number", (table_id,)
            )
            action_rows = await self._all(
                db,
                "SELECT a.deal_id, a.seq, a.payload, a.member_id FROM actions a"
                " JOIN deals d ON d.id = a.deal_id WHERE d.table_id = ? ORDER BY a.deal_id, a.seq",
                (table_id,),
            )
        actions: dict[int, list[ActionRow]] = {}
        for row in action_rows:
            actions.setdefault(row["deal_id"], []).append(
                ActionRow(seq=row["seq"], payload=json.loads(row["payload"]),
                          member_id=row["member_id"])
            )
        return [
            DealRow(id=row["id"], number=row["number"], dealer=row["dealer"],
                    deck=row["deck"].split(), status=row["status"],
                    actions=actions.get(row["id"], []),
                    showdown_message_id=row["showdown_message_id"],
                    commitment=row["commitment"], seed=row["seed"],
                    cuts=None if row["cuts"] is None else json.loads(row["cuts"]),
                    cut_by=row["cut_by"], finished_at=row["finished_at"])
            for row in deal_rows
        ]

    # ------------------------------------------------------------------ ledger and statistics

    async def leaderboard(
        self, guild_id: int, offset: int, limit: int,
    ) -> tuple[list[tuple[int, int]], int]:
        """([(member_id, balance)...] by balance desc, member_id asc; total count).

        Humans only (ledger rows with a member id); balances in points.
        """
        async with self._read() as db:
            rows = await self._all(
                db,
                "SELECT member_id, SUM(amount) AS balance FROM ledger"
                " WHERE guild_id = ? AND member_id IS NOT NULL GROUP BY member_id"
                " ORDER BY balance DESC, member_id ASC LIMIT ? OFFSET ?",
                (guild_id, limit, offset),
            )
            total = await self._one(
                db,
                "SELECT COUNT(DISTINCT member_id) FROM ledger"
                " WHERE guild_id = ? AND member_id IS NOT NULL",
                (guild_id,),
            )
        return [(row["member_id"], row["balance"]) for row in rows], int(total[0])

    async def guild_ledger_sum(self, guild_id: int) -> int:
        """Sum of every ledger amount in the guild, AI seats included: 0 when
        consistent and no open table holds points in a pool or pot, else minus
        ``points_in_pots``."""
        async with self._read() as db:
            row = await self._one(
                db, "SELECT COALESCE(SUM(amount), 0) FROM ledger WHERE guild_id = ?", (guild_id,)
            )
        return int(row[0])

    async def member_stats(self, guild_id: int, member_id: int) -> MemberStats:
        """The member's balance (points), finished games played and won, finished
        deals played and won, and best hand (score, label) in the guild."""
        async with self._read() as db:
            balance = await self._one(
                db,
                "SELECT COALESCE(SUM(amount), 0) FROM ledger WHERE guild_id = ? AND member_id = ?",
                (guild_id, member_id),
            )
            games = await self._one(
                db,
                "SELECT COUNT(DISTINCT t.id),"
                " COUNT(DISTINCT CASE WHEN EXISTS (SELECT 1 FROM json_each(g.winners) w"
                "   WHERE w.value = s.seat) THEN t.id END)"
                " FROM tables t JOIN seats s ON s.table_id = t.id"
                " LEFT JOIN games g ON g.table_id = t.id"
                " WHERE t.guild_id = ? AND t.status = 'finished' AND s.member_id = ?",
                (guild_id, member_id),
            )
            deals = await self._one(
                db,
                "SELECT COUNT(DISTINCT d.id) FROM deals d"
                " JOIN tables t ON t.id = d.table_id JOIN seats s ON s.table_id = t.id"
                " WHERE t.guild_id = ? AND d.status = 'finished' AND s.member_id = ?",
                (guild_id, member_id),
            )
            hands = await self._one(
                db,
                "SELECT COUNT(*) FROM deal_hands h JOIN deals d ON d.id = h.deal_id"
                " JOIN tables t ON t.id = d.table_id"
                " WHERE t.guild_id = ? AND h.member_id = ? AND h.won = 1"
                " AND d.status = 'finished'",
                (guild_id, member_id),
            )
            best = await self._one(
                db,
                "SELECT h.score, h.label FROM deal_hands h JOIN deals d ON d.id = h.deal_id"
                " JOIN tables t ON t.id = d.table_id"
                " WHERE t.guild_id = ? AND h.member_id = ? AND d.status = 'finished'"
                " ORDER BY h.score DESC, h.deal_id ASC LIMIT 1",
                (guild_id, member_id),
            )
            categories = await self._all(
                db,
                "SELECT h.category, COUNT(*) AS n FROM deal_hands h"
                " JOIN deals d ON d.id = h.deal_id JOIN tables t ON t.id = d.table_id"
                " WHERE t.guild_id = ? AND h.member_id = ? AND h.won = 1"
                " AND d.status = 'finished' AND h.category IS NOT NULL"
                " GROUP BY h.category ORDER BY n DESC, h.category",
                (guild_id, member_id),
            )
            knocks = await self._all(
                db,
                "SELECT t.preset, COUNT(*) AS knocks, SUM(h.won) AS won FROM deal_hands h"
                " JOIN deals d ON d.id = h.deal_id JOIN tables t ON t.id = d.table_id"
                " WHERE t.guild_id = ? AND h.member_id = ? AND h.knocked = 1"
                " AND d.status = 'finished' GROUP BY t.preset ORDER BY t.preset",
                (guild_id, member_id),
            )
        return MemberStats(
            member_id=member_id, balance=int(balance[0]), games=int(games[0]),
            games_won=int(games[1]), deals=int(deals[0]), deals_won=int(hands[0]),
            best_score=None if best is None else best["score"],
            best_label=None if best is None else best["label"],
            won_by_category={r["category"]: int(r["n"]) for r in categories},
            knocks=[PresetStats(r["preset"], int(r["knocks"]), int(r["won"])) for r in knocks],
        )

    # ------------------------------------------------------------------ history

    async def past_games(self, guild_id: int, offset: int, limit: int,
                         ) -> tuple[list[PastGame], int]:
        """The guild's games whose table is no longer open (``finished`` or
        ``closed`` after its start), newest first: one page and the total count."""
        where = ("t.guild_id = ? AND t.status IN ('finished', 'closed')")
        async with self._read() as db:
            total = await self._one(
                db, f"SELECT COUNT(*) FROM tables t JOIN games g ON g.table_id = t.id"
                    f" WHERE {where}", (guild_id,))
            games = await self._past(db, where + " ORDER BY t.id DESC LIMIT ? OFFSET ?",
                                     (guild_id, limit, offset))
        return games, int(total[0])

    async def past_game(self, guild_id: int, *, table_id: int | None = None,
                        number: int | None = None, channel_id: int | None = None,
                        ) -> PastGame | None:
        """One game of the guild whose table is no longer open, by table id, by
        table number, or the latest that played in ``channel_id``; ``None`` when
        there is none (or its table is still open)."""
        where = "t.guild_id = ? AND t.status IN ('finished', 'closed')"
        params: list[Any] = [guild_id]
        for column, value in (("t.id", table_id), ("t.number", number),
                              ("t.channel_id", channel_id)):
            if value is not None:
                where += f" AND {column} = ?"
                params.append(value)
        async with self._read() as db:
            found = await self._past(db, where + " ORDER BY t.id DESC LIMIT 1", params)
        return found[0] if found else None

    @staticmethod
    async def _past(db: aiosqlite.Connection, where: str, params: Iterable[Any],
                    ) -> list[PastGame]:
        rows = await Storage._all(
            db,
            "SELECT t.id, t.number, t.preset, t.status, g.winners, g.started_at,"
            " COALESCE(g.finished_at, (SELECT MAX(d.finished_at) FROM deals d"
            "   WHERE d.table_id = t.id)) AS finished_at,"
            " (SELECT COUNT(*) FROM deals d WHERE d.table_id = t.id) AS deals"
            " FROM tables t JOIN games g ON g.table_id = t.id WHERE " + where,
            params,
        )
        games = []
        for row in rows:
            seats = await Storage._all(
                db, "SELECT name, member_id FROM seats WHERE table_id = ? ORDER BY seat",
                (row["id"],))
            games.append(PastGame(
                table_id=row["id"], number=row["number"], preset=row["preset"],
                status=row["status"], players=[s["name"] for s in seats],
                members=[s["member_id"] for s in seats],
                winners=json.loads(row["winners"]) if row["winners"] else [],
                started_at=row["started_at"], finished_at=row["finished_at"],
                deals=int(row["deals"])))
        return games

    # ------------------------------------------------------------------ audit

    async def audit_entries(self, guild_id: int) -> list[tuple[int | None, str, str]]:
        """The guild's audit trail, oldest first: ``[(member_id, action, detail)]``."""
        async with self._read() as db:
            rows = await self._all(
                db, "SELECT member_id, action, detail FROM audit WHERE guild_id = ? ORDER BY id",
                (guild_id,))
        return [(r["member_id"], r["action"], r["detail"]) for r in rows]

    async def audit(self, guild_id: int, member_id: int | None, action: str, detail: str) -> None:
        """Record an administrative or notable action (``member_id`` None for the bot)."""
        async with self._write() as db:
            await db.execute(
                "INSERT INTO audit (guild_id, member_id, action, detail, created_at)"
                " VALUES (?, ?, ?, ?, ?)",
                (guild_id, member_id, action, detail, _now()),
            )
