"""Issue 24 §4: slow games. A server sets a turn timer of hours
(``/commerce-admin settings turn_hours``, 1 to 72, a friendly answer outside);
the member to act is reminded once, halfway; the turn keeps its deadline through a
restart, and a reminder that fell due while the bot was down is sent once after it."""

from __future__ import annotations

import discord

from tests.cogs.helpers import answer_text, rows
from tests.cogs.test_ai_pace import reminders
from tests.cogs.test_confirmations import start

HOUR = 3600


async def test_turn_hours_are_set_within_bounds(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    general = guild.create_text_channel("general")
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    ann = guild.add_member(env.create_user("ann"), roles=[mods])
    before = await env.bot.service.settings(guild.id)
    for hours in (0, 73, 10_000, -2):
        res = await ann.slash(general, "commerce-admin settings", turn_hours=hours)
        assert res.ephemeral and "from 1 to 72 hours" in answer_text(res), answer_text(res)
    res = await ann.slash(general, "commerce-admin settings", turn_hours=5, turn_timer=30)
    assert "not both" in answer_text(res)
    assert await env.bot.service.settings(guild.id) == before  # nothing changed
    res = await ann.slash(general, "commerce-admin settings", turn_hours=72)
    assert "**72 h** per move" in answer_text(res)
    assert (await env.bot.service.settings(guild.id)).turn_timer == 72 * HOUR
    res = await ann.slash(general, "commerce-admin settings", turn_timer=90)
    assert "**90 s** per move" in answer_text(res)


async def pings(table, member) -> list[str]:
    return [r for r in reminders(table) if f"<@{member.id}>" in r]


async def test_a_slow_turn_reminds_once_and_keeps_its_deadline_through_a_restart(
        simcord_env, bots, make_bot):
    env = simcord_env
    table, (ann, _ben), _ = await start(env, bots, "foster", dealer=2, humans=("ann", "ben"), ai=1,
                                        turn_timer=HOUR)
    live = table.live
    assert live.deal.to_act == live.seat_of(ann.id)
    moves = len(live.deal.operations)
    await env.advance_time(HOUR / 2 - 100)
    assert reminders(table) == []
    await env.advance_time(200)
    assert len(await pings(table, ann)) == 1
    [(reminded,)] = await rows(env.bot, "SELECT reminded_at FROM turn_moments")
    assert reminded is not None
    # a restart: the turn keeps its start, and the reminder is not sent again
    await restart_now(env, make_bot)
    await env.advance_time(60)
    assert len(reminders(table)) == 1
    assert len(table.live.deal.operations) == moves
    # the deadline is the first start's, not an hour after the restart
    await env.advance_time(HOUR - 1960 - 30)  # 30 s before the deadline
    assert len(table.live.deal.operations) == moves, "played before the deadline"
    await env.advance_time(80)
    assert len(table.live.deal.operations) > moves, "the deadline did not survive the restart"
    env.errors  # noqa: B018


async def restart_now(env, make_bot, down: float = 0.0) -> None:
    """The bot stops (its timers with it), stays down ``down`` seconds, and a fresh
    one starts on the same database."""
    from tests.cogs.helpers import restart

    if not down:
        await restart(env, make_bot())
        await env.settle()
        return
    old = env.bot
    await env.settle()
    for name in list(old.extensions):
        await old.unload_extension(name)
    await old.close_storage()
    await env.advance_time(down)
    await env.restart_bot(make_bot())
    await env.settle()


async def test_a_reminder_due_while_the_bot_was_down_is_sent_once_after(
        simcord_env, bots, make_bot):
    env = simcord_env
    table, (ann, _ben), _ = await start(env, bots, "foster", dealer=2, humans=("ann", "ben"), ai=1,
                                        turn_timer=HOUR)
    await env.advance_time(HOUR / 4)
    assert reminders(table) == []
    await restart_now(env, make_bot, down=HOUR / 2)  # the reminder fell due meanwhile
    await env.advance_time(10)  # the watch arms the turn again: the reminder goes at once
    assert len(await pings(table, ann)) == 1
    await env.advance_time(HOUR / 8)
    assert len(await pings(table, ann)) == 1  # never twice
    env.errors  # noqa: B018
