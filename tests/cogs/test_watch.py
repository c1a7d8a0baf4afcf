"""The watch over open tables (bot/timers/clock.py ``Timers.tick``) lets other work
run during a long round: it never holds the event loop for every table at once."""

from __future__ import annotations

import asyncio

from bot.timers import clock as timers
from tests.cogs.test_confirmations import start


async def test_a_round_of_the_watch_lets_other_work_in(simcord_env, bots, monkeypatch):
    env = simcord_env
    table, (ann,), _ = await start(env, bots, "foster", dealer=2, humans=("ann",), ai=2)
    bot = table.bot
    order: list[str] = []
    tend = bot.timers._tend

    stale = {table.live.id + 1000 + k for k in range(5)}  # six tables for the round

    def logged(table_id: int):
        order.append("table")
        # the made-up ones are only counted
        return tend(table_id) if table_id not in stale else None

    monkeypatch.setattr(bot.timers, "_tend", logged)
    monkeypatch.setattr(timers, "TEND_BATCH", 2)
    monkeypatch.setattr(bot.service, "stale", stale)

    async def other() -> None:
        order.append("other")

    waiting = asyncio.ensure_future(other())
    await bot.timers.tick()
    await waiting
    assert order.count("table") == 6
    first = order.index("other")
    assert 0 < first < 6, order  # in the middle of the round, not after it
