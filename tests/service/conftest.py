"""The service tests' storage: every test that takes ``storage`` (or ``backend``) runs
once on SQLite and once on PostgreSQL (tests/storage/backends.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
import pytest_asyncio

from tests.storage.backends import BACKENDS, Backend, make_backend


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Backend:
    """The backend of this run of the test, with its database under ``tmp_path``."""
    return make_backend(request, request.param, tmp_path / "commerce.db")


@pytest_asyncio.fixture
async def storage(backend: Backend):
    """An open storage of ``backend``, closed after the test."""
    store = await backend.open()
    try:
        yield store
    finally:
        await store.close()
