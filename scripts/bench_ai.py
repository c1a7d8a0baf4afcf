"""Benchmark the AI levels: milliseconds per decision, per level and family.

Prints figures only (no assertions; the tests never time anything). Each run
plays seeded deals with one seat per level (strong, normal, easy) and, at
every decision point, times all three levels deciding that same point through
``levels.decide`` — for ``strong`` that includes gathering its ``seat_view`` — with
the live budget (``strong.DEFAULT_BUDGET``). A run gives each level's p50 and
p99 per family; the table shows the median of ``--runs`` runs and, in
brackets, their min and max, and how many playouts a strong decision made
(median). Meant for one core:

    taskset -c 0 .venv/bin/python scripts/bench_ai.py [--points N] [--runs 3] [--seed 1]

The decision points are the same in every run (seeded); only the clock differs.
The last line printed is ``BENCH-JSON {"ai": {...}}``: per preset and level, p50
and p99 ms (median, min and max over the runs) for ``scripts/bench``.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.engine import levels, strong
from bot.engine.cards import shuffled_deck
from bot.engine.game import AnyDeal, Game
from bot.engine.rules import get_preset

#: the family each benchmarked preset stands for
FAMILIES = (("trade", "foster"), ("widow", "widow"), ("widow", "oldway"), ("discard", "jaques"))
LEVELS = levels.LEVELS


def points(preset: str, count: int, seed: int) -> list[tuple[AnyDeal, int]]:
    """``count`` decision points of seeded 3-seat deals (seat levels strong,
    normal, easy in turn), each a copy of the deal frozen at that point."""
    rules = get_preset(preset)
    rng = random.Random(f"bench:{preset}:{seed}")
    out: list[tuple[AnyDeal, int]] = []
    while len(out) < count:
        game = Game(rules, 3, rng.randrange(3))
        deal = game.start_deal(shuffled_deck(rng), rng=random.Random(rng.random()))
        while not deal.finished and len(out) < count:
            seat = deal.to_act
            assert seat is not None
            out.append((copy.deepcopy(deal), seat))
            level = LEVELS[seat % 3]
            decision = levels.decide(deal, seat, level, rng=random.Random(len(out)),
                                 budget=strong.Budget(playouts=100, seconds=None))
            deal.act(seat, decision)
    return out


PLAYOUTS = [0]


def counted(*args, **kwargs):
    """``strong.playout``, counted (how many fit in the deadline)."""
    PLAYOUTS[0] += 1
    return PLAYOUT(*args, **kwargs)


PLAYOUT = strong.playout
strong.playout = counted


def run_once(decks: dict[str, list[tuple[AnyDeal, int]]]) -> dict[tuple[str, str], list[float]]:
    """Milliseconds per decision by (preset, level); playouts per strong
    decision by (preset, "playouts")."""
    times: dict[tuple[str, str], list[float]] = {}
    for preset, cases in decks.items():
        for level in LEVELS:
            spent = times.setdefault((preset, level), [])
            for i, (deal, seat) in enumerate(cases):
                PLAYOUTS[0] = 0
                start = time.perf_counter()
                levels.decide(deal, seat, level, rng=random.Random(i))
                spent.append((time.perf_counter() - start) * 1000)
                if level == "strong":
                    times.setdefault((preset, "playouts"), []).append(PLAYOUTS[0])
    return times


def quantile(values: list[float], q: float) -> float:
    """The ``q`` quantile (nearest rank) of ``values``."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--points", type=int, default=60, help="decision points per preset")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    decks = {preset: points(preset, args.points, args.seed) for _, preset in FAMILIES}
    runs = [run_once(decks) for _ in range(args.runs)]
    cpus = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else "?"
    print(f"Python {platform.python_version()}, CPUs {cpus}, {args.points} decision points per "
          f"preset, {args.runs} runs, strong budget {strong.DEFAULT_BUDGET}")
    print()
    print("| family (preset) | level | p50 ms | p99 ms | playouts (median) |")
    print("|---|---|---:|---:|---:|")
    out: dict[str, dict[str, float]] = {}
    for family, preset in FAMILIES:
        for level in LEVELS:
            cells = []
            for q in (0.5, 0.99):
                figures = [quantile(run[(preset, level)], q) for run in runs]
                out[f"{preset}_{level}_p{round(q * 100)}_ms"] = {
                    "median": statistics.median(figures), "min": min(figures), "max": max(figures)}
                cells.append(f"{statistics.median(figures):.2f} ({min(figures):.2f}–{max(figures):.2f})")
            played = ""
            if level == "strong":
                counts = [statistics.median(run[(preset, "playouts")]) for run in runs]
                played = f"{statistics.median(counts):.0f}"
            print(f"| {family} ({preset}) | {level} | {cells[0]} | {cells[1]} | {played} |")
    print("BENCH-JSON " + json.dumps({"ai": out}))


if __name__ == "__main__":
    main()
