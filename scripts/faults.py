"""Every failing write, in turn: the fault-injection figures of docs/RELIABILITY.md.

    .venv/bin/python scripts/faults.py [--families trade,widow,discard] [--step 1] [--seed 1]

For each rule family, plays the scripted game of tests/cogs/faults.py once without
faults to count its commits C, then again for every N in 1..C with the N-th commit
failing (`disk I/O error`), and once more for each N with a restart right after the
fault. Prints, per family and in all: faults injected, how each showed (the member
told "nothing changed", or a background/cosmetic write retried by itself), games
that still completed, stuck tables, games differing from their replay, ledger drift.
Exits 1 if any game had a problem.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import simcord  # noqa: E402

from bot import create_bot  # noqa: E402
from tests.cogs.faults import GAMES, FaultOutcome, faulty_game, tally  # noqa: E402


async def one(family: str, fail_at: int | None, seed: int, restart: bool) -> FaultOutcome:
    folder = Path(tempfile.mkdtemp(prefix="commerce-faults-"))
    bots: list = []

    def make_bot(seed: int = 7, cooldown=None):
        bot = create_bot(db_path=folder / "commerce.db", rng=random.Random(seed),
                         cooldown=cooldown, ai_pace=0)
        bots.append(bot)
        return bot

    try:
        async with simcord.run(make_bot(seed=seed)) as env:
            return await faulty_game(env, bots, make_bot, family, fail_at, seed=seed,
                                     restart_after_fault=restart)
    finally:
        for b in bots:
            await b.close_storage()


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--families", default=",".join(GAMES))
    parser.add_argument("--step", type=int, default=1, help="try every STEP-th N")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    logging.disable(logging.CRITICAL)  # failures are logged on purpose: keep the output short
    total: Counter[str] = Counter()
    problems: list[str] = []
    started = time.perf_counter()
    for family in args.families.split(","):
        clean = await one(family, None, args.seed, False)
        if clean.problems:
            problems += [f"{family} without faults: {p}" for p in clean.problems]
        outcomes = []
        for n in range(1, clean.commits + 1, args.step):
            for restart in (False, True):
                out = await one(family, n, args.seed, restart)
                outcomes.append(out)
                problems += [f"{family} N={n} restart={restart}: {p}" for p in out.problems]
        counts = tally(outcomes)
        total.update(counts)
        print(f"{family:8} commits per game {clean.commits:3}  " + "  ".join(
            f"{k} {v}" for k, v in sorted(counts.items())))
    print("all      " + "  ".join(f"{k} {v}" for k, v in sorted(total.items())))
    print(f"time {time.perf_counter() - started:.0f} s")
    for p in problems[:20]:
        print("PROBLEM", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
