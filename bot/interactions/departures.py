"""A departure nothing else hears of: the member to act left the server in a guild
with no turn timer (docs/RELIABILITY.md "People and channels")."""

from __future__ import annotations

import logging

from ..changes.after import AfterChange
from ..service import ServiceError, TableService
from ..timers.clock import Timers, still_member

log = logging.getLogger(__name__)


class Departures:
    """Asks Discord whether the member a table waits for is still in its server,
    once per moment (``to_act_gone``); the bot's ``Handlers`` own one.

    Args:
        service: the table service.
        after: the one step after every change, which shows what changed.
        timers: the bot's timers (their client asks Discord for the member).
    """

    def __init__(self, service: TableService, after: AfterChange, timers: Timers) -> None:
        """Nothing asked yet."""
        self.service, self.after, self.timers = service, after, timers
        #: per table, the moment (deal number, operations) whose member to act was
        #: last looked for in the server (``to_act_gone``)
        self.asked: dict[int, tuple[int, int]] = {}

    def moment(self, table_id: int) -> tuple[int, int] | None:
        """The open table's deal number and its operations so far (``None``: no
        deal in play)."""
        live = self.service.tables.get(table_id)
        deal = None if live is None else live.deal
        if live is None or deal is None or deal.finished:
            return None
        return live.deal_number, len(deal.operations)

    async def to_act_gone(self, member_id: int, table_id: int,
                          before: tuple[int, int] | None) -> None:
        """Whether the member to act has left the server, asked of Discord once per
        moment after another seated member's press (``member_id``) that moved
        nothing (the table still at ``before``, ``moment``) is answered, when the
        guild has no turn timer: without one (and without the members intent,
        docs/RELIABILITY.md "People and channels") nothing else would learn of it, and
        the table would wait for them for ever. A member gone has the AI take the
        seat (``TableService.member_gone``), and play goes on."""
        live = self.service.tables.get(table_id)
        deal = None if live is None else live.deal
        moment = self.moment(table_id)
        if (live is None or deal is None or deal.to_act is None or moment is None
                or moment != before):
            return
        gone = live.member_of(deal.to_act)
        settings = self.service.known_settings(live.row.guild_id)
        if (gone is None or gone == member_id or live.is_ai(deal.to_act)
                or live.seat_of(member_id) is None or settings is None
                or settings.turn_timer > 0 or self.asked.get(table_id) == moment):
            return
        if len(self.asked) >= len(self.service.tables):  # none kept of closed tables
            self.asked = {t: m for t, m in self.asked.items() if t in self.service.tables}
        self.asked[table_id] = moment
        if await still_member(self.timers.client, live.row.guild_id, gone):
            return
        try:
            await self.after.show_all(await self.service.member_gone(live.row.guild_id, gone))
        except ServiceError:
            log.warning("table %s: could not give a departed member's seat to the AI", table_id)
