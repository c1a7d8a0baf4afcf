"""Rate the AI levels against each other: whole AI-only games, rated as the bot
rates a finished game (docs/RATINGS.md "The AI levels").

Each game seats easy, normal and strong at the three seats of a ``--preset``
table, in turn through every seating (``bot.engine.arena.seatings_of``), and is
played to its end with the arena's deterministic budget for strong
(``ARENA_PLAYOUTS`` playouts per decision, no deadline); its final standings
(``bot.service.skill.final_ranks``) update the three levels' ratings with the
bot's own model (``bot.service.skill.rate``), starting from the model's first
rating. Prints each level's rating as the board shows it. Everything is a pure
function of the arguments (decks and decisions are seeded), so a run repeats:

    .venv/bin/python scripts/rate_ai_levels.py [--games 60] [--preset foster] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.engine import levels
from bot.engine.arena import ARENA_PLAYOUTS, MAX_MOVES, seatings_of
from bot.engine.cards import shuffled_deck
from bot.engine.game import Game
from bot.engine.rules import get_preset
from bot.engine.strong import Budget
from bot.service.skill import Shown, final_ranks, rate

LEVELS = ("easy", "normal", "strong")


def play_game(preset: str, seating: tuple[str, ...], seed: int, index: int,
              playouts: int) -> Game:
    """One AI-only game of ``preset`` with ``seating[s]`` at seat ``s``, to its end."""
    rules = get_preset(preset)
    game = Game(rules, len(seating), index % len(seating))
    budget = Budget(playouts=playouts, seconds=None)
    moves = 0
    while not game.complete:
        number = len(game.deals)
        deal = game.start_deal(shuffled_deck(random.Random(f"rate:{seed}:{index}:{number}")),
                               rng=random.Random(f"rate:{seed}:{index}:{number}:stock"))
        while not deal.finished:
            seat = deal.to_act
            assert seat is not None
            rng = random.Random(f"rate:{seed}:{index}:{moves}")
            deal.act(seat, levels.decide(deal, seat, seating[seat], rng=rng, budget=budget))
            moves += 1
            if moves > MAX_MOVES:
                raise RuntimeError(f"game {index} does not end")
    return game


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--preset", default="foster")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--playouts", type=int, default=ARENA_PLAYOUTS)
    args = parser.parse_args(argv)
    seatings = seatings_of(LEVELS, len(LEVELS))
    ratings: dict[str, tuple[float, float] | None] = dict.fromkeys(LEVELS)
    wins = dict.fromkeys(LEVELS, 0)
    for index in range(args.games):
        seating = seatings[index % len(seatings)]
        game = play_game(args.preset, seating, args.seed, index, args.playouts)
        after = rate([ratings[level] for level in seating], final_ranks(game))
        for level, new in zip(seating, after, strict=True):
            ratings[level] = new
        for seat in game.winners or []:
            wins[seating[seat]] += 1
        print(f"\rgame {index + 1}/{args.games}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    print(f"{args.games} games of {args.preset}, seed {args.seed}, strong at {args.playouts} "
          "playouts a decision; ordinal = mu - 3 sigma, then mu ± 2 sigma:")
    shown_of = {level: Shown.of(*(ratings[level] or (25.0, 25 / 3)), args.games)
                for level in LEVELS}
    for level in sorted(LEVELS, key=lambda lv: -shown_of[lv].ordinal):
        shown = shown_of[level]
        print(f"  {level:<6} {shown.ordinal:6.1f}   ({shown.mu:.1f} ± {shown.spread:.1f}; "
              f"won or shared {wins[level]} game{'' if wins[level] == 1 else 's'})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
