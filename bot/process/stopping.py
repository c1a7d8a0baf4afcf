"""A clean stop: what SIGTERM (``docker stop``) and SIGINT (Ctrl+C) do, in
``python -m bot`` (``serve``) and ``python -m bot sandbox`` alike.

``stop_cleanly`` is the one stop path:

1. no new interaction runs: each one is answered ``RESTARTING`` and changes
   nothing (``bot.interactions.guard.guarded``, through ``CommerceBot.in_flight``);
2. the watch and the timers wind down (``Timers.wind_down``): no timer starts
   or acts any more, and what one was already doing runs to its end;
3. the interactions, units of work and timer moves in flight finish, for at
   most ``STOP_GRACE`` seconds; nothing is cancelled while that lasts, so a
   unit of work is never cut half-way (it commits before it answers, so a
   move a member was told about is always committed);
4. ``CommerceBot.close``: the Discord connection, then the storage (the
   SQLite file's lock, PostgreSQL's shard claims) and the AI worker.

A second signal during the stop ends the wait at once (the exit code is then
1: work still running is dropped, and what it had not committed is not kept,
since a unit commits all or nothing); a third ends the process at once.

The same stop follows when the storage lost this process's claim on its guilds
for good (PostgreSQL: another process took them while the claim's connection
was lost, or it could not be taken back in time; ``bot/storage/claims.py``):
its writes are already refused, and the exit code is ``CLAIM_LOST`` (3), so a
container's restart policy starts it again, to claim its guilds afresh or be
refused at start with one line.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
from collections.abc import Callable, Sequence
from types import FrameType, TracebackType
from typing import TYPE_CHECKING, Any

from ..service.locks import InFlight

if TYPE_CHECKING:
    from .app import CommerceBot

log = logging.getLogger(__name__)

#: seconds the work in flight is given to finish once a stop began: with the close
#: after it, within the 10 s `docker stop` waits by default before it kills
STOP_GRACE = 8.0
#: seconds the Discord connection is given to end once the bot is closed
CLOSE_WAIT = 5.0
#: the signals that stop the bot
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)
#: the exit code of a bot that stopped because it lost its claim on its guilds
CLAIM_LOST = 3

_Handler = Callable[[int, FrameType | None], Any] | int | None


class StopSignals:
    """SIGTERM and SIGINT while the ``with`` block runs (``loop.add_signal_handler``,
    on the running loop): the first sets ``requested``, the second ``hurry``
    (the grace period ends at once), a third exits the process at once with
    code 1. On leaving the block the handlers there were before come back.

    Where the loop cannot take signals (Windows; not the main thread) nothing
    is installed and ``installed`` stays ``False``: Ctrl+C then raises
    ``KeyboardInterrupt`` as usual.

    Attributes:
        requested: set by the first signal: stop cleanly.
        hurry: set by the second: stop now.
        received: the signals received so far, in order.
        installed: the signals whose handler was installed.
    """

    def __init__(self, signals: Sequence[signal.Signals] = STOP_SIGNALS) -> None:
        """Nothing is installed before the ``with`` block."""
        self.signals = tuple(signals)
        self.requested = asyncio.Event()
        self.hurry = asyncio.Event()
        self.received: list[signal.Signals] = []
        self.installed: list[signal.Signals] = []
        self._before: dict[signal.Signals, _Handler] = {}
        self._loop: asyncio.AbstractEventLoop | None = None

    def __enter__(self) -> StopSignals:
        """Install the handlers on the running loop (needs one).

        Raises:
            RuntimeError: no event loop is running.
        """
        self._loop = asyncio.get_running_loop()
        for sig in self.signals:
            before = signal.getsignal(sig)
            try:
                self._loop.add_signal_handler(sig, self._received, sig)
            except (NotImplementedError, RuntimeError, ValueError):
                continue  # no signals on this loop, or not in the main thread
            self._before[sig] = before
            self.installed.append(sig)
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        """Remove the handlers and put back the ones there were before."""
        assert self._loop is not None
        for sig in self.installed:
            with contextlib.suppress(Exception):
                self._loop.remove_signal_handler(sig)
                signal.signal(sig, self._before[sig])
        self.installed.clear()

    @property
    def reason(self) -> str | None:
        """The first signal's name (``SIGTERM``), for the log; ``None`` before one."""
        return self.received[0].name if self.received else None

    def _received(self, sig: signal.Signals) -> None:
        self.received.append(sig)
        if len(self.received) == 1:  # stop_cleanly logs it
            self.requested.set()
        elif len(self.received) == 2:
            log.warning("%s received again: stopping now, without waiting for the work "
                        "in flight", sig.name)
            self.hurry.set()
        else:
            log.warning("%s received a third time: exiting at once", sig.name)
            os._exit(1)


async def stop_cleanly(bot: CommerceBot, *, grace: float = STOP_GRACE,
                       hurry: asyncio.Event | None = None, reason: str | None = None) -> bool:
    """Stop the bot cleanly (the four steps of the module's docstring); logs one
    INFO line when it begins and one when it is done. Works on a bot whose
    ``setup_hook`` has not run yet (then there is only the connection to close).

    Args:
        bot: the running bot.
        grace: seconds the work in flight is given to finish (``STOP_GRACE``).
        hurry: once set (a second signal), the wait ends at once.
        reason: what asked for the stop (``SIGTERM``), named in the first line.

    Returns:
        Whether everything in flight finished before the bot closed (``False``:
        the grace period ran out, or ``hurry`` was set; what was still running
        then had committed nothing of its unit, or all of it).
    """
    loop = asyncio.get_running_loop()
    began = loop.time()
    log.info("stopping%s: new interactions are turned away; waiting up to %.0f s for the "
             "work in flight", f" ({reason})" if reason else "", grace)
    bot.in_flight.close()
    busy: dict[str, InFlight] = {"interactions": bot.in_flight}
    timers = getattr(bot, "timers", None)  # none before setup_hook
    if timers is not None:
        timers.wind_down()
        busy["timer moves"] = timers.working
    service = getattr(bot, "service", None)
    if service is not None:
        busy["units of work"] = service.units
    finished = await _drained(list(busy.values()), grace, hurry)
    if not finished:
        running = ", ".join(f"{n.count} {what}" for what, n in busy.items() if n.count)
        log.warning("stopping: still running after %.1f s (%s); closing anyway",
                    loop.time() - began, running or "nothing")
    if service is not None and service.unsaved:  # message ids the next start needs
        with contextlib.suppress(Exception):
            await asyncio.wait_for(service.write_unsaved(), 2.0)
    await bot.close()
    if finished:
        log.info("stopped cleanly in %.1f s", loop.time() - began)
    else:
        log.info("stopped in %.1f s, with work cut short", loop.time() - began)
    return finished


async def _drained(busy: list[InFlight], grace: float, hurry: asyncio.Event | None) -> bool:
    """Whether every counter of ``busy`` reached 0 at once within ``grace``
    seconds (and before ``hurry`` was set)."""
    async def all_idle() -> None:
        while any(n.count for n in busy):
            for n in busy:
                await n.idle()

    idle = asyncio.ensure_future(all_idle())
    waits: set[asyncio.Future[Any]] = {idle}
    if hurry is not None:
        waits.add(asyncio.ensure_future(hurry.wait()))
    try:
        await asyncio.wait(waits, timeout=grace, return_when=asyncio.FIRST_COMPLETED)
        return idle.done() and not (hurry is not None and hurry.is_set())
    finally:
        for wait in waits:
            wait.cancel()


async def serve(bot: CommerceBot, token: str, *, grace: float = STOP_GRACE) -> int:
    """Run ``bot`` on Discord with ``token`` until SIGTERM or SIGINT, or until its
    claim on its guilds is lost (``CommerceBot.claim_lost``), then stop it
    cleanly (``stop_cleanly``); what ``python -m bot`` runs, in place of
    ``Client.run``.

    Args:
        bot: the bot, not started yet.
        token: the bot token.
        grace: seconds the work in flight is given to finish (``STOP_GRACE``).

    Returns:
        The exit code: 0 after a clean stop (or a connection that ended by
        itself without an error), 1 when the stop had to cut work short,
        ``CLAIM_LOST`` (3) when the claim was lost.

    Raises:
        discord.LoginFailure, discord.HTTPException, OSError: what ``bot.start``
            raises (a refused token, Discord unreachable); the bot is closed.
        DatabaseUnavailable: the storage could not be opened (``setup_hook``).
    """
    with StopSignals() as signals:
        async with bot:
            connection = asyncio.create_task(bot.start(token), name="discord connection")
            stops = {asyncio.create_task(signals.requested.wait()),
                     asyncio.create_task(bot.claim_lost.wait())}
            try:
                await asyncio.wait({connection, *stops}, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for stop in stops:
                    stop.cancel()
            lost = bot.claim_lost.is_set()
            if connection.done() and not lost:
                connection.result()  # what ended it, raised
                return 0
            clean = await stop_cleanly(bot, grace=grace, hurry=signals.hurry,
                                       reason="claim lost" if lost else signals.reason)
            await _ended(connection)
            await bot.close_storage()  # a storage opened while the stop began (idempotent)
            if lost:
                return CLAIM_LOST
            return 0 if clean else 1


async def _ended(connection: asyncio.Task[None]) -> None:
    """Let the connection end now that the bot is closed (one waiting to
    reconnect is cancelled after ``CLOSE_WAIT`` seconds); what it raised is
    only logged: the bot is stopping anyway."""
    done, _ = await asyncio.wait({connection}, timeout=CLOSE_WAIT)
    if not done:
        connection.cancel()
        await asyncio.wait({connection}, timeout=CLOSE_WAIT)
    if connection.done() and not connection.cancelled():
        exc = connection.exception()
        if exc is not None:
            log.debug("the Discord connection ended with %s while stopping", type(exc).__name__)
