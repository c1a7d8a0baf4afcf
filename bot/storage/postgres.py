"""The ``PgStorage`` repository: the same interface and guarantees as ``Storage``
(``bot/storage/database.py``) on PostgreSQL through asyncpg, chosen by a
``DATABASE_URL`` of ``postgresql://…`` (``open_storage``).

One connection, guarded by one lock, as the SQLite storage has: every public
coroutine holds the lock for its whole run, so the statements of one call never
interleave with another coroutine's, and a unit of work (``atomic()``) queues
its writes and sends them in ONE transaction when it ends. One connection
rather than a pool keeps the writes of this process in one order, as SQLite's
``BEGIN IMMEDIATE`` does (a table's number and seat numbers are read, then
written), and a move is only a handful of statements. Several bot processes
(shards) share the database;
each serves only the guilds of its shards (``claim_shards``), so their writes
never touch the same rows.

A second connection, opened by ``claim_shards`` only, holds the process's
claim until ``close`` (``bot/storage/claims.py``): a process whose guilds
overlap a running one's, whatever the two ``SHARD_COUNT``s, is refused with
``DatabaseInUse``; every write transaction first checks the claim is still this
process's; a lost claims connection is taken back at once, or the process is
told (``on_lost``) and writes nothing more.

The schema is ``migrations/postgres/NNNN_name.sql`` (``pg_migrate.migrate``): the
same history as the SQLite files, in PostgreSQL's dialect; the append-only
action log and ledger are enforced there by triggers, and the ledger's zero-sum
check is plain SQL (``open_state``'s drift query, shared with ``Storage``).
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import os
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import unquote, urlsplit

import asyncpg
from asyncpg.transaction import Transaction

from ..shards import Shards
from ..waiting import acknowledge
from .claims import KEEPALIVE, Claim
from .database import (
    _SEAT_SHIFT,
    _SETTING_FIELDS,
    _UPSERT_SETTINGS,
    BUSY_WAIT,
    SHUFFLE_EVENTS,
    TABLE_MODES,
    DatabaseNotWritable,
    DatabaseUnavailable,
    TableClosed,
    _deal_rows,
    _now,
    _seat_row,
    check_shards,
    open_state_sql,
    shuffle_events,
)
from .models import (
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
from .pg_migrate import migrate
from .reports import Reports
from .shared import TABLE_SELECT as _TABLE_SELECT
from .shared import TABLE_STATUSES, TableUpdates
from .shared import table_row as _table_row

log = logging.getLogger(__name__)


T = TypeVar("T")
#: a queued write: an async function of the connection, run inside the unit's transaction
Write = Callable[[asyncpg.Connection], Awaitable[object]]

#: milliseconds a statement waits for another session's lock before the first try of a
#: transaction gives up; the transaction is then run again after acknowledging the
#: interaction, waiting up to ``BUSY_WAIT`` seconds in all (as SQLite's ``BEGIN IMMEDIATE``)
FIRST_WAIT_MS = 100
#: seconds ``open`` waits for the server to accept the connection
CONNECT_TIMEOUT = 10.0
#: seconds a statement of ``open`` (migrations, the probe write) waits for a lock
MIGRATION_WAIT = 60.0


@lru_cache(maxsize=512)
def pg_sql(sql: str) -> str:
    """``sql`` written with SQLite's ``?`` placeholders, with PostgreSQL's ``$1``,
    ``$2``… instead (in order; a ``?`` inside a quoted string is left alone).
    The one translation between the two dialects' statements."""
    out: list[str] = []
    number = 0
    quoted = False
    for char in sql:
        if char == "'":
            quoted = not quoted
        if char == "?" and not quoted:
            number += 1
            out.append(f"${number}")
        else:
            out.append(char)
    return "".join(out)


def _count(status: str) -> int:
    """The rows a command touched, from asyncpg's status (``"UPDATE 1"`` → 1)."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


def describe_url(url: str) -> str:
    """``url`` for messages and logs: the database and its host, never the user name
    or password (``database commerce on db:5432``)."""
    parts = urlsplit(url)
    name = unquote(parts.path.lstrip("/")) or "(default)"
    host = parts.hostname or ""
    if not host:
        query = dict(p.split("=", 1) for p in parts.query.split("&") if "=" in p)
        host = unquote(query.get("host", "")) or "the local socket"
    port = f":{parts.port}" if parts.port else ""
    return f"the PostgreSQL database {name} on {host}{port}"


async def _one(db: asyncpg.Connection, sql: str, params: Iterable[Any] = ()) -> Any:
    return await db.fetchrow(pg_sql(sql), *params)


async def _all(db: asyncpg.Connection, sql: str, params: Iterable[Any] = ()) -> list[Any]:
    return list(await db.fetch(pg_sql(sql), *params))


async def _deal_id(conn: asyncpg.Connection, deal: DealKey) -> int:
    """The storage id of ``deal``. Raises ValueError if there is none."""
    found = await conn.fetchval("SELECT id FROM deals WHERE table_id = $1 AND number = $2",
                                *deal)
    if found is None:
        raise ValueError(f"no deal {deal}")
    return int(found)


_INSERT_LEDGER = pg_sql(
    "INSERT INTO ledger (guild_id, table_id, deal_id, seat, member_id, amount, reason,"
    " created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")


async def _close_deal(conn: asyncpg.Connection, deal_id: int, status: str,
                      ledger: list[LedgerEntry], hands: list[HandResult]) -> None:
    """Close an open deal: its status, ledger rows and hand results.
    Raises ValueError if the deal is not open."""
    now = _now()
    if _count(await conn.execute(
            "UPDATE deals SET status = $1, finished_at = $2 WHERE id = $3 AND status = 'open'",
            status, now, deal_id)) == 0:
        raise ValueError(f"deal {deal_id} is not open")
    deal = await conn.fetchrow(
        "SELECT d.table_id, t.guild_id FROM deals d JOIN tables t ON t.id = d.table_id"
        " WHERE d.id = $1", deal_id)
    assert deal is not None  # the update above found it
    if ledger:
        await conn.executemany(_INSERT_LEDGER, [
            (deal["guild_id"], deal["table_id"], deal_id, e.seat, e.member_id, e.amount,
             e.reason, now) for e in ledger])
    if hands:
        await conn.executemany(
            "INSERT INTO deal_hands (deal_id, seat, member_id, score, label, won, category,"
            " knocked) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
            [(deal_id, h.seat, h.member_id, h.score, h.label, int(h.won), h.category,
              int(h.knocked)) for h in hands])


async def _nothing(conn: asyncpg.Connection) -> None:
    """A step that does nothing (a flush or a commit with nothing more to run)."""


class UnitFailed(RuntimeError):
    """A storage call inside a unit of work whose transaction already failed (and
    was rolled back): nothing of the unit will be written."""


@dataclasses.dataclass(eq=False)
class _Unit:
    """An open ``atomic()`` block: its queued writes, whether it holds the
    connection lock, its open transaction, and whether that transaction failed."""

    pending: list[Write] = dataclasses.field(default_factory=list)
    locked: bool = False
    tx: Transaction | None = None
    failed: bool = False

    @property
    def begun(self) -> bool:
        """The unit's transaction is open (it flushed)."""
        return self.tx is not None


class _PgUnits:
    """The connection and the units of work of ``PgStorage`` (the transactions
    section of ``Storage``, on asyncpg); the repository methods build on it."""

    def __init__(self, db: asyncpg.Connection, url: str,
                 application: str = "commerce-bot") -> None:
        """Use ``PgStorage.open``; this only wraps an already prepared connection."""
        self._db: asyncpg.Connection | None = db
        self.url = url
        #: who this is on the server (``application_name``, and the claim's holder)
        self.application = application
        #: the path the SQLite storage has (no database file lives here; a copy of the
        #: whole database is made on the host: ``python -m bot.storage backup``)
        self.path = Path("data") / "postgresql"
        self._lock = asyncio.Lock()
        self._units: dict[asyncio.Task[Any], _Unit] = {}
        #: this process's claim on its guilds (``claim_shards``), once made
        self._claim: Claim | None = None
        #: transactions and reads sent so far (as ``Storage.round_trips``; tests count them)
        self.round_trips = 0
        #: times the connection was found closed and opened again
        self.reconnects = 0
        #: claims' locks taken and claims' connections lost by earlier claims
        #: (``claims_made`` and ``claims_lost`` add the present one's; ``bot.health``)
        self._claims_taken = self._claims_dropped = 0

    @staticmethod
    async def _connect_raw(url: str, application: str = "commerce-bot",
                           settings: dict[str, str] | None = None) -> asyncpg.Connection:
        """A connection with the session settings the storage relies on, and
        ``settings`` (its failures are asyncpg's and OSError: storage errors)."""
        return await asyncpg.connect(
            url, timeout=CONNECT_TIMEOUT, server_settings={
                "application_name": f"{application} pid {os.getpid()}",
                "lock_timeout": f"{FIRST_WAIT_MS}ms", "TimeZone": "UTC", **(settings or {})})

    @classmethod
    async def _connect(cls, url: str, *, application: str = "commerce-bot",
                       settings: dict[str, str] | None = None) -> asyncpg.Connection:
        """``_connect_raw`` for a start: its failures become one-line
        ``DatabaseUnavailable`` errors."""
        where = describe_url(url)
        try:
            return await cls._connect_raw(url, application, settings)
        except (asyncpg.InvalidPasswordError,
                asyncpg.InvalidAuthorizationSpecificationError) as exc:
            raise DatabaseUnavailable(
                f"{where} refused the login ({type(exc).__name__}): check the user and "
                "password in DATABASE_URL") from None
        except asyncpg.InvalidCatalogNameError:
            raise DatabaseUnavailable(f"{where} does not exist: create it first") from None
        except (OSError, TimeoutError) as exc:
            cause = getattr(exc, "strerror", None) or type(exc).__name__
            raise DatabaseUnavailable(
                f"{where} cannot be reached ({cause}): is the server running?") from None
        except asyncpg.PostgresError as exc:
            raise DatabaseUnavailable(f"{where} refused the connection: {exc}") from None

    # ------------------------------------------------------------------ transactions
    # As ``Storage``: a unit queues its writes (async functions of the connection) and
    # sends them in one transaction at its end; a read or a write whose result is needed
    # "flushes" first (opens the transaction and runs what is queued), and the unit then
    # keeps the connection until its commit.

    async def _connection(self) -> asyncpg.Connection:
        """The connection; connected again first if it was lost (a restarted server,
        a killed backend): the call that found it lost failed, the next one works."""
        if self._db is None:
            raise RuntimeError("Storage is closed")
        if self._db.is_closed():
            self._db = await self._connect_raw(self.url, self.application)
            self.reconnects += 1
            log.warning("the PostgreSQL connection was lost; connected again")
        return self._db

    def _unit(self) -> _Unit | None:
        task = asyncio.current_task()
        return None if task is None else self._units.get(task)

    async def _acquire(self) -> None:
        """Take the connection lock, acknowledging the interaction first if taken."""
        if self._lock.locked():
            await acknowledge()
        await self._lock.acquire()

    async def _abandon(self, conn: asyncpg.Connection, tx: Transaction) -> None:
        """Roll ``tx`` back; a connection that cannot even do that is dropped (the
        next call connects again)."""
        try:
            await asyncio.shield(tx.rollback())
        except Exception:  # a lost connection fails in several ways: drop it whatever
            conn.terminate()

    @staticmethod
    def _broken(conn: asyncpg.Connection, exc: asyncpg.InternalClientError) -> asyncpg.InterfaceError:
        """The error to raise when asyncpg's protocol lost its footing (a connection
        killed while it was idle can surface so): an ``InterfaceError``, a storage
        error like any lost connection's; the connection is dropped."""
        conn.terminate()
        return asyncpg.InterfaceError(f"the connection to PostgreSQL broke ({exc})")

    async def _transaction(self, unit: _Unit | None, fn: Callable[[asyncpg.Connection],
                           Awaitable[T]], *, commit: bool) -> T:
        """One transaction (or, for a unit that has begun, more of it): the unit's
        queued writes, ``fn``, then the commit when ``commit``; rolled back on any
        error. The caller holds the lock.

        A fresh transaction whose statement waits more than ``FIRST_WAIT_MS`` for
        another session's lock (``LOCK TABLE`` in another session, a migration) is
        rolled back; the interaction is acknowledged and the transaction runs
        again, waiting up to the rest of ``BUSY_WAIT`` seconds; then
        ``asyncpg.LockNotAvailableError`` is raised, nothing written."""
        if unit is not None and unit.failed:
            raise UnitFailed("this unit of work already failed; nothing of it is kept")
        await self._check_claims()
        pending = [] if unit is None else unit.pending
        self.round_trips += 1
        if unit is not None and unit.tx is not None:
            conn = self._conn_now()
            tx = unit.tx
            try:
                result = await self._steps(conn, pending, fn)
                if commit:
                    await self._commit(tx)
            except BaseException as exc:
                unit.failed, unit.tx = True, None
                await self._abandon(conn, tx)
                if isinstance(exc, asyncpg.InternalClientError):
                    raise self._broken(conn, exc) from exc
                raise
        else:
            result, tx, conn = await self._fresh(pending, fn, commit, unit)
        if unit is not None:
            unit.pending = []
            unit.tx = None if commit else tx
        return result

    def _conn_now(self) -> asyncpg.Connection:
        if self._db is None:
            raise RuntimeError("Storage is closed")
        return self._db

    async def _fresh(self, pending: list[Write], fn: Callable[[asyncpg.Connection], Awaitable[T]],
                     commit: bool, unit: _Unit | None,
                     ) -> tuple[T, Transaction, asyncpg.Connection]:
        """``_transaction`` for a transaction not begun yet: retried once after a
        lock wait (see there)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + BUSY_WAIT
        wait_ms: int | None = None
        while True:
            conn = await self._connection()
            tx = conn.transaction()
            try:
                await tx.start()
                if wait_ms is not None:
                    await conn.execute(f"SET LOCAL lock_timeout = {wait_ms}")
                if self._claim is not None:
                    await self._claim.fence(conn)
                result = await self._steps(conn, pending, fn)
                if commit:
                    await self._commit(tx)
                return result, tx, conn
            except asyncpg.LockNotAvailableError:
                await self._abandon(conn, tx)
                left = deadline - loop.time()
                if wait_ms is not None or left <= 0:
                    if unit is not None:
                        unit.failed = True
                    raise
                await acknowledge()
                wait_ms = max(1, int(left * 1000))
            except BaseException as exc:
                await self._abandon(conn, tx)
                if unit is not None:
                    unit.failed = True
                if isinstance(exc, asyncpg.InternalClientError):
                    raise self._broken(conn, exc) from exc
                raise

    @staticmethod
    async def _steps(conn: asyncpg.Connection, pending: list[Write],
                     fn: Callable[[asyncpg.Connection], Awaitable[T]]) -> T:
        for write in pending:
            await write(conn)
        return await fn(conn)

    async def _check_claims(self) -> None:
        """Before any write: this process's claim, if it made one, is still held
        (``Claim.check``: raises ``ShardsLost`` once it is lost for good)."""
        if self._claim is not None:
            await self._claim.check()

    async def _commit(self, tx: Transaction) -> None:
        """``COMMIT`` the open transaction (the one place every write is made
        durable; fault-injection tests make it fail)."""
        await tx.commit()

    async def _hold(self, unit: _Unit) -> None:
        if not unit.locked:
            await self._acquire()
            unit.locked = True

    async def _flush(self, unit: _Unit) -> None:
        """Open the unit's transaction (taking the lock) and run what it queued."""
        await self._hold(unit)
        if not unit.begun or unit.pending:
            await self._transaction(unit, _nothing, commit=False)

    async def _read_now(self, fn: Callable[[asyncpg.Connection], Awaitable[T]]) -> T:
        """Several reads as one call: inside a unit, in its transaction (flushed
        first); outside, in one repeatable-read snapshot."""
        unit = self._unit()
        if unit is not None:
            await self._flush(unit)
            self.round_trips += 1
            return await fn(self._conn_now())
        await self._acquire()
        try:
            conn = await self._connection()
            self.round_trips += 1
            try:
                async with conn.transaction(isolation="repeatable_read", readonly=True):
                    return await fn(conn)
            except asyncpg.InternalClientError as exc:
                raise self._broken(conn, exc) from exc
        finally:
            self._lock.release()

    async def _write_later(self, fn: Write) -> None:
        """A write whose result nobody needs: queued in the running unit (run at its
        commit, in order), or its own transaction outside any unit."""
        unit = self._unit()
        if unit is not None:
            if unit.failed:
                raise UnitFailed("this unit of work already failed; nothing of it is kept")
            unit.pending.append(fn)
            return
        await self._write_now(fn)

    async def _write_now(self, fn: Callable[[asyncpg.Connection], Awaitable[T]]) -> T:
        """A write whose result the caller needs: run now, in the running unit's
        transaction (after what it queued) or in its own."""
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
    async def _read(self) -> AsyncIterator[asyncpg.Connection]:
        """The connection for several reads in a row (inside a unit: after flushing
        it, so they see its writes)."""
        unit = self._unit()
        if unit is not None:
            await self._flush(unit)
            yield self._conn_now()
            return
        await self._acquire()
        try:
            conn = await self._connection()
            try:
                yield conn
            except asyncpg.InternalClientError as exc:
                raise self._broken(conn, exc) from exc
        finally:
            self._lock.release()

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[asyncpg.Connection]:
        """The connection inside an open transaction: the running unit's, or a unit
        of its own, committed when the block ends."""
        async with self.atomic():
            unit = self._unit()
            assert unit is not None
            await self._flush(unit)
            yield self._conn_now()

    @asynccontextmanager
    async def atomic(self) -> AsyncIterator[None]:
        """One unit of work, as ``Storage.atomic``: every storage call the running
        task makes inside the block is committed together in one transaction, or
        (on any error, a failed commit included) none is. Nested blocks join the
        outer one.

        Raises:
            asyncpg.PostgresError, asyncpg.InterfaceError: the transaction failed
                (e.g. ``LockNotAvailableError`` after ``BUSY_WAIT``, a lost
                connection) or could not commit; nothing was written.
            TableClosed: a ``require_open`` check failed; nothing was written.
        """
        if self._unit() is not None:
            yield
            return
        task = asyncio.current_task()
        assert task is not None
        unit = self._units[task] = _Unit()
        try:
            try:
                yield
            except BaseException:
                if unit.tx is not None:
                    tx, unit.tx = unit.tx, None
                    self.round_trips += 1
                    await self._abandon(self._conn_now(), tx)
                raise
            if unit.begun or unit.pending:
                await self._hold(unit)
                await self._transaction(unit, _nothing, commit=True)
        finally:
            del self._units[task]
            if unit.locked:
                self._lock.release()

    async def require_open(self, table_id: int) -> None:
        """Inside a unit: its commit first checks that the table is still open
        (``lobby`` or ``playing``), holding its row until the commit, else raises
        ``TableClosed`` and writes nothing."""
        async def check(conn: asyncpg.Connection) -> None:
            status = await conn.fetchval("SELECT status FROM tables WHERE id = $1 FOR SHARE",
                                         table_id)
            if status not in ("lobby", "playing"):
                raise TableClosed(table_id)
        await self._write_later(check)

    _one = staticmethod(_one)
    _all = staticmethod(_all)


class _PgTables(_PgUnits):
    """Settings, tables and seats of ``PgStorage``."""

    # ------------------------------------------------------------------ settings

    async def _settings(self, db: asyncpg.Connection, guild_id: int) -> GuildSettings:
        row = await _one(
            db, f"SELECT {', '.join(_SETTING_FIELDS)} FROM guild_settings WHERE guild_id = ?",
            (guild_id,))
        if row is None:
            return GuildSettings(guild_id)
        return GuildSettings(guild_id, **{name: row[name] for name in _SETTING_FIELDS})

    async def update_settings(self, guild_id: int, **fields: Any) -> GuildSettings:
        """As ``Storage.update_settings``: raises ValueError for an unknown field, an
        unknown ``table_mode`` or a negative duration."""
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
            await db.execute(pg_sql(_UPSERT_SETTINGS), guild_id, *values, _now())
        return settings

    # ------------------------------------------------------------------ tables and seats

    async def create_table(
        self, guild_id: int, channel_id: int, host_id: int, preset: str,
        options: dict[str, Any], next_deal_delay: int, place: str | None = None,
        coach: bool = True,
    ) -> TableRow:
        """As ``Storage.create_table``: a lobby table numbered 1 + the guild's
        highest; ``coach``: hints allowed. Raises ValueError for an unknown ``place``."""
        if place is not None and place not in TABLE_MODES:
            raise ValueError(f"unknown table place {place!r}")

        async def insert(conn: asyncpg.Connection) -> TableRow:
            table_id = await conn.fetchval(
                "INSERT INTO tables (guild_id, channel_id, number, host_id, preset, options,"
                " status, next_deal_delay, created_at, place, coach, opened_by) VALUES ($1, $2,"
                " (SELECT COALESCE(MAX(number), 0) + 1 FROM tables WHERE guild_id = $1), $3, $4,"
                " $5, 'lobby', $6, $7, $8, $9, $3) RETURNING id",
                guild_id, channel_id, host_id, preset, json.dumps(options), next_deal_delay,
                _now(), place, int(coach))
            return _table_row(await _one(conn, _TABLE_SELECT + " WHERE t.id = ?", (table_id,)))
        return await self._write_now(insert)

    async def next_table_number(self, guild_id: int) -> int:
        """The ``number`` the guild's next table will get (1 + max so far)."""
        async with self._read() as db:
            row = await _one(db, "SELECT COALESCE(MAX(number), 0) + 1 FROM tables"
                                 " WHERE guild_id = ?", (guild_id,))
        return int(row[0])

    async def _update_table(self, table_id: int, sql: str, params: tuple[Any, ...]) -> None:
        async def update(conn: asyncpg.Connection) -> None:
            if _count(await conn.execute(pg_sql(sql), *params, table_id)) == 0:
                raise ValueError(f"no table {table_id}")
        await self._write_later(update)

    async def add_ledger(self, guild_id: int, table_id: int, deal: DealKey | None,
                         entries: list[LedgerEntry]) -> None:
        """As ``Storage.add_ledger``: point movements outside a deal's close."""
        async def insert(conn: asyncpg.Connection) -> None:
            deal_id = None if deal is None else await _deal_id(conn, deal)
            now = _now()
            if entries:
                await conn.executemany(_INSERT_LEDGER, [
                    (guild_id, table_id, deal_id, e.seat, e.member_id, e.amount, e.reason, now)
                    for e in entries])
        await self._write_later(insert)

    async def set_showdown_message(self, deal: DealKey, message_id: int) -> None:
        """As ``Storage.set_showdown_message``; raises ValueError for an unknown deal."""
        async def update(conn: asyncpg.Connection) -> None:
            if _count(await conn.execute(
                    "UPDATE deals SET showdown_message_id = $1 WHERE table_id = $2"
                    " AND number = $3", message_id, *deal)) == 0:
                raise ValueError(f"no deal {deal}")
        await self._write_later(update)

    async def set_seat_state(
        self, table_id: int, seat: int, *, away: bool | None = None,
        timeouts: int | None = None, gone: bool | None = None,
    ) -> None:
        """Set whichever presence fields are given. Raises ValueError for an unknown seat."""
        async def update(conn: asyncpg.Connection) -> None:
            if _count(await conn.execute(
                    "UPDATE seats SET away = COALESCE($1, away), timeouts = COALESCE($2,"
                    " timeouts), gone = COALESCE($3, gone) WHERE table_id = $4 AND seat = $5",
                    None if away is None else int(away), timeouts,
                    None if gone is None else int(gone), table_id, seat)) == 0:
                raise ValueError(f"no seat {seat} at table {table_id}")
        await self._write_later(update)

    async def reset_ledger(self, guild_id: int, member_id: int | None) -> int:
        """As ``Storage.reset_ledger``: offsetting ``reset`` rows bring every
        balance of the guild to zero (points in open pots stay there, one
        ``reset-pot`` row keeps the sum right); audited. Returns the number of
        members whose balance was not zero."""
        async with self._write() as db:
            members = await _all(
                db, "SELECT member_id, SUM(amount) AS balance FROM ledger WHERE guild_id = ?"
                    " AND member_id IS NOT NULL GROUP BY member_id HAVING SUM(amount) <> 0",
                (guild_id,))
            seats = await _all(
                db, "SELECT table_id, seat, SUM(amount) AS balance FROM ledger"
                    " WHERE guild_id = ? AND member_id IS NULL AND seat IS NOT NULL"
                    " GROUP BY table_id, seat HAVING SUM(amount) <> 0", (guild_id,))
            now = _now()
            rows = ([(guild_id, None, None, None, r["member_id"], -r["balance"], "reset", now)
                     for r in members]
                    + [(guild_id, r["table_id"], None, r["seat"], None, -r["balance"], "reset",
                        now) for r in seats])
            if rows:
                await db.executemany(_INSERT_LEDGER, rows)
            pots = await self._points_in_pots(db, guild_id)
            total = int(await db.fetchval(
                "SELECT COALESCE(SUM(amount), 0) FROM ledger WHERE guild_id = $1", guild_id))
            if total != -pots:
                await db.execute(_INSERT_LEDGER, guild_id, None, None, None, None,
                                 -pots - total, "reset-pot", now)
            await db.execute(
                "INSERT INTO audit (guild_id, member_id, action, detail, created_at)"
                " VALUES ($1, $2, 'reset_ledger', $3, $4)",
                guild_id, member_id, f"{len(members)} balances reset", now)
            return len(members)

    @staticmethod
    async def _points_in_pots(db: asyncpg.Connection, guild_id: int) -> int:
        return -int(await db.fetchval(
            "SELECT COALESCE(SUM(l.amount), 0) FROM ledger l JOIN tables t ON t.id = l.table_id"
            " WHERE t.guild_id = $1 AND t.status IN ('lobby', 'playing')"
            " AND l.reason NOT IN ('reset', 'reset-pot')", guild_id))

    async def get_table(self, table_id: int) -> TableRow | None:
        """The table with this id, or None."""
        async with self._read() as db:
            row = await _one(db, _TABLE_SELECT + " WHERE t.id = ?", (table_id,))
        return None if row is None else _table_row(row)

    async def open_tables(self) -> list[TableRow]:
        """All tables with status lobby or playing, by id."""
        async with self._read() as db:
            rows = await _all(
                db, _TABLE_SELECT + " WHERE t.status IN ('lobby', 'playing') ORDER BY t.id")
        return [_table_row(row) for row in rows]

    async def seats(self, table_id: int) -> list[SeatRow]:
        """Seats ordered by seat number (0..n-1)."""
        async with self._read() as db:
            rows = await _all(db, "SELECT * FROM seats WHERE table_id = ? ORDER BY seat",
                              (table_id,))
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

        async def insert(conn: asyncpg.Connection) -> SeatRow:
            guild = await conn.fetchval("SELECT guild_id FROM tables WHERE id = $1", table_id)
            if guild is None:
                raise ValueError(f"no table {table_id}")
            if member_id is not None:
                seated = await conn.fetchval(
                    "SELECT t.number FROM tables t JOIN seats s ON s.table_id = t.id"
                    " WHERE t.guild_id = $1 AND s.member_id = $2 AND t.status IN"
                    " ('lobby', 'playing') ORDER BY t.id LIMIT 1", guild, member_id)
                if seated is not None:
                    raise ValueError(f"member {member_id} is already seated at table {seated}")
            number = await conn.fetchval(
                "SELECT COALESCE(MAX(seat) + 1, 0) FROM seats WHERE table_id = $1", table_id)
            seat = SeatRow(table_id=table_id, seat=int(number), member_id=member_id, name=name,
                           ai_level=ai_level)
            await conn.execute(
                "INSERT INTO seats (table_id, seat, member_id, name, ai_level)"
                " VALUES ($1, $2, $3, $4, $5)",
                seat.table_id, seat.seat, seat.member_id, seat.name, seat.ai_level)
            return seat
        return await self._write_now(insert)

    async def remove_seat(self, table_id: int, seat: int) -> None:
        """Lobby only: delete the seat and renumber later seats down by one.
        Raises ValueError if the table is not in the lobby or has no such seat."""
        async def delete(conn: asyncpg.Connection) -> None:
            status = await conn.fetchval("SELECT status FROM tables WHERE id = $1", table_id)
            if status != "lobby":
                raise ValueError(f"table {table_id} is not in the lobby")
            if _count(await conn.execute("DELETE FROM seats WHERE table_id = $1 AND seat = $2",
                                         table_id, seat)) == 0:
                raise ValueError(f"table {table_id} has no seat {seat}")
            # two steps so the (table_id, seat) key never collides mid-update
            await conn.execute("UPDATE seats SET seat = seat + $1 WHERE table_id = $2"
                               " AND seat > $3", _SEAT_SHIFT, table_id, seat)
            await conn.execute("UPDATE seats SET seat = seat - $1 WHERE table_id = $2"
                               " AND seat >= $3", _SEAT_SHIFT + 1, table_id, _SEAT_SHIFT)
        await self._write_later(delete)


class PgStorage(_PgTables, TableUpdates, Reports):
    """All persistence on PostgreSQL: the interface of ``Storage`` (see there for
    each method); every public coroutine is its own transaction unless noted.

    Errors are those of ``Storage`` with asyncpg's in place of sqlite3's: a
    duplicate or a write the triggers refuse raises
    ``asyncpg.IntegrityConstraintViolationError`` (``UniqueViolationError`` for a
    duplicate key), where ``Storage`` raises ``sqlite3.IntegrityError``; a lost
    connection or a failed statement raises ``asyncpg.PostgresError`` or
    ``asyncpg.InterfaceError`` (the next call connects again).
    """

    dialect = "postgres"

    # ------------------------------------------------------------------ lifecycle

    @classmethod
    async def open(cls, url: str, *, application: str = "commerce-bot") -> PgStorage:
        """Connect to ``url`` (``postgresql://user:password@host:port/name``), apply
        the migrations of ``migrations/postgres`` (``pg_migrate.migrate``: each in one
        transaction, safe when several processes start at once), then commit a
        write that changes nothing, so a read-only server or a login without the
        right to write fails here rather than at the first move.

        Raises:
            DatabaseUnavailable: the server cannot be reached, refuses the login,
                or has no such database (one line naming the database and host,
                never the password).
            CorruptDatabase: the database holds tables but is not a Commerce one,
                or its schema is newer than this bot; nothing is changed.
            DatabaseNotWritable: the probe write was refused (read-only server or
                transaction, missing privilege, full disk).

        ``application``: who this is on the server (its sessions' names, the
        holder a claim shows; ``commerce-copy`` for ``python -m bot.storage copy``).
        """
        conn = await cls._connect(url, application=application)
        try:
            # a migration waits for the locks it needs (another process migrating, a
            # running bot's open transaction) longer than a move would
            await conn.execute(f"SET lock_timeout = '{int(MIGRATION_WAIT * 1000)}ms'")
            await migrate(conn)
            await cls._probe_write(conn, url)
            await conn.execute("RESET lock_timeout")
        except BaseException:
            await conn.close()
            raise
        return cls(conn, url, application)

    @staticmethod
    async def _probe_write(conn: asyncpg.Connection, url: str) -> None:
        """Commit an update of the newest ``schema_version`` row to itself: a real
        write (a new row version in the WAL) that changes nothing."""
        try:
            async with conn.transaction():
                await conn.execute(
                    "UPDATE schema_version SET name = name"
                    " WHERE version = (SELECT MAX(version) FROM schema_version)")
        except (asyncpg.ReadOnlySQLTransactionError, asyncpg.InsufficientPrivilegeError,
                asyncpg.DiskFullError) as exc:
            raise DatabaseNotWritable(
                f"{describe_url(url)} cannot be written ({exc}): give the bot's login the "
                "right to write, on a primary server") from None

    async def close(self) -> None:
        """Close the connection, then give the claim up (idempotent)."""
        try:
            if self._db is not None:
                db, self._db = self._db, None
                async with self._lock:
                    await db.close(timeout=5)
        finally:
            if self._claim is not None:
                claim, self._claim = self._claim, None
                await claim.release()

    async def claim_shards(self, shard_ids: Sequence[int], shard_count: int, *,
                           on_lost: Callable[[str], None] | None = None) -> None:
        """Claim the guilds of shards ``shard_ids`` of ``shard_count``
        (``bot/storage/claims.py``), on a connection of their own kept until
        ``close``: no other live process may serve any of them, whatever its
        count; a process that dies gives them up with its connection. A second
        call replaces the claim (the first one is kept if the second is refused).

        Args:
            shard_ids: the process's shards.
            shard_count: the bot's number of shards (1: not sharded).
            on_lost: told, once, with a one-line reason, when the claim is lost for
                good (its connection lost and the claim not taken back); every
                write then raises ``ShardsLost``.

        Raises:
            ValueError: no shard, a count below 1, or an id outside ``0…count-1``.
            DatabaseInUse: another live process serves some of these guilds (a
                ``ClaimRefused``: one line naming both topologies and the process);
                nothing is kept of this claim.
            DatabaseUnavailable: the server cannot be reached or refuses the login.
        """
        ids = check_shards(shard_ids, shard_count)
        claim = Claim(self.url, Shards(shard_count, ids), self.application, self._claims_connect,
                      describe_url(self.url), on_lost)
        previous = self._claim
        await claim.take(previous)
        self._claim = claim
        if previous is not None:
            self._claims_dropped += previous.drops
            self._claims_taken += previous.takes
            await previous.release()

    def held_shards(self) -> tuple[int, ...]:
        """The shards whose claim this storage holds now, sorted: ``()`` while its
        claim's connection is lost (until it is taken back), once the claim is lost
        for good, and once closed."""
        claim = self._claim
        if claim is None or not claim.held or claim.lost is not None:
            return ()
        return claim.shards.served

    @property
    def claims_made(self) -> int:
        """How many times this storage took a claim's lock (each take-back counts)."""
        return self._claims_taken + (self._claim.takes if self._claim is not None else 0)

    @property
    def claims_lost(self) -> int:
        """How many times this storage's claim lost its connection (taken back or not)."""
        return self._claims_dropped + (self._claim.drops if self._claim is not None else 0)

    async def ping(self) -> None:
        """Ask the database a trivial question (``SELECT 1``) and return once it
        answered (``bot.health``); it waits its turn on the connection.

        Raises:
            asyncpg.PostgresError, asyncpg.InterfaceError, OSError: the database did
                not answer. RuntimeError: closed.
        """
        await self._read_now(lambda conn: conn.fetchval("SELECT 1"))

    @classmethod
    async def _claims_connect(cls, url: str, application: str) -> asyncpg.Connection:
        """A connection for a claim: as the storage's, with TCP keepalives."""
        return await cls._connect(url, application=application, settings=KEEPALIVE)

    # ------------------------------------------------------------------ games, deals, actions

    async def start_game(self, table_id: int, first_dealer: int) -> None:
        """Set first_dealer and status 'playing' (creates the ``games`` row).
        Raises ValueError unless the table is in the lobby."""
        async def start(conn: asyncpg.Connection) -> None:
            if _count(await conn.execute(
                    "UPDATE tables SET status = 'playing' WHERE id = $1 AND status = 'lobby'",
                    table_id)) == 0:
                raise ValueError(f"table {table_id} is not in the lobby")
            await conn.execute("INSERT INTO games (table_id, first_dealer, started_at)"
                               " VALUES ($1, $2, $3)", table_id, first_dealer, _now())
        await self._write_later(start)

    async def start_deal(
        self, table_id: int, number: int, dealer: int, deck: list[str], *,
        commitment: str | None = None, seed: str | None = None,
        cuts: list[str] | None = None, cut_by: int | None = None, attempt: int | None = None,
    ) -> DealKey:
        """As ``Storage.start_deal``; a duplicate ``(table_id, number)`` raises
        asyncpg.UniqueViolationError; a deck that is not 52 card codes, ValueError."""
        if len(deck) != 52 or any(len(code) != 2 or not code.isalnum() for code in deck):
            raise ValueError("deck must be 52 two-character card codes")
        params = (table_id, number, dealer, " ".join(deck), _now(), commitment, seed,
                  None if cuts is None else json.dumps(cuts), cut_by, attempt)

        async def insert(conn: asyncpg.Connection) -> None:
            await conn.execute(
                "INSERT INTO deals (table_id, number, dealer, deck, status, started_at,"
                " commitment, seed, cuts, cut_by, attempt) VALUES ($1, $2, $3, $4, 'open', $5,"
                " $6, $7, $8, $9, $10)", *params)
        await self._write_later(insert)
        return DealKey(table_id, number)

    async def game_seed(self, table_id: int) -> str | None:
        """The game's secret seed (hex), if drawn (see ``Storage.game_seed``)."""
        async with self._read() as db:
            seed: str | None = await db.fetchval("SELECT game_seed FROM tables WHERE id = $1",
                                                 table_id)
        return seed

    async def add_cut(self, table_id: int, deal_number: int, member_id: int, text: str) -> None:
        """As ``Storage.add_cut``; a second cut of one member for one deal raises
        asyncpg.UniqueViolationError."""
        params = (table_id, deal_number, member_id, json.dumps({"text": text}), _now())

        async def insert(conn: asyncpg.Connection) -> None:
            await conn.execute(
                "INSERT INTO shuffle_events (table_id, kind, deal_number, member_id, payload,"
                " created_at) VALUES ($1, 'cut', $2, $3, $4, $5)", *params)
        await self._write_later(insert)

    async def add_attempt(self, table_id: int, deal_number: int, attempt: int,
                          cuts: list[dict[str, Any]]) -> None:
        """As ``Storage.add_attempt``; a repeated attempt raises
        asyncpg.UniqueViolationError."""
        params = (table_id, deal_number, attempt, json.dumps({"cuts": cuts}), _now())

        async def insert(conn: asyncpg.Connection) -> None:
            await conn.execute(
                "INSERT INTO shuffle_events (table_id, kind, deal_number, attempt, payload,"
                " created_at) VALUES ($1, 'attempt', $2, $3, $4, $5)", *params)
        await self._write_later(insert)

    async def shuffle_events(self, table_id: int) -> list[ShuffleEvent]:
        """The table's shuffle log, in order (see ``Storage.shuffle_events``)."""
        async with self._read() as db:
            return shuffle_events(await _all(db, SHUFFLE_EVENTS, (table_id,)))

    async def append_action(
        self, deal: DealKey, seq: int, payload: dict[str, Any], member_id: int | None,
        *, finish: tuple[str, list[LedgerEntry], list[HandResult]] | None = None,
    ) -> None:
        """As ``Storage.append_action``: a duplicate ``seq``, or an action of a
        closed deal, raises asyncpg.IntegrityConstraintViolationError
        (``UniqueViolationError`` for the duplicate); a bad ``finish`` raises
        ValueError; nothing is written on any error."""
        if finish is not None:
            self._check_finish(finish[0])
        text = json.dumps(payload)

        async def append(conn: asyncpg.Connection) -> None:
            deal_id = await _deal_id(conn, deal)
            await conn.execute(
                "INSERT INTO actions (deal_id, seq, payload, member_id, created_at)"
                " VALUES ($1, $2, $3, $4, $5)", deal_id, seq, text, member_id, _now())
            if finish is not None:
                await _close_deal(conn, deal_id, *finish)
        await self._write_later(append)

    async def finish_deal(
        self, deal: DealKey, status: str, ledger: list[LedgerEntry], hands: list[HandResult],
    ) -> None:
        """Close a deal without an action (``finished`` or ``void``); raises
        ValueError for another status or a deal that is not open."""
        self._check_finish(status)

        async def close(conn: asyncpg.Connection) -> None:
            await _close_deal(conn, await _deal_id(conn, deal), status, ledger, hands)
        await self._write_later(close)

    async def finish_game(self, table_id: int, winners: list[int], status: str) -> None:
        """Record the game's winning seats and set the table status. Raises
        ValueError if the game was never started or the status is unknown."""
        if status not in TABLE_STATUSES:
            raise ValueError(f"unknown table status {status!r}")

        async def finish(conn: asyncpg.Connection) -> None:
            if _count(await conn.execute(
                    "UPDATE games SET winners = $1, finished_at = $2 WHERE table_id = $3",
                    json.dumps(list(winners)), _now(), table_id)) == 0:
                raise ValueError(f"table {table_id} has no started game")
            await conn.execute("UPDATE tables SET status = $1 WHERE id = $2", status, table_id)
        await self._write_later(finish)

    async def add_hint(self, deal: DealKey, seq: int, seat: int, member_id: int | None,
                       advice: str, reason: str) -> None:
        """As ``Storage.add_hint``: a hint the coach gave ``seat`` of ``deal`` after
        ``seq`` operations. Append-only. Raises ValueError for an unknown deal."""
        now = _now()

        async def insert(conn: asyncpg.Connection) -> None:
            await conn.execute(
                "INSERT INTO hints (deal_id, seq, seat, member_id, advice, reason, created_at)"
                " VALUES ($1, $2, $3, $4, $5, $6, $7)",
                await _deal_id(conn, deal), seq, seat, member_id, advice, reason, now)
        await self._write_later(insert)

    async def hints(self, table_id: int) -> dict[int, list[HintRow]]:
        """The hints given at the table: deal number -> hints in the order given
        (the table is append-only, so its physical order is the order of insertion)."""
        async with self._read() as db:
            rows = await _all(
                db, "SELECT d.number, h.seq, h.seat, h.member_id, h.advice, h.reason FROM hints h"
                    " JOIN deals d ON d.id = h.deal_id WHERE d.table_id = ?"
                    " ORDER BY d.number, h.created_at, h.ctid", (table_id,))
        out: dict[int, list[HintRow]] = {}
        for row in rows:
            out.setdefault(row["number"], []).append(HintRow(
                seq=row["seq"], seat=row["seat"], member_id=row["member_id"],
                advice=row["advice"], reason=row["reason"]))
        return out

    async def deals(self, table_id: int) -> list[DealRow]:
        """Every deal of the table, by number, with its actions in seq order."""
        async with self._read() as db:
            deal_rows = await _all(db, "SELECT * FROM deals WHERE table_id = ? ORDER BY number",
                                   (table_id,))
            action_rows = await _all(
                db, "SELECT a.deal_id, a.seq, a.payload, a.member_id FROM actions a"
                    " JOIN deals d ON d.id = a.deal_id WHERE d.table_id = ?"
                    " ORDER BY a.deal_id, a.seq", (table_id,))
        return _deal_rows(deal_rows, action_rows)

    async def open_state(self, shards: tuple[Sequence[int], int] | None = None,
                         ) -> tuple[list[OpenTable], dict[int, int]]:
        """As ``Storage.open_state`` (the same six set-based queries, in one
        repeatable-read snapshot): every open table of the guilds ``shards``
        (``(shard_ids, shard_count)``; ``None``: every guild) owns, and each such
        guild's ledger drift. Raises ValueError for bad shards."""
        queries = open_state_sql(shards)

        async def read(conn: asyncpg.Connection) -> tuple[list[OpenTable], dict[int, int]]:
            tables = await _all(conn, queries.tables)
            seats: dict[int, list[SeatRow]] = {}
            for row in await _all(conn, queries.seats):
                seats.setdefault(row["table_id"], []).append(_seat_row(row))
            deal_rows = await _all(conn, queries.deals)
            action_rows = await _all(conn, queries.actions)
            deals: dict[int, list[DealRow]] = {}
            for raw, deal in zip(deal_rows, _deal_rows(deal_rows, action_rows), strict=True):
                deals.setdefault(raw["table_id"], []).append(deal)
            drift = {int(guild): int(off) for guild, off in await _all(conn, queries.drift)}
            events: dict[int, list[Any]] = {}
            for row in await _all(conn, queries.events):
                events.setdefault(row["table_id"], []).append(row)
            return [OpenTable(_table_row(row), row["game_seed"], seats.get(row["id"], []),
                              deals.get(row["id"], []), shuffle_events(events.get(row["id"], [])))
                    for row in tables], drift
        return await self._read_now(read)

    # ------------------------------------------------------------------ ledger and audit

    async def guild_ledger_sum(self, guild_id: int) -> int:
        """Sum of every ledger amount in the guild, AI seats included (see
        ``Storage.guild_ledger_sum``)."""
        async with self._read() as db:
            total = await db.fetchval(
                "SELECT COALESCE(SUM(amount), 0) FROM ledger WHERE guild_id = $1", guild_id)
        return int(total)

    async def audit_entries(self, guild_id: int) -> list[tuple[int | None, str, str]]:
        """The guild's audit trail, oldest first: ``[(member_id, action, detail)]``."""
        async with self._read() as db:
            rows = await _all(db, "SELECT member_id, action, detail FROM audit"
                                  " WHERE guild_id = ? ORDER BY id", (guild_id,))
        return [(r["member_id"], r["action"], r["detail"]) for r in rows]

    async def audit(self, guild_id: int, member_id: int | None, action: str, detail: str) -> None:
        """Record an administrative or notable action (``member_id`` None for the bot)."""
        params = (guild_id, member_id, action, detail, _now())

        async def insert(conn: asyncpg.Connection) -> None:
            await conn.execute("INSERT INTO audit (guild_id, member_id, action, detail,"
                               " created_at) VALUES ($1, $2, $3, $4, $5)", *params)
        await self._write_later(insert)

