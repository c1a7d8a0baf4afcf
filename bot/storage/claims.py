"""Claims: which guilds a bot process serves on a shared PostgreSQL database
(docs/SCALING.md "Claims").

A claim says "the guilds of these shards are mine": a row of ``shard_claims``
(the process's ``SHARD_COUNT``, its shards, who made it and when), live while
the claiming connection holds the session advisory lock ``(CLAIM_CLASS, id)``.

- **Taking one** (``take_claim``) is one transaction under the transaction
  advisory lock ``CLAIMS_LOCK``, so two processes starting together are taken
  one after the other. Every row is tested: a row whose lock nobody holds is a
  dead process's leftover and is deleted; a live row whose guilds overlap the
  new claim's (``bot.storage.shards.Shards.overlap``: whatever the two counts) refuses
  it with ``ClaimRefused``. A live claim is never taken over: its lock is held
  until its connection ends.
- **Fencing.** Every write transaction of a process that holds a claim begins by
  reading its row ``FOR KEY SHARE`` (``Claim.fence``). A row is deleted only by
  a claim that found its lock free, and that delete waits for the write in
  flight; so once another process has taken the guilds, the old owner's next
  write finds no row and is refused (``ShardsLost``), and none of its writes
  ever lands after the new owner loaded the guilds.
- **Losing the connection.** When the claiming connection ends without
  ``release`` (a server restart, a killed session), the lock is gone.
  ``Claim`` takes the claim back at once, with the same shards, retrying for
  ``RECLAIM_WINDOW`` seconds while the server cannot be reached; writes wait up
  to ``RECLAIM_WAIT`` seconds for it, then fail with nothing written. If another
  process took overlapping guilds meanwhile, or the window ends, the claim is
  lost for good: ``on_lost`` is called once (the bot then stops, exit code 3:
  ``bot/process/stopping.py``) and every later write raises ``ShardsLost``.
- The server ends a session whose client vanished (a machine lost without a
  word) after ``KEEPALIVE`` TCP probes, which frees its claim within about a
  minute rather than the system's default two hours.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import socket
from collections.abc import Awaitable, Callable
from typing import Any

import asyncpg

from .errors import DatabaseInUse, DatabaseUnavailable
from .shards import Shards
from .shared import utc_now as _now
from .waiting import acknowledge

log = logging.getLogger(__name__)

#: the transaction advisory lock every claim is taken under (the bytes of "cmrclaim")
CLAIMS_LOCK = int.from_bytes(b"cmrclaim", "big")
#: the first key of each claim's session advisory lock, the second its id (the bytes
#: of "cmcl"; not the "cmrc" of the per-shard locks of earlier versions)
CLAIM_CLASS = int.from_bytes(b"cmcl", "big")
#: seconds a claim waits for ``CLAIMS_LOCK`` (another process claiming) or for a write
#: in flight on a row it deletes
CLAIM_WAIT = 10.0
#: seconds a lost claim is retried while the server cannot be reached, before the
#: process gives up (``on_lost``); longer than a server restart usually takes
RECLAIM_WINDOW = 60.0
#: seconds between two tries to take a lost claim back
RECLAIM_RETRY = 1.0
#: seconds a write waits for a claim being taken back before it fails
RECLAIM_WAIT = 2.0
#: the claiming connection's TCP keepalives, set on the server side: idle seconds,
#: seconds between probes, probes (10 + 5 x 6 = 40 s until a vanished client's session
#: and claim end; ignored on a Unix socket, whose peer's end the kernel sees at once)
KEEPALIVE = {"tcp_keepalives_idle": "10", "tcp_keepalives_interval": "5",
             "tcp_keepalives_count": "6"}

#: opens a connection for a claim: ``(url, application) -> connection``
Connect = Callable[[str, str], Awaitable[asyncpg.Connection]]
#: told, once, why the claim was lost for good
OnLost = Callable[[str], None]


class ClaimRefused(DatabaseInUse):
    """Another live process serves some of the guilds this claim asks for; the
    message is one line naming both topologies, the other process and a guild
    both would serve. Nothing was kept of the claim.

    Attributes:
        theirs: the other process's shards.
        holder: who the other process is (``commerce-bot pid 12 on host``).
    """

    def __init__(self, message: str, theirs: Shards, holder: str) -> None:
        """Keep the other claim's shards and holder with the message."""
        super().__init__(message)
        self.theirs = theirs
        self.holder = holder


class ShardsLost(asyncpg.PostgresError):
    """This process's claim is lost (another process took its guilds, or it could
    not be taken back in time): it must write nothing more. A storage error, so
    each request fails with nothing changed."""


def process_name(application: str) -> str:
    """Who claims, for the row and the messages: ``commerce-bot pid 12 on host``."""
    return f"{application} pid {os.getpid()} on {socket.gethostname()}"


def _refusal(mine: Shards, theirs: Shards, holder: str, since: str, where: str) -> ClaimRefused:
    overlap = mine.overlap(theirs)
    assert overlap is not None
    residue, modulus = overlap
    both = (f"; both would serve every guild whose (id >> 22) % {modulus} is {residue}"
            if modulus > 1 else "")
    return ClaimRefused(
        f"{mine.describe()} would serve guilds another Commerce process already serves "
        f"({theirs.describe()}: {holder}, since {since}) on {where}{both}: stop that process "
        "first, or give this one SHARD_COUNT and SHARD_IDS whose guilds no running process "
        "serves (docs/SCALING.md)", theirs, holder)


async def take_claim(conn: asyncpg.Connection, shards: Shards, process: str, where: str, *,
                     previous: int | None = None, previous_held: bool = False) -> int:
    """Claim ``shards`` on ``conn`` (outside a transaction, or inside one: then
    the claim is a savepoint of it); returns the claim's id, whose session lock
    ``conn`` then holds until it closes.

    Args:
        conn: the connection that keeps the claim.
        shards: the process's shards (``ids`` ``None``: every shard of ``count``).
        process: who claims (``process_name``), kept in the row.
        where: the database, for the refusal (``describe_url``).
        previous: the id of this same process's earlier claim, never a conflict:
            its row is deleted here, unless ``previous_held``.
        previous_held: the earlier claim's connection is alive and this process's
            (the caller releases it after this claim); when ``False`` and its lock
            is still held, the server session holding it is this process's own,
            cut off from it, and is ended here.

    Raises:
        ClaimRefused: a live claim of another process overlaps (nothing kept).
        asyncpg.PostgresError, asyncpg.InterfaceError, OSError: the server failed
            or is gone (nothing kept).
    """
    async with conn.transaction():
        await conn.execute(f"SET LOCAL lock_timeout = '{int(CLAIM_WAIT * 1000)}ms'")
        await conn.execute("SELECT pg_advisory_xact_lock($1)", CLAIMS_LOCK)
        dead: list[int] = []
        for row in await conn.fetch("SELECT id, shard_count, shard_ids, process, claimed_at"
                                    " FROM shard_claims ORDER BY id"):
            if await conn.fetchval("SELECT pg_try_advisory_lock($1, $2)", CLAIM_CLASS, row["id"]):
                await conn.execute("SELECT pg_advisory_unlock($1, $2)", CLAIM_CLASS, row["id"])
                dead.append(row["id"])  # nobody holds it: its process is gone
                continue
            if previous is not None and row["id"] == previous:
                if not previous_held:
                    await conn.execute(
                        "SELECT pg_terminate_backend(l.pid) FROM pg_locks l WHERE l.locktype ="
                        " 'advisory' AND l.classid = $1 AND l.objid = $2 AND l.objsubid = 2"
                        " AND l.granted AND l.database = (SELECT oid FROM pg_database"
                        " WHERE datname = current_database())", CLAIM_CLASS, previous)
                    dead.append(previous)
                continue
            theirs = Shards(row["shard_count"], tuple(json.loads(row["shard_ids"])))
            if shards.overlap(theirs) is not None:
                raise _refusal(shards, theirs, row["process"], row["claimed_at"], where)
        if dead:
            await conn.execute("DELETE FROM shard_claims WHERE id = ANY($1::bigint[])", dead)
        claim_id = int(await conn.fetchval(
            "INSERT INTO shard_claims (shard_count, shard_ids, process, claimed_at)"
            " VALUES ($1, $2, $3, $4) RETURNING id",
            shards.count, json.dumps(list(shards.served)), process, _now()))
        await conn.execute("SELECT pg_advisory_lock($1, $2)", CLAIM_CLASS, claim_id)
    return claim_id


#: what a failed try to take a claim back may raise, short of a refusal
_TRANSIENT = (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError,
              DatabaseUnavailable)


class Claim:
    """This process's claim on the database at ``url``, kept (and taken back when
    its connection is lost) until ``release`` (see the module's docstring).

    Attributes:
        shards: what is claimed.
        id: the claim's row (a new one each time it is taken back).
        lost: why the claim is lost for good, once it is (``None`` before).
    """

    def __init__(self, url: str, shards: Shards, application: str, connect: Connect,
                 where: str, on_lost: OnLost | None = None) -> None:
        """Nothing is claimed before ``take``."""
        self.url = url
        self.shards = shards
        self.application = application
        self.process = process_name(application)
        self.where = where
        self.on_lost = on_lost
        self._connect = connect
        self.id: int | None = None
        self.lost: str | None = None
        self._conn: asyncpg.Connection | None = None
        self._held = asyncio.Event()
        self._released = False
        self._retaking: asyncio.Task[None] | None = None
        #: times the claim's connection was lost (taken back or not), and times its
        #: lock was taken (the first time, and each time it was taken back)
        self.drops = self.takes = 0

    @property
    def connection(self) -> asyncpg.Connection | None:
        """The connection holding the claim's lock; ``None`` while it is being taken back."""
        return self._conn

    @property
    def held(self) -> bool:
        """The claim's lock is held by a connection of this process (as far as it knows)."""
        return self._conn is not None and not self._conn.is_closed()

    async def take(self, previous: Claim | None = None) -> None:
        """Take the claim on a connection of its own; ``previous``: this process's
        claim it replaces (not a conflict; the caller releases it afterwards).

        Raises:
            ClaimRefused: another live process serves some of the guilds.
            DatabaseUnavailable: the server cannot be reached or refuses the login.
        """
        conn = await self._connect(self.url, f"{self.application} shards")
        try:
            claim_id = await take_claim(
                conn, self.shards, self.process, self.where,
                previous=None if previous is None else previous.id,
                previous_held=previous is not None and previous.held)
        except BaseException:
            conn.terminate()
            raise
        self._hold(conn, claim_id)

    def _hold(self, conn: asyncpg.Connection, claim_id: int) -> None:
        self._conn, self.id = conn, claim_id
        self.takes += 1
        conn.add_termination_listener(self._dropped)
        self._held.set()

    def _dropped(self, conn: Any) -> None:
        """The claim's connection ended: unless released, take the claim back."""
        if conn is not self._conn or self._released or self.lost is not None:
            return
        self._conn = None
        self.drops += 1
        self._held.clear()
        log.warning("the connection holding this process's claim (%s) was lost; taking it "
                    "back", self.shards.describe())
        self._retaking = asyncio.get_running_loop().create_task(self._take_back())

    async def _take_back(self) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + RECLAIM_WINDOW
        while not self._released:
            try:
                conn = await self._connect(self.url, f"{self.application} shards")
                try:
                    claim_id = await take_claim(conn, self.shards, self.process, self.where,
                                                previous=self.id)
                except BaseException:
                    conn.terminate()
                    raise
            except ClaimRefused as exc:
                self._lose(f"another Commerce process took some of its guilds meanwhile "
                           f"({exc.theirs.describe()}: {exc.holder})")
                return
            except _TRANSIENT as exc:
                if loop.time() + RECLAIM_RETRY > deadline:
                    self._lose(f"it could not be taken back within {RECLAIM_WINDOW:.0f} s "
                               f"({type(exc).__name__})")
                    return
                log.warning("could not take the claim back yet (%s); trying again",
                            type(exc).__name__)
                await asyncio.sleep(RECLAIM_RETRY)
                continue
            if self._released:
                conn.terminate()
                return
            self._hold(conn, claim_id)
            log.warning("took the claim back (%s)", self.shards.describe())
            return

    def _lose(self, why: str) -> None:
        if self.lost is not None:
            return
        self.lost = (f"this process's claim on {self.shards.describe()} of {self.where} is "
                     f"lost: {why}; it writes nothing more")
        self._held.clear()
        log.critical("%s", self.lost)
        if self.on_lost is not None:
            self.on_lost(self.lost)

    async def check(self) -> None:
        """Before a write transaction: the claim is held, or was taken back within
        ``RECLAIM_WAIT`` seconds (the interaction is acknowledged first).

        Raises:
            ShardsLost: the claim is lost for good.
            asyncpg.InterfaceError: it is still being taken back (nothing written;
                a later try may work).
        """
        if self.lost is not None:
            raise ShardsLost(self.lost)
        if self._held.is_set():
            return
        await acknowledge()
        try:
            await asyncio.wait_for(self._held.wait(), RECLAIM_WAIT)
        except TimeoutError:
            pass
        if self.lost is not None:
            raise ShardsLost(self.lost)
        if not self._held.is_set():
            raise asyncpg.InterfaceError("this process's claim on its guilds is being taken "
                                         "back; nothing was written")

    async def fence(self, conn: asyncpg.Connection) -> None:
        """First statement of a write transaction on ``conn``: the claim's row is
        still there, and stays until the transaction ends (see the module's
        docstring).

        Raises:
            ShardsLost: the row is gone: another process took the guilds.
        """
        if await conn.fetchval("SELECT 1 FROM shard_claims WHERE id = $1 FOR KEY SHARE",
                               self.id) is None:
            self._lose("its row is gone, so another Commerce process has taken its guilds")
            raise ShardsLost(self.lost)

    async def release(self) -> None:
        """Give the claim up: its row deleted, its connection (and lock) closed
        (idempotent; a lost connection only needs closing)."""
        self._released = True
        self._held.clear()
        if self._retaking is not None and not self._retaking.done():
            self._retaking.cancel()
            await asyncio.gather(self._retaking, return_exceptions=True)
        conn, self._conn = self._conn, None
        if conn is None:
            return
        try:
            if not conn.is_closed():
                await conn.execute("DELETE FROM shard_claims WHERE id = $1", self.id)
        except _TRANSIENT:
            pass  # the lock goes with the connection; the row is a leftover to clear
        finally:
            try:
                await conn.close(timeout=5)
            except Exception:  # closing a broken connection
                conn.terminate()
