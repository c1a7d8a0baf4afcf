"""``/commerce daily``: today's deal, played in duplicate (docs/DAILY.md) — the
same cards for every member of every server, once a day, alone and privately
(ephemeral messages only: no channel is made for it); the board of a day; a
day's commitment and, once the day is over, its seed."""

from __future__ import annotations

import datetime
import logging

import discord
from discord import app_commands
from discord.ext import tasks

from bot.interactions.commands import Subcommands
from bot.process.app import CommerceBot

log = logging.getLogger(__name__)

#: when, each day, the bot draws the next day's seed if nobody asked for it yet (so its
#: commitment is public at least half a day before the day starts)
DRAW_AT = datetime.time(12, 0, tzinfo=datetime.UTC)

#: what ``/commerce daily`` shows
SHOW_CHOICES = [
    app_commands.Choice(name="play today's deal", value="play"),
    app_commands.Choice(name="the board of the day", value="board"),
    app_commands.Choice(name="the day's commitment and seed", value="proof"),
]


class Daily(Subcommands):
    """``/commerce daily``."""

    def __init__(self, bot: CommerceBot) -> None:
        """The daily command of ``bot``; it joins ``bot.commerce`` on load."""
        super().__init__(bot.commerce)
        self.bot = bot

    async def cog_load(self) -> None:
        """Join ``/commerce``, and start the daily draw of tomorrow's seed."""
        await super().cog_load()
        self.draw.start()

    async def cog_unload(self) -> None:
        """Stop the daily draw, and leave ``/commerce``."""
        self.draw.cancel()
        await super().cog_unload()

    @tasks.loop(time=DRAW_AT)
    async def draw(self) -> None:
        """Draw today's and tomorrow's seeds if they are missing (docs/FAIRNESS.md,
        "The daily deal"); a failure is logged and tried again the next day or at
        the next ``/commerce daily``."""
        try:
            await self.bot.daily.commitments()
        except Exception:
            log.warning("the daily seeds could not be drawn", exc_info=True)

    @app_commands.command(name="daily",
                          description="Today's deal: the same cards for everyone, once a day")
    @app_commands.describe(
        show="Play today's deal (default), see the board, or the day's commitment and seed",
        day="For the board or the seed: a day as YYYY-MM-DD (default: today; the seed: "
            "yesterday)")
    @app_commands.choices(show=SHOW_CHOICES)
    async def daily(self, interaction: discord.Interaction,
                    show: app_commands.Choice[str] | None = None,
                    day: app_commands.Range[str, 1, 10] | None = None) -> None:
        """Play today's deal privately, or show a day's board or shuffle."""
        handlers = self.bot.daily_handlers
        what = show.value if show is not None else "play"
        if what == "board":
            await handlers.board(interaction, day)
        elif what == "proof":
            await handlers.proof(interaction, day)
        else:
            await handlers.play(interaction)


async def setup(bot: CommerceBot) -> None:
    """Load the cog (discord.py extension entry point)."""
    await bot.add_cog(Daily(bot))
