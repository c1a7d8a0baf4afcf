"""Check the oldway standing model (``bot.engine.prospects``) against whole games.

Plays ``--games`` seeded oldway games with one policy at every seat (``normal``
by default: fast, and the rollout policy of ``strong``'s playouts outside
jaques), and at the start of every deal records, for every seat with lives, its
standing (its lives, the others' lives, the pool, the horse) and what it then
took until the end of the game (final ledger less the ledger then; the first
deal's standing is the one after the stakes are paid). Prints the
most frequent standings with the measured mean [95% interval] beside the
model's ``oldway_value``, and the model's error over all records. Prints figures
only::

    nice -n 15 .venv/bin/python scripts/game_values.py --games 20000 --seed 1
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.engine import levels, prospects, strong
from bot.engine.arena import THRESHOLDS, Interval, threshold_choose
from bot.engine.cards import shuffled_deck
from bot.engine.game import Game
from bot.engine.rules import get_preset
from bot.engine.strong import Budget
from bot.engine.view import seat_view
from bot.engine.widow import WidowDeal

Key = tuple[int, tuple[int, ...], int, bool]


def play(games: int, seed: int, seats: int, policy: str, first: str | None = None,
         rates: dict[int, list[int]] | None = None) -> dict[Key, list[float]]:
    """Per standing, the income that followed it (one value per seat and deal).
    With ``first`` seat 0 plays that policy (``gamewise``, ``dealwise``: strong
    with 100 playouts, no clock) and ``rates`` counts, per number of seats with lives,
    its deals, best hands and worst hands."""
    rules = get_preset("oldway")
    found: dict[Key, list[float]] = defaultdict(list)
    for g in range(games):
        game = Game(rules, seats, g % seats)
        starts: list[tuple[Key, int, int]] = []
        number = 0
        while not game.complete and number < 200:
            standing, ledger = game.standing, game.ledger
            lives = standing.lives
            assert lives is not None
            # the first deal takes the stakes into the pool first: its standing is the one after
            stake = rules.stake if number == 0 else 0
            pool = standing.pots[0] + stake * sum(1 for n in lives if n > 0)
            for s in range(seats):
                if lives[s] > 0:
                    others = tuple(sorted((n for t, n in enumerate(lives) if t != s and n > 0),
                                          reverse=True))
                    starts.append(((lives[s], others, pool, standing.horse_available), s,
                                   ledger[s] - stake))
            deal = game.start_deal(shuffled_deck(random.Random(f"values:{seed}:{g}:{number}")))
            moves = 0
            while not deal.finished:
                seat = deal.to_act
                assert seat is not None
                obs = deal.observation(seat)
                if seat == 0 and first in ("gamewise", "dealwise"):
                    decision = strong.choose(seat_view(deal, seat),
                                             random.Random(f"values:{seed}:{g}:{number}:{moves}"),
                                             Budget(playouts=100, seconds=None),
                                             game=first == "gamewise")
                else:
                    mine = first if seat == 0 and first is not None else policy
                    decision = (threshold_choose(obs, THRESHOLDS["oldway"])
                                if mine == "threshold" else levels.choose(obs, mine))
                deal.act(seat, decision)
                moves += 1
            if rates is not None and isinstance(deal, WidowDeal) and lives[0] > 0:
                row = rates.setdefault(len(deal.active), [0, 0, 0])
                row[0] += 1
                row[1] += deal.winner == 0
                row[2] += deal.loser == 0
            number += 1
        final = game.ledger
        for key, s, then in starts:
            found[key].append(float(final[s] - then))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seats", type=int, default=3)
    parser.add_argument("--policy", default="normal", choices=("easy", "normal", "threshold"))
    parser.add_argument("--top", type=int, default=25, help="standings to list")
    parser.add_argument("--first", choices=("gamewise", "dealwise", "easy", "normal", "threshold"),
                        help="seat 0 plays this policy: print its best and worst hand rates")
    args = parser.parse_args()
    rules = get_preset("oldway")
    rates: dict[int, list[int]] = {}
    found = play(args.games, args.seed, args.seats, args.policy, args.first, rates)
    if args.first is not None:
        for k, (deals, best, worst) in sorted(rates.items()):
            print(f"seat 0 ({args.first}) with {k} seats in the deal: {deals} deals, best hand "
                  f"{best / deals:.3f} (x{best * k / deals:.2f} of 1/{k}), worst hand "
                  f"{worst / deals:.3f} (x{worst * k / deals:.2f})")
    total = sum(len(v) for v in found.values())
    print(f"oldway, {args.seats} seats, {args.games} games of {args.policy}, seed {args.seed}: "
          f"{total} (seat, deal) records, {len(found)} standings")
    print("| lives (mine; others) | pool | horse | records | measured [95% CI] | model |")
    print("|---|---:|---|---:|---:|---:|")
    error = squared = flat = 0.0
    inside = 0
    for key, values in sorted(found.items(), key=lambda kv: -len(kv[1])):
        mine, others, pool, horse = key
        model = prospects._value(mine, others, pool, horse, rules.best_takes, rules.horse_price)
        measured = Interval.of(values)
        error += (measured.mean - model) * len(values)
        squared += (measured.mean - model) ** 2 * len(values)
        flat += (measured.mean - 3.0 * mine) ** 2 * len(values)  # lives at a fixed 3 points
        inside += len(values) if measured.low <= model <= measured.high else 0
        if args.top > 0:
            args.top -= 1
            print(f"| {mine}; {','.join(map(str, others))} | {pool} | {'yes' if horse else 'no'} "
                  f"| {len(values)} | {measured.text()} | {model:+.3f} |")
    print(f"mean (measured - model) over the records: {error / total:+.3f}; root mean square "
          f"{(squared / total) ** 0.5:.3f}; records whose standing's interval holds the model: "
          f"{inside / total:.0%}")


if __name__ == "__main__":
    main()
