"""The ``commands.Bot`` subclass: storage, the table service, the publisher, the
timers and the control handlers it owns, the cogs, persistent controls.

Nothing here imports a cog: the cogs are extensions named in ``EXTENSIONS``,
and they reach what the bot owns through its attributes (docs/ARCHITECTURE.md).
"""

from __future__ import annotations

import asyncio
import gc
import logging
import random
from pathlib import Path
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from ..changes.after import AfterChange
from ..interactions.commands import CommerceGroup
from ..interactions.daily import DailyHandlers
from ..interactions.guard import answer_error
from ..interactions.handlers import Handlers
from ..interactions.translator import CommandTranslator
from ..publishing.publisher import Publisher
from ..publishing.showing import AI_PACE, FRAME_SHARE
from ..runtime.metrics import GLOBAL_LIMIT, Metrics
from ..runtime.sending import NO_PINGS
from ..service import TableService
from ..service.daily import DailyService
from ..service.locks import InFlight
from ..storage import AnyStorage, open_storage
from ..storage.shards import Shards
from ..timers.clock import Timers
from ..ui.components import DYNAMIC_ITEMS, dispatch_cut_form, unknown_controls
from ..ui.daily import DAILY_ITEMS
from .health import BotReadings, Endpoint, problems

log = logging.getLogger(__name__)

#: loaded in this order; ``/commerce`` lists its subcommands in the order their cogs load
EXTENSIONS = ("cogs.play", "cogs.tables", "cogs.ledger", "cogs.history", "cogs.help",
              "cogs.settings", "cogs.admin", "cogs.daily")


class CommerceTree(app_commands.CommandTree["CommerceBot"]):
    """The bot's command tree; its ``on_error`` is the last resort of every slash command."""

    async def on_error(self, interaction: discord.Interaction[CommerceBot],
                       error: app_commands.AppCommandError, /) -> None:
        """Answer with ``bot.interactions.guard.error_reply``'s short ephemeral, as a
        control's error is answered (never a traceback); what is the bot's fault
        is logged."""
        await answer_error(interaction, error, None)


class CommerceBot(commands.Bot):
    """The Commerce bot. Build it with ``create_bot``.

    Attributes (after ``setup_hook``):
        storage: the opened storage (``Storage`` on SQLite, ``PgStorage`` on PostgreSQL).
        service: the ``TableService``.
        publisher: the public messages of every table (``bot.publishing.publisher.Publisher``).
        timers: next-deal and turn timers and the watch (``bot.timers.clock.Timers``);
            the ``Play`` cog starts and stops them.
        after: the one step after every change (``bot.changes.after.AfterChange``): what
            a command, a control or a timer changed becomes messages, panels and
            timers. The wiring goes one way: ``after`` knows the timers and the
            publisher, the timers know the publisher and show through ``after``'s
            callbacks, the publisher knows neither.
        handlers: what every control does (``bot.interactions.handlers.Handlers``); the controls
            reach it as ``interaction.client.handlers``.
        commerce: the ``/commerce`` group the command cogs add their commands to.
        daily: the daily deal (``bot.service.daily.DailyService``), on Discord's clock
            (virtual under SimCord); ``daily_handlers``: its command and buttons.

    Attributes (from the start):
        in_flight: the interactions running now (``bot.interactions.guard.guarded``);
            closed when the bot begins to stop (``bot.process.stopping.stop_cleanly``).
        metrics: what the bot counts and times (``bot.runtime.metrics.Metrics``, a
            registry of its own); ``setup_hook`` adds the bot's state to it.
        endpoint: the ``/metrics`` and ``/health`` server (``bot.process.health``), once
            ``setup_hook`` started it; ``None`` when none was asked for.
        claim_lost: set when the storage lost this process's claim on its guilds
            for good (PostgreSQL: ``bot/storage/claims.py``); ``bot.process.stopping.serve``
            then stops the bot with exit code 3. ``claim_lost_reason`` says why.
    """

    storage: AnyStorage
    service: TableService
    publisher: Publisher
    timers: Timers
    after: AfterChange
    handlers: Handlers
    commerce: CommerceGroup
    daily: DailyService
    daily_handlers: DailyHandlers

    def __init__(self, db_path: str | Path, *, rng: random.Random | None = None,
                 dev_guild: int | None = None, sync_commands: bool = True,
                 cooldown: tuple[int, float] | None = (12, 10.0), ai_pace: float = AI_PACE,
                 endpoint: tuple[str, int] | None = None, **options: Any) -> None:
        """A bot with the ``guilds`` intent only; nothing is opened before ``setup_hook``.

        Args:
            db_path: the SQLite file (created with its folder when missing), or a
                ``postgresql://`` URL (``bot.storage.open_storage``).
            rng: a seeded RNG for tests only (shuffles and first dealer); default CSPRNG.
            dev_guild: a guild id to sync commands to instantly (development).
            sync_commands: sync the command tree with Discord in ``setup_hook``.
            cooldown: per-member limit on commands and clicks, ``(uses, seconds)``;
                ``None`` turns it off.
            ai_pace: seconds between two AI moves as the table message shows them
                (``bot.publishing.publisher.Publisher``); 0 shows every change at once.
            endpoint: ``(host, port)`` where ``setup_hook`` serves ``/metrics``
                and ``/health`` (``bot.process.health``); ``None``, nowhere.
            options: more keywords of discord.py's client (``shard_count`` and
                ``shard_ids`` of ``ShardedCommerceBot``).
        """
        intents = discord.Intents.none()
        intents.guilds = True  # channels, threads, roles: no privileged intent needed
        # nobody is pinged unless a message says whom (``bot.runtime.sending.ping``):
        # members' names are text of their choosing (docs/RELIABILITY.md "Hostile names")
        options.setdefault("allowed_mentions", NO_PINGS)
        self.metrics = Metrics()
        # every answer of Discord's HTTP API passes there: its 429s are counted
        options.setdefault("http_trace", self.metrics.http_trace)
        super().__init__(command_prefix=commands.when_mentioned, intents=intents,
                         help_command=None, tree_cls=CommerceTree, **options)
        #: the database: an SQLite file or a ``postgresql://`` URL
        self.database = db_path
        self.db_path = Path(db_path)
        self.rng = rng
        self.dev_guild = dev_guild
        self.sync_commands = sync_commands
        #: per-member rate limit on commands and clicks: (uses, per seconds); None = off
        self.cooldown: commands.CooldownMapping[discord.Interaction] | None = (
            commands.CooldownMapping(commands.Cooldown(*cooldown), lambda i: i.user.id)
            if cooldown else None)
        #: seconds between two AI moves on the table message (0: all at once)
        self.ai_pace = ai_pace
        #: after the open tables are loaded, move every object alive then out of
        #: the cyclic collector's way (``gc.freeze``): the bot process sets it
        #: (``python -m bot``); tests, which build many bots in one process, do not
        self.freeze_loaded = False
        #: start the AI worker process with the bot (``AiPlayers.warm``): the bot
        #: process and the sandbox do; tests, which build many bots, do not
        self.warm_ai = False
        self.in_flight = InFlight()
        self.endpoint_address = endpoint
        self.endpoint: Endpoint | None = None
        self.claim_lost = asyncio.Event()
        self.claim_lost_reason: str | None = None

    async def setup_hook(self) -> None:
        """Open the storage, make what the bot owns (service, publisher, timers,
        handlers, the ``/commerce`` group), register the persistent controls, load
        the cogs and sync the commands (to ``dev_guild`` only when it is set);
        then start the endpoint when one was asked for (``bot.process.health``).

        Raises:
            DatabaseUnavailable: the database is corrupt, in use by another bot (on
                PostgreSQL: another live process serves some of this one's guilds),
                unreachable or not writable (``open_storage``); it is left untouched.
            EndpointError: the endpoint cannot listen where it was told.
        """
        self._count_requests()
        self.storage = await open_storage(self.database)
        shards = self.served_shards()
        try:
            await self.storage.claim_shards(*shards, on_lost=self._lost_claim)
        except BaseException:
            await self.storage.close()
            raise
        self.service = TableService(self.storage, self.rng, self.metrics)
        if self.warm_ai:
            self.service.players.warm()  # its start takes seconds: not at the first hint
        await self.service.load(shards)
        if self.freeze_loaded:
            # The tables just loaded live long and hold no reference cycles (their
            # objects are still freed by counting when a table closes); a full
            # collection walking 10,000 of them took about 0.4 s, a pause for every
            # click (docs/BENCHMARKS.md, "Resume")
            gc.freeze()
        self.publisher = Publisher(self, self.service, pace=self.ai_pace,
                                   metrics=self.metrics)
        self.publisher.showing.crowded = lambda: (
            self.metrics.request_rate() > FRAME_SHARE * self.request_share())
        self.timers = Timers(self, self.service, self.publisher)
        self.after = AfterChange(self.publisher, self.timers)
        self.timers.show, self.timers.catch_up = self.after.show, self.after.catch_up
        self.handlers = Handlers(self.service, self.publisher, self.timers, self.after)
        self.daily = DailyService(self.storage, clock=discord.utils.utcnow)
        self.daily_handlers = DailyHandlers(self.daily)
        self.commerce = CommerceGroup()
        self.tree.add_command(self.commerce)
        await self.tree.set_translator(CommandTranslator())  # names in each member's language
        self.add_dynamic_items(*DYNAMIC_ITEMS, *DAILY_ITEMS)
        self.add_listener(dispatch_cut_form, "on_interaction")  # the Cut form's answer
        # a press whose id matches no control: answered, never "This interaction failed"
        self.add_listener(unknown_controls((*DYNAMIC_ITEMS, *DAILY_ITEMS)), "on_interaction")
        for ext in EXTENSIONS:
            await self.load_extension(ext)
        if self.sync_commands:
            if self.dev_guild:
                guild = discord.Object(self.dev_guild)
                self.tree.copy_global_to(guild=guild)
                await self.tree.sync(guild=guild)
            else:
                await self.tree.sync()
        self.metrics.registry.register(BotReadings(self))
        if self.endpoint_address is not None:
            endpoint = Endpoint(self.endpoint_address, self.metrics.registry,
                                lambda: problems(self))
            await endpoint.start()
            self.endpoint = endpoint

    def _lost_claim(self, reason: str) -> None:
        """The storage lost the claim on this process's guilds for good: ask for
        a stop (``claim_lost``)."""
        self.claim_lost_reason = reason
        self.claim_lost.set()

    def _count_requests(self) -> None:
        """Count every request the bot's token makes (``Metrics.request``): the
        REST calls of discord.py's HTTP client, which answers to interactions
        (the interaction's own webhook) do not go through."""
        request = self.http.request
        metrics = self.metrics

        async def counted(route: discord.http.Route, **kwargs: Any) -> Any:
            metrics.request(f"{route.method} {route.path}")
            return await request(route, **kwargs)
        self.http.request = counted  # type: ignore[method-assign]

    def request_share(self) -> float:
        """This process's share of Discord's global request limit (requests a
        second): the limit split by the shards it serves."""
        ids, count = self.served_shards()
        return GLOBAL_LIMIT * len(ids) / count

    def served_shards(self) -> tuple[tuple[int, ...], int]:
        """``(shard_ids, shard_count)`` of this process: its shards, every shard of
        the count when it runs them all, ``((0,), 1)`` when it is not sharded."""
        count = self.shard_count or 1
        ids = getattr(self, "shard_ids", None)
        return (tuple(ids) if ids else tuple(range(count))), count

    async def close_storage(self) -> None:
        """Stop the endpoint and the AI worker, then close the database (tests call
        this: the simulated Discord never calls close); idempotent."""
        endpoint, self.endpoint = self.endpoint, None
        if endpoint is not None:
            await endpoint.stop()
        service = getattr(self, "service", None)
        if service is not None:
            service.players.close()
        storage = getattr(self, "storage", None)
        if storage is not None:
            await storage.close()

    async def close(self) -> None:
        """Log out from Discord, then close the database whatever happened."""
        try:
            await super().close()
        finally:
            await self.close_storage()


class ShardedCommerceBot(CommerceBot, commands.AutoShardedBot):
    """The Commerce bot on some of the bot's gateway shards (``SHARD_COUNT``,
    ``SHARD_IDS``; ``bot/storage/shards.py``): Discord sends it the events of the guilds of
    its shards only. Build it with ``create_bot(shards=...)``."""


def create_bot(db_path: str | Path = "data/commerce.db", *, rng: random.Random | None = None,
               dev_guild: int | None = None,
               cooldown: tuple[int, float] | None = (12, 10.0),
               shards: Shards | None = None, ai_pace: float = AI_PACE,
               endpoint: tuple[str, int] | None = None) -> CommerceBot:
    """A configured bot with every cog; needs no token and no network until run.

    Args:
        db_path: the SQLite file (created with its folder when missing).
        rng: a seeded RNG for tests only (shuffles and first dealer); default CSPRNG.
        dev_guild: a guild id to sync commands to instantly (development).
        cooldown: per-member limit on commands and clicks, ``(uses, seconds)``;
            ``None`` turns it off (simulations that click far faster than people).
        shards: the shards this process runs (``bot.storage.shards.shards_from_env``): a
            ``ShardedCommerceBot`` with that ``shard_count`` and ``shard_ids``;
            ``None``, a single-process ``CommerceBot``.
        ai_pace: seconds between two AI moves as the table message shows them
            (docs/AI.md "At a table"); 0 shows every change at once (simulations).
        endpoint: ``(host, port)`` where to serve ``/metrics`` and ``/health``
            (``bot.process.health``; ``METRICS_PORT``); ``None``, nowhere (the default).
    """
    if shards is not None:
        return ShardedCommerceBot(db_path, rng=rng, dev_guild=dev_guild, cooldown=cooldown,
                                  ai_pace=ai_pace, endpoint=endpoint, shard_count=shards.count,
                                  shard_ids=None if shards.ids is None else list(shards.ids))
    return CommerceBot(db_path, rng=rng, dev_guild=dev_guild, cooldown=cooldown, ai_pace=ai_pace,
                       endpoint=endpoint)
