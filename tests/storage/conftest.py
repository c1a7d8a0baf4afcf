"""Fixtures of the storage tests: every test that takes ``store`` (or ``backend``)
runs twice, on SQLite and on PostgreSQL (``tests/storage/backends.py``).

- ``backend``: the ``Backend`` (parametrized ``sqlite`` / ``postgres``);
- ``store``: a storage opened on it, closed after the test.

A test about SQLite only (its file, its lock, its pragmas) uses ``db_path`` and
``Storage.open`` instead, and says so.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from bot.storage import AnyStorage
from tests.storage.backends import BACKENDS, Backend, make_backend


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Backend:
    return make_backend(request, request.param, tmp_path / "data" / "commerce.db")


@pytest_asyncio.fixture
async def store(backend: Backend) -> AsyncIterator[AnyStorage]:
    storage = await backend.open()
    yield storage
    await storage.close()
