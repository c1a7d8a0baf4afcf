"""What happens at a table without anyone clicking: the next-deal timer, the
turn timer (a reminder halfway, then the AI plays) and the watch that keeps
every open table moving whatever failed before.

One ``Timers`` per bot (``CommerceBot.timers``). What a timer or the watch
changes is shown through the one step after every change, handed over as plain
callbacks (``show``, ``catch_up``: ``bot.changes.after``, which arms these
timers); the timers write their deadlines where the publisher reads what its
messages show of them (``Publisher.countdowns``). The ``Play`` cog starts it
when it loads and stops it (the watch and every timer) when it unloads. A clean
stop (``bot.process.stopping``) winds it down first (``wind_down``): no timer starts or
acts any more, and what the watch or a timer was already doing runs to its end.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, Protocol

import discord
from discord.ext import tasks

from ..i18n import _
from ..publishing.publisher import Publisher
from ..runtime.sending import ping
from ..service import LiveTable, Outcome, StorageFailure, TableService, UserError
from ..service.locks import InFlight
from ..ui import render
from .quiet import QuietTables
from .slow import Schedule, reminder_due, schedule

log = logging.getLogger(__name__)

#: seconds between two rounds of the watch over open tables (see ``Timers.tick``)
WATCH_EVERY = 5.0
#: seconds without a join, leave or new AI seat after which a lobby closes
LOBBY_IDLE = 30 * 60
#: seconds between two sweeps of the channels finished games keep (``Places.sweep``)
SWEEP_EVERY = 10 * 60
#: tables the watch looks at before it lets other work run (a table it finds
#: in order costs a few microseconds; 10,000 at once would hold every click
#: back for tens of milliseconds)
TEND_BATCH = 200


class Show(Protocol):
    """The one step after every change (``bot.changes.after.AfterChange.show``):
    what an outcome changed becomes messages, panels and timers."""

    def __call__(self, outcome: Outcome, interaction: discord.Interaction | None = None, *,
                 paced: bool = True, idle: int = 0) -> Awaitable[None]:
        """Show ``outcome`` (``paced``: AI moves one at a time; ``idle``: the seconds
        an idle lobby stood before it closed)."""


#: bring a table's public messages up to what is committed, at once (the watch's
#: catch-up, ``bot.changes.after.AfterChange.catch_up``)
CatchUp = Callable[[LiveTable], Awaitable[None]]


async def still_member(client: discord.Client, guild_id: int, member_id: int) -> bool:
    """Whether the member is still in the guild (asks Discord: the bot has no
    members intent); ``True`` when Discord cannot say now."""
    guild = client.get_guild(guild_id)
    if guild is None:
        return True
    try:
        await guild.fetch_member(member_id)
    except discord.NotFound:
        return False
    except discord.HTTPException:
        return True
    return True


class Timers:
    """Next-deal and turn timers of every table, and the watch.

    Args:
        client: the bot (to wait until it is ready and to ask about members).
        service: the table service the timers act through.
        publisher: where the reminders go, the tables whose messages are behind or
            being brought up to date, and where the deadlines are written that the
            messages show (``Publisher.countdowns``).

    Attributes:
        show: the one step after every change, for what a timer changed; set with
            ``catch_up`` when the bot is made (``CommerceBot.setup_hook``) to its
            ``AfterChange``'s.
        catch_up: the watch's catch-up of a table owing one without any change.
        next_deal_timers: table id -> the task dealing its next hand after the delay.
        turn_timers: table id -> the turn timer of the member to act.
        quiet: the tables whose moment ``arm_turn_timer`` found to need no turn
            timer, which the watch does not decide again while it holds.
        rounds: rounds of the watch run to their end so far.
        round_ended: when the latest of them ended (``time.monotonic``; ``None``
            before the first); ``lag`` is read from it.
    """

    show: Show
    catch_up: CatchUp

    def __init__(self, client: discord.Client, service: TableService,
                 publisher: Publisher) -> None:
        """No timer runs, and the watch waits for ``start`` (the ``Play`` cog's load)."""
        self.client = client
        self.service = service
        self.publisher = publisher
        #: event-loop time of the next sweep of finished tables' channels
        self.next_sweep = 0.0
        self.next_deal_timers: dict[int, asyncio.Task[None]] = {}
        self.turn_timers: dict[int, asyncio.Task[None]] = {}
        #: table id -> when its waiting next deal comes (the publisher's, which shows it)
        self.next_deals = publisher.countdowns.next_deals
        #: table id -> ((deal number, operation count, seat), when its turn timer runs
        #: out), while it waits (the publisher's, which shows it)
        self.deadlines = publisher.countdowns.turns
        #: table id -> its "it is your move" reminder, deleted once the moment passed
        self.reminders: dict[int, discord.Message] = {}
        self.quiet = QuietTables(service)
        #: what timers that ran out are doing (an automatic deal, the AI's move)
        self.acting: set[asyncio.Task[None]] = set()
        #: a round of the watch and what timers that ran out are doing, counted;
        #: closed by ``wind_down`` (then no timer starts or acts any more)
        self.working = InFlight()
        self._ticking = False
        self.rounds = 0
        self.round_ended: float | None = None
        self._made = time.monotonic()

    def start(self) -> None:
        """Start the watch (its first round runs once the bot is ready)."""
        self.watch.start()

    def stop(self) -> None:
        """Stop the watch and every timer, at once (what they are doing included)."""
        self.watch.cancel()
        for task in [*self.next_deal_timers.values(), *self.turn_timers.values(), *self.acting]:
            task.cancel()
        self._forget_waiting()

    def wind_down(self) -> None:
        """The first step of a clean stop (``bot.process.stopping``): nothing new starts
        from now on, and nothing under way is cut short. The watch ends after the
        round it is in (if any), timers still waiting are dropped (the next start's
        watch arms them again), no timer is armed or acts any more, and what timers
        that ran out are doing (``acting``) runs to its end. ``working`` counts
        what is still running; idempotent."""
        self.working.close()
        if self._ticking:
            self.watch.stop()  # after this round (a unit is never cut half-way)
        else:
            self.watch.cancel()  # it was only sleeping, or waiting for the bot to be ready
        for task in [*self.next_deal_timers.values(), *self.turn_timers.values()]:
            task.cancel()  # a timer still waiting sleeps, or posts its reminder
        self._forget_waiting()

    def _forget_waiting(self) -> None:
        self.next_deal_timers.clear()
        self.turn_timers.clear()
        self.next_deals.clear()
        self.deadlines.clear()
        self.quiet.clear()

    # ------------------------------------------------------------ the watch
    @tasks.loop(seconds=WATCH_EVERY)
    async def watch(self) -> None:
        """Every few seconds (and at start-up): ``tick``, counted in ``working``
        and, once it ended without an error, in ``rounds``."""
        self._ticking = True
        try:
            with self.working.track():
                await self.tick()
            self.rounds += 1
            self.round_ended = time.monotonic()
        finally:
            self._ticking = False

    def lag(self) -> float:
        """Seconds the watch is behind its pace: the time since its latest round
        ended (before the first, since these timers were made), less the
        ``WATCH_EVERY`` seconds it sleeps between two rounds; 0 while it keeps
        pace. It grows while a round is stuck, after the watch stopped or
        failed, and while the bot waits to be connected before the first round."""
        last = self.round_ended if self.round_ended is not None else self._made
        return max(0.0, time.monotonic() - last - WATCH_EVERY)

    @watch.before_loop
    async def _before_watch(self) -> None:
        await self.client.wait_until_ready()

    async def tick(self) -> None:
        """Keep every open table moving by itself, whatever failed before: a
        table owing an automatic step (AI seats to act, a first deal, a rebuild
        after a failed write) takes it; a showdown not yet posted is posted; a
        table whose messages Discord refused to update for a while (``behind``)
        is brought up to date; a lobby's fair-shuffle message not yet posted is
        posted; an ended table's end still to be shown is shown; a
        next deal or turn timer that is not running is started; a lobby idle for
        ``LOBBY_IDLE`` seconds is closed; every ``SWEEP_EVERY`` seconds, the
        channels finished games kept their guild's ``keep_days`` are removed.
        Failures are logged and tried again at the next tick."""
        await self._tend_all()
        for table_id in self.service.idle_lobbies(LOBBY_IDLE):
            try:
                closed = await self.service.close_idle(table_id, LOBBY_IDLE)
            except StorageFailure:
                continue
            if closed is not None:
                log.info("table %s: lobby closed after %s s without activity", table_id,
                         LOBBY_IDLE)
                await self.show(closed, idle=LOBBY_IDLE)
        if self.service.unsaved:
            await self.service.write_unsaved()
        now = asyncio.get_running_loop().time()
        if now >= self.next_sweep or self.publisher.places.sweep_due:
            self.next_sweep = now + SWEEP_EVERY
            self.publisher.places.sweep_due = False
            shards = getattr(self.client, "served_shards", None)
            removed = await self.publisher.places.sweep(shards() if shards else None)
            if removed:
                log.info("removed the channels of %s finished tables kept long enough", removed)

    async def _tend_all(self) -> None:
        """Each open, stale or ending table, in order, gets what it needs
        (``_tend``); every ``TEND_BATCH`` tables other work may run."""
        tables = {*self.service.tables, *self.service.stale, *self.service.ending}
        for index, table_id in enumerate(sorted(tables)):
            if index % TEND_BATCH == TEND_BATCH - 1:
                await asyncio.sleep(0)  # a long round lets the clicks in between
            try:
                step = self._tend(table_id)
                if step is not None:
                    await step
            except StorageFailure:
                log.warning("table %s: still cannot write; will try again", table_id)
            except Exception:
                log.exception("table %s: the watch failed", table_id)
        self.quiet.keep_only(self.service.tables.keys())

    def _tend(self, table_id: int) -> Awaitable[None] | None:
        """What the watch does for the table now, not yet started (``None``: nothing)."""
        # the watch never waits: what it publishes shows the latest state at once
        if self.service.lock.locked(table_id) or self.publisher.busy(table_id):
            return None  # a request is changing or publishing it; the next tick looks again
        ended = self.service.ending.get(table_id)
        if ended is not None:  # its end is still to be shown
            return self.catch_up(ended)
        if self.service.due(table_id):
            return self._resume(table_id)
        live = self.service.tables.get(table_id)
        if live is None:
            return None
        if table_id in self.publisher.behind:
            return self.catch_up(live)  # Discord refused an update
        if self.publisher.commitments.owed(live):
            return self.publisher.commitments.post_owed(live)
        game, deal = live.game, live.deal
        if game is None or deal is None:
            return None
        if deal.finished:
            unposted = deal.showdown is not None and live.deal_number not in live.announced
            waiting = (not game.complete and live.row.next_deal_delay > 0
                       and not self.waiting(table_id))
            return self.catch_up(live) if unposted or waiting else None
        if live.row.table_message_id is None:
            # posts the table message a failed write lost
            return self.catch_up(live)
        if table_id in self.turn_timers or self.quiet.holds(live, deal):
            return None
        return self.arm_turn_timer(live)

    async def _resume(self, table_id: int) -> None:
        """Take the automatic step the table owes (``TableService.resume``) and show it."""
        outcome = await self.service.resume(table_id)
        if outcome is not None:
            await self.show(outcome, paced=False)

    # ------------------------------------------------------------ next deal
    def waiting(self, table_id: int) -> bool:
        """Whether the table's next deal is waiting for its delay."""
        return table_id in self.next_deal_timers

    def reschedule_next(self, live: LiveTable) -> None:
        """Apply a changed delay to a next deal that is already waiting."""
        if live.id in self.next_deal_timers:
            self.cancel_timer(live.id)
            self.schedule_next(live)

    def schedule_next(self, live: LiveTable, at: datetime.datetime | None = None) -> None:
        """Deal the next hand automatically after the table's delay (at ``at``,
        the moment already announced, when given)."""
        delay: float = live.row.next_deal_delay
        if delay <= 0 or self.working.closed:
            return
        now = discord.utils.utcnow()
        if at is None:
            at = now + datetime.timedelta(seconds=delay)
        else:
            delay = max(0.0, (at - now).total_seconds())
        self.cancel_timer(live.id)
        self.next_deals[live.id] = at
        self.next_deal_timers[live.id] = asyncio.create_task(
            self._auto_next(live.id, live.deal_number, delay))

    def next_deal_at(self, table_id: int) -> datetime.datetime | None:
        """When the table's waiting next deal comes (``None``: none is waiting;
        ``Countdowns.next_deal_at``)."""
        return self.publisher.countdowns.next_deal_at(table_id)

    def turn_deadline(self, live: LiveTable) -> datetime.datetime | None:
        """When the turn timer of the seat to act now runs out (``None``: no timer
        runs for this moment of the deal; ``Countdowns.turn_deadline``)."""
        return self.publisher.countdowns.turn_deadline(live)

    def forget(self, table_id: int) -> None:
        """Stop every timer of a closed table."""
        self.cancel_timer(table_id)
        turn = self.turn_timers.pop(table_id, None)
        self.deadlines.pop(table_id, None)
        self.reminders.pop(table_id, None)
        self.quiet.forget(table_id)
        if turn is not None:
            turn.cancel()

    async def stop_turn_timer(self, table_id: int) -> None:
        """Stop the table's turn timer for now (its moment has passed; the next
        one starts when the table message shows it) and take its reminder away."""
        turn = self.turn_timers.pop(table_id, None)
        self.deadlines.pop(table_id, None)
        self.quiet.forget(table_id)
        if turn is not None and turn is not asyncio.current_task():
            turn.cancel()
        await self.drop_reminder(table_id)

    async def drop_reminder(self, table_id: int) -> None:
        """Delete the table's "it is your move" reminder, once its moment has
        passed (a move made, the AI played, the table closed); failures are
        ignored: it is cosmetic."""
        reminder = self.reminders.pop(table_id, None)
        if reminder is not None:
            with contextlib.suppress(discord.HTTPException):
                await reminder.delete()

    def cancel_timer(self, table_id: int) -> None:
        """Stop the table's next-deal timer (unless it is the one running this)."""
        task = self.next_deal_timers.pop(table_id, None)
        self.next_deals.pop(table_id, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    async def _auto_next(self, table_id: int, after: int, delay: float) -> None:
        await asyncio.sleep(delay)
        self.next_deal_timers.pop(table_id, None)
        self.next_deals.pop(table_id, None)
        self._act(self._deal_next(table_id, after))

    async def _deal_next(self, table_id: int, after: int) -> None:
        try:
            outcome = await self.service.next_deal(table_id, after=after)
        except StorageFailure:  # the bot's failure: the watch arms the delay again
            log.warning("table %s: automatic next deal could not be saved; the watch tries "
                        "again", table_id)
            return
        except UserError:
            return  # someone pressed Next deal, or the table closed
        except Exception:
            log.exception("table %s: automatic next deal failed", table_id)
            return
        await self.show(outcome)

    # ------------------------------------------------------------ turn timer
    async def arm_turn_timer(self, live: LiveTable) -> None:
        """Start the turn timer of the member to act, if the guild has one; one
        already running for this very moment of the deal (same deal, operation
        count and seat) keeps its deadline, any other is stopped. A moment found
        to need no timer (none in the guild) is remembered in ``quiet``."""
        deal = live.deal
        moment = (live.deal_number, len(deal.operations), deal.to_act) \
            if deal is not None and deal.to_act is not None else None
        self.quiet.forget(live.id)  # decided again below
        running = self.turn_timers.get(live.id)
        known = self.deadlines.get(live.id)
        if (running is not None and not running.done() and known is not None
                and known[0] == moment and not live.is_ai(moment[2])):
            return
        old = self.turn_timers.pop(live.id, None)
        self.deadlines.pop(live.id, None)
        if old is not None and old is not asyncio.current_task():
            old.cancel()
        await self.drop_reminder(live.id)  # that moment has passed
        if (deal is None or deal.finished or live.id not in self.service.tables
                or self.working.closed):
            return
        seat = deal.to_act
        assert seat is not None and moment is not None
        if live.is_ai(seat):
            return
        seconds = (await self.service.settings(live.row.guild_id)).turn_timer
        if seconds <= 0:
            if self.turn_timers.get(live.id) is None:  # none armed meanwhile
                self.quiet.remember(live, deal, moment, seconds)
            return
        deadline, slow = await schedule(self.service, live.id, moment, seconds,
                                        discord.utils.utcnow())
        if slow is not None and (self.turn_timers.get(live.id) is not None
                                 or live.deal is not deal or (live.deal_number,
                                 len(deal.operations), deal.to_act) != moment):
            return  # armed meanwhile, or the moment passed while it was written down
        self.deadlines[live.id] = (moment, deadline)
        self.turn_timers[live.id] = asyncio.create_task(self._turn_timer(
            live.id, live.deal_number, len(deal.operations), seat, seconds, slow))

    async def _turn_timer(self, table_id: int, deal_number: int, seq: int, seat: int,
                          seconds: int, slow: Schedule | None = None) -> None:
        """Remind the member halfway, then let the AI play at the deadline (``slow``:
        a turn of hours, on its ``Schedule``, reminded once: ``bot.timers.slow``)."""
        await asyncio.sleep(seconds / 2 if slow is None else slow[0])
        live = self.service.tables.get(table_id)
        deal = live.deal if live is not None else None
        if (live is None or deal is None or live.deal_number != deal_number
                or len(deal.operations) != seq or deal.to_act != seat):
            # that moment has passed (the move was made): no reminder, no timeout
            if self.turn_timers.get(table_id) is asyncio.current_task():
                self.turn_timers.pop(table_id, None)
                self.deadlines.pop(table_id, None)
            return
        member_id = live.member_of(seat)
        known = self.deadlines.get(table_id)
        left = (render.when(known[1]) if known is not None
                else _("in {seconds}").format(seconds=render.plural(seconds - seconds // 2, 'second')))
        if await reminder_due(self.service, table_id, deal_number, seq, slow):
            with contextlib.suppress(discord.HTTPException):
                self.reminders[table_id] = await self.publisher.channel(live).send(
                    "⏰ " + _("{member}, it is your move: the AI plays for you {left}.").format(
                        member=f"<@{member_id}>", left=left),
                    allowed_mentions=ping(member_id))
        await asyncio.sleep(seconds - seconds / 2 if slow is None else slow[1] - slow[0])
        # From here on the timer acts: re-arming must not cancel it half-way.
        self.turn_timers.pop(table_id, None)
        self.deadlines.pop(table_id, None)  # no deadline shown while the AI plays
        self._act(self._expire(table_id, deal_number, seq, seat, member_id))

    def _act(self, step: Coroutine[Any, Any, None]) -> None:
        """Run what a timer does once it has run out as a task of its own, which
        re-arming or cancelling the timer cannot stop half-way (``stop`` does;
        ``wind_down`` waits for it). Once wound down, nothing new is started."""
        if self.working.closed:
            step.close()
            return
        task = asyncio.get_running_loop().create_task(step)
        self.acting.add(task)
        self.working.enter()
        task.add_done_callback(self._acted)

    def _acted(self, task: asyncio.Task[None]) -> None:
        self.acting.discard(task)
        self.working.exit()

    async def _expire(self, table_id: int, deal_number: int, seq: int, seat: int,
                      member_id: int | None) -> None:
        try:
            live = self.service.tables.get(table_id)
            if live is None or member_id is None:
                return
            if not await still_member(self.client, live.row.guild_id, member_id):
                for gone in await self.service.member_gone(live.row.guild_id, member_id):
                    await self.show(gone)
                return
            timed = await self.service.timeout(table_id, deal_number, seq)
            if timed is not None:  # the offer answered, the move said, the table shown
                await self.show(timed)
        except Exception:
            log.exception("table %s: turn timer failed", table_id)
