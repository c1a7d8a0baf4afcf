"""A guild's seasons and its rating board (docs/RATINGS.md): which season a board
counts, the board of skill ratings (members ranked after ``MIN_GAMES`` games, the
AI levels beside them), and an admin starting the next season.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine import PRESETS
from ..i18n import _
from ..storage.ratings import SeasonRow
from .core import ServiceBase
from .errors import UserError
from .skill import MIN_GAMES, Shown


@dataclass(frozen=True)
class RatingBoard:
    """The rating board of one guild, season and preset.

    Attributes:
        season: the season shown; ``current``: the guild's current season.
        preset: the preset rated.
        ranked: ``(member_id, shown)`` of the members with ``MIN_GAMES`` rated
            games or more, by ordinal, highest first.
        unranked: members rated in fewer games, not ranked yet.
        levels: ``(ai_level, shown)`` of the AI levels rated, by ordinal.
    """

    season: int
    current: int
    preset: str
    ranked: list[tuple[int, Shown]]
    unranked: int
    levels: list[tuple[str, Shown]]


def pick_season(seasons: list[SeasonRow], season: int | None) -> SeasonRow:
    """Season ``season`` of ``seasons`` (a guild's, in order; ``None``: the current one).

    Raises:
        UserError: there is no such season.
    """
    current = seasons[-1].number
    if season is None:
        return seasons[-1]
    if not 1 <= season <= current:
        raise UserError(_("There is no season {season} on this server: the current one is "
                          "season {current}.").format(season=season, current=current))
    return seasons[season - 1]


class Seasons(ServiceBase):
    """Seasons and ratings of a guild (part of ``TableService``)."""

    async def season_of(self, guild_id: int, season: int | None) -> tuple[SeasonRow, int]:
        """Season ``season`` of the guild (``None``: its current one) and the number
        of the current one.

        Raises:
            UserError: the guild has no such season.
        """
        seasons = await self.storage.seasons(guild_id)
        return pick_season(seasons, season), seasons[-1].number

    async def rating_board(self, guild_id: int, *, season: int | None = None,
                           preset: str | None = None) -> RatingBoard:
        """The guild's rating board of ``season`` (``None``: the current one) and
        ``preset`` (``None``: the preset most rated in that season, else the
        server's default preset).

        Raises:
            UserError: an unknown preset or season.
        """
        if preset is not None and preset not in PRESETS:
            raise UserError(_("There is no preset by that name: pick one from the list."))
        row, current = await self.season_of(guild_id, season)
        if preset is None:
            rated = await self.storage.rated_presets(guild_id, row.number)
            preset = rated[0] if rated else (await self.storage.get_settings(guild_id)).default_preset
        ranked: list[tuple[int, Shown]] = []
        levels: list[tuple[str, Shown]] = []
        unranked = 0
        for r in await self.storage.skill_board(guild_id, row.number, preset):
            shown = Shown.of(r.mu, r.sigma, r.games)
            if r.player.ai_level:
                levels.append((r.player.ai_level, shown))
            elif r.games >= MIN_GAMES:
                ranked.append((r.player.member_id, shown))
            else:
                unranked += 1
        return RatingBoard(row.number, current, preset, ranked, unranked, levels)

    async def start_season(self, guild_id: int, member_id: int) -> int:
        """Begin the guild's next season (audited); returns its number. The boards
        count it from now on; earlier seasons stay as they were.

        Raises:
            StorageFailure: nothing changed.
        """
        async with self._unit(None):
            return await self.storage.start_season(guild_id, member_id)
