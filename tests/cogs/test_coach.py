"""The coach's Hint button and AI levels through the simulated Discord
(docs/AI.md): the hint is private, for the player to act only, and the table
can turn it off; /commerce addbot seats an AI at the level chosen."""

from __future__ import annotations

from tests.cogs.helpers import answer_text, private
from tests.cogs.test_confirmations import components, public_texts, start


def hint_buttons(result) -> list[dict]:
    return [c for c in components(result) if c.get("type") == 2
            and c.get("custom_id", "").split(":")[1:2] == ["pick"]
            and c["custom_id"].split(":")[5] == "hint"]


async def test_the_hint_is_private_and_for_the_player_to_act(simcord_env, bots):
    table, (ann, ben, _), watcher = await start(simcord_env, bots, "foster", dealer=2)
    assert table.live.deal.to_act == 0  # Ann, the eldest hand
    panel = await ann.click(table.table_message(), label="My hand")
    [button] = hint_buttons(panel)
    assert not hint_buttons(await ben.click(table.table_message(), label="My hand"))
    before = len(table.live.deal.operations)

    res = await ann.click(panel.response, custom_id=button["custom_id"])

    assert private(res)
    first = answer_text(res).splitlines()[0]
    assert first.startswith("💡 **Coach:** ") and "showdowns" in first, first
    assert len(table.live.deal.operations) == before  # advice only: nothing was played
    assert "Coach" not in public_texts(table, watcher)
    # the panel keeps its moves under the advice
    assert any(c["custom_id"].split(":")[5] == "knock" for c in components(res)
               if c.get("type") == 2 and ":pick:" in c.get("custom_id", ""))


async def test_a_table_without_the_coach_has_no_hint(simcord_env, bots):
    table, (ann, *_), _ = await start(simcord_env, bots, "foster", dealer=2, coach=False)
    panel = await ann.click(table.table_message(), label="My hand")
    assert not hint_buttons(panel)
    assert components(panel)  # the moves are there


async def test_addbot_seats_an_ai_at_the_level_chosen(simcord_env, bots):
    guild = simcord_env.create_guild()
    general = guild.create_text_channel("general")
    ann = guild.add_member(simcord_env.create_user("ann"))
    await ann.slash(general, "commerce new")
    channel = guild.channels["commerce-1"]
    res = await ann.slash(channel, "commerce addbot", level="strong")
    assert "(strong)" in answer_text(res)
    res = await ann.slash(channel, "commerce addbot")
    live = bots[0].service.in_channel(channel.id)
    assert [s.ai_level for s in live.seats] == [None, "strong", "easy"]
    lobby = channel.history()[0]
    assert "(strong)" in str(lobby.embeds[0].to_dict())


async def test_a_panel_control_on_a_public_message_is_refused(simcord_env, bots):
    """A forged panel button (or select) sent on the public table message is
    refused privately, and that message — which everyone sees — never becomes
    the presser's panel."""
    from tests.cogs.helpers import CARD_LABEL, emit_component, message_text

    table, (ann, *_), watcher = await start(simcord_env, bots, "foster", dealer=2)
    live = table.live
    msg = table.table_message()
    before = message_text(msg)
    seq = len(live.deal.operations)
    for forged in (f"commerce:pick:{live.id}:{live.deal_number}:{seq}:hint",
                   f"commerce:pick:{live.id}:{live.deal_number}:{seq}:knock"):
        res = emit_component(simcord_env, ann, msg, forged, shown=True)
        await simcord_env.settle()
        assert private(res) and "private panel" in answer_text(res)
        [seen] = [m for m in table.channel.history(viewer=watcher) if m.id == msg.id]
        assert message_text(seen) == before and not CARD_LABEL.search(message_text(seen))
    assert len(table.live.deal.operations) == seq  # nothing was played


async def test_a_garbled_pager_id_is_answered(simcord_env, bots):
    from tests.cogs.helpers import emit_component

    guild = simcord_env.create_guild()
    general = guild.create_text_channel("general")
    ann = guild.add_member(simcord_env.create_user("ann"))
    res = await ann.slash(general, "commerce leaderboard")
    forged = f"commerce:board:{guild.id}:{ann.id}:1:next:week:foster\n"
    answer = emit_component(simcord_env, ann, res.response.message, forged, shown=True)
    await simcord_env.settle()
    assert answer.acknowledged and private(answer)
