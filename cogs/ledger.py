"""``/commerce`` commands of the server's ledger: the leaderboard and a member's
figures. The leaderboard's Previous / Next buttons are handled by the bot's
control handlers (``bot.handlers.Handlers.on_page``), which show the same pages.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.app import CommerceBot
from bot.commands import Subcommands
from bot.handlers import PER_PAGE
from bot.interactions import guarded, reply, say
from bot.ui import render
from bot.ui.components import pager_view


class Ledger(Subcommands):
    """``/commerce leaderboard | stats``."""

    def __init__(self, bot: CommerceBot) -> None:
        """The ledger commands of ``bot``; they join ``bot.commerce`` on load."""
        super().__init__(bot.commerce)
        self.bot = bot
        self.service = bot.service

    @app_commands.command(name="leaderboard", description="Who is ahead on this server's ledger")
    async def leaderboard(self, interaction: discord.Interaction) -> None:
        """Post the first page of the server's leaderboard, with Previous / Next
        for the member who asked when there are more."""
        async def work() -> None:
            assert interaction.guild is not None
            guild_id = interaction.guild.id
            rows, total = await self.service.leaderboard(guild_id, 0, per_page=PER_PAGE)
            if not rows:
                await reply(interaction, "Nobody has finished a deal on this server yet.")
                return
            pages = -(-total // PER_PAGE)
            view = pager_view(guild_id, interaction.user.id, 0, pages)
            await say(interaction, embed=render.leaderboard_embed(rows, 0, total, PER_PAGE),
                      view=view or discord.utils.MISSING,
                      allowed_mentions=discord.AllowedMentions.none())
        await guarded(interaction, None, work, public=True)

    @app_commands.command(name="stats", description="A player's Commerce record on this server")
    @app_commands.describe(member="Whose record to show (default: yours)")
    async def stats(self, interaction: discord.Interaction,
                    member: discord.Member | None = None) -> None:
        """Show a member's balance, games, deals and best hand, the deals they won
        by the category of the winning hand, and per preset the knocks that ended
        a deal and how many of those they won, ephemerally."""
        async def work() -> None:
            assert interaction.guild is not None
            who = member or interaction.user
            s = await self.service.stats(interaction.guild.id, who.id)
            embed = discord.Embed(title=f"{who.display_name} at Commerce", colour=render.GREEN)
            embed.add_field(name="Balance", value=f"{s.balance:+d}")
            embed.add_field(name="Games", value=f"{s.games} played, {s.games_won} won")
            embed.add_field(name="Deals", value=f"{s.deals} played, {s.deals_won} won")
            embed.add_field(name="Best hand", value=s.best_label or "—")
            if s.won_by_category:
                embed.add_field(name="Deals won, by hand", inline=False, value=" · ".join(
                    f"{category} {n}" for category, n in s.won_by_category.items()))
            if s.knocks:
                embed.add_field(name="Knocks that ended a deal (made / won)", inline=False,
                                value="\n".join(f"{k.preset}: {k.knocks} / {k.knocks_won}"
                                                for k in s.knocks))
            await say(interaction, embed=embed, ephemeral=True)
        await guarded(interaction, None, work)


async def setup(bot: CommerceBot) -> None:
    """Extension entry point (``bot.load_extension``): add the ``Ledger`` cog."""
    await bot.add_cog(Ledger(bot))
