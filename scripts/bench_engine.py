"""Benchmark the pure rules engine: hand evaluations and complete deals per second.

Prints figures only (no assertions; the tests never time anything):

* hand evaluations per second through ``score()`` and straight from the
  precomputed table (``score_table()[mask]``), each against the baseline of
  computing the hand from scratch with the uncached evaluator ``_compute``;
* complete deals per second through the public action API (``trade``,
  ``barter``, ``answer``, ``knock``), played by random legal actions and by the
  AI (``ai.choose(deal.observation(seat))``), each against the baseline of
  dealing only (``TradeDeal(...)`` with no action).

Every figure is the best of ``--repeat`` runs on one core.

    .venv/bin/python scripts/bench_engine.py [--hands N] [--deals N] [--preset NAME]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.engine import ai
from bot.engine.cards import Card, shuffled_deck
from bot.engine.deal import TradeDeal
from bot.engine.hands import Ranking, _compute, score, score_table
from bot.engine.rules import PRESETS, Rules

Table = tuple[tuple[Card, ...], ...]


class Row:
    """One printed figure and its ratio to the baseline of its section."""

    def __init__(self, what: str, unit: str, rate: float, base: float, note: str = "") -> None:
        self.what, self.unit, self.rate, self.base, self.note = what, unit, rate, base, note

    def cells(self) -> list[str]:
        return [self.what, f"{self.rate:,.0f} {self.unit}", f"{self.rate / self.base:.2f}x", self.note]


def best_rate(count: int, run: Callable[[], object], repeat: int) -> float:
    """Items per second of ``run`` (which handles ``count`` items), best of ``repeat``."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return count / best


# ------------------------------------------------------------------ hands
def bench_hands(n_hands: int, ranking: Ranking, repeat: int, rng: random.Random) -> list[Row]:
    hands: Table = tuple(tuple(rng.sample(range(52), 3)) for _ in range(n_hands))
    masks = [(1 << a) | (1 << b) | (1 << c) for a, b, c in hands]
    table = score_table(ranking)  # built once, outside the timing
    baseline_hands = hands[: max(1, n_hands // 10)]

    def by_compute() -> None:
        for hand in baseline_hands:
            _compute(hand, ranking)

    def by_score() -> None:
        for hand in hands:
            score(hand, ranking)

    def by_table() -> list[int]:
        return list(map(table.__getitem__, masks))

    base = best_rate(len(baseline_hands), by_compute, repeat)
    return [
        Row(f"_compute(hand) uncached [{ranking}]", "hands/s", base, base),
        Row(f"score(hand) [{ranking}]", "hands/s", best_rate(n_hands, by_score, repeat), base),
        Row(
            f"score_table()[mask] [{ranking}]",
            "hands/s",
            best_rate(n_hands, by_table, repeat),
            base,
        ),
    ]


# ------------------------------------------------------------------ deals
def random_policy(rng: random.Random) -> Callable[[TradeDeal], None]:
    """One random legal action for the seat to act, through the public API."""

    def act(deal: TradeDeal) -> None:
        seat = deal.to_act
        assert seat is not None
        hand = deal.hands[seat]
        if deal.pending is not None:
            if deal.rules.barter_refusal and rng.random() < 0.3:
                deal.answer(seat, None)
            else:
                deal.answer(seat, hand[rng.randrange(3)])
            return
        roll = rng.random()
        if roll < 0.2:
            deal.knock(seat)
        elif roll < 0.6:
            deal.trade(seat, hand[rng.randrange(3)])
        else:
            deal.barter(seat, hand[rng.randrange(3)])

    return act


def ai_policy(deal: TradeDeal) -> None:
    """The AI's choice for the seat to act, from its own observation."""
    seat = deal.to_act
    assert seat is not None
    decision = ai.choose(deal.observation(seat))
    if decision.kind == "trade":
        assert decision.card is not None
        deal.trade(seat, decision.card)
    elif decision.kind == "barter":
        assert decision.card is not None
        deal.barter(seat, decision.card)
    elif decision.kind == "knock":
        deal.knock(seat)
    else:  # accept / refuse
        deal.answer(seat, decision.card)


def bench_deals(n_deals: int, rules: Rules, repeat: int, rng: random.Random) -> list[Row]:
    decks = [shuffled_deck(rng) for _ in range(min(n_deals, 2000))]
    tables = [(3 + i % 10, i % (3 + i % 10)) for i in range(n_deals)]  # (seats, dealer)
    actions = [0]

    def deal_only() -> None:
        for i, (n, dealer) in enumerate(tables):
            TradeDeal(rules, n, dealer, decks[i % len(decks)])

    def play(policy: Callable[[TradeDeal], None]) -> Callable[[], None]:
        def run() -> None:
            actions[0] = 0
            for i, (n, dealer) in enumerate(tables):
                deal = TradeDeal(rules, n, dealer, decks[i % len(decks)])
                while not deal.finished:
                    policy(deal)
                actions[0] += len(deal.operations)

        return run

    base = best_rate(n_deals, deal_only, repeat)
    rows = [Row(f"TradeDeal(...) dealing only [{rules.name}]", "deals/s", base, base)]
    for label, policy in (("random legal actions", random_policy(rng)), ("AI", ai_policy)):
        rate = best_rate(n_deals, play(policy), repeat)
        rows.append(
            Row(
                f"complete deal, {label} [{rules.name}]",
                "deals/s",
                rate,
                base,
                f"{actions[0] / n_deals:.1f} operations/deal",
            )
        )
    return rows


# ------------------------------------------------------------------ output
def print_table(title: str, rows: list[Row]) -> None:
    head = ["measure", "rate", "vs baseline", ""]
    body = [r.cells() for r in rows]
    widths = [max(len(line[i]) for line in [head, *body]) for i in range(4)]
    print(f"\n{title}")
    for line in [head, ["-" * w for w in widths[:3]] + [""], *body]:
        print("  ".join(cell.ljust(w) for cell, w in zip(line, widths, strict=True)).rstrip())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=300_000, help="random hands to score")
    parser.add_argument("--deals", type=int, default=20_000, help="deals per measurement")
    parser.add_argument("--preset", default="foster", choices=sorted(PRESETS))
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure; best is kept")
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args(argv)

    rng = random.Random(args.seed)
    print(f"Python {sys.version.split()[0]}, one core, best of {args.repeat}; seed {args.seed}")
    print_table(
        f"Hand evaluation ({args.hands:,} random 3-card hands; baseline: _compute)",
        bench_hands(args.hands, "classic", args.repeat, rng)
        + bench_hands(args.hands, "more", args.repeat, rng),
    )
    print_table(
        f"Complete deals ({args.deals:,} deals, 3-12 seats; baseline: dealing only)",
        bench_deals(args.deals, PRESETS[args.preset], args.repeat, rng),
    )
    print("\nTargets: score() >= 2,000,000 hands/s; complete deals >= 10,000 deals/s.")
    command = " ".join(["scripts/bench_engine.py", *(argv if argv is not None else sys.argv[1:])])
    print(f"Reproduce: .venv/bin/python {command}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
