"""Class 3: Discord refusing every channel operation (403 Missing Permissions /
Missing Access, 404 Unknown Channel, 429, 5xx, 400 Invalid Form Body) at each
command and control: the member always gets a plain answer, never 'Something went
wrong', and no exception escapes."""

from __future__ import annotations

import pytest

from tests.attack.common import moderator
from tests.cogs.helpers import RETRY_SETTLE, answer_text

pytestmark = pytest.mark.simcord(settle_timeout=RETRY_SETTLE, check_errors=False)

REFUSALS = [(403, 50013, "Missing Permissions"), (403, 50001, "Missing Access"),
            (404, 10003, "Unknown Channel"), (429, 0, "You are being rate limited."),
            (500, 0, "Internal Server Error"), (400, 50035, "Invalid Form Body")]


async def world(env):
    guild = env.create_guild()
    general = guild.create_text_channel("general")
    ann, ben = (guild.add_member(env.create_user(n)) for n in ("ann", "ben"))
    mod = moderator(env, guild)
    return guild, general, ann, ben, mod


def lobby(channel):
    return next(m for m in channel.history()
                if any((c.custom_id or "").startswith("commerce:lobby")
                       for row in m.components for c in row.children))


def table_message(env, channel):
    live = env.bot.service.in_channel(channel.id)
    return next(m for m in channel.history() if m.id == live.row.table_message_id)


async def op_new(env, guild, general, ann, ben, mod):
    return [await ann.slash(general, "commerce new")]


async def _lobby(env, guild, general, ann):
    await ann.slash(general, "commerce new")
    return guild.channels["commerce-1"]


async def op_join(env, guild, general, ann, ben, mod):
    channel = await _lobby(env, guild, general, ann)
    refuse(env)
    return [await ben.click(lobby(channel), label="Join")]


async def op_add_ai_start(env, guild, general, ann, ben, mod):
    channel = await _lobby(env, guild, general, ann)
    await ann.click(lobby(channel), label="Add AI")
    refuse(env)
    out = [await ann.click(lobby(channel), label="Add AI")]
    out.append(await ann.click(lobby(channel), label="Start"))
    return out


async def op_leave(env, guild, general, ann, ben, mod):
    channel = await _lobby(env, guild, general, ann)
    refuse(env)
    return [await ann.click(lobby(channel), label="Leave")]


async def _game(env, guild, general, ann):
    channel = await _lobby(env, guild, general, ann)
    await ann.click(lobby(channel), label="Add AI")
    await ann.click(lobby(channel), label="Add AI")
    await ann.click(lobby(channel), label="Start")
    return channel


async def op_moves(env, guild, general, ann, ben, mod):
    channel = await _game(env, guild, general, ann)
    out = []
    for _ in range(4):
        live = env.bot.service.in_channel(channel.id)
        if live is None or live.deal.finished or live.deal.to_act != live.seat_of(ann.id):
            break
        message = table_message(env, channel)
        refuse(env)
        out.append(await ann.click(message, label="My hand"))
        out.append(await ann.click(message, label="Knock"))
        env.backend.faults.clear()
        await env.advance_time(1)
    return out


async def op_end(env, guild, general, ann, ben, mod):
    channel = await _game(env, guild, general, ann)
    refuse(env)
    return [await ann.slash(channel, "commerce end")]


async def op_cancel(env, guild, general, ann, ben, mod):
    await _game(env, guild, general, ann)
    refuse(env)
    return [await mod.slash(general, "commerce-admin cancel", table=1)]


async def op_next_deal(env, guild, general, ann, ben, mod):
    channel = await _game(env, guild, general, ann)
    await env.bot.service.set_delay(env.bot.service.in_channel(channel.id).id, ann.id, 0)
    for _ in range(10):
        live = env.bot.service.in_channel(channel.id)
        if live.deal.finished:
            break
        await ann.click(table_message(env, channel), label="Knock")
        await env.advance_time(1)
    showdown = next(m for m in channel.history() if m.embeds and
                    (m.embeds[0].title or "").startswith("Showdown"))
    refuse(env)
    return [await ann.click(showdown, label="Next deal")]


async def op_commands(env, guild, general, ann, ben, mod):
    await _game(env, guild, general, ann)
    refuse(env)
    out = []
    for name, kw in (("commerce leaderboard", {}), ("commerce stats", {}),
                     ("commerce history", {}), ("commerce hand", {}), ("commerce rules", {})):
        out.append(await ann.slash(general, name, **kw))
    out.append(await mod.slash(general, "commerce-admin settings", max_tables=5))
    out.append(await mod.slash(general, "commerce-admin export"))
    return out


OPS = [op_new, op_join, op_add_ai_start, op_leave, op_moves, op_end, op_cancel, op_next_deal,
       op_commands]

FAULT: dict = {}


def refuse(env):
    status, code, text = FAULT["now"]
    for path in ("/channels/*", "/guilds/*/channels"):
        env.inject_error("*", path, status=status, code=code, message=text, times=None)


@pytest.mark.parametrize("op", OPS, ids=[o.__name__ for o in OPS])
@pytest.mark.parametrize("status,code,text", REFUSALS, ids=[f"{s}-{c}" for s, c, _ in REFUSALS])
async def test_every_command_answers_plainly_when_discord_refuses(simcord_env, op, status, code,
                                                                 text):
    env = simcord_env
    FAULT["now"] = (status, code, text)
    guild, general, ann, ben, mod = await world(env)
    if op is op_new:
        refuse(env)
    results = await op(env, guild, general, ann, ben, mod)
    answers = []
    for res in results:
        if res is None:
            continue
        answers.append(answer_text(res))
        answers += [f.content or "" for f in res.followups]
        assert res.acknowledged, answers
    assert not any("Something went wrong" in a for a in answers), answers
    env.backend.faults.clear()
    await env.advance_time(30)
    unhandled = [e for e in env.errors if not getattr(e, "status", None)]
    assert not unhandled, unhandled
