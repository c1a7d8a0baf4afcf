"""Compute the equilibrium tables of the short trade presets (docs/AI.md
"Equilibrium tables (issue 25)"): Monte Carlo counterfactual regret
minimisation with external sampling over the abstraction of
``bot.engine.equilibrium``, every seat learning at once, on the real
``TradeDeal`` (the first deal of a game, seat 0 dealing, as the arena plays it).

    nice -n 15 .venv/bin/python scripts/solve_equilibrium.py --preset foster \
        --seconds 600 --seed 1 [--out bot/engine/equilibrium.json]

The table is merged into ``--out`` (other presets kept). Per iteration one
deck is dealt and each seat in turn is the traverser: at its information sets
every abstract action is tried, at the others' one is sampled from the current
strategy (regret matching+, linearly weighted average strategy). Deterministic
for a seed and an iteration count (``--iterations``); ``--seconds`` stops on
the clock instead.
"""

from __future__ import annotations

import argparse
import json
import pickle
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.engine import equilibrium as eq
from bot.engine import normal
from bot.engine.cards import shuffled_deck
from bot.engine.family import Decision
from bot.engine.game import Game
from bot.engine.rules import Rules, get_preset
from bot.engine.strong import outcome
from bot.engine.trade import TradeDeal

OUT = Path(__file__).resolve().parent.parent / "bot" / "engine" / eq.TABLE_FILE
#: potential bins: quantiles over dealt hands
POTENTIAL_BINS = 4


class Solver:
    """Regret and average-strategy sums per information set."""

    def __init__(self, rules: Rules, n: int, rng: random.Random) -> None:
        self.rules = rules
        self.n = n
        self.rng = rng
        self.edges = self._edges()
        self.regret: dict[str, list[float]] = {}
        self.average: dict[str, list[float]] = {}
        self.iteration = 0
        self._keys: dict[tuple[int, str, bool, tuple[int, ...]], str] = {}

    def _edges(self) -> tuple[float, ...]:
        ranking = self.rules.ranking
        values = sorted(eq.potential(shuffled_deck(self.rng)[:3], ranking) for _ in range(4000))
        return tuple(round(values[len(values) * i // POTENTIAL_BINS], 4)
                     for i in range(1, POTENTIAL_BINS))

    def new_deal(self, deck: list[int]) -> TradeDeal:
        deal = Game(self.rules, self.n, 0).start_deal(deck)
        assert isinstance(deal, TradeDeal)
        return deal

    def key(self, deal: TradeDeal, seat: int, history: str) -> str:
        hand = tuple(sorted(deal.hands[seat]))
        answering = deal.pending is not None
        k = (seat, history, answering, hand)
        found = self._keys.get(k)
        if found is None:
            role = eq.role_of(seat, deal.dealer, deal.n, self.rules.step)
            found = self._keys[k] = eq.info_key(deal.n, role, history, answering, hand,
                                                self.rules.ranking, self.edges)
        return found

    def strategy(self, key: str, size: int) -> list[float]:
        regret = self.regret.get(key)
        if regret is None:
            return [1.0 / size] * size
        positive = [max(r, 0.0) for r in regret]
        total = sum(positive)
        return [p / total for p in positive] if total > 0 else [1.0 / size] * size

    def decision(self, deal: TradeDeal, seat: int, action: str) -> Decision:
        return eq.concrete(action, deal.observation(seat))

    def walk(self, deck: list[int], moves: list[Decision], history: str, traverser: int) -> float:
        deal = self.new_deal(deck)
        for seat_move in moves:
            seat = deal.to_act
            assert seat is not None
            deal.act(seat, seat_move)
        return self._walk(deal, deck, moves, history, traverser)

    def _walk(self, deal: TradeDeal, deck: list[int], moves: list[Decision], history: str,
              traverser: int) -> float:
        while True:
            if deal.finished:
                return outcome(deal, traverser)
            seat = deal.to_act
            assert seat is not None
            if len(history) >= eq.HISTORY_CAP:  # past the table: normal plays every seat
                deal.act(seat, normal.choose(deal.observation(seat)))
                continue
            actions = eq.actions_for(self.rules, deal.pending is not None, len(deal.stock))
            if len(actions) == 1:
                d = self.decision(deal, seat, actions[0])
                history, moves = self._step(deal, seat, d, history, moves)
                continue
            key = self.key(deal, seat, history)
            strat = self.strategy(key, len(actions))
            if seat == traverser:
                return self._traverse(deck, moves, history, traverser, key, actions, strat)
            average = self.average.setdefault(key, [0.0] * len(actions))
            for i, p in enumerate(strat):
                average[i] += self.iteration * p  # linear averaging
            r = self.rng.random()
            index = len(actions) - 1
            total = 0.0
            for i, p in enumerate(strat):
                total += p
                if r < total:
                    index = i
                    break
            d = self.decision(deal, seat, actions[index])
            history, moves = self._step(deal, seat, d, history, moves)

    def _traverse(self, deck: list[int], moves: list[Decision], history: str, traverser: int,
                  key: str, actions: tuple[str, ...], strat: list[float]) -> float:
        """The traverser's decision at information set ``key``: every action tried
        from the same position (the deal replayed from ``deck`` and ``moves``), its
        regrets updated (regret matching+); returns the node's value under ``strat``."""
        values = []
        for action in actions:
            branch = self.new_deal(deck)
            for m in moves:
                s = branch.to_act
                assert s is not None
                branch.act(s, m)
            d = self.decision(branch, traverser, action)
            h = self._after(branch, traverser, d, history)
            values.append(self._walk(branch, deck, [*moves, d], h, traverser))
        node = sum(p * v for p, v in zip(strat, values, strict=True))
        regret = self.regret.setdefault(key, [0.0] * len(actions))
        for i, v in enumerate(values):
            regret[i] = max(regret[i] + v - node, 0.0)  # regret matching+
        return node

    def _step(self, deal: TradeDeal, seat: int, d: Decision, history: str,
              moves: list[Decision]) -> tuple[str, list[Decision]]:
        """Play ``d`` for ``seat``: the history and the moves after it."""
        return self._after(deal, seat, d, history), [*moves, d]

    @staticmethod
    def _after(deal: TradeDeal, seat: int, d: Decision, history: str) -> str:
        """Apply ``d`` and return the history after it."""
        deal.act(seat, d)
        if d.kind == "trade":
            return history + "T"
        if d.kind == "accept":
            return history + "B"
        return history

    def iterate(self) -> None:
        self.iteration += 1
        deck = shuffled_deck(self.rng)
        for traverser in range(self.n):
            self.walk(deck, [], "", traverser)

    def table(self, min_visits: float) -> dict[str, object]:
        strategies = {}
        for key, sums in sorted(self.average.items()):
            total = sum(sums)
            if total <= min_visits:
                continue
            strategies[key] = [round(s / total, 4) for s in sums]
            fix = 1.0 - sum(strategies[key])
            top = max(range(len(sums)), key=lambda i: strategies[key][i])
            strategies[key][top] = round(strategies[key][top] + fix, 4)
        return {"potential_edges": list(self.edges), "strategies": strategies,
                "iterations": self.iteration, "seats": self.n}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--preset", default="foster", choices=eq.PRESETS)
    parser.add_argument("--seats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--iterations", type=int, default=None)
    parser.add_argument("--seconds", type=float, default=600.0)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--state", type=Path, default=None,
                        help="keep the regrets here: resume from it if it exists, save at the end")
    args = parser.parse_args()
    solver = Solver(get_preset(args.preset), args.seats, random.Random(args.seed))
    if args.state is not None and args.state.exists():
        saved = pickle.loads(args.state.read_bytes())
        solver.edges, solver.regret, solver.average, solver.iteration = (
            saved["edges"], saved["regret"], saved["average"], saved["iteration"])
        solver.rng.setstate(saved["rng"])
    done = solver.iteration
    start = time.monotonic()
    while True:
        solver.iterate()
        if args.iterations is not None:
            if solver.iteration - done >= args.iterations:
                break
        elif time.monotonic() - start >= args.seconds:
            break
        if solver.iteration % 2000 == 0:
            print(f"{solver.iteration} iterations, {len(solver.regret)} information sets, "
                  f"{time.monotonic() - start:.0f} s", file=sys.stderr, flush=True)
    if args.state is not None:
        args.state.write_bytes(pickle.dumps({
            "edges": solver.edges, "regret": solver.regret, "average": solver.average,
            "iteration": solver.iteration, "rng": solver.rng.getstate()}))
    body = solver.table(min_visits=0.0)
    raw = json.loads(args.out.read_text()) if args.out.exists() else {"presets": {}}
    raw["presets"][args.preset] = body
    args.out.write_text(json.dumps(raw, sort_keys=True, separators=(",", ":")) + "\n")
    print(f"{args.preset}: {solver.iteration} iterations, {len(body['strategies'])} information "  # type: ignore[arg-type]
          f"sets, {time.monotonic() - start:.0f} s -> {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
