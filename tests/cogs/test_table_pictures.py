"""Issue 10 through the real bot: pictures on the table, showdown and hand messages,
one private panel per player per deal (a move is one click, prompts never pile up,
a panel is never edited once its token has died), and countdowns on the table.
"""

from __future__ import annotations

import copy
import io
import random
import re

from PIL import Image

from bot.ui import media, pictures
from bot.ui.cards import hand_label
from tests.cogs.helpers import CARD_LABEL, button_ids, message_text, open_table, select_values
from tests.ui.test_pictures import rehide

PNG = b"\x89PNG\r\n\x1a\n"


def decode(data: bytes) -> Image.Image:
    assert data[:8] == PNG
    img = Image.open(io.BytesIO(data))
    img.load()
    return img


async def start(env, bots, *, turn_timer: int = 0, delay: int = 0):
    guild, table, actors, lobby = await open_table(env, bots)
    await table.bot.service.update_settings(guild.id, actors[0].id, turn_timer=turn_timer)
    await actors[0].click(lobby, label="Start")
    await table.bot.service.set_delay(table.live.id, actors[0].id, delay)
    return guild, table, actors


def panels_of(table, member) -> list:
    """The ephemeral messages ``member`` can see in the table's channel."""
    return [m for m in table.channel.history(viewer=member) if m.flags.ephemeral]


def pick(result, action: str) -> str:
    """The custom id of the first panel button of ``action`` in ``result``
    (``commerce:pick:table:deal:seq:action[:value]``)."""
    return next(cid for cid in button_ids(result) if cid.split(":")[5] == action)


# ---------------------------------------------------------------- pictures
async def test_table_showdown_and_hand_messages_carry_their_pictures(simcord_env, bots):
    env = simcord_env
    guild, table, (ann, ben, cat) = await start(env, bots)
    message = table.table_message()
    [att] = message.attachments
    assert att.filename == media.TABLE_FILE
    assert message.embeds[0].image.url == f"attachment://{media.TABLE_FILE}"
    first = await att.read()
    assert decode(first).width == 800
    assert first == media.table_png(table.live)  # the renderer the bot uses
    # its description says what it shows, from the public observation: no card in hand
    assert att.description == media.table_png(table.live).alt
    assert att.description.startswith("Table: ") and "Seats: " in att.description
    assert not CARD_LABEL.search(att.description), att.description  # no face-up card in foster
    # the private hand: picture, its description is the text line, the text is kept
    actor = table.actor_to_act()
    hand = await actor.click(message, label="My hand")
    [picture] = hand.response.attachments
    obs = table.live.deal.observation(table.live.seat_of(actor.id))
    assert picture.filename == media.HAND_FILE
    assert picture.description == pictures.hand_alt(obs)
    assert decode(await picture.read()).width >= 500
    assert "**Your hand:**" in hand.response.content
    # a move: the table message is edited in place, with a new picture
    await actor.click(hand.response, custom_id=pick(hand, "trade"))
    again = table.table_message()
    assert again.id == message.id
    [att] = again.attachments
    assert await att.read() != first
    # the showdown carries its picture
    await table.knock(table.actor_to_act())
    showdown = next(m for m in reversed(table.channel.history())
                    if m.embeds and m.embeds[0].title.startswith("Showdown"))
    [att] = showdown.attachments
    assert att.filename == media.SHOWDOWN_FILE
    hands = table.live.deal.showdown.hands
    assert att.description.startswith("Showdown · deal 1.")
    assert all(hand_label(h) in att.description for h in hands), att.description
    assert showdown.embeds[0].image.url == f"attachment://{media.SHOWDOWN_FILE}"
    assert decode(await att.read()).height >= 300


async def test_the_public_picture_depends_on_the_public_state_only(simcord_env, bots):
    """The picture posted on the table message is the one the same public state gives
    with every hidden card dealt out differently (other hands, the stock)."""
    env = simcord_env
    guild, table, (ann, ben, cat) = await start(env, bots)
    rng = random.Random(10)
    for _ in range(3):
        await table.trade(table.actor_to_act())
        posted = await table.table_message().attachments[0].read()
        live = table.live
        for _ in range(3):
            clone = copy.deepcopy(live)
            other = rehide(live.deal, set(), rng)
            assert other.hands != live.deal.hands
            clone.game.deals[-1] = other
            pictures.clear_cache()
            assert media.table_png(clone) == posted


# ----------------------------------------------------------------- panels
async def test_a_trade_is_one_click_from_the_panel_and_edits_it_in_place(simcord_env, bots):
    env = simcord_env
    guild, table, actors = await start(env, bots)
    actor = table.actor_to_act()
    panel = await actor.click(table.table_message(), label="My hand")
    labels = [c["label"] for row in panel.response.components for c in row["components"]]
    seat = table.live.seat_of(actor.id)
    neighbour = table.live.seats[table.live.deal.neighbour(seat)].name
    hand = sorted(table.live.deal.hands[seat], reverse=True)
    from bot.ui.cards import card_label
    assert labels[:3] == [f"Trade {card_label(c)}" for c in hand]  # in hand order
    assert labels[3:6] == [f"Barter {card_label(c)} with {neighbour}" for c in hand]
    assert "Knock" in labels
    ops = len(table.live.deal.operations)
    before = len(panels_of(table, actor))
    res = await actor.click(panel.response, custom_id=pick(panel, "trade"))
    assert len(table.live.deal.operations) >= ops + 1
    assert res.response.id == panel.response.id  # the same message, edited
    assert res.response.content.startswith("You traded ")
    assert len(panels_of(table, actor)) == before  # no new ephemeral for the move


async def test_the_card_picker_lists_cards_in_hand_order(simcord_env, bots):
    env = simcord_env
    guild, table, actors = await start(env, bots)
    actor = table.actor_to_act()
    res = await actor.click(table.table_message(), label="Trade")
    seat = table.live.seat_of(actor.id)
    from bot.engine import card_code
    assert select_values(res) == [card_code(c) for c in
                                  sorted(table.live.deal.hands[seat], reverse=True)]
    res = await actor.click(table.table_message(), label="Barter")
    neighbour = table.live.seats[table.live.deal.neighbour(seat)].name
    assert f"offer face down to {neighbour}" in res.response.content


async def test_one_panel_per_player_others_moves_update_it_and_the_deal_end_closes_it(
        simcord_env, bots):
    env = simcord_env
    guild, table, actors = await start(env, bots)
    actor = table.actor_to_act()
    seat = table.live.seat_of(actor.id)
    nxt = table.members[table.live.member_of(table.live.deal.neighbour(seat))]
    waiting = await nxt.click(table.table_message(), label="My hand")
    assert not button_ids(waiting) and "Not your turn" in waiting.response.content
    again = await nxt.click(table.table_message(), label="My hand")
    assert waiting.response is None  # replaced: deleted, never piled up
    assert len(panels_of(table, nxt)) == 1
    await table.trade(actor)
    # the neighbour's panel now offers their moves, without a click of theirs
    assert any(":trade:" in cid for cid in button_ids(again))
    assert "**Your turn.**" in again.response.content
    await nxt.click(again.response, custom_id=pick(again, "knock"))
    # the deal is over: every panel says so and has no buttons
    for member in actors:
        for message in panels_of(table, member):
            assert "This deal is over" in message.content, message.content
            assert not message.components


async def test_a_panel_is_never_edited_after_its_token_died_and_still_answers(simcord_env,
                                                                              bots):
    env = simcord_env
    guild, table, actors = await start(env, bots)
    actor = table.actor_to_act()
    seat = table.live.seat_of(actor.id)
    nxt = table.members[table.live.member_of(table.live.deal.neighbour(seat))]
    first = await actor.click(table.table_message(), label="My hand")
    waiting = await nxt.click(table.table_message(), label="My hand")
    stored = env.backend.get_message(table.channel.id, waiting.response.id)
    shown = (stored.content, stored.edited_timestamp)
    await env.advance_time(16 * 60)  # past the 15 minutes of the interactions' tokens
    # a new panel cannot delete the old one any more; the old one's buttons still work
    second = await actor.click(table.table_message(), label="My hand")
    assert first.response is not None
    ops = len(table.live.deal.operations)
    res = await actor.click(first.response, custom_id=pick(first, "trade"))
    assert res.acknowledged and res.response.id == first.response.id
    assert res.response.content.startswith("You traded ")
    assert len(table.live.deal.operations) > ops
    # the neighbour's panel, whose token died, was left alone although it is their turn
    stored = env.backend.get_message(table.channel.id, waiting.response.id)
    assert (stored.content, stored.edited_timestamp) == shown
    assert env.errors == []
    assert second.response is None  # the old panel is the player's again: one panel
    fresh = await nxt.click(table.table_message(), label="My hand")
    assert "**Your turn.**" in fresh.response.content and pick(fresh, "trade")


async def test_a_button_of_an_earlier_deal_says_that_deal_is_over(simcord_env, bots):
    env = simcord_env
    guild, table, actors = await start(env, bots)
    actor = table.actor_to_act()
    panel = await actor.click(table.table_message(), label="My hand")
    knock = pick(panel, "knock")
    trade = pick(panel, "trade")
    await actor.click(panel.response, custom_id=knock)  # deal 1 ends
    showdown = table.channel.history()[-1]
    await actor.click(showdown, label="Next deal")
    assert table.live.deal_number == 2
    from tests.cogs.helpers import emit_component
    res = emit_component(env, actor, panel.response.message, trade, shown=True)
    await env.settle()
    assert res.acknowledged
    stored = env.backend.get_message(table.channel.id, panel.response.id)
    assert stored.content.startswith("Deal 1 is over.") and not stored.components


async def test_prompts_never_pile_up_over_a_game(simcord_env, bots):
    """A whole game played from the panels: at most one private message per player
    per deal, and none of them still asks for a move once the game is over."""
    env = simcord_env
    guild, table, actors = await start(env, bots)
    for _ in range(200):
        live = table.live
        if live.game.complete:
            break
        if live.deal.finished:
            await actors[0].click(table.channel.history()[-1], label="Next deal")
            continue
        actor = table.actor_to_act()
        panel = await actor.click(table.table_message(), label="My hand")
        ids = [cid for cid in button_ids(panel) if ":hint" not in cid]  # moves only
        choice = random.Random(len(live.deal.operations)).choice(
            [cid for cid in ids if ":knock" not in cid] or ids)
        if len(live.deal.operations) > 6:
            choice = next((cid for cid in ids if cid.endswith(":knock")), choice)
        await actor.click(panel.response, custom_id=choice)
    assert table.live.game.complete
    for member in actors:
        mine = panels_of(table, member)
        assert len(mine) <= table.live.game.deals_total, [m.content for m in mine]
        assert not any("**Your turn.**" in m.content or m.components for m in mine)


# ---------------------------------------------------------------- countdowns
async def test_the_turn_deadline_and_the_next_deal_are_relative_timestamps(simcord_env, bots):
    env = simcord_env
    guild, table, actors = await start(env, bots, turn_timer=120, delay=30)
    now = env.now()
    text = message_text(table.table_message())
    [stamp] = re.findall(r"<t:(\d+):R>", text)
    assert abs(int(stamp) - (now.timestamp() + 120)) <= 2
    # a move restarts the clock for the next player, shown with the message
    await env.advance_time(10)
    await table.trade(table.actor_to_act())
    [stamp2] = re.findall(r"<t:(\d+):R>", message_text(table.table_message()))
    assert abs(int(stamp2) - (now.timestamp() + 130)) <= 2
    # the deal ends: its showdown says when the next deal comes, the table message
    # does not say it again (issue 23 §3)
    await table.knock(table.actor_to_act())
    text = message_text(table.table_message())
    assert "<t:" not in text and "your move" not in table.table_message().content
    old_table = table.table_message().id
    showdown = next(m for m in reversed(table.channel.history())
                    if m.embeds and (m.embeds[0].title or "").startswith("Showdown"))
    [stamp3] = re.findall(r"Next deal <t:(\d+):R>", message_text(showdown))
    assert abs(int(stamp3) - (now.timestamp() + 10 + 30)) <= 2
    assert "⏭" in message_text(showdown)
    await env.advance_time(31)
    assert table.live.deal_number == 2
    # the deal before keeps no countdown and no button once the next one has started
    # (but the showdown's Proof)
    for message_id in (old_table, showdown.id):
        message = table.message(message_id)
        assert "⏭" not in message_text(message)
        assert [c.custom_id for row in message.components for c in row.children] == (
            [] if message_id == old_table else [f"commerce:proof:{table.live.id}:1"])
        assert message.attachments  # its picture stays


async def test_end_shows_the_table_in_its_final_state(simcord_env, bots):
    env = simcord_env
    guild, table, (ann, ben, cat) = await start(env, bots)
    await table.trade(table.actor_to_act())
    message_id = table.table_message().id
    res = await ann.slash(table.channel, "commerce end")
    assert "voided" in res.response.content
    message = table.message(message_id)
    text = message_text(message)
    assert message.content == "" and not message.components
    assert "voided" in text and "To act" not in text
    assert all(b == 0 for b in table.live.game.running_balances)  # refunds applied
    # its picture shows the balances (and its description says them)
    assert (message.attachments[0].description or "").count(" ±0") == 3
    assert message.attachments and message.embeds[0].image.url.endswith(media.TABLE_FILE)


async def test_embeds_name_players_instead_of_mentioning_them(simcord_env, bots):
    env = simcord_env
    guild, table, (ann, ben, cat) = await start(env, bots)
    await table.trade(table.actor_to_act())
    await table.knock(table.actor_to_act())
    for message in table.channel.history():
        for embed in message.embeds:
            text = " ".join([embed.title or "", embed.description or "",
                             *(f"{f.name} {f.value}" for f in embed.fields)])
            assert "<@" not in text, text
