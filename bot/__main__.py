"""``python -m bot`` runs the bot; ``python -m bot sandbox`` plays offline.

Reads ``.env`` (python-dotenv): ``DISCORD_TOKEN``, ``COMMERCE_DB`` (default
``data/commerce.db``), ``COMMERCE_DEV_GUILD`` (sync commands to one guild at
once), ``LOG_LEVEL`` (default ``INFO``).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys

from dotenv import load_dotenv

from .storage import CorruptDatabase, DatabaseUnavailable

log = logging.getLogger("bot")


def _setup_logging() -> None:
    level = os.environ.get("LOG_LEVEL", "INFO").upper()
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger().setLevel(level)
    # discord.py's HTTP debug lines carry request bodies, ephemeral hands included:
    # hidden cards must never reach a log, so that logger stays at INFO or above.
    http = logging.getLogger("discord.http")
    http.setLevel(max(logging.INFO, http.getEffectiveLevel()))


async def _check_database(db_path: str) -> None:
    """Open and close the database: migrations, the one-writer lock (another
    process serving it), and a real write (read-only file or folder, full disk)."""
    from .storage import Storage

    storage = await Storage.open(db_path)
    await storage.close()


def _refuse(exc: DatabaseUnavailable) -> int:
    """Print the database's one-line refusal; the exit code 1."""
    if isinstance(exc, CorruptDatabase):
        print(f"Cannot open the database: {exc}", file=sys.stderr)
    else:
        print(exc, file=sys.stderr)
    return 1


def run_bot(db_path: str) -> int:
    """Check the database, then connect to Discord with ``DISCORD_TOKEN``;
    returns the exit code. A corrupt, unwritable or already served database
    (another bot process holds it) stops the bot with one clear line before
    Discord is contacted, and is never overwritten."""
    try:
        asyncio.run(_check_database(db_path))
    except DatabaseUnavailable as exc:
        return _refuse(exc)
    except OSError as exc:
        print(f"Cannot open the database {db_path}: {exc.strerror}", file=sys.stderr)
        return 1
    token = os.environ.get("DISCORD_TOKEN", "").strip()
    if not token:
        print("DISCORD_TOKEN is not set: put it in .env (see .env.example), "
              "or try the bot offline with `./scripts/run sandbox`.", file=sys.stderr)
        return 1
    from .app import create_bot

    dev = os.environ.get("COMMERCE_DEV_GUILD", "").strip()
    bot = create_bot(db_path, dev_guild=int(dev) if dev.isdigit() else None)
    import discord

    try:
        bot.run(token, log_handler=None)
    except DatabaseUnavailable as exc:  # e.g. another process took the file meanwhile
        return _refuse(exc)
    except discord.LoginFailure:
        print("Discord refused DISCORD_TOKEN: copy the bot token again from the developer "
              "portal into .env.", file=sys.stderr)
        return 1
    except (OSError, discord.HTTPException) as exc:
        print(f"Cannot reach Discord ({type(exc).__name__}): check the network, or try "
              "`python -m bot sandbox` offline.", file=sys.stderr)
        return 1
    return 0


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
    db_path = os.environ.get("COMMERCE_DB", "data/commerce.db")
    if args.command == "sandbox":
        from .sandbox import run_sandbox

        try:
            return asyncio.run(run_sandbox(port=args.port, db_path=args.db))
        except KeyboardInterrupt:
            return 0
        except DatabaseUnavailable as exc:  # --db names a file in use, unwritable, corrupt
            return _refuse(exc)
    return run_bot(db_path)


if __name__ == "__main__":
    sys.exit(main())
