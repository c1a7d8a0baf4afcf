"""``/commerce rules``: how to play, for any preset, with an example; ``/commerce
about``: the bot itself, with its invite link (also logged at start)."""

from __future__ import annotations

import logging

import discord
from discord import app_commands

from bot.engine import PRESETS
from bot.i18n import _
from bot.interactions.commands import Subcommands
from bot.interactions.guard import guarded
from bot.process.app import CommerceBot
from bot.runtime.sending import say
from bot.service import UserError
from bot.ui import about as about_text
from bot.ui import help as help_text

log = logging.getLogger(__name__)


class Help(Subcommands):
    """``/commerce rules | about``."""

    def __init__(self, bot: CommerceBot) -> None:
        """The help commands of ``bot``; they join ``bot.commerce`` on load."""
        super().__init__(bot.commerce)
        self.bot = bot
        #: when the bot started (its cogs load as it starts)
        self.started = discord.utils.utcnow()

    @app_commands.command(name="rules", description="How to play Commerce (any preset)")
    @app_commands.describe(preset="Which rules to explain (default: foster)")
    @app_commands.autocomplete(preset=help_text.preset_autocomplete)
    async def rules(self, interaction: discord.Interaction, preset: str | None = None) -> None:
        """Explain the rules of a preset, ephemerally: foster in full, with an example."""
        async def work() -> None:
            name = (preset or "foster").strip().lower()
            if name == "foster":
                embeds = help_text.rules_embeds()
            elif name in PRESETS:
                r = PRESETS[name]
                embeds = [help_text.preset_embed(name, r.summary)]
            else:
                raise UserError(_("There is no preset called {name}. Try: {presets}.").format(
                    name=repr(name), presets=', '.join(PRESETS)))
            await say(interaction, embeds=embeds, ephemeral=True)
        await guarded(interaction, None, work)


    @app_commands.command(name="about",
                          description="The bot: version, uptime, servers, invite link, rules")
    async def about(self, interaction: discord.Interaction) -> None:
        """Show the bot's version, uptime, servers and tables, its invite link and
        where the rules and fairness docs are, ephemerally."""
        async def work() -> None:
            tables, games = await self.bot.service.tables_served()
            about = about_text.About(self.started, len(self.bot.guilds),
                                     len(self.bot.service.tables), tables, games,
                                     self.bot.application_id)
            await say(interaction, embed=about_text.about_embed(about), ephemeral=True)
        await guarded(interaction, None, work)


async def setup(bot: CommerceBot) -> None:
    """Extension entry point (``bot.load_extension``): add the ``Help`` cog, and log
    the invite link (the application is known once the bot has logged in)."""
    await bot.add_cog(Help(bot))
    if bot.application_id is not None:
        log.info("invite link: %s", about_text.invite_url(bot.application_id))
