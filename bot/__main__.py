"""``python -m bot`` runs the bot; ``python -m bot sandbox`` plays offline.

Reads ``.env`` (python-dotenv): ``DISCORD_TOKEN``, ``DATABASE_URL`` (a
``postgresql://`` URL: the database is PostgreSQL; unset, SQLite), ``COMMERCE_DB``
(the SQLite file when ``DATABASE_URL`` is unset; default ``data/commerce.db``),
``COMMERCE_DEV_GUILD`` (sync commands to one guild at once), ``LOG_LEVEL``
(default ``INFO``), ``SHARD_COUNT`` and ``SHARD_IDS`` (the shards this process
runs, ``bot/storage/shards.py``; a bad value stops it with exit code 2), ``METRICS_PORT``
and ``METRICS_HOST`` (the ``/metrics`` and ``/health`` endpoint, ``bot/process/health.py``:
off unless ``METRICS_PORT`` is set; a bad port stops it with exit code 2; both
``python -m bot`` and the sandbox serve it).

SIGTERM (``docker stop``) and SIGINT (Ctrl+C) stop either one cleanly
(``bot/process/stopping.py``): no new interaction, the work in flight finished, the
storage closed, exit code 0.

Exit codes of ``python -m bot``: 0 stopped cleanly; 1 refused at start (the
database or Discord: one line says why) or a stop that cut work short; 2 a bad
``SHARD_COUNT`` / ``SHARD_IDS``; 3 this process lost its claim on its guilds
while it ran (PostgreSQL, docs/SCALING.md "Claims"): stopped cleanly, to be
started again by a restart policy.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from dotenv import load_dotenv

from .storage import CorruptDatabase, DatabaseUnavailable, is_postgres_url
from .storage.shards import ShardConfigError, Shards, shards_from_env

if TYPE_CHECKING:
    from .process.app import CommerceBot

log = logging.getLogger("bot")


#: where the metrics endpoint listens unless ``METRICS_HOST`` says otherwise: this
#: machine (or container) only
METRICS_HOST = "127.0.0.1"

#: the loggers ``LOG_LEVEL`` is for; every other one (discord.py, aiosqlite, …) stays
#: at INFO or above
OUR_LOGGERS = ("bot", "cogs")
LIBRARY_FLOOR = logging.INFO


def _setup_logging() -> None:
    """Log to standard error: our ``bot.*`` and ``cogs.*`` loggers at ``LOG_LEVEL``
    (``DEBUG``, ``INFO``, ``WARNING``, ``ERROR``; default ``INFO``), every library
    logger at INFO or above whatever ``LOG_LEVEL`` says. Below INFO, discord.py
    logs whole gateway events (INTERACTION_CREATE) and HTTP bodies, and
    aiosqlite every statement with its parameters (a deal's deck, its actions):
    they hold hidden cards, and hidden cards must never reach a log."""
    name = os.environ.get("LOG_LEVEL", "INFO").strip().upper()
    level = logging.getLevelName(name)
    if not isinstance(level, int):
        print(f"LOG_LEVEL={name} is not DEBUG, INFO, WARNING or ERROR: using INFO.",
              file=sys.stderr)
        level = logging.INFO
    floor = max(LIBRARY_FLOOR, level)
    logging.basicConfig(format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger().setLevel(floor)
    for ours in OUR_LOGGERS:
        logging.getLogger(ours).setLevel(level)
    # a library logger given a level of its own below the floor is raised to it
    for logger_name, logger in list(logging.Logger.manager.loggerDict.items()):
        if (isinstance(logger, logging.Logger) and logger_name.split(".")[0] not in OUR_LOGGERS
                and logging.NOTSET < logger.level < floor):
            logger.setLevel(floor)
    # the bot never joins a voice channel: discord.py's warnings that its voice
    # libraries (PyNaCl, davey) are missing read like errors to a newcomer
    from discord import VoiceClient

    VoiceClient.warn_nacl = False
    VoiceClient.warn_dave = False


def database_from_env() -> str:
    """The database to use: ``DATABASE_URL`` when set (PostgreSQL), else the SQLite
    file ``COMMERCE_DB`` (default ``data/commerce.db``)."""
    return (os.environ.get("DATABASE_URL", "").strip()
            or os.environ.get("COMMERCE_DB", "data/commerce.db"))


class MetricsConfigError(ValueError):
    """``METRICS_PORT`` is not a port number; the message is one line saying so."""


def metrics_from_env(environ: Mapping[str, str] | None = None) -> tuple[str, int] | None:
    """Where to serve ``/metrics`` and ``/health`` (``bot/process/health.py``), from
    ``METRICS_PORT`` and ``METRICS_HOST`` (default ``METRICS_HOST``, loopback) of
    ``environ`` (default: the process's): ``(host, port)``, a port of 0 taking
    any free one; ``None`` (no endpoint) when ``METRICS_PORT`` is unset or empty.

    Raises:
        MetricsConfigError: ``METRICS_PORT`` is not a whole number from 0 to 65535.
    """
    env = os.environ if environ is None else environ
    text = env.get("METRICS_PORT", "").strip()
    if not text:
        return None
    if not text.isdigit() or int(text) > 65535:
        raise MetricsConfigError(f"METRICS_PORT={text!r} is not a port number: give one from "
                                 "1 to 65535 (0 takes any free port), or leave it unset "
                                 "for no metrics endpoint.")
    return env.get("METRICS_HOST", "").strip() or METRICS_HOST, int(text)


def _where(database: str) -> str:
    """The database for a message: a URL without its user and password."""
    if is_postgres_url(database):
        from .storage.postgres import describe_url

        return describe_url(database)
    return database


async def _check_database(database: str, shards: Shards | None = None) -> None:
    """Open and close the database: migrations, the one-writer lock (another
    process serving it; on PostgreSQL, another live process serving some of the
    same guilds, whatever its ``SHARD_COUNT``), and a real write (read-only file
    or folder, full disk)."""
    from .storage import open_storage

    storage = await open_storage(database)
    try:
        count = 1 if shards is None else shards.count
        ids = range(count) if shards is None or shards.ids is None else shards.ids
        await storage.claim_shards(tuple(ids), count)
    finally:
        await storage.close()


def _refuse(exc: DatabaseUnavailable) -> int:
    """Print the database's one-line refusal; the exit code 1."""
    if isinstance(exc, CorruptDatabase):
        print(f"Cannot open the database: {exc}", file=sys.stderr)
    else:
        print(exc, file=sys.stderr)
    return 1


def build_bot(db_path: str | Path, shards: Shards | None = None,
              dev_guild: int | None = None, endpoint: tuple[str, int] | None = None,
              ) -> CommerceBot:
    """The bot exactly as ``python -m bot`` runs it: every production default
    (the AI's pace, the per-member cooldown, timers, the OS CSPRNG), the
    collector frozen once its tables are loaded; ``endpoint``: where it serves
    ``/metrics`` and ``/health`` (``metrics_from_env``). The golden-path tests
    build their bot with this too (tests/cogs/test_golden_path.py)."""
    from .process.app import create_bot

    bot = create_bot(db_path, dev_guild=dev_guild, shards=shards, endpoint=endpoint)
    bot.freeze_loaded = True  # one bot for the life of this process
    bot.warm_ai = True
    return bot


def run_bot(db_path: str, shards: Shards | None = None,
            endpoint: tuple[str, int] | None = None) -> int:
    """Check the database (``db_path``: an SQLite file or a ``postgresql://`` URL),
    then connect to Discord with ``DISCORD_TOKEN``; returns the exit code. A
    corrupt, unwritable, unreachable or already served database (another bot
    process holds it, or serves some of the same guilds) stops the bot with one clear
    line before Discord is contacted, and is never overwritten; so does an
    ``endpoint`` (``/metrics`` and ``/health``) that cannot listen, once the bot
    is set up. SIGTERM or SIGINT stops it cleanly (``bot.process.stopping.serve``): 0, or
    1 if work in flight had to be cut short; a claim lost while it runs stops it
    cleanly with 3."""
    try:
        asyncio.run(_check_database(db_path, shards))
    except DatabaseUnavailable as exc:
        return _refuse(exc)
    except OSError as exc:
        print(f"Cannot open the database {_where(db_path)}: {exc.strerror}", file=sys.stderr)
        return 1
    token = os.environ.get("DISCORD_TOKEN", "").strip()
    if not token:
        print("DISCORD_TOKEN is not set: put it in .env (see .env.example), "
              "or try the bot offline with `./scripts/run sandbox`.", file=sys.stderr)
        return 1
    dev = os.environ.get("COMMERCE_DEV_GUILD", "").strip()
    if shards is not None:
        log.info("serving %s", shards.describe())
    bot = build_bot(db_path, shards, int(dev) if dev.isdigit() else None, endpoint)
    import discord

    from .process.health import EndpointError
    from .process.stopping import serve

    try:
        return asyncio.run(serve(bot, token))
    except KeyboardInterrupt:  # where the loop takes no signals: discord.py's old way
        return 0
    except DatabaseUnavailable as exc:  # e.g. another process took the file meanwhile
        return _refuse(exc)
    except EndpointError as exc:
        print(exc, file=sys.stderr)
        return 1
    except discord.LoginFailure:
        print("Discord refused DISCORD_TOKEN: copy the bot token again from the developer "
              "portal into .env.", file=sys.stderr)
        return 1
    except (OSError, discord.HTTPException) as exc:
        print(f"Cannot reach Discord ({type(exc).__name__}): check the network, or try "
              "`./scripts/run sandbox` offline.", file=sys.stderr)
        return 1


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``python -m bot``."""
    load_dotenv()
    _setup_logging()
    parser = argparse.ArgumentParser(prog="python -m bot", description="Commerce for Discord")
    sub = parser.add_subparsers(dest="command")
    sb = sub.add_parser("sandbox", help="play offline against AI seats in a local web page")
    sb.add_argument("--port", type=int, default=8765, help="loopback port (default 8765)")
    sb.add_argument("--db", default=None, help="SQLite file (default: a temporary file)")
    args = parser.parse_args(argv)
    db_path = database_from_env()
    try:
        endpoint = metrics_from_env()
    except MetricsConfigError as exc:
        print(exc, file=sys.stderr)
        return 2
    if args.command == "sandbox":
        from .process.health import EndpointError
        from .process.sandbox import run_sandbox

        try:
            return asyncio.run(run_sandbox(port=args.port, db_path=args.db, endpoint=endpoint))
        except KeyboardInterrupt:
            return 0
        except DatabaseUnavailable as exc:  # --db names a file in use, unwritable, corrupt
            return _refuse(exc)
        except EndpointError as exc:
            print(exc, file=sys.stderr)
            return 1
    try:
        shards = shards_from_env()
    except ShardConfigError as exc:
        print(exc, file=sys.stderr)
        return 2
    return run_bot(db_path, shards, endpoint)


if __name__ == "__main__":
    sys.exit(main())
