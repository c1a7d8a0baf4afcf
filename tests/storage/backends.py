"""Both storage backends behind one interface for the tests, so that every storage
test runs on SQLite and on PostgreSQL (issue 13): a ``Backend`` says where the
database is, opens a storage on it, and looks at it behind the storage's back (a
connection of its own: ``sqlite3`` or asyncpg, ``?`` placeholders either way).
The fixtures are in tests/storage/conftest.py.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.storage import AnyStorage, open_storage
from bot.storage.postgres import pg_sql

BACKENDS = ["sqlite", "postgres"]


@dataclass
class Backend:
    """One test database: ``name`` is ``sqlite`` or ``postgres``; ``address`` the
    SQLite file or the ``DATABASE_URL``."""

    name: str
    address: Any

    @property
    def postgres(self) -> bool:
        return self.name == "postgres"

    @property
    def integrity(self) -> type[Exception]:
        """What a refused write (duplicate, trigger) raises on this backend."""
        return asyncpg.IntegrityConstraintViolationError if self.postgres else sqlite3.IntegrityError

    async def open(self) -> AnyStorage:
        return await open_storage(self.address)

    async def rows(self, sql: str, params: tuple = ()) -> list[tuple]:
        """Rows of ``sql`` (``?`` placeholders) on a connection of its own."""
        if self.postgres:
            conn = await asyncpg.connect(self.address)
            try:
                return [tuple(r) for r in await conn.fetch(pg_sql(sql), *params)]
            finally:
                await conn.close()
        conn3 = sqlite3.connect(self.address, isolation_level=None)
        try:
            return [tuple(r) for r in conn3.execute(sql, params).fetchall()]
        finally:
            conn3.close()

    async def value(self, sql: str, params: tuple = ()) -> Any:
        """The first column of the first row of ``sql``."""
        return (await self.rows(sql, params))[0][0]

    async def execute(self, sql: str, params: tuple = ()) -> None:
        """Run ``sql`` on a connection of its own (autocommit)."""
        if self.postgres:
            conn = await asyncpg.connect(self.address)
            try:
                await conn.execute(pg_sql(sql), *params)
            finally:
                await conn.close()
            return
        conn3 = sqlite3.connect(self.address, isolation_level=None)
        try:
            conn3.execute(sql, params)
        finally:
            conn3.close()

    async def executemany(self, sql: str, rows: list[tuple]) -> None:
        if self.postgres:
            conn = await asyncpg.connect(self.address)
            try:
                await conn.executemany(pg_sql(sql), rows)
            finally:
                await conn.close()
            return
        conn3 = sqlite3.connect(self.address, isolation_level=None)
        try:
            conn3.executemany(sql, rows)
        finally:
            conn3.close()


def make_backend(request: pytest.FixtureRequest, name: str, sqlite_path: Path) -> Backend:
    """The ``Backend`` called ``name``: a fresh, migrated PostgreSQL database
    (``pg_migrated_url``), or the SQLite file ``sqlite_path``."""
    if name == "postgres":
        return Backend("postgres", request.getfixturevalue("pg_migrated_url"))
    return Backend("sqlite", sqlite_path)
