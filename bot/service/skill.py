"""The rating model (docs/RATINGS.md): OpenSkill's Plackett-Luce model, the order a
finished game ranks its seats in, and what a rating shows. Pure functions of the
engine's game and of numbers; the storage runs ``rate`` inside the transaction that
finishes the game (``bot.storage.ratings``).
"""

from __future__ import annotations

from dataclasses import dataclass

from openskill.models import PlackettLuce

from ..engine import Game
from ..i18n import ngettext
from ..storage import AnyStorage, SeatRow
from ..storage.ratings import Player
from .live import LiveTable

#: rated games a member needs before the rating board ranks them
MIN_GAMES = 5
#: how many sigmas the ordinal (the board's order) takes off mu: the skill the
#: player has at least, with about 99.9 % confidence under the model
ORDINAL_SIGMAS = 3
#: the half-width of the interval shown beside it, in sigmas (about 95 %)
SHOWN_SIGMAS = 2

#: the model: OpenSkill's defaults (mu 25, sigma 25/3 for a first game)
MODEL = PlackettLuce()


def rate(before: list[tuple[float, float] | None], ranks: list[int]) -> list[tuple[float, float]]:
    """The players' ``(mu, sigma)`` after one game (``bot.storage.ratings.Rater``):
    ``before`` their ratings (``None``: the model's first rating), ``ranks`` their
    places (1 is first; ties share a place), each player a team of one.

    Raises:
        ValueError: fewer than two players, or the lists differ in length.
    """
    if len(before) < 2 or len(before) != len(ranks):
        raise ValueError("a rated game needs two players or more, one rank each")
    teams = [[MODEL.rating() if r is None else MODEL.rating(mu=r[0], sigma=r[1])]
             for r in before]
    after = MODEL.rate(teams, ranks=[float(r) for r in ranks])
    return [(team[0].mu, team[0].sigma) for team in after]


def final_ranks(game: Game) -> list[int]:
    """Each seat's place in the game's final standings (1 is first): the winners
    first, then by final balance (docs/RULES.md §1 "Game length"); seats with the
    same standing share a place, as in the final standings message."""
    ledger = game.ledger
    winners = set(game.winners or [])
    keys = [(s not in winners, -ledger[s]) for s in range(game.n)]
    return [1 + sum(1 for other in keys if other < key) for key in keys]


def player_of(seat: SeatRow) -> Player:
    """Whose rating ``seat`` moves: its member (an AI playing for a member away or
    gone still plays for them), or for an AI seat its level (``easy`` if unset)."""
    if seat.member_id is not None:
        return Player(seat.member_id)
    return Player(0, seat.ai_level or "easy")


@dataclass(frozen=True)
class Shown:
    """A rating as the board shows it: ``ordinal`` (the rank key, ``mu - 3 sigma``),
    ``mu`` and the interval's half-width ``spread`` (``2 sigma``), and ``games``."""

    ordinal: float
    mu: float
    spread: float
    games: int

    @staticmethod
    def of(mu: float, sigma: float, games: int) -> Shown:
        """What is shown of a rating ``(mu, sigma)`` after ``games`` games."""
        return Shown(mu - ORDINAL_SIGMAS * sigma, mu, SHOWN_SIGMAS * sigma, games)

    def text(self) -> str:
        """``**12.3** (25.0 ± 16.7, 5 games)``."""
        games = ngettext("{count} game", "{count} games", self.games).format(count=self.games)
        return f"**{self.ordinal:.1f}** ({self.mu:.1f} ± {self.spread:.1f}, {games})"


async def rate_finished(storage: AnyStorage, live: LiveTable) -> None:
    """Queue the rating of ``live``'s finished game in the caller's unit of work
    (the one that finishes the game): every seat, in its final place."""
    game = live.game
    assert game is not None and game.complete
    await storage.rate_game(live.id, live.row.guild_id, live.row.preset,
                            [player_of(seat) for seat in live.seats], final_ranks(game), rate)
