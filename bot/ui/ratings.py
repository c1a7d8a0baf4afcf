"""The rating board (``/commerce leaderboard by: rating``) and the confirmation of
``/commerce-admin season`` (docs/RATINGS.md). Members' names are shown through
``names`` like the points board: inert, beside their mention.
"""

from __future__ import annotations

import discord

from ..i18n import _, ngettext
from ..service import RatingBoard
from ..service.skill import MIN_GAMES, ORDINAL_SIGMAS, SHOWN_SIGMAS
from . import names
from .render import GOLD

#: members the rating board lists at most (the rest are counted)
BOARD_ROWS = 20


def rating_embed(board: RatingBoard, known: dict[int, str] | None = None) -> discord.Embed:
    """The rating board: the ranked members by ordinal with their rating and its
    uncertainty, how many are not ranked yet, and the AI levels' ratings.
    ``known``: members' names at their latest seat (see ``leaderboard_embed``)."""
    who = names.board_labels([member for member, _shown in board.ranked[:BOARD_ROWS]],
                             known or {})
    lines = [f"{i + 1}. {who[member]}: {shown.text()}"
             for i, (member, shown) in enumerate(board.ranked[:BOARD_ROWS])]
    if len(board.ranked) > BOARD_ROWS:
        more = len(board.ranked) - BOARD_ROWS
        lines.append(ngettext("… and {count} more player", "… and {count} more players",
                              more).format(count=more))
    if not lines:
        lines.append(_("Nobody has played {count} rated games of {preset} this season "
                       "yet.").format(count=MIN_GAMES, preset=board.preset))
    if board.unranked:
        lines.append("\n" + ngettext("{count} player with fewer than {games} rated games, not "
                                     "ranked yet.",
                                     "{count} players with fewer than {games} rated games, not "
                                     "ranked yet.", board.unranked).format(
                                         count=board.unranked, games=MIN_GAMES))
    season = (_("season {number}") if board.season == board.current
              else _("season {number} (over)")).format(number=board.season)
    embed = discord.Embed(title=_("Commerce ratings · {preset} · {season}").format(
                              preset=board.preset, season=season),
                          colour=GOLD, description="\n".join(lines))
    if board.levels:
        embed.add_field(name=_("AI levels"), inline=False, value="\n".join(
            f"{level}: {shown.text()}" for level, shown in board.levels))
    embed.set_footer(text=_("Ranked by mu − {sigmas}·sigma (shown first); in brackets "
                            "mu ± {shown}·sigma. Ranked after {games} rated games. "
                            "See docs/RATINGS.md.").format(
                                sigmas=ORDINAL_SIGMAS, shown=SHOWN_SIGMAS, games=MIN_GAMES))
    return embed


def empty_season(season: int, current: int) -> str:
    """The answer when the points board of ``season`` (``current``: the guild's
    current season) has nobody on it."""
    if season == current:
        return _("Nobody has won or lost points in season {number} yet.").format(number=season)
    return _("Nobody won or lost points in season {number}.").format(number=season)
