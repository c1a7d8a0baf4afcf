"""A table in memory: what the service keeps and the renderers read."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from ..engine import AnyDeal, Game, Rules
from ..storage import DealKey, SeatRow, TableRow


@dataclass
class LiveTable:
    """A table in memory: its row, seats and (once started) the engine game."""

    row: TableRow
    seats: list[SeatRow]
    rules: Rules
    game: Game | None = None
    #: deal number -> message id of its posted showdown
    showdown_messages: dict[int, int] = field(default_factory=dict)
    #: per deal (as ``game.deals``), the member whose press cut it; ``None``: the bot
    #: cut (docs/FAIRNESS.md "In the bot")
    cut_by: list[int | None] = field(default_factory=list)
    #: the secret seed (hex) committed for the next deal; never shown before its
    #: deal is over (docs/FAIRNESS.md)
    next_seed: str | None = field(default=None, repr=False)

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

    def member_of(self, seat: int) -> int | None:
        """The member sitting in ``seat`` (``None`` for an AI seat)."""
        return self.seats[seat].member_id

    def is_ai(self, seat: int) -> bool:
        """The AI decides for ``seat`` now (an AI seat, or a member away or gone)."""
        return self.seats[seat].ai_plays

