# ruff: noqa: B023, C901
"""Class 7: nothing per table is kept once its end is shown, after many games of
every kind and every way of ending (the objects themselves, found by the garbage
collector, not only the bot's top-level dictionaries)."""

from __future__ import annotations

import asyncio
import gc
import random

import pytest

from bot.publishing.panels import Open
from bot.publishing.publisher import Publisher
from bot.service import LiveTable
from tests.attack.common import SETTLE, moderator
from tests.attack.prod import drive, finish, leftovers, restart_prod, setup_game, start_game

pytestmark = [pytest.mark.prod, pytest.mark.simcord(settle_timeout=SETTLE)]

KINDS = ["played", "end_mid_deal", "cancel", "delete_channel", "leave_lobby", "idle_lobby",
         "member_leaves", "end_during_offer_or_frames"]
PRESETS = [("foster", {"deals_per_player": 1}), ("widow", {"deals_per_player": 1}),
           ("oldway", {"pounce": True}), ("jaques", {"chips": 2, "open_trading": True}),
           ("hoyle", {"deals_per_player": 1})]


async def test_nothing_of_many_ended_tables_stays_in_memory(simcord_env, bots, db_path):
    env = simcord_env
    rng = random.Random(5)
    ids = []
    for i, kind in enumerate(KINDS * 2):
        preset, options = PRESETS[i % len(PRESETS)]
        guild, general, channel, (ann, ben), table_id = await setup_game(
            env, preset, humans=("ann", "ben"), ai=1, **options)
        ids.append(table_id)
        mod = moderator(env, guild)
        if kind == "leave_lobby":
            await ann.slash(channel, "commerce leave")
            await ben.slash(channel, "commerce leave")
        elif kind == "idle_lobby":
            for _ in range(31):  # a minute at a time: each step gets its own settle deadline
                await env.advance_time(60)
        else:
            await start_game(env, channel, ann)
            budget = {"n": rng.randrange(2, 12)}

            def tick() -> bool:
                budget["n"] -= 1
                return budget["n"] <= 0

            if kind != "played":
                await drive(env, channel, [ann, ben], table_id, seed=i, until=tick)
            if kind == "end_mid_deal" and table_id in env.bot.service.tables:
                await ann.slash(channel, "commerce end")
            elif kind == "cancel" and table_id in env.bot.service.tables:
                number = env.bot.service.tables[table_id].row.number
                await mod.slash(general, "commerce-admin cancel", table=number)
            elif kind == "delete_channel" and table_id in env.bot.service.tables:
                await env.bot.get_channel(channel.id).delete()
            elif kind == "member_leaves":
                guild.remove_member(ben)
            elif kind == "end_during_offer_or_frames":
                await drive(env, channel, [ann], table_id, seed=i,
                            until=lambda: table_id in env.bot.publisher.showing._running or (
                                table_id in env.bot.service.tables and
                                env.bot.service.tables[table_id].deal is not None and
                                env.bot.service.tables[table_id].deal.pending is not None))
                if table_id in env.bot.service.tables:
                    await ann.slash(channel, "commerce end")
            await drive(env, channel, [ann] if kind == "member_leaves" else [ann, ben], table_id,
                        seed=i)
        await finish(env, table_id, 120)
        if i == 5:
            await restart_prod(env, bots, db_path)
    await env.advance_time(60)
    bot = env.bot
    kept = [k for t in ids for k in leftovers(bot, t)]
    assert kept == [], kept
    gc.collect()
    lives = [o for o in gc.get_objects() if isinstance(o, LiveTable)
             and any(gc.get_referrers(o))]
    mine = [o for o in lives if o.row.id in ids]
    holders = []
    for live in mine[:3]:
        for ref in gc.get_referrers(live):
            holders.append(type(ref).__name__ + ":" + repr(ref)[:150])
    assert not mine, ([(o.row.id, o.row.status) for o in mine][:10], holders[:10])
    panels = [o for o in gc.get_objects() if isinstance(o, Open)]
    assert not panels, len(panels)
    pending = [t for t in asyncio.all_tasks() if not t.done() and t is not asyncio.current_task()
               and "table" in repr(t.get_coro())]
    assert not pending, pending
    assert isinstance(bot.publisher, Publisher)
    env.errors  # noqa: B018
