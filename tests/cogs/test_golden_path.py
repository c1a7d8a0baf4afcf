"""Golden paths: a whole game of every preset with the bot exactly as ``python -m bot``
builds it (``bot.__main__.build_bot``: the AI's pace, the per-member cooldown, the
turn timer, the next-deal delay, the OS CSPRNG; no test-only override), played to
its end through the public buttons and the panels only, asserting what players
see: one showdown per deal, the final standings once, no control left that
offers a move, and a ledger that sums to zero.

Only the simulated Discord is set for speed: SimCord's settle timeout is shorter
than the AI's pace, so each AI move waits for ``env.advance_time`` (virtual time)
instead of real seconds, and the cooldown reads the same virtual clock.
"""

from __future__ import annotations

import time
import types

import discord
import pytest
import pytest_asyncio
from discord.app_commands import checks as app_checks
from discord.ext.commands import cooldowns

from bot.__main__ import build_bot
from bot.engine import PRESETS
from bot.publishing.showing import AI_PACE
from tests.cogs.golden import offers_a_move, play_to_the_end, title
from tests.cogs.helpers import message_text, rows

#: below the AI's pace: a click's settle leaves the pace's waits to virtual time
SETTLE = AI_PACE * 2 / 3


@pytest_asyncio.fixture
async def simcord_bot(db_path, bots, monkeypatch):
    # the per-member cooldown counts in the simulated clock (``time.monotonic`` is
    # SimCord's virtual clock once the environment runs: looked up at each call), as
    # it counts in real seconds in production
    clock = types.SimpleNamespace(time=lambda: time.monotonic())
    monkeypatch.setattr(cooldowns, "time", clock)
    monkeypatch.setattr(app_checks, "time", clock)
    bot = build_bot(db_path)
    bots.append(bot)
    yield bot
    for b in bots:
        await b.close_storage()


async def open_game(env, preset: str, *, ai: int = 2, **options):
    """A member opens a ``preset`` table with ``ai`` AI seats and starts it."""
    guild = env.create_guild()
    general = guild.create_text_channel("general")
    ann = guild.add_member(env.create_user("ann"))
    res = await ann.slash(general, "commerce new", rules=preset, **options)
    assert res.ephemeral and "ready" in res.response.content, res.response.content
    channel = guild.channels["commerce-1"]
    for _ in range(ai):
        await ann.click(channel.history()[0], label="Add AI")
        await env.advance_time(2)
    await ann.click(channel.history()[0], label="Start")
    return guild, channel, ann


async def check_the_end(env, guild, channel, seen) -> None:
    await env.advance_time(10)  # the end's last steps (panels, the channel) are shown
    deals = max(seen.showdowns)
    assert seen.showdowns == {n: 1 for n in range(1, deals + 1)}, seen.showdowns
    assert seen.finals == 1
    assert title(channel.history()[-1]).startswith("Game over")
    assert seen.live_controls == []
    [(total,)] = await rows(env.bot, "SELECT COALESCE(SUM(amount), 0) FROM ledger"
                                     " WHERE guild_id = ?", (guild.id,))
    assert total == 0
    [(status, shown)] = await rows(env.bot, "SELECT status, end_shown FROM tables")
    assert (status, shown) == ("finished", 1)
    me = env.bot.get_guild(guild.id)
    assert channel.id in {c.id for c in me.channels}  # kept, read-only
    perms = me.get_channel(channel.id).overwrites_for(me.default_role)
    assert perms.send_messages is False


@pytest.mark.simcord(settle_timeout=SETTLE)
@pytest.mark.parametrize("preset", sorted(PRESETS))
async def test_a_game_at_production_defaults_ends(simcord_env, preset):
    env = simcord_env
    assert env.bot.ai_pace == AI_PACE > SETTLE
    guild, channel, ann = await open_game(env, preset)
    seen = await play_to_the_end(env, channel, [ann], seed=len(preset))
    await check_the_end(env, guild, channel, seen)
    assert not env.errors


@pytest.mark.simcord(settle_timeout=SETTLE)
async def test_a_game_of_fixed_rounds_ends(simcord_env):
    env = simcord_env
    guild, channel, ann = await open_game(env, "jaques", fixed_rounds=2)
    seen = await play_to_the_end(env, channel, [ann], seed=3)
    await check_the_end(env, guild, channel, seen)
    assert not env.errors


async def move_with_ai_to_show(env, channel, ann, bot) -> None:
    """Ann makes moves until AI moves after hers are still being shown."""
    for _ in range(400):
        live = bot.service.in_channel(channel.id)
        deal = live.deal
        if not deal.finished and deal.to_act == live.seat_of(ann.id):
            message = next(m for m in channel.history() if m.id == live.row.table_message_id)
            panel = await ann.click(message, label="My hand")
            trade = next((c for row in panel.response.components for c in row["components"]
                          if c.get("type") == 2 and ":trade:" in c.get("custom_id", "")), None)
            if trade is not None:
                await ann.click(panel.response, custom_id=trade["custom_id"])
                if live.id in bot.publisher.showing._running:
                    return
        await env.advance_time(1)
    raise AssertionError("no AI move was ever being shown")


@pytest.mark.simcord(settle_timeout=SETTLE)
@pytest.mark.parametrize("how", ["end", "cancel"])
async def test_a_game_closed_while_ai_moves_are_shown_ends_cleanly(simcord_env, how):
    env = simcord_env
    guild, channel, ann = await open_game(env, "foster")
    await move_with_ai_to_show(env, channel, ann, env.bot)
    if how == "end":
        await ann.slash(channel, "commerce end")
    else:
        mod_role = guild.create_role("mod", permissions=discord.Permissions(manage_guild=True))
        mod = guild.add_member(env.create_user("mod"), roles=[mod_role])
        await mod.slash(guild.channels["general"], "commerce-admin cancel", table=1)
    await env.advance_time(10)
    titles = [title(m) for m in channel.history()]
    assert sum(t.startswith("Game over") for t in titles) == 1
    final = next(m for m in channel.history() if title(m).startswith("Game over"))
    assert "Closed before its end" in final.embeds[0].description
    assert not [message_text(m) for m in channel.history() if offers_a_move(m)]
    [(total,)] = await rows(env.bot, "SELECT COALESCE(SUM(amount), 0) FROM ledger")
    assert total == 0
    [(status, shown)] = await rows(env.bot, "SELECT status, end_shown FROM tables")
    assert (status, shown) == ("closed", 1)
    me = env.bot.get_guild(guild.id)
    assert me.get_channel(channel.id).overwrites_for(me.default_role).send_messages is False
    await env.advance_time(30)  # the moves that were still to show never come back
    assert not [message_text(m) for m in channel.history() if offers_a_move(m)]
    assert not env.errors


@pytest.mark.simcord(settle_timeout=SETTLE)
async def test_a_game_closed_between_two_deals_leaves_no_next_deal_button(simcord_env):
    env = simcord_env
    guild, channel, ann = await open_game(env, "foster")
    for _ in range(400):  # ann knocks when she can, until a showdown waits for the next deal
        live = env.bot.service.in_channel(channel.id)
        if live.deal.finished and any(title(m).startswith("Showdown") for m in channel.history()):
            break
        if live.deal.to_act == live.seat_of(ann.id):
            message = next(m for m in channel.history() if m.id == live.row.table_message_id)
            if "Knock" in {label for _, label in ((c.custom_id, c.label) for row in
                                                  message.components for c in row.children)}:
                await ann.click(message, label="Knock")
        await env.advance_time(1)
    showdown = next(m for m in channel.history() if title(m).startswith("Showdown"))
    assert offers_a_move(showdown)  # Next deal, before the end
    await ann.slash(channel, "commerce end")
    await env.advance_time(5)
    assert not [message_text(m) for m in channel.history() if offers_a_move(m)]
    assert not env.errors
