"""``/commerce rules``: how to play, for any preset, with an example."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.engine import PRESETS
from bot.i18n import _
from bot.interactions.commands import Subcommands
from bot.interactions.guard import guarded
from bot.process.app import CommerceBot
from bot.runtime.sending import say
from bot.service import UserError
from bot.ui import help as help_text


class Help(Subcommands):
    """``/commerce rules``."""

    def __init__(self, bot: CommerceBot) -> None:
        """The help command of ``bot``; it joins ``bot.commerce`` on load."""
        super().__init__(bot.commerce)
        self.bot = bot

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


async def setup(bot: CommerceBot) -> None:
    """Extension entry point (``bot.load_extension``): add the ``Help`` cog."""
    await bot.add_cog(Help(bot))
