"""The daily deal, played in duplicate (docs/FAIRNESS.md "The daily deal",
docs/DAILY.md): one secret seed per UTC day, committed to the day before; every
member who plays that day gets the same deal from it — the same deck, the same
first dealer, the same seat (the eldest hand, first to move: ``DailyGame.seat``),
against AI seats of one level (``LEVEL``) — and is scored against the average of
everyone who played the same cards.

The day's deal is deal 1 of a one-deal game under the fairness algorithm of
``fairness`` (the day's number ``day_number`` in the place of a table id, attempt
1, no cuts: nobody may steer a deal everybody shares). The AI seats decide at
``LEVEL`` from what they see and nothing else, and ``normal`` draws no random
number, so a daily game is a pure function of the seed and the member's own
operations: ``DailyGame.replay`` rebuilds it from those, and a restart loses
nothing.

Pure: no discord, no storage, no asyncio.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .cards import card_code
from .fairness import Attempt, ShuffleLog, Shuffler, commitment
from .family import DealBase, Decision, IllegalAction
from .game import Game
from .levels import decide
from .operations import Operation, operation_from_dict, operation_to_dict
from .rules import get_preset

#: the preset of every daily deal (docs/RULES.md), its seats and the AI seats' level
#: (docs/AI.md); the member sits at the eldest hand, first to move (``DailyGame.seat``)
PRESET = "foster"
SEATS = 4
LEVEL = "normal"
#: the names of the AI seats, in seat order (as tables name their AI seats)
AI_NAMES = ("AI Ada", "AI Babbage", "AI Cardano")
#: the first day (day number 0)
EPOCH = datetime.date(1970, 1, 1)


class DailyError(ValueError):
    """A daily deal's step that cannot be taken (a bad seed, a stale move)."""


def day_of(moment: datetime.datetime) -> datetime.date:
    """The UTC calendar day of ``moment`` (an aware datetime; a naive one is read
    as UTC)."""
    if moment.tzinfo is not None:
        moment = moment.astimezone(datetime.UTC)
    return moment.date()


def day_number(day: datetime.date) -> int:
    """Days from 1970-01-01 to ``day``: the number the day's deal derives with in
    the place of a table id (docs/FAIRNESS.md "The daily deal").

    Raises:
        ValueError: a day before 1970-01-01.
    """
    number = (day - EPOCH).days
    if number < 0:
        raise ValueError("the daily deal starts on 1970-01-01")
    return number


def day_from_number(number: int) -> datetime.date:
    """The day of ``day_number``."""
    return EPOCH + datetime.timedelta(days=number)


def day_end(day: datetime.date) -> datetime.datetime:
    """When ``day`` ends: the next day's 00:00 UTC (its seed is revealed then)."""
    return datetime.datetime.combine(day + datetime.timedelta(days=1), datetime.time(),
                                     datetime.UTC)


def verify_seed(seed_hex: str, committed: str) -> bool:
    """The revealed seed ``seed_hex`` (64 hex digits) is the one ``committed``
    (its SHA-256, hex) was published for; ``False`` for anything malformed."""
    try:
        seed = bytes.fromhex(seed_hex)
    except ValueError:
        return False
    return len(seed) == 32 and commitment(seed) == committed.strip().lower()


def deck_of(seed: bytes, day: datetime.date) -> list[str]:
    """The day's deck (card codes, top first) and so the deal everybody gets:
    what anyone can recompute from the revealed seed (docs/FAIRNESS.md)."""
    return [card_code(c) for c in Shuffler(seed, day_number(day), PRESET).deck(1, 1, ())]


@dataclass
class DailyGame:
    """One member's game of the day's deal.

    Attributes:
        day: the UTC day.
        game: the one-deal game (its deal is ``deal``); closed once the deal is
            over, so its record reveals the seed (shown only after the day).
        own: the member's operations so far, in order (``operation_to_dict``
            rows: what the storage keeps, ``DailyGame.replay`` reads).
    """

    day: datetime.date
    game: Game
    own: list[dict[str, Any]]

    @classmethod
    def start(cls, seed: bytes, day: datetime.date) -> DailyGame:
        """The day's deal dealt from ``seed``, the AI seats' moves made up to the
        member's first decision.

        Raises:
            ValueError: a seed that is not 32 bytes.
        """
        rules = get_preset(PRESET)
        shuffler = Shuffler(seed, day_number(day), PRESET)
        first = shuffler.first_dealer(SEATS, 1, ())
        game = Game(rules, SEATS, first, table=day_number(day), shuffler=shuffler,
                    shuffle_log=ShuffleLog(shuffler.commitment))
        game.deal_attempt(Attempt(1, 1, ()))
        daily = cls(day, game, [])
        daily._ai()
        return daily

    @classmethod
    def replay(cls, seed: bytes, day: datetime.date,
               own: Iterable[Mapping[str, Any]]) -> DailyGame:
        """The game as it stood after the member's operations ``own`` (as
        ``DailyGame.own`` lists them), the AI seats answering in between.

        Raises:
            DailyError: an operation that does not apply (a record that is not
                this day's).
        """
        daily = cls.start(seed, day)
        for row in own:
            try:
                daily._apply(operation_from_dict(dict(row)))
            except (IllegalAction, ValueError, KeyError) as exc:
                raise DailyError(f"the day's moves do not replay: {exc}") from None
        return daily

    @property
    def deal(self) -> DealBase:
        """The day's deal."""
        return self.game.deals[0]

    @property
    def seat(self) -> int:
        """The member's seat: the eldest hand (first to move, before any AI seat
        can end the deal), which the seed's first dealer decides — the same for
        everyone that day."""
        return self.deal.turn_order()[0]

    @property
    def seq(self) -> int:
        """The member's operations so far: the number a control carries (a click
        of an older control is stale)."""
        return len(self.own)

    @property
    def finished(self) -> bool:
        """The deal is over (a showdown, or void)."""
        return self.deal.finished

    @property
    def result(self) -> int | None:
        """The member's points from the deal once it is over (docs/RULES.md §2:
        what the seat won less what it paid), else ``None``."""
        return self.deal.delta[self.seat] if self.finished else None

    def act(self, decision: Decision) -> Operation:
        """The member's ``decision``, then the AI seats' answers up to the
        member's next decision or the deal's end. Returns the member's operation.

        Raises:
            IllegalAction: the rules do not allow it now (nothing changed).
        """
        op = self.deal.act(self.seat, decision)
        self.own.append(operation_to_dict(op))
        self._after()
        return op

    def _apply(self, op: Operation) -> None:
        if op.seat != self.seat:
            raise DailyError("a daily record holds the member's own operations only")
        self.own.append(operation_to_dict(self.deal.apply(op)))
        self._after()

    def _after(self) -> None:
        self._ai()
        if self.finished and not self.game.closed:
            self.game.close()

    def _ai(self) -> None:
        deal = self.deal
        while not deal.finished and deal.to_act is not None and deal.to_act != self.seat:
            seat = deal.to_act
            deal.act(seat, decide(deal, seat, LEVEL))
        if deal.finished and not self.game.closed:
            self.game.close()

    def players(self, name: str) -> list[str]:
        """The record's ``players``: ``name`` at the member's seat, the AI seats by name."""
        ai = iter(AI_NAMES)
        return [name if s == self.seat else next(ai) for s in range(SEATS)]

    def to_record(self, name: str) -> dict[str, Any]:
        """The game's record (docs/RECORDS.md, format 2): once the deal is over it
        carries the day's seed, so it is shown only after the day ends."""
        return self.game.to_record(self.players(name), ai_levels={
            str(s): LEVEL for s in range(SEATS) if s != self.seat})


def duplicate_scores(results: Mapping[int, int]) -> dict[int, float]:
    """Each player's duplicate score (as in duplicate bridge: the result against
    the field): their result less the average result of everyone who played the
    same deal, ``results`` being member -> points. The scores add up to 0."""
    if not results:
        return {}
    mean = sum(results.values()) / len(results)
    return {member: result - mean for member, result in results.items()}


def ranked(results: Mapping[int, int]) -> list[tuple[int, int, int, float]]:
    """``(rank, member, result, duplicate score)`` best first (ties share a rank,
    then by member id)."""
    scores = duplicate_scores(results)
    order = sorted(results, key=lambda m: (-results[m], m))
    out: list[tuple[int, int, int, float]] = []
    for i, member in enumerate(order):
        rank = out[-1][0] if out and results[member] == out[-1][2] else i + 1
        out.append((rank, member, results[member], scores[member]))
    return out
