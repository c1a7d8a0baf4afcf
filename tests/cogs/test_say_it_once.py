"""Say it once (issue 23 §3), played through SimCord: a showdown's text says who won and
what comes next, its picture the hands and payments, and its Proof button the deal's
fair shuffle, privately, on every showdown and after the game; the table message
says who acts and what to do; an offer is answered on its own message only; a
turn's reminder goes when the table closes; Hoyle's panel offers every move through
a few controls."""

from __future__ import annotations

import re

from tests.cogs.golden import play_to_the_end
from tests.cogs.helpers import (
    CARD_LABEL,
    Table,
    answer_text,
    custom_ids,
    message_text,
    private,
    restart,
    solo,
    until_ann_acts,
)

#: the most characters and lines a showdown message's text may take (before issue 23
#: §3 an eight-seat showdown took some 1,600 characters over 40 lines)
SHOWDOWN_CHARACTERS = 400
SHOWDOWN_LINES = 8


def showdowns(channel):
    return [m for m in channel.history()
            if m.embeds and (m.embeds[0].title or "").startswith("Showdown")]


def proof_id(message) -> str:
    [found] = [cid for cid in custom_ids(message) if cid.startswith("commerce:proof:")]
    return found


async def eight_seats(env, bots, preset="hoyle", seats=8):
    """Ann and Ben with AI seats up to ``seats``, started."""
    guild = env.create_guild()
    general = guild.create_text_channel("general")
    ann, ben = (guild.add_member(env.create_user(n)) for n in ("ann", "ben"))
    watcher = guild.add_member(env.create_user("watcher"))
    await ann.slash(general, "commerce new", rules=preset)
    channel = guild.channels["commerce-1"]
    lobby = channel.history()[0]
    await ben.click(lobby, label="Join")
    for _ in range(seats - 2):
        await ann.click(lobby, label="Add AI")
    await ann.click(lobby, label="Start")
    return channel, ann, ben, watcher, Table(env, bots, channel, {ann.id: ann, ben.id: ben})


async def test_an_eight_seat_showdown_is_short_and_its_proof_one_click_away(simcord_env, bots,
                                                                           make_bot):
    env = simcord_env
    channel, ann, ben, watcher, table = await eight_seats(env, bots)
    assert table.live is not None  # remembered once it closes
    await play_to_the_end(env, channel, [ann, ben], seed=4)
    shown = showdowns(channel)
    assert len(shown) == 8
    for number, message in enumerate(shown, 1):
        text = message_text(message)
        assert len(text) <= SHOWDOWN_CHARACTERS and len(text.splitlines()) <= SHOWDOWN_LINES, text
        assert not CARD_LABEL.search(text)  # the hands are the picture's...
        [picture] = message.attachments
        alt = picture.description or ""
        deal = table.live.game.deals[number - 1]
        assert alt.startswith(f"Showdown · deal {number}.") and len(CARD_LABEL.findall(alt)) == \
            sum(len(h) for h in deal.showdown.hands)  # ...and its description says them
        # the proof stays on every showdown, and anyone in the guild may read it privately
        assert custom_ids(message) == [proof_id(message)]
    # the game is over: the proof is read from its stored record, for anyone in the guild
    late = await watcher.click(shown[0], custom_id=proof_id(shown[0]))
    assert private(late)
    said = answer_text(late)
    assert said.startswith("🔒 **Fair shuffle · deal 1**\nNot cut by anyone: the bot alone "
                           "shuffled this deal.\nRecord so far: `"), said
    head = re.search(r"Record so far: `([0-9a-f]{16})`", said)[1]
    assert head == table.live.chain_heads()["deal 1"][:16]
    assert "[the fair-shuffle message](https://discord.com/channels/" in said
    assert "Cut the next deal" not in said
    assert not env.errors


async def test_a_showdown_s_proof_names_the_cut_and_works_after_a_restart(simcord_env, bots,
                                                                         make_bot):
    env = simcord_env
    guild, table, ann, lobby = await solo(env, bots, rules="foster", start=False)
    await ann.slash(table.channel, "commerce cut", text="banana")
    await ann.click(lobby, label="Start")
    live = await until_ann_acts(env, table)
    await table.knock(ann)
    for _ in range(10):
        if table.live.deal.finished:
            break
        await env.advance_time(2)
    [showdown] = showdowns(table.channel)
    assert sorted(custom_ids(showdown))[-1].startswith("commerce:proof:")
    assert "Fair shuffle" not in message_text(showdown)
    await restart(env, make_bot())
    res = await ann.click(showdown, custom_id=proof_id(showdown))
    assert private(res)
    text = answer_text(res)
    assert "\nCut by ann `banana`.\n" in text and live.deal_number == 1
    assert text.endswith("Cut the next deal: **Cut** below, or `/commerce cut`.")
    # the next deal takes Next deal and Cut off, and leaves the Proof
    await ann.click(showdown, label="Next deal")
    assert custom_ids(table.message(showdown.id)) == [proof_id(showdown)]
    # a deal nobody cut says so in the same words as its proof and the history
    assert table.table_message().embeds[0].footer.text.endswith(
        "Not cut by anyone: the bot alone shuffled this deal · /commerce cut adds your word to "
        "the next deal")
    assert not env.errors


async def test_the_table_message_says_who_acts_what_to_do_and_when_time_runs_out(simcord_env,
                                                                                bots):
    env = simcord_env
    guild, table, ann, lobby = await solo(env, bots, rules="widow")
    live = await until_ann_acts(env, table)
    message = table.table_message()
    embed = message.embeds[0]
    assert message.content == f"<@{ann.id}>, your move."
    lines = (embed.description or "").splitlines()
    assert lines[0].startswith("**") and "ann" in lines[0]
    assert lines[1].startswith("⏱ Time runs out <t:")
    assert embed.fields == []  # the seats, pool, stock and widow are the picture's
    assert embed.footer.text.startswith("My hand shows your cards privately. Swap with the widow")
    [picture] = message.attachments
    widow = live.deal.observation(None).widow
    from bot.ui.cards import card_label
    in_place = " ".join(card_label(c) for c in widow)
    assert f"Face up (widow): {in_place}." in (picture.description or "")
    assert not env.errors


async def test_an_offer_is_answered_on_its_own_message_only(simcord_env, bots):
    env = simcord_env
    guild = env.create_guild()
    general = guild.create_text_channel("general")
    ann, ben, cat = (guild.add_member(env.create_user(n)) for n in ("ann", "ben", "cat"))
    await ann.slash(general, "commerce new")
    channel = guild.channels["commerce-1"]
    lobby = channel.history()[0]
    for actor in (ben, cat):
        await actor.click(lobby, label="Join")
    await ann.click(lobby, label="Start")
    table = Table(env, bots, channel, {a.id: a for a in (ann, ben, cat)})
    live = table.live
    actor = table.actor_to_act()
    await table.barter(actor)
    target = table.members[live.member_of(table.live.deal.to_act)]
    offer = table.offer_message(target)
    answers = [cid for cid in custom_ids(offer) if cid.startswith("commerce:answer:")]
    assert [cid.rsplit(":", 1)[1] for cid in answers] == ["accept", "refuse"]
    # the table message neither repeats the answers nor pings the target a second time
    message = table.table_message()
    assert [cid.rsplit(":", 1)[1] for cid in custom_ids(message)] == ["hand"]
    assert target.mention not in (message.content or "")
    assert sum(target.mention in (m.content or "") for m in channel.history()) == 1
    # the panel answers too, for the target only
    panel = await target.click(message, label="My hand")
    assert any(":accept" in cid or ":pick:" in cid for row in panel.response.components
               for cid in [c.get("custom_id", "") for c in row.get("components", [])])
    await table.accept(target)
    assert table.message(offer.id).components == []
    assert not env.errors


async def test_a_turn_reminder_goes_when_the_table_closes(simcord_env, bots):
    env = simcord_env
    guild, table, ann, lobby = await solo(env, bots)
    await until_ann_acts(env, table)
    await env.advance_time(61)
    reminder = table.channel.history()[-1]
    assert reminder.content.startswith(f"⏰ <@{ann.id}>, it is your move")
    await ann.slash(table.channel, "commerce end")
    await env.advance_time(5)
    history = table.channel.history()
    assert history[-2].content.startswith("The table is closed.")
    assert reminder.id not in [m.id for m in history]
    assert not any(m.content.startswith("⏰") for m in history)
    assert not env.errors


async def test_hoyles_panel_offers_every_move_through_a_few_controls(simcord_env, bots):
    env = simcord_env
    guild, table, ann, lobby = await solo(env, bots, rules="hoyle")
    live = await until_ann_acts(env, table)
    panel = await ann.click(table.table_message(), label="My hand")
    comps = [c for row in panel.response.components for c in row.get("components", [])]
    assert len(comps) <= 4, [c.get("label") or c.get("placeholder") for c in comps]
    menus = {c["custom_id"].split(":")[5]: c for c in comps if c["type"] == 3}
    assert set(menus) == {"trade", "barter"}
    assert menus["trade"]["placeholder"] == "Trade: Card to give the dealer"
    labels = [o["label"] for o in menus["trade"]["options"]]
    assert len(labels) == 6 and sum(label.endswith(", then knock") for label in labels) == 3
    # a trade and a knock in one choice
    value = next(o["value"] for o in menus["trade"]["options"]
                 if o["label"].endswith(", then knock"))
    before = len(live.deal.operations)
    await ann.select(panel.response, [value], custom_id=menus["trade"]["custom_id"])
    ops = table.live.deal.operations[before:]
    assert ops[0].kind == "trade" and ops[0].knock and ops[0].seat == live.seat_of(ann.id)
    assert not env.errors
