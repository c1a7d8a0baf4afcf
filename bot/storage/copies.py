"""The SQL of ``python -m bot.storage copy`` (``bot/process/copying.py`` runs it and proves
the copy): every row of an SQLite database into an empty PostgreSQL one, and the
figures that prove a copy, read the same way from either storage.

Into PostgreSQL (``fill_postgres``), inside the target's open unit of work, so the
whole copy is one transaction that the proof may still roll back:

- the tables in ``COPY_ORDER`` (parents first, as the foreign keys want), read
  from SQLite ``BATCH`` rows at a time in ``rowid`` order (the order the rows were
  written: the hints, which have no id, are read back in it) and sent with
  PostgreSQL's ``COPY``; ids are copied as they are;
- the append-only triggers are kept, not bypassed: a deal is written open, and
  closed (``finished``, ``void``) once its actions, hints, hands and ledger rows
  are in, the one order they accept;
- each value takes the type of its PostgreSQL column (``convert``): SQLite keeps
  whatever it was given, PostgreSQL takes a whole number for an ``INTEGER`` or
  ``BIGINT`` and text for a ``TEXT`` column, without the NUL character;
- every identity sequence is moved past the highest id copied, so new rows
  continue after the copied ones (``next_ids`` proves it).

``NOT_COPIED`` tables are left out: the schema's history (the target's own
migrations wrote it) and the running processes' claims.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import asyncpg

from .backups import COPY_ORDER, NOT_COPIED
from .database import Storage
from .postgres import PgStorage, connect, describe_url
from .shared import utc_now as _now
from .units import Tx

#: rows read and sent at a time
BATCH = 5000
#: the tables whose ``id`` a database gives (an identity column, AUTOINCREMENT in SQLite)
IDENTITY_TABLES = ("tables", "shuffle_events", "deals", "actions", "ledger", "audit")
#: the 32-bit columns' range (PostgreSQL ``INTEGER``)
INT32 = (-(1 << 31), (1 << 31) - 1)
#: the 64-bit columns' range (``BIGINT``, and every SQLite integer)
INT64 = (-(1 << 63), (1 << 63) - 1)

#: a table's columns, in order, with their PostgreSQL types (``integer``, ``bigint``, ``text``)
Columns = dict[str, list[tuple[str, str]]]


class CopyRefused(RuntimeError):
    """The copy cannot be made: a one-line reason (a target that is not empty, a
    value PostgreSQL cannot hold, a schema not this code's). Nothing was kept."""


@dataclass(frozen=True)
class Figures:
    """What a table holds, to compare two databases: its number of rows, and the
    sum modulo 2**64 of one 64-bit hash per row (of its values, typed as
    ``convert`` types them): the same rows in any order give the same sum."""

    rows: int
    digest: int


def where(address: str) -> str:
    """A database for a message: the SQLite path, or the URL without its login."""
    return address if not address.lower().startswith(("postgresql://", "postgres://")) \
        else describe_url(address)


async def columns(store: PgStorage) -> Columns:
    """The copied tables' columns of the PostgreSQL database, in their order, with
    their types.

    Raises:
        CopyRefused: a table of ``COPY_ORDER`` is missing, or there is a table
            this code does not know (a newer schema).
    """
    async def read(conn: asyncpg.Connection) -> Columns:
        found: Columns = {}
        for row in await conn.fetch(
                "SELECT table_name, column_name, data_type FROM information_schema.columns"
                " WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position"):
            found.setdefault(row["table_name"], []).append((row["column_name"], row["data_type"]))
        return found
    found = await store._read_now(read)
    unknown = sorted(set(found) - set(COPY_ORDER) - set(NOT_COPIED))
    missing = [name for name in COPY_ORDER if name not in found]
    if unknown or missing:
        raise CopyRefused(f"{describe_url(store.url)} has the tables of another version "
                          f"(unknown {unknown}, missing {missing}): copy with the same "
                          "version of the bot as the database")
    return {name: found[name] for name in COPY_ORDER}


def convert(value: Any, kind: str, table: str, column: str) -> Any:
    """``value`` as a PostgreSQL column of type ``kind`` holds it: ``None``; an int
    for ``integer`` / ``bigint`` (a whole float, or text that is a whole number,
    becomes one); text for ``text`` (a number becomes its digits).

    Raises:
        CopyRefused: a value that column cannot hold (not a whole number, out of
            its range, bytes, text with the NUL character), naming table and column.
    """
    if value is None:
        return None
    if kind in ("integer", "bigint"):
        number = value
        if isinstance(value, float) and value.is_integer():
            number = int(value)
        elif isinstance(value, str) and value.strip().lstrip("+-").isdigit():
            number = int(value)
        low, high = INT32 if kind == "integer" else INT64
        if not isinstance(number, int) or isinstance(number, bool) or not low <= number <= high:
            raise CopyRefused(f"{table}.{column} holds {value!r}, which is not a whole number "
                              f"a PostgreSQL {kind} column holds: correct that row first")
        return number
    if kind == "double precision" and isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)  # a rating (bot/storage/ratings.py)
    if isinstance(value, bytes):
        raise CopyRefused(f"{table}.{column} holds bytes, not text: correct that row first")
    text = value if isinstance(value, str) else str(value)
    if "\x00" in text:
        raise CopyRefused(f"{table}.{column} holds a NUL character, which PostgreSQL text "
                          "cannot: correct that row first")
    return text


def _typed(row: Iterable[Any], types: list[tuple[str, str]], table: str) -> tuple[Any, ...]:
    return tuple(convert(v, kind, table, name) for v, (name, kind) in zip(row, types, strict=True))


def _hash(row: tuple[Any, ...]) -> int:
    text = json.dumps(row, ensure_ascii=False, separators=(",", ":"))
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")


def _select(table: str, types: list[tuple[str, str]], first: str = "") -> str:
    return f"SELECT {first}{', '.join(name for name, _ in types)} FROM {table}"


# ------------------------------------------------------------------ SQLite -> PostgreSQL

async def refuse_unless_empty(url: str) -> None:
    """Before the target is opened (and migrated): it is an empty database, or a
    Commerce one without a row (a bot started on it once).

    Raises:
        CopyRefused: it holds rows (one line counting them per table), or tables
            of something else.
        DatabaseUnavailable: the server cannot be reached or refuses the login.
    """
    conn = await connect(url, application="commerce-copy")
    try:
        names = [r[0] for r in await conn.fetch(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
            " ORDER BY tablename")]
        if not names:
            return
        if "schema_version" not in names:
            raise CopyRefused(f"{describe_url(url)} holds tables of something else "
                              f"({', '.join(names[:5])}): copy into an empty database")
        held = {}
        for name in names:
            if name not in NOT_COPIED:
                count = await conn.fetchval(f'SELECT count(*) FROM "{name}"')
                if count:
                    held[name] = count
        if held:
            rows = ", ".join(f"{name} {count}" for name, count in held.items())
            raise CopyRefused(f"{describe_url(url)} is not empty ({rows}): copy into an empty "
                              "database only (create a new one: createdb); nothing was written")
    finally:
        await conn.close()


async def fill_postgres(source: Storage, target: PgStorage, types: Columns) -> dict[str, int]:
    """Copy every row of ``source`` into ``target`` (see the module's docstring),
    inside ``target``'s open unit of work (the caller's ``atomic()`` block: its
    commit keeps the copy, any error before keeps nothing); returns the rows
    copied per table.

    Raises:
        CopyRefused: the target's copied tables are not empty, or a value cannot
            be held (``convert``).
        asyncpg.PostgresError: the target refused a row (a constraint, a
            trigger): nothing is kept once the unit ends.
    """
    async def empty(conn: asyncpg.Connection) -> list[str]:
        return [name for name in COPY_ORDER
                if await conn.fetchval(f"SELECT EXISTS (SELECT 1 FROM {name})")]
    held = await target._write_now(empty)
    if held:
        raise CopyRefused(f"{describe_url(target.url)} is not empty ({', '.join(held)}): copy "
                          "into an empty database only")
    copied: dict[str, int] = {}
    closed: list[tuple[int, str]] = []
    for table in COPY_ORDER:
        names = [name for name, _ in types[table]]
        status = names.index("status") if table == "deals" else -1
        copied[table] = 0
        last = 0
        sql = _select(table, types[table], "rowid, ") + " WHERE rowid > ? ORDER BY rowid LIMIT ?"
        while True:
            async def read(db: Any, after: int = last, query: str = sql) -> list[Any]:
                return list(db.execute(query, (after, BATCH)).fetchall())
            rows = await source._read_now(read)
            if not rows:
                break
            last = rows[-1][0]
            records = [_typed(row[1:], types[table], table) for row in rows]
            if status >= 0:  # open first; closed below, once everything of theirs is in
                closed += [(r[0], r[status]) for r in records if r[status] != "open"]
                records = [(*r[:status], "open", *r[status + 1:]) for r in records]

            async def send(conn: asyncpg.Connection, t: str = table, cols: list[str] = names,
                           batch: list[tuple[Any, ...]] = records) -> None:
                await conn.copy_records_to_table(t, records=batch, columns=cols)
            await target._write_now(send)
            copied[table] += len(records)

    async def close_and_continue(conn: asyncpg.Connection) -> None:
        if closed:
            await conn.execute(
                "UPDATE deals d SET status = c.status FROM unnest($1::bigint[], $2::text[])"
                " AS c(id, status) WHERE d.id = c.id", [c[0] for c in closed],
                [c[1] for c in closed])
        for table in IDENTITY_TABLES:
            await conn.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), COALESCE(MAX(id), 0)"
                f" + 1, false) FROM {table}")
    await target._write_now(close_and_continue)
    return copied


# ------------------------------------------------------------------ figures, either storage

async def figures(store: Storage | PgStorage, types: Columns) -> dict[str, Figures]:
    """``Figures`` of every copied table of ``store`` (inside its unit, if one is
    open: then of what the unit wrote), values typed by ``types``."""
    out: dict[str, Figures] = {}
    for table in COPY_ORDER:
        if isinstance(store, PgStorage):
            async def read(conn: asyncpg.Connection, t: str = table) -> Figures:
                rows = total = 0
                async with conn.transaction():  # a cursor needs one (a savepoint in a unit)
                    async for row in conn.cursor(_select(t, types[t]), prefetch=BATCH):
                        rows += 1
                        total += _hash(_typed(row, types[t], t))
                return Figures(rows, total % (1 << 64))
            out[table] = await store._read_now(read)
        else:
            async def read_sqlite(db: Any, t: str = table) -> Figures:
                rows = total = 0
                for row in db.execute(_select(t, types[t])):
                    rows += 1
                    total += _hash(_typed(row, types[t], t))
                return Figures(rows, total % (1 << 64))
            out[table] = await store._read_now(read_sqlite)
    return out


async def guilds(store: Storage | PgStorage) -> list[int]:
    """Every guild the database knows: with settings, tables, ledger or audit rows."""
    sql = ("SELECT guild_id FROM guild_settings UNION SELECT guild_id FROM tables UNION"
           " SELECT guild_id FROM ledger UNION SELECT guild_id FROM audit ORDER BY 1")
    return [int(r[0]) for r in await _rows(store, sql)]


async def _rows(store: Storage | PgStorage, sql: str) -> list[Any]:
    """Every row of ``sql`` (no parameters), in one read of either storage."""
    async def read(tx: Tx) -> list[Any]:
        return await tx.all(sql)
    return await store._step_read(read)


async def table_ids(store: Storage | PgStorage) -> list[int]:
    """Every table's id, ascending."""
    return [int(r[0]) for r in await _rows(store, "SELECT id FROM tables ORDER BY id")]


async def top_ids(store: Storage | PgStorage) -> dict[str, int]:
    """The highest id of each table with ids (0 for an empty one)."""
    sql = " UNION ALL ".join(f"SELECT '{t}', COALESCE(MAX(id), 0) FROM {t}"
                             for t in IDENTITY_TABLES)
    return {r[0]: int(r[1]) for r in await _rows(store, sql)}


class _Probe(Exception):
    """Rolls the probe's rows back (PostgreSQL: to the savepoint)."""


#: one new row per identity table, each given its id by the database: ``?`` the
#: new table's id, then the new deal's; none of them is ever kept
_PROBES = (
    ("tables", "INSERT INTO tables (guild_id, channel_id, number, host_id, preset, options,"
               " status, next_deal_delay, created_at) VALUES (-1, 0, 1, 0, 'foster', '{}',"
               " 'lobby', 0, ?) RETURNING id"),
    ("shuffle_events", "INSERT INTO shuffle_events (table_id, kind, deal_number, attempt,"
                       " payload, created_at) VALUES (?, 'attempt', 1, 1, '{}', ?) RETURNING id"),
    ("deals", "INSERT INTO deals (table_id, number, dealer, deck, status, started_at)"
              " VALUES (?, 0, 0, '', 'open', ?) RETURNING id"),
    ("actions", "INSERT INTO actions (deal_id, seq, payload, member_id, created_at)"
                " VALUES (?, 0, '{}', NULL, ?) RETURNING id"),
    ("ledger", "INSERT INTO ledger (guild_id, amount, reason, created_at)"
               " VALUES (-1, 0, 'probe', ?) RETURNING id"),
    ("audit", "INSERT INTO audit (guild_id, action, detail, created_at)"
              " VALUES (-1, 'probe', '', ?) RETURNING id"),
)


def _probe_params(table: str, made: dict[str, int]) -> tuple[Any, ...]:
    now = _now()
    if table in ("deals", "shuffle_events"):
        return made["tables"], now
    if table == "actions":
        return made["deals"], now
    return (now,)


async def next_ids(store: Storage | PgStorage) -> dict[str, tuple[int, int]]:
    """For each identity table, ``(highest id, id a new row gets)``: one new row of
    each is written (a lobby in no guild, a shuffle event of it, its deal, an
    action, a ledger and an audit row) and rolled back at once (PostgreSQL: to a savepoint of the open
    unit, and each sequence set back to give that id again). For a database no
    one else writes meanwhile (the copy's target)."""
    if isinstance(store, PgStorage):
        from .postgres import pg_sql

        async def probe(conn: asyncpg.Connection) -> dict[str, tuple[int, int]]:
            top = {t: int(await conn.fetchval(f"SELECT COALESCE(MAX(id), 0) FROM {t}"))
                   for t in IDENTITY_TABLES}
            made: dict[str, int] = {}
            try:
                async with conn.transaction():
                    for table, sql in _PROBES:
                        made[table] = int(await conn.fetchval(pg_sql(sql),
                                                              *_probe_params(table, made)))
                    raise _Probe
            except _Probe:
                pass
            for table in IDENTITY_TABLES:  # the probe's ids are given again: no gap
                await conn.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'),"
                                   " $1, false)", made[table])
            return {t: (top[t], made[t]) for t in IDENTITY_TABLES}
        return await store._write_now(probe)

    async def probe_sqlite(db: Any) -> dict[str, tuple[int, int]]:
        top = {t: int(db.execute(f"SELECT COALESCE(MAX(id), 0) FROM {t}").fetchone()[0])
               for t in IDENTITY_TABLES}
        made: dict[str, int] = {}
        db.execute("SAVEPOINT probe")
        try:
            for table, sql in _PROBES:  # lastrowid: RETURNING needs SQLite 3.35
                made[table] = int(db.execute(sql.removesuffix(" RETURNING id"),
                                             _probe_params(table, made)).lastrowid)
        finally:
            db.execute("ROLLBACK TO probe")
            db.execute("RELEASE probe")
        return {t: (top[t], made[t]) for t in IDENTITY_TABLES}
    return await store._write_now(probe_sqlite)
