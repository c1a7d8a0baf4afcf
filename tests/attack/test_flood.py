"""Class 3, floods: a member opening tables fast, channels made and kept."""

from __future__ import annotations

import pytest

from tests.attack.common import SETTLE, lobby_message, server
from tests.cogs.helpers import answer_text, rows


@pytest.mark.prod
@pytest.mark.simcord(settle_timeout=SETTLE)
async def test_open_start_end_cycles_are_not_limited_and_each_keeps_a_channel(simcord_env):
    """A member opens a table, adds one AI, starts and ends at once, over and over.
    The per-member limit counts only tables 'never started', so every cycle makes a
    new channel, and each is kept read-only for keep_days (7)."""
    env = simcord_env
    guild, general, (ann,) = server(env)
    made = 0
    created = set()
    for i in range(8):
        await env.advance_time(10)  # never faster than the cooldown allows
        res = await ann.slash(general, "commerce new")
        if "ready" not in answer_text(res):
            break
        made += 1
        channel = guild.channels[f"commerce-{i + 1}"]
        created.add(channel.id)
        for _ in range(2):
            await env.advance_time(2)
            await ann.click(lobby_message(env, channel), label="Add AI")
        await env.advance_time(2)
        await ann.click(lobby_message(env, channel), label="Start")
        await env.advance_time(2)
        await ann.slash(channel, "commerce end")
        await env.advance_time(5)
    # every cycle made a channel under the Commerce category (and removed it): 8 channels
    # created (each shown to every member of the server) in about 3 minutes, beyond the
    # 3 tables 'never played' per 10 minutes a member may open; no deal was played
    [(games, deals)] = await rows(env.bot, "SELECT COUNT(*), (SELECT COUNT(*) FROM deals"
                                           " WHERE status = 'settled') FROM games")
    assert deals == 0
    assert made <= 3, (made, len(created), games, answer_text(res))
    env.errors  # noqa: B018


@pytest.mark.prod
@pytest.mark.simcord(settle_timeout=SETTLE)
async def test_one_member_leaves_a_kept_channel_per_minute(simcord_env):
    """A member opens a table with two AI seats, knocks through one deal and ends the
    table, over and over: each table is 'played', so it is neither counted by the
    per-member limit nor removed: its channel stays (read-only) for keep_days."""
    env = simcord_env
    guild, general, (ann,) = server(env)
    start = env._virtual_time
    for i in range(12):
        await env.advance_time(5)
        res = await ann.slash(general, "commerce new")
        if "ready" not in answer_text(res):
            break
        channel = guild.channels[f"commerce-{i + 1}"]
        for _ in range(2):
            await env.advance_time(2)
            await ann.click(lobby_message(env, channel), label="Add AI")
        await env.advance_time(2)
        await ann.click(lobby_message(env, channel), label="Start")
        for _ in range(120):
            live = env.bot.service.in_channel(channel.id)
            if live.deal.finished:
                break
            if live.deal.to_act == live.seat_of(ann.id):
                msg = next(m for m in channel.history() if m.id == live.row.table_message_id)
                labels = [c.label for row in msg.components for c in row.children]
                if "Knock" in labels:
                    await ann.click(msg, label="Knock")
            await env.advance_time(1)
        await ann.slash(channel, "commerce end")
        await env.advance_time(5)
    minutes = (env._virtual_time - start) / 60
    kept = [c for c in guild.channels if c.startswith("commerce-")]
    assert len(kept) <= 3, f"{len(kept)} channels kept (for 7 days) after {minutes:.1f} minutes"
    env.errors  # noqa: B018


@pytest.mark.parametrize("status,code", [(403, 50001), (403, 50013), (429, 0), (503, 0)])
async def test_a_lobby_that_cannot_be_posted_leaves_nothing_half_made(simcord_env, status, code):
    """The table's channel is made, but Discord refuses the lobby message in it (the
    Commerce category denies the bot, or a long burst). The member must be told
    plainly, and no table, seat or channel must be left behind."""
    env = simcord_env
    guild, general, (ann,) = server(env)
    env.inject_error("POST", "/channels/*/messages", status=status, code=code,
                     message="Missing Access" if status == 403 else "refused", times=None)
    res = await ann.slash(general, "commerce new")
    await env.advance_time(10)  # the bot's own retries of a 429 / 5xx (1 + 2 + 4 s)
    text = answer_text(res)
    env.backend.faults.clear()
    assert "Something went wrong" not in text, text
    open_rows = await rows(env.bot, "SELECT id, status, lobby_message_id FROM tables"
                                    " WHERE status = 'lobby'")
    chans = [c for c in guild.channels if c.startswith("commerce-")]
    # the member is seated at an invisible lobby (no message, no Join button) in a
    # channel the bot made: the next /commerce new says 'You sit at table 1'
    again = answer_text(await ann.slash(general, "commerce new"))
    assert open_rows == [] and chans == [], (text, open_rows, chans, again)
    env.errors  # noqa: B018


async def test_many_members_opening_tables_at_the_same_moment(simcord_env):
    """Twelve members press /commerce new in the same instant on a server allowing 10
    tables; one of them presses it five times. Exactly 10 tables open, each with its own
    channel and lobby; nobody sits at two; no channel is left without a table."""
    from tests.cogs.helpers import emit_slash
    env = simcord_env
    guild, general, members = server(env, [f"m{i}" for i in range(12)])
    results = [emit_slash(env, m, general, "commerce new") for m in members]
    results += [emit_slash(env, members[0], general, "commerce new") for _ in range(4)]
    await env.settle()
    await env.advance_time(5)
    opened = await rows(env.bot, "SELECT id, channel_id, host_id, lobby_message_id FROM tables"
                                 " WHERE status = 'lobby'")
    channels = {c.id for name, c in guild.channels.items() if name.startswith("commerce-")}
    hosts = [h for _, _, h, _ in opened]
    assert len(opened) == 10, opened
    assert len(set(hosts)) == len(hosts)
    assert all(lobby is not None for *_, lobby in opened)
    assert channels == {c for _, c, _, _ in opened}, (channels, opened)
    for res in results:
        assert res.acknowledged
    categories = [c for c in env.backend.channels.values()
                  if c.guild_id == guild.id and c.name == "Commerce"]
    assert len(categories) == 1, len(categories)
    env.errors  # noqa: B018
