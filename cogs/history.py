"""``/commerce history`` and ``/commerce export``: the server's finished games.

``review`` is the coach's private review of the member's own decisions in one of
them (``bot.interactions.review``). ``history`` lists them (newest first) and
opens a game, its deals and a replay of each deal, step by step; its buttons and
menu carry their state in their ids and are handled by the bot's control handlers
(``bot.interactions.history``). ``export`` sends a
finished game's record as a JSON file that ``python -m bot.engine replay`` and
``verify`` read. Only games whose table is no longer open are served: a running
game's decks and seeds stay secret (docs/FAIRNESS.md "In the bot").
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.interactions.commands import Subcommands
from bot.interactions.guard import guarded
from bot.interactions.history import history_message, send_export
from bot.interactions.review import open_review
from bot.process.app import CommerceBot
from bot.runtime.sending import say
from bot.ui.components import HistoryState

#: a table number as the commands take it
TableNumber = app_commands.Range[int, 1, 1_000_000_000]


class History(Subcommands):
    """``/commerce history | export | review``."""

    def __init__(self, bot: CommerceBot) -> None:
        """The history commands of ``bot``; they join ``bot.commerce`` on load."""
        super().__init__(bot.commerce)
        self.bot = bot
        self.service = bot.service

    @app_commands.command(name="history",
                          description="This server's finished games: deals, hands, replays")
    @app_commands.describe(table="Open this table's game at once (its number, as in commerce-3)")
    async def history(self, interaction: discord.Interaction,
                      table: TableNumber | None = None) -> None:
        """Show the finished games (or the game of table ``table``), only to the
        member who asked, with the controls to browse them."""
        async def work() -> None:
            assert interaction.guild is not None
            guild_id = interaction.guild.id
            state = HistoryState("list")
            if table is not None:
                past = await self.service.archive.find_past(guild_id, number=table)
                state = HistoryState("game", table=past.table_id)
            embed, view = await history_message(self.service, guild_id, state)
            await say(interaction, embed=embed, view=view or discord.utils.MISSING,
                      ephemeral=True)
        await guarded(interaction, None, work)

    @app_commands.command(name="export",
                          description="A finished game's record as a JSON file, to replay "
                                      "and verify")
    @app_commands.describe(table="The table's number (default: the last game of this channel)")
    async def export(self, interaction: discord.Interaction,
                     table: TableNumber | None = None) -> None:
        """Send the record of a finished game (table ``table``, or the last game
        that ended in this channel) to the member who asked; a running game is
        refused."""
        async def work() -> None:
            assert interaction.guild is not None
            guild_id = interaction.guild.id
            past = await self.service.archive.find_past(guild_id, number=table,
                                                channel_id=interaction.channel_id)
            await send_export(interaction, self.service, guild_id, past.table_id)
        await guarded(interaction, None, work)

    @app_commands.command(name="review",
                          description="The coach's review of your decisions in a finished game")
    @app_commands.describe(table="The table's number (default: your latest finished game)")
    async def review(self, interaction: discord.Interaction,
                     table: TableNumber | None = None) -> None:
        """Send the member their own review of a finished game (docs/AI.md
        "Review"), privately: each of their decisions, the coach's, the cost."""
        async def work() -> None:
            await open_review(interaction, self.service, number=table)
        await guarded(interaction, None, work)


async def setup(bot: CommerceBot) -> None:
    """Extension entry point (``bot.load_extension``): add the ``History`` cog."""
    await bot.add_cog(History(bot))
