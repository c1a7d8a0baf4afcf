"""``python -m bot`` without Discord, for tests and scripts that need the bot's own
process: the same start (``bot.__main__.main``: ``.env``, logging, ``SHARD_COUNT``
and ``SHARD_IDS``, the database check, ``build_bot``, ``bot.process.stopping.serve`` with
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

The parent's side is here too: ``BotProcess`` starts one and reads its output as
it comes; ``seed`` and ``tables_of`` make lobbies in guilds of every shard and say
which ones a process must load (tests/app/test_claims.py, scripts/claims.py).
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TextIO

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.process.app import CommerceBot  # noqa: E402
from bot.storage import PgStorage  # noqa: E402
from bot.storage.shards import Shards  # noqa: E402

#: seconds a process may take to start or to stop, on a loaded machine
WITHIN = 60.0
#: the low bits of the seeded guilds' ids: a guild whose (id >> 22) % 12 is r gets lobby r
GUILD_LOW = 777


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


# ================================================================ the parent's side
class BotProcess:
    """One offline bot process (this script) on ``url`` serving ``shards`` (``None``:
    not sharded), its standard output and error read into ``out`` and ``err`` as
    they come."""

    def __init__(self, url: str, shards: Shards | None, cwd: Path,
                 env: Mapping[str, str] | None = None) -> None:
        full = {k: v for k, v in (os.environ if env is None else env).items()
                if k not in ("DATABASE_URL", "SHARD_COUNT", "SHARD_IDS")}
        full.update(PYTHONPATH=str(ROOT), DATABASE_URL=url, LOG_LEVEL="INFO")
        if shards is not None:
            full["SHARD_COUNT"] = str(shards.count)
            if shards.ids is not None:
                full["SHARD_IDS"] = ",".join(map(str, shards.ids))
        self.shards = shards
        self.proc = subprocess.Popen([sys.executable, str(Path(__file__).resolve())], cwd=cwd,
                                     env=full, text=True, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.out: list[str] = []
        self.err: list[str] = []
        for stream, lines in ((self.proc.stdout, self.out), (self.proc.stderr, self.err)):
            threading.Thread(target=self._read, args=(stream, lines), daemon=True).start()

    @staticmethod
    def _read(stream: TextIO | None, lines: list[str]) -> None:
        assert stream is not None
        for line in stream:
            lines.append(line.rstrip("\n"))

    def wait_for(self, lines: list[str], found: Callable[[str], bool], timeout: float = WITHIN,
                 start: int = 0) -> str:
        """The first line of ``lines`` (from index ``start``) that ``found``
        accepts, waiting for it. Raises AssertionError (with the process's output)
        when it exits or ``timeout`` passes first."""
        end = time.monotonic() + timeout
        while True:
            done = self.proc.poll() is not None
            if done:
                time.sleep(0.2)  # the readers catch up with what it wrote last
            for line in lines[start:]:
                if found(line):
                    return line
            if done:
                raise AssertionError(f"exited with {self.proc.returncode}:\n{self.log()}")
            if time.monotonic() > end:
                raise AssertionError(f"not seen within {timeout:.0f} s:\n{self.log()}")
            time.sleep(0.02)

    def ready(self) -> list[int]:
        """The open tables it loaded, once it is ready."""
        line = self.wait_for(self.out, lambda x: x.startswith("READY "))
        tables: list[int] = json.loads(line.removeprefix("READY "))["tables"]
        return tables

    def send(self, command: str) -> str:
        """Send one command; its answer."""
        assert self.proc.stdin is not None
        seen = len(self.out)
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()
        return self.wait_for(self.out, lambda x: x.startswith("WROTE "), timeout=20, start=seen)

    def exit_code(self, timeout: float = WITHIN) -> int:
        """Its exit code, once it ends (killed if it does not within ``timeout``)."""
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            raise

    def stop(self) -> int:
        """SIGTERM, then its exit code."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        return self.exit_code()

    def log(self) -> str:
        """Everything it wrote (standard error first)."""
        return "\n".join(self.err + self.out)


async def seed(url: str) -> dict[int, int]:
    """A lobby in one guild of each residue of ``(guild_id >> 22) % 12`` (12 is a
    multiple of 1, 2, 3 and 4): residue -> table id."""
    store = await PgStorage.open(url)
    try:
        return {r: (await store.create_table((r << 22) | GUILD_LOW, 500 + r, 11, "foster",
                                             {}, 30)).id for r in range(12)}
    finally:
        await store.close()


def tables_of(shards: Shards | None, tables: dict[int, int]) -> list[int]:
    """The seeded tables (``seed``) that a process serving ``shards`` loads."""
    mine = shards or Shards(1, (0,))
    return sorted(t for r, t in tables.items() if mine.owns(r << 22))


def main() -> int:
    from bot.__main__ import main as bot_main

    os.environ.setdefault("DISCORD_TOKEN", "offline")
    patched: Any = start
    CommerceBot.start = patched  # type: ignore[method-assign]
    return bot_main([])


if __name__ == "__main__":
    sys.exit(main())
