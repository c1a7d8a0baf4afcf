"""``/commerce`` commands of the server's ledger: the leaderboard (of one preset,
one period, or all) and a member's figures. The leaderboard's Previous / Next
buttons carry its preset and period and are handled by the bot's control
handlers (``bot.interactions.ledger.LedgerHandlers.on_page``), which show the same pages.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.engine import PRESETS
from bot.i18n import _
from bot.interactions.commands import Subcommands
from bot.interactions.guard import guarded
from bot.interactions.ledger import PER_PAGE
from bot.process.app import CommerceBot
from bot.runtime.sending import reply, say
from bot.service import UserError
from bot.ui import ratings, standings
from bot.ui.components import MAX_SEASON, BoardFilter, pager_view

#: the leaderboard's periods, as the command offers them (UTC calendar weeks and months)
PERIOD_CHOICES = [
    app_commands.Choice(name="this week (from Monday 00:00 UTC)", value="week"),
    app_commands.Choice(name="this month (from the 1st, 00:00 UTC)", value="month"),
    app_commands.Choice(name="all time", value="all"),
]

#: what the leaderboard ranks by (docs/RATINGS.md)
BY_CHOICES = [
    app_commands.Choice(name="points", value="points"),
    app_commands.Choice(name="rating", value="rating"),
]


class Ledger(Subcommands):
    """``/commerce leaderboard | stats``."""

    def __init__(self, bot: CommerceBot) -> None:
        """The ledger commands of ``bot``; they join ``bot.commerce`` on load."""
        super().__init__(bot.commerce)
        self.bot = bot
        self.service = bot.service

    @app_commands.command(name="leaderboard",
                          description="Who is ahead on this server's ledger, by preset and period")
    @app_commands.describe(
        preset="Only games of this preset (default: every preset)",
        period="Only points won this UTC calendar week or month (default: all time)",
        by="Rank by points (default) or by skill rating",
        season="An earlier season of this server (default: the current one)")
    @app_commands.choices(period=PERIOD_CHOICES, by=BY_CHOICES)
    async def leaderboard(self, interaction: discord.Interaction, preset: str | None = None,
                          period: app_commands.Choice[str] | None = None,
                          by: app_commands.Choice[str] | None = None,
                          season: app_commands.Range[int, 1, MAX_SEASON] | None = None) -> None:
        """Post the first page of the server's leaderboard, counting only the
        ledger rows of ``preset``'s tables and of ``period`` (a calendar week from
        Monday 00:00 UTC, or a month from the 1st) when given, with Previous /
        Next for the member who asked when there are more; of the current season,
        or ``season``. ``by`` rating: the season's rating board instead
        (``rating_board``). An unknown preset or season gets a short ephemeral
        answer."""
        async def work() -> None:
            assert interaction.guild is not None
            guild_id = interaction.guild.id
            name = preset.strip().lower() if preset and preset.strip() else None
            if by is not None and by.value == "rating":
                await self.rating_board(interaction, name, period, season)
                return
            board = BoardFilter(period.value if period else "all", name, season)
            rows, total = await self.service.leaderboard(
                guild_id, 0, per_page=PER_PAGE, preset=board.preset, period=board.period,
                season=board.season)
            if not rows:
                counted, current = await self.service.season_of(guild_id, season)
                await reply(interaction, standings.empty_board(board.preset, board.period)
                            if current == 1 else ratings.empty_season(counted.number, current))
                return
            pages = -(-total // PER_PAGE)
            view = pager_view(guild_id, interaction.user.id, 0, pages, board)
            known = await self.service.member_names(guild_id, [m for m, _ in rows])
            embed = standings.leaderboard_embed(rows, 0, total, PER_PAGE, preset=board.preset,
                                                period=board.period, known=known,
                                                season=board.season)
            await say(interaction, embed=embed, view=view or discord.utils.MISSING,
                      allowed_mentions=discord.AllowedMentions.none())
        await guarded(interaction, None, work, public=True)

    async def rating_board(self, interaction: discord.Interaction, preset: str | None,
                           period: app_commands.Choice[str] | None, season: int | None) -> None:
        """Post the rating board of ``season`` (default: the current one) and
        ``preset`` (default: the season's most rated). Ratings count whole
        seasons: a period other than all time is refused (``UserError``)."""
        assert interaction.guild is not None
        if period is not None and period.value != "all":
            raise UserError(_("Ratings count whole seasons: leave the period out, or pick a "
                              "season."))
        board = await self.service.rating_board(interaction.guild.id, season=season,
                                                preset=preset)
        known = await self.service.member_names(interaction.guild.id,
                                                [m for m, _ in board.ranked])
        await say(interaction, embed=ratings.rating_embed(board, known),
                  allowed_mentions=discord.AllowedMentions.none())

    @leaderboard.autocomplete("preset")
    async def preset_autocomplete(self, interaction: discord.Interaction, current: str,
                                  ) -> list[app_commands.Choice[str]]:
        """The presets played on this server (every preset before the first game),
        whose name contains what was typed."""
        played = (await self.service.presets_played(interaction.guild.id)
                  if interaction.guild is not None else [])
        return standings.preset_choices(played or PRESETS, current)

    @app_commands.command(name="stats", description="A player's Commerce record on this server")
    @app_commands.describe(member="Whose record to show (default: yours)")
    async def stats(self, interaction: discord.Interaction,
                    member: discord.Member | None = None) -> None:
        """Show a member's balance, games, deals and best hand (with the deal it
        came from), the deals they won by the category of the winning hand, and
        per preset played the deals won, best hand, trades and barters, and the
        knocks that ended a deal and how many of those they won, ephemerally."""
        async def work() -> None:
            assert interaction.guild is not None
            who = member or interaction.user
            figures = await self.service.stats(interaction.guild.id, who.id)
            await say(interaction, embed=standings.stats_embed(who.display_name, figures),
                      ephemeral=True)
        await guarded(interaction, None, work)


async def setup(bot: CommerceBot) -> None:
    """Extension entry point (``bot.load_extension``): add the ``Ledger`` cog."""
    await bot.add_cog(Ledger(bot))
