"""Benchmark the coach and the strong AI as the bot runs them: milliseconds
from a Hint press reaching the service to the advice, and per strong decision,
through ``bot.service.players.AiPlayers`` exactly as ``python -m bot`` builds it
(the worker process, its deadlines, the short search here when the worker is
not ready; docs/AI.md "Coach").

Each *start* is a fresh ``AiPlayers``: ``warm()`` is called as the bot's start
calls it, and the first hint is asked at once (the worst case: the worker's
fresh interpreter is still importing the engine), then ``--hints`` more at
seeded decision points of every family, one after another, then as many strong
decisions. A run is ``--starts`` starts; the figures are over every hint of a
run, the first ones after a start included (and on their own)::

    .venv/bin/python scripts/bench_hint.py [--starts 4] [--hints 25] [--runs 3]

Prints figures only (the tests never time anything); the last line is
``BENCH-JSON {"hint": {...}}`` (median, min and max over the runs) for
``scripts/bench``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_ai import FAMILIES, points, quantile

from bot.service.players import AiPlayers


async def one_start(cases: list, hints: int) -> tuple[list[float], float, list[float]]:
    """One bot start: (ms per hint, the first hint's ms, ms per strong decision)."""
    players = AiPlayers()
    players.warm()  # as the bot's start does (bot.process.app)
    try:
        spent: list[float] = []
        for deal, seat in cases[:hints + 1]:
            start = time.perf_counter()
            await players.advise(deal, seat)
            spent.append((time.perf_counter() - start) * 1000)
        strong: list[float] = []
        for deal, seat in cases[:hints]:
            start = time.perf_counter()
            await players.decide(deal, seat, "strong")
            strong.append((time.perf_counter() - start) * 1000)
        return spent, spent[0], strong
    finally:
        players.close()


def run_once(cases: list, starts: int, hints: int) -> dict[str, float]:
    """One run of ``starts`` starts: p50/p99 of every hint, the slowest first hint
    after a start, p99 of the strong decisions."""
    every: list[float] = []
    firsts: list[float] = []
    strong: list[float] = []
    for k in range(starts):
        rotated = cases[k * 7 % len(cases):] + cases[:k * 7 % len(cases)]
        spent, first, decided = asyncio.run(one_start(rotated, hints))
        every += spent
        firsts.append(first)
        strong += decided
    return {"hint_p50_ms": quantile(every, 0.5), "hint_p99_ms": quantile(every, 0.99),
            "hint_first_max_ms": max(firsts), "hint_first_median_ms": statistics.median(firsts),
            "strong_live_p99_ms": quantile(strong, 0.99)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--starts", type=int, default=4, help="fresh starts per run")
    parser.add_argument("--hints", type=int, default=25, help="hints after the first, per start")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    per = max(1, (args.hints + 1) // len(FAMILIES) + 1)
    cases = [case for _, preset in FAMILIES for case in points(preset, per, args.seed)]
    # the families in turn, so every start meets each of them
    cases = [cases[i * per + j] for j in range(per) for i in range(len(FAMILIES))]
    runs = [run_once(cases, args.starts, args.hints) for _ in range(args.runs)]
    print(f"{args.runs} runs × {args.starts} starts × {args.hints + 1} hints "
          f"(+{args.hints} strong decisions), families {', '.join(p for _, p in FAMILIES)}")
    out: dict[str, dict[str, float]] = {}
    for key in runs[0]:
        values = [r[key] for r in runs]
        out[key] = {"median": statistics.median(values), "min": min(values),
                    "max": max(values)}
        print(f"  {key:<22}{out[key]['median']:9.1f}  ({out[key]['min']:.1f}–"
              f"{out[key]['max']:.1f})")
    print("BENCH-JSON " + json.dumps({"hint": out}))


if __name__ == "__main__":
    main()
