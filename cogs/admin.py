"""``/commerce-admin``: server settings, stuck tables, the server's export and the ledger
reset.

A top-level group of its own so that Discord hides it from members without
**Manage Server** (default member permissions apply to top-level commands
only); every command still checks the permission when it runs.
"""

from __future__ import annotations

import io
import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import N_, _, ngettext
from bot.interactions.guard import guarded, require_manager
from bot.process.app import CommerceBot
from bot.runtime.sending import reply
from bot.service import (
    EXPORT_MAX_BYTES,
    SLOW_TURN,
    UPLOAD_MARGIN,
    ExportTooSoon,
    ServerExport,
    UserError,
    size_text,
    turn_hours_seconds,
)
from bot.ui import help as help_text
from bot.ui import render
from bot.ui.components import confirm_view

log = logging.getLogger(__name__)

#: where tables open, as the settings' answer says it
WHERE = {"channel": N_("a new channel"), "thread": N_("a thread"), "here": N_("the current channel")}
#: the languages of the ``language`` setting, by their own names
LANGUAGE_NAMES = {"en": "English", "de": "Deutsch", "fr": "Français", "es": "Español"}


def export_text(made: ServerExport, limit: int) -> str:
    """What the admin is told with the export file (``limit``: its largest size,
    bytes), in their language."""
    games = ngettext("{count} finished game", "{count} finished games",
                     made.games).format(count=made.games)
    text = _("This server's Commerce data: its settings, {entries}, the balances of {members} "
             "and {games} (each as `/commerce export` gives it: check one with `python -m "
             "bot.engine verify games/commerce-table-<n>.json`).").format(
                 entries=ngettext("{count} ledger entry", "{count} ledger entries",
                                  made.ledger_rows).format(count=made.ledger_rows),
                 members=ngettext("{count} member", "{count} members",
                                  made.members).format(count=made.members),
                 games=games)
    if made.games_left_out:
        text += " " + _("All of it would be more than the {size} the bot may upload here: the "
                        "file holds the most recent {games}, and {left}").format(
                            size=size_text(limit), games=games,
                            left=ngettext("{count} older one was left out.",
                                          "{count} older ones were left out.",
                                          made.games_left_out).format(count=made.games_left_out))
    if made.open_tables:
        text += " " + _("Open tables are listed by number and status only.")
    return text + " " + _("Next export possible {when}.").format(
        when=discord.utils.format_dt(made.next_at, "R"))


def timer_change(seconds: int | None, hours: int | None) -> dict[str, int]:
    """The turn timer a settings command asks for: ``turn_timer`` in seconds, or
    ``turn_hours`` (slow games, issue 24 §4, checked here so that a value out of
    range gets a friendly answer); ``{}`` for neither.

    Raises:
        UserError: both, or hours out of range.
    """
    if hours is None:
        return {} if seconds is None else {"turn_timer": seconds}
    if seconds is not None:
        raise UserError(_("Give turn_timer (seconds) or turn_hours, not both."))
    return {"turn_timer": turn_hours_seconds(hours)}


def timer_text(seconds: int) -> str:
    """The turn timer as the settings say it: seconds, hours for a slow one, or off."""
    if not seconds:
        return _("**off**")
    if seconds >= SLOW_TURN and seconds % 3600 == 0:
        return _("**{hours} h** per move, with a reminder halfway").format(hours=seconds // 3600)
    return _("**{seconds} s** per move").format(seconds=seconds)


@app_commands.guild_only()
@app_commands.default_permissions(manage_guild=True)
class Admin(commands.GroupCog, group_name="commerce-admin",
            group_description="Commerce server settings and upkeep (Manage Server)"):
    """Commands for members with Manage Server."""

    def __init__(self, bot: CommerceBot) -> None:
        """The ``/commerce-admin`` group of ``bot``."""
        self.bot = bot
        self.service = bot.service
        super().__init__()

    @app_commands.command(name="settings", description="Show or change the server's Commerce settings")
    @app_commands.autocomplete(default_preset=help_text.preset_autocomplete)
    @app_commands.describe(
        tables_open_in="Where /commerce new opens a table",
        next_deal_delay="Default seconds before the next deal starts by itself (0 = off)",
        turn_timer="Seconds a player has for a move before the AI plays it (0 = off)",
        default_preset="The rules /commerce new uses when none is given",
        keep_days="Days a finished game's channel is kept before it is removed (0 = for ever)",
        max_tables="Open tables (lobbies and games) the server may have at once",
        language="The language of public messages and pictures (default: the server's)",
        turn_hours="Hours a player has for a move, for slow games (1-72; instead of turn_timer)")
    @app_commands.choices(tables_open_in=[
        app_commands.Choice(name="a new channel under the Commerce category", value="channel"),
        app_commands.Choice(name="a thread in the current channel", value="thread"),
        app_commands.Choice(name="the current channel", value="here"),
    ])
    @app_commands.choices(language=[
        app_commands.Choice(name="the server's Discord language", value="server"),
        app_commands.Choice(name="English", value="en"),
        app_commands.Choice(name="Deutsch", value="de"),
        app_commands.Choice(name="Français", value="fr"),
        app_commands.Choice(name="Español", value="es"),
    ])
    async def settings(self, interaction: discord.Interaction,
                       tables_open_in: app_commands.Choice[str] | None = None,
                       next_deal_delay: app_commands.Range[int, 0, 600] | None = None,
                       turn_timer: app_commands.Range[int, 0, 3600] | None = None,
                       default_preset: str | None = None,
                       keep_days: app_commands.Range[int, 0, 365] | None = None,
                       max_tables: app_commands.Range[int, 1, 50] | None = None,
                       language: app_commands.Choice[str] | None = None,
                       turn_hours: int | None = None) -> None:
        """Guild settings, checked at run time for Manage Server. ``turn_hours``
        (slow games, issue 24 §4) is checked here, so a value out of range gets a
        friendly answer."""
        async def work() -> None:
            assert interaction.guild is not None
            member = require_manager(interaction)
            changes: dict[str, object] = {}
            changes.update(timer_change(turn_timer, turn_hours))
            if default_preset is not None:
                preset = default_preset.strip().lower()
                self.service.check_rules(preset, {})
                changes["default_preset"] = preset
            if tables_open_in is not None:
                changes["table_mode"] = tables_open_in.value
            if next_deal_delay is not None:
                changes["next_deal_delay"] = next_deal_delay
            if keep_days is not None:
                changes["keep_days"] = keep_days
            if max_tables is not None:
                changes["max_tables"] = max_tables
            if language is not None:
                changes["language"] = "" if language.value == "server" else language.value
            if changes:
                s = await self.service.update_settings(interaction.guild.id, member.id, **changes)
            else:
                s = await self.service.settings(interaction.guild.id)
            where = _(WHERE[s.table_mode])
            timer = timer_text(s.turn_timer)
            kept = (f"**{render.plural(s.keep_days, 'day')}**" if s.keep_days
                    else _("**for ever**"))
            text = _("Tables open in **{where}**; the next deal starts "
                     "**{delay} s** after a showdown (0 = button only); "
                     "turn timer {timer}; default rules **{preset}**; "
                     "finished games' channels kept {kept}; at most "
                     "**{tables}** open tables.").format(
                         where=where, delay=s.next_deal_delay, timer=timer, preset=s.default_preset,
                         kept=kept, tables=s.max_tables)
            if s.language:  # said only once set: the English answer stays as it was
                text += " " + _("Public messages are in **{language}**.").format(
                    language=LANGUAGE_NAMES[s.language])
            await reply(interaction, text)
        await guarded(interaction, None, work)

    @app_commands.command(name="cancel", description="Close a stuck table; its unfinished deal is refunded")
    @app_commands.describe(table="The table number (the n of commerce-n)")
    async def cancel(self, interaction: discord.Interaction, table: int) -> None:
        """Close the server's open table number ``table``; its unfinished deal is refunded."""
        async def work() -> None:
            assert interaction.guild is not None
            member = require_manager(interaction)
            live = next((t for t in self.service.tables.values()
                         if t.row.guild_id == interaction.guild.id and t.row.number == table), None)
            if live is None:
                raise UserError(_("There is no open table number {number} on this server.").format(
                    number=table))
            outcome = await self.service.end(live.id, member.id, is_manager=True)
            await reply(interaction, _("Table {number} is closed; any unfinished deal was refunded.").format(
                number=table))
            await self.bot.after.show(outcome, interaction)
        await guarded(interaction, None, work)

    @app_commands.command(name="export",
                          description="This server's settings, ledger and finished games as a "
                                      "file, only to you")
    async def export(self, interaction: discord.Interaction) -> None:
        """Send the server's own data (``TableService.exports.export_server``: a zip of JSON
        files) to the admin who asked, ephemerally; once per ``EXPORT_INTERVAL``
        per server, whoever asks (a press within it is told when the next is
        possible, and nothing is read)."""
        async def work() -> None:
            assert interaction.guild is not None
            member = require_manager(interaction)
            limit = min(EXPORT_MAX_BYTES, interaction.filesize_limit - UPLOAD_MARGIN)
            try:
                made = await self.service.exports.export_server(
                    interaction.guild.id, member.id, now=discord.utils.utcnow(), max_bytes=limit)
            except ExportTooSoon as soon:
                await reply(interaction, _("This server's data was exported {last}: the next "
                                           "export is possible {next}.").format(
                                               last=discord.utils.format_dt(soon.last, 'R'),
                                               next=discord.utils.format_dt(soon.next_at, 'R')))
                return
            await reply(interaction, export_text(made, limit),
                        file=discord.File(io.BytesIO(made.data), filename=made.filename))
        await guarded(interaction, None, work)

    @app_commands.command(name="reset-ledger", description="Set every balance on this server back to zero")
    async def reset_ledger(self, interaction: discord.Interaction) -> None:
        """Ask to confirm (Confirm / Cancel, answerable for a minute, even across a
        restart); the reset itself happens when Confirm is pressed
        (``bot.interactions.handlers.Handlers.on_reset_answer``)."""
        async def work() -> None:
            assert interaction.guild is not None
            member = require_manager(interaction)
            now = discord.utils.utcnow().timestamp()
            await reply(interaction,
                        _("Reset every Commerce balance on this server to zero? The history is kept; "
                          "offsetting entries are added to the ledger."),
                        view=confirm_view("reset", interaction.guild.id, member.id, now))
        await guarded(interaction, None, work)

    @app_commands.command(name="season",
                          description="Start a new season: the leaderboards count it from now on")
    async def season(self, interaction: discord.Interaction) -> None:
        """Ask to confirm (answerable for a minute, even across a restart); the
        season begins when Confirm is pressed (``bot.ui.components.ConfirmButton``)."""
        async def work() -> None:
            assert interaction.guild is not None
            member = require_manager(interaction)
            now = discord.utils.utcnow().timestamp()
            current = (await self.service.season_of(interaction.guild.id, None))[1]
            await reply(interaction,
                        _("Start season {next} on this server? Points and ratings on the "
                          "leaderboards start again from nothing; season {current} stays "
                          "readable with `/commerce leaderboard season:`.").format(
                              next=current + 1, current=current),
                        view=confirm_view("season", interaction.guild.id, member.id, now))
        await guarded(interaction, None, work)


async def setup(bot: CommerceBot) -> None:
    """Extension entry point (``bot.load_extension``): add the ``Admin`` cog."""
    await bot.add_cog(Admin(bot))
