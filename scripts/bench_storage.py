"""Benchmark the write path: actions committed per second by a bare aiosqlite loop
and by the project's storage, in the same run, on the same schema and pragmas.

Prints figures only (no assertions; the tests never time anything).

Every path appends rows to the ``actions`` table (its triggers included) of a
database made by ``Storage.open``, with an open deal made through the service:

* **bare loop** (the baseline): ``aiosqlite.connect`` with the pragmas the storage
  runs with (``journal_mode``, ``synchronous`` and ``foreign_keys`` read back from
  the storage's own connection: WAL, FULL, ON), then ``BEGIN IMMEDIATE``, five
  ``INSERT INTO actions`` and ``COMMIT``, again and again;
* **Storage, five per unit**: five ``Storage.append_action`` calls inside one
  ``async with storage.atomic():``, again and again;
* **Storage, one per commit**: ``Storage.append_action`` on its own (its own
  transaction);
* **a move through the service**: ``TableService.act`` at foster tables of one
  human and two AI seats, the human playing what the easy AI would choose; each
  move commits the human's operation and the AI seats' answers in one unit (the
  engine and AI work are included: that is what a move costs). Actions are the
  operations the moves appended. The next deal and new tables are made outside
  the clock.

Each run measures every path in turn (``--commits`` transactions each); the
figures are the median, min and max over ``--runs`` runs, and each ratio
(bare / path) is taken within a run. Round trips to aiosqlite's thread are
counted (calls of ``aiosqlite.Connection._execute``) per transaction.

    .venv/bin/python scripts/bench_storage.py [--runs 5] [--commits 300]

The last line printed is ``BENCH-JSON {"storage": {...}}`` for ``scripts/bench``.
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import json
import os
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import aiosqlite  # noqa: E402

from bot.engine import easy as engine_easy  # noqa: E402
from bot.service import TableService  # noqa: E402
from bot.storage import Storage  # noqa: E402

GUILD = 1
#: an operation as the service logs it (the shape of ``operation_to_dict``)
PAYLOAD = {"kind": "trade", "seat": 1, "card": "Kd", "got": "7s", "fee": 1}
INSERT = ("INSERT INTO actions (deal_id, seq, payload, member_id, created_at)"
          " VALUES (?, ?, ?, ?, ?)")
PER_UNIT = 5


class RoundTrips:
    """Counts calls of ``aiosqlite.Connection._execute`` (one per hop to its thread)."""

    count = 0

    @classmethod
    def install(cls) -> None:
        original = aiosqlite.Connection._execute

        async def counted(conn: Any, fn: Any, *args: Any, **kwargs: Any) -> Any:
            cls.count += 1
            return await original(conn, fn, *args, **kwargs)

        aiosqlite.Connection._execute = counted  # type: ignore[method-assign]


def connection(storage: Storage) -> aiosqlite.Connection:
    """The storage's aiosqlite connection (whatever attribute holds it)."""
    for value in vars(storage).values():
        if isinstance(value, aiosqlite.Connection):
            return value
    raise RuntimeError("no aiosqlite connection found on the storage")


async def pragmas(storage: Storage) -> dict[str, Any]:
    out = {}
    for name in ("journal_mode", "synchronous", "foreign_keys"):
        async with connection(storage).execute(f"PRAGMA {name}") as cursor:
            row = await cursor.fetchone()
            assert row is not None
            out[name] = row[0]
    return out


class Tables:
    """Foster tables of one human and two AI seats, through the service."""

    def __init__(self, service: TableService) -> None:
        self.service = service
        self.made = 0
        self.table_id = 0
        self.host = 0

    async def new(self) -> None:
        self.made += 1
        self.host = 10_000 + self.made
        live = await self.service.create(GUILD, 20_000 + self.made, self.host,
                                         f"Player {self.made}", "foster", next_deal_delay=0)
        self.table_id = live.id
        for _ in range(2):
            await self.service.add_ai(live.id, self.host)
        await self.service.commitment_posted(live.id, 30_000 + self.made)  # fair-shuffle message
        await self.service.start(live.id, self.host)

    async def ready(self) -> None:
        """Until the human is to act: next deal or a new table (not timed)."""
        while True:
            live = self.service.tables.get(self.table_id)
            if live is None or live.game is None or live.game.complete:
                await self.new()
                continue
            deal = live.deal
            assert deal is not None
            if deal.finished:
                await self.service.next_deal(self.table_id, live.deal_number)
                continue
            if deal.to_act == live.seat_of(self.host):
                return
            raise RuntimeError("the human is not to act")

    async def move(self) -> tuple[float, int, int]:
        """One timed move: (seconds, operations appended, round trips)."""
        await self.ready()
        live = self.service.tables[self.table_id]
        deal = live.deal
        assert deal is not None
        before = len(deal.operations)
        seat = live.seat_of(self.host)
        decision = engine_easy.choose(deal.observation(seat))
        trips = RoundTrips.count
        start = time.perf_counter()
        await self.service.act(self.table_id, self.host, live.deal_number, decision)
        spent = time.perf_counter() - start
        return spent, len(deal.operations) - before, RoundTrips.count - trips


class Bench:
    def __init__(self, storage: Storage, bare: aiosqlite.Connection, deal_id: int,
                 table_id: int, number: int) -> None:
        self.storage, self.bare = storage, bare
        self.deal_id, self.table_id, self.number = deal_id, table_id, number
        self.seq = 10_000  # far above any operation the service appended
        self.text = json.dumps(PAYLOAD)
        # the deal as the storage's own signature names it: ``deal_id``, ``table_id,
        # number`` or ``deal`` (a (table_id, number) pair)
        first = next(iter(inspect.signature(storage.append_action).parameters))
        self.deal: tuple[int, ...] = {"deal_id": (deal_id,), "table_id": (table_id, number),
                                      "deal": ((table_id, number),)}[first]  # type: ignore[dict-item]

    def _next(self) -> int:
        self.seq += 1
        return self.seq

    async def append(self) -> None:
        await self.storage.append_action(*self.deal, self._next(), PAYLOAD, None)

    async def bare_unit(self) -> None:
        db = self.bare
        await db.execute("BEGIN IMMEDIATE")
        for _ in range(PER_UNIT):
            now = datetime.now(UTC).isoformat(timespec="milliseconds")
            await db.execute(INSERT, (self.deal_id, self._next(), self.text, None, now))
        await db.execute("COMMIT")

    async def storage_unit(self) -> None:
        async with self.storage.atomic():
            for _ in range(PER_UNIT):
                await self.append()


async def timed(commits: int, unit: Callable[[], Awaitable[None]], actions: int
                ) -> tuple[float, float]:
    """(actions per second, round trips per transaction) of ``commits`` units."""
    trips = RoundTrips.count
    start = time.perf_counter()
    for _ in range(commits):
        await unit()
    spent = time.perf_counter() - start
    return commits * actions / spent, (RoundTrips.count - trips) / commits


async def run(args: argparse.Namespace) -> dict[str, Any]:
    RoundTrips.install()
    with tempfile.TemporaryDirectory(prefix="commerce-bench-storage-") as tmp:
        path = Path(tmp) / "commerce.db"
        storage = await Storage.open(path)
        try:
            service = TableService(storage, rng=random.Random(args.seed))
            tables = Tables(service)
            await tables.new()
            live = service.tables[tables.table_id]
            # the deal the loops append to: the table's open first deal
            pinned = live.id, live.deal_number
            found = await pragmas(storage)
        finally:
            await storage.close()
        table_id, number = pinned
        with sqlite3.connect(path) as conn:
            deal_id = conn.execute("SELECT id FROM deals WHERE table_id = ? AND number = ?",
                                   (table_id, number)).fetchone()[0]
        storage = await Storage.open(path)
        bare = await aiosqlite.connect(Path(tmp) / "commerce.db", isolation_level=None)
        service = TableService(storage, rng=random.Random(args.seed + 1))
        await service.load()
        tables = Tables(service)
        tables.made = 1_000  # the moves play at new tables (the first is the loops')
        try:
            for name, value in found.items():
                async with bare.execute(f"PRAGMA {name}={value}") as cursor:
                    await cursor.fetchall()
            bench = Bench(storage, bare, deal_id, table_id, number)
            return await measure(args, bench, tables, found)
        finally:
            await bare.close()
            await storage.close()


async def measure(args: argparse.Namespace, bench: Bench, tables: Tables,
                  found: dict[str, Any]) -> dict[str, Any]:
    rows: dict[str, list[float]] = {}

    def keep(key: str, value: float) -> None:
        rows.setdefault(key, []).append(value)

    # warm-up: every path once, outside the figures
    await timed(5, bench.bare_unit, PER_UNIT)
    await timed(5, bench.storage_unit, PER_UNIT)
    for _ in range(5):
        await tables.move()
    for _ in range(args.runs):
        bare, bare_trips = await timed(args.commits, bench.bare_unit, PER_UNIT)
        unit, unit_trips = await timed(args.commits, bench.storage_unit, PER_UNIT)
        single, single_trips = await timed(args.commits, bench.append, 1)
        moves = [await tables.move() for _ in range(args.commits)]
        spent = sum(m[0] for m in moves)
        appended = sum(m[1] for m in moves)
        service = appended / spent
        keep("bare_actions_per_s", bare)
        keep("storage_unit5_actions_per_s", unit)
        keep("storage_single_actions_per_s", single)
        keep("service_actions_per_s", service)
        keep("service_moves_per_s", len(moves) / spent)
        keep("bare_vs_storage_unit5", bare / unit)
        keep("bare_vs_storage_single", bare / single)
        keep("bare_vs_service", bare / service)
        keep("round_trips_bare_unit5", bare_trips)
        keep("round_trips_storage_unit5", unit_trips)
        keep("round_trips_storage_single", single_trips)
        keep("round_trips_per_move", sum(m[2] for m in moves) / len(moves))
        keep("actions_per_move", appended / len(moves))
    report(args, rows, found)
    return {k: {"median": statistics.median(v), "min": min(v), "max": max(v)}
            for k, v in rows.items()}


def report(args: argparse.Namespace, rows: dict[str, list[float]], found: dict[str, Any]) -> None:
    print(f"Storage write benchmark: Python {sys.version.split()[0]}, SQLite "
          f"{sqlite3.sqlite_version}, aiosqlite {aiosqlite.__version__}, {os.cpu_count()} CPUs")
    print(f"pragmas (read from the storage's connection, used by the bare loop too): {found}")
    print(f"{args.runs} runs x {args.commits} transactions per path; median [min-max]\n")

    def cell(key: str, fmt: str = ",.0f") -> str:
        v = rows[key]
        return (f"{statistics.median(v):{fmt}} [{min(v):{fmt}}-{max(v):{fmt}}]")

    print(f"{'path':<52}{'actions/s':>26}{'bare / path':>20}{'trips/commit':>14}")
    lines = (
        ("bare aiosqlite loop, 5 inserts per transaction", "bare_actions_per_s", None,
         "round_trips_bare_unit5"),
        ("Storage.append_action x5 in one atomic()", "storage_unit5_actions_per_s",
         "bare_vs_storage_unit5", "round_trips_storage_unit5"),
        ("Storage.append_action, one per commit", "storage_single_actions_per_s",
         "bare_vs_storage_single", "round_trips_storage_single"),
        ("TableService.act (move + AI answers, one unit)", "service_actions_per_s",
         "bare_vs_service", "round_trips_per_move"),
    )
    for label, key, ratio, trips in lines:
        r = cell(ratio, ".2f") if ratio else "1.00 (baseline)"
        print(f"{label:<52}{cell(key):>26}{r:>20}{statistics.median(rows[trips]):>14.1f}")
    print(f"\nmoves through the service: {cell('service_moves_per_s')} /s, "
          f"{statistics.median(rows['actions_per_move']):.2f} actions per move (engine and AI "
          "work included)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--commits", type=int, default=300, help="transactions per path per run")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    figures = asyncio.run(run(args))
    print("BENCH-JSON " + json.dumps({"storage": figures}))


if __name__ == "__main__":
    main()
