"""Play: keeps every game going without anyone clicking, and hears what Discord
says about a table's channel and its members.

Loading this cog restores the bot's public messages (``bot.messages``) and
starts its watch (``bot.timers``); unloading it stops the watch and every
timer, so a bot being replaced never acts again. The controls' handlers are
the bot's own (``bot.handlers``), not this cog's.
"""

from __future__ import annotations

import logging

import discord
from discord.ext import commands

from bot.app import CommerceBot

log = logging.getLogger(__name__)


class Play(commands.Cog):
    """The watch's switch, and Discord's events about tables and members."""

    def __init__(self, bot: CommerceBot) -> None:
        self.bot = bot
        self.service = bot.service

    async def cog_load(self) -> None:  # noqa: D102
        self.bot.publisher.restore()
        self.bot.timers.start()

    async def cog_unload(self) -> None:  # noqa: D102
        self.bot.timers.stop()

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:  # noqa: D102
        await self.channel_gone(channel.id, "deleted")

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:  # noqa: D102
        await self.channel_gone(payload.thread_id, "deleted")

    @commands.Cog.listener()
    async def on_thread_update(self, before: discord.Thread, after: discord.Thread) -> None:  # noqa: D102
        if after.archived and not before.archived:
            await self.channel_gone(after.id, "archived")

    @commands.Cog.listener()
    async def on_raw_member_remove(self, payload: discord.RawMemberRemoveEvent) -> None:  # noqa: D102
        for live in await self.service.member_gone(payload.guild_id, payload.user.id):
            await self.bot.publisher.refresh(live)

    async def channel_gone(self, channel_id: int, how: str) -> None:
        """A moderator deleted or archived a table's channel: end the table cleanly."""
        try:
            live = await self.service.channel_gone(channel_id)
        except Exception:
            log.exception("channel %s: could not close its table", channel_id)
            return
        if live is not None:
            self.bot.timers.forget(live.id)
            log.info("table %s closed: its channel was %s", live.id, how)


async def setup(bot: CommerceBot) -> None:  # noqa: D103
    await bot.add_cog(Play(bot))
