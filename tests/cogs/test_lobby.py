"""The lobby (docs/RELIABILITY.md "On a public server"): a host who leaves hands it
to the next player, the last member leaving closes it and its channel, an idle
lobby closes, a member already seated is told the way out, and names made from
counters stay unique when tables are opened together."""

from __future__ import annotations

from bot.timers.clock import LOBBY_IDLE
from tests.cogs.helpers import Table, answer_text, emit_slash, message_text, open_table, solo


async def test_host_leaving_the_lobby_hands_it_to_the_next_player(simcord_env, bots):
    guild, table, (ann, ben, cat), lobby = await open_table(simcord_env, bots)
    await ann.click(lobby, label="Leave")
    assert table.live.row.host_id == ben.id
    assert "host ben" in message_text(table.channel.history()[0])  # a name: no mention
    res = await ann.click(table.channel.history()[0], label="Start")
    assert "Only the host" in res.response.content
    await ben.click(table.channel.history()[0], label="Add AI")
    await ben.click(table.channel.history()[0], label="Start")
    assert table.live.row.status == "playing"


async def test_last_member_leaving_closes_the_lobby_and_its_channel(simcord_env, bots):
    env = simcord_env
    guild = env.create_guild()
    general = guild.create_text_channel("general")
    ann = guild.add_member(env.create_user("ann"))
    await ann.slash(general, "commerce new")
    channel = guild.channels["commerce-1"]
    await ann.click(channel.history()[0], label="Add AI")
    res = await ann.click(channel.history()[0], label="Leave")
    assert res.acknowledged
    assert env.bot.service.in_channel(channel.id) is None
    assert "commerce-1" not in guild.channels  # an empty lobby's channel is removed


async def test_a_lobby_whose_host_left_passes_on(simcord_env, bots):
    env = simcord_env
    guild = env.create_guild()
    general = guild.create_text_channel("general")
    ann, ben, cat = (guild.add_member(env.create_user(n)) for n in ("ann", "ben", "cat"))
    await ann.slash(general, "commerce new")
    channel = guild.channels["commerce-1"]
    lobby = channel.history()[0]
    await ben.click(lobby, label="Join")
    await cat.click(lobby, label="Join")
    guild.remove_member(ann)  # no members intent: the bot is not told
    res = await ben.click(lobby, label="Start")
    table = Table(env, bots, channel, {ben.id: ben, cat.id: cat})
    live = table.live
    assert live.row.host_id == ben.id and live.seat_of(ann.id) is None
    assert live.row.status == "lobby"  # two seats left: too few to start
    assert "at least" in answer_text(res)
    await ben.click(channel.history()[0], label="Add AI")
    await ben.click(channel.history()[0], label="Start")
    assert table.live.row.status == "playing"


async def test_end_by_a_player_when_the_host_left(simcord_env, bots):
    env = simcord_env
    guild = env.create_guild()
    general = guild.create_text_channel("general")
    ann, ben = (guild.add_member(env.create_user(n)) for n in ("ann", "ben"))
    await ann.slash(general, "commerce new")
    channel = guild.channels["commerce-1"]
    lobby = channel.history()[0]
    await ben.click(lobby, label="Join")
    await ann.click(lobby, label="Add AI")
    await ann.click(lobby, label="Start")
    guild.remove_member(ann)
    res = await ben.slash(channel, "commerce end")
    assert "closed" in answer_text(res)


async def test_an_idle_lobby_closes(simcord_env, bots):
    env = simcord_env
    guild, table, ann, lobby = await solo(env, bots, start=False)
    table_id = table.live.id
    await env.advance_time(LOBBY_IDLE - 60)
    assert table_id in table.bot.service.tables
    await env.advance_time(120)
    assert table_id not in table.bot.service.tables
    row = await table.bot.storage.get_table(table_id)
    assert row.status == "closed" and row.end_shown and row.channel_removed
    assert "commerce-1" not in guild.channels  # a lobby that never started leaves no channel
    res = await ann.slash(guild.channels["general"], "commerce new")
    assert "ready" in answer_text(res)  # ann is free again


async def test_an_idle_lobby_in_an_existing_channel_says_it_closed(simcord_env, bots):
    env = simcord_env
    guild = env.create_guild()
    general = guild.create_text_channel("general")
    ann = guild.add_member(env.create_user("ann"))
    await env.bot.service.update_settings(guild.id, ann.id, table_mode="here")
    res = await ann.slash(general, "commerce new")
    # the lobby is right below: "ready in #general" named the channel the member is in
    assert res.ephemeral and res.response.content == (
        "Your table is ready here. Invite players to press **Join**.")
    await env.advance_time(LOBBY_IDLE + 60)
    lobby = general.history()[0]
    assert "this lobby is closed" in lobby.content and not lobby.components
    assert "general" in guild.channels  # the bot never removes a channel it did not make


async def test_already_seated_names_the_way_out(simcord_env, bots):
    env = simcord_env
    guild = env.create_guild()
    general = guild.create_text_channel("general")
    ann = guild.add_member(env.create_user("ann"))
    await ann.slash(general, "commerce new")
    res = await ann.slash(general, "commerce new")
    text = answer_text(res)
    assert "table 1" in text and "/commerce leave" in text


async def test_tables_created_together_get_distinct_numbers_and_channels(simcord_env, bots):
    env = simcord_env
    guild = env.create_guild()
    general = guild.create_text_channel("general")
    members = [guild.add_member(env.create_user(n)) for n in ("ann", "ben", "cat")]
    results = [emit_slash(env, m, general, "commerce new") for m in members]
    await env.settle()
    assert all("ready" in answer_text(r) for r in results)
    service = bots[-1].service
    rows = sorted((t.row.number, t.row.channel_id) for t in service.tables.values())
    assert [n for n, _ in rows] == [1, 2, 3]
    for number, channel_id in rows:
        assert guild.channels[f"commerce-{number}"].id == channel_id
