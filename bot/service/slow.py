"""Slow games (issue 24 §4): turn timers of hours, for correspondence play.

A turn timer of ``SLOW_TURN`` seconds or more is written down when it starts
(``Storage.turn_moment``): after a restart the same turn keeps its deadline
instead of starting afresh, and its reminder ("it is your move") is claimed in
storage before it is sent (``Storage.claim_reminder``), so it is sent once — at
once after a restart when it fell due while the bot was down, never twice.
Shorter timers live in memory only (``bot.timers.clock``).
"""

from __future__ import annotations

import datetime

from ..i18n import _
from ..storage import AnyStorage
from .errors import UserError

#: seconds from which a turn timer is slow: written down, kept through restarts
SLOW_TURN = 3600
#: the longest turn timer a server may set, in hours (three days)
MAX_TURN_HOURS = 72


def turn_hours_seconds(hours: int) -> int:
    """The turn timer, in seconds, of ``hours`` hours.

    Raises:
        UserError: ``hours`` is not from 1 to ``MAX_TURN_HOURS``.
    """
    if not 1 <= hours <= MAX_TURN_HOURS:
        raise UserError(_("A turn timer of hours goes from 1 to {most} hours (three days). "
                          "For a shorter one use turn_timer, in seconds; 0 turns it off.")
                        .format(most=MAX_TURN_HOURS))
    return hours * 3600


def _stamp(moment: datetime.datetime) -> str:
    return moment.astimezone(datetime.UTC).isoformat(timespec="seconds")


class SlowTurns:
    """The service's part for slow turns (a mixin of ``TableService``)."""

    storage: AnyStorage

    async def turn_started(self, table_id: int, deal: int, seq: int, seat: int,
                           now: datetime.datetime) -> tuple[datetime.datetime, bool]:
        """When the slow turn of ``seat`` (deal ``deal``, after ``seq`` operations)
        began — ``now`` the first time it is asked, the same moment after — and
        whether its reminder was sent already.

        Raises:
            Exception: the storage's (the caller keeps the turn in memory only).
        """
        moment = await self.storage.turn_moment(table_id, deal, seq, seat, _stamp(now))
        return datetime.datetime.fromisoformat(moment.started_at), moment.reminded_at is not None

    async def claim_reminder(self, table_id: int, deal: int, seq: int,
                             now: datetime.datetime) -> bool:
        """Whether this caller is the one to send the slow turn's reminder (marked
        sent at ``now`` first, so no later caller, restarts included, sends it)."""
        return await self.storage.claim_reminder(table_id, deal, seq, _stamp(now))
