"""The rating board (``/commerce leaderboard by: rating``) and the confirmation of
``/commerce-admin season`` (docs/RATINGS.md). Members' names are shown through
``names`` like the points board: inert, beside their mention.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from ..i18n import N_, _
from ..service import RatingBoard
from ..service.skill import MIN_GAMES, ORDINAL_SIGMAS, SHOWN_SIGMAS
from . import names
from .components import CONFIRM_SECONDS, NOT_HERE, DynamicButton, Placed, handlers, view_of
from .render import GOLD
from .words import plural

#: members the rating board lists at most (the rest are counted)
BOARD_ROWS = 20


def rating_embed(board: RatingBoard, known: dict[int, str] | None = None) -> discord.Embed:
    """The rating board: the ranked members by ordinal with their rating and its
    uncertainty, how many are not ranked yet, and the AI levels' ratings.
    ``known``: members' names at their latest seat (see ``leaderboard_embed``)."""
    known = known or {}

    def who(member: int) -> str:
        name = names.member_label(known.get(member, ""))
        return f"{names.markdown_safe(name)} (<@{member}>)" if name else f"<@{member}>"
    lines = [f"{i + 1}. {who(member)}: {shown.text()}"
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


class SeasonButton(Placed, DynamicButton,
                   template=(r"commerce:season:(?P<guild>\d+):(?P<owner>\d+):(?P<expires>\d+)"
                             r":(?P<answer>confirm|cancel)")):
    """Confirm / Cancel of ``/commerce-admin season``. The id carries the guild,
    the manager who asked and when the question expires (unix seconds)."""

    LABELS = {"confirm": (N_("Start the new season"), discord.ButtonStyle.danger),
              "cancel": (N_("Cancel"), discord.ButtonStyle.secondary)}

    def __init__(self, guild_id: int, owner_id: int, expires: int, answer: str) -> None:
        """``answer`` (``confirm`` or ``cancel``) to ``owner_id``'s question in guild
        ``guild_id``, valid until ``expires`` (unix seconds)."""
        label, style = self.LABELS[answer]
        super().__init__(discord.ui.Button(
            label=_(label), style=style,
            custom_id=f"commerce:season:{guild_id}:{owner_id}:{expires}:{answer}"))
        self.guild_id, self.owner_id, self.expires, self.answer = guild_id, owner_id, expires, answer

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> SeasonButton:
        """Rebuild the button from its ``custom_id`` (discord.py calls this on a click)."""
        return cls(int(match["guild"]), int(match["owner"]), int(match["expires"]),
                   match["answer"])

    def refusal(self, interaction: discord.Interaction) -> str | None:
        """Refuse a click in another guild, or by anyone but the manager who asked."""
        if interaction.guild_id != self.guild_id:
            return NOT_HERE
        if interaction.user.id != self.owner_id:
            return _("This question is not for you.")
        return None

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the answer (Confirm: ``True``) to the handlers' ``on_season_answer``."""
        await handlers(interaction).on_season_answer(
            interaction, self.expires, self.answer == "confirm")


def season_view(guild_id: int, owner_id: int, now: float) -> discord.ui.View:
    """Confirm / Cancel of a new season asked at ``now`` (unix seconds), answerable
    for ``CONFIRM_SECONDS``."""
    expires = int(now) + CONFIRM_SECONDS
    return view_of(*(SeasonButton(guild_id, owner_id, expires, a) for a in ("confirm", "cancel")))
