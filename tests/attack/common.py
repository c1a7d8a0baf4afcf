# ruff: noqa: B905
"""Shared helpers of the attack tests."""

from __future__ import annotations

import discord

from bot.publishing.showing import AI_PACE
from tests.cogs.golden import controls, offers_a_move, title
from tests.cogs.helpers import message_text, rows

SETTLE = AI_PACE * 2 / 3


def server(env, names=("ann",), nicks=None):
    guild = env.create_guild()
    general = guild.create_text_channel("general")
    nicks = nicks or [None] * len(names)
    return guild, general, [guild.add_member(env.create_user(n), nick=k)
                            for n, k in zip(names, nicks)]


def moderator(env, guild):
    role = guild.create_role("mod", permissions=discord.Permissions(manage_guild=True))
    return guild.add_member(env.create_user("mod"), roles=[role])


async def open_lobby(env, guild, general, host, preset="foster", **options):
    res = await host.slash(general, "commerce new", rules=preset, **options)
    text = res.followups[-1].content if res.followups else res.response.content
    assert "ready" in text, text
    live = env.bot.service.of_member(guild.id, host.id)
    channel = env_channel(env, guild, live.row.channel_id)
    return channel, live


def env_channel(env, guild, channel_id):
    from simcord.builders import ChannelHandle
    return ChannelHandle(env, guild, env.backend.channels[channel_id])


def lobby_message(env, channel):
    live = None
    for m in channel.history():
        if any(cid.startswith("commerce:lobby") for cid, _ in controls(m)):
            live = m
    return live


async def add_ai_and_start(env, channel, host, ai=2, wait=2.0):
    for _ in range(ai):
        await host.click(lobby_message(env, channel), label="Add AI")
        await env.advance_time(wait)
    await host.click(lobby_message(env, channel), label="Start")


async def ledger_sum(bot, guild_id):
    [(total,)] = await rows(bot, "SELECT COALESCE(SUM(amount), 0) FROM ledger WHERE guild_id = ?",
                            (guild_id,))
    return total


def live_controls(channel):
    return [message_text(m)[:200] for m in channel.history() if offers_a_move(m)]


def titles(channel):
    return [title(m) for m in channel.history()]
