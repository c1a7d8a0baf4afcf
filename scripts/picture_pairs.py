r"""Save one picture of every kind, or compare two such sets pixel by pixel.

The speed work on ``bot/ui/pictures.py`` must leave the pictures unchanged to
the eye (issue 22). This script draws a fixed set from deals the AI plays with
fixed seeds — a hand, a table after a few moves, the widow table, a showdown at
12 seats with its payments — and saves them as PNG files; a second run on other
code saves them again, and ``--compare`` reports, per picture, the size of both
files, whether both have the same size in pixels, how many pixels differ and the
largest difference of one colour channel (0 to 255).

    .venv/bin/python scripts/picture_pairs.py --save docs/pictures-before-after/before
    .venv/bin/python scripts/picture_pairs.py --save docs/pictures-before-after/after
    .venv/bin/python scripts/picture_pairs.py --compare docs/pictures-before-after/before \\
        docs/pictures-before-after/after [--tolerance 0]

``--compare`` exits 1 when a picture differs in size, or in a pixel by more than
``--tolerance`` (default 0: identical pixels).
"""

from __future__ import annotations

import argparse
import io
import random
import sys
from pathlib import Path

from PIL import Image, ImageChops

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.engine import AnyDeal, Game, easy, get_preset, shuffled_deck
from bot.ui import pictures

NAMES = ["Ann", "Zoë", "Bartholomew the Long-Named", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy",
         "Jo", "Kim", "Lu"]


def deal_of(preset: str, seats: int, seed: str) -> tuple[Game, AnyDeal]:
    rng = random.Random(seed)
    game = Game(get_preset(preset), seats, 0)
    return game, game.start_deal(shuffled_deck(rng), rng=rng)


def play(deal: AnyDeal, moves: int | None) -> None:
    """``moves`` AI moves (``None``: to the deal's end)."""
    done = 0
    while not deal.finished and (moves is None or done < moves):
        seat = deal.to_act
        assert seat is not None
        deal.act(seat, easy.choose(deal.observation(seat)))
        done += 1


def pictures_now() -> dict[str, bytes]:
    """The set: name -> PNG bytes."""
    out: dict[str, bytes] = {}
    game, deal = deal_of("foster", 5, "pairs hand")
    play(deal, 3)
    seat = deal.to_act if deal.to_act is not None else deal.dealer
    out["hand"] = pictures.hand_png(deal.observation(seat))
    out["table"] = pictures.table_png(deal.observation(None), NAMES[:5], game.running_balances,
                                      title="Table 1 · Foster · deal 1 of 10")
    play(deal, 1)  # the table after one more move: its parts partly cached
    out["table-after-move"] = pictures.table_png(deal.observation(None), NAMES[:5],
                                                 game.running_balances,
                                                 title="Table 1 · Foster · deal 1 of 10")
    game, deal = deal_of("jaques", 4, "pairs drawn")
    for _ in range(60):  # a seat holding a drawn card: the hand with a card set apart
        to_act = deal.to_act
        assert to_act is not None
        if deal.observation(to_act).drawn is not None:
            break
        deal.act(to_act, easy.choose(deal.observation(to_act)))
    out["hand-drawn"] = pictures.hand_png(deal.observation(to_act))
    game, deal = deal_of("widow", 6, "pairs widow")
    play(deal, 3)
    out["widow-table"] = pictures.table_png(deal.observation(None), NAMES[:6],
                                            game.running_balances, title="Table 2 · widow")
    for preset, seats in (("oldway", 5), ("parlett", 4)):  # one column; lives, a footer
        game, deal = deal_of(preset, seats, f"pairs {preset}")
        play(deal, None)
        out[f"showdown-{preset}"] = pictures.showdown_png(deal.observation(None), NAMES[:seats])
    game, deal = deal_of("foster-more", 12, "pairs showdown")
    play(deal, None)
    obs = deal.observation(None)
    out["showdown-12"] = pictures.showdown_png(
        obs, NAMES, title="Showdown · deal 1",
        payments=[f"pool {d}" if d else "" for d in obs.delta])
    out["table-12"] = pictures.table_png(obs, NAMES, game.running_balances,
                                         title="Table 3 · Foster more · deal 1")
    return out


def compare(before: Path, after: Path, tolerance: int) -> int:
    worst = 0
    failed = False
    print(f"{'picture':<18}{'before KB':>10}{'after KB':>10}  {'pixels differing':>17}"
          f"{'max channel diff':>18}")
    for old in sorted(before.glob("*.png")):
        new = after / old.name
        a, b = Image.open(old).convert("RGB"), Image.open(new).convert("RGB")
        if a.size != b.size:
            print(f"{old.stem:<18} size {a.size} -> {b.size}")
            failed = True
            continue
        diff = ImageChops.difference(a, b)
        red, green, blue = diff.split()
        differing = sum(ImageChops.lighter(ImageChops.lighter(red, green), blue).histogram()[1:])
        most = max(max(
            i for i, count in enumerate(band.histogram()) if count) for band in (red, green, blue))
        worst = max(worst, most)
        failed |= most > tolerance
        print(f"{old.stem:<18}{old.stat().st_size / 1024:>10.1f}{new.stat().st_size / 1024:>10.1f}"
              f"  {differing:>17,}{most:>18}")
    print(f"largest channel difference {worst} (tolerance {tolerance}): "
          + ("DIFFERENT" if failed else "same"))
    return 1 if failed else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--save", type=Path, help="folder to save the set in")
    parser.add_argument("--compare", type=Path, nargs=2, metavar=("BEFORE", "AFTER"))
    parser.add_argument("--tolerance", type=int, default=0,
                        help="largest channel difference allowed (default 0)")
    args = parser.parse_args()
    if args.save:
        args.save.mkdir(parents=True, exist_ok=True)
        for name, png in pictures_now().items():
            Image.open(io.BytesIO(png)).load()  # a valid PNG
            (args.save / f"{name}.png").write_bytes(png)
            print(f"{name:<18}{len(png) / 1024:7.1f} KB")
    if args.compare:
        before, after = args.compare
        return compare(before, after, args.tolerance)
    return 0


if __name__ == "__main__":
    sys.exit(main())
