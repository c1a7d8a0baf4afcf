"""Slow turns for the turn timer (issue 24 §4; docs/RELIABILITY.md "Slow games"): a
turn timer of ``SLOW_TURN`` seconds or more counts from the turn's start as written
down in storage (``TableService.turn_started``), so a restart keeps its deadline,
and its reminder goes out only when storage lets it through (once)."""

from __future__ import annotations

import datetime
import logging

import discord

from ..service import SLOW_TURN, TableService

log = logging.getLogger(__name__)

#: a slow turn's schedule from now: (seconds to the reminder, seconds to the deadline)
Schedule = tuple[float, float]


async def schedule(service: TableService, table_id: int, moment: tuple[int, int, int],
                   seconds: int, now: datetime.datetime,
                   ) -> tuple[datetime.datetime, Schedule | None]:
    """The deadline of the turn at ``moment`` (deal number, operation count, seat)
    for a timer of ``seconds``, and — for a slow one — its ``Schedule``, counted
    from its written-down start (``now`` the first time; when storage fails, from
    now, logged). A timer under ``SLOW_TURN`` counts from ``now``, with no schedule."""
    if seconds < SLOW_TURN:
        return now + datetime.timedelta(seconds=seconds), None
    start = now
    try:
        start, _reminded = await service.turn_started(table_id, *moment, now)
    except Exception:
        log.warning("table %s: a slow turn's start could not be written; it counts from now",
                    table_id, exc_info=True)
    deadline = start + datetime.timedelta(seconds=seconds)
    remind = max(0.0, (start + datetime.timedelta(seconds=seconds / 2) - now).total_seconds())
    return deadline, (remind, max(remind, (deadline - now).total_seconds()))


async def reminder_due(service: TableService, table_id: int, deal_number: int, seq: int,
                       slow: Schedule | None) -> bool:
    """Whether to send a turn's reminder now: always for a timer in memory; for a slow
    turn only when storage lets this caller through (never twice, restarts included;
    when storage cannot say, none is sent)."""
    if slow is None:
        return True
    try:
        return await service.claim_reminder(table_id, deal_number, seq, discord.utils.utcnow())
    except Exception:
        log.warning("table %s: a slow turn's reminder could not be marked; not sent",
                    table_id, exc_info=True)
        return False
