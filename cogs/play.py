"""Play: keeps every game going without anyone clicking, and hears what Discord
says about a table's channel and its members.

Loading this cog restores the bot's public messages (``bot.publishing.publisher``) and
starts its watch (``bot.timers.clock``); unloading it stops the watch and every
timer, so a bot being replaced never acts again. The controls' handlers are
the bot's own (``bot.interactions.handlers``), not this cog's.
"""

from __future__ import annotations

import logging

import discord
from discord.ext import commands

from bot.process.app import CommerceBot

log = logging.getLogger(__name__)


class Play(commands.Cog):
    """The watch's switch, and Discord's events about tables and members."""

    def __init__(self, bot: CommerceBot) -> None:
        """The watch's switch for ``bot``; nothing starts before ``cog_load``."""
        self.bot = bot
        self.service = bot.service

    async def cog_load(self) -> None:
        """Restore the public messages, then start the watch and the timers."""
        self.bot.after.restore()
        self.bot.timers.start()

    async def cog_unload(self) -> None:
        """Stop the watch and every timer: a bot being replaced never acts again."""
        self.bot.timers.stop()

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        """A deleted channel ends the table that played in it."""
        await self.channel_gone(channel.id, "deleted")

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        """A deleted thread ends the table that played in it."""
        await self.channel_gone(payload.thread_id, "deleted")

    @commands.Cog.listener()
    async def on_thread_update(self, before: discord.Thread, after: discord.Thread) -> None:
        """A thread just archived ends the table that played in it."""
        if after.archived and not before.archived:
            await self.channel_gone(after.id, "archived")

    @commands.Cog.listener()
    async def on_raw_member_remove(self, payload: discord.RawMemberRemoveEvent) -> None:
        """A member left the server: the AI takes their seat in running games and
        they leave lobbies; refresh the public messages of each table changed."""
        await self.bot.after.show_all(await self.service.member_gone(payload.guild_id,
                                                                     payload.user.id))

    async def channel_gone(self, channel_id: int, how: str) -> None:
        """A moderator deleted or archived a table's channel: end the table cleanly."""
        try:
            outcome = await self.service.channel_gone(channel_id)
        except Exception:
            log.exception("channel %s: could not close its table", channel_id)
            return
        if outcome is not None:  # nothing can be shown where the channel was
            await self.bot.after.show(outcome)
            log.info("table %s closed: its channel was %s", outcome.live.id, how)


async def setup(bot: CommerceBot) -> None:
    """Extension entry point (``bot.load_extension``): add the ``Play`` cog."""
    await bot.add_cog(Play(bot))
