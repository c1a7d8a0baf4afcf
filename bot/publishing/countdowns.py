"""What the public messages show of the timers: the turn deadline of the seat to
act and when a waiting next deal comes. The timers (``bot.timers.clock``) write
here as they arm and stop; the publisher only reads, so it never knows the
timers (docs/ARCHITECTURE.md, "After a change")."""

from __future__ import annotations

import datetime

from ..service import LiveTable

#: ``(deal number, operation count, seat)``: a moment of a deal, whose turn timer runs
Turn = tuple[int, int, int]


class Countdowns:
    """The deadlines of every table's running timers, as the messages show them.

    Attributes:
        turns: table id -> (the moment its turn timer was armed for, when it runs
            out); present exactly while that turn timer waits.
        next_deals: table id -> when its waiting next deal comes; present exactly
            while the next-deal timer waits.
    """

    def __init__(self) -> None:
        """No timer runs."""
        self.turns: dict[int, tuple[Turn, datetime.datetime]] = {}
        self.next_deals: dict[int, datetime.datetime] = {}

    def turn_deadline(self, live: LiveTable) -> datetime.datetime | None:
        """When the turn timer of the seat to act now runs out (``None``: no timer
        runs for this moment of the deal)."""
        deal = live.deal
        known = self.turns.get(live.id)
        if deal is None or deal.to_act is None or known is None:
            return None
        moment, deadline = known
        return deadline if moment == (live.deal_number, len(deal.operations), deal.to_act) \
            else None

    def next_deal_at(self, table_id: int) -> datetime.datetime | None:
        """When the table's waiting next deal comes (``None``: none is waiting)."""
        return self.next_deals.get(table_id)
