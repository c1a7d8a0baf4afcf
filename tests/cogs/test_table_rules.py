"""Who may press what, what each member sees, restarts, permissions, ending."""

from __future__ import annotations

import discord

from bot.ui.cards import card_label
from tests.cogs.helpers import (
    CARD_LABEL,
    answer_text,
    button_ids,
    custom_ids,
    emit_component,
    message_text,
    open_table,
    private,
    restart,
    select_values,
)


async def start(env, bots, names=("ann", "ben", "cat")):
    guild, table, actors, lobby = await open_table(env, bots, names)
    await actors[0].click(lobby, label="Start")
    return guild, table, actors


async def test_hands_are_visible_only_to_their_owner(simcord_env, bots):
    guild, table, (ann, ben, cat) = await start(simcord_env, bots)
    for a in (ann, ben, cat):
        await a.click(table.table_message(), label="My hand")
    hands = table.live.deal.hands
    for viewer in (ann, ben, cat):
        seat = table.live.seat_of(viewer.id)
        own = {card_label(c) for c in hands[seat]}
        others = {card_label(c) for s, h in enumerate(hands) if s != seat for c in h}
        seen = set()
        for m in table.channel.history(viewer=viewer):
            seen |= set(CARD_LABEL.findall(message_text(m)) and
                        [lbl for lbl in own | others if lbl in message_text(m)])
        assert own <= seen, "the owner sees their own hand"
        assert not seen & others, "nobody sees another seat's card"
    # a member who is not seated sees no card at all
    dan = guild.add_member(simcord_env.create_user("dan"))
    for m in table.channel.history(viewer=dan):
        assert not CARD_LABEL.search(message_text(m)), m.content


async def test_out_of_turn_and_outsider_clicks_are_refused(simcord_env, bots):
    guild, table, (ann, ben, cat) = await start(simcord_env, bots)
    dan = guild.add_member(simcord_env.create_user("dan"))
    live = table.live
    before = [list(h) for h in live.deal.hands], len(live.deal.operations)
    actor = table.actor_to_act()
    other = next(a for a in (ann, ben, cat) if a is not actor)
    for label in ("Trade", "Barter", "Knock"):
        res = await other.click(table.table_message(), label=label)
        assert res.ephemeral and "not your turn" in res.response.content.lower()
        res = await dan.click(table.table_message(), label=label)
        assert res.ephemeral and "not playing at this table" in res.response.content
    res = await dan.click(table.table_message(), label="My hand")
    assert res.ephemeral and "not playing" in res.response.content
    assert ([list(h) for h in live.deal.hands], len(live.deal.operations)) == before


async def test_outdated_select_is_refused_and_changes_nothing(simcord_env, bots):
    guild, table, actors = await start(simcord_env, bots)
    actor = table.actor_to_act()
    res = await actor.click(table.table_message(), label="Trade")
    code = select_values(res)[0]
    select_id = next(c["custom_id"] for row in res.response.components
                     for c in row["components"] if c["type"] == 3)
    panel = res.response.message
    # the same player offers a barter from the panel's own button: the panel is edited
    # in place, and a client still showing the old trade menu sends it (a stale choice)
    barter = next(cid for cid in button_ids(res) if ":barter:" in cid)
    await actor.click(res.response, custom_id=barter)
    ops = len(table.live.deal.operations)
    hands = [list(h) for h in table.live.deal.hands]
    stale = emit_component(simcord_env, actor, panel, select_id, [code], shown=True)
    await simcord_env.settle()
    assert private(stale)
    text = answer_text(stale)
    assert "out of date" in text, text
    assert len(table.live.deal.operations) == ops
    assert [list(h) for h in table.live.deal.hands] == hands


async def test_restart_mid_deal_keeps_state_and_buttons(simcord_env, bots, make_bot):
    env = simcord_env
    guild, table, (ann, ben, cat) = await start(env, bots)
    await table.trade(table.actor_to_act())
    deal = table.live.deal
    snapshot = ([list(h) for h in deal.hands], list(deal.stock), list(deal.waste), deal.to_act,
                deal.pool, list(table.live.game.running_balances))
    old_message = table.table_message()
    await restart(env, make_bot(seed=99))
    deal = table.live.deal
    assert ([list(h) for h in deal.hands], list(deal.stock), list(deal.waste), deal.to_act,
            deal.pool, list(table.live.game.running_balances)) == snapshot
    # the old buttons still work after the restart
    res = await ann.click(old_message, label="My hand")
    assert res.ephemeral and "Your hand" in res.response.content
    actor = table.actor_to_act()
    await table.knock(actor)
    assert table.live.deal.showdown is not None
    assert table.live.deal.showdown.knocker == table.live.seat_of(actor.id)


async def test_without_manage_channels_the_table_opens_in_a_thread(simcord_env, bots):
    env = simcord_env
    guild = env.create_guild()
    general = guild.create_text_channel("general")
    ann = guild.add_member(env.create_user("ann"))
    env.inject_error("POST", "/guilds/*/channels", status=403, code=50013,
                     message="Missing Permissions", times=None)
    res = await ann.slash(general, "commerce new")
    assert "Your table is ready" in res.response.content
    [thread] = general.threads
    assert thread.name == "commerce-1"
    assert thread.history()[0].embeds[0].title.startswith("Commerce table 1")
    errors = env.errors  # reading them acknowledges the injected 403
    assert all(isinstance(e, discord.Forbidden) for e in errors)


async def test_with_no_permission_the_answer_names_it(simcord_env, bots):
    env = simcord_env
    guild = env.create_guild()
    general = guild.create_text_channel("general")
    ann = guild.add_member(env.create_user("ann"))
    env.inject_error("POST", "/guilds/*/channels", status=403, code=50013,
                     message="Missing Permissions", times=None)
    env.inject_error("POST", "/channels/*/threads", status=403, code=50013,
                     message="Missing Permissions", times=None)
    res = await ann.slash(general, "commerce new")
    text = res.response.content
    assert "Manage Channels" in text and "Create Public Threads" in text
    assert table_count(guild) == 0
    env.errors  # noqa: B018 — the injected 403s were handled


def table_count(guild) -> int:
    return sum(1 for name in guild.channels if name.startswith("commerce-"))


async def test_end_voids_the_deal_and_refunds(simcord_env, bots):
    guild, table, (ann, ben, cat) = await start(simcord_env, bots)
    await table.trade(table.actor_to_act())
    live = table.live
    assert any(d != -1 for d in live.deal.delta) or live.deal.dealer is not None
    res = await ben.slash(table.channel, "commerce end")
    assert res.ephemeral and "host" in res.response.content
    res = await ann.slash(table.channel, "commerce end")
    assert "voided" in res.response.content
    assert table.live.deal.voided and table.live.game.ledger == [0, 0, 0]
    assert await table.bot.storage.guild_ledger_sum(guild.id) == 0
    res = await ann.slash(table.channel, "commerce leaderboard")
    assert "Nobody has finished a deal" in res.response.content
    res = await ben.click(table.table_message(), label="My hand") \
        if table.table_message().components else None
    assert res is None  # the table message lost its buttons


async def test_lobby_rules(simcord_env, bots):
    env = simcord_env
    guild = env.create_guild()
    general = guild.create_text_channel("general")
    ann, ben = (guild.add_member(env.create_user(n)) for n in ("ann", "ben"))
    await ann.slash(general, "commerce new")
    channel = guild.channels["commerce-1"]
    lobby = channel.history()[0]
    res = await ann.click(lobby, label="Start")
    assert res.ephemeral and "at least 3 players" in res.response.content
    await ben.click(lobby, label="Join")
    res = await ben.click(lobby, label="Join")
    assert "already seated" in res.response.content
    res = await ben.click(lobby, label="Add AI")
    lobby = channel.history()[0]
    assert "AI Ada" in message_text(lobby)
    res = await ben.click(lobby, label="Start")
    assert "Only the host" in res.response.content
    # ben cannot open a second table while seated
    res = await ben.slash(general, "commerce new")
    assert "already seated" in res.response.content
    await ben.click(lobby, label="Leave")
    assert f"<@{ben.id}>" not in message_text(channel.history()[0])


async def test_rules_and_stats_answer_ephemerally(simcord_env, bots):
    env = simcord_env
    guild = env.create_guild()
    general = guild.create_text_channel("general")
    ann = guild.add_member(env.create_user("ann"))
    res = await ann.slash(general, "commerce rules")
    assert res.ephemeral and "Tricon" in message_text(res.response)
    assert "K-A-2" in message_text(res.response)
    res = await ann.slash(general, "commerce stats")
    assert res.ephemeral and "±0" in message_text(res.response)
    res = await ann.slash(general, "commerce hand")
    assert res.ephemeral and "not playing" in res.response.content



async def test_admin_settings_need_manage_server_and_choose_where_tables_open(simcord_env, bots):
    env = simcord_env
    guild = env.create_guild()
    general = guild.create_text_channel("general")
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    mod = guild.add_member(env.create_user("mod"), roles=[mods])
    ann = guild.add_member(env.create_user("ann"))
    res = await mod.slash(general, "commerce-admin settings", tables_open_in="here",
                          next_deal_delay=5)
    assert res.ephemeral and "current channel" in res.response.content
    assert "5 s" in res.response.content
    res = await ann.slash(general, "commerce new")
    assert general.history()[-2].embeds[0].title.startswith("Commerce table 1")
    assert general.history()[-1].content.startswith("🔒 **Fair shuffle · table 1**")
    assert "commerce-1" not in guild.channels
    res = await ann.slash(general, "commerce delay", seconds=0)
    assert "Next deal button" in res.response.content
    assert table_count(guild) == 0


async def test_new_table_with_a_preset_and_options(simcord_env, bots):
    env = simcord_env
    guild = env.create_guild()
    general = guild.create_text_channel("general")
    ann = guild.add_member(env.create_user("ann"))
    choices = await ann.autocomplete(general, "commerce new", "rules", "par")
    assert any(c["value"] == "parlett" for c in choices)
    res = await ann.slash(general, "commerce new", rules="nonsense")
    assert res.ephemeral and "unknown rules preset" in res.response.content.lower()
    res = await ann.slash(general, "commerce new", rules="parlett", deals_per_player=2,
                          direction="clockwise")
    lobby = guild.channels["commerce-1"].history()[0]
    text = message_text(lobby)
    assert "parlett" in text and "2 deals per player" in text and "play clockwise" in text
    res = await ann.slash(general, "commerce rules", preset="hoyle")
    assert res.ephemeral and "under the stock" in message_text(res.response)


async def test_card_selects_leave_no_timed_view_behind(simcord_env, bots):
    import asyncio

    guild, table, actors = await start(simcord_env, bots)
    await table.trade(table.actor_to_act())
    await table.barter(table.actor_to_act())
    await table.accept(table.actor_to_act())
    timed = [t for t in asyncio.all_tasks() if "timeout_task" in repr(t.get_coro())]
    assert timed == []


async def test_admin_default_preset_is_used_by_new_tables(simcord_env, bots):
    env = simcord_env
    guild = env.create_guild()
    general = guild.create_text_channel("general")
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    mod = guild.add_member(env.create_user("mod"), roles=[mods])
    res = await mod.slash(general, "commerce-admin settings", default_preset="nonsense")
    assert "unknown rules preset" in res.response.content.lower()
    res = await mod.slash(general, "commerce-admin settings", default_preset="widow")
    assert "default rules **widow**" in res.response.content
    await mod.slash(general, "commerce new")
    lobby = guild.channels["commerce-1"].history()[0]
    assert "· widow" in lobby.embeds[0].title


async def test_delay_zero_stops_a_waiting_next_deal(simcord_env, bots):
    guild, table, (ann, ben, cat), lobby = await open_table(simcord_env, bots)
    await ann.click(lobby, label="Start")
    await table.knock(table.actor_to_act())
    res = await ben.slash(table.channel, "commerce delay", seconds=0)
    assert "Next deal button" in res.response.content
    await simcord_env.advance_time(90)
    assert table.live.deal_number == 1
    await ann.click(table.channel.history()[-2], label="Next deal") \
        if not table.channel.history()[-1].components else \
        await ann.click(table.channel.history()[-1], label="Next deal")
    assert table.live.deal_number == 2
    # the previous showdown lost its Next deal once the next deal began: its Proof stays
    showdowns = [m for m in table.channel.history()
                 if m.embeds and m.embeds[0].title.startswith("Showdown")]
    assert custom_ids(showdowns[0]) == [f"commerce:proof:{table.live.id}:1"]


async def test_restart_with_a_pending_barter_does_not_ping_twice(simcord_env, bots, make_bot):
    env = simcord_env
    guild, table, (ann, ben, cat), lobby = await open_table(env, bots)
    await ann.click(lobby, label="Start")
    await table.barter(table.actor_to_act())
    target = table.actor_to_act()
    offers = [m for m in table.channel.history() if "offers you a card" in m.content]
    assert len(offers) == 1
    await restart(env, make_bot())
    await env.settle()
    assert len([m for m in table.channel.history() if "offers you a card" in m.content]) == 1
    # the offer's own message keeps its answers through the restart; the refreshed table
    # message does not repeat them
    assert not any(":answer:" in c for c in custom_ids(table.table_message()))
    [offer] = [m for m in table.channel.history() if "offers you a card" in m.content]
    await target.click(offer, label="Refuse (knock)")
    assert table.live.deal.showdown.knocker == table.live.seat_of(target.id)
    # the ping posted before the restart lost its buttons once answered
    [ping] = [m for m in table.channel.history() if "offers you a card" in m.content
              or "refused the barter" in m.content]
    assert not ping.components and "refused the barter" in ping.content
