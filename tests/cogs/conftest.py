"""SimCord fixtures: the real bot against an in-memory Discord."""

from __future__ import annotations

import random

import pytest
import pytest_asyncio

from bot import create_bot


@pytest.fixture
def bots():
    return []


@pytest.fixture
def db_path(tmp_path):
    return tmp_path / "commerce.db"


@pytest.fixture
def make_bot(db_path, bots):
    def make(seed: int = 7, cooldown=None):
        bot = create_bot(db_path=db_path, rng=random.Random(seed), cooldown=cooldown)
        bots.append(bot)
        return bot
    return make


@pytest_asyncio.fixture
async def simcord_bot(make_bot, bots):
    bot = make_bot()
    yield bot
    for b in bots:
        await b.close_storage()
