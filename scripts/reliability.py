"""Reliability figures for docs/RELIABILITY.md (issue 3), all offline.

    .venv/bin/python scripts/reliability.py [--games 20] [--fuzz-runs 6] [--fuzz-steps 150]

Runs chaos games (3 members each, the bot restarted at random action boundaries and
after lost answers), checks every result against an uninterrupted replay of its
stored record, audits each transcript for leaked cards, then fuzzes random members,
commands, clicks and races. Prints the figures; exits 1 if any check failed.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import simcord  # noqa: E402

from bot import create_bot  # noqa: E402
from tests.cogs.chaos import ChaosReport, chaos_game, check_against_replay  # noqa: E402
from tests.cogs.fuzz import FuzzReport, fuzz_run  # noqa: E402
from tests.cogs.helpers import CARD_LABEL, Table, public_leaks, rest_leaks  # noqa: E402


class LeakAudit(logging.Handler):
    """Counts log records (message and traceback text) that name a card."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records = 0
        self.leaks = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.records += 1
        text = record.getMessage() + (logging.Formatter().formatException(record.exc_info)
                                      if record.exc_info else "")
        if CARD_LABEL.search(text):
            self.leaks += 1


async def chaos(games: int, seed: int) -> tuple[ChaosReport, int, int]:
    report, leaks, matched = ChaosReport(), 0, 0
    rng = random.Random(seed)
    for _ in range(games):
        folder = Path(tempfile.mkdtemp(prefix="commerce-chaos-"))
        bots: list = []

        def make_bot(seed: int = 7, cooldown=None, _bots=bots, _folder=folder):
            bot = create_bot(db_path=_folder / "commerce.db", rng=random.Random(seed),
                             cooldown=cooldown, ai_pace=0)
            _bots.append(bot)
            return bot

        first = make_bot(seed=rng.randrange(1 << 30))
        try:
            async with simcord.run(first) as env:
                live, record, guild = await chaos_game(env, bots, make_bot, rng, report,
                                                       lost_p=0.2)
                await check_against_replay(live, record, bots[-1].storage, guild.id)
                matched += 1
                watcher = guild.add_member(env.create_user("watcher"))
                channel = guild.channels["commerce-1"]
                table = Table(env, bots, channel, {})
                leaks += len(public_leaks(table, watcher)) + len(rest_leaks(env, table))
        finally:
            for b in bots:
                await b.close_storage()
    return report, leaks, matched


async def fuzz(runs: int, steps: int, seed: int) -> FuzzReport:
    report = FuzzReport()
    rng = random.Random(seed)
    for _ in range(runs):
        await fuzz_run(Path(tempfile.mkdtemp(prefix="commerce-fuzz-")),
                       random.Random(rng.random()), steps, report)
    return report


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--fuzz-runs", type=int, default=6)
    parser.add_argument("--fuzz-steps", type=int, default=150)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    audit = LeakAudit()
    root = logging.getLogger()
    root.handlers[:] = [audit]
    root.setLevel(logging.DEBUG)
    t0 = time.perf_counter()
    report, leaks, matched = asyncio.run(chaos(args.games, args.seed))
    t1 = time.perf_counter()
    fz = asyncio.run(fuzz(args.fuzz_runs, args.fuzz_steps, args.seed))
    t2 = time.perf_counter()
    rows = [
        ("chaos games played", report.games),
        ("  results equal to an uninterrupted replay", f"{matched}/{report.games}"),
        ("  actions taken", report.actions),
        ("  restarts survived", report.restarts),
        ("  answers lost after commit (then restart)", report.lost_answers),
        ("  cards leaked before a showdown (messages, REST)", leaks),
        ("log records audited / naming a card", f"{audit.records} / {audit.leaks}"),
        ("fuzz runs / steps", f"{args.fuzz_runs} / {fz.steps}"),
        ("  interactions fuzzed (all acknowledged)", fz.interactions),
        ("  races tried (two events before settling)", fz.races),
        ("  stale controls clicked", fz.stale),
        ("  unhandled errors", len(fz.errors)),
        ("seconds (chaos, fuzz)", f"{t1 - t0:.0f}, {t2 - t1:.0f}"),
    ]
    width = max(len(k) for k, _ in rows)
    for key, value in rows:
        print(f"{key:<{width}}  {value}")
    print(f"\nreproduce: .venv/bin/python scripts/reliability.py --games {args.games} "
          f"--fuzz-runs {args.fuzz_runs} --fuzz-steps {args.fuzz_steps} --seed {args.seed}")
    ok = matched == report.games and leaks == 0 and audit.leaks == 0 and not fz.errors
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
