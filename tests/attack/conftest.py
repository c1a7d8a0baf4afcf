"""Fixtures of the attack tests: the project's SimCord fixtures (tests/cogs/conftest.py)
and a bot built as ``python -m bot`` builds it (``prod`` marker)."""

from __future__ import annotations

import time
import types

import pytest
import pytest_asyncio
from discord.app_commands import checks as app_checks
from discord.ext.commands import cooldowns

from bot.__main__ import build_bot
from tests.cogs.conftest import bots, db_path, make_bot  # noqa: F401


@pytest_asyncio.fixture
async def simcord_bot(request, db_path, bots, make_bot, monkeypatch):  # noqa: F811
    if request.node.get_closest_marker("prod") is not None:
        # the per-member cooldown counts in the simulated clock, as it counts real
        # seconds in production
        monkeypatch.setattr(cooldowns, "time", types.SimpleNamespace(time=_virtual))
        monkeypatch.setattr(app_checks, "time", types.SimpleNamespace(time=_virtual))
        bot = build_bot(db_path)
        bots.append(bot)
    else:
        bot = make_bot()
    yield bot
    for b in bots:
        await b.close_storage()


_ENVS: list = []


def _virtual() -> float:
    return _ENVS[-1]._virtual_time if _ENVS else time.monotonic()


@pytest.fixture(autouse=True)
def _track_env(request):
    if "simcord_env" in request.fixturenames:
        env = request.getfixturevalue("simcord_env")
        _ENVS.append(env)
        yield
        _ENVS.remove(env)
    else:
        yield


def pytest_configure(config):
    config.addinivalue_line("markers", "prod: the bot as python -m bot builds it")


#: the long attack runs: the suite runs a seeded sample of their cases;
#: ``COMMERCE_EXHAUSTIVE=1`` (``scripts/attack``) runs every case
LONG = ("test_restarts", "test_stop_real", "test_every_game_ends", "test_end_at_every_moment",
        "test_bursts")
#: one case in SAMPLE of each long module is run by the suite (and the first of each)
SAMPLE = 12


def pytest_collection_modifyitems(config, items):
    import os
    import zlib

    if os.environ.get("COMMERCE_EXHAUSTIVE", "").strip() == "1":
        return
    kept, dropped, seen = [], [], set()
    for item in items:
        module = item.module.__name__.rsplit(".", 1)[-1] if item.module else ""
        if module not in LONG:
            kept.append(item)
            continue
        first = module not in seen
        seen.add(module)
        if first or zlib.crc32(item.nodeid.encode()) % SAMPLE == 0:
            kept.append(item)
        else:
            dropped.append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept
