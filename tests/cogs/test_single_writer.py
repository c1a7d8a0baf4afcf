"""One writer per database file, seen from the bot: a second bot on the same file
is refused, and ``restart`` (tests/cogs/helpers.py) hands the file over the way a
crashed process does, leaving none of the old bot's timers behind."""

from __future__ import annotations

import pytest

from bot.storage import DatabaseInUse, Storage
from tests.cogs.helpers import open_table, restart


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
    assert env.bot is not old and env.bot.storage.path == old.db_path
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
