"""Showing a table's moves one at a time (docs/AI.md "At a table").

Every move is committed at once, with the AI answers it calls for (one unit of
work per interaction). What the table message *shows* may lag behind: after a
member's move it shows that move, then each AI move ``pace`` seconds after the
one before, then the latest state. One ``Showing`` per bot, owned by the
``Publisher`` (``bot.publishing.publisher``), which does the editing; this module decides
which step is shown and rebuilds it (``Game.rewound``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from ..engine import BarterAnswer, OfferAnswer, Operation
from ..service import LiveTable, TableService

log = logging.getLogger(__name__)

#: seconds between two AI moves as the table message shows them
AI_PACE = 1.5
#: the share of the process's request budget (Discord's global limit, split by the
#: shards it serves) that showing the AI moves one at a time may use: above it, a
#: table shows the latest state at once (its moves merged into one edit)
FRAME_SHARE = 0.5
#: operations that answer an offer (shown to its maker with the offer itself)
ANSWERS = (BarterAnswer, OfferAnswer)


class Showing:
    """Which step of its deal each table message shows, and the pace of AI moves.

    Args:
        service: the table service (to wait for a table's unit to commit, and to
            see whether a table is still open).
        pace: seconds between two AI moves shown; 0 shows the latest state at once.

    Attributes:
        pause: how the wait between two moves is made (``asyncio.sleep``; the
            offline sandbox declares it to its simulated Discord).
        presented: per table, the deal number and operation count its table
            message shows (unknown after a start: the latest state is shown at once).
    """

    def __init__(self, service: TableService, pace: float = AI_PACE) -> None:
        """Nothing shown yet."""
        self.service = service
        self.pace = pace
        self.pause: Callable[[float], Awaitable[Any]] = asyncio.sleep
        #: whether the bot is near its share of Discord's request limit now (the
        #: bot sets it: ``CommerceBot.setup_hook``): moves are then not shown one
        #: at a time
        self.crowded: Callable[[], bool] = lambda: False
        self.presented: dict[int, tuple[int, int]] = {}
        self._running: set[int] = set()
        self._resting: dict[int, asyncio.Future[Any]] = {}
        self._woken: set[int] = set()

    @staticmethod
    def frame(live: LiveTable, count: int) -> LiveTable:
        """The table as it was after the first ``count`` operations of its deal
        (``Game.rewound``), to show; ``live`` itself from the latest count on."""
        deal, game = live.deal, live.game
        assert deal is not None and game is not None
        if count >= len(deal.operations):
            return live
        return LiveTable(live.row, live.seats, live.rules, game.rewound(count),
                         showdown_messages=live.showdown_messages, events=live.events)

    def first(self, live: LiveTable) -> LiveTable:
        """What a new deal's table message shows first when its AI moves are shown
        one at a time (``Publisher.post_deal``): the deal as dealt while the AI has
        moved already, else ``live``."""
        if self.pace > 0 and live.deal is not None and live.deal.operations:
            return self.frame(live, 0)
        return live

    def after(self, live: LiveTable, op: Operation) -> LiveTable:
        """What the member who made ``op`` sees on their panel now: the table just
        after ``op`` (and the answer to it, when ``op`` is their offer) while the
        AI moves that followed are still to be shown, else ``live``. The panel
        catches up when the table message does (``Panels.refresh``)."""
        deal = live.deal
        if self.pace <= 0 or deal is None:
            return live
        ops = deal.operations
        for index in range(len(ops) - 1, -1, -1):
            if ops[index] is op:
                count = index + 1
                if count < len(ops) and isinstance(ops[count], ANSWERS):
                    count += 1  # the answer to the member's own offer is part of its outcome
                return self.frame(live, count)
        return live

    def as_shown(self, live: LiveTable) -> LiveTable:
        """The table as its message shows it now: while its moves are being shown,
        the step on show (``frame``), else ``live``. A panel asked for meanwhile
        shows that step and catches up with the table message."""
        deal = live.deal
        shown = self.presented.get(live.id)
        if (deal is None or shown is None or live.id not in self._running
                or shown[0] != live.deal_number or shown[1] >= len(deal.operations)):
            return live
        return self.frame(live, shown[1])

    def mark(self, live: LiveTable) -> None:
        """Remember that the table message shows ``live`` (a step, or the latest)."""
        if live.deal is None:
            self.presented.pop(live.id, None)
        else:
            self.presented[live.id] = (live.deal_number, len(live.deal.operations))

    def forget(self, table_id: int) -> None:
        """A table closed: nothing of it is remembered."""
        self.presented.pop(table_id, None)

    async def _rest(self, table_id: int) -> None:
        """Wait ``pace`` seconds (``pause``) before the table's next AI move is
        shown, unless ``wake`` ends the wait first."""
        rest = asyncio.ensure_future(self.pause(self.pace))
        self._resting[table_id] = rest
        try:
            await rest
        except asyncio.CancelledError:
            if table_id not in self._woken:  # this task itself is cancelled
                raise
        finally:
            self._resting.pop(table_id, None)
            self._woken.discard(table_id)

    def wake(self, table_id: int) -> None:
        """End the wait before the table's next AI move now (the table was closed
        meanwhile: what is left to show is its end, at once)."""
        rest = self._resting.get(table_id)
        if rest is not None and not rest.done():
            self._woken.add(table_id)
            rest.cancel()

    async def present(self, live: LiveTable,
                      show: Callable[[LiveTable], Awaitable[None]]) -> bool:
        """Show (``show``: edit the table message to a step) the moves its table
        message has not shown yet one at a time, waiting ``pace`` seconds before
        each AI move; the latest state is left to the caller. A failed edit ends
        the showing (the latest state follows).

        Returns:
            ``False`` when the table was closed or rebuilt from storage meanwhile
            (the caller then shows the table as it is now), else ``True``. A game
            that ended by its last move is shown to its end (the caller then shows
            the end).
        """
        self._running.add(live.id)
        try:
            return await self._present(live, show)
        finally:
            self._running.discard(live.id)

    async def _present(self, live: LiveTable,
                       show: Callable[[LiveTable], Awaitable[None]]) -> bool:
        while self.pace > 0 and live.row.table_message_id is not None:
            deal, number = live.deal, live.deal_number
            shown = self.presented.get(live.id)
            if deal is None or shown is None or shown[0] != number:
                return True
            count = shown[1] + 1
            if count > len(deal.operations):
                return True
            if self.crowded():
                return True  # near the request limit: the latest state at once, in one edit
            if live.is_ai(deal.operations[count - 1].seat):
                await self._rest(live.id)  # the AI "thinks": the table can read
                await self.service.settled(live.id)
                if live.deal is not deal and self.service.current(live.id) is live:
                    return True
            if self.service.current(live.id) is not live or live.row.status == "closed":
                # rebuilt from storage, or closed (``/commerce end``...): the moves of a
                # closed table are not shown any more, its end is
                return False
            if count >= len(deal.operations):
                return True
            try:
                frame = self.frame(live, count)
                await show(frame)
            except Exception:
                log.warning("table %s: could not show a move; showing the latest state",
                            live.id, exc_info=True)
                return True
            self.mark(frame)
        return True
