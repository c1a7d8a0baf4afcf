"""Benchmark the pure rules engine: hand scores and complete deals per second.

Prints figures only (no assertions; the tests never time anything). Every figure
is taken once in each of ``--runs`` runs and printed as the median, min and max
over the runs. Ratios are taken inside each run (both sides measured moments
apart, so a busy machine slows both alike), then summarised the same way.

Hand scores (``--hands`` random 3-card hands, ``--ranking``, default classic):

* ``raw_lookup_per_s``: the precomputed table alone, ``score_table()[mask]``
  with every 52-bit mask computed beforehand, driven by ``map``;
* ``score_per_s``: ``score(hand, ranking)``, the function the engine calls,
  driven by ``map`` in the same way (the same hands, as tuples of cards);
* ``score_vs_raw``: ``raw_lookup_per_s / score_per_s`` in the run, i.e. how many
  times the function call costs the bare lookup (the goal is at most 2). The raw
  lookup and ``score`` take turns on chunks of 50,000 hands;
* ``raw_lookup_loop_per_s``, ``score_loop_per_s``, ``score_loop_vs_raw_loop``: the
  same two driven by a Python ``for`` loop instead, as engine code calls ``score``
  (``table[mask]`` against ``score(hand, ranking)``), taking turns in the same way;
* ``compute_per_s``: the uncached evaluator ``_compute`` (what the table saves);
* ``treys_evaluate_per_s``: treys' public ``Evaluator.evaluate`` on random
  5-card hands (2 + 3 cards), driven by ``map``. A different job (5-card
  poker ranks), printed as context, not as a goal; ``score_vs_treys`` is
  ``score_per_s / treys_evaluate_per_s``. Without treys: "treys not installed".

Complete deals (for each ``--presets``, default every preset): a deal is started
through ``Game(rules, seats, dealer).start_deal(deck)``, then the seat to act
picks one of its legal decisions uniformly at random, found through the public
action API (``legal_actions(seat)``, then ``choices(seat, action)`` for each),
and plays it with ``act(seat, decision)``, until the deal is finished. Seats
cycle through the preset's table sizes (up to 12); decks are shuffled from
``--seed``. Each run plays deals for at least ``--seconds`` per preset.
``deals_per_s_<preset>`` and ``operations_per_deal_<preset>`` (``-`` becomes
``_``); ``ai_deals_per_s_foster``: the same deals with every seat played by
``easy.choose(deal.observation(seat))`` (``--no-ai`` leaves it out).

Time is CPU time of this process (``--clock cpu``, the default: time spent
waiting for a shared core is not counted) or wall time (``--clock wall``).

The last line is machine-readable: ``BENCH-JSON {"engine": {name: {"median",
"min", "max"}}}``, every value a float.

    .venv/bin/python scripts/bench_engine.py [--runs 5] [--hands N] [--seconds S]
        [--presets foster,jaques] [--clock cpu|wall] [--no-ai] [--seed N]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from functools import partial
from itertools import repeat
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.engine import easy
from bot.engine.cards import RANKS, SUITS, shuffled_deck
from bot.engine.family import DealBase
from bot.engine.game import Game
from bot.engine.hands import RANKINGS, Ranking, _compute, score, score_table
from bot.engine.rules import PRESETS, Rules

Clock = Callable[[], float]
Figures = dict[str, float]

#: hands per turn when the raw lookup and ``score`` take turns
CHUNK = 50_000


def timed(clock: Clock, run: Callable[[], object]) -> float:
    """Seconds ``run`` takes on ``clock``."""
    start = clock()
    run()
    return clock() - start


# ------------------------------------------------------------------ hands
class HandBench:
    """The hand-score figures of one run, on hands drawn once."""

    def __init__(self, n_hands: int, ranking: Ranking, rng: random.Random) -> None:
        self.ranking = ranking
        self.hands = [tuple(rng.sample(range(52), 3)) for _ in range(n_hands)]
        self.masks = [(1 << a) | (1 << b) | (1 << c) for a, b, c in self.hands]
        self.few = self.hands[: max(1, n_hands // 20)]  # _compute is slow: a twentieth
        self.table = score_table(ranking)  # both tables built outside the timing
        score(self.hands[0], ranking)
        self.treys = treys_bench(n_hands, rng)

    def run(self, clock: Clock) -> Figures:
        """One measurement of each figure. The raw lookup and ``score`` (each driven
        by ``map`` and by a ``for`` loop) take turns on chunks of ``CHUNK`` hands, so
        a moment of contention hits them alike."""
        ranking, table = self.ranking, self.table
        spent = {"raw": 0.0, "score": 0.0, "raw_loop": 0.0, "score_loop": 0.0}

        def raw(masks: list[int]) -> list[int]:
            return list(map(table.__getitem__, masks))

        def by_score(hands: list[tuple[int, ...]]) -> list[int]:
            return list(map(score, hands, repeat(ranking, len(hands))))

        def raw_loop(masks: list[int]) -> None:
            for mask in masks:
                table[mask]

        def score_loop(hands: list[tuple[int, ...]]) -> None:
            for hand in hands:
                score(hand, ranking)

        for start in range(0, len(self.hands), CHUNK):
            masks = self.masks[start : start + CHUNK]
            hands = self.hands[start : start + CHUNK]
            spent["raw"] += timed(clock, partial(raw, masks))
            spent["score"] += timed(clock, partial(by_score, hands))
            spent["raw_loop"] += timed(clock, partial(raw_loop, masks))
            spent["score_loop"] += timed(clock, partial(score_loop, hands))
        n = len(self.hands)

        def compute() -> None:
            for hand in self.few:
                _compute(hand, ranking)

        out = {
            "raw_lookup_per_s": n / spent["raw"],
            "score_per_s": n / spent["score"],
            "score_vs_raw": spent["score"] / spent["raw"],
            "raw_lookup_loop_per_s": n / spent["raw_loop"],
            "score_loop_per_s": n / spent["score_loop"],
            "compute_per_s": len(self.few) / timed(clock, compute),
        }
        out["score_loop_vs_raw_loop"] = spent["score_loop"] / spent["raw_loop"]
        if self.treys is not None:  # after score, so that its tables are not in the way
            treys = n / self.treys(clock)
            out["treys_evaluate_per_s"] = treys
            out["score_vs_treys"] = out["score_per_s"] / treys
        return out


def treys_bench(n_hands: int, rng: random.Random) -> Callable[[Clock], float] | None:
    """A measurement of treys' ``Evaluator.evaluate`` on ``n_hands`` random 5-card
    hands (hole 2 + board 3), in seconds; ``None`` when treys is not installed."""
    try:
        from treys import Card as TreysCard  # type: ignore[import-untyped]
        from treys import Evaluator
    except ImportError:
        return None
    codes = [TreysCard.new(r + s) for r in RANKS for s in SUITS]
    holes, boards = [], []
    for _ in range(n_hands):
        five = [codes[c] for c in rng.sample(range(52), 5)]
        holes.append(five[:2])
        boards.append(five[2:])
    evaluate = Evaluator().evaluate

    def measure(clock: Clock) -> float:
        return timed(clock, lambda: list(map(evaluate, holes, boards)))

    return measure


# ------------------------------------------------------------------ deals
Policy = Callable[[DealBase, random.Random], None]


def random_decision(deal: DealBase, rng: random.Random) -> None:
    """The seat to act plays one of its legal decisions, uniformly at random,
    found through the public action API."""
    seat = deal.to_act
    assert seat is not None
    options = [d for action in deal.legal_actions(seat) for d in deal.choices(seat, action)]
    deal.act(seat, options[int(rng.random() * len(options))])


def ai_decision(deal: DealBase, rng: random.Random) -> None:
    """The AI's choice for the seat to act, from its own observation."""
    seat = deal.to_act
    assert seat is not None
    deal.act(seat, easy.choose(deal.observation(seat)))


class DealBench:
    """Complete deals of one preset played by one policy, for at least ``seconds``."""

    def __init__(self, rules: Rules, policy: Policy, seconds: float, seed: int) -> None:
        self.rules, self.policy, self.seconds, self.seed = rules, policy, seconds, seed
        rng = random.Random(seed)
        self.decks = [shuffled_deck(rng) for _ in range(1000)]
        low, high = rules.min_players, min(rules.max_players, 12)
        self.tables = [(n, dealer) for n in range(low, high + 1) for dealer in range(n)]
        rng.shuffle(self.tables)

    def run(self, clock: Clock) -> tuple[float, float]:
        """(deals per second, operations per deal) of one run."""
        rules, policy, decks, tables = self.rules, self.policy, self.decks, self.tables
        rng = random.Random(self.seed)
        deals = operations = 0
        spent = 0.0
        while spent < self.seconds:
            start = clock()
            for i in range(deals, deals + 50):
                n, dealer = tables[i % len(tables)]
                deal = Game(rules, n, dealer).start_deal(decks[i % len(decks)])
                while not deal.finished:
                    policy(deal, rng)
                operations += len(deal.operations)
            spent += clock() - start
            deals += 50
        return deals / spent, operations / deals


def key(preset: str) -> str:
    """A preset's name as a JSON key part (``foster-more`` -> ``foster_more``)."""
    return preset.replace("-", "_")


# ------------------------------------------------------------------ output
def summary(values: Sequence[float]) -> dict[str, float]:
    """Median, min and max of one figure over the runs."""
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def show(value: float) -> str:
    """A figure for people: 14.9M, 436k, 1.76."""
    if value >= 1e6:
        return f"{value / 1e6:.2f}M"
    if value >= 1e4:
        return f"{value / 1e3:.1f}k"
    if value >= 100:
        return f"{value:,.0f}"
    return f"{value:.2f}"


def print_rows(title: str, names: Sequence[tuple[str, str]], runs: dict[str, list[float]]) -> None:
    """One table: each figure's median [min .. max] over the runs."""
    print(f"\n{title}")
    width = max(len(label) for _, label in names)
    print(f"  {'':{width}}  {'median':>9}  {'min':>9}  {'max':>9}")
    for name, label in names:
        if name in runs:
            s = summary(runs[name])
            print(f"  {label:{width}}  {show(s['median']):>9}  {show(s['min']):>9}  "
                  f"{show(s['max']):>9}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs; each figure: median, min, max")
    parser.add_argument("--hands", type=int, default=200_000, help="random hands per measure")
    parser.add_argument("--ranking", default="classic", choices=RANKINGS)
    parser.add_argument("--seconds", type=float, default=0.5,
                        help="least time each preset's deals run for, per run")
    parser.add_argument("--presets", default=",".join(PRESETS),
                        help="comma-separated presets (default: all)")
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu")
    parser.add_argument("--no-ai", action="store_true", help="leave out the AI's deals")
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args(argv)
    presets = [p for p in args.presets.split(",") if p]
    unknown = [p for p in presets if p not in PRESETS]
    if unknown:
        parser.error(f"unknown presets: {', '.join(unknown)}")
    clock: Clock = time.process_time if args.clock == "cpu" else time.perf_counter

    rng = random.Random(args.seed)
    hands = HandBench(args.hands, args.ranking, rng)
    deals = {p: DealBench(PRESETS[p], random_decision, args.seconds, args.seed) for p in presets}
    if not args.no_ai:
        deals["ai"] = DealBench(PRESETS["foster"], ai_decision, args.seconds, args.seed)

    runs: dict[str, list[float]] = {}
    for _ in range(args.runs):
        figures = hands.run(clock)
        for name, bench in deals.items():
            rate, ops = bench.run(clock)
            if name == "ai":
                figures["ai_deals_per_s_foster"] = rate
                figures["ai_operations_per_deal_foster"] = ops
            else:
                figures[f"deals_per_s_{key(name)}"] = rate
                figures[f"operations_per_deal_{key(name)}"] = ops
        for name, value in figures.items():
            runs.setdefault(name, []).append(value)

    print(f"Python {sys.version.split()[0]}, one process; {args.runs} runs, {args.clock} time; "
          f"seed {args.seed}")
    print_rows(
        f"Hand scores, {args.hands:,} random 3-card hands [{args.ranking}] (hands/s)",
        [
            ("raw_lookup_per_s", "raw table lookup, map(score_table().__getitem__, masks)"),
            ("score_per_s", "score(), map(score, hands, rankings)"),
            ("score_vs_raw", "  ratio raw lookup / score() in the run (goal <= 2)"),
            ("raw_lookup_loop_per_s", "raw table lookup in a for loop, table[mask]"),
            ("score_loop_per_s", "score() in a for loop, score(hand, ranking)"),
            ("score_loop_vs_raw_loop", "  ratio of the two for loops in the run"),
            ("compute_per_s", "uncached _compute()"),
            ("treys_evaluate_per_s", "treys Evaluator.evaluate, 5 cards (context)"),
            ("score_vs_treys", "  ratio score() / treys evaluate in the run"),
        ],
        runs,
    )
    if "treys_evaluate_per_s" not in runs:
        print("  treys not installed")
    rows = []
    for p in presets:
        rows.append((f"deals_per_s_{key(p)}", f"{p}: deals/s"))
        rows.append((f"operations_per_deal_{key(p)}", f"{p}: operations/deal"))
    if not args.no_ai:
        rows.append(("ai_deals_per_s_foster", "foster, every seat the AI: deals/s"))
        rows.append(("ai_operations_per_deal_foster", "foster, every seat the AI: operations/deal"))
    print_rows("Complete random deals through the public action API", rows, runs)
    command = " ".join(["scripts/bench_engine.py", *(argv if argv is not None else sys.argv[1:])])
    print(f"\nReproduce: .venv/bin/python {command}")
    engine: dict[str, Any] = {name: summary(values) for name, values in runs.items()}
    print("BENCH-JSON " + json.dumps({"engine": engine}, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
