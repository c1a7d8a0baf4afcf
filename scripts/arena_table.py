"""Run a list of arena matches and print docs/AI.md's strength table from them.

Each job is ``preset:policies:decks`` with an optional ``:games`` (whole games,
``run_arena(..., games=True)``), e.g. ``foster:strong,threshold:60`` or
``hoyle:strong,threshold,easy:20:games``. For every job it prints the arena's
report and one markdown row per opponent of ``strong``: the paired per-deck
difference ``strong - opponent`` with its 95% interval. Prints figures only.
Heavy (``strong`` and ``flat`` search at every decision): run it under
``nice`` on a shared machine::

    nice -n 15 .venv/bin/python scripts/arena_table.py --seed 11 JOB [JOB ...]

With ``--checkpoint DIR`` the decks are played one at a time and each deck's
scores are appended to a file of ``DIR`` (one per preset, policies, mode, seed
and playouts): a
stopped run resumes where it stopped, ``--first K`` lets a second process play
decks from ``K`` on into the same file, and after every deck the rows are
printed for the decks done so far, named as ranges (deck ``i`` is the same in
every run of a seed, so decks ``0-k`` are the figures of the job run at once
with ``k+1`` decks, and ``a-b`` those of ``--first a`` with ``b+1`` decks).
``--report`` prints those rows from the files without playing.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.engine.arena import ARENA_PLAYOUTS, Interval, run_arena


def rows_of(preset: str, names: list[str], per_deck: dict[str, list[float]], games: bool,
            deals_per_unit: float) -> list[str]:
    """One markdown row per opponent of ``strong`` (``easy`` left out)."""
    easy = "with easy" if "easy" in names else "without easy"
    mode = f"per game ({deals_per_unit:.1f} deals)" if games else "per deal"
    decks = len(per_deck[names[0]])
    rows = []
    for other in dict.fromkeys(names):
        if other in ("strong", "easy") or "strong" not in names:
            continue
        interval = Interval.of([a - b for a, b in zip(per_deck["strong"], per_deck[other],
                                                       strict=True)])
        low, high = interval.low, interval.high
        verdict = ("too few decks" if decks < 2 else "above zero" if low > 0
                   else "below zero" if high < 0 else "straddles zero")
        rows.append(f"| `{preset}` | `{other}` | {easy} | {mode} | {decks} "
                    f"| {interval.text()} | {verdict} |")
    return rows


def pairs_text(names: list[str], per_deck: dict[str, list[float]]) -> str:
    """Every policy's mean and every pair's paired difference."""
    unique = list(dict.fromkeys(names))
    lines = [f"  {p}: {Interval.of(per_deck[p]).text()}" for p in unique]
    for i, a in enumerate(unique):
        for b in unique[i + 1:]:
            diffs = [x - y for x, y in zip(per_deck[a], per_deck[b], strict=True)]
            lines.append(f"  {a} - {b}: {Interval.of(diffs).text()}")
    return "\n".join(lines)


def spans(numbers: list[int]) -> str:
    """``0-9, 20-24, 30``: sorted deck numbers as ranges."""
    out: list[str] = []
    start = prev = numbers[0]
    for n in [*numbers[1:], -2]:
        if n != prev + 1:
            out.append(f"{start}" if start == prev else f"{start}-{prev}")
            start = n
        prev = n
    return ", ".join(out)


def checkpointed(job: str, args: argparse.Namespace) -> list[str]:
    """Play ``job`` deck by deck into its checkpoint file; its rows."""
    preset, policies, decks, *rest = job.split(":")
    games = rest == ["games"]
    names = policies.split(",")
    kind = "_games" if games else ""
    path = Path(args.checkpoint) / f"{preset}_{policies.replace(',', '-')}{kind}" \
        f"_s{args.seed}_p{args.playouts}.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)

    def done() -> dict[int, dict[str, Any]]:
        if not path.exists():
            return {}
        records = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
        return {int(r["deck"]): r for r in records}

    def rows() -> list[str]:
        records = done()
        decks_done = sorted(i for i in records if i < int(decks))
        if not decks_done:
            return []
        unique = list(dict.fromkeys(names))
        per_deck = {p: [float(records[i]["scores"][p]) for i in decks_done] for p in unique}
        units = sum(float(records[i]["deals"]) for i in decks_done) / len(decks_done)
        print(f"{job}: decks {spans(decks_done)}\n{pairs_text(names, per_deck)}", flush=True)
        out = rows_of(preset, names, per_deck, games, units)
        print("\n".join(out), flush=True)
        return out

    if not args.report:
        for index in range(args.first, int(decks)):
            if index in done():
                continue
            start = time.perf_counter()
            report = run_arena(preset, names, 1, args.seed, playouts=args.playouts, games=games,
                               first=index)
            record = {"deck": index, "deals": report.deals_per_unit,
                      "scores": {p: v[0] for p, v in report.per_deck.items()},
                      "seconds": round(time.perf_counter() - start, 1)}
            with path.open("a") as handle:
                handle.write(json.dumps(record) + "\n")
            print(f"{job}: deck {index} ({record['seconds']} s)", flush=True)
            rows()
    return rows()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("jobs", nargs="+", help="preset:policies:decks[:games]")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--playouts", type=int, default=ARENA_PLAYOUTS)
    parser.add_argument("--checkpoint", help="a folder: play deck by deck, resumable")
    parser.add_argument("--first", type=int, default=0, help="with --checkpoint: the first deck")
    parser.add_argument("--report", action="store_true",
                        help="with --checkpoint: print the rows of the decks done, play none")
    args = parser.parse_args()
    if (args.first or args.report) and not args.checkpoint:
        parser.error("--first and --report need --checkpoint")
    rows = []
    for job in args.jobs:
        if args.checkpoint:
            rows += checkpointed(job, args)
            continue
        preset, policies, decks, *rest = job.split(":")
        games = rest == ["games"]
        names = policies.split(",")
        start = time.perf_counter()
        report = run_arena(preset, names, int(decks), args.seed, playouts=args.playouts,
                           games=games)
        print(report.text())
        print(f"({time.perf_counter() - start:.0f} s)", flush=True)
        per_deck = {p: list(v) for p, v in report.per_deck.items()}
        new = rows_of(preset, names, per_deck, games, report.deals_per_unit)
        print("\n".join(new), flush=True)
        rows += new
    print()
    print("| preset | opponent | table | mode | decks | strong − opponent [95% CI] | interval |")
    print("|---|---|---|---|---:|---:|---|")
    print("\n".join(rows))


if __name__ == "__main__":
    main()
