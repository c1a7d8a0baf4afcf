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

After those runs, ``strong`` is timed again under load (``--runs`` more
runs, a table of its own): a busy-loop process started here spins on the
machine's other core (pinned there; this process keeps the first core of its
own) for the whole of that measurement; issue 25's goal is a p99 within
250 ms then. ``--busy`` times every run under load instead (no idle runs),
``--no-busy`` skips the runs under load; ``--levels strong`` times one level
only. ``--cpu-clock`` gives strong's deadline in CPU seconds of this process
(``time.process_time``), so that its playouts per decision measure the code's
speed whatever else runs on the machine; ``--no-expected-cache`` turns off
``normal``'s cache of ``_expected_after`` (``normal.CACHE_EXPECTED``), to
compare.

The decision points are the same in every run (seeded); only the clock differs.
The last line printed is ``BENCH-JSON {"ai": {...}}``: per preset and level, p50
and p99 ms (median, min and max over the runs), and ``<preset>_strong_busy_p50_ms``
/ ``_p99_ms`` / ``_playouts`` from the runs under load, for ``scripts/bench``.
"""

from __future__ import annotations

import argparse
import copy
import json
import multiprocessing
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.engine import levels, normal, strong
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


def spin() -> None:
    """The busy loop of ``--busy``: burns its core until terminated."""
    n = 0
    while True:
        n = (n * 31 + 7) % 1_000_003


def busy_elsewhere() -> tuple[multiprocessing.Process, str]:
    """Start ``spin`` on a core other than this process's (both pinned when the
    affinity API exists); returns the process and where each runs."""
    proc = multiprocessing.get_context("spawn").Process(target=spin, daemon=True)
    proc.start()
    if not hasattr(os, "sched_setaffinity"):
        return proc, "busy loop unpinned"
    mine = sorted(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {mine[0]})
    # the machine's other cores, also when this process was started on one (taskset)
    for other in [c for c in range(os.cpu_count() or 1) if c != mine[0]]:
        try:
            if proc.pid:
                os.sched_setaffinity(proc.pid, {other})
                return proc, f"bench on CPU {mine[0]}, busy loop on CPU {other}"
        except OSError:  # a core this container may not use
            continue
    return proc, f"bench and busy loop share CPU {mine[0]}"


def run_once(decks: dict[str, list[tuple[AnyDeal, int]]],
             levels_timed: tuple[str, ...] = LEVELS) -> dict[tuple[str, str], list[float]]:
    """Milliseconds per decision by (preset, level); playouts per strong
    decision by (preset, "playouts")."""
    times: dict[tuple[str, str], list[float]] = {}
    for preset, cases in decks.items():
        for level in levels_timed:
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
    parser.add_argument("--busy", action="store_true",
                        help="every run with the other core kept busy by a spinning process")
    parser.add_argument("--no-busy", action="store_true",
                        help="no runs of strong under load after the idle ones")
    parser.add_argument("--levels", default=",".join(LEVELS),
                        help="comma-separated levels to time (default: all)")
    parser.add_argument("--cpu-clock", action="store_true",
                        help="strong's deadline in CPU seconds of this process")
    parser.add_argument("--no-expected-cache", action="store_true",
                        help="normal._expected_after computed afresh every time")
    parser.add_argument("--presets", default=",".join(p for _, p in FAMILIES),
                        help="comma-separated presets among the default ones")
    args = parser.parse_args()
    chosen = args.presets.split(",")
    if args.cpu_clock:
        choose = strong.choose
        strong.choose = lambda *a, **k: choose(*a, **k, clock=time.process_time)  # type: ignore[misc]
    normal.CACHE_EXPECTED = not args.no_expected_cache
    timed = tuple(level for level in LEVELS if level in args.levels.split(","))
    decks = {preset: points(preset, args.points, args.seed) for _, preset in FAMILIES
             if preset in chosen}
    out: dict[str, dict[str, float]] = {}
    if args.busy:
        runs, where = loaded(decks, timed, args.runs)
        report(args, runs, timed, f", under load: {where}", "", out)
    else:
        runs = [run_once(decks, timed) for _ in range(args.runs)]
        report(args, runs, timed, "", "", out)
        if not args.no_busy and "strong" in timed:
            runs, where = loaded(decks, ("strong",), args.runs)
            print()
            report(args, runs, ("strong",), f", strong under load: {where}", "busy_", out)
    print("BENCH-JSON " + json.dumps({"ai": out}))


def loaded(decks: dict[str, list[tuple[AnyDeal, int]]], timed: tuple[str, ...], count: int,
           ) -> tuple[list[dict[tuple[str, str], list[float]]], str]:
    """``count`` runs with ``spin`` busy on the other core meanwhile, and where each ran."""
    busy, where = busy_elsewhere()
    try:
        return [run_once(decks, timed) for _ in range(count)], where
    finally:
        busy.terminate()
        busy.join()


def report(args: argparse.Namespace, runs: list[dict[tuple[str, str], list[float]]],
           timed: tuple[str, ...], load: str, tag: str, out: dict[str, dict[str, float]]) -> None:
    """Print the table of ``runs`` and add its figures to ``out`` (keys
    ``<preset>_<level>_<tag>p50_ms``...)."""
    cpus = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else "?"
    print(f"Python {platform.python_version()}, CPUs {cpus}, {args.points} decision points per "
          f"preset, {args.runs} runs, strong budget {strong.DEFAULT_BUDGET}{load}"
          + (", deadline in CPU time" if args.cpu_clock else "")
          + (", normal._expected_after not cached" if args.no_expected_cache else ""))
    print()
    print("| family (preset) | level | p50 ms | p99 ms | playouts (median) |")
    print("|---|---|---:|---:|---:|")
    for family, preset in FAMILIES:
        if preset not in args.presets.split(","):
            continue
        for level in timed:
            cells = []
            for q in (0.5, 0.99):
                figures = [quantile(run[(preset, level)], q) for run in runs]
                out[f"{preset}_{level}_{tag}p{round(q * 100)}_ms"] = {
                    "median": statistics.median(figures), "min": min(figures), "max": max(figures)}
                cells.append(f"{statistics.median(figures):.2f} ({min(figures):.2f}–{max(figures):.2f})")
            played = ""
            if level == "strong":
                counts = [statistics.median(run[(preset, "playouts")]) for run in runs]
                played = f"{statistics.median(counts):.0f}"
                out[f"{preset}_strong_{tag}playouts"] = {
                    "median": statistics.median(counts), "min": min(counts), "max": max(counts)}
            print(f"| {family} ({preset}) | {level} | {cells[0]} | {cells[1]} | {played} |")


if __name__ == "__main__":
    main()
