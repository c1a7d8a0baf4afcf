"""Run a list of arena matches and print docs/AI.md's strength table from them.

Each job is ``preset:policies:decks`` with an optional ``:games`` (whole games,
``run_arena(..., games=True)``), e.g. ``foster:strong,threshold:60`` or
``hoyle:strong,threshold,easy:20:games``. For every job it prints the arena's
report and one markdown row per opponent of ``strong``: the paired per-deck
difference ``strong - opponent`` with its 95% interval. Prints figures only.
Heavy (``strong`` and ``flat`` search at every decision): run it under
``nice`` on a shared machine::

    nice -n 15 .venv/bin/python scripts/arena_table.py --seed 11 JOB [JOB ...]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.engine.arena import ARENA_PLAYOUTS, run_arena


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("jobs", nargs="+", help="preset:policies:decks[:games]")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--playouts", type=int, default=ARENA_PLAYOUTS)
    args = parser.parse_args()
    rows = []
    for job in args.jobs:
        preset, policies, decks, *rest = job.split(":")
        games = rest == ["games"]
        names = policies.split(",")
        start = time.perf_counter()
        report = run_arena(preset, names, int(decks), args.seed, playouts=args.playouts,
                           games=games)
        print(report.text())
        print(f"({time.perf_counter() - start:.0f} s)", flush=True)
        easy = "with easy" if "easy" in names else "without easy"
        mode = f"per game ({report.deals_per_unit:.1f} deals)" if games else "per deal"
        before = len(rows)
        for (a, b), interval in report.pairs.items():
            if "strong" not in (a, b) or "easy" in (a, b):
                continue
            other = b if a == "strong" else a
            sign = 1 if a == "strong" else -1
            mean, low, high = (sign * interval.mean, min(sign * interval.low, sign * interval.high),
                               max(sign * interval.low, sign * interval.high))
            verdict = ("too few decks" if report.deals < 2 else "above zero" if low > 0
                       else "below zero" if high < 0 else "straddles zero")
            rows.append(f"| `{preset}` | `{other}` | {easy} | {mode} | {report.deals} "
                        f"| {mean:+.3f} [{low:+.3f}, {high:+.3f}] | {verdict} |")
        print("\n".join(rows[before:]), flush=True)
    print()
    print("| preset | opponent | table | mode | decks | strong − opponent [95% CI] | interval |")
    print("|---|---|---|---|---:|---:|---|")
    print("\n".join(rows))


if __name__ == "__main__":
    main()
