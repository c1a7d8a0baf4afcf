"""Schema migrations for PostgreSQL through asyncpg: the numbered files of
``migrations/postgres/NNNN_name.sql``, the same history as the SQLite files of
``migrations/`` in PostgreSQL's dialect (each file says where the two differ).

Each migration runs in one transaction with its ``schema_version`` row, so a
failed one leaves the schema as it was. Migrating is idempotent, and safe when
several bot processes (shards) start at once on one database: each migration's
transaction first takes a transaction-scoped advisory lock (``MIGRATION_LOCK``)
and reads the version again, so every file is applied exactly once.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import asyncpg

from .database import _migrations
from .errors import CorruptDatabase

MIGRATIONS_DIR = Path(__file__).with_name("migrations") / "postgres"
#: the key of the advisory lock that serialises migrations (any 64-bit number that
#: nothing else on the server uses; here the bytes of "commerce")
MIGRATION_LOCK = int.from_bytes(b"commerce", "big")

_SCHEMA_VERSION = (
    "CREATE TABLE IF NOT EXISTS schema_version ("
    " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
)


def migrations(folder: Path = MIGRATIONS_DIR) -> list[tuple[int, str, str]]:
    """``[(version, name, sql)]`` from ``folder/NNNN_name.sql``, by version
    (PostgreSQL's by default; the same reading as the SQLite ones).

    Raises:
        RuntimeError: a file named otherwise, or two files with one number.
    """
    return _migrations(folder)


async def schema_version(conn: asyncpg.Connection) -> int:
    """The database's schema version: 0 when its schema (``current_schema()``) has
    no table yet, else the highest ``schema_version`` row.

    Raises:
        CorruptDatabase: the schema has tables but no ``schema_version``: it is
            not a Commerce database (nothing is changed).
    """
    tables = await conn.fetchval(
        "SELECT count(*) FROM pg_tables WHERE schemaname = current_schema()")
    if not tables:
        return 0
    if await conn.fetchval("SELECT to_regclass('schema_version') IS NULL"):
        name = await conn.fetchval("SELECT current_database()")
        raise CorruptDatabase(
            f"the PostgreSQL database {name} has tables but is not a Commerce one "
            "(no schema_version); it was left untouched")
    return int(await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version"))


async def migrate(conn: asyncpg.Connection, folder: Path = MIGRATIONS_DIR) -> int:
    """Apply every migration above the database's version, each in one transaction
    with its ``schema_version`` row; returns the version reached (the newest file's).

    Args:
        conn: an open connection, outside any transaction.
        folder: where the numbered files are (tests point it elsewhere).

    Raises:
        CorruptDatabase: the database's schema is newer than the newest file
            (upgrade the bot), or it is not a Commerce database; nothing is changed.
        asyncpg.PostgresError: a migration failed; it was rolled back, the ones
            before it stay applied.
    """
    steps = migrations(folder)
    known = steps[-1][0] if steps else 0
    current = await schema_version(conn)
    if current > known:
        name = await conn.fetchval("SELECT current_database()")
        raise CorruptDatabase(
            f"the PostgreSQL database {name} has schema version {current}, newer than this "
            f"bot knows ({known}); upgrade the bot. The database was left untouched")
    for version, name, sql in steps:
        if version <= current:
            continue
        async with conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
            current = await schema_version(conn)  # another process may have been first
            if version <= current:
                continue
            await conn.execute(_SCHEMA_VERSION)
            await conn.execute(sql)
            await conn.execute(
                "INSERT INTO schema_version (version, name, applied_at) VALUES ($1, $2, $3)",
                version, name, datetime.now(UTC).isoformat(timespec="seconds"))
            current = version
    return current
