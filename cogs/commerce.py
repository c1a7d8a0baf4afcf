"""The ``/commerce`` slash-command group: tables, hands, ledger and help.

Commands are thin: they find the table, call the table service and render.
"""

from __future__ import annotations

import contextlib
import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot import waiting
from bot.app import CommerceBot
from bot.engine import OPTIONS, PRESETS
from bot.service import LiveTable, UserError
from bot.ui import help as help_text
from bot.ui import render
from bot.ui.components import lobby_view, pager_view
from cogs.play import Play, edit, guarded, reply, say

log = logging.getLogger(__name__)

#: leaderboard lines per page
PER_PAGE = 10

#: the table options ``/commerce new`` offers, in its order; their bounds and
#: descriptions come from the rules' own table (``OPTIONS``, docs/RULES.md §2.8)
NEW_OPTIONS = ("deals_per_player", "direction", "chips", "fixed_rounds", "direct_trading",
               "open_trading", "dead_knock", "three_stake", "pounce")
DealsPerPlayer = app_commands.Range[
    int, OPTIONS["deals_per_player"].low, OPTIONS["deals_per_player"].high]
Chips = app_commands.Range[int, OPTIONS["chips"].low, OPTIONS["chips"].high]
FixedRounds = app_commands.Range[int, OPTIONS["fixed_rounds"].low, OPTIONS["fixed_rounds"].high]


@app_commands.guild_only()
class Commerce(commands.GroupCog, group_name="commerce",
               group_description="Play Commerce, the old three-card exchange game"):
    """Slash commands of Commerce."""

    def __init__(self, bot: CommerceBot) -> None:
        self.bot = bot
        self.service = bot.service
        super().__init__()

    @property
    def play(self) -> Play:
        cog = self.bot.get_cog("Play")
        assert isinstance(cog, Play)
        return cog

    def here(self, interaction: discord.Interaction) -> LiveTable:
        live = self.service.in_channel(interaction.channel_id or 0)
        if live is None:
            raise UserError("There is no open table in this channel. Open one with /commerce new.")
        return live

    # ------------------------------------------------------------ tables
    async def preset_autocomplete(self, interaction: discord.Interaction, current: str,
                                  ) -> list[app_commands.Choice[str]]:
        """Presets whose name matches what was typed, each with its one-line summary."""
        return await help_text.preset_autocomplete(interaction, current)

    @app_commands.command(name="new", description="Open a new Commerce table and sit at it")
    @app_commands.describe(rules="Which Commerce (default: the server's, normally foster)",
                           **{name: OPTIONS[name].description for name in NEW_OPTIONS})
    @app_commands.autocomplete(rules=preset_autocomplete)
    @app_commands.choices(direction=[app_commands.Choice(name=label, value=value)
                                     for value, label in OPTIONS["direction"].values])
    async def new(self, interaction: discord.Interaction, rules: str | None = None,
                  deals_per_player: DealsPerPlayer | None = None,
                  direction: app_commands.Choice[str] | None = None,
                  chips: Chips | None = None,
                  fixed_rounds: FixedRounds | None = None,
                  direct_trading: bool | None = None, open_trading: bool | None = None,
                  dead_knock: bool | None = None, three_stake: bool | None = None,
                  pounce: bool | None = None) -> None:
        """Open a table: a channel under the Commerce category, a thread, or here."""
        async def work() -> None:
            assert interaction.guild is not None
            self.service.check_free(interaction.guild.id, interaction.user.id)
            if self.service.in_channel(interaction.channel_id or 0):
                raise UserError("A table is already open in this channel.")
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
                channel, kind = await self.open_place(interaction, settings.table_mode, number)
                opened.append(channel)
                return channel.id, kind

            try:  # the number, the channel and the table are made under one guild lock
                live = await self.service.create(
                    interaction.guild.id, interaction.channel_id or 0, interaction.user.id,
                    interaction.user.display_name, preset, options, settings.next_deal_delay,
                    open_place=open_here)
            except UserError:
                for place in opened:
                    if place.id != interaction.channel_id:
                        with contextlib.suppress(discord.HTTPException):
                            await place.delete()
                raise
            place = opened[0]
            msg = await place.send(embed=render.lobby_embed(live), view=lobby_view(live.id))
            await self.service.set_message(live.id, lobby=msg.id)
            await interaction.followup.send(
                f"Your table is ready in {place.mention}. Invite players to press **Join**.",
                ephemeral=True)
        await guarded(interaction, None, work)

    async def open_place(self, interaction: discord.Interaction, mode: str, number: int,
                         ) -> tuple[discord.TextChannel | discord.Thread, str]:
        """Where a new table plays, by the guild's ``table_mode``; falls back from a
        channel to a thread when Manage Channels is missing. Returns the channel
        and what it is: ``channel`` or ``thread`` (made for the table) or ``here``.

        Raises:
            UserError: naming the permission that is missing.
        """
        guild = interaction.guild
        channel = interaction.channel
        assert guild is not None
        me = guild.me
        name = f"commerce-{number}"
        if mode == "here" and isinstance(channel, discord.TextChannel | discord.Thread):
            if not channel.permissions_for(me).send_messages:
                raise UserError("I need the **Send Messages** permission in this channel.")
            return channel, "here"
        if mode == "channel" and me.guild_permissions.manage_channels:
            try:
                category = discord.utils.get(guild.categories, name="Commerce")
                if category is None:
                    category = await guild.create_category("Commerce", reason="Commerce tables")
                made = await guild.create_text_channel(name, category=category,
                                                       reason="New Commerce table")
                return made, "channel"
            except discord.Forbidden:
                log.info("guild %s: cannot create a channel, trying a thread", guild.id)
        if isinstance(channel, discord.TextChannel):
            perms = channel.permissions_for(me)
            if perms.create_public_threads and perms.send_messages_in_threads:
                try:
                    thread = await channel.create_thread(
                        name=name, type=discord.ChannelType.public_thread,
                        reason="New Commerce table")
                    return thread, "thread"
                except discord.Forbidden:
                    pass
        raise UserError(
            "I cannot open a table: I need **Manage Channels** (to create a table channel) "
            "or **Create Public Threads** and **Send Messages in Threads** in this channel."
        )

    @app_commands.command(name="join", description="Sit at the table in this channel")
    async def join(self, interaction: discord.Interaction) -> None:  # noqa: D102
        async def work() -> None:
            live = await self.service.join(self.here(interaction).id, interaction.user.id,
                                           interaction.user.display_name)
            await reply(interaction, "You are seated. Wait for the host to press Start.")
            await self.play.refresh_lobby(live)
        await guarded(interaction, None, work)

    @app_commands.command(name="leave", description="Leave the table you sit at (before it starts)")
    async def leave(self, interaction: discord.Interaction) -> None:  # noqa: D102
        async def work() -> None:
            assert interaction.guild is not None
            live = self.service.of_member(interaction.guild.id, interaction.user.id)
            if live is None:
                raise UserError("You are not seated at any table.")
            left = await self.service.leave(live.id, interaction.user.id)
            await reply(interaction, "You left the table.")
            await self.play.refresh_lobby(left)
            if left.row.status == "closed":
                await self.play.close_channel(left)
        await guarded(interaction, None, work)

    @app_commands.command(name="start", description="Start the game at this table (host only)")
    async def start(self, interaction: discord.Interaction) -> None:  # noqa: D102
        async def work() -> None:
            live = await self.service.start(self.here(interaction).id, interaction.user.id)
            await reply(interaction, "The game begins!")
            await self.play.refresh_lobby(live)
            await self.play.post_deal(live)
        await guarded(interaction, None, work)

    @app_commands.command(name="addbot", description="Add an AI player to the table in this channel")
    async def addbot(self, interaction: discord.Interaction) -> None:  # noqa: D102
        async def work() -> None:
            live = await self.service.add_ai(self.here(interaction).id, interaction.user.id)
            await reply(interaction, f"{render.seat_name(live, len(live.seats) - 1)} sits down.")
            await self.play.refresh_lobby(live)
        await guarded(interaction, None, work)

    @app_commands.command(name="hand", description="Show your cards (only you can see them)")
    async def hand(self, interaction: discord.Interaction) -> None:  # noqa: D102
        async def work() -> None:
            assert interaction.guild is not None
            live = self.service.of_member(interaction.guild.id, interaction.user.id)
            if live is None:
                raise UserError("You are not playing at any table.")
            await self.play.show_hand(interaction, live.id)
        await guarded(interaction, None, work)

    @app_commands.command(name="end", description="Close the table in this channel (host or Manage Server)")
    async def end(self, interaction: discord.Interaction) -> None:  # noqa: D102
        async def work() -> None:
            member = interaction.user
            manager = isinstance(member, discord.Member) and member.guild_permissions.manage_guild
            here = self.here(interaction)
            gone = (not manager and member.id != here.row.host_id
                    and not await self.play.still_member(here.row.guild_id, here.row.host_id))
            live = await self.service.end(here.id, member.id, manager, host_gone=gone)
            self.play.forget(live.id)
            voided = live.deal is not None and live.deal.voided
            shared = -sum(live.game.ledger) if live.game is not None else 0
            text = "The table is closed." + (
                " The unfinished deal was voided: its stakes and fees were refunded."
                if voided else "") + (
                f" The {shared} point(s) left in the pot were shared by the players still in."
                if shared > 0 else "")
            await say(interaction, text)
            await self.play.refresh_lobby(live)
            if live.row.table_message_id is not None:
                with contextlib.suppress(discord.HTTPException):
                    await self.play.channel(live).get_partial_message(
                        live.row.table_message_id).edit(view=None)
            await self.play.close_channel(live)
        await guarded(interaction, None, work, public=True)

    @app_commands.command(name="delay", description="Seconds before the next deal starts by itself")
    @app_commands.describe(seconds="0 turns it off (then use the Next deal button); at most 600")
    async def delay(self, interaction: discord.Interaction,
                    seconds: app_commands.Range[int, 0, 600]) -> None:  # noqa: D102
        async def work() -> None:
            live = await self.service.set_delay(self.here(interaction).id, interaction.user.id, seconds)
            self.play.reschedule_next(live)
            text = (f"The next deal now starts {live.row.next_deal_delay} seconds after a showdown."
                    if seconds else "The next deal now waits for the Next deal button.")
            await say(interaction, text)
        await guarded(interaction, None, work, public=True)

    # ------------------------------------------------------------ ledger
    @app_commands.command(name="leaderboard", description="Who is ahead on this server's ledger")
    async def leaderboard(self, interaction: discord.Interaction) -> None:  # noqa: D102
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

    async def on_page(self, interaction: discord.Interaction, guild_id: int, page: int) -> None:
        """Previous / Next pressed under a leaderboard: show page ``page`` (0-based)
        as the ledger stands now."""
        async def work() -> None:
            rows, total = await self.service.leaderboard(guild_id, page, per_page=PER_PAGE)
            if not rows:
                raise UserError(f"Page {page + 1} of the leaderboard is empty now: the ledger "
                                "has changed. Run /commerce leaderboard again.")
            pages = -(-total // PER_PAGE)
            await edit(interaction, embed=render.leaderboard_embed(rows, page, total, PER_PAGE),
                       view=pager_view(guild_id, interaction.user.id, page, pages),
                       allowed_mentions=discord.AllowedMentions.none())
        await guarded(interaction, None, work)

    @app_commands.command(name="stats", description="A player's Commerce record on this server")
    @app_commands.describe(member="Whose record to show (default: yours)")
    async def stats(self, interaction: discord.Interaction,
                    member: discord.Member | None = None) -> None:  # noqa: D102
        async def work() -> None:
            assert interaction.guild is not None
            who = member or interaction.user
            s = await self.service.stats(interaction.guild.id, who.id)
            embed = discord.Embed(title=f"{who.display_name} at Commerce", colour=render.GREEN)
            embed.add_field(name="Balance", value=f"{s.balance:+d}")
            embed.add_field(name="Games", value=f"{s.games} played, {s.games_won} won")
            embed.add_field(name="Deals", value=f"{s.deals} played, {s.deals_won} won")
            embed.add_field(name="Best hand", value=s.best_label or "—")
            await say(interaction, embed=embed, ephemeral=True)
        await guarded(interaction, None, work)

    # -------------------------------------------------------------- help
    @app_commands.command(name="rules", description="How to play Commerce (any preset)")
    @app_commands.describe(preset="Which rules to explain (default: foster)")
    @app_commands.autocomplete(preset=preset_autocomplete)
    async def rules(self, interaction: discord.Interaction, preset: str | None = None) -> None:  # noqa: D102
        async def work() -> None:
            name = (preset or "foster").strip().lower()
            if name == "foster":
                embeds = help_text.rules_embeds()
            elif name in PRESETS:
                r = PRESETS[name]
                embeds = [help_text.preset_embed(name, r.summary)]
            else:
                raise UserError(f"There is no preset called {name!r}. Try: {', '.join(PRESETS)}.")
            await say(interaction, embeds=embeds, ephemeral=True)
        await guarded(interaction, None, work)


async def setup(bot: CommerceBot) -> None:  # noqa: D103
    await bot.add_cog(Commerce(bot))
