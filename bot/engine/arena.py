"""Duplicate deals between AI levels (docs/AI.md "The arena").

``python -m bot.engine arena --preset P --policies strong,normal,easy --deals N
--seed S`` deals ``N`` decks. Each deck is played once for every distinct way of
seating the policies (3 policies at 3 seats: 6 deals), so every policy holds
every hand in every position against the same cards: the luck of the deal
cancels. Every deal is the first deal of a fresh game (seat 0 deals; oldway:
three lives each; jaques: the starting chips), and a seat scores the deal's
``strong.outcome``: points (trade and widow families), chips (jaques), points
plus ``LIFE_VALUE`` per life won or lost (oldway); hoyle adds an equal share
of a pool carried out. The first deal's stake (oldway 3, jaques 1) is in
every seat's score alike.

Per deck, a policy's score is its mean over the seats it held in all the
seatings. The report gives each policy's mean score per deal and, for each
pair, the mean of the per-deck paired differences, each with a 95% confidence
interval by the normal approximation (mean ± 1.96 standard errors, the
standard error from the sample variance over the ``N`` decks).

Everything is a pure function of the arguments: the decks come from the seed,
and ``strong`` gets a seeded random source per decision and a budget in
playouts only (no deadline), so a run repeats exactly.
"""

from __future__ import annotations

import argparse
import json
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import permutations

from . import levels
from .cards import shuffled_deck
from .game import Game
from .rules import RulesError, get_preset
from .strong import Budget, outcome

__all__ = ["ArenaReport", "Interval", "main", "run_arena", "seatings_of"]

#: strong's budget in the arena: playouts per decision, no deadline (deterministic)
ARENA_PLAYOUTS = 300
#: moves after which an arena deal is voided as stuck (no policy gets near it)
MAX_MOVES = 5000

UNITS = {"trade": "points", "widow": "points", "discard": "chips"}


@dataclass(frozen=True)
class Interval:
    """A mean with its 95% confidence interval (normal approximation)."""

    mean: float
    low: float
    high: float

    @staticmethod
    def of(values: Sequence[float]) -> Interval:
        """The mean of ``values`` ± 1.96 standard errors."""
        n = len(values)
        mean = sum(values) / n
        if n < 2:
            return Interval(mean, mean, mean)
        var = sum((v - mean) ** 2 for v in values) / (n - 1)
        half = 1.96 * math.sqrt(var / n)
        return Interval(mean, mean - half, mean + half)

    def text(self) -> str:
        """``+0.123 [+0.045, +0.201]``."""
        return f"{self.mean:+.3f} [{self.low:+.3f}, {self.high:+.3f}]"


@dataclass(frozen=True)
class ArenaReport:
    """The result of ``run_arena``.

    Attributes:
        preset, options, policies, seats, deals, seed, playouts: the arguments.
        unit: what a score counts (``points``, ``chips``, ``points+lives``).
        scores: per policy, its mean score per deal.
        pairs: per ordered pair ``(a, b)`` of distinct policies (``a`` listed
            first), the mean per-deck difference ``a - b``.
        per_deck: per policy, its score on each deck (for checks).
        decisions: decisions made per policy.
    """

    preset: str
    options: dict[str, object]
    policies: tuple[str, ...]
    seats: int
    deals: int
    seed: int
    playouts: int
    unit: str
    scores: dict[str, Interval]
    pairs: dict[tuple[str, str], Interval]
    per_deck: dict[str, tuple[float, ...]]
    decisions: dict[str, int]

    def text(self) -> str:
        """The report as people read it."""
        seatings = len(seatings_of(self.policies, self.seats))
        lines = [
            f"arena: {self.preset}"
            + (f" {json.dumps(self.options, sort_keys=True)}" if self.options else "")
            + f", {self.seats} seats, {self.deals} decks x {seatings} seatings"
            f" = {self.deals * seatings} deals, seed {self.seed}, strong playouts {self.playouts}",
            f"score: {self.unit} per deal, mean [95% CI]",
        ]
        width = max(len(p) for p in self.policies)
        for policy in dict.fromkeys(self.policies):
            lines.append(f"  {policy:<{width}}  {self.scores[policy].text()}"
                         f"  ({self.decisions[policy]} decisions)")
        lines.append("paired differences per deck, mean [95% CI]:")
        for (a, b), interval in self.pairs.items():
            verdict = "better" if interval.low > 0 else "worse" if interval.high < 0 else "not separated"
            lines.append(f"  {a} - {b}: {interval.text()}  {verdict}")
        return "\n".join(lines)


def seatings_of(policies: Sequence[str], seats: int) -> list[tuple[str, ...]]:
    """Every distinct assignment of the policies to the seats: the policies are
    repeated in order to fill ``seats``, then every distinct permutation, in
    order of first appearance."""
    table = [policies[i % len(policies)] for i in range(seats)]
    return list(dict.fromkeys(permutations(table)))


def run_arena(
    preset: str,
    policies: Sequence[str],
    deals: int,
    seed: int,
    *,
    seats: int | None = None,
    options: dict[str, object] | None = None,
    playouts: int = ARENA_PLAYOUTS,
    progress: Callable[[int], None] | None = None,
) -> ArenaReport:
    """Play ``deals`` decks in every seating of ``policies`` (see the module
    docstring) and return the report.

    Raises:
        ValueError: an unknown preset, option or level, or too few seats.
    """
    for policy in policies:
        if policy not in levels.LEVELS:
            raise ValueError(f"unknown AI level {policy!r}; choose from {', '.join(levels.LEVELS)}")
    if len(policies) < 1 or deals < 1:
        raise ValueError("give at least one policy and one deal")
    rules = get_preset(preset, options)
    n = seats if seats is not None else max(len(policies), rules.min_players)
    if not rules.min_players <= n <= rules.max_players:
        raise ValueError(f"{preset} needs {rules.min_players} to {rules.max_players} seats")
    budget = Budget(playouts=playouts, seconds=None)
    tables = seatings_of(policies, n)
    names = list(dict.fromkeys(policies))
    per_deck: dict[str, list[float]] = {p: [] for p in names}
    decisions = dict.fromkeys(names, 0)
    for index in range(deals):
        deck = shuffled_deck(random.Random(f"arena:{seed}:{index}"))
        totals = dict.fromkeys(names, 0.0)
        counts = dict.fromkeys(names, 0)
        for t, table in enumerate(tables):
            game = Game(rules, n, 0)
            deal = game.start_deal(deck, rng=random.Random(f"arena:{seed}:{index}:stock"))
            moves = 0
            while not deal.finished:
                seat = deal.to_act
                assert seat is not None
                level = table[seat]
                rng = random.Random(f"arena:{seed}:{index}:{t}:{moves}")
                deal.act(seat, levels.decide(deal, seat, level, rng=rng, budget=budget))
                decisions[level] += 1
                moves += 1
                if moves > MAX_MOVES:
                    raise RuntimeError(f"deal {index} in seating {table} does not end")
            for seat in deal.active:
                totals[table[seat]] += outcome(deal, seat)
                counts[table[seat]] += 1
        for p in names:
            per_deck[p].append(totals[p] / counts[p])
        if progress is not None:
            progress(index + 1)
    scores = {p: Interval.of(per_deck[p]) for p in names}
    pairs = {
        (a, b): Interval.of([x - y for x, y in zip(per_deck[a], per_deck[b], strict=True)])
        for i, a in enumerate(names) for b in names[i + 1:]
    }
    unit = "points+lives" if rules.lives else UNITS[rules.family]
    return ArenaReport(preset, dict(options or {}), tuple(policies), n, deals, seed, playouts, unit,
                       scores, pairs, {p: tuple(v) for p, v in per_deck.items()}, decisions)


def main(argv: list[str]) -> int:
    """``python -m bot.engine arena ...``; returns the exit code."""
    parser = argparse.ArgumentParser(
        prog="python -m bot.engine arena",
        description="Duplicate deals between AI levels (docs/AI.md).")
    parser.add_argument("--preset", default="foster")
    parser.add_argument("--policies", default="strong,normal,easy",
                        help="comma-separated AI levels, one per seat (repeated to fill --seats)")
    parser.add_argument("--deals", type=int, default=100, help="decks to deal (each in every seating)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seats", type=int, default=None)
    parser.add_argument("--options", default=None, help='table options as JSON, e.g. \'{"pounce": true}\'')
    parser.add_argument("--playouts", type=int, default=ARENA_PLAYOUTS,
                        help="strong's playouts per decision")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--progress", action="store_true", help="report progress on stderr")
    args = parser.parse_args(argv)
    try:
        options = json.loads(args.options) if args.options else None
        report = run_arena(
            args.preset, [p.strip() for p in args.policies.split(",") if p.strip()], args.deals,
            args.seed, seats=args.seats, options=options, playouts=args.playouts,
            progress=_progress(args.deals) if args.progress else None)
    except (ValueError, RulesError) as exc:
        print(f"arena: {exc}")
        return 2
    if args.json:
        print(json.dumps({
            "preset": report.preset, "options": report.options, "policies": list(report.policies),
            "seats": report.seats, "deals": report.deals, "seed": report.seed,
            "playouts": report.playouts, "unit": report.unit,
            "scores": {p: vars(i) for p, i in report.scores.items()},
            "pairs": {f"{a}-{b}": vars(i) for (a, b), i in report.pairs.items()},
            "decisions": report.decisions,
        }))
    else:
        print(report.text())
    return 0


def _progress(total: int) -> Callable[[int], None]:
    import sys

    def show(done: int) -> None:
        print(f"\r{done}/{total} decks", end="" if done < total else "\n", file=sys.stderr, flush=True)

    return show
