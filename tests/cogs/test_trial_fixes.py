"""Fixes from a newcomer's trial: hosts, delays, hoyle controls, restarts, odd input."""

from __future__ import annotations

from tests.cogs.helpers import custom_ids, message_text, open_table, restart, select_values


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
    # the previous showdown lost its button once the next deal began
    showdowns = [m for m in table.channel.history()
                 if m.embeds and m.embeds[0].title.startswith("Showdown")]
    assert not showdowns[0].components


async def test_hoyle_offers_knock_after_exchange_and_no_refusal(simcord_env, bots):
    env = simcord_env
    guild = env.create_guild()
    general = guild.create_text_channel("general")
    ann, ben, cat = (guild.add_member(env.create_user(n)) for n in ("ann", "ben", "cat"))
    await ann.slash(general, "commerce new", rules="hoyle")
    channel = guild.channels["commerce-1"]
    for m in (ben, cat):
        await m.slash(channel, "commerce join")
    await ann.slash(channel, "commerce start")
    from tests.cogs.helpers import Table
    table = Table(env, bots, channel, {m.id: m for m in (ann, ben, cat)})
    actor = table.actor_to_act()
    res = await actor.click(table.table_message(), label="Barter")
    values = select_values(res)
    assert any(v.endswith("!") for v in values) and len(values) == 6
    await actor.select(res.response, [values[0]])
    target = table.actor_to_act()
    offer = table.offer_message(target)
    assert "you must accept" in offer.content
    labels = [c.label for row in offer.components for c in row.children]
    assert labels == ["Accept"]
    await table.accept(target)
    actor = table.actor_to_act()
    res = await actor.click(table.table_message(), label="Trade")
    knock_value = next(v for v in select_values(res) if v.endswith("!"))
    sel = await actor.select(res.response, [knock_value])
    assert "You knocked" in sel.response.content
    deal = table.live.deal
    assert deal.showdown is not None and deal.showdown.knocker == table.live.seat_of(actor.id)


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
    # the refreshed table message carries the answer buttons too
    assert any(":answer:" in c for c in custom_ids(table.table_message()))
    await target.click(table.table_message(), label="Refuse (knock)")
    assert table.live.deal.showdown.knocker == table.live.seat_of(target.id)
    # the ping posted before the restart lost its buttons once answered
    [ping] = [m for m in table.channel.history() if "offers you a card" in m.content
              or "refused the barter" in m.content]
    assert not ping.components and "refused the barter" in ping.content


async def test_presets_without_their_controls_yet_and_odd_input_are_refused(simcord_env, bots):
    env = simcord_env
    guild = env.create_guild()
    general = guild.create_text_channel("general")
    ann = guild.add_member(env.create_user("ann"))
    res = await ann.slash(general, "commerce new", rules="x" * 3000)
    assert res.ephemeral and len(res.response.content) < 300
    res = await ann.slash(general, "commerce rules", preset="y" * 3000)
    assert res.ephemeral and len(res.response.content) < 2000
