"""One writer per database, seen from the bot: a second bot on the same SQLite
file is refused (the file's lock), and so is a second bot on the same PostgreSQL
database for guilds the first serves (its claim, bot/storage/claims.py); ``restart``
(tests/cogs/helpers.py) hands the database over the way a crashed process does,
leaving none of the old bot's timers behind."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest

from bot.storage import DatabaseInUse, PgStorage, Storage
from tests.cogs.helpers import BACKEND, answer_text, execute, open_table, restart, solo, until_ann_acts


@pytest.mark.skipif(BACKEND == "postgres", reason="SQLite's file lock and its path in the "
                    "message; PostgreSQL's refusal is the next test")
async def test_a_second_bot_on_the_same_file_is_refused(simcord_env, bots, make_bot, db_path):
    env = simcord_env
    await open_table(env, bots)
    second = make_bot()
    with pytest.raises(DatabaseInUse, match=rf"^{db_path} is already open in this process"):
        await second.setup_hook()  # the first thing it does is Storage.open
    assert not hasattr(second, "storage")
    with pytest.raises(DatabaseInUse, match=str(db_path)):
        await Storage.open(db_path)
    # the first bot is still served by its storage
    assert (await env.bot.storage.open_tables())[0].number == 1


@pytest.mark.skipif(BACKEND != "postgres", reason="PostgreSQL's shard claim; SQLite's "
                    "refusal is the test before")
async def test_a_second_bot_on_the_same_shard_is_refused_with_one_line(simcord_env, bots,
                                                                       make_bot, db_path):
    """Several processes may open one PostgreSQL database (shards), but never serve the
    same guild: the second bot is refused at start-up with one line naming the shards
    and the database (never its password), and keeps nothing open; beside a bot that
    is not sharded, so serves every guild, no shard of any count is free."""
    env = simcord_env
    guild, _, _, _ = await open_table(env, bots)
    second = make_bot()
    with pytest.raises(DatabaseInUse) as refused:
        await second.setup_hook()  # Storage.open, then the shard claim
    line = str(refused.value)
    assert line.startswith("every guild (not sharded) would serve guilds another Commerce "
                           "process already serves (every guild (not sharded): commerce-bot pid")
    assert "\n" not in line and "SHARD_COUNT and SHARD_IDS whose guilds no running" in line
    password = urlsplit(db_path).password
    assert password is None or password not in line
    with pytest.raises(RuntimeError, match="closed"):  # its storage was closed again
        await second.storage.get_settings(guild.id)
    # a second process on the database: opening it is fine, claiming the shard is not
    storage = await PgStorage.open(db_path)
    try:
        with pytest.raises(DatabaseInUse, match=r"^every guild \(not sharded\) would serve"):
            await storage.claim_shards((0,), 1)
        with pytest.raises(DatabaseInUse, match=r"^shard 1 of 2 would serve guilds"):
            await storage.claim_shards((1,), 2)  # its guilds are the unsharded bot's too
    finally:
        await storage.close()
    # the first bot is still served by its storage
    assert (await env.bot.storage.open_tables())[0].number == 1


async def test_restart_releases_the_file_and_cancels_the_old_timers(simcord_env, bots,
                                                                    make_bot):
    env = simcord_env
    guild, table, actors, lobby = await open_table(env, bots)
    await actors[0].click(lobby, label="Start")
    old = env.bot
    timers = [*old.timers.next_deal_timers.values(), *old.timers.turn_timers.values()]
    assert timers, "the human to act has a running turn timer"
    to_act = table.actor_to_act()

    await restart(env, make_bot(seed=5))
    assert env.bot is not old  # on the same database: its file, or its URL
    assert str(getattr(env.bot.storage, "url", env.bot.storage.path)) == str(old.database)
    assert all(t.cancelled() for t in timers)
    assert old.get_cog("Play") is None
    with pytest.raises(RuntimeError, match="closed"):
        await old.storage.get_settings(guild.id)

    # the turn timer runs out once, in the new bot only; nothing reaches the closed
    # storage of the old one (no error is recorded)
    await env.advance_time(130)
    ran_out = [m for m in table.channel.history() if "ran out of time" in m.content]
    assert len(ran_out) == 1
    assert table.live.seat_of(to_act.id) != table.live.deal.to_act or table.live.deal.finished
    assert env.errors == []


async def test_a_table_closed_in_storage_is_not_served_from_memory(simcord_env, bots):
    """Another writer (an admin's sqlite3 or psql shell) closed the table: the next move is
    refused as closed and the table leaves memory."""
    env = simcord_env
    guild, table, ann, _ = await solo(env, bots)
    live = await until_ann_acts(env, table)
    await execute(table.bot, "UPDATE tables SET status = 'closed' WHERE id = ?", (live.id,))
    res = await table.knock(ann)
    assert "This table is closed." in answer_text(res)
    assert live.id not in table.bot.service.tables
