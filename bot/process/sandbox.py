"""An offline sandbox: the real bot against SimCord's simulated Discord, shown
as a Discord-like page on 127.0.0.1 (needs the ``sandbox`` extra)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import tempfile
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .stopping import StopSignals, stop_cleanly

if TYPE_CHECKING:
    import simcord

    from .app import CommerceBot


class _Simulated(logging.Filter):
    """Drops the start-up lines that would read as if the sandbox talked to
    Discord: discord.py's warning caused by SimCord's own probe client (built with
    no intents; the bot itself always has the guilds intent), its "logging in
    using static token" (the token is SimCord's) and the bot's invite link (to an
    application id SimCord made up)."""

    #: (logger, the start of the message dropped)
    DROPPED = (("discord.state", "Guilds intent seems to be disabled"),
               ("discord.client", "logging in using static token"),
               ("cogs.help", "invite link:"))

    def filter(self, record: logging.LogRecord) -> bool:
        """False for one of the ``DROPPED`` lines."""
        message = record.getMessage()
        return not any(record.name == name and message.startswith(start)
                       for name, start in self.DROPPED)


#: seconds the sandbox page's server may take to close once the bot has stopped
PAGE_CLOSES_WITHIN = 3.0


async def run_sandbox(port: int = 8765, db_path: str | None = None,
                      seconds: float | None = None,
                      endpoint: tuple[str, int] | None = None) -> int:
    """Serve the sandbox until SIGTERM or SIGINT (or for ``seconds`` of real time).

    Virtual time advances one second per real second so the automatic next deal
    fires, and the page is refreshed whenever the bot posted or changed something
    on its own. The member "ann" (you) owns the server, so ``/commerce-admin`` can
    be tried too. Once the page serves, its address is printed (flushed at once):
    the line after "Open this address in a browser:". SIGTERM and SIGINT (Ctrl+C)
    stop the bot as in ``python -m bot`` (``bot.process.stopping.stop_cleanly``). With an
    ``endpoint``, the bot serves ``/metrics`` and ``/health`` as ``python -m bot``
    does (``bot.process.health``), and the line "Metrics: <address>metrics" is printed
    before the page's address.

    Args:
        port: the page's loopback port; 0 picks a free one.
        db_path: the SQLite file; ``None``, a temporary one (deleted at the end).
        seconds: stop by itself after this many seconds (tests).
        endpoint: ``(host, port)`` of the ``/metrics`` and ``/health`` endpoint
            (``METRICS_PORT``, ``METRICS_HOST``); ``None``, none.

    Returns:
        The exit code: 0 (stopped, cleanly if by a signal), 1 when the page could
        not start or a second signal cut the stop short.

    Raises:
        DatabaseUnavailable: ``db_path`` cannot be used (``bot.storage``).
        EndpointError: the endpoint cannot listen where it was told.
    """
    simulated = _Simulated()
    loggers = [logging.getLogger(name) for name in {name for name, _ in _Simulated.DROPPED}]
    for logger in loggers:  # before SimCord is imported: its probe client warns then
        logger.addFilter(simulated)
    try:
        return await _sandbox(port, db_path, seconds, endpoint)
    finally:
        for logger in loggers:
            logger.removeFilter(simulated)


async def _sandbox(port: int, db_path: str | None, seconds: float | None,
                   endpoint: tuple[str, int] | None) -> int:
    """``run_sandbox`` once the start-up lines it drops are filtered."""
    try:
        import simcord
    except ImportError:
        print("The sandbox needs the simcord extra: pip install -e '.[sandbox]'")
        return 1
    from .app import create_bot

    tmp = None
    if db_path is None:
        tmp = tempfile.TemporaryDirectory(prefix="commerce-sandbox-")
        db_path = str(Path(tmp.name) / "sandbox.db")
    with StopSignals() as signals:
        try:
            bot = create_bot(db_path, endpoint=endpoint)
            return await _serve(simcord, bot, port, seconds, signals)
        finally:
            if tmp is not None:
                tmp.cleanup()


async def _serve(simcord: Any, bot: CommerceBot, port: int, seconds: float | None,
                 signals: StopSignals) -> int:
    """``run_sandbox`` once its database is chosen and the signals are installed."""
    code = 0
    try:
        async with simcord.run(bot) as env:
            # the AI worker starts now, from the sandbox's own task, so that the
            # first hint answers at once; started in setup_hook, SimCord's start
            # would wait for it (seconds on a busy machine) and give up after 5 s
            bot.service.players.warm()
            # the pause between two AI moves shown is declared to SimCord, so that a
            # click does not wait for it: the clock below brings the moves one at a
            # time, as Discord would show them
            bot.publisher.showing.pause = lambda seconds: env.external_wait(
                asyncio.sleep(seconds), reason="the AI's pace (bot.publishing.showing)")
            user = env.create_user("ann")
            guild = env.create_guild(name="Commerce sandbox", owner=user)
            channel = guild.create_text_channel("commerce")
            you = guild.add_member(user)
            await bot.service.update_settings(guild.id, you.id, table_mode="here",
                                              next_deal_delay=10)
            try:
                preview_cm = env.preview(channel, viewers=[you], layout="channel", port=port)
                preview = await preview_cm.__aenter__()
            except simcord.SetupError as exc:
                print(f"The sandbox could not start its page on port {port} ({exc}); "
                      "try another with --port.")
                return 1
            try:
                if bot.endpoint is not None:
                    print(f"Metrics: {bot.endpoint.url}metrics (health: {bot.endpoint.url}health)")
                print("Commerce sandbox is running. Open this address in a browser:")
                print(f"  {preview.url}")
                print("Type /commerce new, press Add AI twice, then Start. Ctrl+C stops.",
                      flush=True)
                elapsed = 0.0
                seen = _fingerprint(channel)
                while seconds is None or elapsed < seconds:
                    with contextlib.suppress(TimeoutError):
                        async with asyncio.timeout(1):
                            await signals.requested.wait()
                    if signals.requested.is_set():
                        break
                    elapsed += 1
                    with contextlib.suppress(Exception):
                        await env.advance_time(1)
                    if preview._closed:  # the page server stopped
                        break
                    now = _fingerprint(channel)
                    if now != seen:  # the bot posted or edited on its own: show it
                        seen = now
                        with contextlib.suppress(Exception):
                            await preview.refresh()
                if signals.requested.is_set() and not await stop_cleanly(
                        bot, hurry=signals.hurry, reason=signals.reason):
                    code = 1
            finally:
                # the page server waits for its open requests (a click still waiting
                # for the bot, which has stopped) before it closes: a few seconds at most
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(preview_cm.__aexit__(None, None, None),
                                           PAGE_CLOSES_WITHIN)
    except asyncio.CancelledError:  # Ctrl+C where the loop takes no signals
        pass
    finally:
        await bot.close_storage()
    return code


def _fingerprint(channel: simcord.ChannelHandle) -> tuple[tuple[int, datetime | None], ...]:
    """What the channel shows: the id and last edit of each of its last 30
    messages (for refreshes)."""
    return tuple((m.id, m.edited_at) for m in channel.history()[-30:])
