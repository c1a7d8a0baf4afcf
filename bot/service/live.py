"""A table in memory: what the service keeps and the renderers read."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from ..engine import AnyDeal, Game, Rules
from ..engine.fairness import Cut
from ..storage import DealKey, SeatRow, ShuffleEvent, TableRow
from .errors import NotSeated


@dataclass
class LiveTable:
    """A table in memory: its row, seats and (once started) the engine game."""

    row: TableRow
    seats: list[SeatRow]
    rules: Rules
    game: Game | None = None
    #: deal number -> message id of its posted showdown
    showdown_messages: dict[int, int] = field(default_factory=dict)
    #: the table's shuffle log (cuts and attempts, docs/FAIRNESS.md "In the bot"), as
    #: stored
    events: list[ShuffleEvent] = field(default_factory=list)
    #: the game's secret seed (hex) while no game holds it (the lobby); never shown
    #: before the game is over (docs/FAIRNESS.md)
    game_seed: str | None = field(default=None, repr=False)
    #: the chain's heads as last computed, with what they were computed for
    _heads: tuple[tuple[Any, ...], dict[str, str]] | None = field(default=None, repr=False)

    def set_seat(self, seat: int, *, away: bool | None = None, timeouts: int | None = None,
                 gone: bool | None = None) -> None:
        """Set whichever presence fields are given on one seat's row in memory
        (as ``Storage.set_seat_state`` does in the running unit)."""
        row = self.seats[seat]
        self.seats[seat] = replace(
            row, away=row.away if away is None else away,
            timeouts=row.timeouts if timeouts is None else timeouts,
            gone=row.gone if gone is None else gone)

    @property
    def next_number(self) -> int:
        """The number of the next deal to deal (1 in the lobby)."""
        return self.deal_number + 1

    def cuts_for(self, number: int) -> list[tuple[int, str]]:
        """The cuts made for deal ``number`` so far: ``(member, text)`` in order."""
        return [(e.member_id, e.text or "") for e in self.events
                if e.kind == "cut" and e.deal_number == number and e.member_id is not None]

    def seated_cuts(self, number: int) -> tuple[Cut, ...]:
        """The cuts for deal ``number`` of members seated now, as the deal uses them
        (``Cut(seat, text)``, in the order made; a member who left is dropped)."""
        out = []
        for member, text in self.cuts_for(number):
            seat = self.seat_of(member)
            if seat is not None:
                out.append(Cut(seat, text))
        return tuple(out)

    def attempts_at(self, number: int) -> int:
        """Attempts at deal ``number`` written down so far."""
        return sum(1 for e in self.events if e.kind == "attempt" and e.deal_number == number)

    def header(self) -> tuple[list[str], dict[str, Any], dict[str, str]]:
        """The record's ``players``, ``options`` and ``ai_levels`` (seat as a string
        -> level) of this table, as records and the chain have them."""
        return ([s.name for s in self.seats], dict(self.row.options),
                {str(s.seat): s.ai_level for s in self.seats if s.is_ai and s.ai_level})

    def chain_heads(self) -> dict[str, str]:
        """The heads of the record's chain so far (``Game.chain_heads``: ``header``,
        ``deal N``, ``burned N.A``, ``end``); empty without a fair shuffle. They
        are public: a head says nothing of the seed or the cards."""
        game = self.game
        if game is None or game.shuffler is None or game.shuffle_log is None:
            return {}
        deal = self.deal
        key = (len(game.deals), len(deal.operations) if deal else 0, deal.finished if deal
               else False, len(game.shuffle_log.burned), game.over)
        if self._heads is None or self._heads[0] != key:
            self._heads = (key, game.chain_heads(*self.header()))
        return self._heads[1]

    @property
    def announced(self) -> set[int]:
        """Deal numbers whose showdown has been posted."""
        return set(self.showdown_messages)

    @property
    def id(self) -> int:
        """The table's id (``tables.id`` in storage, also its lock's key)."""
        return self.row.id

    @property
    def deal(self) -> AnyDeal | None:
        """The latest deal (finished or not), or ``None`` before the first."""
        return self.game.deals[-1] if self.game and self.game.deals else None

    @property
    def deal_number(self) -> int:
        """1-based number of the latest deal (0 before the first)."""
        return len(self.game.deals) if self.game else 0

    @property
    def deal_key(self) -> DealKey:
        """The latest deal's key in storage (table id, deal number)."""
        return DealKey(self.row.id, self.deal_number)

    def seat_of(self, member_id: int) -> int | None:
        """The seat of ``member_id`` at this table, or ``None``."""
        for s in self.seats:
            if s.member_id == member_id:
                return s.seat
        return None

    def seated(self, member_id: int) -> int:
        """The seat of ``member_id`` at this table.

        Raises:
            NotSeated: the member has no seat here.
        """
        seat = self.seat_of(member_id)
        if seat is None:
            raise NotSeated()
        return seat

    def member_of(self, seat: int) -> int | None:
        """The member sitting in ``seat`` (``None`` for an AI seat)."""
        return self.seats[seat].member_id

    def is_ai(self, seat: int) -> bool:
        """The AI decides for ``seat`` now (an AI seat, or a member away or gone)."""
        return self.seats[seat].ai_plays

