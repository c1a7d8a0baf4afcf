"""The daily deal, played in duplicate (docs/DAILY.md; the engine's side is
``bot.engine.daily``): a small service of its own over storage, like ``archive``.

- **Seeds.** Each UTC day has one secret seed from the OS CSPRNG
  (``fairness.new_seed``), stored before anybody can see it used (a restart
  loses nothing). Asking for a day's commitment draws the seeds of that day and
  of the next, so tomorrow's commitment is public today; a seed is shown only
  once its day is over (``proof``).
- **Plays.** A member's game is begun once (``play``: a row per guild, day and
  member) and rebuilt from the seed and the member's stored moves at every
  click: the stored row is the game, memory holds nothing a restart could lose.
  A finished game cannot be played again; a game of a day that has ended cannot
  be continued (its seed is public by then).
- **Time** is the ``clock`` given (``datetime`` in UTC): the bot passes Discord's,
  tests move it to the next day.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..engine import Decision, IllegalAction
from ..engine.daily import (
    DailyError,
    DailyGame,
    day_end,
    day_number,
    day_of,
    ranked,
    verify_seed,
)
from ..engine.fairness import commitment, new_seed
from ..i18n import _
from ..storage import AnyStorage
from ..storage.daily import DailySeed
from .errors import OutOfDate, UserError

#: now, as an aware UTC datetime
Clock = Callable[[], datetime.datetime]


def system_clock() -> datetime.datetime:
    """Now, from the system clock (UTC)."""
    return datetime.datetime.now(datetime.UTC)


class AlreadyPlayed(UserError):
    """The member finished the day's deal already (``result``: their points)."""

    def __init__(self, text: str, result: int) -> None:
        """``text``: what the member is told; ``result``: their points that day."""
        super().__init__(text)
        self.result = result


@dataclass(frozen=True)
class DailyState:
    """A member's game of the day as it stands (after a move, or on resuming).

    Attributes:
        game: the game (never shown to anyone but its member).
        commitment: the day's commitment (hex).
        tomorrow: the next day's commitment (hex).
        ends: when the day ends (its seed is revealed then).
        resumed: the member began this game before (a restart, another
            ``/commerce daily``).
    """

    game: DailyGame
    commitment: str
    tomorrow: str
    ends: datetime.datetime
    resumed: bool = False

    @property
    def number(self) -> int:
        """The day's number (``engine.daily.day_number``), as controls carry it."""
        return day_number(self.game.day)


@dataclass(frozen=True)
class BoardLine:
    """A line of a day's board: rank (ties share), member, name when they
    played, points, duplicate score (points less the field's average)."""

    rank: int
    member_id: int
    name: str
    result: int
    score: float


@dataclass(frozen=True)
class DailyBoard:
    """A guild's board of one day: its lines best first, and whether the day is over."""

    day: datetime.date
    lines: list[BoardLine]
    over: bool


@dataclass(frozen=True)
class DailyProof:
    """What may be shown of a day's shuffle now: its commitment always, its seed
    once the day is over (``seed`` ``None`` before), whether the seed matches the
    commitment, and when the day ends."""

    day: datetime.date
    commitment: str
    seed: str | None
    verified: bool
    ends: datetime.datetime


class DailyService:
    """The daily deal's requests (``bot.daily``; docs/DAILY.md)."""

    def __init__(self, storage: AnyStorage, clock: Clock = system_clock) -> None:
        """Over ``storage``, with ``clock`` for now (injectable for tests)."""
        self.storage = storage
        self.clock = clock

    def today(self) -> datetime.date:
        """The UTC day now."""
        return day_of(self.clock())

    async def _seed(self, day: datetime.date) -> DailySeed:
        """The seed of ``day``, drawn from the CSPRNG and stored if it has none yet
        (a read when it has: no write at every click)."""
        stored = await self.storage.stored_daily_seed(day_number(day))
        if stored is not None:
            return stored
        seed = new_seed()
        return await self.storage.daily_seed(day_number(day), seed.hex(), commitment(seed))

    async def _days(self, today: datetime.date) -> tuple[DailySeed, DailySeed]:
        """The seeds of ``today`` and of the next day (both drawn now when missing)."""
        return await self._seed(today), await self._seed(today + datetime.timedelta(days=1))

    async def commitments(self) -> tuple[str, str]:
        """Today's commitment and tomorrow's (both drawn now when missing)."""
        mine, tomorrow = await self._days(self.today())
        return mine.commitment, tomorrow.commitment

    async def play(self, guild_id: int, member_id: int, name: str) -> DailyState:
        """Begin the member's game of today's deal, or resume the one they began.

        Raises:
            AlreadyPlayed: they finished today's deal already.
            UserError: they began today's deal in another server (the same cards
                everywhere: one game a day, wherever it is played).
        """
        today = self.today()
        seed, tomorrow = await self._days(today)
        begun = await self.storage.begin_daily_play(guild_id, day_number(today), member_id, name)
        if begun is None:
            raise UserError(_("You have played today's daily deal in another server: it is the "
                              "same deal everywhere, so it is played once a day. The next one "
                              "starts at 00:00 UTC."))
        play, new = begun
        if play.result is not None:
            raise AlreadyPlayed(_(
                "You have played today's daily deal already: {points} points. The next "
                "one starts at 00:00 UTC.").format(points=_signed(play.result)), play.result)
        game = self._replay(seed, today, play.moves)
        return DailyState(game, seed.commitment, tomorrow.commitment, day_end(today),
                          resumed=not new)

    async def act(self, guild_id: int, member_id: int, number: int, seq: int,
                  decision: Decision) -> DailyState:
        """The member's ``decision`` in their game of day ``number``, from a control
        made after ``seq`` of their moves; the AI seats answer; written at once.

        Raises:
            OutOfDate: the day is over, or the control is older than the game.
            UserError: no game begun, the deal is over, or the rules refuse it.
        """
        today = self.today()
        if number != day_number(today):
            raise OutOfDate(_("That daily deal's day is over. Type `/commerce daily` for "
                              "today's."))
        play = await self.storage.daily_play(guild_id, number, member_id)
        if play is None:
            raise UserError(_("Type `/commerce daily` to begin today's deal."))
        if play.result is not None:
            raise UserError(_("Your daily deal is over: see `/commerce daily show:board`."))
        if play.seq != seq:
            raise OutOfDate(_("That control is out of date. Type `/commerce daily` to see "
                              "your game."))
        seed, tomorrow = await self._days(today)
        game = self._replay(seed, today, play.moves)
        try:
            game.act(decision)
        except IllegalAction as exc:
            raise UserError(str(exc)) from None
        if not await self.storage.save_daily_moves(guild_id, number, member_id, seq, game.own,
                                                   game.result):
            raise OutOfDate(_("That control is out of date. Type `/commerce daily` to see "
                              "your game."))
        return DailyState(game, seed.commitment, tomorrow.commitment, day_end(today))

    @staticmethod
    def _replay(seed: DailySeed, day: datetime.date, moves: list[dict[str, object]]) -> DailyGame:
        try:
            return DailyGame.replay(bytes.fromhex(seed.seed), day, moves)
        except DailyError:
            raise UserError(_("Your daily game cannot be rebuilt; it was kept as it is.")) from None

    async def board(self, guild_id: int, day: datetime.date | None = None) -> DailyBoard:
        """The guild's board of ``day`` (default today): every finished game, with
        its duplicate score against the average of everyone who played it."""
        day = day or self.today()
        results = await self.storage.daily_results(guild_id, day_number(day))
        names = {member: name for member, name, _points in results}
        lines = [BoardLine(rank, member, names[member], points, score) for rank, member, points,
                 score in ranked({member: points for member, _name, points in results})]
        return DailyBoard(day, lines, day < self.today())

    async def proof(self, day: datetime.date | None = None) -> DailyProof:
        """What may be shown of ``day``'s shuffle (default: the day before today,
        the latest whose seed is public): the seed only once the day is over.

        Raises:
            UserError: a day more than one day ahead, or a past day with no seed
                (nobody asked for its deal).
        """
        today = self.today()
        day = day or today - datetime.timedelta(days=1)
        if day > today + datetime.timedelta(days=1):
            raise UserError(_("That day's seed is not drawn yet: commitments are published "
                              "one day ahead."))
        stored = (await self._seed(day) if day >= today
                  else await self.storage.stored_daily_seed(day_number(day)))
        if stored is None:
            raise UserError(_("There was no daily deal on {day}.").format(day=day.isoformat()))
        if day >= today:
            return DailyProof(day, stored.commitment, None, False, day_end(day))
        return DailyProof(day, stored.commitment, stored.seed,
                          verify_seed(stored.seed, stored.commitment), day_end(day))


async def record_of(service: DailyService, guild_id: int, member_id: int,
                    day: datetime.date) -> dict[str, Any] | None:
    """The record (docs/RECORDS.md, format 2, with the seed) of the member's game of
    ``day`` in the guild, once the day is over; ``None`` before, or when they did
    not finish a game that day."""
    if day >= service.today():
        return None
    play = await service.storage.daily_play(guild_id, day_number(day), member_id)
    seed = await service.storage.stored_daily_seed(day_number(day))
    if play is None or play.result is None or seed is None:
        return None
    try:
        game = DailyGame.replay(bytes.fromhex(seed.seed), day, play.moves)
    except DailyError:
        return None
    return game.to_record(play.name)


def parse_day(text: str) -> datetime.date:
    """A day typed as ``YYYY-MM-DD``.

    Raises:
        UserError: anything else.
    """
    try:
        day = datetime.date.fromisoformat(text.strip())
        day_number(day)
    except ValueError:
        raise UserError(_("Type the day as YYYY-MM-DD, e.g. 2026-12-03.")) from None
    return day


def _signed(value: int) -> str:
    return f"{value:+d}"


__all__ = ["AlreadyPlayed", "BoardLine", "DailyBoard", "DailyProof", "DailyService",
           "DailyState", "parse_day", "record_of"]
