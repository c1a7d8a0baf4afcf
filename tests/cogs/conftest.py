"""SimCord fixtures: the real bot against an in-memory Discord.

``COMMERCE_TEST_BACKEND=postgres`` (or ``DATABASE_URL=postgresql://…``, which sets it:
tests/conftest.py) runs the suite on PostgreSQL: ``db_path`` is then
the ``DATABASE_URL`` of a fresh database of the session's server (tests/postgres.py)
instead of an SQLite file, so every bot built from it, restarts included, uses it,
and the working folder is ``tmp_path`` (whatever a test writes to it stays there).
Tests look at the database behind the bot's back through ``rows`` / ``execute`` /
``database`` of tests/cogs/helpers.py (either backend); a test of an SQLite-only
mechanism (its file lock, ``PRAGMA max_page_count``) is skipped there, with its
PostgreSQL equivalent beside it (``BACKEND`` in helpers).
"""

from __future__ import annotations

import os
import random

import pytest
import pytest_asyncio

from bot import create_bot


@pytest.fixture
def bots():
    return []


@pytest.fixture
def db_path(tmp_path, request):
    if os.environ.get("COMMERCE_TEST_BACKEND", "sqlite").strip().lower() == "postgres":
        # whatever is written to the working folder stays in tmp_path
        request.getfixturevalue("monkeypatch").chdir(tmp_path)
        return request.getfixturevalue("pg_migrated_url")
    return tmp_path / "commerce.db"


@pytest.fixture
def make_bot(db_path, bots):
    def make(seed: int = 7, cooldown=None, ai_pace: float = 0.0):
        # ai_pace=0: the table message shows every change at once (tests of the
        # pace itself ask for one: tests/cogs/test_ai_pace.py)
        bot = create_bot(db_path=db_path, rng=random.Random(seed), cooldown=cooldown,
                         ai_pace=ai_pace)
        bots.append(bot)
        return bot
    return make


@pytest_asyncio.fixture
async def simcord_bot(make_bot, bots):
    bot = make_bot()
    yield bot
    for b in bots:
        await b.close_storage()
