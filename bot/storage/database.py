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
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

import aiosqlite

from ..waiting import acknowledge
from .models import (
    ActionRow,
    DealKey,
    DealRow,
    GuildSettings,
    HandResult,
    HintRow,
    LedgerEntry,
    OpenTable,
    SeatRow,
    ShuffleEvent,
    TableRow,
)
from .reports import Reports
from .shared import TABLE_SELECT as _TABLE_SELECT
from .shared import TABLE_STATUSES, TableUpdates
from .shared import table_row as _table_row

MIGRATIONS_DIR = Path(__file__).with_name("migrations")
_MIGRATION_NAME = re.compile(r"^(\d{4})_(\w+)\.sql$")
_SQLITE_HEADER = b"SQLite format 3\x00"

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


def _migrations(folder: Path | None = None) -> list[tuple[int, str, str]]:
    """``[(version, name, sql)]`` from ``folder/NNNN_name.sql``, by version (the
    SQLite ones by default; PostgreSQL's are in ``migrations/postgres``).

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




def _seat_row(row: Any) -> SeatRow:  # a row of sqlite3 or asyncpg
    return SeatRow(
        table_id=row["table_id"], seat=row["seat"], member_id=row["member_id"], name=row["name"],
        away=bool(row["away"]), timeouts=row["timeouts"], gone=bool(row["gone"]),
        ai_level=row["ai_level"],
    )


T = TypeVar("T")


def _deal_id(conn: sqlite3.Connection, deal: DealKey) -> int:
    """The storage id of ``deal``. Raises ValueError if there is none."""
    row = conn.execute("SELECT id FROM deals WHERE table_id = ? AND number = ?",
                       deal).fetchone()
    if row is None:
        raise ValueError(f"no deal {deal}")
    return int(row[0])


def _close_deal(conn: sqlite3.Connection, deal_id: int, status: str,
                ledger: list[LedgerEntry], hands: list[HandResult]) -> None:
    """Close an open deal: its status, ledger rows and hand results.
    Raises ValueError if the deal is not open."""
    now = _now()
    if conn.execute(
        "UPDATE deals SET status = ?, finished_at = ? WHERE id = ? AND status = 'open'",
        (status, now, deal_id),
    ).rowcount == 0:
        raise ValueError(f"deal {deal_id} is not open")
    deal = conn.execute(
        "SELECT d.table_id, t.guild_id FROM deals d JOIN tables t ON t.id = d.table_id"
        " WHERE d.id = ?", (deal_id,)).fetchone()
    conn.executemany(
        "INSERT INTO ledger (guild_id, table_id, deal_id, seat, member_id, amount, reason,"
        " created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [(deal["guild_id"], deal["table_id"], deal_id, e.seat, e.member_id, e.amount,
          e.reason, now) for e in ledger],
    )
    conn.executemany(
        "INSERT INTO deal_hands (deal_id, seat, member_id, score, label, won, category,"
        " knocked) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [(deal_id, h.seat, h.member_id, h.score, h.label, int(h.won), h.category,
          int(h.knocked)) for h in hands],
    )


class TableClosed(Exception):
    """``require_open``: the table is closed (or gone) in storage; nothing was written."""

    def __init__(self, table_id: int) -> None:
        """``table_id``: the table that was found closed."""
        super().__init__(f"table {table_id} is closed")
        self.table_id = table_id


class _Busy(Exception):
    """``BEGIN IMMEDIATE`` failed (its cause): nothing of the call ran."""


@dataclasses.dataclass(eq=False)
class _Unit:
    """An open ``atomic()`` block: its queued writes and whether it holds the
    connection lock and an open transaction."""

    pending: list[Callable[[sqlite3.Connection], object]] = dataclasses.field(
        default_factory=list)
    locked: bool = False
    begun: bool = False


def _batch(conn: sqlite3.Connection, begun: bool,
           pending: list[Callable[[sqlite3.Connection], object]],
           fn: Callable[[sqlite3.Connection], T],
           commit: Callable[[sqlite3.Connection], None] | None) -> T:
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
            write(conn)
        result = fn(conn)
        if commit is not None:
            commit(conn)
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return result


def _deal_rows(deal_rows: list[Any], action_rows: list[Any]) -> list[DealRow]:
    """``DealRow``s of rows of ``deals`` with their rows of ``actions`` (by deal
    id, in seq order)."""
    actions: dict[int, list[ActionRow]] = {}
    payloads = _json_each([row["payload"] for row in action_rows])
    for row, payload in zip(action_rows, payloads, strict=True):
        actions.setdefault(row["deal_id"], []).append(
            ActionRow(seq=row["seq"], payload=payload, member_id=row["member_id"]))
    cuts = _json_each([row["cuts"] or "null" for row in deal_rows])
    return [
        DealRow(id=row["id"], number=row["number"], dealer=row["dealer"],
                deck=row["deck"].split(), status=row["status"],
                actions=actions.get(row["id"], []),
                showdown_message_id=row["showdown_message_id"],
                commitment=row["commitment"], seed=row["seed"],
                cuts=cut, cut_by=row["cut_by"], finished_at=row["finished_at"],
                attempt=row["attempt"])
        for row, cut in zip(deal_rows, cuts, strict=True)
    ]


def shuffle_events(rows: list[Any]) -> list[ShuffleEvent]:
    """``ShuffleEvent``s of rows of ``shuffle_events`` (sqlite3 or asyncpg), in order."""
    payloads = _json_each([row["payload"] for row in rows])
    return [ShuffleEvent(id=row["id"], kind=row["kind"], deal_number=row["deal_number"],
                         member_id=row["member_id"], attempt=row["attempt"],
                         text=payload.get("text"), cuts=payload.get("cuts"))
            for row, payload in zip(rows, payloads, strict=True)]


#: a table's shuffle log, in order (one parameter: the table id)
SHUFFLE_EVENTS = ("SELECT id, table_id, kind, deal_number, member_id, attempt, payload"
                  " FROM shuffle_events WHERE table_id = ? ORDER BY id")


def _json_each(texts: list[str]) -> list[Any]:
    """Each of ``texts`` (JSON documents) decoded, in one call of the decoder (a
    restart reads tens of thousands of actions)."""
    if not texts:
        return []
    return list(json.loads("[" + ",".join(texts) + "]"))


def _nothing(conn: sqlite3.Connection) -> None:
    """A step that does nothing (a flush or a commit with nothing more to run)."""


def check_shards(shard_ids: Iterable[int], shard_count: int) -> tuple[int, ...]:
    """``shard_ids`` sorted, once each, after checking them against ``shard_count``.
    Raises ValueError for a count below 1, no shard, or an id outside ``0…count-1``."""
    if shard_count < 1:
        raise ValueError(f"a shard count is 1 or more, not {shard_count}")
    ids = tuple(sorted({int(i) for i in shard_ids}))
    if not ids or ids[0] < 0 or ids[-1] >= shard_count:
        raise ValueError(f"shard ids must be among 0-{shard_count - 1}, not {list(shard_ids)}")
    return ids


class OpenStateSql(NamedTuple):
    """The six statements of ``open_state`` (no parameters; both dialects)."""

    tables: str
    seats: str
    deals: str
    actions: str
    drift: str
    events: str


def open_state_sql(shards: tuple[Iterable[int], int] | None = None) -> OpenStateSql:
    """``open_state``'s statements for the open tables (and the ended ones whose
    end is still to be shown) of the guilds that ``shards`` (``(shard_ids,
    shard_count)``; ``None``: every guild) owns: Discord sends a guild's events
    to shard ``(guild_id >> 22) % shard_count``. Raises
    ValueError for bad shards (``check_shards``)."""
    where = "status IN ('lobby', 'playing')"
    # and the ended tables whose end is still to be shown (``TableUpdates.set_ended``)
    owed = "(status IN ('lobby', 'playing') OR (ended_at IS NOT NULL AND end_shown = 0))"
    if shards is not None:
        ids = check_shards(*shards)
        mine = f" AND (guild_id >> 22) % {int(shards[1])} IN ({', '.join(map(str, ids))})"
        where += mine
        owed += mine
    opened = f" IN (SELECT id FROM tables WHERE {owed})"
    return OpenStateSql(
        tables=_TABLE_SELECT.replace("t.game_commitment", "t.game_commitment, t.game_seed")
        + f" WHERE t.id{opened} ORDER BY t.id",
        seats="SELECT * FROM seats WHERE table_id" + opened + " ORDER BY table_id, seat",
        deals="SELECT * FROM deals WHERE table_id" + opened + " ORDER BY table_id, number",
        actions="SELECT a.deal_id, a.seq, a.payload, a.member_id FROM actions a JOIN deals d"
                " ON d.id = a.deal_id WHERE d.table_id" + opened + " ORDER BY a.deal_id, a.seq",
        drift="SELECT l.guild_id, SUM(l.amount) - SUM(CASE WHEN t.status IN"
              " ('lobby', 'playing') AND l.reason NOT IN ('reset', 'reset-pot')"
              " THEN l.amount ELSE 0 END) FROM ledger l LEFT JOIN tables t"
              f" ON t.id = l.table_id WHERE l.guild_id IN (SELECT guild_id FROM tables"
              f" WHERE {where}) GROUP BY l.guild_id",
        events=SHUFFLE_EVENTS.replace(" = ?", opened).replace("ORDER BY id",
                                                              "ORDER BY table_id, id"))


def _rollback(conn: sqlite3.Connection) -> None:
    if conn.in_transaction:
        conn.execute("ROLLBACK")


class Storage(TableUpdates, Reports):
    """All persistence. Every public coroutine is its own transaction unless noted."""

    def __init__(self, db: aiosqlite.Connection, path: Path, lock_fd: int | None = None) -> None:
        """Use ``Storage.open``; this only wraps an already prepared connection
        (and the descriptor holding the file's lock, released by ``close``)."""
        self._db: aiosqlite.Connection | None = db
        self._lock_fd = lock_fd
        self.path = path
        self._lock = asyncio.Lock()
        #: the open unit of work (``atomic()``) of each task inside one
        self._units: dict[asyncio.Task[Any], _Unit] = {}
        #: calls made on the database thread so far (benchmarks and tests count them)
        self.round_trips = 0
        #: the shards claimed (``claim_shards``), and how many claims were made or
        #: lost (with SQLite, never: the file's lock holds them; ``bot.health``)
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

    async def ping(self) -> None:
        """Ask the database a trivial question (``SELECT 1``) and return once it
        answered (``bot.health``); it waits its turn on the connection.

        Raises:
            sqlite3.Error: the database did not answer. RuntimeError: closed.
        """
        await self._read_now(lambda conn: conn.execute("SELECT 1").fetchone())

    # ------------------------------------------------------------------ transactions
    #
    # A unit of work (``atomic()``) does not talk to the database while it runs:
    # each write made inside it is queued as a function of the raw ``sqlite3``
    # connection, and at the end ONE call on aiosqlite's worker thread runs
    # ``BEGIN IMMEDIATE``, every queued write, and ``COMMIT`` (or ``ROLLBACK`` on
    # any error). A read, or a write whose result the caller needs, inside a unit
    # first "flushes": that call opens the transaction and runs what is queued,
    # and the unit then holds the connection until its commit.

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

    def _unit(self) -> _Unit | None:
        """The unit of work the running task has open, if any."""
        task = asyncio.current_task()
        return None if task is None else self._units.get(task)

    def _inside(self) -> bool:
        """Whether the running task holds an ``atomic()`` unit of ours."""
        return self._unit() is not None

    async def _acquire(self) -> None:
        """Take the connection lock, acknowledging the interaction first if taken."""
        if self._lock.locked():
            await acknowledge()
        await self._lock.acquire()

    async def _transaction(self, unit: _Unit | None,
                           fn: Callable[[sqlite3.Connection], T], *, commit: bool) -> T:
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

        def run(conn: sqlite3.Connection) -> T:
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
            unit.begun = not commit
        return result

    async def _hold(self, unit: _Unit) -> None:
        """Take the connection lock for ``unit`` (kept until its end)."""
        if not unit.locked:
            await self._acquire()
            unit.locked = True

    async def _flush(self, unit: _Unit) -> None:
        """Open the unit's transaction (taking the lock) and run what it queued."""
        await self._hold(unit)
        if not unit.begun or unit.pending:
            await self._transaction(unit, _nothing, commit=False)

    async def _read_now(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """A read: inside a unit it sees the unit's writes (flushed first)."""
        unit = self._unit()
        if unit is not None:
            await self._flush(unit)
            return await self._on_thread(fn)
        await self._acquire()
        try:
            return await self._on_thread(fn)
        finally:
            self._lock.release()

    async def _write_later(self, fn: Callable[[sqlite3.Connection], object]) -> None:
        """A write whose result nobody needs: queued in the running unit (run at its
        commit, in order), or its own one-call transaction outside any unit."""
        unit = self._unit()
        if unit is not None:
            unit.pending.append(fn)
            return
        await self._write_now(fn)

    async def _write_now(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """A write whose result the caller needs: run now, in the running unit's
        transaction (flushing what it queued, in the same call) or in its own."""
        unit = self._unit()
        if unit is not None:
            await self._hold(unit)
            return await self._transaction(unit, fn, commit=False)
        await self._acquire()
        try:
            return await self._transaction(None, fn, commit=True)
        finally:
            self._lock.release()

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[aiosqlite.Connection]:
        """The aiosqlite connection for several reads in a row (inside a unit:
        after flushing it, so they see its writes)."""
        unit = self._unit()
        if unit is not None:
            await self._flush(unit)
            yield self._conn()
            return
        await self._acquire()
        try:
            yield self._conn()
        finally:
            self._lock.release()

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[aiosqlite.Connection]:
        """The aiosqlite connection inside an open transaction: the running unit's
        (flushed) or a unit of its own, committed when the block ends."""
        async with self.atomic():
            unit = self._unit()
            assert unit is not None
            await self._flush(unit)
            yield self._conn()

    @asynccontextmanager
    async def atomic(self) -> AsyncIterator[None]:
        """One unit of work: every storage call the running task makes inside the
        block is committed together in one ``BEGIN IMMEDIATE … COMMIT``, or (on
        any error, a failed commit included) none is. Writes are queued and sent
        in one call on the database thread at the end (see above); a block that
        wrote nothing touches nothing. Nested blocks join the outer one.

        Raises:
            sqlite3.Error: the transaction could not begin (e.g. ``database is
                locked`` after ``BUSY_WAIT``) or commit; nothing was written.
            TableClosed: a ``require_open`` check failed; nothing was written.
        """
        if self._inside():
            yield
            return
        task = asyncio.current_task()
        assert task is not None
        unit = self._units[task] = _Unit()
        try:
            try:
                yield
            except BaseException:
                if unit.begun:
                    await asyncio.shield(self._on_thread(_rollback))
                raise
            if unit.begun or unit.pending:
                await self._hold(unit)
                await self._transaction(unit, _nothing, commit=True)
        finally:
            del self._units[task]
            if unit.locked:
                self._lock.release()

    def _commit(self, conn: sqlite3.Connection) -> None:
        """``COMMIT`` the open transaction, on the database thread (the one place
        every write is made durable; fault-injection tests make it fail)."""
        conn.execute("COMMIT")

    async def require_open(self, table_id: int) -> None:
        """Inside a unit: its commit first checks that the table is still open
        (``lobby`` or ``playing``), else raises ``TableClosed`` and writes nothing."""
        def check(conn: sqlite3.Connection) -> None:
            row = conn.execute("SELECT status FROM tables WHERE id = ?", (table_id,)).fetchone()
            if row is None or row[0] not in ("lobby", "playing"):
                raise TableClosed(table_id)
        await self._write_later(check)

    @staticmethod
    async def _one(db: aiosqlite.Connection, sql: str, params: Iterable[Any] = ()) -> Any:
        async with db.execute(sql, tuple(params)) as cursor:
            return await cursor.fetchone()

    @staticmethod
    async def _all(db: aiosqlite.Connection, sql: str, params: Iterable[Any] = ()) -> list[Any]:
        async with db.execute(sql, tuple(params)) as cursor:
            return list(await cursor.fetchall())

    # ------------------------------------------------------------------ settings

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
        coach: bool = True,
    ) -> TableRow:
        """Insert a lobby table; ``number`` = 1 + max number in the guild.
        ``place``: ``channel`` / ``thread`` (created by the bot for this table) or
        ``here`` (an existing channel); ``coach``: hints allowed. Raises ValueError
        for another place."""
        if place is not None and place not in TABLE_MODES:
            raise ValueError(f"unknown table place {place!r}")
        def insert(conn: sqlite3.Connection) -> TableRow:
            cursor = conn.execute(
                "INSERT INTO tables (guild_id, channel_id, number, host_id, preset, options,"
                " status, next_deal_delay, created_at, place, coach, opened_by)"
                " SELECT ?, ?, COALESCE(MAX(number), 0) + 1, ?, ?, ?, 'lobby', ?, ?, ?, ?, ?"
                " FROM tables WHERE guild_id = ?",
                (guild_id, channel_id, host_id, preset, json.dumps(options), next_deal_delay,
                 _now(), place, int(coach), host_id, guild_id),
            )
            return _table_row(conn.execute(_TABLE_SELECT + " WHERE t.id = ?",
                                           (cursor.lastrowid,)).fetchone())
        return await self._write_now(insert)

    async def next_table_number(self, guild_id: int) -> int:
        """The ``number`` the guild's next table will get (1 + max so far)."""
        async with self._read() as db:
            row = await self._one(
                db, "SELECT COALESCE(MAX(number), 0) + 1 FROM tables WHERE guild_id = ?",
                (guild_id,),
            )
        return int(row[0])

    async def _update_table(self, table_id: int, sql: str, params: tuple[Any, ...]) -> None:
        def update(conn: sqlite3.Connection) -> None:
            if conn.execute(sql, (*params, table_id)).rowcount == 0:
                raise ValueError(f"no table {table_id}")
        await self._write_later(update)

    async def add_ledger(self, guild_id: int, table_id: int, deal: DealKey | None,
                         entries: list[LedgerEntry]) -> None:
        """Append point movements that belong to no deal's close (e.g. a closed
        game's carried pot shared out), in one transaction; ``deal``: the deal
        they belong to, if any."""
        def insert(conn: sqlite3.Connection) -> None:
            deal_id = None if deal is None else _deal_id(conn, deal)
            conn.executemany(
                "INSERT INTO ledger (guild_id, table_id, deal_id, seat, member_id, amount,"
                " reason, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [(guild_id, table_id, deal_id, e.seat, e.member_id, e.amount, e.reason, _now())
                 for e in entries],
            )
        await self._write_later(insert)

    async def set_showdown_message(self, deal: DealKey, message_id: int) -> None:
        """Remember the message that announced the deal's showdown.
        Raises ValueError for an unknown deal."""
        def update(conn: sqlite3.Connection) -> None:
            if conn.execute(
                "UPDATE deals SET showdown_message_id = ? WHERE table_id = ? AND number = ?",
                (message_id, *deal),
            ).rowcount == 0:
                raise ValueError(f"no deal {deal}")
        await self._write_later(update)

    async def set_seat_state(
        self, table_id: int, seat: int, *, away: bool | None = None,
        timeouts: int | None = None, gone: bool | None = None,
    ) -> None:
        """Set whichever presence fields are given. Raises ValueError for an unknown seat."""
        def update(conn: sqlite3.Connection) -> None:
            if conn.execute(
                "UPDATE seats SET away = COALESCE(?, away), timeouts = COALESCE(?, timeouts),"
                " gone = COALESCE(?, gone) WHERE table_id = ? AND seat = ?",
                (None if away is None else int(away), timeouts,
                 None if gone is None else int(gone), table_id, seat),
            ).rowcount == 0:
                raise ValueError(f"no seat {seat} at table {table_id}")
        await self._write_later(update)

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

    async def add_seat(self, table_id: int, member_id: int | None, name: str,
                       ai_level: str | None = None) -> SeatRow:
        """Append a seat (next number); an AI seat (``member_id`` None) plays at
        ``ai_level`` (``easy`` when not given). Raises ValueError if the member
        already sits at an open table of the guild, or if the table does not exist."""
        if member_id is None:
            ai_level = ai_level or "easy"
        elif ai_level is not None:
            raise ValueError("a member's seat has no AI level")
        def insert(conn: sqlite3.Connection) -> SeatRow:
            table = conn.execute("SELECT guild_id FROM tables WHERE id = ?",
                                 (table_id,)).fetchone()
            if table is None:
                raise ValueError(f"no table {table_id}")
            if member_id is not None:
                seated = conn.execute(
                    "SELECT t.number FROM tables t JOIN seats s ON s.table_id = t.id"
                    " WHERE t.guild_id = ? AND s.member_id = ? AND t.status IN"
                    " ('lobby', 'playing') ORDER BY t.id LIMIT 1",
                    (table["guild_id"], member_id),
                ).fetchone()
                if seated is not None:
                    raise ValueError(
                        f"member {member_id} is already seated at table {seated[0]}"
                    )
            row = conn.execute("SELECT COALESCE(MAX(seat) + 1, 0) FROM seats WHERE table_id = ?",
                               (table_id,)).fetchone()
            seat = SeatRow(table_id=table_id, seat=int(row[0]), member_id=member_id, name=name,
                           ai_level=ai_level)
            conn.execute(
                "INSERT INTO seats (table_id, seat, member_id, name, ai_level)"
                " VALUES (?, ?, ?, ?, ?)",
                (seat.table_id, seat.seat, seat.member_id, seat.name, seat.ai_level),
            )
            return seat
        return await self._write_now(insert)

    async def remove_seat(self, table_id: int, seat: int) -> None:
        """Lobby only: delete the seat and renumber later seats down by one.
        Raises ValueError if the table is not in the lobby or has no such seat."""
        def delete(conn: sqlite3.Connection) -> None:
            table = conn.execute("SELECT status FROM tables WHERE id = ?",
                                 (table_id,)).fetchone()
            if table is None or table["status"] != "lobby":
                raise ValueError(f"table {table_id} is not in the lobby")
            if conn.execute("DELETE FROM seats WHERE table_id = ? AND seat = ?",
                            (table_id, seat)).rowcount == 0:
                raise ValueError(f"table {table_id} has no seat {seat}")
            # Two steps so the (table_id, seat) key never collides mid-update.
            conn.execute("UPDATE seats SET seat = seat + ? WHERE table_id = ? AND seat > ?",
                         (_SEAT_SHIFT, table_id, seat))
            conn.execute("UPDATE seats SET seat = seat - ? WHERE table_id = ? AND seat >= ?",
                         (_SEAT_SHIFT + 1, table_id, _SEAT_SHIFT))
        await self._write_later(delete)

    # ------------------------------------------------------------------ games, deals, actions

    async def start_game(self, table_id: int, first_dealer: int) -> None:
        """Set first_dealer and status 'playing' (creates the ``games`` row).
        Raises ValueError unless the table is in the lobby."""
        def start(conn: sqlite3.Connection) -> None:
            if conn.execute(
                "UPDATE tables SET status = 'playing' WHERE id = ? AND status = 'lobby'",
                (table_id,),
            ).rowcount == 0:
                raise ValueError(f"table {table_id} is not in the lobby")
            conn.execute("INSERT INTO games (table_id, first_dealer, started_at) VALUES (?, ?, ?)",
                         (table_id, first_dealer, _now()))
        await self._write_later(start)

    async def start_deal(
        self, table_id: int, number: int, dealer: int, deck: list[str], *,
        commitment: str | None = None, seed: str | None = None,
        cuts: list[str] | None = None, cut_by: int | None = None, attempt: int | None = None,
    ) -> DealKey:
        """Insert the table's open deal ``number``; returns its key (known at
        once: inside a unit the row is written at its commit). UNIQUE(table_id,
        number): a duplicate raises sqlite3.IntegrityError. ``deck`` is 52 card codes, top
        first; raises ValueError otherwise. A deal dealt from the game's seed stores
        the ``attempt`` it was dealt from; a format 1 deal (docs/FAIRNESS.md) its
        ``commitment`` and ``seed`` (hex), ``cuts`` (hex strings) and ``cut_by`` (the
        member who cut; ``None``: the bot). None of them changes later."""
        if len(deck) != 52 or any(len(code) != 2 or not code.isalnum() for code in deck):
            raise ValueError("deck must be 52 two-character card codes")
        params = (table_id, number, dealer, " ".join(deck), _now(), commitment, seed,
                  None if cuts is None else json.dumps(cuts), cut_by, attempt)

        def insert(conn: sqlite3.Connection) -> None:
            conn.execute(
                "INSERT INTO deals (table_id, number, dealer, deck, status, started_at,"
                " commitment, seed, cuts, cut_by, attempt)"
                " VALUES (?, ?, ?, ?, 'open', ?, ?, ?, ?, ?, ?)", params)
        await self._write_later(insert)
        return DealKey(table_id, number)

    async def game_seed(self, table_id: int) -> str | None:
        """The game's secret seed (hex), if drawn. Only rebuilding the table reads
        it: it is in no row the other queries return."""
        async with self._read() as db:
            row = await self._one(db, "SELECT game_seed FROM tables WHERE id = ?", (table_id,))
        return None if row is None else row["game_seed"]

    async def add_cut(self, table_id: int, deal_number: int, member_id: int, text: str) -> None:
        """Append a member's cut for deal ``deal_number`` (from 1) to the table's
        shuffle log. One cut per member and deal: a second raises
        sqlite3.IntegrityError (nothing written)."""
        params = (table_id, deal_number, member_id, json.dumps({"text": text}), _now())
        await self._write_later(lambda conn: conn.execute(
            "INSERT INTO shuffle_events (table_id, kind, deal_number, member_id, payload,"
            " created_at) VALUES (?, 'cut', ?, ?, ?, ?)", params))

    async def add_attempt(self, table_id: int, deal_number: int, attempt: int,
                          cuts: list[dict[str, Any]]) -> None:
        """Append attempt ``attempt`` (from 1) at deal ``deal_number`` with the
        ``cuts`` it uses (``[{"seat", "text"}]``) to the shuffle log; written and
        committed before the deal's deck is derived. A repeated attempt raises
        sqlite3.IntegrityError (nothing written)."""
        params = (table_id, deal_number, attempt, json.dumps({"cuts": cuts}), _now())
        await self._write_later(lambda conn: conn.execute(
            "INSERT INTO shuffle_events (table_id, kind, deal_number, attempt, payload,"
            " created_at) VALUES (?, 'attempt', ?, ?, ?, ?)", params))

    async def shuffle_events(self, table_id: int) -> list[ShuffleEvent]:
        """The table's shuffle log, in order (docs/FAIRNESS.md "In the bot")."""
        async with self._read() as db:
            return shuffle_events(await self._all(db, SHUFFLE_EVENTS, (table_id,)))

    async def append_action(
        self, deal: DealKey, seq: int, payload: dict[str, Any], member_id: int | None,
        *, finish: tuple[str, list[LedgerEntry], list[HandResult]] | None = None,
    ) -> None:
        """Append one action to the deal (UNIQUE(deal_id, seq): a duplicate raises
        sqlite3.IntegrityError and changes nothing). With ``finish=(status,
        ledger, hands)`` the deal is closed in the same transaction: status set,
        ledger rows (guild, table, deal, seat, member, amount, reason) and hand
        results inserted. Appending to a closed deal raises sqlite3.IntegrityError;
        a bad ``finish`` raises ValueError (see ``finish_deal``); nothing is written
        on any error."""
        if finish is not None:
            self._check_finish(finish[0])
        text = json.dumps(payload)

        def append(conn: sqlite3.Connection) -> None:
            deal_id = _deal_id(conn, deal)
            conn.execute(
                "INSERT INTO actions (deal_id, seq, payload, member_id, created_at)"
                " VALUES (?, ?, ?, ?, ?)",
                (deal_id, seq, text, member_id, _now()),
            )
            if finish is not None:
                _close_deal(conn, deal_id, *finish)
        await self._write_later(append)

    async def finish_deal(
        self, deal: DealKey, status: str, ledger: list[LedgerEntry], hands: list[HandResult],
    ) -> None:
        """Close a deal without an action (void: status 'void', refund rows).
        ``status`` is ``finished`` or ``void``; raises ValueError for another
        status or a deal that is not open (nothing is written)."""
        self._check_finish(status)
        await self._write_later(
            lambda conn: _close_deal(conn, _deal_id(conn, deal), status, ledger, hands))

    async def finish_game(self, table_id: int, winners: list[int], status: str) -> None:
        """Record the game's winning seats and set the table status (normally
        ``finished``; ``closed`` for an abandoned game). Raises ValueError if the
        game was never started or the status is unknown."""
        if status not in TABLE_STATUSES:
            raise ValueError(f"unknown table status {status!r}")
        def finish(conn: sqlite3.Connection) -> None:
            if conn.execute(
                "UPDATE games SET winners = ?, finished_at = ? WHERE table_id = ?",
                (json.dumps(list(winners)), _now(), table_id),
            ).rowcount == 0:
                raise ValueError(f"table {table_id} has no started game")
            conn.execute("UPDATE tables SET status = ? WHERE id = ?", (status, table_id))
        await self._write_later(finish)

    async def add_hint(self, deal: DealKey, seq: int, seat: int, member_id: int | None,
                       advice: str, reason: str) -> None:
        """Record a hint the coach gave ``seat`` of ``deal`` after ``seq``
        operations: its ``advice`` (an operation's wording) and ``reason``
        (one line). Append-only. Raises ValueError for an unknown deal."""
        now = _now()

        def insert(conn: sqlite3.Connection) -> None:
            conn.execute(
                "INSERT INTO hints (deal_id, seq, seat, member_id, advice, reason, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (_deal_id(conn, deal), seq, seat, member_id, advice, reason, now))
        await self._write_later(insert)

    async def hints(self, table_id: int) -> dict[int, list[HintRow]]:
        """The hints given at the table: deal number -> hints in the order given."""
        async with self._read() as db:
            rows = await self._all(
                db,
                "SELECT d.number, h.seq, h.seat, h.member_id, h.advice, h.reason FROM hints h"
                " JOIN deals d ON d.id = h.deal_id WHERE d.table_id = ?"
                " ORDER BY d.number, h.created_at, h.rowid",
                (table_id,),
            )
        out: dict[int, list[HintRow]] = {}
        for row in rows:
            out.setdefault(row["number"], []).append(HintRow(
                seq=row["seq"], seat=row["seat"], member_id=row["member_id"],
                advice=row["advice"], reason=row["reason"]))
        return out

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
        return _deal_rows(deal_rows, action_rows)

    async def open_state(self, shards: tuple[Sequence[int], int] | None = None,
                         ) -> tuple[list[OpenTable], dict[int, int]]:
        """Everything needed to rebuild every open table, in one call on the
        database thread and six set-based queries (whatever the number of
        tables): the open tables (by id) with their game seed, seats, deals,
        actions and shuffle logs; and, per guild with an open table, its ledger's drift (the sum of
        its rows plus the points in its open pools and pots: 0 when the books are
        right; docs/RELIABILITY.md, "Ledger"). ``shards``: ``(shard_ids,
        shard_count)``, only the tables of the guilds those shards own (``None``:
        every guild); ValueError for bad shards (``open_state_sql``)."""
        queries = open_state_sql(shards)

        def read(conn: sqlite3.Connection) -> tuple[list[OpenTable], dict[int, int]]:
            tables = conn.execute(queries.tables).fetchall()
            seats: dict[int, list[SeatRow]] = {}
            for row in conn.execute(queries.seats):
                seats.setdefault(row["table_id"], []).append(_seat_row(row))
            deal_rows = conn.execute(queries.deals).fetchall()
            action_rows = conn.execute(queries.actions).fetchall()
            deals: dict[int, list[DealRow]] = {}
            for raw, deal in zip(deal_rows, _deal_rows(deal_rows, action_rows), strict=True):
                deals.setdefault(raw["table_id"], []).append(deal)
            drift = {int(guild): int(off) for guild, off in conn.execute(queries.drift)}
            events: dict[int, list[Any]] = {}
            for row in conn.execute(queries.events):
                events.setdefault(row["table_id"], []).append(row)
            return [OpenTable(_table_row(row), row["game_seed"], seats.get(row["id"], []),
                              deals.get(row["id"], []), shuffle_events(events.get(row["id"], [])))
                    for row in tables], drift
        return await self._read_now(read)

    # ------------------------------------------------------------------ ledger and statistics

    async def guild_ledger_sum(self, guild_id: int) -> int:
        """Sum of every ledger amount in the guild, AI seats included: 0 when
        consistent and no open table holds points in a pool or pot, else minus
        ``points_in_pots``."""
        async with self._read() as db:
            row = await self._one(
                db, "SELECT COALESCE(SUM(amount), 0) FROM ledger WHERE guild_id = ?", (guild_id,)
            )
        return int(row[0])

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
        params = (guild_id, member_id, action, detail, _now())
        await self._write_later(lambda conn: conn.execute(
            "INSERT INTO audit (guild_id, member_id, action, detail, created_at)"
            " VALUES (?, ?, ?, ?, ?)", params))
