"""The optional HTTP endpoint of a bot process: ``/metrics`` for Prometheus and
``/health`` for Docker Compose's health check (docs/SCALING.md, "Operating it").

Off unless ``METRICS_PORT`` is set (``bot.__main__.metrics_from_env``); it
listens on ``METRICS_HOST``, by default 127.0.0.1, so only the same machine or
container reaches it. It runs on the bot's own event loop (aiohttp's web server, which
discord.py already needs): it starts at the end of ``CommerceBot.setup_hook``
and stops with the bot (``CommerceBot.close_storage``, the last step of a
clean stop, bot/process/stopping.py).

``/metrics`` serves the bot's registry (``bot.runtime.metrics.Metrics``) with the bot's
state added at each scrape (``BotReadings``). ``/health`` answers 200
``{"status": "ok"}`` when the bot is connected to Discord, its database
answers a trivial query within ``STORAGE_WAIT`` seconds, it holds the claim of
each of its shards and its watch keeps pace (``Timers.lag``); otherwise 503
``{"status": "unhealthy", "reason": …}`` (``problems``).
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable
from typing import Protocol

from aiohttp import web
from prometheus_client import CollectorRegistry
from prometheus_client.aiohttp import make_aiohttp_handler
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from ..service import TableService
from ..service.locks import InFlight
from ..storage import AnyStorage
from ..timers.clock import WATCH_EVERY, Timers

log = logging.getLogger(__name__)

#: seconds the database is given to answer the health check's query
STORAGE_WAIT = 2.0
#: seconds the watch may be behind its pace (``Timers.lag``) before the bot is unhealthy:
#: its latest round ended more than three of its intervals ago
WATCH_LATE = 2 * WATCH_EVERY
#: seconds a request still being answered is given when the endpoint stops
STOP_WAIT = 1.0


class EndpointError(RuntimeError):
    """The endpoint could not listen where it was told (a port in use, a host
    that is not this machine's): the message is one line naming the address."""


def host_port(host: str, port: int) -> str:
    """``host:port`` for a message or a URL (an IPv6 address in brackets)."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


class Watched(Protocol):
    """What the endpoint reads of a bot (``CommerceBot`` once its ``setup_hook``
    has run)."""

    in_flight: InFlight
    service: TableService
    storage: AnyStorage
    timers: Timers

    def is_ready(self) -> bool:
        """Whether the bot is connected to Discord (its first READY came)."""
        ...

    def is_closed(self) -> bool:
        """Whether the bot was closed."""
        ...

    def served_shards(self) -> tuple[tuple[int, ...], int]:
        """``(shard_ids, shard_count)`` of this process."""
        ...


class BotReadings(Collector):
    """The bot's state, read at each scrape (nothing is counted in between):
    open tables, interactions in flight, the watch, the shards, the storage.
    Register it on the bot's registry once ``setup_hook`` has made what it reads."""

    def __init__(self, bot: Watched) -> None:
        """Readings of ``bot``."""
        self.bot = bot

    def collect(self) -> Iterable[Metric]:
        """The metric families, read now (docs/SCALING.md "Operating it")."""
        bot = self.bot
        service, storage = bot.service, bot.storage
        tables = GaugeMetricFamily(
            "commerce_open_tables", "Open tables in this process's memory: lobby, playing, "
            "or restoring (their rebuild from storage failed and is being retried).",
            labels=["state"])
        statuses = Counter(live.row.status for live in service.tables.values())
        for state in ("lobby", "playing"):
            tables.add_metric([state], statuses.get(state, 0))
        tables.add_metric(["restoring"], len(service.stale))
        yield tables
        yield GaugeMetricFamily("commerce_interactions_in_flight",
                                "Interactions being handled now.", value=bot.in_flight.count)
        yield GaugeMetricFamily("commerce_discord_ready", "1 once connected to Discord, else 0.",
                                value=1 if bot.is_ready() and not bot.is_closed() else 0)
        yield GaugeMetricFamily(
            "commerce_watch_lag_seconds", "Seconds the watch over open tables is behind its "
            f"pace: since its latest round ended, less the {WATCH_EVERY:g} s between rounds.",
            value=bot.timers.lag())
        yield CounterMetricFamily("commerce_watch_rounds", "Rounds of the watch run to their end.",
                                  value=bot.timers.rounds)
        ids, _ = bot.served_shards()
        held = set(storage.held_shards())
        claimed = GaugeMetricFamily(
            "commerce_shard_claimed", "1 for each shard this process serves and holds the "
            "claim of now, 0 for one whose claim is lost.", labels=["shard"])
        for shard in ids:
            claimed.add_metric([str(shard)], 1 if shard in held else 0)
        yield claimed
        claims = CounterMetricFamily(
            "commerce_shard_claims", "Shard claims this process made (at start, and each one "
            "taken back), and claims it lost (the connection holding them closed).",
            labels=["outcome"])
        claims.add_metric(["made"], storage.claims_made)
        claims.add_metric(["lost"], storage.claims_lost)
        yield claims
        yield CounterMetricFamily("commerce_storage_round_trips",
                                  "Calls made to the database (transactions and reads).",
                                  value=storage.round_trips)
        yield CounterMetricFamily("commerce_storage_reconnects",
                                  "Times the connection to PostgreSQL was lost and made again.",
                                  value=getattr(storage, "reconnects", 0))


async def problems(bot: Watched, storage_wait: float = STORAGE_WAIT) -> list[str]:
    """What keeps the bot from being healthy, in a few words each (``[]``: it is
    healthy): stopping; not connected to Discord; the database not answering
    ``SELECT 1`` within ``storage_wait`` seconds (``Storage.ping``); the claim of
    a shard it serves lost (``held_shards``: on PostgreSQL, while the claim is
    being taken back, or for good once another process took it); the watch more
    than ``WATCH_LATE`` seconds behind its pace (``Timers.lag``). Never raises."""
    if bot.in_flight.closed or bot.is_closed():
        return ["the bot is stopping"]
    found = []
    if not bot.is_ready():
        found.append("not connected to Discord")
    storage = bot.storage
    try:
        async with asyncio.timeout(storage_wait):
            await storage.ping()
    except TimeoutError:
        found.append(f"the database did not answer within {storage_wait:g} s")
    except Exception as exc:
        found.append(f"the database did not answer ({type(exc).__name__})")
    else:
        lost = sorted(set(bot.served_shards()[0]) - set(storage.held_shards()))
        if len(lost) == 1:
            found.append(f"the claim of shard {lost[0]} is lost")
        elif lost:
            found.append(f"the claims of shards {', '.join(map(str, lost))} are lost")
    lag = bot.timers.lag()
    if lag > WATCH_LATE:
        found.append(f"the watch over open tables is {lag:.0f} s behind")
    return found


class Endpoint:
    """The HTTP server of ``/metrics`` and ``/health`` (aiohttp) on the running loop.

    Args:
        address: where to listen, ``(host, port)`` (a port of 0 takes any free
            one; ``bot.__main__.metrics_from_env``).
        registry: what ``/metrics`` serves (Prometheus's text format, or
            OpenMetrics when the scraper asks for it).
        check: what ``/health`` asks: the problems found (``problems``), ``[]``
            when healthy.

    Attributes:
        port: the port listened on once started (the one taken when ``address``
            says 0); ``None`` before.
    """

    def __init__(self, address: tuple[str, int], registry: CollectorRegistry,
                 check: Callable[[], Awaitable[list[str]]]) -> None:
        """Nothing listens before ``start``."""
        self.address = address
        self.registry = registry
        self.check = check
        self.port: int | None = None
        self._runner: web.AppRunner | None = None

    @property
    def url(self) -> str:
        """``http://host:port/`` once started (``/metrics`` and ``/health`` below it)."""
        return f"http://{host_port(self.address[0], self.port or 0)}/"

    async def start(self) -> None:
        """Listen on ``address``; logs the address at INFO.

        Raises:
            EndpointError: the address cannot be listened on (one line naming it).
        """
        app = web.Application()
        app.router.add_get("/metrics", make_aiohttp_handler(self.registry))
        app.router.add_get("/health", self._health)
        # no access log: a scrape every few seconds would fill the bot's log
        runner = web.AppRunner(app, access_log=None, shutdown_timeout=STOP_WAIT)
        await runner.setup()
        try:
            await web.TCPSite(runner, *self.address).start()
        except OSError as exc:
            await runner.cleanup()
            raise EndpointError(
                f"Cannot serve metrics on {host_port(*self.address)} ({exc.strerror or exc}): choose "
                "another METRICS_PORT or METRICS_HOST, or unset METRICS_PORT.") from None
        self._runner = runner
        self.port = int(runner.addresses[0][1])
        log.info("serving /metrics and /health on %s", self.url)

    async def stop(self) -> None:
        """Stop listening (a request being answered gets ``STOP_WAIT`` seconds);
        idempotent."""
        runner, self._runner = self._runner, None
        if runner is not None:
            await runner.cleanup()

    async def _health(self, request: web.Request) -> web.Response:
        found = await self.check()
        if not found:
            return web.json_response({"status": "ok"})
        return web.json_response({"status": "unhealthy", "reason": "; ".join(found)},
                                 status=503)
