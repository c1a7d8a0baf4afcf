"""Tune the arena's threshold player against ``normal`` by a small grid search
(docs/AI.md "The threshold player").

For each preset, every combination of the grid below plays ``--deals`` duplicate
decks (``threshold`` and ``normal`` in every seating: 3 seats, 3 seatings per
deck) on the tuning seed; the combination with the best mean paired difference
``threshold - normal`` is then played again on a fresh seed (``--seed`` + 1000),
so that the figure printed for it is not the lucky maximum of the grid. Prints
figures only, and the ``THRESHOLDS`` entries to paste into
``bot/engine/arena.py``. Light on the CPU (no ``strong`` seat), but it plays
many deals: keep ``--deals`` small on a shared machine::

    .venv/bin/python scripts/tune_threshold.py [--presets foster] [--deals 100] [--seed 1] [--refine 200]
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.engine.arena import Thresholds, run_arena
from bot.engine.rules import PRESETS, get_preset

#: the grid: stop and refuse percentiles for every family; jaques reads
#: ``refuse`` as the rise a discard must bring; only the trade family pays to trade
STOPS = (0.4, 0.5, 0.6, 0.7, 0.8, 0.88, 0.94, 0.97, 0.99)
REFUSES = (0.0, 0.5, 0.65, 0.8, 0.9, 0.95)
JAQUES_RISES = (0.0, 0.03, 0.08, 0.15)
TRADES = (0.0, 0.3, 0.6)


def grid(family: str) -> list[Thresholds]:
    """Every combination of the grid for a family."""
    refuses = JAQUES_RISES if family == "discard" else REFUSES
    trades = TRADES if family == "trade" else (0.0,)
    return [Thresholds(stop, refuse, trade)
            for stop, refuse, trade in itertools.product(STOPS, refuses, trades)]


#: the refinement: finer steps, tried one number at a time around the best point
FINE = {
    "stop": (0.3, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.84, 0.88, 0.91, 0.94, 0.96,
             0.97, 0.98, 0.99, 0.995, 1.01),
    "refuse": (0.0, 0.2, 0.35, 0.5, 0.58, 0.65, 0.72, 0.8, 0.85, 0.9, 0.93, 0.95, 0.97, 0.99,
               1.01),
    "rise": (0.0, 0.01, 0.02, 0.03, 0.05, 0.08, 0.11, 0.15, 0.2),
    "trade": (0.0, 0.15, 0.3, 0.45, 0.6, 0.75),
}


def refine(preset: str, start: Thresholds, deals: int, seed: int, passes: int = 2,
           ) -> tuple[float, Thresholds, int]:
    """Coordinate search from ``start``: each number in turn over its ``FINE``
    steps, the others held, keeping the best mean ``threshold - normal`` over
    ``deals`` decks of ``seed``; ``passes`` rounds, or until nothing changes.
    Returns (best mean, best thresholds, points played)."""
    family = get_preset(preset).family
    fields = ["stop", "refuse"] + (["trade"] if family == "trade" else [])
    cache: dict[Thresholds, float] = {}

    def value(t: Thresholds) -> float:
        if t not in cache:
            report = run_arena(preset, ["threshold", "normal"], deals, seed, thresholds=t)
            cache[t] = report.pairs[("threshold", "normal")].mean
        return cache[t]

    best = start
    for _ in range(passes):
        before = best
        for field in fields:
            steps = FINE["rise" if field == "refuse" and family == "discard" else field]
            tries = [dataclasses.replace(best, **{field: v}) for v in steps]
            best = max([best, *tries], key=lambda t: (value(t), t == best))
        if best == before:
            break
    return value(best), best, len(cache)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--presets", default=",".join(sorted(PRESETS)))
    parser.add_argument("--deals", type=int, default=100, help="decks per grid point")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--refine", type=int, default=0, metavar="DECKS",
                        help="then refine the best point one number at a time (FINE) on "
                             "DECKS decks of a second tuning seed (--seed + 500)")
    args = parser.parse_args()
    found: dict[str, Thresholds] = {}
    print(f"grid search against normal: {args.deals} decks per point, seed {args.seed}"
          + (f"; refined on {args.refine} decks of seed {args.seed + 500}" if args.refine else "")
          + f"; the best point checked again on seed {args.seed + 1000}")
    print()
    print("| preset | points | best stop | refuse | trade | tuning: threshold − normal "
          "| fresh seed: threshold − normal | time |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for preset in [p.strip() for p in args.presets.split(",") if p.strip()]:
        start = time.perf_counter()
        points = grid(get_preset(preset).family)
        scored = []
        for t in points:
            report = run_arena(preset, ["threshold", "normal"], args.deals, args.seed,
                               thresholds=t)
            scored.append((report.pairs[("threshold", "normal")].mean, t))
        best_mean, best = max(scored, key=lambda x: x[0])
        tried = len(points)
        if args.refine:
            best_mean, best, more = refine(preset, best, args.refine, args.seed + 500)
            tried += more
        check = run_arena(preset, ["threshold", "normal"], max(args.deals, args.refine),
                          args.seed + 1000,
                          thresholds=best).pairs[("threshold", "normal")]
        found[preset] = best
        spent = time.perf_counter() - start
        print(f"| `{preset}` | {tried} | {best.stop} | {best.refuse} | {best.trade} "
              f"| {best_mean:+.3f} | {check.text()} | {spent:.0f} s |", flush=True)
    print()
    for preset, t in found.items():
        print(f'    "{preset}": Thresholds(stop={t.stop}, refuse={t.refuse}, trade={t.trade}),')


if __name__ == "__main__":
    main()
