"""AI moves shown at a readable pace (docs/AI.md "At a table").

Every move is committed at once, with the AI answers it calls for (one unit per
interaction). The table message then shows the moves one at a time: the
member's own at once, each AI move ``pace`` seconds after the one before, the
latest state (and the showdown) last. The member's panel shows the table just
after their own move until the table message catches up. A restart shows the
latest state at once.
"""

from __future__ import annotations

import pytest_asyncio

from bot import create_bot
from bot.publishing.showing import AI_PACE, Showing
from bot.ui import render
from tests.cogs.helpers import restart
from tests.cogs.test_confirmations import choose, components, start

#: longer than SimCord's settle timeout (5 s), so a click's settle leaves the
#: pacing sleeps parked and ``advance_time`` shows each move (a shorter sleep
#: would be run through within the click)
PACE = 6.0


@pytest_asyncio.fixture
async def simcord_bot(make_bot, bots):
    bot = make_bot(ai_pace=PACE)
    yield bot
    for b in bots:
        await b.close_storage()


def description(message) -> str:
    return message.embeds[0].description or ""


def moves_shown(message) -> int:
    """The recent moves listed on a table message."""
    return sum(1 for line in description(message).splitlines() if line.startswith("• "))


def to_act_line(message) -> str:
    return next(line for line in description(message).splitlines() if line.startswith("**"))


def moves(result) -> set[str]:
    """The moves a panel offers (its pick buttons' actions)."""
    return {c["custom_id"].split(":")[5] for c in components(result)
            if c.get("type") == 2 and ":pick:" in c.get("custom_id", "")} - {"hint"}


def panel_of(table, member):
    """The member's panel as it is now (the newest ephemeral message they see)."""
    return [m for m in table.channel.history(viewer=member) if m.flags.ephemeral][-1]


def frame_text(table, count: int) -> str:
    """The table message's text for the table after ``count`` moves of the deal."""
    return render.table_embed(Showing.frame(table.live, count)).description or ""


async def test_the_default_pace_is_readable():
    assert 0.5 <= AI_PACE <= 3
    assert create_bot("unused.db").ai_pace == AI_PACE


async def test_ai_moves_appear_one_at_a_time_after_the_members_own(simcord_env, bots):
    env = simcord_env
    table, (ann,), _ = await start(env, bots, "foster", dealer=2, humans=("ann",), ai=2)
    live = table.live
    assert live.deal.to_act == 0 and not live.deal.operations  # Ann is the eldest hand

    res = await choose(table, ann, "trade")

    ops = live.deal.operations
    assert len(ops) >= 2 and ops[0].seat == 0 and all(op.seat != 0 for op in ops[1:]), ops
    # everything is committed at once; the table message shows Ann's move only
    message = table.table_message()
    assert description(message) == frame_text(table, 1)
    assert moves_shown(message) == 1
    assert "To act: 🤖" in to_act_line(message)
    assert message.content == ""  # nobody is pinged while the AI moves are shown
    # Ann's panel: her move confirmed, and no move to make until the table catches up
    assert moves(res) == set()
    for count in range(2, len(ops)):  # each AI move PACE seconds after the one before
        await env.advance_time(PACE - 0.1)
        assert description(table.table_message()) == frame_text(table, count - 1)
        await env.advance_time(0.1)
        assert description(table.table_message()) == frame_text(table, count)
    await env.advance_time(PACE)
    message = table.table_message()
    assert moves_shown(message) == min(len(ops), render.RECENT)
    if not live.deal.finished:  # the latest state: Ann's move again, her panel too
        assert "To act: ann" in to_act_line(message) or "<@" in to_act_line(message)
        assert f"<@{ann.id}>" in message.content
        assert "trade" in {c.custom_id.split(":")[5] for row in panel_of(table, ann).components
                           for c in row.children if ":pick:" in (c.custom_id or "")}
    assert not env.errors


async def test_the_showdown_waits_for_the_last_ai_move(simcord_env, bots):
    env = simcord_env
    # Ann (the eldest) holds nothing; AI Ada, next, three aces: she knocks at once
    table, (ann,), _ = await start(env, bots, "foster", dealer=2, humans=("ann",), ai=2,
                                   top=["2c", "Ac", "3c", "5d", "Ad", "7d", "9h", "Ah", "Js"])
    await choose(table, ann, "trade")
    deal = table.live.deal
    assert deal.finished and deal.showdown is not None  # committed with Ada's knock
    assert [op.seat for op in deal.operations] == [0, 1]

    def showdowns() -> int:
        return sum(1 for m in table.channel.history()
                   if m.embeds and (m.embeds[0].title or "").startswith("Showdown"))

    assert showdowns() == 0 and moves_shown(table.table_message()) == 1
    await env.advance_time(PACE - 0.1)
    assert showdowns() == 0
    await env.advance_time(0.1)
    assert showdowns() == 1
    assert not env.errors


async def test_a_new_deal_opened_by_an_ai_is_shown_as_dealt_first(simcord_env, bots):
    env = simcord_env
    table, (ann,), _ = await start(env, bots, "foster", dealer=2, humans=("ann",), ai=2)
    await choose(table, ann, "knock")  # the eldest hand's knock ends the deal at once
    showdown = next(m for m in reversed(table.channel.history())
                    if m.embeds and (m.embeds[0].title or "").startswith("Showdown"))
    await ann.click(showdown, label="Next deal")
    live = table.live
    assert live.deal_number == 2 and live.deal.operations  # the AI eldest hand moved
    assert live.deal.operations[0].seat != 0
    message = table.table_message()
    assert description(message) == frame_text(table, 0)
    assert {c.label for row in message.components for c in row.children} == {"My hand"}
    await env.advance_time(PACE)
    assert moves_shown(table.table_message()) == 1
    assert not env.errors


async def test_a_restart_shows_the_latest_state_at_once(simcord_env, bots, make_bot):
    env = simcord_env
    table, (ann,), _ = await start(env, bots, "foster", dealer=2, humans=("ann",), ai=2)
    await choose(table, ann, "trade")
    shown = len(table.live.deal.operations)
    assert moves_shown(table.table_message()) == 1 < shown
    await restart(env, make_bot(ai_pace=PACE))
    await env.settle()
    assert moves_shown(table.table_message()) == min(shown, render.RECENT)
    assert not env.errors


async def test_a_table_ended_while_its_moves_are_shown_stays_closed(simcord_env, bots):
    env = simcord_env
    table, (ann,), _ = await start(env, bots, "foster", dealer=2, humans=("ann",), ai=2)
    await choose(table, ann, "trade")
    assert moves_shown(table.table_message()) == 1 < len(table.live.deal.operations)
    message_id = table.live.row.table_message_id
    await ann.slash(table.channel, "commerce end")
    closed = description(table.message(message_id))
    assert "closed" in closed
    posts = len(table.channel.history())
    await env.advance_time(5 * PACE)
    assert description(table.message(message_id)) == closed  # not shown again as it was
    assert len(table.channel.history()) == posts  # no showdown, no next deal
    assert not env.errors


async def test_a_barter_answered_by_an_ai_shows_its_outcome_on_the_panel_at_once(
        simcord_env, bots):
    env = simcord_env
    table, (ann,), _ = await start(env, bots, "foster", dealer=2, humans=("ann",), ai=2)
    res = await choose(table, ann, "barter")
    live = table.live
    assert [op.seat for op in live.deal.operations[:2]] == [0, 1]  # Ada answered at once
    # the panel shows Ann's hand after the exchange its note tells of, while the table
    # message still shows the offer waiting for Ada
    after = Showing.frame(live, 2)
    assert render.hand_text(after, after.deal.observation(0)) in res.response.content
    assert moves_shown(table.table_message()) == 1
    assert not env.errors


async def test_my_hand_during_the_showing_shows_what_the_table_shows(simcord_env, bots):
    env = simcord_env
    table, (ann,), _ = await start(env, bots, "foster", dealer=2, humans=("ann",), ai=2)
    await choose(table, ann, "trade")
    live = table.live
    assert not live.deal.finished and live.deal.to_act == 0  # Ann's turn, committed
    message = table.table_message()
    assert moves_shown(message) == 1
    # the table shows an AI to act, with no move buttons; My hand agrees with it
    assert {c.label for row in message.components for c in row.children} == {"My hand"}
    res = await ann.click(message, label="My hand")
    assert moves(res) == set()
    await env.advance_time(len(live.deal.operations) * PACE)
    assert "trade" in {c.custom_id.split(":")[5] for row in panel_of(table, ann).components
                       for c in row.children if ":pick:" in (c.custom_id or "")}
    assert not env.errors
