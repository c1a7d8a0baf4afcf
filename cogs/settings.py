"""``/commerce settings``: a member's own settings on this server, answered only to
them. Today the deck their own cards are shown in: two colours (the server's, as
everyone sees the table) or four (``bot.i18n.deck``), kept by the bot
(``TableService.set_deck``) and used from the member's next click on.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.i18n import N_, _, deck
from bot.interactions.commands import Subcommands
from bot.interactions.guard import guarded
from bot.process.app import CommerceBot
from bot.runtime.sending import reply
from bot.ui.cards import hand_label

#: how the answer names each deck
DECK_NAMES = {deck.TWO: N_("two colours"), deck.FOUR: N_("four colours")}
#: the cards the answer shows in the chosen deck: one of each suit (A♠ K♥ Q♦ J♣)
SAMPLE = (51, 46, 41, 36)


def settings_text(chosen: str) -> str:
    """The answer: the member's deck and four cards in it (worded and drawn in
    ``chosen``)."""
    with deck.use(chosen):
        return _("Your cards are shown in **{deck}**: {cards}. Everyone else, and every "
                 "public message and picture, keeps the server's two colours.").format(
                     deck=_(DECK_NAMES[chosen]), cards=hand_label(SAMPLE))


class Settings(Subcommands):
    """``/commerce settings``."""

    def __init__(self, bot: CommerceBot) -> None:
        """The member settings command of ``bot``; it joins ``bot.commerce`` on load."""
        super().__init__(bot.commerce)
        self.bot = bot

    @app_commands.command(name="settings", description="Your own Commerce settings on this server")
    @app_commands.describe(deck="The colours of your own cards: your hand, panel, buttons and menus")
    @app_commands.choices(deck=[
        app_commands.Choice(name="two colours (black and red)", value="two"),
        app_commands.Choice(name="four colours (black, red, blue, green)", value="four"),
    ])
    async def settings(self, interaction: discord.Interaction,
                       deck: app_commands.Choice[str] | None = None) -> None:
        """Show, or change, the member's own settings, ephemerally."""
        async def work() -> None:
            assert interaction.guild_id is not None
            service = self.bot.service
            if deck is not None:
                chosen = await service.set_deck(interaction.guild_id, interaction.user.id,
                                                deck.value)
            else:
                chosen = await service.deck(interaction.guild_id, interaction.user.id)
            await reply(interaction, settings_text(chosen))
        await guarded(interaction, None, work)


async def setup(bot: CommerceBot) -> None:
    """Extension entry point (``bot.load_extension``): add the ``Settings`` cog."""
    await bot.add_cog(Settings(bot))
