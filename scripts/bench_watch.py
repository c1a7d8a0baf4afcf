"""Benchmark one round of the watch (``Timers.tick``, bot/timers/clock.py) over N idle
tables in the middle of a deal: what the watch costs the event loop every
``WATCH_EVERY`` seconds when no table needs anything.

Run from the repository root::

    .venv/bin/python scripts/bench_watch.py                 # 1,000 tables (about a minute)
    .venv/bin/python scripts/bench_watch.py --tables 200 --rounds 10 --runs 1

Prints figures only (no assertions; the tests never time anything). Everything
happens in ONE SimCord run, in-process, with a throw-away SQLite file:

1. Guilds of 50 tables (the most an admin may allow) with ``table_mode="here"``,
   ``next_deal_delay=0`` and ``turn_timer=0``. In each of N channels a member runs
   ``/commerce new``, presses **Add AI** twice and **Start** (as in
   ``bench_bot.py``): 1 human + 2 AI seats, the AI seats play up to the member's
   turn, and the table waits for the member. Nothing else happens: virtual time
   stands still, so no timer fires and the watch's own loop sleeps.
2. Each run times ``rounds`` rounds of ``await bot.timers.tick()``, back to back
   (wall clock, ``time.perf_counter``), and takes their median:

   * **warm**: the rounds as the running bot has them, the watch having looked at
     every table before;
   * **cold**: the same with the watch's memory of the tables that need nothing
     (``Timers.quiet``) emptied before each round, so every table is decided
     afresh, as every round did before that memory (and as the first round after
     a start does). Measured in the same run, over the same tables; the ratio
     cold / warm is printed.

   The Discord requests made and the tables whose moment (deal number, operation
   count, seat to act) changed during the rounds are counted: both must be 0, or
   the tables were not idle.

The last line printed is ``BENCH-JSON {"watch": {...}}`` for ``scripts/bench``
(with ``--runs N``: each figure's median, min and max over the N runs).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import simcord  # noqa: E402
from bench_bot import find_message  # noqa: E402  (this script's folder is on sys.path)

from bot import create_bot  # noqa: E402

#: tables a guild holds: the most an admin may allow (``/commerce settings max_tables``)
PER_GUILD = 50


def moments(bot: Any) -> dict[int, tuple[int, int, int | None]]:
    """Every open table's moment: deal number, operation count, seat to act."""
    out = {}
    for table_id, live in bot.service.tables.items():
        deal = live.deal
        out[table_id] = (live.deal_number, len(deal.operations) if deal else 0,
                         deal.to_act if deal else None)
    return out


def forget(bot: Any) -> None:
    """Empty the watch's memory of tables that need nothing (none before it existed)."""
    quiet = getattr(bot.timers, "quiet", None)
    if quiet is not None:
        quiet.clear()


async def rounds_of(bot: Any, rounds: int, *, cold: bool) -> list[float]:
    """``rounds`` rounds of the watch, each timed (seconds)."""
    times = []
    for _ in range(rounds):
        if cold:
            forget(bot)
        start = time.perf_counter()
        await bot.timers.tick()
        times.append(time.perf_counter() - start)
    return times


async def bench(n_tables: int, rounds: int, runs: int, seed: int) -> dict[str, Any]:
    tmp = tempfile.TemporaryDirectory(prefix="commerce-bench-watch-")
    bot = create_bot(Path(tmp.name) / "bench.db", rng=random.Random(seed), cooldown=None,
                     ai_pace=0)
    try:
        async with simcord.run(bot) as env:
            env.settle_timeout = 60.0  # a loaded machine; nothing here is a timing
            t0 = time.perf_counter()
            guilds = []
            for g in range(-(-n_tables // PER_GUILD)):
                guild = env.create_guild(name=f"watch-{g}")
                admin = guild.add_member(env.create_user(f"admin{g}"))
                await bot.service.update_settings(guild.id, admin.id, table_mode="here",
                                                  next_deal_delay=0, turn_timer=0,
                                                  max_tables=PER_GUILD)
                guilds.append(guild)
            for i in range(n_tables):
                guild = guilds[i // PER_GUILD]
                channel = guild.create_text_channel(f"table-{i}")
                actor = guild.add_member(env.create_user(f"player{i}"))
                res = await actor.slash(channel, "commerce new")
                assert res.ephemeral and "ready" in res.response.content, res
                lobby = find_message(channel, "commerce:lobby:")
                for label in ("Add AI", "Add AI", "Start"):
                    await actor.click(lobby, label=label)
            await env.settle()
            t_open = time.perf_counter() - t0
            live = list(bot.service.tables.values())
            mid_deal = sum(1 for t in live if t.deal is not None and not t.deal.finished
                           and t.deal.to_act is not None and not t.is_ai(t.deal.to_act))
            before, sent = moments(bot), len(env.http_requests)
            await rounds_of(bot, 3, cold=False)  # the first look at every table
            warm: list[float] = []
            cold: list[float] = []
            for _ in range(runs):
                cold.append(statistics.median(await rounds_of(bot, rounds, cold=True)))
                warm.append(statistics.median(await rounds_of(bot, rounds, cold=False)))
            changed = sum(1 for k, v in moments(bot).items() if before.get(k) != v)
            requests = len(env.http_requests) - sent
            errors = len(env.errors)
    finally:
        await bot.close_storage()
        tmp.cleanup()

    def spread(values: list[float], scale: float) -> dict[str, float]:
        scaled = [v * scale for v in values]
        return {"median": statistics.median(scaled), "min": min(scaled), "max": max(scaled)}

    ratios = [c / w for c, w in zip(cold, warm, strict=True)]
    figures: dict[str, Any] = {
        "round_ms": spread(warm, 1000.0),
        "round_us_per_table": spread(warm, 1e6 / n_tables),
        "round_cold_ms": spread(cold, 1000.0),
        "round_cold_us_per_table": spread(cold, 1e6 / n_tables),
        "cold_vs_warm": {"median": statistics.median(ratios), "min": min(ratios),
                         "max": max(ratios)},
        "tables": n_tables, "tables_mid_deal": mid_deal,
        "requests_during_rounds": requests, "tables_changed": changed, "errors": errors,
        "not_idle": requests + changed + errors,
    }
    print(f"Watch round benchmark · SimCord {simcord.__version__} · Python "
          f"{sys.version.split()[0]} · {os.cpu_count()} CPU")
    print(f"{n_tables} tables opened and started in {t_open:.1f} s ({mid_deal} mid-deal, the "
          f"member to act; turn_timer=0); {runs} runs of {rounds} rounds each way.")
    print(f"During the rounds: {requests} Discord requests, {changed} tables changed, "
          f"{errors} bot errors (all must be 0).")
    for name, values in (("warm (as the running bot has them)", warm),
                         ("cold (every table decided afresh)", cold)):
        f = spread(values, 1000.0)
        print(f"  one round, {name:<36} median {f['median']:8.2f} ms  "
              f"(min {f['min']:.2f}, max {f['max']:.2f}); "
              f"{f['median'] * 1000 / n_tables:.2f} µs per table")
    print(f"  cold / warm {statistics.median(ratios):.1f}")
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=20, help="rounds timed per run and way")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    figures = asyncio.run(bench(args.tables, args.rounds, args.runs, args.seed))
    print("BENCH-JSON " + json.dumps({"watch": figures}))


if __name__ == "__main__":
    main()
