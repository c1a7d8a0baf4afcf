"""Class 1: a write of a posted message's id that fails for a moment (database
locked, disk hiccup: logged and never tried again), then a restart."""

from __future__ import annotations

import sqlite3

import pytest

from tests.attack.common import titles
from tests.cogs.golden import offers_a_move
from tests.cogs.helpers import BACKEND, RETRY_SETTLE, restart
from tests.cogs.test_confirmations import choose, start

pytestmark = [pytest.mark.simcord(settle_timeout=RETRY_SETTLE),
              pytest.mark.skipif(BACKEND == "postgres", reason="sqlite error injected")]


def fail_once(monkeypatch, storage, name):
    real = getattr(storage, name)
    calls = {"n": 0}

    async def flaky(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 1:
            raise sqlite3.OperationalError("database is locked")
        return await real(*args, **kwargs)

    monkeypatch.setattr(storage, name, flaky)
    return calls


async def test_a_showdown_whose_id_was_not_stored_is_posted_twice_after_a_restart(
        simcord_env, bots, make_bot, monkeypatch):
    env = simcord_env
    table, (ann, ben, cat), _ = await start(env, bots, "foster", dealer=2)
    calls = fail_once(monkeypatch, table.bot.service.storage, "set_showdown_message")
    while not table.live.deal.finished:
        await choose(table, table.actor_to_act(), "knock")
    await env.advance_time(2)
    assert calls["n"] >= 1
    assert titles(table.channel).count("Showdown · deal 1") == 1
    await restart(env, make_bot())  # within the 30 s before the next deal
    await env.advance_time(10)
    assert titles(table.channel).count("Showdown · deal 1") == 1, titles(table.channel)
    env.errors  # noqa: B018


async def test_a_table_message_whose_id_was_not_stored_leaves_a_live_copy(
        simcord_env, bots, make_bot, monkeypatch):
    env = simcord_env
    table, (ann, ben, cat), _ = await start(env, bots, "foster", dealer=2)
    while not table.live.deal.finished:
        await choose(table, table.actor_to_act(), "knock")
    fail_once(monkeypatch, table.bot.service.storage, "set_messages")
    await env.advance_time(31)  # the next deal's table message: its id is not stored
    assert table.live.deal_number == 2
    await restart(env, make_bot())
    await env.advance_time(10)
    deal2 = [m for m in table.channel.history()
             if m.embeds and (m.embeds[0].title or "").startswith("Commerce table 1 · foster · deal 2")]
    current = table.live.row.table_message_id
    stale = [m for m in deal2 if m.id != current]
    # the copy the restarted bot no longer knows keeps its move buttons for ever
    assert not [m for m in stale if offers_a_move(m)], [
        [c.label for r in m.components for c in r.children] for m in stale]
    assert len(deal2) == 1, [m.id for m in deal2]
    env.errors  # noqa: B018
