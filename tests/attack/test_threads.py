"""Classes 1 and 3 in thread mode (tables_open_in: thread) at production defaults."""

from __future__ import annotations

import pytest

from tests.attack.common import SETTLE
from tests.attack.prod import check_end, drive, finish

pytestmark = [pytest.mark.prod, pytest.mark.simcord(settle_timeout=SETTLE)]


@pytest.mark.parametrize("how", ["played", "end", "leave_lobby"])
async def test_a_table_in_a_thread_ends_cleanly(simcord_env, how):
    env = simcord_env
    guild = env.create_guild()
    owner = guild.add_member(env.create_user("owner"))
    await env.bot.service.update_settings(guild.id, owner.id, table_mode="thread")
    general = guild.create_text_channel("general")
    ann, ben = (guild.add_member(env.create_user(n)) for n in ("ann", "ben"))
    res = await ann.slash(general, "commerce new", rules="foster", deals_per_player=1)
    live = env.bot.service.of_member(guild.id, ann.id)
    assert live is not None and live.row.place == "thread", res.followups
    from simcord.builders import ChannelHandle
    thread = ChannelHandle(env, guild, env.backend.channels[live.row.channel_id])
    table_id = live.id
    lobby = thread.history()[0]
    await ben.click(lobby, label="Join")
    await env.advance_time(2)
    await ann.click(lobby, label="Add AI")
    if how == "leave_lobby":
        await ann.click(lobby, label="Leave")
        await ben.click(lobby, label="Leave")
        await finish(env, table_id)
        assert live.row.channel_id not in env.backend.channels
        return
    await env.advance_time(2)
    await ann.click(lobby, label="Start")
    if how == "end":
        await drive(env, thread, [ann, ben], table_id, seed=1,
                    until=lambda: len(env.bot.service.tables[table_id].deal.operations) > 3)
        await ann.slash(thread, "commerce end")
    await drive(env, thread, [ann, ben], table_id, seed=2)
    await finish(env, table_id)
    problems = await check_end(env, guild, thread, table_id)
    assert problems == []
    meta = env.backend.channels[live.row.channel_id].thread_metadata
    assert meta.archived and meta.locked
    env.errors  # noqa: B018


async def test_a_channel_the_bot_may_not_delete_is_not_retried_for_ever(simcord_env):
    """Discord limits the invalid requests (401, 403, 429) a bot may make, so a refusal
    for lack of a permission is remembered, never asked again: a finished game's
    channel whose removal Discord refuses (403) is not asked for at every sweep."""
    import datetime

    from tests.cogs.golden import play_to_the_end
    env = simcord_env
    guild = env.create_guild()
    general = guild.create_text_channel("general")
    ann = guild.add_member(env.create_user("ann"))
    await env.bot.service.update_settings(guild.id, ann.id, keep_days=1)
    await ann.slash(general, "commerce new", deals_per_player=1)
    channel = guild.channels["commerce-1"]
    for _ in range(2):
        await ann.click(channel.history()[0], label="Add AI")
    await ann.click(channel.history()[0], label="Start")
    await play_to_the_end(env, channel, [ann], seed=2)
    await env.advance_time(10)
    env.inject_error("DELETE", f"/channels/{channel.id}", status=403, code=50013,
                     message="Missing Permissions", times=None)
    places = env.bot.publisher.places
    later = datetime.datetime.now(datetime.UTC) + datetime.timedelta(days=2)
    for sweep in range(12):  # two hours of the watch's sweeps
        await places.sweep(now=later + datetime.timedelta(minutes=10 * sweep))
    deletes = [e for e in env.http_requests
               if e.method == "DELETE" and e.path == f"/channels/{channel.id}"]
    assert len(deletes) <= 1, f"{len(deletes)} refused DELETEs of one channel in two hours"
    env.errors  # noqa: B018
