"""A process given some of the bot's shards (SHARD_COUNT, SHARD_IDS; bot/storage/shards.py)
is a discord.py AutoShardedBot that serves the guilds of its shards and never sees
the others' (SimCord routes each guild's events to its shard, as Discord does)."""

from __future__ import annotations

import random

import discord
import pytest_asyncio

from bot import create_bot
from bot.process.app import ShardedCommerceBot
from bot.storage.shards import Shards
from tests.cogs.helpers import answer_text


@pytest_asyncio.fixture
async def simcord_bot(db_path, bots):
    bot = create_bot(db_path=db_path, rng=random.Random(7), cooldown=None,
                     shards=Shards(2, (1,)), ai_pace=0)
    bots.append(bot)
    yield bot
    for b in bots:
        await b.close_storage()


async def test_a_sharded_process_serves_only_the_guilds_of_its_shards(simcord_env):
    env = simcord_env
    bot = env.bot
    assert isinstance(bot, ShardedCommerceBot) and isinstance(bot, discord.AutoShardedClient)
    assert bot.shard_count == 2 and bot.shard_ids == [1] and set(bot.shards) == {1}
    mine = env.create_guild("served here", shard_id=1)
    theirs = env.create_guild("served elsewhere", shard_id=0)
    for guild in (mine, theirs):
        guild.create_text_channel("general")
        guild.add_member(env.create_user(f"member of {guild.name}"))
    await env.settle()
    assert bot.get_guild(mine.id) is not None
    assert bot.get_guild(theirs.id) is None  # its events go to shard 0, another process
    assert Shards(2, (1,)).owns(mine.id) and not Shards(2, (1,)).owns(theirs.id)
    # the served guild plays as usual
    ann = mine.add_member(env.create_user("ann"))
    result = await ann.slash(mine.channels["general"], "commerce new")
    [table] = await bot.storage.open_tables()
    assert table.guild_id == mine.id and "Your table is ready" in answer_text(result)
    ben = theirs.add_member(env.create_user("ben"))
    other = await ben.slash(theirs.channels["general"], "commerce new")
    # this process never sees the other shard's interaction: no answer, nothing stored
    assert other.response is None and not other.acknowledged
    assert [t.guild_id for t in await bot.storage.open_tables()] == [mine.id]


async def test_without_shards_the_bot_is_the_single_process_one(db_path):
    bot = create_bot(db_path=db_path)
    assert not isinstance(bot, discord.AutoShardedClient) and bot.shard_count is None
    everything = create_bot(db_path=db_path, shards=Shards(3))
    assert isinstance(everything, ShardedCommerceBot)
    assert everything.shard_count == 3 and everything.shard_ids is None  # runs all three
