"""``python -m bot`` without Discord, for tests and scripts that need the bot's own
process: the same start (``bot.__main__.main``: ``.env``, logging, ``SHARD_COUNT``
and ``SHARD_IDS``, the database check, ``build_bot``, ``bot.stopping.serve`` with
its signals and exit codes), with the one call that reaches Discord,
``CommerceBot.start``, replaced: it runs ``setup_hook`` (the storage, the claim on
the process's guilds, the open tables loaded, the cogs; no command sync) and then
waits until the bot is closed, as discord.py's connection does.

Run from anywhere with the repository on ``PYTHONPATH``::

    DATABASE_URL=postgresql://… SHARD_COUNT=2 SHARD_IDS=0 python scripts/offline_bot.py

Once ready it prints one line, ``READY {"pid": 123, "tables": [1, 4]}`` (the open
tables it loaded), then serves until SIGTERM or SIGINT (exit code 0) or until it
loses its claim (3). Each line it reads on standard input is a command, answered
with one line: ``write`` commits one audit row (``WROTE ok`` or ``WROTE <error>``).
``DISCORD_TOKEN`` need not be set.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import threading
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.app import CommerceBot


def say(line: str) -> None:
    print(line, flush=True)


async def answer(bot: CommerceBot, line: str) -> None:
    """Answer one command read on standard input."""
    if line == "write":
        try:
            await bot.storage.audit(0, None, "offline-bot", "a probe write")
        except Exception as exc:  # what the storage refused, said
            say(f"WROTE {type(exc).__name__}: {exc}")
        else:
            say("WROTE ok")
    else:
        say(f"UNKNOWN {line}")


def read_commands(bot: CommerceBot, loop: asyncio.AbstractEventLoop) -> None:
    """Standard input's lines, each answered on the loop (a daemon thread: a line
    never read does not keep the process from exiting)."""
    for raw in sys.stdin:
        if raw.strip():
            asyncio.run_coroutine_threadsafe(answer(bot, raw.strip()), loop)


async def start(self: CommerceBot, token: str, *, reconnect: bool = True) -> None:
    """``Client.start`` without Discord (see the module's docstring)."""
    self.sync_commands = False
    await self.setup_hook()
    say("READY " + json.dumps({"pid": os.getpid(), "tables": sorted(self.service.tables)}))
    threading.Thread(target=read_commands, args=(self, asyncio.get_running_loop()),
                     daemon=True).start()
    while not self.is_closed():
        await asyncio.sleep(0.05)


def main() -> int:
    from bot.__main__ import main as bot_main

    os.environ.setdefault("DISCORD_TOKEN", "offline")
    patched: Any = start
    CommerceBot.start = patched  # type: ignore[method-assign]
    return bot_main([])


if __name__ == "__main__":
    sys.exit(main())
