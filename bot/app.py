"""The ``commands.Bot`` subclass: storage, the table service, the publisher, the
timers and the control handlers it owns, the cogs, persistent controls.

Nothing here imports a cog: the cogs are extensions named in ``EXTENSIONS``,
and they reach what the bot owns through its attributes (docs/ARCHITECTURE.md).
"""

from __future__ import annotations

import logging
import random
from pathlib import Path

import discord
from discord import app_commands
from discord.ext import commands

from .commands import CommerceGroup
from .handlers import Handlers
from .messages import Publisher
from .service import TableService
from .storage import Storage
from .timers import Timers
from .ui.components import DYNAMIC_ITEMS

log = logging.getLogger(__name__)

#: loaded in this order; ``/commerce`` lists its subcommands in the order their cogs load
EXTENSIONS = ("cogs.play", "cogs.tables", "cogs.ledger", "cogs.help", "cogs.admin")


class CommerceBot(commands.Bot):
    """The Commerce bot. Build it with ``create_bot``.

    Attributes (after ``setup_hook``):
        storage: the opened ``Storage``.
        service: the ``TableService``.
        publisher: the public messages of every table (``bot.messages.Publisher``).
        timers: next-deal and turn timers and the watch (``bot.timers.Timers``);
            the ``Play`` cog starts and stops them.
        handlers: what every control does (``bot.handlers.Handlers``); the controls
            reach it as ``interaction.client.handlers``.
        commerce: the ``/commerce`` group the command cogs add their commands to.
    """

    storage: Storage
    service: TableService
    publisher: Publisher
    timers: Timers
    handlers: Handlers
    commerce: CommerceGroup

    def __init__(self, db_path: str | Path, *, rng: random.Random | None = None,
                 dev_guild: int | None = None, sync_commands: bool = True,
                 cooldown: tuple[int, float] | None = (12, 10.0)) -> None:
        intents = discord.Intents.none()
        intents.guilds = True  # channels, threads, roles: no privileged intent needed
        super().__init__(command_prefix=commands.when_mentioned, intents=intents,
                         help_command=None)
        self.db_path = Path(db_path)
        self.rng = rng
        self.dev_guild = dev_guild
        self.sync_commands = sync_commands
        #: per-member rate limit on commands and clicks: (uses, per seconds); None = off
        self.cooldown: commands.CooldownMapping[discord.Interaction] | None = (
            commands.CooldownMapping(commands.Cooldown(*cooldown), lambda i: i.user.id)
            if cooldown else None)

    async def setup_hook(self) -> None:  # noqa: D102
        self.storage = await Storage.open(self.db_path)
        self.service = TableService(self.storage, self.rng)
        await self.service.load()
        self.publisher = Publisher(self, self.service)
        self.timers = Timers(self, self.service, self.publisher)
        self.publisher.clock = self.timers
        self.handlers = Handlers(self.service, self.publisher, self.timers)
        self.commerce = CommerceGroup()
        self.tree.add_command(self.commerce)
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        for ext in EXTENSIONS:
            await self.load_extension(ext)
        self.tree.on_error = self.on_app_command_error
        if self.sync_commands:
            if self.dev_guild:
                guild = discord.Object(self.dev_guild)
                self.tree.copy_global_to(guild=guild)
                await self.tree.sync(guild=guild)
            else:
                await self.tree.sync()

    async def on_app_command_error(self, interaction: discord.Interaction,
                                   error: app_commands.AppCommandError) -> None:
        """Last resort: log the error, answer with a short ephemeral, never a traceback."""
        if isinstance(error, app_commands.NoPrivateMessage):
            text = "Commerce is played in servers, not in direct messages."
        elif isinstance(error, app_commands.MissingPermissions | app_commands.CheckFailure):
            text = "You do not have permission to do that."
        else:
            log.error("command %s failed", interaction.command and interaction.command.qualified_name,
                      exc_info=error)
            text = "Something went wrong on our side. Nothing was changed."
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)
        except discord.HTTPException:
            pass

    async def close_storage(self) -> None:
        """Close the database (tests call this: the simulated Discord never calls close)."""
        storage = getattr(self, "storage", None)
        if storage is not None:
            await storage.close()

    async def close(self) -> None:  # noqa: D102
        try:
            await super().close()
        finally:
            await self.close_storage()


def create_bot(db_path: str | Path = "data/commerce.db", *, rng: random.Random | None = None,
               dev_guild: int | None = None,
               cooldown: tuple[int, float] | None = (12, 10.0)) -> CommerceBot:
    """A configured bot with every cog; needs no token and no network until run.

    Args:
        db_path: the SQLite file (created with its folder when missing).
        rng: a seeded RNG for tests only (shuffles and first dealer); default CSPRNG.
        dev_guild: a guild id to sync commands to instantly (development).
        cooldown: per-member limit on commands and clicks, ``(uses, seconds)``;
            ``None`` turns it off (simulations that click far faster than people).
    """
    return CommerceBot(db_path, rng=rng, dev_guild=dev_guild, cooldown=cooldown)
