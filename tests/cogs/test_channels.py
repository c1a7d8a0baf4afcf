"""The life of a table's channel (docs/RELIABILITY.md "On a public server"): an
empty lobby leaves no channel, a finished game's is kept read-only for the
server's ``keep_days`` and then removed, limits on open tables and on tables
opened but not played to their end, and Discord's channel limits met with a thread or a
plain answer."""

from __future__ import annotations

import datetime

import discord

from tests.cogs.golden import play_to_the_end
from tests.cogs.helpers import Table, answer_text, private, rows, solo


def server(env, names=("ann",)):
    guild = env.create_guild()
    general = guild.create_text_channel("general")
    return guild, general, [guild.add_member(env.create_user(n)) for n in names]


async def test_opening_and_leaving_thirty_times_leaves_no_channel(simcord_env):
    env = simcord_env
    guild, general, (ann,) = server(env)
    answers = []
    for _ in range(30):
        res = await ann.slash(general, "commerce new")
        answers.append(answer_text(res))
        await ann.slash(general, "commerce leave")
    assert sum("table is ready" in a for a in answers) == 3  # then: too many not played to their end
    assert all("not played to their end" in a for a in answers[3:]), answers[3]
    assert [c for c in guild.channels if c.startswith("commerce-")] == []
    [(removed,)] = await rows(env.bot, "SELECT COUNT(*) FROM tables WHERE channel_removed = 1")
    assert removed == 3
    assert not env.errors


async def test_a_server_has_at_most_its_max_tables(simcord_env):
    env = simcord_env
    guild, general, members = server(env, [f"m{i}" for i in range(4)])
    await env.bot.service.update_settings(guild.id, members[0].id, max_tables=3)
    answers = [answer_text(await m.slash(general, "commerce new")) for m in members]
    assert ["table is ready" in a for a in answers] == [True, True, True, False]
    assert "limit" in answers[3] and "max_tables" in answers[3]
    assert not env.errors


async def test_a_finished_games_channel_is_removed_after_keep_days(simcord_env):
    env = simcord_env
    guild, general, (ann,) = server(env)
    await env.bot.service.update_settings(guild.id, ann.id, keep_days=2)
    await ann.slash(general, "commerce new", deals_per_player=1)
    channel = guild.channels["commerce-1"]
    for _ in range(2):
        await ann.click(channel.history()[0], label="Add AI")
    await ann.click(channel.history()[0], label="Start")
    await play_to_the_end(env, channel, [ann], seed=2)
    await env.advance_time(10)
    places = env.bot.publisher.places
    now = datetime.datetime.now(datetime.UTC)
    assert await places.sweep(now=now + datetime.timedelta(days=1)) == 0
    assert "commerce-1" in guild.channels  # kept, read-only
    assert await places.sweep(now=now + datetime.timedelta(days=3)) == 1
    assert "commerce-1" not in guild.channels
    assert await places.sweep(now=now + datetime.timedelta(days=30)) == 0  # once
    assert not env.errors


async def test_keep_days_zero_keeps_the_channel_for_ever(simcord_env):
    env = simcord_env
    guild, general, (ann,) = server(env)
    await env.bot.service.update_settings(guild.id, ann.id, keep_days=0)
    await ann.slash(general, "commerce new", deals_per_player=1)
    channel = guild.channels["commerce-1"]
    for _ in range(2):
        await ann.click(channel.history()[0], label="Add AI")
    await ann.click(channel.history()[0], label="Start")
    await play_to_the_end(env, channel, [ann], seed=2)
    later = datetime.datetime.now(datetime.UTC) + datetime.timedelta(days=400)
    assert await env.bot.publisher.places.sweep(now=later) == 0
    assert "commerce-1" in guild.channels
    assert not env.errors


async def test_at_the_servers_channel_limit_the_table_opens_in_a_thread(simcord_env):
    env = simcord_env
    guild, general, (ann,) = server(env)
    env.inject_error("POST", "/guilds/*/channels", status=400, code=30013,
                     message="Maximum number of guild channels reached (500)", times=None)
    res = await ann.slash(general, "commerce new")
    assert "ready" in answer_text(res), answer_text(res)
    [(place,)] = await rows(env.bot, "SELECT place FROM tables")
    assert place == "thread"
    env.errors  # noqa: B018


async def test_at_the_categorys_limit_the_table_opens_in_a_thread(simcord_env):
    env = simcord_env
    guild, general, (ann,) = server(env)
    env.inject_error("POST", "/guilds/*/channels", status=400, code=50035,
                     message="Invalid Form Body\nIn parent_id: Maximum number of channels in "
                             "category reached (50)", times=None)
    res = await ann.slash(general, "commerce new")
    assert "ready" in answer_text(res), answer_text(res)
    [(place,)] = await rows(env.bot, "SELECT place FROM tables")
    assert place == "thread"
    env.errors  # noqa: B018


async def test_at_a_limit_without_threads_the_member_is_told_which(simcord_env):
    env = simcord_env
    guild, general, (ann,) = server(env)
    env.inject_error("POST", "/guilds/*/channels", status=400, code=30013,
                     message="Maximum number of guild channels reached (500)", times=None)
    env.inject_error("POST", "/channels/*/threads", status=403, code=50013,
                     message="Missing Permissions", times=None)
    res = await ann.slash(general, "commerce new")
    text = answer_text(res)
    assert private(res) and "500 channels" in text and "Something went wrong" not in text, text
    [(count,)] = await rows(env.bot, "SELECT COUNT(*) FROM tables")
    assert count == 0
    env.errors  # noqa: B018


async def test_a_discord_refusal_is_answered_plainly(simcord_env):
    env = simcord_env
    guild, general, (ann,) = server(env)
    await ann.slash(general, "commerce new")
    channel = guild.channels["commerce-1"]
    env.inject_error("POST", f"/channels/{channel.id}/messages", status=403, code=50013,
                     message="Missing Permissions", times=None)
    await ann.click(channel.history()[0], label="Add AI")
    await ann.click(channel.history()[0], label="Add AI")
    res = await ann.click(channel.history()[0], label="Start")
    # the game started (saved); the member hears what is missing, not "something went wrong"
    texts = [answer_text(res)] + [f.content for f in res.followups]
    assert not any("Something went wrong" in t for t in texts), texts
    [(status,)] = await rows(env.bot, "SELECT status FROM tables")
    assert status == "playing"
    env.errors  # noqa: B018
    assert isinstance(discord.Forbidden, type)


async def test_a_renamed_table_channel_is_still_made_read_only(simcord_env, bots):
    """The bot finds its own channel by id: a moderator renaming it changes nothing."""
    env = simcord_env
    guild, table, ann, _ = await solo(env, bots)
    channel = table.channel
    await table.bot.get_channel(channel.id).edit(name="our-game")
    await ann.slash(channel, "commerce end")
    perms = table.bot.get_channel(channel.id).overwrites_for(guild.default_role)
    assert perms.send_messages is False


async def test_final_standings_say_read_only_only_when_the_bot_made_the_channel(simcord_env,
                                                                                bots):
    env = simcord_env
    guild = env.create_guild()
    general = guild.create_text_channel("general")
    ann = guild.add_member(env.create_user("ann"))
    await bots[-1].service.update_settings(guild.id, ann.id, table_mode="here")
    await ann.slash(general, "commerce new", deals_per_player=1)
    lobby = general.history()[-2]  # then the fair-shuffle message
    assert "Fair shuffle" in general.history()[-1].content
    for label in ("Add AI", "Add AI", "Start"):
        await ann.click(lobby, label=label)
    table = Table(env, bots, general, {ann.id: ann})
    for _ in range(60):
        live = table.bot.service.in_channel(general.id)
        if live is None:
            break
        if not live.deal.finished and live.deal.to_act == live.seat_of(ann.id):
            if live.deal.pending is not None:
                await table.refuse(ann)
            else:
                await table.knock(ann)
        else:
            await env.advance_time(live.row.next_deal_delay + 1)
    final = next(m for m in reversed(general.history())
                 if m.embeds and (m.embeds[0].title or "").startswith("Game over"))
    footer = final.embeds[0].footer.text
    assert "read-only" not in footer and "/commerce new" in footer
    overwrite = table.bot.get_channel(general.id).overwrites_for(guild.default_role)
    assert overwrite.send_messages is not False
