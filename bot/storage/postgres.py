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

The schema is ``migrations/NNNN_name.sql`` rendered in PostgreSQL's dialect
(``pg_migrate.migrate``): the same history as SQLite's; the append-only
action log and ledger are enforced there by triggers, and the ledger's zero-sum
check is plain SQL (``open_state``'s drift query, shared with ``Storage``).

What is PostgreSQL's alone lives here: the connection and its claim, and how a
transaction is sent (``PgTx``: ``?`` placeholders become ``$1``…, an insert's id
comes back by ``RETURNING id``). The statements are shared with ``Storage``
(``tables.py``, ``games.py``, ``ledger.py``, ``shared.py``, ``reports.py``) and
so is the unit of work (``units.py``).
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import unquote, urlsplit

import asyncpg
from asyncpg.transaction import Transaction

from .claims import KEEPALIVE, Claim
from .daily import DailyDeals
from .database import BUSY_WAIT
from .errors import DatabaseNotWritable, DatabaseUnavailable
from .games import Games
from .ledger import Ledger
from .members import Members
from .pg_migrate import migrate
from .ratings import Ratings
from .reports import Reports
from .reviews import Reviews
from .shards import Shards
from .shared import TableUpdates, check_shards
from .tables import Tables
from .units import Native, Unit, UnitFailed, UnitOfWork
from .waiting import acknowledge

__all__ = ["PgStorage", "PgTx", "UnitFailed", "connect", "describe_url", "pg_sql"]

log = logging.getLogger(__name__)


T = TypeVar("T")
#: a native function of ``PgStorage``: an async function of the asyncpg connection
PgNative = Native[asyncpg.Connection, T]

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


async def connect_raw(url: str, application: str = "commerce-bot",
                  settings: dict[str, str] | None = None) -> asyncpg.Connection:
    """A connection with the session settings the storage relies on, and
    ``settings`` (its failures are asyncpg's and OSError: storage errors)."""
    return await asyncpg.connect(
        url, timeout=CONNECT_TIMEOUT, server_settings={
            "application_name": f"{application} pid {os.getpid()}",
            "lock_timeout": f"{FIRST_WAIT_MS}ms", "TimeZone": "UTC", **(settings or {})})

async def connect(url: str, *, application: str = "commerce-bot",
              settings: dict[str, str] | None = None) -> asyncpg.Connection:
    """``connect_raw`` for a start: its failures become one-line
    ``DatabaseUnavailable`` errors."""
    where = describe_url(url)
    try:
        return await connect_raw(url, application, settings)
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


class PgTx:
    """``Tx`` on an asyncpg connection: the SQL's ``?`` placeholders become
    ``$1``, ``$2``… (``pg_sql``), an insert's id is read back by ``RETURNING id``."""

    def __init__(self, conn: asyncpg.Connection) -> None:
        """``conn``: the storage's connection (or a copy's)."""
        self.conn = conn

    async def one(self, sql: str, params: Sequence[Any] = ()) -> Any:
        """The first row, or None."""
        return await self.conn.fetchrow(pg_sql(sql), *params)

    async def all(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        """Every row."""
        return list(await self.conn.fetch(pg_sql(sql), *params))

    async def run(self, sql: str, params: Sequence[Any] = ()) -> int:
        """The rows the write touched (from asyncpg's status)."""
        return _count(await self.conn.execute(pg_sql(sql), *params))

    async def many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        """The write once per row; nothing is sent for none."""
        if rows:
            await self.conn.executemany(pg_sql(sql), rows)

    async def insert(self, sql: str, params: Sequence[Any] = ()) -> int:
        """The new row's id."""
        return int(await self.conn.fetchval(pg_sql(sql) + " RETURNING id", *params))



class PgStorage(UnitOfWork[Transaction, asyncpg.Connection], Tables, TableUpdates, Games,
                Ledger, Reports, Ratings, Reviews, DailyDeals, Members):
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
    FOR_SHARE = " FOR SHARE"
    #: the table is append-only, so its physical order is the order of insertion
    INSERTION_ORDER = "ctid"

    def __init__(self, db: asyncpg.Connection, url: str,
                 application: str = "commerce-bot") -> None:
        """Use ``PgStorage.open``; this only wraps an already prepared connection."""
        super().__init__()
        self._db: asyncpg.Connection | None = db
        self.url = url
        #: who this is on the server (``application_name``, and the claim's holder)
        self.application = application
        #: the path the SQLite storage has (no database file lives here; a copy of the
        #: whole database is made on the host: ``python -m bot.storage backup``)
        self.path = Path("data") / "postgresql"
        #: this process's claim on its guilds (``claim_shards``), once made
        self._claim: Claim | None = None
        #: times the connection was found closed and opened again
        self.reconnects = 0
        #: claims' locks taken and claims' connections lost by earlier claims
        #: (``claims_made`` and ``claims_lost`` add the present one's; ``bot.process.health``)
        self._claims_taken = self._claims_dropped = 0

    # ------------------------------------------------------------------ lifecycle

    @classmethod
    async def open(cls, url: str, *, application: str = "commerce-bot") -> PgStorage:
        """Connect to ``url`` (``postgresql://user:password@host:port/name``), apply
        the migrations of ``migrations/`` (``pg_migrate.migrate``: each in one
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
        conn = await connect(url, application=application)
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

    @classmethod
    async def _claims_connect(cls, url: str, application: str) -> asyncpg.Connection:
        """A connection for a claim: as the storage's, with TCP keepalives."""
        return await connect(url, application=application, settings=KEEPALIVE)

    # ------------------------------------------------------------------ transactions
    # The unit of work is ``units.UnitOfWork``; here is how PostgreSQL sends one: a
    # native function is an async function of the asyncpg connection, a unit's
    # ``tx`` is its open asyncpg ``Transaction``, and a fresh transaction first
    # checks this process's claim (``Claim.fence``).

    async def _connection(self) -> asyncpg.Connection:
        """The connection; connected again first if it was lost (a restarted server,
        a killed backend): the call that found it lost failed, the next one works."""
        if self._db is None:
            raise RuntimeError("Storage is closed")
        if self._db.is_closed():
            self._db = await connect_raw(self.url, self.application)
            self.reconnects += 1
            log.warning("the PostgreSQL connection was lost; connected again")
        return self._db

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

    async def _transaction(self, unit: Unit[Transaction] | None, fn: PgNative[T] | None, *,
                           commit: bool) -> T | None:
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

    async def _fresh(self, pending: list[PgNative[object]], fn: PgNative[T] | None,
                     commit: bool, unit: Unit[Transaction] | None,
                     ) -> tuple[T | None, Transaction, asyncpg.Connection]:
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
    async def _steps(conn: asyncpg.Connection, pending: list[PgNative[object]],
                     fn: PgNative[T] | None) -> T | None:
        for write in pending:
            await write(conn)
        return None if fn is None else await fn(conn)

    async def _check_claims(self) -> None:
        """Before any write: this process's claim, if it made one, is still held
        (``Claim.check``: raises ``ShardsLost`` once it is lost for good)."""
        if self._claim is not None:
            await self._claim.check()

    async def _commit(self, tx: Transaction) -> None:
        """``COMMIT`` the open transaction (the one place every write is made
        durable; fault-injection tests make it fail)."""
        await tx.commit()

    #: the ``Tx`` of a native function's connection and of the one ``_read`` yields
    _raw_tx = _loop_tx = staticmethod(PgTx)

    def _native_db(self) -> asyncpg.Connection:
        return self._conn_now()

    @asynccontextmanager
    async def _reading(self) -> AsyncIterator[asyncpg.Connection]:
        conn = await self._connection()
        try:
            yield conn
        except asyncpg.InternalClientError as exc:
            raise self._broken(conn, exc) from exc

    async def _call(self, fn: PgNative[T], *, alone: bool) -> T:
        """Several reads as one call: inside a unit, in its transaction (flushed
        first); ``alone``, in one repeatable-read snapshot."""
        if not alone:
            self.round_trips += 1
            return await fn(self._conn_now())
        conn = await self._connection()
        self.round_trips += 1
        try:
            async with conn.transaction(isolation="repeatable_read", readonly=True):
                return await fn(conn)
        except asyncpg.InternalClientError as exc:
            raise self._broken(conn, exc) from exc

    async def _abandon_unit(self, unit: Unit[Transaction]) -> None:
        """Roll the unit's open transaction back (one round trip)."""
        tx, unit.tx = unit.tx, None
        assert tx is not None
        self.round_trips += 1
        await self._abandon(self._conn_now(), tx)
