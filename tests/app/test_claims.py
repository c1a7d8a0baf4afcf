"""Claims with real processes (docs/SCALING.md "Claims"): bot processes started as
``python -m bot`` starts them (scripts/offline_bot.py: only the connection to
Discord is left out) on one PostgreSQL database. A process whose guilds overlap a
running one's is refused at start with one line, whatever the two SHARD_COUNTs;
processes with disjoint guilds all start and each loads exactly its own tables. A
process whose claims connection is killed takes its claim back and writes on; if
another process took its guilds meanwhile, it stops cleanly at once with exit code
3, and starts again once they are free. The same in one process, for every pair of
topologies: tests/storage/test_claims.py; every pair with real processes:
scripts/claims.py."""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

import asyncpg
import pytest

from bot.storage.shards import Shards
from tests.postgres import child_environ
from tests.storage.test_claims import connect, live_claims, steal

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

from offline_bot import BotProcess, seed, tables_of  # noqa: E402


def start(url: str, shards: Shards | None, cwd: Path) -> BotProcess:
    return BotProcess(url, shards, cwd, env=child_environ())


@pytest.fixture
def processes():
    started: list[BotProcess] = []
    yield started
    for p in started:
        if p.proc.poll() is None:
            p.proc.kill()
            p.proc.wait()


def refusal(proc: BotProcess) -> str:
    assert proc.exit_code() == 1, proc.log()
    lines = [x for x in proc.err if x.strip()]
    assert "Traceback" not in proc.log() and len(lines) == 1, proc.log()
    return lines[0]


def test_overlapping_processes_are_refused_and_disjoint_ones_each_load_their_own(
        pg_migrated_url, tmp_path, processes):
    tables = asyncio.run(seed(pg_migrated_url))

    def begin(shards: Shards | None) -> BotProcess:
        processes.append(start(pg_migrated_url, shards, tmp_path))
        return processes[-1]

    first = begin(Shards(2, (0,)))
    assert first.ready() == tables_of(Shards(2, (0,)), tables)
    # disjoint guilds although the counts differ: both start beside it
    beside = [begin(Shards(4, (1,))), begin(Shards(4, (3,)))]
    loaded = [p.ready() for p in beside]
    assert loaded == [tables_of(p.shards, tables) for p in beside]
    assert sorted(first.ready() + loaded[0] + loaded[1]) == sorted(tables.values())
    # each of these overlaps one of the three running: refused at start, whatever its count
    refused = {s: begin(s) for s in (Shards(3, (2,)), None, Shards(2, (0, 1)), Shards(4, (0,)),
                                     Shards(2, (1,)))}
    for shards, proc in refused.items():
        line = refusal(proc)
        mine = (shards or Shards(1, (0,))).describe()
        assert line.startswith(f"{mine} would serve guilds another Commerce process already "
                               "serves ("), line
        assert "READY" not in proc.log()
    assert sorted(claims_now(pg_migrated_url)) == [(2, "[0]"), (4, "[1]"), (4, "[3]")]
    for p in (first, *beside):
        assert p.stop() == 0, p.log()
    assert claims_now(pg_migrated_url) == []


def claims_now(url: str) -> list[tuple[int, str]]:
    return asyncio.run(live_claims(url))


def kill_claims_session(url: str, pid: int) -> None:
    async def kill() -> None:
        conn = await connect(url)
        try:
            assert await conn.fetchval(
                "SELECT count(pg_terminate_backend(pid, 5000)) FROM pg_stat_activity"
                " WHERE application_name = $1", f"commerce-bot shards pid {pid}") == 1
        finally:
            await conn.close()
    asyncio.run(kill())


def test_a_process_whose_claims_connection_is_killed_takes_its_claim_back(
        pg_migrated_url, tmp_path, processes):
    bot = start(pg_migrated_url, Shards(2, (0,)), tmp_path)
    processes.append(bot)
    bot.ready()
    kill_claims_session(pg_migrated_url, bot.proc.pid)
    bot.wait_for(bot.err, lambda x: "WARNING bot.storage.claims: took the claim back "
                                    "(shard 0 of 2)" in x)
    assert bot.send("write") == "WROTE ok"
    other = start(pg_migrated_url, Shards(4, (2,)), tmp_path)  # shard 2 of 4 is 0 of 2's
    processes.append(other)
    assert refusal(other).startswith("shard 2 of 4 would serve guilds another Commerce "
                                     "process already serves (shard 0 of 2: commerce-bot pid "
                                     f"{bot.proc.pid} on ")
    assert bot.stop() == 0, bot.log()


def test_a_process_that_lost_its_guilds_to_another_stops_at_once_with_exit_code_3(
        pg_migrated_url, tmp_path, processes):
    tables = asyncio.run(seed(pg_migrated_url))
    bot = start(pg_migrated_url, Shards(2, (0,)), tmp_path)
    processes.append(bot)
    bot.ready()

    async def take_its_guilds() -> asyncpg.Connection:
        return await steal(pg_migrated_url, Shards(4, (0,)), f"commerce-bot shards pid {bot.proc.pid}")

    loop = asyncio.new_event_loop()
    try:
        thief = loop.run_until_complete(take_its_guilds())
        began = time.monotonic()
        assert bot.exit_code() == 3, bot.log()
        assert time.monotonic() - began < 15
        log = bot.log()
        assert "Traceback" not in log, log
        [critical] = [x for x in bot.err if " CRITICAL " in x]
        assert critical.split(" CRITICAL ", 1)[1].startswith(
            "bot.storage.claims: this process's claim on shard 0 of 2 of the PostgreSQL "
            "database ")
        assert ("is lost: another Commerce process took some of its guilds meanwhile (shard 0 "
                "of 4: thief pid ") in critical
        assert critical.endswith("; it writes nothing more")
        assert any("INFO bot.process.stopping: stopping (claim lost)" in x for x in bot.err), log
        assert any("INFO bot.process.stopping: stopped" in x for x in bot.err), log
        # a restart policy starts it again: refused while the guilds are taken ...
        again = start(pg_migrated_url, Shards(2, (0,)), tmp_path)
        processes.append(again)
        assert refusal(again).startswith("shard 0 of 2 would serve guilds another Commerce "
                                         "process already serves (shard 0 of 4: thief pid ")
        loop.run_until_complete(thief.close())
        # ... and serving once they are free
        last = start(pg_migrated_url, Shards(2, (0,)), tmp_path)
        processes.append(last)
        assert last.ready() == tables_of(Shards(2, (0,)), tables)
        assert last.stop() == 0, last.log()
    finally:
        loop.close()
