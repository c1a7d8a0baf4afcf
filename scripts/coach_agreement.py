"""How stable the coach's hint is, and how often it agrees with a long search
(docs/AI.md "Coach", issue 25). Prints figures only.

At seeded decision points (``bench_ai.points``: 3-seat deals, one seat per
level) where the seat has more than one legal decision, for each budget of
``--playouts`` (playouts only, no clock, so nothing depends on the machine):

* **seeds** (the first budget only): the hint against the same search drawing
  its worlds from another random source; the share of points where both give
  the same decision (before issue 25 the
  hint drew its worlds from an unseeded source, so this is how often the same
  position got the same hint then; now ``coach.hint_seed`` fixes the source);
* **long**: the share where the hint (``coach.hint``: the search seeded from the
  view) equals the decision of a long search (``--long`` playouts, another
  seed): the strongest decision the bot computes.

    nice -n 15 .venv/bin/python scripts/coach_agreement.py [--points 20]
        [--playouts 600,1500] [--long 6000] [--presets foster,widow,oldway,jaques]
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_ai import points

from bot.engine import coach, strong
from bot.engine.view import seat_view


def share(hits: int, total: int) -> str:
    """``hits/total = p%`` with a 95% Wilson interval."""
    if total == 0:
        return "-"
    p, z = hits / total, 1.96
    centre = (p + z * z / (2 * total)) / (1 + z * z / total)
    half = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total)) / (1 + z * z / total)
    return f"{hits}/{total} = {100 * p:.0f}% [{100 * (centre - half):.0f}, {100 * (centre + half):.0f}]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--points", type=int, default=20,
                        help="decision points with a choice, per preset")
    parser.add_argument("--playouts", default="600,1500", help="the hint budgets compared")
    parser.add_argument("--long", type=int, default=6000, help="the long search's playouts")
    parser.add_argument("--presets", default="foster,widow,oldway,jaques")
    parser.add_argument("--seed", type=int, default=2)
    args = parser.parse_args()
    budgets = [int(b) for b in args.playouts.split(",")]
    print(f"coach agreement: {args.points} points with a choice per preset, seed {args.seed}, "
          f"long search {args.long} playouts", flush=True)
    print("| preset | hint playouts | seeds agree | hint = long search | s per hint |")
    print("|---|---:|---:|---:|---:|", flush=True)
    for preset in args.presets.split(","):
        cases = []
        for deal, seat in points(preset, args.points * 4, args.seed):
            legal = {d for a in deal.legal_actions(seat) for d in deal.choices(seat, a)}
            if len(legal) > 1:
                cases.append((deal, seat))
        cases = cases[: args.points]
        views = [seat_view(deal, seat) for deal, seat in cases]
        longs = [strong.choose(v, random.Random(f"long:{i}"),
                               strong.Budget(playouts=args.long, seconds=None))
                 for i, v in enumerate(views)]
        for n, playouts in enumerate(budgets):
            budget = strong.Budget(playouts=playouts, seconds=None)
            same = agree = 0
            spent = 0.0
            for i, v in enumerate(views):
                start = time.process_time()
                hint = coach.hint(v, budget)
                spent += time.process_time() - start
                if n == 0:  # the same search from another seed: the first budget only
                    same += strong.choose(v, random.Random(f"a:{i}"), budget) == hint
                agree += hint == longs[i]
            print(f"| {preset} | {playouts} | {share(same, len(views)) if n == 0 else ''} | "
                  f"{share(agree, len(views))} | {spent / max(len(views), 1):.2f} |", flush=True)


if __name__ == "__main__":
    main()
