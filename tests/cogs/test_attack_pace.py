"""Attacks on the AI's readable pace (bot/publishing/publisher.py ``Publisher`` pace,
``frame``, ``after``, ``_present``; bot/interactions/handlers.py panels at the frame;
bot/timers/clock.py). Each test says what an attack trial once broke there (now
fixed) or which attack it shows handled.
"""

from __future__ import annotations

from tests.cogs.helpers import emit_component, rest_leaks
from tests.cogs.test_ai_pace import (  # noqa: F401  (simcord_bot: the bot at a 6 s pace)
    PACE,
    description,
    moves_shown,
    simcord_bot,
)
from tests.cogs.test_confirmations import choose, start


def pick_actions(message) -> set[str]:
    """The moves a panel message offers (its pick buttons' actions)."""
    return {c.custom_id.split(":")[5] for row in message.components for c in row.children
            if ":pick:" in (c.custom_id or "")} - {"hint"}


def message_by_id(table, member, message_id):
    for m in table.channel.history(viewer=member):
        if m.id == message_id:
            return m
    raise AssertionError(f"message {message_id} not found")


def labels(message) -> set[str]:
    return {c.label for row in message.components for c in row.children}


def showdowns(table) -> list:
    return [m for m in table.channel.history()
            if m.embeds and (m.embeds[0].title or "").startswith("Showdown")]


# ------------------------------------------------------------------ the turn timer
async def test_no_turn_reminder_for_a_move_already_made_while_the_ai_moves_are_shown(
        simcord_env, bots):
    # Found by an attack trial, fixed since.
    # (bot/publishing/publisher.py Publisher.refresh/_present with bot/timers/clock.py): while the AI
    # moves after a member's move are shown (pace seconds each), the turn timer of the move
    # the member has just made keeps running (it is re-armed only once the table message
    # catches up), so its half-time reminder "⏰ @member, it is your move" is posted after
    # the member moved.
    env = simcord_env
    table, (ann,), _ = await start(env, bots, "foster", dealer=2, humans=("ann",), ai=2,
                                   turn_timer=20)
    live = table.live
    assert live.deal.to_act == 0 and not live.deal.operations
    await env.advance_time(8)  # Ann thinks for 8 s of her 20 s (the reminder comes at 10 s)
    assert not [m for m in table.channel.history() if m.content.startswith("⏰")]
    await choose(table, ann, "trade")
    ops = len(live.deal.operations)
    assert ops >= 3 and moves_shown(table.table_message()) == 1  # two AI moves still to show
    await env.advance_time(4)  # 12 s after the deal: still showing the AI's first move
    assert moves_shown(table.table_message()) == 1
    reminders = [m.content for m in table.channel.history() if m.content.startswith("⏰")]
    assert reminders == [], reminders  # Ann moved 4 s ago: nothing to remind her of
    env.errors  # noqa: B018


# ------------------------------------------------------------------ failed edits
async def test_the_members_panel_catches_up_even_when_the_table_message_cannot_be_edited(
        simcord_env, bots):
    # Found by an attack trial, fixed since.
    # (bot/publishing/publisher.py Publisher._refresh_once /
    # bot/interactions/handlers.py publisher.showing.after):
    # the member's panel now shows the frame just after their move (no controls) and is
    # brought to the latest state only by Panels.refresh inside _refresh_once, after the
    # table message edit. When that edit fails (Missing Permissions, or 5xx after the
    # retries) the panel is never refreshed: it stays at the frame, offering no move,
    # while the member's turn timer runs. Before the pace the panel showed the latest
    # state at once.
    env = simcord_env
    table, (ann,), _ = await start(env, bots, "foster", dealer=2, humans=("ann",), ai=2)
    live = table.live
    env.inject_error("PATCH", "/channels/*/messages/*", status=403, code=50013,
                     message="Missing Permissions", times=None)
    res = await choose(table, ann, "trade")
    panel_id = res.response.id
    await env.advance_time(5 * PACE)
    assert not live.deal.finished and live.deal.to_act == 0  # Ann's move again
    assert "trade" in pick_actions(message_by_id(table, ann, panel_id))
    env.errors  # noqa: B018 — the injected 403s


async def test_one_failed_catch_up_edit_leaves_the_panel_at_the_frame(simcord_env, bots):
    # Found by an attack trial, fixed since.
    # (bot/publishing/panels.py Panels.refresh, relied on by
    # bot/interactions/handlers.py publisher.showing.after):
    # the catch-up edit of the member's panel is made once, unretried; one 5xx answer
    # leaves the panel at the frame (no move offered) for good, though the state
    # committed long ago is the member's move.
    env = simcord_env
    table, (ann,), _ = await start(env, bots, "foster", dealer=2, humans=("ann",), ai=2)
    live = table.live
    res = await choose(table, ann, "trade")
    panel_id = res.response.id
    assert pick_actions(message_by_id(table, ann, panel_id)) == set()
    env.inject_error("PATCH", "/webhooks/*", status=500, times=1)
    await env.advance_time(5 * PACE)
    assert not live.deal.finished and live.deal.to_act == 0
    assert moves_shown(table.table_message()) >= 3  # the table message caught up
    await env.advance_time(30)  # the watch has had several rounds
    assert "trade" in pick_actions(message_by_id(table, ann, panel_id))
    env.errors  # noqa: B018


# ------------------------------------------------------------------ frames' controls
async def test_a_frame_of_an_offer_to_an_ai_shows_no_answer_buttons(simcord_env, bots):
    # Found by an attack trial, fixed since.
    # (bot/publishing/publisher.py Publisher.table_view used for frames by _present): a frame
    # in which an AI seat is to answer a barter shows the public table message with
    # Accept / Refuse (knock) buttons for that offer (seq of the frame), though no member
    # may answer it and the moment has already passed; every press is refused. Before
    # the pace no public message ever offered controls for an AI's decision.
    env = simcord_env
    table, (ann,), _ = await start(env, bots, "foster", dealer=2, humans=("ann",), ai=2)
    await choose(table, ann, "barter")
    live = table.live
    ops = live.deal.operations
    assert ops[0].seat == 0 and ops[1].seat == 1  # Ada answered at once (committed)
    message = table.table_message()
    assert moves_shown(message) == 1  # the frame: Ann's offer, Ada still to answer
    shown = labels(message)
    # a press of such a button only earns a refusal
    accept = [c for row in message.components for c in row.children
              if (c.custom_id or "").startswith("commerce:answer:")]
    if accept:
        res = await ann.click(message, custom_id=accept[0].custom_id)
        assert res.ephemeral
    assert not accept, shown
    env.errors  # noqa: B018


# ------------------------------------------------------------------ forged next deal
async def test_a_next_deal_forced_during_the_showing_does_not_lose_the_showdown(
        simcord_env, bots):
    # Found by an attack trial, fixed since.
    # (bot/service/actions.py next_deal with bot/publishing/publisher.py Publisher._present):
    # a deal ended by an AI is committed at once but its showdown is posted only after
    # the AI moves are shown; meanwhile the service deals the next hand to any press of
    # Next deal for that deal (a forged custom id, commerce:next:<table>:<deal>). The
    # showing then stops (the deal changed) and the ended deal's showdown is never
    # posted: the table never sees who won it.
    env = simcord_env
    table, (ann,), _ = await start(env, bots, "foster", dealer=2, humans=("ann",), ai=2,
                                   top=["2c", "Ac", "3c", "5d", "Ad", "7d", "9h", "Ah", "Js"])
    await choose(table, ann, "trade")
    live = table.live
    assert live.deal.finished and live.deal_number == 1 and not showdowns(table)
    emit_component(env, ann, table.table_message(), f"commerce:next:{live.id}:1", shown=True)
    await env.settle()
    await env.advance_time(3 * PACE)
    assert 1 in live.announced or live.deal_number == 1, (live.deal_number, live.announced)
    assert len(showdowns(table)) >= 1
    env.errors  # noqa: B018


# ------------------------------------------------------------------ hidden information
async def test_no_frame_names_a_hidden_card(simcord_env, bots):
    # HANDLED: frames (Game.rewound) of trades and barters between a member and three AI
    # seats, shown one at a time, name no card in any public post or edit.
    env = simcord_env
    table, (ann,), watcher = await start(env, bots, "foster", dealer=3, humans=("ann",), ai=3)
    live = table.live
    for action in ("barter", "trade", "barter", "trade"):
        if live.deal.finished or live.deal.to_act != 0:
            break
        await choose(table, ann, action)
        await env.advance_time(4 * PACE)
    assert len(live.deal.operations) >= 4
    assert rest_leaks(env, table) == []
    assert not env.errors


# ------------------------------------------------------------------ end during an edit
async def test_a_frame_edit_retried_across_an_end_does_not_reopen_the_table_message(
        simcord_env, bots):
    # Found by an attack trial, fixed since.
    # (bot/publishing/publisher.py Publisher._present): the table is checked only after the
    # pace's wait; a frame edit that Discord answers 5xx is retried (1 s, 2 s, 4 s) and
    # lands after /commerce end closed the table, so the closed table message shows a
    # frame of the voided deal again, with its buttons.
    env = simcord_env
    table, (ann,), _ = await start(env, bots, "foster", dealer=2, humans=("ann",), ai=2)
    await choose(table, ann, "trade")
    message_id = table.live.row.table_message_id
    assert moves_shown(table.table_message()) == 1 < len(table.live.deal.operations)
    env.inject_error("PATCH", f"/channels/*/messages/{message_id}", status=500, times=1)
    await env.advance_time(PACE)  # the AI's first move is due: its edit fails, retried in 1 s
    await ann.slash(table.channel, "commerce end")
    await env.advance_time(5 * PACE)
    closed = table.message(message_id)
    assert "closed" in description(closed), description(closed)
    assert not closed.components, labels(closed)
    env.errors  # noqa: B018
