"""The server's standings: the leaderboard's pages (by preset and period) and a
member's ``/commerce stats``, rendered from storage rows only.

Everything here comes from finished deals and the ledger, so no card shown was
hidden when it is shown: a best hand is a hand laid down at its showdown.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable

import discord
from discord import app_commands

from ..engine import PRESETS
from ..i18n import N_, _
from ..service.queries import PERIODS, period_start
from ..storage import MemberStats, PresetStats
from ..storage.models import BestHand
from . import names
from .help import clip
from .render import GOLD, GREEN
from .words import hand_words, plural, signed

#: how the footer names the start of each period (UTC calendar)
PERIOD_STARTS = {"week": N_("since Monday 00:00 UTC"), "month": N_("since the 1st, 00:00 UTC")}


#: the hand categories as records name them (``category_name``), for the catalog
CATEGORIES = (N_("four"), N_("tricon"), N_("sequence"), N_("flush"), N_("pair"), N_("point"),
              N_("none"))
#: the leaderboard's periods (``PERIODS``), for the catalog
PERIOD_WORDS = (N_("this week"), N_("this month"), N_("all time"))


def board_scope(preset: str | None, period: str) -> str:
    """What a leaderboard counts, as words: ``""`` (everything), ``"foster"``,
    ``"this week"`` or ``"foster, this week"``."""
    parts = ([preset] if preset else []) + ([_(PERIODS[period])] if period != "all" else [])
    return ", ".join(parts)


def empty_board(preset: str | None, period: str) -> str:
    """The answer when a leaderboard has nobody on it."""
    scope = board_scope(preset, period)
    if not scope:
        return _("Nobody has finished a deal on this server yet.")
    return _("Nobody is on this server's leaderboard for {scope} yet.").format(scope=scope)


def leaderboard_embed(rows: list[tuple[int, int]], page: int, total: int, per_page: int, *,
                      preset: str | None = None, period: str = "all",
                      now: datetime.datetime | None = None,
                      known: dict[int, str] | None = None,
                      season: int | None = None) -> discord.Embed:
    """Page ``page`` (0-based) of the guild's ledger: ``rows`` are that page's
    ``(member_id, balance)`` pairs (points), ``total`` the number of members
    ranked. A board of one ``preset`` or ``period`` says so in its title, and
    its footer gives the period's start (UTC; ``now`` defaults to the present).
    ``known``: members' names at their latest seat, each shown once, readable
    and inert, look-alikes told apart (``names.board_labels``). ``season``: a
    season asked for by its number, named in the title."""
    who = names.board_labels([member for member, _balance in rows], known or {})
    lines = [f"{page * per_page + i + 1}. {who[member]}: {signed(balance)}"
             for i, (member, balance) in enumerate(rows)]
    scope = board_scope(preset, period)
    title = (_("Commerce leaderboard") + (f" · {scope}" if scope else "")
             + (" · " + _("season {number}").format(number=season) if season is not None else ""))
    embed = discord.Embed(title=title, colour=GOLD, description="\n".join(lines))
    pages = max(1, -(-total // per_page))
    footer = _("Page {page} of {pages}").format(page=page + 1, pages=pages) + (
        f" · {plural(total, 'player')}")
    since = period_start(period, now or discord.utils.utcnow())
    if since is not None:
        footer += f" · {_(PERIODS[period])}: {_(PERIOD_STARTS[period])} ({since:%Y-%m-%d})"
    embed.set_footer(text=footer)
    return embed


def preset_choices(names: Iterable[str], current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete choices of the presets ``names`` whose name contains what was
    typed (``current``), each with its one-line summary (at most 25, Discord's limit)."""
    typed = current.strip().lower()
    return [app_commands.Choice(name=clip(f"{name} — {PRESETS[name].summary}", 100), value=name)
            for name in names if name in PRESETS and typed in name][:25]


def when(stamp: str | None) -> str:
    """The date of an ISO 8601 UTC time, ``YYYY-MM-DD`` (``an unknown date``)."""
    return stamp[:10] if stamp else _("an unknown date")


def best_text(best: BestHand, *, preset: bool = True) -> str:
    """A best hand and the deal it came from: ``tricon of kings — foster, table 3,
    deal 2, 2025-06-01`` (without the preset when ``preset`` is false)."""
    where = _("table {number}, deal {deal}, {date}").format(
        number=best.table_number, deal=best.deal_number, date=when(best.finished_at))
    return f"{hand_words(best.label)} — {best.preset + ', ' if preset else ''}{where}"


def categories_text(counts: dict[str, int]) -> str:
    """Deals won by the category of the winning hand: ``tricon: 2 deals ·
    point: 1 deal`` (a count never reads as a hand, as ``point 1`` would)."""
    return " · ".join(_("{category}: {deals}").format(category=_(category), deals=plural(n, "deal"))
                      for category, n in counts.items())


def preset_lines(presets: list[PresetStats]) -> dict[str, list[str]]:
    """The per-preset fields of ``stats_embed``: field name → one line per preset."""
    fields: dict[str, list[str]] = {}

    def add(name: str, line: str) -> None:
        fields.setdefault(name, []).append(line)

    for p in presets:
        won = f"{p.preset}: " + _("{won} of {deals}").format(won=p.deals_won, deals=p.deals)
        add(_("Deals won, by preset"), won + (f" ({categories_text(p.won_by_category)})"
                                              if p.won_by_category else ""))
        if p.best is not None and len(presets) > 1:
            add(_("Best hand, by preset"), f"{p.preset}: {best_text(p.best, preset=False)}")
        if p.trades or p.barters:
            add(_("Trades and barters"),
                f"{p.preset}: {plural(p.trades, 'trade')} · "
                + _("{barters} offered, {accepted} accepted").format(
                    barters=plural(p.barters, 'barter'), accepted=p.barters_accepted))
        if p.knocks:
            add(_("Knocks that ended a deal (made / won)"),
                f"{p.preset}: {p.knocks} / {p.knocks_won}")
    return fields


def stats_embed(name: str, stats: MemberStats) -> discord.Embed:
    """``/commerce stats`` of the member called ``name``: balance (points), games,
    deals and the best hand with its deal; deals won by the category of the
    winning hand; and per preset played, deals won, best hand, trades and
    barters, and the knocks that ended a deal."""
    s = stats
    embed = discord.Embed(title=_("{name} at Commerce").format(
        name=names.markdown_safe(names.member_label(name) or _('A member'))), colour=GREEN)
    embed.add_field(name=_("Balance"), value=signed(s.balance))
    embed.add_field(name=_("Games"), value=_("{played} played, {won} won").format(
        played=s.games, won=s.games_won))
    embed.add_field(name=_("Deals"), value=_("{played} played, {won} won").format(
        played=s.deals, won=s.deals_won))
    embed.add_field(name=_("Best hand"), inline=False,
                    value=best_text(s.best) if s.best else hand_words(s.best_label or "—"))
    if s.won_by_category:
        embed.add_field(name=_("Deals won, by hand"), inline=False,
                        value=categories_text(s.won_by_category))
    for field, lines in preset_lines(s.presets).items():
        embed.add_field(name=field, inline=False, value=clip("\n".join(lines), 1024))
    return embed
