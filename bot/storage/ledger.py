"""The ledger, behind four verbs written once for both storages: ``append`` point
movements, read ``balances``, ``reset`` a guild's books, and the ``drift`` that
says whether they are right (docs/RELIABILITY.md, "Ledger").

The ledger is append-only (the schema's triggers refuse anything else); points
are whole numbers. A guild's rows sum to minus the points still in the pools and
pots of its open tables (``points_in_pots``): its drift, that sum plus those
points, is 0 when the books are right. ``Ledger`` is the storages' part of it
(a mixin of ``Storage`` and ``PgStorage``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .models import DealKey, LedgerEntry
from .shared import utc_now
from .units import Statements, Tx

#: one ledger row: guild, table, deal, seat, member, amount, reason, created_at
INSERT = ("INSERT INTO ledger (guild_id, table_id, deal_id, seat, member_id, amount, reason,"
          " created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")

#: rows one multi-row ``INSERT`` takes at most (``insert_rows``): far under both drivers'
#: limits on parameters (SQLite 32,766, PostgreSQL 32,767) at 8 columns
ROWS_AT_ONCE = 200


async def insert_rows(tx: Tx, insert: str, rows: Sequence[Sequence[Any]]) -> None:
    """Insert ``rows`` with ``insert``, an ``INSERT … VALUES (?, …)`` of one row, in as
    few statements as ``ROWS_AT_ONCE`` allows (nothing for none): on SQLite each
    statement is one step on the database thread, where ``Tx.many`` makes one a row."""
    head, _, one = insert.rpartition(" VALUES ")
    for start in range(0, len(rows), ROWS_AT_ONCE):
        chunk = rows[start:start + ROWS_AT_ONCE]
        await tx.run(f"{head} VALUES {', '.join([one] * len(chunk))}",
                     [value for row in chunk for value in row])


#: the game rows (resets excluded) of the guild's open tables: minus what their
#: pools and pots hold (one parameter: the guild)
_POTS = ("SELECT COALESCE(SUM(l.amount), 0) FROM ledger l JOIN tables t ON t.id = l.table_id"
         " WHERE t.guild_id = ? AND t.status IN ('lobby', 'playing')"
         " AND l.reason NOT IN ('reset', 'reset-pot')")

_SUM = "SELECT COALESCE(SUM(amount), 0) FROM ledger WHERE guild_id = ?"


def drift_sql(guilds: str) -> str:
    """The drift of each guild of the subquery ``guilds`` (``SELECT guild_id …``),
    as rows ``(guild_id, drift)``: the sum of its rows plus the points in its open
    pools and pots. No parameters; both dialects."""
    return ("SELECT l.guild_id, SUM(l.amount) - SUM(CASE WHEN t.status IN"
            " ('lobby', 'playing') AND l.reason NOT IN ('reset', 'reset-pot')"
            " THEN l.amount ELSE 0 END) FROM ledger l LEFT JOIN tables t"
            f" ON t.id = l.table_id WHERE l.guild_id IN ({guilds}) GROUP BY l.guild_id")


async def append(tx: Tx, guild_id: int, table_id: int | None, deal_id: int | None,
                 entries: Sequence[LedgerEntry], now: str | None = None) -> None:
    """Append ``entries`` of the guild (at ``table_id``'s ``deal_id``, either may be
    ``None``), all stamped ``now`` (default: ``utc_now()``)."""
    stamp = now or utc_now()
    await insert_rows(tx, INSERT, [(guild_id, table_id, deal_id, e.seat, e.member_id, e.amount,
                                    e.reason, stamp) for e in entries])


async def balances(tx: Tx, guild_id: int) -> tuple[list[Any], list[Any]]:
    """The guild's balances that are not zero: ``(members, ai_seats)``, rows of
    ``(member_id, balance)`` and of ``(table_id, seat, balance)`` (an AI seat's
    account is its seat at its table)."""
    members = await tx.all(
        "SELECT member_id, SUM(amount) AS balance FROM ledger WHERE guild_id = ?"
        " AND member_id IS NOT NULL GROUP BY member_id HAVING SUM(amount) <> 0", (guild_id,))
    seats = await tx.all(
        "SELECT table_id, seat, SUM(amount) AS balance FROM ledger WHERE guild_id = ?"
        " AND member_id IS NULL AND seat IS NOT NULL GROUP BY table_id, seat"
        " HAVING SUM(amount) <> 0", (guild_id,))
    return members, seats


async def points_in_pots(tx: Tx, guild_id: int) -> int:
    """Points staked into the pools and pots of the guild's open tables and not
    yet paid out: minus the sum of those tables' game rows (resets excluded)."""
    row = await tx.one(_POTS, (guild_id,))
    return -int(row[0])


async def total(tx: Tx, guild_id: int) -> int:
    """The sum of every ledger row of the guild, AI seats included."""
    row = await tx.one(_SUM, (guild_id,))
    return int(row[0])


async def reset(tx: Tx, guild_id: int, member_id: int | None) -> int:
    """Offsetting ``reset`` rows that bring every balance of the guild to zero, one
    ``reset-pot`` row that leaves its sum at minus the points in its open pots, and
    the audit row of ``member_id``'s reset. Returns the number of members whose
    balance was not zero."""
    members, seats = await balances(tx, guild_id)
    now = utc_now()
    await tx.many(INSERT, [(guild_id, None, None, None, r["member_id"], -r["balance"], "reset",
                            now) for r in members]
                  + [(guild_id, r["table_id"], None, r["seat"], None, -r["balance"], "reset",
                      now) for r in seats])
    pots = await points_in_pots(tx, guild_id)
    summed = await total(tx, guild_id)
    if summed != -pots:
        await tx.run(INSERT, (guild_id, None, None, None, None, -pots - summed, "reset-pot", now))
    await tx.run("INSERT INTO audit (guild_id, member_id, action, detail, created_at)"
                 " VALUES (?, ?, 'reset_ledger', ?, ?)",
                 (guild_id, member_id, f"{len(members)} balances reset", now))
    return len(members)


async def deal_id(tx: Tx, deal: DealKey) -> int:
    """The storage id of ``deal``. Raises ValueError if there is none."""
    row = await tx.one("SELECT id FROM deals WHERE table_id = ? AND number = ?", deal)
    if row is None:
        raise ValueError(f"no deal {deal}")
    return int(row[0])


class Ledger(Statements):
    """The storages' ledger calls (a mixin of ``Storage`` and ``PgStorage``)."""

    async def add_ledger(self, guild_id: int, table_id: int, deal: DealKey | None,
                         entries: list[LedgerEntry]) -> None:
        """Append point movements that belong to no deal's close (e.g. a closed
        game's carried pot shared out), in one transaction; ``deal``: the deal
        they belong to, if any. Raises ValueError for an unknown deal."""
        async def insert(tx: Tx) -> None:
            found = None if deal is None else await deal_id(tx, deal)
            await append(tx, guild_id, table_id, found, entries)
        await self._step_later(insert)

    async def reset_ledger(self, guild_id: int, member_id: int | None) -> int:
        """Bring every balance in the guild back to zero — members' and AI seats'
        (an AI seat's account is its ``(table_id, seat)``) — by appending
        offsetting ``reset`` rows (the ledger stays append-only), and audit it.

        Points still in the pool or pots of an open table are not refunded: one
        ``reset-pot`` row leaves the guild's sum at minus those points, so when a
        pot is later won or shared the sum is zero again (docs/RELIABILITY.md,
        "Ledger"). Returns the number of members whose balance was not zero.
        """
        async with self._write() as tx:
            return await reset(tx, guild_id, member_id)

    async def points_in_pots(self, guild_id: int) -> int:
        """Points in the pools and pots of the guild's open tables (see
        ``reset_ledger``); ``guild_ledger_sum`` equals minus this when consistent."""
        async with self._read() as db:
            return await points_in_pots(self._loop_tx(db), guild_id)

    async def guild_ledger_sum(self, guild_id: int) -> int:
        """Sum of every ledger amount in the guild, AI seats included: 0 when
        consistent and no open table holds points in a pool or pot, else minus
        ``points_in_pots``."""
        async with self._read() as db:
            return await total(self._loop_tx(db), guild_id)
