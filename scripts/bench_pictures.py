"""Time and size of each kind of picture (bot/ui/pictures.py), one core.

For each kind — a hand, the public table, the showdown — over deals of every
family and table sizes of 3 to 12 seats: the time to draw one picture with the
picture cache cleared before every run (median, min and max over the runs, card
sprites, text masks and fonts already loaded, as in a running bot), the first
picture with every cache cleared (cold start), and the PNG size. One more kind,
``move``, is what a running bot pays after a move: the table picture of the
state just after one move, the picture before it drawn first (so the parts the
move did not change — the bare table, unchanged plates — are cached, and the
changed ones are drawn again).

    .venv/bin/python scripts/bench_pictures.py [--runs 30]

The last line printed is ``BENCH-JSON {"pictures": {...}}`` (per kind: median ms,
cold ms, largest KB) for ``scripts/bench``.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.engine import Game, easy, get_preset, shuffled_deck
from bot.ui import pictures

#: (preset, seats, AI moves before the table picture)
CASES = [("foster", 3, 2), ("parlett", 5, 12), ("widow", 6, 3), ("oldway", 8, 5),
         ("jaques", 10, 6), ("foster-more", 12, 4)]
NAMES = [f"Player {i + 1}" for i in range(12)]


def samples() -> dict[str, list[Callable[[], bytes]]]:
    """One picture call per case and kind, on deals played by the AI."""
    out: dict[str, list[Callable[[], bytes]]] = {"hand": [], "table": [], "move": [],
                                                  "showdown": []}
    for preset, n, moves in CASES:
        rng = random.Random(f"bench {preset} {n}")
        game = Game(get_preset(preset), n, 0)
        deal = game.start_deal(shuffled_deck(rng), rng=rng)
        for _ in range(moves):
            if deal.finished:
                break
            seat = deal.to_act
            deal.act(seat, easy.choose(deal.observation(seat)))
        seat = deal.to_act if deal.to_act is not None else deal.dealer
        hand_obs, table_obs = deal.observation(seat), deal.observation(None)
        balances = list(game.running_balances)
        out["hand"].append(lambda o=hand_obs: pictures.hand_png(o))
        out["table"].append(lambda o=table_obs, b=balances, n=n: pictures.table_png(
            o, NAMES[:n], b, title=f"Table 1 · {o.rules.name} · deal 1"))
        if not deal.finished:
            seat = deal.to_act
            deal.act(seat, easy.choose(deal.observation(seat)))
        after = deal.observation(None)
        out["move"].append(lambda o=after, b=balances, n=n: pictures.table_png(
            o, NAMES[:n], b, title=f"Table 1 · {o.rules.name} · deal 1"))
        while not deal.finished:
            seat = deal.to_act
            deal.act(seat, easy.choose(deal.observation(seat)))
        final = deal.observation(None)
        out["showdown"].append(lambda o=final, n=n: pictures.showdown_png(o, NAMES[:n]))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30, help="runs per picture (default 30)")
    args = parser.parse_args()
    columns = f"{'median ms':>10}{'min ms':>9}{'max ms':>9}{'KB':>7}"
    print(f"{'picture':<10}{columns}   (KB: the largest)")
    lines = []
    figures: dict[str, float] = {}
    made = samples()
    for kind, calls in made.items():
        pictures.clear_cache(sprites=True)
        start = time.perf_counter()
        calls[0]()
        cold = (time.perf_counter() - start) * 1000
        every, sizes = [], []
        for i, ((preset, n, _), call) in enumerate(zip(CASES, calls, strict=True)):
            call()  # its cards' sprites drawn once, as a running bot has them
            times = []
            for _ in range(args.runs):
                pictures.clear_cache()
                if kind == "move":  # the picture before the move: its parts are cached
                    made["table"][i]()
                start = time.perf_counter()
                png = call()
                times.append((time.perf_counter() - start) * 1000)
            every += times
            sizes.append(len(png) / 1024)
            lines.append(f"{kind:<9}{preset:<12}{n:>2} seats{statistics.median(times):>10.2f}"
                         f"{min(times):>9.2f}{max(times):>9.2f}{sizes[-1]:>7.1f}")
        print(f"{kind:<10}{statistics.median(every):>10.2f}{min(every):>9.2f}{max(every):>9.2f}"
              f"{max(sizes):>7.1f}   first picture with every cache cold: {cold:.1f} ms")
        figures.update({f"{kind}_median_ms": statistics.median(every), f"{kind}_cold_ms": cold,
                        f"{kind}_max_kb": max(sizes)})
    print(f"\n{'by deal':<29}{columns}")
    print("\n".join(lines))
    print(f"\n{args.runs} runs per deal, the picture cache cleared before each run (card sprites, "
          "text masks and fonts kept, as in a running bot); move: the table just after one move, "
          "the one before it drawn first.")
    print("BENCH-JSON " + json.dumps({"pictures": figures}))


if __name__ == "__main__":
    main()
