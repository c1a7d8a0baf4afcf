"""The rating board (``/commerce leaderboard by: rating``) and the confirmation of
``/commerce-admin season`` (docs/RATINGS.md). Members' names are shown through
``names`` like the points board: inert, beside their mention.
"""

from __future__ import annotations

import discord

from ..service import RatingBoard
from ..service.skill import MIN_GAMES, ORDINAL_SIGMAS, SHOWN_SIGMAS
from . import names
from .render import GOLD
from .words import plural

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
        lines.append(f"… and {plural(len(board.ranked) - BOARD_ROWS, 'more player')}")
    if not lines:
        lines.append(f"Nobody has played {MIN_GAMES} rated games of {board.preset} this season "
                     "yet.")
    if board.unranked:
        lines.append(f"\n{plural(board.unranked, 'player')} with fewer than {MIN_GAMES} rated "
                     "games, not ranked yet.")
    season = f"season {board.season}" + ("" if board.season == board.current else " (over)")
    embed = discord.Embed(title=f"Commerce ratings · {board.preset} · {season}", colour=GOLD,
                          description="\n".join(lines))
    if board.levels:
        embed.add_field(name="AI levels", inline=False, value="\n".join(
            f"{level}: {shown.text()}" for level, shown in board.levels))
    embed.set_footer(text=f"Ranked by mu − {ORDINAL_SIGMAS}·sigma (shown first); in brackets "
                          f"mu ± {SHOWN_SIGMAS}·sigma. Ranked after {MIN_GAMES} rated games. "
                          "See docs/RATINGS.md.")
    return embed


def empty_season(season: int, current: int) -> str:
    """The answer when the points board of ``season`` (``current``: the guild's
    current season) has nobody on it."""
    if season == current:
        return f"Nobody has won or lost points in season {season} yet."
    return f"Nobody won or lost points in season {season}."
