"""The PostgreSQL schema against a real server (tests/postgres.py): the migrations
mirror the SQLite ones, apply once, refuse a newer or a foreign schema, roll a
failed step back, and the database itself keeps the action log and the ledger
append-only and the ledger zero-sum checkable in SQL."""

from __future__ import annotations

import asyncio
import re
import sqlite3
from pathlib import Path
from urllib.parse import urlsplit

import asyncpg
import pytest

from bot.storage import CorruptDatabase
from bot.storage import database as sqlite_database
from bot.storage.pg_migrate import migrate, migrations, postgres_dialect, schema_version

LATEST = max(v for v, _, _ in migrations())
#: how many migrations there are (numbers may skip one kept for another branch)
APPLIED = len(migrations())
DECK = " ".join(rank + suit for suit in "cdhs" for rank in "23456789TJQKA")
NOW = "2026-01-01T00:00:00+00:00"
REFUSED = asyncpg.exceptions.IntegrityConstraintViolationError
#: a guild's ledger rows that are not in an open table's pool or pot (resets included)
#: must sum to zero; one row per guild that drifts. Plain SQL, the same on both backends.
LEDGER_DRIFT = """
    SELECT l.guild_id, SUM(l.amount) AS drift
    FROM ledger l LEFT JOIN tables t ON t.id = l.table_id
    WHERE NOT (COALESCE(t.status IN ('lobby', 'playing'), FALSE)
               AND l.reason NOT IN ('reset', 'reset-pot'))
    GROUP BY l.guild_id
    HAVING SUM(l.amount) <> 0
    ORDER BY l.guild_id
"""


async def connect(url: str) -> asyncpg.Connection:
    return await asyncpg.connect(url)


async def test_the_server_is_a_real_postgresql(pg_url):
    conn = await connect(pg_url)
    try:
        version = await conn.fetchval("SELECT version()")
        assert re.match(r"PostgreSQL \d+", version)
        assert await conn.fetchval("SELECT current_database()") == urlsplit(pg_url).path[1:]
        # a real backend process of its own, not an in-process stand-in
        backend = await conn.fetchval("SELECT pg_backend_pid()")
        assert Path(f"/proc/{backend}").exists()
    finally:
        await conn.close()


@pytest.mark.parametrize("run", [1, 2])
async def test_each_test_gets_a_fresh_empty_database(pg_url, run):
    conn = await connect(pg_url)
    try:
        assert await conn.fetchval(
            "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'") == 0
        await conn.execute("CREATE TABLE left_behind (run INTEGER)")  # the other run must not see it
    finally:
        await conn.close()


async def test_the_migrations_apply_from_empty_once(pg_url):
    conn = await connect(pg_url)
    try:
        assert await schema_version(conn) == 0
        assert await migrate(conn) == LATEST
        rows = await conn.fetch("SELECT version, name FROM schema_version ORDER BY version")
        assert [(r["version"], r["name"]) for r in rows] == [(v, n) for v, n, _ in migrations()]
        assert await migrate(conn) == LATEST  # idempotent
        assert await conn.fetchval("SELECT count(*) FROM schema_version") == APPLIED
    finally:
        await conn.close()


def sqlite_schema() -> dict[str, dict[str, bool]]:
    """``{table: {column: not_null}}`` of the SQLite migrations applied in memory."""
    db = sqlite3.connect(":memory:")
    try:
        for path in sorted(sqlite_database.MIGRATIONS_DIR.glob("*.sql")):
            db.executescript(path.read_text(encoding="utf-8"))
        tables = [r[0] for r in db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]
        return {t: {c[1]: bool(c[3] or c[5]) for c in db.execute(f"PRAGMA table_info({t})")}
                for t in tables}
    finally:
        db.close()


def sqlite_names(kind: str) -> set[str]:
    db = sqlite3.connect(":memory:")
    try:
        for path in sorted(sqlite_database.MIGRATIONS_DIR.glob("*.sql")):
            db.executescript(path.read_text(encoding="utf-8"))
        return {r[0] for r in db.execute(
            "SELECT name FROM sqlite_master WHERE type = ? AND name NOT LIKE 'sqlite_%'", (kind,))}
    finally:
        db.close()


async def test_the_postgresql_schema_mirrors_the_sqlite_one(pg_migrated_url):
    assert [v for v, _, _ in migrations()] == sorted(
        int(p.name[:4]) for p in sqlite_database.MIGRATIONS_DIR.glob("*.sql"))
    conn = await connect(pg_migrated_url)
    try:
        rows = await conn.fetch(
            "SELECT table_name, column_name, is_nullable FROM information_schema.columns"
            " WHERE table_schema = 'public' AND table_name <> 'schema_version'")
        pg: dict[str, dict[str, bool]] = {}
        for r in rows:
            pg.setdefault(r["table_name"], {})[r["column_name"]] = r["is_nullable"] == "NO"
        assert pg == sqlite_schema()
        indexes = {r[0] for r in await conn.fetch(
            "SELECT indexname FROM pg_indexes WHERE schemaname = 'public'")}
        assert sqlite_names("index") <= indexes
        triggers = {r[0] for r in await conn.fetch(
            "SELECT tgname FROM pg_trigger WHERE NOT tgisinternal")}
        assert sqlite_names("trigger") <= triggers
        # Discord ids need 64 bits
        assert await conn.fetchval(
            "SELECT data_type FROM information_schema.columns"
            " WHERE table_name = 'tables' AND column_name = 'channel_id'") == "bigint"
    finally:
        await conn.close()


async def test_a_newer_schema_is_refused_and_left_alone(pg_migrated_url):
    conn = await connect(pg_migrated_url)
    try:
        await conn.execute("INSERT INTO schema_version VALUES ($1, 'future', $2)", LATEST + 1, NOW)
        with pytest.raises(CorruptDatabase, match=f"schema version {LATEST + 1}, newer"):
            await migrate(conn)
        assert await schema_version(conn) == LATEST + 1
    finally:
        await conn.close()


async def test_a_database_that_is_not_commerce_is_refused(pg_url):
    conn = await connect(pg_url)
    try:
        await conn.execute("CREATE TABLE invoices (id INTEGER)")
        with pytest.raises(CorruptDatabase, match="not a Commerce one"):
            await migrate(conn)
        assert await conn.fetchval("SELECT to_regclass('tables')") is None
    finally:
        await conn.close()


async def test_a_failed_migration_is_rolled_back_whole(pg_url, tmp_path):
    (tmp_path / "0001_first.sql").write_text("CREATE TABLE first (id INTEGER);")
    (tmp_path / "0002_broken.sql").write_text(
        "CREATE TABLE second (id INTEGER);\nCREATE TABLE third (id NOSUCHTYPE);")
    conn = await connect(pg_url)
    try:
        with pytest.raises(asyncpg.PostgresError, match="nosuchtype"):
            await migrate(conn, tmp_path)
        assert await schema_version(conn) == 1
        assert await conn.fetchval("SELECT to_regclass('second')") is None
        (tmp_path / "0002_broken.sql").write_text("CREATE TABLE second (id INTEGER);")
        assert await migrate(conn, tmp_path) == 2
    finally:
        await conn.close()


async def test_shards_starting_together_apply_each_migration_once(pg_url):
    conns = [await connect(pg_url) for _ in range(4)]
    try:
        assert await asyncio.gather(*(migrate(c) for c in conns)) == [LATEST] * 4
        assert await conns[0].fetchval("SELECT count(*) FROM schema_version") == APPLIED
    finally:
        for c in conns:
            await c.close()


async def seed(conn: asyncpg.Connection) -> tuple[int, int]:
    """A guild with one table, one open deal with an action, and a ledger row;
    returns ``(table_id, deal_id)``."""
    table_id = await conn.fetchval(
        "INSERT INTO tables (guild_id, channel_id, number, host_id, preset, next_deal_delay,"
        " created_at) VALUES ($1, $2, 1, $3, 'foster', 30, $4) RETURNING id",
        1 << 60, (1 << 60) + 1, (1 << 60) + 2, NOW)
    deal_id = await conn.fetchval(
        "INSERT INTO deals (table_id, number, dealer, deck, started_at, commitment, seed)"
        " VALUES ($1, 0, 0, $2, $3, 'c', 's') RETURNING id", table_id, DECK, NOW)
    await conn.execute(
        "INSERT INTO actions (deal_id, seq, payload, created_at) VALUES ($1, 0, '{\"op\": 1}', $2)",
        deal_id, NOW)
    await conn.execute(
        "INSERT INTO ledger (guild_id, table_id, deal_id, seat, amount, reason, created_at)"
        " VALUES ($1, $2, $3, 0, -1, 'ante', $4)", 1 << 60, table_id, deal_id, NOW)
    return table_id, deal_id


@pytest.mark.parametrize("sql, message", [
    ("UPDATE actions SET seq = 5", "actions: append-only"),
    ("UPDATE actions SET payload = '[]'", "actions: append-only"),
    ("DELETE FROM actions", "actions: append-only"),
    ("TRUNCATE actions", "actions: append-only"),
    ("UPDATE ledger SET amount = 100", "ledger: append-only"),
    ("DELETE FROM ledger", "ledger: append-only"),
    ("TRUNCATE ledger", "ledger: append-only"),
    ("UPDATE deals SET deck = 'Ac'", "deals: table_id, number, dealer and deck are immutable"),
    ("UPDATE deals SET seed = 'other'", "deals: commitment, seed, cuts and cut_by are immutable"),
    ("DELETE FROM deals", "deals: rows are never deleted"),
    ("TRUNCATE deals CASCADE", "rows are never deleted|append-only"),
])
async def test_the_database_refuses_to_rewrite_history(pg_migrated_url, sql, message):
    conn = await connect(pg_migrated_url)
    try:
        await seed(conn)
        with pytest.raises(REFUSED, match=message):
            await conn.execute(sql)
        assert await conn.fetchval("SELECT count(*) FROM actions") == 1
        assert await conn.fetchval("SELECT SUM(amount) FROM ledger") == -1
    finally:
        await conn.close()


async def test_a_closed_deal_takes_no_action_and_stays_closed(pg_migrated_url):
    conn = await connect(pg_migrated_url)
    try:
        _, deal_id = await seed(conn)
        await conn.execute("UPDATE deals SET status = 'finished', finished_at = $1", NOW)
        with pytest.raises(REFUSED, match="the deal is not open"):
            await conn.execute("INSERT INTO actions (deal_id, seq, payload, created_at)"
                               " VALUES ($1, 1, '{}', $2)", deal_id, NOW)
        with pytest.raises(REFUSED, match="a closed deal cannot change status"):
            await conn.execute("UPDATE deals SET status = 'open'")
    finally:
        await conn.close()


@pytest.mark.parametrize("sql", [
    "INSERT INTO games (table_id, first_dealer, winners, started_at)"
    " SELECT id, 0, '[0,', '' FROM tables",
    "INSERT INTO actions (deal_id, seq, payload, created_at) SELECT id, 1, 'trade', '' FROM deals",
    "UPDATE tables SET options = '{\"a\": }'",
])
async def test_json_columns_refuse_text_that_is_not_json(pg_migrated_url, sql):
    conn = await connect(pg_migrated_url)
    try:
        await seed(conn)
        with pytest.raises(asyncpg.exceptions.InvalidTextRepresentationError):
            await conn.execute(sql)
    finally:
        await conn.close()


async def test_the_ledger_zero_sum_is_checkable_in_sql(pg_migrated_url):
    rows = [  # guild, table (None: a reset), amount, reason
        (1, "a", -3, "ante"), (1, "a", 3, "pool"),          # a settled deal
        (1, "b", -2, "ante"),                               # still in b's pool (b is open)
        (1, None, 5, "reset"), (1, None, -5, "reset"),      # a reset and its offset
        (2, "c", -1, "ante"), (2, "c", 1, "pool"),
    ]

    async def drift(conn: asyncpg.Connection) -> list[tuple[int, int]]:
        return [(r["guild_id"], r["drift"]) for r in await conn.fetch(LEDGER_DRIFT)]

    conn = await connect(pg_migrated_url)
    try:
        ids = {}
        for n, (name, status) in enumerate([("a", "finished"), ("b", "playing"), ("c", "closed")]):
            ids[name] = await conn.fetchval(
                "INSERT INTO tables (guild_id, channel_id, number, host_id, preset, status,"
                " next_deal_delay, created_at) VALUES ($1, $2, $3, 1, 'foster', $4, 0, $5)"
                " RETURNING id", 2 if name == "c" else 1, 10 + n, n + 1, status, NOW)
        for guild, table, amount, reason in rows:
            await conn.execute(
                "INSERT INTO ledger (guild_id, table_id, amount, reason, created_at)"
                " VALUES ($1, $2, $3, $4, $5)", guild, ids.get(table or ""), amount, reason, NOW)
        assert await drift(conn) == []
        # the same query says the same on SQLite
        lite = sqlite3.connect(":memory:")
        for path in sorted(sqlite_database.MIGRATIONS_DIR.glob("*.sql")):
            lite.executescript(path.read_text(encoding="utf-8"))
        for r in await conn.fetch("SELECT * FROM tables"):
            lite.execute("INSERT INTO tables (id, guild_id, channel_id, number, host_id, preset,"
                         " status, next_deal_delay, created_at) VALUES (?, ?, ?, ?, 1, 'foster',"
                         " ?, 0, ?)", (r["id"], r["guild_id"], r["channel_id"], r["number"],
                                       r["status"], NOW))
        for r in await conn.fetch("SELECT * FROM ledger"):
            lite.execute("INSERT INTO ledger (guild_id, table_id, amount, reason, created_at)"
                         " VALUES (?, ?, ?, ?, ?)", (r["guild_id"], r["table_id"], r["amount"],
                                                     r["reason"], NOW))
        assert lite.execute(LEDGER_DRIFT).fetchall() == []
        # a payment whose counterpart is missing shows up, on both
        await conn.execute("INSERT INTO ledger (guild_id, table_id, amount, reason, created_at)"
                           " VALUES (2, $1, 4, 'pool', $2)", ids["c"], NOW)
        lite.execute("INSERT INTO ledger (guild_id, table_id, amount, reason, created_at)"
                     " VALUES (2, ?, 4, 'pool', ?)", (ids["c"], NOW))
        assert await drift(conn) == [(2, 4)]
        assert lite.execute(LEDGER_DRIFT).fetchall() == [(2, 4)]
        lite.close()
    finally:
        await conn.close()


def test_every_migration_is_written_once_for_both_dialects():
    pyproject = (Path(__file__).resolve().parents[2] / "pyproject.toml").read_text()
    assert '"bot.storage" = ["migrations/*.sql"]' in pyproject
    assert [(v, n) for v, n, _ in migrations()] == [
        (v, n) for v, n, _ in sqlite_database._migrations()]
    assert not (sqlite_database.MIGRATIONS_DIR / "postgres").exists()


def test_the_postgresql_dialect_of_ids_json_and_triggers():
    sql = """CREATE TABLE t (
    id       INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id INTEGER NOT NULL,
    seat     INTEGER,
    payload  TEXT CHECK (json_valid(payload))
);
ALTER TABLE t ADD COLUMN cut_by INTEGER;
CREATE TRIGGER t_no_delete BEFORE DELETE ON t
BEGIN SELECT RAISE(ABORT, 't: append-only'); END;
CREATE TRIGGER t_fixed BEFORE UPDATE OF seat ON t
WHEN OLD.seat IS NOT NULL AND NEW.seat IS NOT OLD.seat
BEGIN SELECT RAISE(ABORT, 't: fixed'); END;"""
    assert postgres_dialect(sql) == """CREATE TABLE t (
    id       BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    guild_id BIGINT NOT NULL,
    seat     INTEGER,
    payload  TEXT CHECK (payload::json IS NOT NULL)
);
ALTER TABLE t ADD COLUMN cut_by BIGINT;
CREATE TRIGGER t_no_delete BEFORE DELETE ON t
FOR EACH ROW EXECUTE FUNCTION commerce_refuse('t: append-only');
CREATE TRIGGER t_no_truncate BEFORE TRUNCATE ON t
FOR EACH STATEMENT EXECUTE FUNCTION commerce_refuse('t: append-only');
CREATE TRIGGER t_fixed BEFORE UPDATE OF seat ON t
FOR EACH ROW WHEN (OLD.seat IS NOT NULL AND NEW.seat IS DISTINCT FROM OLD.seat) \
EXECUTE FUNCTION commerce_refuse('t: fixed');"""
    # the function that raises is defined once, by the first migration that needs it
    rendered = [sql for _, _, sql in migrations()]
    assert [s.count("CREATE FUNCTION commerce_refuse()") for s in rendered] == [1] + [0] * (
        len(rendered) - 1)
