"""``/commerce daily``: today's deal, played in duplicate (docs/DAILY.md) — the
same cards for every member of every server, once a day, alone and privately
(ephemeral messages only: no channel is made for it); the board of a day; a
day's commitment and, once the day is over, its seed."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.interactions.commands import Subcommands
from bot.process.app import CommerceBot

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
