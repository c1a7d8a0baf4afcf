"""A clean stop (bot/process/stopping.py ``stop_cleanly``, what SIGTERM and SIGINT do in
``python -m bot`` and the sandbox), in-process against SimCord: the work in flight
when the stop begins finishes and is committed; an interaction arriving after it
began is answered "restarting" and changes nothing; the storage is closed at the
end. The real processes: tests/app/test_stop.py."""

from __future__ import annotations

import asyncio

from bot.interactions.guard import RESTARTING
from bot.process.stopping import stop_cleanly
from bot.storage import open_storage
from tests.cogs.helpers import answer_text, emit_component, message_text, rows
from tests.cogs.test_confirmations import start


def hold_units(env, storage, monkeypatch):
    """Make every unit of work on a table stop inside its transaction (at its
    ``require_open`` check, before it writes) until the returned ``release`` is set;
    ``entered`` is set once one is held there. The wait is declared to SimCord, so
    the environment still settles around it."""
    entered, release = asyncio.Event(), asyncio.Event()
    real = storage.require_open

    async def held(table_id: int) -> None:
        entered.set()
        await env.external_wait(release.wait(), reason="test: a unit of work in flight")
        await real(table_id)

    monkeypatch.setattr(storage, "require_open", held)
    return entered, release


async def stopping(bot) -> asyncio.Task[bool]:
    """``stop_cleanly`` begun in a task of its own; returns once it has begun."""
    task = asyncio.create_task(stop_cleanly(bot, grace=60))
    while not bot.in_flight.closed:
        await asyncio.sleep(0)
    return task


async def storage_is_free(database) -> None:
    """A new storage opens the same database and claims its shard at once: the
    stopped bot released its file lock (SQLite) or its shard claim (PostgreSQL)."""
    storage = await open_storage(database)
    try:
        await storage.claim_shards((0,), 1)
    finally:
        await storage.close()


async def seated(bot, table_id: int) -> set[int | None]:
    return {m for (m,) in await rows(bot, "SELECT member_id FROM seats WHERE table_id = ?",
                                     (table_id,))}


async def test_a_stop_finishes_the_click_in_flight_and_turns_new_ones_away(
        simcord_env, bots, db_path, monkeypatch):
    env, bot = simcord_env, bots[-1]
    guild = env.create_guild()
    general = guild.create_text_channel("general")
    ann, ben, cat = (guild.add_member(env.create_user(n)) for n in ("ann", "ben", "cat"))
    res = await ann.slash(general, "commerce new")
    assert res.ephemeral, answer_text(res)
    channel = guild.channels["commerce-1"]
    lobby = channel.history()[0]
    table_id = bot.service.in_channel(channel.id).id
    entered, release = hold_units(env, bot.service.storage, monkeypatch)

    ben_joins = emit_component(env, ben, lobby, f"commerce:lobby:{table_id}:join")
    await entered.wait()  # Ben's join is inside its unit of work
    stop = await stopping(bot)
    cat_joins = emit_component(env, cat, lobby, f"commerce:lobby:{table_id}:join")
    await env.settle()  # Cat's click is answered while Ben's unit is still held
    assert answer_text(cat_joins) == RESTARTING and cat_joins.ephemeral
    assert not stop.done()  # the stop waits for Ben's click

    release.set()
    assert await asyncio.wait_for(stop, 30) is True
    # Ben was answered: the lobby, edited with him seated
    assert ben_joins.response is not None and ben_joins.response.id == lobby.id
    assert "1. ann\n2. ben" in message_text(ben_joins.response)
    assert await seated(bot, table_id) == {ann.id, ben.id}  # committed; Cat changed nothing
    await storage_is_free(db_path)
    env.errors  # noqa: B018


async def test_a_timer_move_under_way_when_the_stop_begins_runs_to_its_end(
        simcord_env, bots, db_path, monkeypatch):
    env = simcord_env
    # 12 s: half of it (the reminder's wait) is longer than SimCord's 5 s settle
    # timeout, so no click waits for it in real time (tests/cogs/test_ai_pace.py)
    table, (ann,), _ = await start(env, bots, "foster", dealer=2, humans=("ann",), ai=2,
                                   turn_timer=12)
    bot, live = table.bot, table.live
    assert live.deal.to_act == live.seat_of(ann.id)
    actions = len(await rows(bot, "SELECT * FROM actions"))
    entered, release = hold_units(env, bot.service.storage, monkeypatch)

    await env.advance_time(13)  # Ann's time ran out: the AI plays for her ...
    assert entered.is_set()  # ... inside its unit of work, held there
    stop = await stopping(bot)
    await asyncio.sleep(0.1)
    assert not stop.done()
    release.set()
    assert await asyncio.wait_for(stop, 30) is True
    # the AI's move for Ann was committed (and the AI seats' answers after it) ...
    assert len(await rows(bot, "SELECT * FROM actions")) > actions
    # ... and no timer was armed or left running after it
    timers = bot.timers
    assert not (timers.turn_timers or timers.next_deal_timers or timers.acting)
    await storage_is_free(db_path)
    env.errors  # noqa: B018


async def test_a_stop_with_nothing_in_flight_closes_the_storage(simcord_env, bots, db_path):
    bot = bots[-1]
    assert await stop_cleanly(bot) is True
    assert bot.is_closed()
    await storage_is_free(db_path)


async def test_a_stop_whose_grace_runs_out_closes_anyway_and_keeps_nothing_half_done(
        simcord_env, bots, db_path, monkeypatch):
    env, bot = simcord_env, bots[-1]
    guild = env.create_guild()
    general = guild.create_text_channel("general")
    ann, ben = (guild.add_member(env.create_user(n)) for n in ("ann", "ben"))
    await ann.slash(general, "commerce new")
    channel = guild.channels["commerce-1"]
    lobby = channel.history()[0]
    table_id = bot.service.in_channel(channel.id).id
    entered, release = hold_units(env, bot.service.storage, monkeypatch)
    ben_joins = emit_component(env, ben, lobby, f"commerce:lobby:{table_id}:join")
    await entered.wait()

    assert await stop_cleanly(bot, grace=0.2) is False  # Ben's join still held
    await storage_is_free(db_path)  # closed all the same
    release.set()  # Ben's unit goes on, and finds the storage closed: nothing is kept
    await env.settle()
    assert await seated(bot, table_id) == {ann.id}
    assert "Nothing was lost" in answer_text(ben_joins)  # he was told, not left hanging
    env.errors  # noqa: B018
