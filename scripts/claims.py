"""Every pair of topologies with real bot processes (docs/SCALING.md "Claims").

Run from the repository root (a few minutes on 2 cores)::

    .venv/bin/python scripts/claims.py            # --jobs N: groups at once (default: cores)

The topologies are those of tests/app/test_shards.py (not sharded; each shard of
2, 3 and 4 alone; both shards of 2 in one process). For each topology A, a fresh
database of one throw-away PostgreSQL server (``bot/storage/pgserver.py``) gets a
lobby in a guild of each residue of ``(guild_id >> 22) % 12``; a bot process
serving A starts there (``scripts/offline_bot.py``: ``python -m bot`` without
Discord), then a process for every topology B in turn, stopped again after. B
must be refused at start with one line naming both topologies exactly when some
guild would be served by both (``Shards.overlap``), else start and load exactly
its own lobbies, none of A's; every process that started must stop with exit
code 0. Exit status 1 on any failure. The suite runs every pair in one process
(tests/storage/test_claims.py) and a sample of them with processes
(tests/app/test_claims.py).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import secrets
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import asyncpg  # noqa: E402
from offline_bot import BotProcess, seed, tables_of  # noqa: E402

from bot.storage.pg_migrate import migrate  # noqa: E402
from bot.storage.pgserver import PgServer, start_server  # noqa: E402
from bot.storage.shards import Shards  # noqa: E402
from tests.app.test_shards import TOPOLOGIES  # noqa: E402


def label(shards: Shards) -> str:
    return "unsharded" if shards.count == 1 else f"{shards.count}/{','.join(map(str, shards.served))}"


async def database(server: PgServer) -> str:
    name = f"commerce_claims_{secrets.token_hex(4)}"
    admin = await asyncpg.connect(server.url())
    try:
        await admin.execute(f"CREATE DATABASE {name}")
    finally:
        await admin.close()
    conn = await asyncpg.connect(server.url(name))
    try:
        await migrate(conn)
    finally:
        await conn.close()
    return server.url(name)


def group(server: PgServer, a: Shards, cwd: Path) -> list[str]:
    """Topology ``a`` running, every topology beside it in turn; the problems found."""
    url = asyncio.run(database(server))
    tables = asyncio.run(seed(url))
    problems: list[str] = []
    started = [first := BotProcess(url, a, cwd)]
    try:
        if first.ready() != tables_of(a, tables):
            problems.append(f"{label(a)} loaded the wrong tables")
        for b in TOPOLOGIES:
            started.append(second := BotProcess(url, b, cwd))
            pair = f"{label(a)} running, {label(b)} starting"
            if a.overlap(b) is not None:
                code = second.exit_code()
                lines = [x for x in second.err if x.strip()]
                if code != 1 or len(lines) != 1 or not lines[0].startswith(
                        f"{b.describe()} would serve guilds another Commerce process already "
                        f"serves ({a.describe()}: "):
                    problems.append(f"{pair}: not refused with one line (exit {code}): "
                                    f"{second.log()[-500:]}")
                continue
            loaded = second.ready()
            if loaded != tables_of(b, tables) or set(loaded) & set(tables_of(a, tables)):
                problems.append(f"{pair}: loaded {loaded}")
            if (code := second.stop()) != 0:
                problems.append(f"{pair}: the second stopped with {code}")
        if (code := first.stop()) != 0:
            problems.append(f"{label(a)} stopped with {code}")
    except AssertionError as exc:  # a process that neither started nor was refused
        problems.append(f"{label(a)} running: {exc}")
    finally:
        for p in started:
            if p.proc.poll() is None:
                p.proc.kill()
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2,
                        help="topologies tested at once, each on its own database")
    args = parser.parse_args(argv)
    began = time.monotonic()
    server = start_server()
    try:
        with tempfile.TemporaryDirectory() as tmp, ThreadPoolExecutor(args.jobs) as pool:
            results = list(pool.map(lambda a: group(server, a, Path(tmp)), TOPOLOGIES))
    finally:
        server.stop()
    problems = [p for found in results for p in found]
    pairs = len(TOPOLOGIES) ** 2
    refused = sum(a.overlap(b) is not None for a in TOPOLOGIES for b in TOPOLOGIES)
    for problem in problems:
        print("FAIL", problem)
    print(f"{pairs} pairs with real processes in {time.monotonic() - began:.0f} s: {refused} "
          f"refused, {pairs - refused} served side by side; "
          f"{'all as expected' if not problems else f'{len(problems)} problems'}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
