"""Benchmark a restart: every open table ready again after ``Storage.open`` and
``TableService.load()``, for databases of N open tables (1,000 and 10,000 by default).

Prints figures only (no assertions; the tests never time anything).

**The databases are built through the real service**, never by SQL: every table is
opened with ``TableService.create`` (one human host), given AI seats with
``add_ai``, started with ``start`` and played with ``act`` and ``next_deal`` (the
human seat plays what the ``easy`` AI would choose), so the rows are exactly what a
running bot writes. The tables cycle through mixed states (``STATES``): lobbies, games
in the middle of a deal of each family (trade, widow, discard), and games a few deals
in; a game that ends on the way stays in the file as a finished table (its end marked
shown, as the bot marks it once shown) and another is built. One guild holds 50 tables
(the most an admin may allow). Building 10,000 tables this way took about 200 s on 2
shared cores (the time is printed and kept); no row is copied by SQL. The build's
connection runs with ``PRAGMA synchronous=OFF`` (which changes how soon a commit
reaches the disk, never what is written); the measured runs use the storage exactly as
the bot opens it.

Built databases are cached under ``<tmp>/commerce-bench-resume/`` keyed by N, the
schema (a hash of ``bot/storage/migrations/*.sql``) and the builder's version; each
measured run works on a fresh copy of the cached file.

Each run is a fresh process (imports done before the clock starts) that times:

* ``Storage.open(path)`` (lock, header and ``quick_check``, migrations, probe write);
* ``await TableService(storage).load()`` (rebuilds every open table);
* their sum, the time until every open table is ready, in ms and µs per table;
* the SQL statements SQLite ran (``set_trace_callback``) and the round trips to
  aiosqlite's thread (calls of ``aiosqlite.Connection._execute``), both during
  ``load()``.

The timed runs include whatever a restart pays once, such as tables the engine
builds on first use. A further fresh process first plays one AI deal of every
preset (timed and reported: that one-time cost), then measures memory per open
table: tracemalloc's traced memory after ``load()`` minus before ``Storage.open``,
divided by N (Python objects only: SQLite's page cache is C memory that
tracemalloc cannot see; the engine's one-time tables are not charged to the tables).
That process also times one full run of Python's cyclic garbage collector with the
tables loaded, then after ``gc.freeze()`` (what ``python -m bot`` does once loaded),
and counts the reference cycles found once every table is dropped (none: frozen
tables are still freed by reference counting when they close).

    .venv/bin/python scripts/bench_resume.py [--tables 1000 10000] [--runs 3] [--rebuild]

The last line printed is ``BENCH-JSON {"resume": {...}}`` for ``scripts/bench``.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import hashlib
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

STARTED = time.perf_counter()  # before the project's imports (reported as imports_ms)
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import aiosqlite  # noqa: E402

from bot.engine import PRESETS, Game, get_preset, shuffled_deck  # noqa: E402
from bot.engine import easy as engine_easy  # noqa: E402
from bot.service import TableService  # noqa: E402
from bot.storage import Storage  # noqa: E402

#: bump when the builder below makes different tables
BUILDER_VERSION = 2  # 2: the end of a game that ended on the way is marked shown
TABLES_PER_GUILD = 50
SEED = 2026
HOST_BASE, CHANNEL_BASE, GUILD_BASE = 10**9, 2 * 10**9, 10**6

#: (name, preset, AI seats besides the human host, complete deals played first,
#: human moves in the deal left open); ``None`` deals: a lobby, never started
STATES: tuple[tuple[str, str, int, int | None, int], ...] = (
    ("lobby", "foster", 1, None, 0),
    ("lobby", "jaques", 0, None, 0),
    ("trade family, mid-deal", "foster", 2, 0, 1),
    ("trade family, mid-deal", "parlett", 4, 0, 2),
    ("widow family, mid-deal", "widow", 3, 0, 1),
    ("widow family, mid-deal", "oldway", 2, 0, 1),
    ("discard family, mid-deal", "jaques", 3, 0, 1),
    ("a few deals in", "foster", 2, 3, 1),
    ("a few deals in", "oldway", 3, 2, 1),
    ("a few deals in", "jaques", 2, 2, 0),
)


# ---------------------------------------------------------------- the build
def connection(storage: Storage) -> aiosqlite.Connection:
    """The storage's aiosqlite connection (whatever attribute holds it)."""
    for value in vars(storage).values():
        if isinstance(value, aiosqlite.Connection):
            return value
    raise RuntimeError("no aiosqlite connection found on the storage")


def schema_key() -> str:
    """A short hash of the migrations, so a new schema builds new databases."""
    digest = hashlib.sha256()
    for path in sorted((ROOT / "bot" / "storage" / "migrations").glob("*.sql")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:12]


def cache_path(n: int, cache_dir: Path) -> Path:
    return cache_dir / f"resume-{n}-schema{schema_key()}-b{BUILDER_VERSION}.db"


async def play_human(service: TableService, table_id: int, member: int, moves: int) -> bool:
    """The human seat makes up to ``moves`` moves (the easy AI's choice); returns
    False when the table is no longer open."""
    for _ in range(moves):
        live = service.tables.get(table_id)
        if live is None:
            return False
        deal, seat = live.deal, live.seat_of(member)
        if deal is None or deal.finished or deal.to_act != seat:
            return True
        decision = engine_easy.choose(deal.observation(seat))
        await service.act(table_id, member, live.deal_number, decision)
    return table_id in service.tables


async def finish_deal(service: TableService, table_id: int, member: int) -> bool:
    """Play the current deal to its end; False when the table closed (game over)."""
    for _ in range(500):
        live = service.tables.get(table_id)
        if live is None:
            return False
        if live.deal is None or live.deal.finished:
            return True
        if not await play_human(service, table_id, member, 1):
            return False
    raise RuntimeError(f"table {table_id}: the deal does not end")


async def build_table(service: TableService, i: int, state: tuple[str, str, int, int | None, int]
                      ) -> bool:
    """Table number ``i`` in ``state``, through the service; False if its game
    ended on the way (the caller builds another)."""
    _, preset, ais, deals, moves = state
    guild, host, channel = GUILD_BASE + i // TABLES_PER_GUILD, HOST_BASE + i, CHANNEL_BASE + i
    live = await service.create(guild, channel, host, f"Player {i}", preset, next_deal_delay=0,
                                max_tables=TABLES_PER_GUILD)
    for _ in range(ais):
        await service.add_ai(live.id, host)
    if deals is None:
        return True
    await service.commitment_posted(live.id, CHANNEL_BASE + i)  # the fair-shuffle message
    await service.start(live.id, host)
    for _ in range(deals):
        if not await finish_deal(service, live.id, host):
            return False
        game = service.tables[live.id].game
        assert game is not None
        if game.complete:
            return False
        await service.next_deal(live.id, service.tables[live.id].deal_number)
    return await play_human(service, live.id, host, moves)


async def build(n: int, path: Path) -> dict[str, Any]:
    """A database of ``n`` open tables at ``path``, built through the service."""
    tmp = path.with_name(path.name + ".partial")
    for leftover in tmp.parent.glob(tmp.name + "*"):
        leftover.unlink()
    start = time.perf_counter()
    storage = await Storage.open(tmp)
    counts: dict[str, int] = {}
    try:
        # the build's own connection only: commits need not wait for the disk
        # (what is written is the same); the measured runs open the file as the bot does
        await connection(storage).execute("PRAGMA synchronous=OFF")
        service = TableService(storage, rng=random.Random(SEED))
        i = made = reported = 0
        while made < n:
            state = STATES[i % len(STATES)]
            if await build_table(service, i, state):
                made += 1
                counts[state[0]] = counts.get(state[0], 0) + 1
            for ended in list(service.ending):  # shown, as the bot's Ending marks it
                await service.end_shown(ended)
            i += 1
            if made % 1000 == 0 and made > reported:
                reported = made
                print(f"  built {made:,} tables ({time.perf_counter() - start:.0f} s)",
                      file=sys.stderr, flush=True)
        assert len(service.tables) == n, (len(service.tables), n)
    finally:
        await storage.close()
    for suffix in ("-wal", "-shm"):
        Path(str(tmp) + suffix).unlink(missing_ok=True)
    tmp.replace(path)
    tmp.with_name(tmp.name + ".lock").unlink(missing_ok=True)
    info = {"tables": n, "build_s": time.perf_counter() - start, "states": counts,
            "tables_tried": i}
    path.with_suffix(".json").write_text(json.dumps(info))
    return info


# ---------------------------------------------------------------- one measured run
class RoundTrips:
    """Counts calls of ``aiosqlite.Connection._execute`` (one per hop to its thread)."""

    def __init__(self) -> None:
        self.count = 0
        original = aiosqlite.Connection._execute
        meter = self

        async def counted(conn: Any, fn: Any, *args: Any, **kwargs: Any) -> Any:
            meter.count += 1
            return await original(conn, fn, *args, **kwargs)

        aiosqlite.Connection._execute = counted  # type: ignore[method-assign]


def warm_engine() -> float:
    """Play one deal of every preset with the AI, so that the engine's one-time
    tables (built on first use) exist; returns the milliseconds it took."""
    rng = random.Random(SEED)
    start = time.perf_counter()
    for preset in PRESETS:
        deal = Game(get_preset(preset), 3, 0).start_deal(shuffled_deck(rng), rng=rng)
        while not deal.finished:
            seat = deal.to_act
            assert seat is not None
            deal.act(seat, engine_easy.choose(deal.observation(seat)))
    return (time.perf_counter() - start) * 1000


def collections(service: TableService) -> dict[str, float]:
    """A full run of the cyclic collector with the tables loaded (ms, median of 3),
    then after ``gc.freeze()`` as ``python -m bot`` does after loading; and what
    one would find once every table is dropped (reference cycles left behind)."""
    def full() -> float:
        times = []
        for _ in range(3):
            start = time.perf_counter()
            gc.collect()
            times.append((time.perf_counter() - start) * 1000)
        return statistics.median(times)

    gc.collect()
    loaded = full()
    gc.freeze()
    frozen = full()
    gc.unfreeze()
    service.tables.clear()
    left = gc.collect()
    return {"gc_full_ms": loaded, "gc_full_frozen_ms": frozen, "gc_cycles_left": left}


async def measure(path: Path, memory: bool) -> dict[str, float]:
    """Open the storage and load every open table once; times or memory. The
    memory run first builds the engine's one-time tables (``warm_engine``) so that
    they are not charged to the tables; the timed runs do not, as a restart does not."""
    trips = RoundTrips()
    statements = [0]

    def traced(_sql: str) -> None:
        statements[0] += 1

    imports = (time.perf_counter() - STARTED) * 1000
    warm = warm_engine() if memory else 0.0
    if memory:
        tracemalloc.start()
        before = tracemalloc.get_traced_memory()[0]
    t0 = time.perf_counter()
    storage = await Storage.open(path)
    t1 = time.perf_counter()
    try:
        await connection(storage).set_trace_callback(traced)
        trips.count = 0
        t2 = time.perf_counter()
        service = TableService(storage)
        tables = await service.load()
        t3 = time.perf_counter()
        out = {"open_ms": (t1 - t0) * 1000, "load_ms": (t3 - t2) * 1000,
               "ready_ms": (t1 - t0 + t3 - t2) * 1000, "tables": len(tables),
               "statements": statements[0], "round_trips": trips.count,
               "stale": len(service.stale), "imports_ms": imports}
        await connection(storage).set_trace_callback(None)
        if memory:
            out["bytes"] = tracemalloc.get_traced_memory()[0] - before
            out["warm_ms"] = warm
            tracemalloc.stop()
            out.update(collections(service))
        return out
    finally:
        await storage.close()


def run_child(cached: Path, memory: bool) -> dict[str, float]:
    """One measured run in a fresh process, on a fresh copy of ``cached``."""
    with tempfile.TemporaryDirectory(prefix="commerce-resume-") as tmp:
        copy = Path(tmp) / "commerce.db"
        shutil.copyfile(cached, copy)
        cmd = [sys.executable, __file__, "--child", str(copy)] + (["--memory"] if memory else [])
        done = subprocess.run(cmd, capture_output=True, text=True, check=False)
        if done.returncode:
            raise RuntimeError(f"measured run failed:\n{done.stderr}")
        return json.loads(done.stdout.strip().splitlines()[-1])


def spread(values: list[float]) -> dict[str, float]:
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def bench_size(n: int, runs: int, cache_dir: Path, rebuild: bool) -> dict[str, Any]:
    cached = cache_path(n, cache_dir)
    if rebuild or not cached.exists():
        print(f"Building {n:,} open tables through TableService (cached at {cached}) ...",
              file=sys.stderr, flush=True)
        info = asyncio.run(build(n, cached))
        built = f"built now in {info['build_s']:.1f} s"
    else:
        info = json.loads(cached.with_suffix(".json").read_text())
        built = f"cached (the build took {info['build_s']:.1f} s)"
    results = [run_child(cached, memory=False) for _ in range(runs)]
    memory = run_child(cached, memory=True)
    mib = cached.stat().st_size / 2**20
    print(f"\n{n:,} open tables, database {mib:.1f} MiB, {built} through the service")
    print("  states: " + ", ".join(f"{k} {v:,}" for k, v in info["states"].items()))
    for r in results:
        if r["tables"] != n or r["stale"]:
            print(f"  WARNING: a run loaded {r['tables']} tables, {r['stale']} stale")
    figures: dict[str, Any] = {}
    print(f"  {'':<34}{'median':>10}{'min':>10}{'max':>10}")
    for key, name, label, scale in (
            ("open_ms", "open_ms", "Storage.open, ms", 1.0),
            ("load_ms", "load_ms", "service.load(), ms", 1.0),
            ("ready_ms", "ready_ms", "ready (open + load), ms", 1.0),
            ("ready_ms", "ready_us_per_table", "ready, µs per table", 1000.0 / n)):
        f = spread([r[key] * scale for r in results])
        print(f"  {label:<34}{f['median']:>10.1f}{f['min']:>10.1f}{f['max']:>10.1f}")
        figures[name] = f
    figures["imports_ms"] = spread([r["imports_ms"] for r in results])
    figures["statements"] = results[0]["statements"]
    figures["round_trips"] = results[0]["round_trips"]
    figures["kib_per_table"] = memory["bytes"] / n / 1024
    figures["engine_warm_ms"] = memory["warm_ms"]
    print(f"  before the clock, each fresh process spent {figures['imports_ms']['median']:.0f} ms "
          "(median) starting Python and importing the project")
    print(f"  during load(): {results[0]['statements']:,} SQL statements, "
          f"{results[0]['round_trips']:,} round trips to aiosqlite's thread "
          f"({results[0]['statements'] / n:.2f} and {results[0]['round_trips'] / n:.2f} per table)")
    print(f"  memory per open table: {figures['kib_per_table']:.1f} KiB (tracemalloc after load "
          f"minus before open, / {n:,}; Python objects only; the engine's one-time tables "
          "excluded)")
    print(f"  the engine's one-time tables (one AI deal of every preset in a fresh process, "
          f"included in the timed runs): {memory['warm_ms']:.0f} ms")
    figures["gc_full_ms"] = memory["gc_full_ms"]
    figures["gc_full_frozen_ms"] = memory["gc_full_frozen_ms"]
    print(f"  a full run of the cyclic collector with these tables loaded: "
          f"{memory['gc_full_ms']:.0f} ms; after gc.freeze() (python -m bot does it once "
          f"loaded): {memory['gc_full_frozen_ms']:.1f} ms; reference cycles left when every "
          f"table is dropped: {memory['gc_cycles_left']}")
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--runs", type=int, default=3, help="measured runs per size (median)")
    parser.add_argument("--cache-dir", type=Path,
                        default=Path(tempfile.gettempdir()) / "commerce-bench-resume")
    parser.add_argument("--rebuild", action="store_true", help="build the databases again")
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--memory", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child is not None:
        print(json.dumps(asyncio.run(measure(args.child, args.memory))))
        return
    args.cache_dir.mkdir(parents=True, exist_ok=True)
    print(f"Resume benchmark: Python {sys.version.split()[0]}, {os.cpu_count()} CPUs, "
          f"{args.runs} runs per size (each a fresh process on a fresh copy), schema "
          f"{schema_key()}")
    out = {str(n): bench_size(n, args.runs, args.cache_dir, args.rebuild) for n in args.tables}
    print("\nGoals: 1,000 open tables ready <= 300 ms; 10,000 <= 3,000 ms.")
    flat: dict[str, Any] = {}
    for n, figures in out.items():
        for key, value in figures.items():
            flat[f"{key}_{n}"] = value
    print("BENCH-JSON " + json.dumps({"resume": flat}))


if __name__ == "__main__":
    main()
