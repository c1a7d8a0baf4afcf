"""How far the simple players can be beaten in the short trade presets
(docs/AI.md "2026-12-04, seventh session"): a best response within the
equilibrium solver's abstraction, learned against fixed opponents, and the
arena to measure it.

``train`` learns, for one preset, a strategy table in ``equilibrium.json``'s
format (the same information-set keys as ``scripts/solve_equilibrium.py`` and
``bot.engine.equilibrium``, so ``equilibrium.parse`` reads it and ``strong`` can
use it) against opponents that do not learn: external-sampling Monte Carlo
CFR (regret matching+, linearly weighted average) where each seat in turn is
the learner and the two other seats play a fixed policy drawn per deal from
``--opponents``. Against fixed opponents the learner's regret minimisation
converges to a best response to them (within the abstraction). ::

    nice -n 15 .venv/bin/python scripts/best_response.py train --preset foster \
        --opponents threshold --seconds 480 --seed 3 --out /tmp/br_foster.json

An opponent is ``normal``, ``threshold`` (``arena.THRESHOLDS``' tuned point) or
``threshold@STOP/REFUSE/TRADE`` (another point); ``--opponents`` is a comma
separated list drawn from uniformly per opponent seat and deal.

``arena`` plays duplicate decks (``arena.run_arena``) with two more seats:
``br``, the learned table played pure (``equilibrium.PURE``) falling back to
``normal`` where it does not cover the state (as in training), ``eq`` the same
with today's table, and ``strongbr``, ``strong`` exactly as today but with the
learned table in place of today's for that preset. ``--per-deck FILE`` keeps
every policy's per-deck scores (JSON) so that runs on the same seed pair up
deck by deck (``pair``). ::

    nice -n 15 .venv/bin/python scripts/best_response.py arena --table /tmp/br_foster.json \
        --seed 11 --per-deck /tmp/pd.json foster:br,threshold,threshold:200
    .venv/bin/python scripts/best_response.py pair \
        'A.json#foster:br,threshold:200#br~threshold' 'B.json#foster:strong,threshold:200#strong~threshold'
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from itertools import accumulate
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.engine import arena, normal, strong
from bot.engine import equilibrium as eq
from bot.engine.arena import THRESHOLDS, Interval, Thresholds, threshold_choose
from bot.engine.cards import Card, shuffled_deck
from bot.engine.family import Decision, Observation
from bot.engine.rules import get_preset
from bot.engine.trade import TradeDeal
from bot.engine.view import SeatView, seat_view

sys.path.insert(0, str(Path(__file__).resolve().parent))
import solve_equilibrium
from solve_equilibrium import Solver

Fixed = Callable[[Observation], Decision]


def opponent(spec: str, preset: str) -> Fixed:
    """The fixed policy named ``spec`` (see the module docstring).

    Raises:
        ValueError: an unknown name or a malformed threshold point.
    """
    if spec == "normal":
        return normal.choose
    if spec == "threshold":
        t = THRESHOLDS[preset]
    elif spec.startswith("threshold@"):
        stop, refuse, trade = (float(x) for x in spec.removeprefix("threshold@").split("/"))
        t = Thresholds(stop=stop, refuse=refuse, trade=trade)
    else:
        raise ValueError(f"unknown opponent {spec!r}")
    return lambda obs: threshold_choose(obs, t)


def card_order(obs: Observation) -> list[Card]:
    """The seat's cards in ``equilibrium.best_card``'s order: first the card it
    would give up (the best chance for the two kept, ties to the lower card)."""
    hand = tuple(obs.hand or ())
    seen = set(hand) | set(obs.shown_waste)
    pool = [c for c in range(52) if c not in seen]
    opponents = max(len(obs.active) - 1, 1)
    by_mask = eq._by_mask(obs.rules.ranking)

    def win(out: Card) -> float:
        base = eq._mask([c for c in hand if c != out])
        return sum(by_mask[base | (1 << c)] ** opponents for c in pool) / len(pool)

    return sorted(hand, key=lambda c: (-win(c), c))


def expand(actions: tuple[str, ...], cards: bool) -> tuple[str, ...]:
    """With ``cards``, every action that gives a card becomes one action per
    card (``trade#0`` gives ``card_order``'s first card, ``#2`` its last)."""
    if not cards:
        return actions
    return tuple(a if a in ("knock", "refuse") else f"{a}#{i}"
                 for a in actions for i in ((0,) if a in ("knock", "refuse") else (0, 1, 2)))


def concrete(action: str, obs: Observation) -> Decision:
    """``equilibrium.concrete``, and the ``#i`` actions of ``expand``."""
    base, _, index = action.partition("#")
    if not index:
        return eq.concrete(action, obs)
    card = card_order(obs)[int(index)]
    if base == "accept":
        return Decision("accept", card)
    kind, _, knock = base.partition("_")
    return Decision(kind, card, knock=bool(knock))


def table_choose(view: SeatView, table: eq.Table, rng: random.Random) -> Decision | None:
    """``equilibrium.choose`` for a table learned with ``train --cards``."""
    obs = view.obs
    assert obs.seat is not None and obs.hand is not None
    history = eq.history_of(view)
    if len(history) >= eq.HISTORY_CAP:
        return None
    answering = obs.barter is not None
    actions = expand(eq.actions_for(obs.rules, answering, obs.stock_count), True)
    key = table.key(obs.n_seats, eq.role_of(obs.seat, obs.dealer, obs.n_seats, obs.rules.step),
                    history, answering, obs.hand, obs.rules.ranking)
    probs = table.strategies.get(key)
    if probs is None or len(probs) != len(actions):
        return None
    return concrete(actions[eq.pick(probs, rng)], obs)


class BestResponse(Solver):
    """``Solver`` with only the traverser learning: the other seats play
    the fixed policies of ``self.fixed`` (seat -> policy), drawn per deal;
    with ``learners`` 2 one other seat (drawn per deal) plays the learned
    table's current strategy too (each learner scores its own outcome)."""

    def __init__(self, preset: str, opponents: list[Fixed], n: int, rng: random.Random,
                 cards: bool = False, learners: int = 1) -> None:
        super().__init__(get_preset(preset), n, rng)
        self.opponents = opponents
        self.fixed: dict[int, Fixed] = {}
        self.cards = cards
        self.learners = learners

    def decision(self, deal: TradeDeal, seat: int, action: str) -> Decision:
        return concrete(action, deal.observation(seat))

    def _walk(self, deal: TradeDeal, deck: list[int], moves: list[Decision], history: str,
              traverser: int) -> float:
        while True:
            if deal.finished:
                return strong.outcome(deal, traverser)
            seat = deal.to_act
            assert seat is not None
            if seat in self.fixed:  # a fixed opponent, past the cap too
                d = self.fixed[seat](deal.observation(seat))
                history, moves = self._step(deal, seat, d, history, moves)
                continue
            if len(history) >= eq.HISTORY_CAP:  # past the table: a learner plays normal
                d = normal.choose(deal.observation(seat))
                history, moves = self._step(deal, seat, d, history, moves)
                continue
            actions = expand(eq.actions_for(self.rules, deal.pending is not None,
                                            len(deal.stock)), self.cards)
            if len(actions) == 1:
                d = self.decision(deal, seat, actions[0])
                history, moves = self._step(deal, seat, d, history, moves)
                continue
            key = self.key(deal, seat, history)
            strat = self.strategy(key, len(actions))
            if seat != traverser:  # another learning seat: its current strategy, sampled
                r = self.rng.random()
                index = next((i for i, total in enumerate(accumulate(strat)) if r < total),
                             len(actions) - 1)
                d = self.decision(deal, seat, actions[index])
                history, moves = self._step(deal, seat, d, history, moves)
                continue
            node = self._traverse(deck, moves, history, traverser, key, actions, strat)
            # the learner's own average strategy (reach-weighted by the sampling)
            average = self.average.setdefault(key, [0.0] * len(actions))
            for i, p in enumerate(strat):
                average[i] += self.iteration * p
            return node

    def iterate(self) -> None:
        self.iteration += 1
        deck = shuffled_deck(self.rng)
        for traverser in range(self.n):
            others = [s for s in range(self.n) if s != traverser]
            learning = self.rng.sample(others, self.learners - 1) if self.learners > 1 else []
            self.fixed = {s: self.rng.choice(self.opponents) for s in others if s not in learning}
            self.walk(deck, [], "", traverser)


def train(args: argparse.Namespace) -> int:
    specs = [s.strip() for s in args.opponents.split(",") if s.strip()]
    policies = [opponent(s, args.preset) for s in specs]
    bins = eq.STRENGTH_BINS, solve_equilibrium.POTENTIAL_BINS
    eq.STRENGTH_BINS = args.strength_bins  # a finer (or coarser) key than the solver's
    solve_equilibrium.POTENTIAL_BINS = args.potential_bins
    try:
        return _train(args, specs, policies)
    finally:
        eq.STRENGTH_BINS, solve_equilibrium.POTENTIAL_BINS = bins


def _train(args: argparse.Namespace, specs: list[str], policies: list[Fixed]) -> int:
    solver = BestResponse(args.preset, policies, args.seats, random.Random(args.seed), args.cards,
                          args.learners)
    start = time.monotonic()
    while True:
        solver.iterate()
        if args.iterations is not None:
            if solver.iteration >= args.iterations:
                break
        elif time.monotonic() - start >= args.seconds:
            break
        if solver.iteration % 2000 == 0:
            print(f"{solver.iteration} iterations, {len(solver.regret)} information sets, "
                  f"{time.monotonic() - start:.0f} s", file=sys.stderr, flush=True)
    body = solver.table(min_visits=0.0)
    body["opponents"] = specs
    body["seed"] = args.seed
    body["strength_bins"] = args.strength_bins
    body["cards"] = args.cards
    body["learners"] = args.learners
    raw = json.loads(args.out.read_text()) if args.out.exists() else {"presets": {}}
    raw["presets"][args.preset] = body
    args.out.write_text(json.dumps(raw, sort_keys=True, separators=(",", ":")) + "\n")
    print(f"{args.preset} against {','.join(specs)}: {solver.iteration} iterations, "
          f"{len(body['strategies'])} information sets, "  # type: ignore[arg-type]
          f"{time.monotonic() - start:.0f} s -> {args.out}")
    return 0


def install(learned: dict[str, eq.Table], bins: dict[str, int],
            cards: frozenset[str] = frozenset()) -> None:
    """Seat ``br``, ``eq`` and ``strongbr`` in ``arena.run_arena`` (module docstring);
    ``bins``: per preset, the learned table's strength bins (``train --strength-bins``)."""
    today = eq.load()
    solver_bins = eq.STRENGTH_BINS
    setattr(arena, "POLICIES", (*arena.POLICIES, "br", "eq", "strongbr"))  # noqa: B010
    plain = arena._decide

    def swapped(preset: str, table: eq.Table | None,
                call: Callable[[], Decision | None]) -> Decision | None:
        saved = today.get(preset)
        if table is not None:
            today[preset] = table
            eq.STRENGTH_BINS = bins.get(preset, solver_bins)
        try:
            return call()
        finally:
            eq.STRENGTH_BINS = solver_bins
            if saved is not None:
                today[preset] = saved

    def decide(deal, seat, level, rng, budget, tuned):  # type: ignore[no-untyped-def]
        if level not in ("br", "eq", "strongbr"):
            return plain(deal, seat, level, rng, budget, tuned)
        view = seat_view(deal, seat)
        preset = eq._preset_of(deal.rules)
        assert preset is not None
        table = None if level == "eq" else learned.get(preset)
        if level == "strongbr":
            return swapped(preset, table, lambda: strong.choose(view, rng, budget))
        if table is not None and preset in cards:
            learned_table = table
            found = swapped(preset, table, lambda: table_choose(view, learned_table, rng))
        else:
            found = swapped(preset, table, lambda: eq.choose(view, rng, preset))
        return found if found is not None else normal.choose(view.obs)

    arena._decide = decide


def play(args: argparse.Namespace) -> int:
    text = args.table.read_text() if args.table else '{"presets": {}}'
    bins = {name: int(body.get("strength_bins", eq.STRENGTH_BINS))
            for name, body in json.loads(text)["presets"].items()}
    cards = frozenset(name for name, body in json.loads(text)["presets"].items()
                      if body.get("cards"))
    install(eq.parse(text), bins, cards)
    kept: dict[str, dict[str, list[float]]] = {}
    for job in args.jobs:
        preset, policies, decks = job.split(":")
        names = policies.split(",")
        start = time.perf_counter()
        report = arena.run_arena(preset, names, int(decks), args.seed, playouts=args.playouts)
        print(job)
        print(report.text())
        print(f"({time.perf_counter() - start:.0f} s)", flush=True)
        kept[job] = {p: list(v) for p, v in report.per_deck.items()}
    if args.per_deck:
        old = json.loads(args.per_deck.read_text()) if args.per_deck.exists() else {}
        old.update(kept)
        args.per_deck.write_text(json.dumps(old) + "\n")
    return 0


def pair(args: argparse.Namespace) -> int:
    """``FILE#JOB#A~B`` twice: the per-deck difference of the two differences."""
    diffs = []
    for item in args.items:
        path, job, which = item.split("#")
        a, b = which.split("~")
        data = json.loads(Path(path).read_text())[job]
        diffs.append([x - y for x, y in zip(data[a], data[b], strict=True)])
        print(f"{item}: {Interval.of(diffs[-1]).text()} ({len(diffs[-1])} decks)")
    if len(diffs) == 2:
        n = min(len(diffs[0]), len(diffs[1]))
        print(f"first - second: {Interval.of([diffs[0][i] - diffs[1][i] for i in range(n)]).text()}"
              f" ({n} decks)")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    t = sub.add_parser("train", help="learn a best response table")
    t.add_argument("--preset", default="foster", choices=eq.PRESETS)
    t.add_argument("--opponents", default="threshold")
    t.add_argument("--seats", type=int, default=3)
    t.add_argument("--seed", type=int, default=3)
    t.add_argument("--iterations", type=int, default=None)
    t.add_argument("--seconds", type=float, default=300.0)
    t.add_argument("--out", type=Path, required=True)
    t.add_argument("--strength-bins", type=int, default=eq.STRENGTH_BINS)
    t.add_argument("--learners", type=int, default=1, choices=(1, 2),
                   help="seats learning the table at once (2: one fixed opponent per deal)")
    t.add_argument("--cards", action="store_true",
                   help="learn which card to give too (a table strong cannot read)")
    t.add_argument("--potential-bins", type=int, default=solve_equilibrium.POTENTIAL_BINS)
    a = sub.add_parser("arena", help="duplicate decks with br, eq and strongbr seats")
    a.add_argument("jobs", nargs="+", help="preset:policies:decks")
    a.add_argument("--table", type=Path, default=None, help="the learned table (train --out)")
    a.add_argument("--seed", type=int, default=11)
    a.add_argument("--playouts", type=int, default=arena.ARENA_PLAYOUTS)
    a.add_argument("--per-deck", type=Path, default=None)
    p = sub.add_parser("pair", help="pair two runs' differences deck by deck")
    p.add_argument("items", nargs="+", help="FILE#JOB#A~B")
    args = parser.parse_args()
    return {"train": train, "arena": play, "pair": pair}[args.command](args)


if __name__ == "__main__":
    raise SystemExit(main())
