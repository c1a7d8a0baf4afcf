"""The watch over open tables (bot/timers/clock.py ``Timers.tick``) lets other work
run during a long round: it never holds the event loop for every table at once; and
what it remembers of tables that need nothing (``Timers.quiet``) never keeps it from
what a table needs: a turn timer turned on, a failed step retried, a new deal, a
restart, a closed table."""

from __future__ import annotations

import asyncio
import sqlite3
import sys

import discord
import pytest

from bot.service import StorageFailure, TableService
from bot.timers import clock as timers
from bot.timers.clock import WATCH_EVERY
from tests.cogs.helpers import BACKEND, Table, answer_text, execute, restart, until_ann_acts
from tests.cogs.test_ai_pace import fail_next_commit
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


# ------------------------------------------------------------------ tables that need nothing
# A round decides "no turn timer is needed" once per moment of a deal and remembers
# it (``Timers.quiet``); these tests show that what it remembers never keeps the
# watch from doing what the table needs.
async def quiet_table(env, bots):
    """A guild whose manager turned its turn timer off, and member
    ann at a table with two AI seats, to act in an unfinished deal, after a few
    rounds of the watch. Returns (table, ann, manager, general channel)."""
    guild = env.create_guild()
    general = guild.create_text_channel("general")
    managers = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    mod = guild.add_member(env.create_user("mod"), roles=[managers])
    res = await mod.slash(general, "commerce-admin settings", turn_timer=0)
    assert res.ephemeral and "turn timer" in answer_text(res), answer_text(res)
    ann = guild.add_member(env.create_user("ann"))
    await ann.slash(general, "commerce new")
    channel = guild.channels["commerce-1"]
    lobby = channel.history()[0]
    for label in ("Add AI", "Add AI", "Start"):
        await ann.click(lobby, label=label)
    table = Table(env, bots, channel, {ann.id: ann})
    await until_ann_acts(env, table)
    await env.advance_time(WATCH_EVERY + 1)
    return table, ann, mod, general


def moment(live) -> tuple[int, int, int | None]:
    return live.deal_number, len(live.deal.operations), live.deal.to_act


def reminded(table, member) -> bool:
    return any(m.content.startswith(f"⏰ {member.mention}") for m in table.channel.history())


async def assert_the_turn_timer_runs(env, table, ann, seconds: int) -> None:
    """The watch arms the turn timer of ann's moment at its next round: the table
    shows a deadline, ann is reminded halfway, and the AI plays for her at the end."""
    live = table.live
    before = moment(live)
    assert live.deal.to_act == live.seat_of(ann.id)
    await env.advance_time(WATCH_EVERY + 1)
    assert live.id in table.bot.timers.turn_timers
    assert table.bot.timers.turn_deadline(live) is not None
    await env.advance_time(seconds // 2 + 1)
    assert reminded(table, ann)
    await env.advance_time(seconds)
    assert moment(table.live) != before  # the AI played for her


async def test_a_turn_timer_turned_on_mid_deal_is_armed_at_the_next_round(simcord_env, bots):
    env = simcord_env
    table, ann, mod, general = await quiet_table(env, bots)
    bot, live = table.bot, table.live
    assert live.id not in bot.timers.turn_timers and not reminded(table, ann)
    assert bot.timers.quiet.moments[live.id][0] is live.deal  # remembered as quiet
    res = await mod.slash(general, "commerce-admin settings", turn_timer=40)
    assert "40" in answer_text(res), answer_text(res)
    await assert_the_turn_timer_runs(env, table, ann, 40)


@pytest.mark.skipif(BACKEND == "postgres", reason="injects SQLite's failed write")
async def test_a_table_whose_rebuild_failed_is_retried_until_it_plays_again(simcord_env, bots):
    """Ann's move fails to commit and the table cannot even be read back (it is set
    aside, ``stale``); the watch's own step fails too at its first try. A later
    round rebuilds it, ann plays on, and what the watch remembered of the old table
    keeps nothing from it: a turn timer turned on afterwards is armed."""
    env = simcord_env
    table, ann, mod, general = await quiet_table(env, bots)
    bot = table.bot
    table_id, before = table.live.id, moment(table.live)
    storage = bot.storage
    read, refused = storage.get_table, []

    async def get_table(table_id: int):
        if len(refused) < 2:  # the rebuild after the failed move, and the watch's 1st try
            refused.append(table_id)
            raise sqlite3.OperationalError("disk I/O error")
        return await read(table_id)

    storage.get_table = get_table
    fired = fail_next_commit(storage)
    res = await ann.click(table.table_message(), label="Knock")
    assert fired and "nothing changed" in answer_text(res), answer_text(res)
    assert table_id in bot.service.stale and table_id not in bot.service.tables
    await env.advance_time(WATCH_EVERY + 1)
    assert len(refused) == 2
    await env.advance_time(WATCH_EVERY + 1)
    assert table_id in bot.service.tables and table_id not in bot.service.stale
    assert moment(table.live) == before  # nothing of the failed move was kept
    await mod.slash(general, "commerce-admin settings", turn_timer=40)
    await assert_the_turn_timer_runs(env, table, ann, 40)
    env.errors  # noqa: B018 — the failures were logged on purpose


async def test_a_failed_decision_is_taken_again_at_the_next_round(simcord_env, bots,
                                                                    monkeypatch):
    """The guild turns its timer on, and the watch's decision for the table fails
    half-way (its read of the settings raises a storage error): nothing is
    remembered and no timer runs; the next round decides again and arms."""
    env = simcord_env
    table, ann, mod, general = await quiet_table(env, bots)
    bot, table_id = table.bot, table.live.id
    read, refused = TableService.settings, []

    async def settings(service, guild_id: int):
        if unreadable and sys._getframe(1).f_code.co_name == "arm_turn_timer":
            refused.append(guild_id)
            raise StorageFailure()
        return await read(service, guild_id)

    monkeypatch.setattr(TableService, "settings", settings)
    unreadable = True
    await mod.slash(general, "commerce-admin settings", turn_timer=40)
    await env.advance_time(WATCH_EVERY + 1)
    assert refused
    assert table_id not in bot.timers.turn_timers and table_id not in bot.timers.quiet
    unreadable = False
    await assert_the_turn_timer_runs(env, table, ann, 40)


async def test_a_restart_forgets_what_the_watch_remembered(simcord_env, bots, make_bot):
    """The turn timer turned on in storage while the bot was down (another process,
    a restore): the restarted bot arms it; the old process's memory went with it."""
    env = simcord_env
    table, ann, mod, general = await quiet_table(env, bots)
    old = table.bot
    assert table.live.id in old.timers.quiet
    await execute(old, "UPDATE guild_settings SET turn_timer = 40")
    await restart(env, make_bot())
    assert not old.timers.quiet  # stopped with the old process's timers
    live = table.live
    assert live.id in table.bot.timers.turn_timers
    assert table.bot.timers.turn_deadline(live) is not None


async def test_what_the_watch_remembers_follows_the_deal_and_goes_with_the_table(
        simcord_env, bots):
    env = simcord_env
    table, ann, mod, general = await quiet_table(env, bots)
    bot, table_id = table.bot, table.live.id
    first = table.live.deal
    assert bot.timers.quiet.moments[table_id][0] is first
    # a new deal: the moment remembered is the new deal's
    await table.knock(ann)
    await until_ann_acts(env, table)
    await env.advance_time(WATCH_EVERY + 1)
    assert table.live.deal is not first
    assert bot.timers.quiet.moments[table_id][0] is table.live.deal
    # a closed table: forgotten at its end
    res = await ann.slash(table.channel, "commerce end")
    assert table_id not in bot.service.tables, answer_text(res)
    assert table_id not in bot.timers.quiet
    await env.advance_time(WATCH_EVERY + 1)
    assert not bot.timers.quiet
