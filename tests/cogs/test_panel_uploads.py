"""Issue 9 through the real bot: a panel edited after a move keeps its hand
picture without uploading it again when the hand did not change, and gets the
new picture when it did; the picture is always the owner's own hand."""

from __future__ import annotations

from bot.ui import media
from tests.cogs.test_table_pictures import panels_of, pick, start


def hand_png(table, actor) -> bytes:
    live = table.live
    return media.hand_png(live.deal.observation(live.seat_of(actor.id)))


async def test_a_panel_keeps_its_picture_until_the_hand_changes(simcord_env, bots):
    env = simcord_env
    guild, table, actors = await start(env, bots)
    actor = table.actor_to_act()
    seat = table.live.seat_of(actor.id)
    nxt = table.members[table.live.member_of(table.live.deal.neighbour(seat))]
    panel = await nxt.click(table.table_message(), label="My hand")
    [before] = panel.response.attachments
    assert await before.read() == hand_png(table, nxt)
    await table.trade(actor)  # another seat's move: the panel is edited, the hand is the same
    assert "**Your turn.**" in panel.response.content
    [kept] = panel.response.attachments
    assert kept.id == before.id  # not uploaded again
    assert await kept.read() == hand_png(table, nxt)
    # the owner's own trade changes the hand: the panel shows the new picture
    res = await nxt.click(panel.response, custom_id=pick(panel, "trade"))
    assert res.response.id == panel.response.id
    [after] = res.response.attachments
    assert after.id != before.id
    assert await after.read() == hand_png(table, nxt)
    assert len(panels_of(table, nxt)) == 1


async def test_a_refresh_that_changes_nothing_does_not_edit_the_table_message(simcord_env,
                                                                             bots):
    env = simcord_env
    guild, table, actors = await start(env, bots)
    message = table.table_message()
    [first] = message.attachments
    edited = message.edited_at
    await env.advance_time(5)
    await table.bot.publisher.refresh(table.live)
    await env.settle()
    same = table.table_message()
    assert same.edited_at == edited  # nothing changed: no edit at all
    assert [a.id for a in same.attachments] == [first.id]
    # a move changes the picture: the message is edited with the new one
    await table.trade(table.actor_to_act())
    moved = table.table_message()
    assert moved.id == message.id
    [att] = moved.attachments
    assert att.id != first.id
    assert await att.read() == media.table_png(table.live)
