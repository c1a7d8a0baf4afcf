"""A table in memory: what the service keeps and the renderers read."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..engine import AnyDeal, Game, Rules
from ..storage import SeatRow, TableRow


@dataclass
class LiveTable:
    """A table in memory: its row, seats and (once started) the engine game.

    ``deal_ids[i]`` is the storage id of ``game.deals[i]``.
    """

    row: TableRow
    seats: list[SeatRow]
    rules: Rules
    game: Game | None = None
    deal_ids: list[int] = field(default_factory=list)
    #: deal number -> message id of its posted showdown
    showdown_messages: dict[int, int] = field(default_factory=dict)
    #: per deal (as ``deal_ids``), the member whose press cut it; ``None``: the bot
    #: cut (docs/FAIRNESS.md "In the bot")
    cut_by: list[int | None] = field(default_factory=list)

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

