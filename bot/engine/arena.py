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
playouts only (no deadline), so a run repeats exactly. ``--seconds`` (or
``--live``: ``strong.DEFAULT_BUDGET``, the budget of a live table) adds a
deadline to every search: the strength measured is then the live strength on
this machine at its present load, and a run no longer repeats exactly.

``--games`` plays whole games instead (``run_arena(..., games=True)``): deal
``k`` of game ``i`` has the same deck in every seating, each game runs to its
end (hoyle's carried pool, oldway's lives and horse, jaques' chips and pot, the
last deals) and a seat scores its final ledger balance.

Besides the AI levels the arena seats ``flat`` (``flat.choose``: flat
determinised Monte Carlo over the seat's view, with strong's playout budget)
and ``threshold``: a baseline written apart
from the levels (``threshold_choose``), a few percentile thresholds per preset
(``THRESHOLDS``: when to stop, when to refuse or take, when to pay for a
trade), tuned against ``normal`` by ``scripts/tune_threshold.py``; and
``coached``: a seat that plays the coach's hint at every decision
(``coach.hint``: the coach's search, ``coach.BUDGET``'s playouts, seeded from
the seat's view), to measure how much following the hints improves a player;
and ``table``: ``strong`` as it was before its search could overrule the
equilibrium table (``strong.choose(..., overrule=False)``), to measure that change;
and ``patient``: ``normal.patient``, strong's rollout policy and default;
and ``gamewise`` and ``dealwise``: ``strong`` with its playouts scored with
the game's standing (``strong.choose(..., game=True)``) or by the deal alone
(``game=False``, ``strong``'s default: ``strong.GAME``).
"""

from __future__ import annotations

import argparse
import json
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations, permutations

from . import coach, flat, levels, normal, strong
from .cards import Card, rank, shuffled_deck
from .family import Decision, Observation
from .game import AnyDeal, Game
from .hands import score
from .moves import best_exchange
from .normal import LATE_CIRCUITS, LIFE_VALUE, percentile
from .rules import RulesError, get_preset
from .strong import DEFAULT_BUDGET, Budget, outcome
from .view import seat_view

__all__ = [
    "POLICIES", "THRESHOLDS", "ArenaReport", "Interval", "Thresholds", "main", "run_arena",
    "seatings_of", "threshold_choose",
]

#: strong's budget in the arena: playouts per decision, no deadline (deterministic)
ARENA_PLAYOUTS = 300
#: the ``coached`` seat's budget without a deadline: the coach's playouts
#: (so a run repeats exactly and plays the hint a member is given)
COACHED = Budget(playouts=coach.BUDGET.playouts, seconds=None)
#: moves after which an arena deal is voided as stuck (no policy gets near it)
MAX_MOVES = 5000
#: game mode: a game stops after this many deals even if not over (jaques, oldway)
MAX_DEALS = 200

UNITS = {"trade": "points", "widow": "points", "discard": "chips"}


# ------------------------------------------------------------ threshold player
@dataclass(frozen=True)
class Thresholds:
    """The threshold player's few numbers, each a hand percentile (0..1: the
    share of all three-card hands of the preset's ranking a hand beats).

    Attributes:
        stop: knock (trade, widow), stand (oldway) or pass (jaques) holding a
            hand at least this good.
        refuse: trade: refuse a barter (by knocking) holding a hand at least
            this good (hoyle, where a barter cannot be refused: exchange and
            knock at once holding a hand at least this good); widow and
            oldway: the dealer takes the widow when it is at least this good
            (or better than the hand); jaques: take the discard when it raises
            the hand by at least this much.
        trade: trade (paying the fee) rather than barter holding a hand below
            this (the dealer, who trades free, always trades).
    """

    stop: float = 0.8
    refuse: float = 0.8
    trade: float = 0.0


#: per preset, tuned against ``normal`` by ``scripts/tune_threshold.py --refine 200``
#: (docs/AI.md "The threshold player": a grid on seed 1, refined on seed 501, checked on 1001)
THRESHOLDS: dict[str, Thresholds] = {
    "foster": Thresholds(stop=0.45, refuse=0.2, trade=0.0),
    "foster-more": Thresholds(stop=0.5, refuse=0.5, trade=0.0),
    "hoyle": Thresholds(stop=0.8, refuse=0.0, trade=0.0),
    "jaques": Thresholds(stop=1.01, refuse=0.01, trade=0.0),
    "oldway": Thresholds(stop=0.99, refuse=0.9, trade=0.0),
    "parlett": Thresholds(stop=0.45, refuse=0.2, trade=0.0),
    "widow": Thresholds(stop=0.995, refuse=0.9, trade=0.0),
}

#: the arena's policies besides ``levels.LEVELS``: the threshold player, the
#: flat determinised Monte Carlo player (``flat.choose``, strong's playout budget)
#: a seat that plays the coach's hints (``coach.hint``) and ``strong`` answering
#: from the equilibrium table without a search (``table``), and strong's rollout
#: policy (``patient``: ``normal.patient``), and ``strong`` scoring its playouts with
#: the game's standing or by the deal alone (``gamewise``, ``dealwise``:
#: ``strong.choose(..., game=True / False)``)
POLICIES = ("threshold", "flat", "coached", "table", "patient", "gamewise", "dealwise")


def _pct(cards: Sequence[Card], obs: Observation) -> float:
    return percentile(score(list(cards), obs.rules.ranking), obs.rules.ranking)


def _unseen(obs: Observation) -> list[Card]:
    seen = set(obs.hand or ()) | set(obs.widow or ()) | set(obs.shown_waste)
    seen.update(c for c in (obs.discard_top, obs.drawn, obs.offered_card) if c is not None)
    return [c for c in range(52) if c not in seen]


def _worst(hand: Sequence[Card], obs: Observation) -> Card:
    """The card whose two companions, with an unseen card, make the best hand
    on average."""
    pool = _unseen(obs)

    def kept_value(out: Card) -> float:
        kept = [c for c in hand if c != out]
        return sum(_pct([*kept, c], obs) for c in pool) / max(len(pool), 1)

    return max(hand, key=lambda c: (kept_value(c), -c))


def _improve(hand: Sequence[Card], card: Card, obs: Observation) -> tuple[float, Card | None]:
    """The best percentile with ``card`` in place of one hand card, and that card
    (``None``: no exchange beats the hand)."""
    return best_exchange(hand, card, lambda h: _pct(h, obs))


def threshold_choose(obs: Observation, t: Thresholds) -> Decision:
    """The threshold player's decision for ``obs.seat`` (the seat to act), from
    its observation only: the rules of the module docstring, with ``t``.

    Raises:
        ValueError: not this seat's decision.
    """
    if obs.seat is None or obs.to_act != obs.seat or obs.finished:
        raise ValueError("the threshold player decides only for the seat to act")
    late = obs.moves // max(len(obs.active), 1) >= LATE_CIRCUITS
    hand = tuple(obs.hand or ())
    if obs.family == "trade":
        return _threshold_trade(obs, t, hand, late)
    if obs.family == "widow":
        return _threshold_widow(obs, t, hand, late)
    return _threshold_discard(obs, t, hand, late)


def _threshold_trade(obs: Observation, t: Thresholds, hand: tuple[Card, ...], late: bool,
                     ) -> Decision:
    now = _pct(hand, obs)
    if obs.barter is not None:
        if obs.rules.barter_refusal and now >= t.refuse:
            return Decision("refuse")
        return Decision("accept", _worst(hand, obs))
    if late or now >= t.stop:
        return Decision("knock")
    free = obs.seat == obs.dealer or obs.rules.trade_fee == 0
    knock = obs.rules.knock_after_exchange and not obs.rules.barter_refusal and now >= t.refuse
    if "trade" in obs.legal and (free or now < t.trade):
        return Decision("trade", _worst(hand, obs), knock=knock)
    return Decision("barter", _worst(hand, obs), knock=knock)


def _threshold_widow(obs: Observation, t: Thresholds, hand: tuple[Card, ...], late: bool,
                     ) -> Decision:
    legal = obs.legal
    widow = tuple(obs.widow or ())
    if "pounce" in legal and hand:
        return Decision("pounce", next(c for c in widow if rank(c) == rank(hand[0])))
    if "buy_horse" in legal:
        return Decision("buy_horse" if LIFE_VALUE > obs.rules.horse_price else "decline_horse")
    if "take_widow" in legal:
        middle = _pct(widow, obs)
        take = middle >= t.refuse or (bool(hand) and middle > _pct(hand, obs))
        return Decision("take_widow" if take else "keep_hand")
    stop = Decision("knock" if "knock" in legal else "stand")
    now = _pct(hand, obs)
    if late or now >= t.stop:
        return stop
    best: tuple[float, tuple[Card, ...], tuple[Card, ...]] | None = None
    for n in range(1, min(obs.rules.swap_max, len(widow), len(hand)) + 1):
        for give in combinations(hand, n):
            for take_ in combinations(widow, n):
                p = _pct([c for c in hand if c not in give] + list(take_), obs)
                if best is None or p > best[0]:
                    best = (p, give, take_)
    if best is not None and best[0] > now and "swap" in legal:
        return Decision("swap", give=best[1], take=best[2])
    return stop


def _threshold_discard(obs: Observation, t: Thresholds, hand: tuple[Card, ...], late: bool,
                       ) -> Decision:
    legal = obs.legal
    if "accept" in legal:
        assert obs.offered_card is not None
        _, out = _improve(hand, obs.offered_card, obs)
        return Decision("refuse") if out is None else Decision("accept", out)
    if "draw_keep" in legal:
        assert obs.drawn is not None
        _, out = _improve(hand, obs.drawn, obs)
        return Decision("draw_discard") if out is None else Decision("draw_keep", out)
    now = _pct(hand, obs)
    if "pass" in legal and (late or now >= t.stop):
        return Decision("pass")
    if obs.discard_top is not None and "take_discard" in legal:
        p, out = _improve(hand, obs.discard_top, obs)
        if out is not None and (p - now >= t.refuse or "draw" not in legal):
            return Decision("take_discard", out)
    if "draw" in legal:
        return Decision("draw")
    return Decision("pass" if "pass" in legal else "knock")


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
        preset, options, policies, seats, deals, seed, playouts, seconds: the
            arguments (``seconds``: the searches' deadline, ``None``: none).
        unit: what a score counts (``points``, ``chips``, ``points+lives``).
        scores: per policy, its mean score per deal.
        pairs: per ordered pair ``(a, b)`` of distinct policies (``a`` listed
            first), the mean per-deck difference ``a - b``.
        per_deck: per policy, its score on each deck (for checks).
        decisions: decisions made per policy.
        games: each unit is a whole game (scores per game), not one deal.
        deals_per_unit: deals played per game (mean; 1 per deal mode).
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
    games: bool = False
    deals_per_unit: float = 1.0
    seconds: float | None = None

    def text(self) -> str:
        """The report as people read it."""
        seatings = len(seatings_of(self.policies, self.seats))
        unit = "game" if self.games else "deal"
        lines = [
            f"arena: {self.preset}"
            + (f" {json.dumps(self.options, sort_keys=True)}" if self.options else "")
            + (f", {self.seats} seats, {self.deals} deck sequences x {seatings} seatings"
               f" = {self.deals * seatings} games ({self.deals_per_unit:.1f} deals each)"
               if self.games else
               f", {self.seats} seats, {self.deals} decks x {seatings} seatings"
               f" = {self.deals * seatings} deals")
            + f", seed {self.seed}, strong playouts {self.playouts}"
            + ("" if self.seconds is None else f" within {self.seconds:g} s (live: not repeatable)"),
            f"score: {self.unit} per {unit}, mean [95% CI]",
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
    thresholds: Thresholds | None = None,
    games: bool = False,
    seconds: float | None = None,
    first: int = 0,
) -> ArenaReport:
    """Play ``deals`` decks in every seating of ``policies`` (see the module
    docstring) and return the report. ``thresholds`` are the ``threshold``
    player's numbers (default: the preset's in ``THRESHOLDS``, else
    ``Thresholds()``). With ``games`` each of the ``deals`` units is a whole
    game instead of one deal (docs/AI.md "Game mode"): deal ``k`` of game ``i``
    has the same deck in every seating, the game runs to its end (at most
    ``MAX_DEALS`` deals) and a seat scores its final ledger balance. With
    ``seconds`` every search (``strong``, ``flat``, ``coached``) also stops at
    that deadline, as at a live table (``strong.DEFAULT_BUDGET``: 2000
    playouts, 0.2 s); ``coached`` then has the coach's own deadline
    (``coach.BUDGET``), else its playouts only. The decks are numbered from
    ``first``: deck ``i`` is the same in every run of the seed, so runs of
    ``first=0, deals=k`` and ``first=k`` together are one run of more decks.

    Raises:
        ValueError: an unknown preset, option or level, or too few seats.
    """
    known = (*levels.LEVELS, *POLICIES)
    for policy in policies:
        if policy not in known:
            raise ValueError(f"unknown AI level {policy!r}; choose from {', '.join(known)}")
    tuned = thresholds or THRESHOLDS.get(preset, Thresholds())
    if len(policies) < 1 or deals < 1 or first < 0:
        raise ValueError("give at least one policy and one deal")
    rules = get_preset(preset, options)
    n = seats if seats is not None else max(len(policies), rules.min_players)
    if not rules.min_players <= n <= rules.max_players:
        raise ValueError(f"{preset} needs {rules.min_players} to {rules.max_players} seats")
    budget = Budget(playouts=playouts, seconds=seconds)
    tables = seatings_of(policies, n)
    names = list(dict.fromkeys(policies))
    per_deck: dict[str, list[float]] = {p: [] for p in names}
    decisions = dict.fromkeys(names, 0)
    deal_counts: list[int] = []
    for index in range(first, first + deals):
        totals = dict.fromkeys(names, 0.0)
        counts = dict.fromkeys(names, 0)
        for t, table in enumerate(tables):
            scored, number = _play_unit(Game(rules, n, 0), table, f"{seed}:{index}", t, games,
                                        budget, tuned, decisions)
            for seat, value in scored:
                totals[table[seat]] += value
                counts[table[seat]] += 1
            deal_counts.append(number)
        for p in names:
            per_deck[p].append(totals[p] / counts[p])
        if progress is not None:
            progress(index + 1 - first)
    scores = {p: Interval.of(per_deck[p]) for p in names}
    pairs = {
        (a, b): Interval.of([x - y for x, y in zip(per_deck[a], per_deck[b], strict=True)])
        for i, a in enumerate(names) for b in names[i + 1:]
    }
    unit = UNITS[rules.family] if games else "points+lives" if rules.lives else UNITS[rules.family]
    return ArenaReport(preset, dict(options or {}), tuple(policies), n, deals, seed, playouts, unit,
                       scores, pairs, {p: tuple(v) for p, v in per_deck.items()}, decisions,
                       games, sum(deal_counts) / len(deal_counts), seconds)


def _play_unit(game: Game, table: Sequence[str], unit: str, t: int, games: bool, budget: Budget,
               tuned: Thresholds, decisions: dict[str, int]) -> tuple[list[tuple[int, float]], int]:
    """One deal (or with ``games`` one whole game) of seating ``t``: the
    ``(seat, score)`` pairs and the deals played."""
    number = 0
    while True:
        tag = f"{unit}:{number}" if games else unit
        deck = shuffled_deck(random.Random(f"arena{'-game' if games else ''}:{tag}"))
        deal = game.start_deal(deck, rng=random.Random(f"arena:{tag}:stock"))
        _play(deal, table, f"arena:{tag}:{t}", budget, tuned, decisions)
        number += 1
        if not games or game.complete or number >= MAX_DEALS:
            break
    if games:
        return [(seat, float(balance)) for seat, balance in enumerate(game.ledger)], number
    return [(seat, outcome(deal, seat)) for seat in deal.active], number


def _play(deal: AnyDeal, table: Sequence[str], tag: str, budget: Budget, tuned: Thresholds,
          decisions: dict[str, int]) -> None:
    """Play ``deal`` to its end, seat ``s`` by policy ``table[s]``."""
    moves = 0
    while not deal.finished:
        seat = deal.to_act
        assert seat is not None
        level = table[seat]
        rng = random.Random(f"{tag}:{moves}")
        deal.act(seat, _decide(deal, seat, level, rng, budget, tuned))
        decisions[level] += 1
        moves += 1
        if moves > MAX_MOVES:
            raise RuntimeError(f"a deal in seating {table} does not end ({tag})")


def _decide(deal: AnyDeal, seat: int, level: str, rng: random.Random, budget: Budget,
            tuned: Thresholds) -> Decision:
    if level == "threshold":
        return threshold_choose(deal.observation(seat), tuned)
    if level == "patient":
        return normal.patient(deal.observation(seat))
    if level == "flat":
        return flat.choose(seat_view(deal, seat), rng, budget)
    if level == "table":  # strong answering from the equilibrium table at once where it can
        return strong.choose(seat_view(deal, seat), rng, budget, overrule=False)
    if level in ("gamewise", "dealwise"):  # strong playing for the game, or for the deal
        return strong.choose(seat_view(deal, seat), rng, budget, game=level == "gamewise")
    if level == "coached":
        live = budget.seconds is not None
        return coach.hint(seat_view(deal, seat), coach.BUDGET if live else COACHED)
    return levels.decide(deal, seat, level, rng=rng, budget=budget)


def main(argv: list[str]) -> int:
    """``python -m bot.engine arena ...``; returns the exit code."""
    parser = argparse.ArgumentParser(
        prog="python -m bot.engine arena",
        description="Duplicate deals between AI levels (docs/AI.md).")
    parser.add_argument("--preset", default="foster")
    parser.add_argument("--policies", default="strong,normal,easy",
                        help="comma-separated AI levels or baselines (threshold, flat, coached, "
                             "table, patient, gamewise, dealwise), one per seat (repeated to fill --seats)")
    parser.add_argument("--deals", type=int, default=100, help="decks to deal (each in every seating)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seats", type=int, default=None)
    parser.add_argument("--options", default=None, help='table options as JSON, e.g. \'{"pounce": true}\'')
    parser.add_argument("--playouts", type=int, default=ARENA_PLAYOUTS,
                        help="strong's playouts per decision")
    parser.add_argument("--seconds", type=float, default=None,
                        help="a deadline per search too (live strength; a run no longer repeats)")
    parser.add_argument("--live", action="store_true",
                        help="searches at the live table's budget (strong.DEFAULT_BUDGET: "
                             "2000 playouts, 0.2 s)")
    parser.add_argument("--games", action="store_true",
                        help="play whole games (each --deals unit is a game), score the ledger")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--progress", action="store_true", help="report progress on stderr")
    args = parser.parse_args(argv)
    try:
        options = json.loads(args.options) if args.options else None
        playouts, seconds = args.playouts, args.seconds
        if args.live:
            playouts = DEFAULT_BUDGET.playouts or playouts
            seconds = DEFAULT_BUDGET.seconds
        report = run_arena(
            args.preset, [p.strip() for p in args.policies.split(",") if p.strip()], args.deals,
            args.seed, seats=args.seats, options=options, playouts=playouts, games=args.games,
            seconds=seconds, progress=_progress(args.deals) if args.progress else None)
    except (ValueError, RulesError) as exc:
        print(f"arena: {exc}")
        return 2
    if args.json:
        print(json.dumps({
            "preset": report.preset, "options": report.options, "policies": list(report.policies),
            "seats": report.seats, "deals": report.deals, "seed": report.seed,
            "playouts": report.playouts, "seconds": report.seconds, "unit": report.unit,
            "games": report.games,
            "deals_per_unit": report.deals_per_unit,
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
