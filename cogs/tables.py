"""``/commerce`` commands of a table: open, join, leave, start, add an AI, see
your hand, end, and the next-deal delay.

Commands are thin: they find the table, call the table service, answer, and
hand what changed to the bot's one step after every change (``bot.changes.after``),
as the buttons do.
"""

from __future__ import annotations

import contextlib
import logging

import discord
from discord import app_commands

from bot.engine import OPTIONS
from bot.engine.fairness import CUT_MAX
from bot.i18n import _, ngettext
from bot.interactions.commands import Subcommands
from bot.interactions.guard import guarded
from bot.process.app import CommerceBot
from bot.runtime.sending import reply, retrying, say
from bot.service import (
    DEFAULT_AI_LEVEL,
    LiveTable,
    PostedMessage,
    ServiceError,
    StorageFailure,
    UserError,
)
from bot.storage import waiting
from bot.timers.clock import still_member
from bot.ui import help as help_text
from bot.ui import proofs, render
from bot.ui.components import lobby_view

log = logging.getLogger(__name__)

#: the table options ``/commerce new`` offers, in its order; their bounds and
#: descriptions come from the rules' own table (``OPTIONS``, docs/RULES.md §2.8)
NEW_OPTIONS = ("deals_per_player", "direction", "chips", "fixed_rounds", "direct_trading",
               "open_trading", "dead_knock", "three_stake", "pounce")
DealsPerPlayer = app_commands.Range[
    int, OPTIONS["deals_per_player"].low, OPTIONS["deals_per_player"].high]
Chips = app_commands.Range[int, OPTIONS["chips"].low, OPTIONS["chips"].high]
FixedRounds = app_commands.Range[int, OPTIONS["fixed_rounds"].low, OPTIONS["fixed_rounds"].high]


class Tables(Subcommands):
    """``/commerce new | join | leave | start | addbot | hand | end | cut | delay``."""

    def __init__(self, bot: CommerceBot) -> None:
        """The commands of ``bot``'s tables; they join ``bot.commerce`` on load."""
        super().__init__(bot.commerce)
        self.bot = bot
        self.service = bot.service

    def here(self, interaction: discord.Interaction) -> LiveTable:
        """The open table in the interaction's channel.

        Raises:
            UserError: there is none.
        """
        live = self.service.in_channel(interaction.channel_id or 0)
        if live is None:
            raise UserError(_("There is no open table in this channel. Open one with /commerce new."))
        return live

    @app_commands.command(name="new", description="Open a new Commerce table and sit at it")
    @app_commands.describe(rules="Which Commerce (default: the server's, normally foster)",
                           coach="Players may press Hint for the coach's advice (default: on)",
                           **{name: OPTIONS[name].description for name in NEW_OPTIONS})
    @app_commands.autocomplete(rules=help_text.preset_autocomplete)
    @app_commands.choices(direction=[app_commands.Choice(name=label, value=value)
                                     for value, label in OPTIONS["direction"].values])
    async def new(self, interaction: discord.Interaction, rules: str | None = None,
                  deals_per_player: DealsPerPlayer | None = None,
                  direction: app_commands.Choice[str] | None = None,
                  chips: Chips | None = None,
                  fixed_rounds: FixedRounds | None = None,
                  direct_trading: bool | None = None, open_trading: bool | None = None,
                  dead_knock: bool | None = None, three_stake: bool | None = None,
                  pounce: bool | None = None, coach: bool = True) -> None:
        """Open a table: a channel under the Commerce category, a thread, or here."""
        async def work() -> None:
            assert interaction.guild is not None
            self.service.check_free(interaction.guild.id, interaction.user.id)
            if self.service.in_channel(interaction.channel_id or 0):
                raise UserError(_("A table is already open in this channel."))
            settings = await self.service.settings(interaction.guild.id)
            preset = (rules or settings.default_preset).strip().lower()
            options: dict[str, object] = {}
            if deals_per_player is not None:
                options["deals_per_player"] = deals_per_player
            if direction is not None:
                options["direction"] = direction.value
            extra = {"chips": chips, "fixed_rounds": fixed_rounds,
                     "direct_trading": direct_trading, "open_trading": open_trading,
                     "dead_knock": dead_knock, "three_stake": three_stake, "pounce": pounce}
            options.update({k: v for k, v in extra.items() if v is not None})
            self.service.check_rules(preset, options)
            await waiting.acknowledge()  # defers, unless a wait did already
            opened: list[discord.TextChannel | discord.Thread] = []

            async def open_here(number: int) -> tuple[int, str]:
                channel, kind = await self.bot.publisher.places.open(
                    interaction, settings.table_mode, number)
                opened.append(channel)
                return channel.id, kind

            try:  # the number, the channel and the table are made under one guild lock
                live = await self.service.create(
                    interaction.guild.id, interaction.channel_id or 0, interaction.user.id,
                    interaction.user.display_name, preset, options, settings.next_deal_delay,
                    open_place=open_here, coach=coach, max_tables=settings.max_tables)
            except ServiceError:  # refused, or not stored: a place opened for it goes
                for place in opened:
                    if place.id != interaction.channel_id:
                        with contextlib.suppress(discord.HTTPException):
                            await place.delete()
                raise
            place = opened[0]
            try:
                msg = await retrying(lambda: place.send(embed=render.lobby_embed(live),
                                                        view=lobby_view(live.id)),
                                     self.bot.metrics)
            except discord.HTTPException:
                # nothing half-made: the lobby closes (its channel goes) and the member
                # hears what Discord refused (``guarded``)
                await self.bot.after.show(await self.service.end(live.id, None, is_manager=True))
                raise
            await self.service.posted(live, PostedMessage("lobby", msg.id))
            try:  # the game's commitment, in a message of its own (never edited)
                await self.bot.publisher.commitments.post(self.service.get(live.id))
            except (discord.HTTPException, UserError, StorageFailure):
                log.warning("table %s: the fair-shuffle message waits for the next try",
                            live.id, exc_info=True)
            await interaction.followup.send(
                _("Your table is ready here. Invite players to press **Join**.")
                if place.id == interaction.channel_id else
                _("Your table is ready in {place}. Invite players to press **Join**.").format(
                    place=place.mention),
                ephemeral=True)
        await guarded(interaction, None, work)

    @app_commands.command(name="join", description="Sit at the table in this channel")
    async def join(self, interaction: discord.Interaction) -> None:
        """Sit the member at the table in this channel (lobby only)."""
        async def work() -> None:
            outcome = await self.service.join(self.here(interaction).id, interaction.user.id,
                                              interaction.user.display_name)
            await reply(interaction, _("You are seated. Wait for the host to press Start."))
            await self.bot.after.show(outcome, interaction)
        await guarded(interaction, None, work)

    @app_commands.command(name="leave", description="Leave the table you sit at (before it starts)")
    async def leave(self, interaction: discord.Interaction) -> None:
        """Take the member off the lobby they sit at (the next member hosts if the
        host leaves); a lobby left without human members closes, and a channel it
        got from the bot is made read-only (a thread is locked)."""
        async def work() -> None:
            assert interaction.guild is not None
            live = self.service.of_member(interaction.guild.id, interaction.user.id)
            if live is None:
                raise UserError(_("You are not seated at any table."))
            outcome = await self.service.leave(live.id, interaction.user.id)
            await reply(interaction, _("You left the table."))
            await self.bot.after.show(outcome, interaction)
        await guarded(interaction, None, work)

    @app_commands.command(name="start", description="Start the game at this table (host only)")
    async def start(self, interaction: discord.Interaction) -> None:
        """Start the game (host only, or anyone seated once the host left the
        server: ``Handlers.start``) and post the first deal's table message."""
        async def work() -> None:
            outcome = await self.bot.handlers.start(interaction, self.here(interaction).id)
            await reply(interaction, _("The game begins!"))
            await self.bot.after.show(outcome, interaction)
        await guarded(interaction, None, work)

    @app_commands.command(name="addbot", description="Add an AI player to the table in this channel")
    @app_commands.describe(level="How well it plays (default: easy)")
    @app_commands.choices(level=[
        app_commands.Choice(name="easy: simple rules of thumb", value="easy"),
        app_commands.Choice(name="normal: weighs its chances", value="normal"),
        app_commands.Choice(name="strong: thinks ahead (takes a moment)", value="strong"),
    ])
    async def addbot(self, interaction: discord.Interaction,
                     level: app_commands.Choice[str] | None = None) -> None:
        """Seat an AI player at the table in this channel, at ``level``."""
        async def work() -> None:
            outcome = await self.service.add_ai(self.here(interaction).id, interaction.user.id,
                                                level.value if level else DEFAULT_AI_LEVEL)
            live = outcome.live
            await reply(interaction, _("{name} sits down.").format(
                name=render.seat_name(live, len(live.seats) - 1)))
            await self.bot.after.show(outcome, interaction)
        await guarded(interaction, None, work)

    @app_commands.command(name="hand", description="Show your cards (only you can see them)")
    async def hand(self, interaction: discord.Interaction) -> None:
        """Show the member the cards they hold at their table in this server, ephemerally."""
        async def work() -> None:
            assert interaction.guild is not None
            live = self.service.of_member(interaction.guild.id, interaction.user.id)
            if live is None:
                raise UserError(_("You are not playing at any table."))
            await self.bot.handlers.show_hand(interaction, live.id)
        await guarded(interaction, None, work)

    @app_commands.command(name="end", description="Close the table in this channel (host or Manage Server)")
    async def end(self, interaction: discord.Interaction) -> None:
        """Close the table in this channel (its host, a member with Manage Server,
        or any seated member once the host has left the server): an unfinished
        deal is voided and refunded, a pot left over is shared."""
        async def work() -> None:
            member = interaction.user
            manager = isinstance(member, discord.Member) and member.guild_permissions.manage_guild
            here = self.here(interaction)
            gone = (not manager and member.id != here.row.host_id
                    and not await still_member(self.bot, here.row.guild_id, here.row.host_id))
            outcome = await self.service.end(here.id, member.id, manager, host_gone=gone)
            live = outcome.live
            voided = live.deal is not None and live.deal.voided
            shared = -sum(live.game.ledger) if live.game is not None else 0
            text = _("The table is closed.") + (
                " " + _("The unfinished deal was voided: its stakes and fees were refunded.")
                if voided else "") + proofs.end_reveal(live) + (
                " " + (ngettext("The {count} chip left in the pot was shared by the players still in.",
                                "The {count} chips left in the pot were shared by the players still in.",
                                shared) if live.rules.chips else
                       ngettext("The {count} point left in the pot was shared by the players still in.",
                                "The {count} points left in the pot were shared by the players still in.",
                                shared)).format(count=shared)
                if shared > 0 else "")
            await say(interaction, text)
            await self.bot.after.show(outcome, interaction)
        await guarded(interaction, None, work, public=True)

    @app_commands.command(name="cut", description="Add your own word to the next deal's shuffle")
    @app_commands.describe(text="Any word or number (up to 32 characters); everyone will see it")
    async def cut(self, interaction: discord.Interaction,
                  text: app_commands.Range[str, 1, CUT_MAX]) -> None:
        """Cut the next deal of the table in this channel (seated players)."""
        live = self.service.in_channel(interaction.channel_id or 0)
        if live is None:
            async def refuse() -> None:
                self.here(interaction)  # says there is no table here
            await guarded(interaction, None, refuse)
            return
        await self.bot.handlers.on_cut(interaction, live.id, text)

    @app_commands.command(name="delay", description="Seconds before the next deal starts by itself")
    @app_commands.describe(seconds="0 turns it off (then use the Next deal button); at most 600")
    async def delay(self, interaction: discord.Interaction,
                    seconds: app_commands.Range[int, 0, 600]) -> None:
        """Set this table's delay before the next deal starts by itself (host only)."""
        async def work() -> None:
            outcome = await self.service.set_delay(self.here(interaction).id, interaction.user.id,
                                                   seconds)
            await self.bot.after.show(outcome, interaction)  # a waiting next deal: the new delay
            delay = outcome.live.row.next_deal_delay
            text = (_("The next deal now starts {seconds} after a showdown.").format(
                        seconds=render.plural(delay, 'second'))
                    if seconds else _("The next deal now waits for the Next deal button."))
            await say(interaction, text)
        await guarded(interaction, None, work, public=True)


async def setup(bot: CommerceBot) -> None:
    """Extension entry point (``bot.load_extension``): add the ``Tables`` cog."""
    await bot.add_cog(Tables(bot))
