"""What the watch remembers of tables that need no turn timer (``Timers.quiet``), so a
round over thousands of idle tables does not decide the same thing again and again."""

from __future__ import annotations

from collections.abc import Collection

from ..engine import AnyDeal
from ..service import LiveTable, TableService


class QuietTables:
    """Per table, the moment for which ``Timers.arm_turn_timer`` found that no turn
    timer is needed (the guild has none): the deal itself, its number of operations
    so far (a deal changes only by an operation, or by its end) and the guild's
    ``turn_timer`` setting (s) then. The watch does not decide it again while all
    three stay the same (``holds``). A rebuilt table has new deal objects, so what
    was remembered of it no longer holds; arming or stopping the table's timer,
    its close and a stop of the timers forget it.

    Args:
        service: where the guild's settings are read (``known_settings``: never waits).
    """

    def __init__(self, service: TableService) -> None:
        """Nothing remembered."""
        self.service = service
        #: table id -> (deal, its operations then, the guild's turn_timer then)
        self.moments: dict[int, tuple[AnyDeal, int, int]] = {}

    def remember(self, live: LiveTable, deal: AnyDeal, moment: tuple[int, int, int],
                 turn_timer: int) -> None:
        """No turn timer is needed at ``moment`` (deal number, operation count, seat
        to act) of ``deal`` with ``turn_timer``: remembered unless the moment passed
        meanwhile (or the table closed or was rebuilt)."""
        if (self.service.tables.get(live.id) is live and live.deal is deal
                and (live.deal_number, len(deal.operations), deal.to_act) == moment):
            self.moments[live.id] = (deal, len(deal.operations), turn_timer)

    def holds(self, live: LiveTable, deal: AnyDeal) -> bool:
        """Whether the table's moment (``deal``, its latest, with as many operations)
        and its guild's ``turn_timer`` setting are what was remembered: deciding
        again would find again that no turn timer is needed."""
        moment = self.moments.get(live.id)
        if moment is None or moment[0] is not deal or moment[1] != len(deal.operations):
            return False
        settings = self.service.known_settings(live.row.guild_id)
        return settings is not None and settings.turn_timer == moment[2]

    def forget(self, table_id: int) -> None:
        """Decide the table's moment again next time."""
        self.moments.pop(table_id, None)

    def keep_only(self, open_tables: Collection[int]) -> None:
        """Forget tables no longer open (closed without ``forget``), once there are
        more remembered than open."""
        if len(self.moments) > len(open_tables):
            for gone in [t for t in self.moments if t not in open_tables]:
                del self.moments[gone]

    def clear(self) -> None:
        """Forget every table (the timers stopped)."""
        self.moments.clear()

    def __contains__(self, table_id: object) -> bool:
        """Whether something is remembered of the table."""
        return table_id in self.moments

    def __len__(self) -> int:
        """Tables remembered."""
        return len(self.moments)
