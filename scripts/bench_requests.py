"""Discord requests per move: what one member's move costs of Discord's global limit.

Discord lets one bot token make about 50 requests a second, every process and
shard together (answers to interactions, and their follow-ups and edits, do not
count). So the bot's capacity, whatever its number of processes, is about
``50 × seconds between two moves at a table ÷ requests per move`` busy tables.

For each preset, one member and two AI seats play a whole game at production
defaults (``bot.__main__.build_bot``: the AI's pace, the next-deal delay, the
turn timer) through the simulated Discord, by the public buttons only (the
driver of tests/cogs/golden.py); every request of the bot's token is counted
(``commerce_discord_requests_total``). Twice in the same run: with the AI moves
shown one at a time (the default), and with them merged into one edit, as the
bot does when it nears its share of the limit (``bot.publishing.showing.FRAME_SHARE``).

    .venv/bin/python scripts/bench_requests.py [--games 3] [--seconds-per-move 10]

The last line printed is ``BENCH-JSON {"requests": {...}}`` for ``scripts/bench``.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import statistics
import sys
import tempfile
import time
import types
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from discord.app_commands import checks as app_checks
from discord.ext.commands import cooldowns

from bot.__main__ import build_bot
from bot.engine import PRESETS
from bot.runtime.metrics import GLOBAL_LIMIT

#: Discord's global limit, requests a second (bot.runtime.metrics)
LIMIT = GLOBAL_LIMIT


def counted(bot: object) -> collections.Counter[str]:
    """Requests of the bot's token so far, by route."""
    out: collections.Counter[str] = collections.Counter()
    for metric in bot.metrics.requests.collect():  # type: ignore[attr-defined]
        for sample in metric.samples:
            if sample.name.endswith("_total"):
                out[sample.labels["route"]] += int(sample.value)
    return out


async def one_game(preset: str, merged: bool, seed: int, folder: Path) -> tuple[int, int,
                                                                              collections.Counter[str]]:
    """(member's moves, requests of the bot's token, by route) of one game."""
    import simcord

    from tests.cogs.golden import play_to_the_end

    bot = build_bot(folder / f"{preset}-{merged}-{seed}.db")
    bot.freeze_loaded = False  # many bots in one process
    bot.warm_ai = False
    env = simcord.Env(bot, settle_timeout=1.0)
    await env.start()
    try:
        with env.time_context():
            if merged:
                bot.publisher.showing.crowded = lambda: True
            guild = env.create_guild()
            general = guild.create_text_channel("general")
            ann = guild.add_member(env.create_user("ann"))
            await ann.slash(general, "commerce new", rules=preset)
            channel = guild.channels["commerce-1"]
            for _ in range(2):
                await ann.click(channel.history()[0], label="Add AI")
                await env.advance_time(2)
            await ann.click(channel.history()[0], label="Start")
            before = counted(bot)
            seen = await play_to_the_end(env, channel, [ann], seed=seed)
            await env.advance_time(10)
            used = counted(bot) - before
            return seen.moves, sum(used.values()), used
    finally:
        await env.shutdown()
        await bot.close_storage()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3, help="games per preset (default 3)")
    parser.add_argument("--seconds-per-move", type=float, default=10.0,
                        help="seconds between two moves at a busy table (default 10)")
    args = parser.parse_args()
    clock = types.SimpleNamespace(time=lambda: time.monotonic())
    cooldowns.time = clock  # type: ignore[assignment]
    app_checks.time = clock  # type: ignore[assignment]
    per_move: dict[bool, list[float]] = {False: [], True: []}
    routes: dict[bool, collections.Counter[str]] = {False: collections.Counter(),
                                                   True: collections.Counter()}
    moves_seen: dict[bool, int] = {False: 0, True: 0}
    print(f"{'preset':<13}{'moves':>7}{'requests':>10}{'per move':>10}"
          f"{'merged':>9}{'per move':>10}")
    with tempfile.TemporaryDirectory() as tmp:
        for preset in sorted(PRESETS):
            row = {}
            for merged in (False, True):
                moves = requests = 0
                for game in range(args.games):
                    m, r, used = asyncio.run(one_game(preset, merged, 100 + game, Path(tmp)))
                    moves, requests = moves + m, requests + r
                    routes[merged] += used
                moves_seen[merged] += moves
                per_move[merged].append(requests / max(moves, 1))
                row[merged] = (moves, requests)
            (m0, r0), (m1, r1) = row[False], row[True]
            print(f"{preset:<13}{m0:>7}{r0:>10}{r0 / max(m0, 1):>10.2f}"
                  f"{r1:>9}{r1 / max(m1, 1):>10.2f}")
    shown = statistics.median(per_move[False])
    merged = statistics.median(per_move[True])
    seconds = args.seconds_per_move
    print(f"\nmedian over the presets: {shown:.2f} requests per move with the AI moves shown one "
          f"at a time, {merged:.2f} merged (ratio merged/shown {merged / shown:.2f})")
    for name, figure in (("shown", shown), ("merged", merged)):
        tables = LIMIT * seconds / figure
        print(f"capacity ({name}): {LIMIT} requests/s × {seconds:g} s between moves ÷ "
              f"{figure:.2f} per move ≈ {tables:,.0f} busy tables, whatever the processes")
    print("\nrequests by route (AI moves shown, every game):")
    total = sum(routes[False].values())
    for route, n in routes[False].most_common():
        print(f"  {n:>6}  {100 * n / total:5.1f}%  {route}")
    print("BENCH-JSON " + json.dumps({"requests": {
        "per_move_shown": shown, "per_move_merged": merged,
        "ratio_merged_to_shown": merged / shown,
        "capacity_tables_shown": LIMIT * seconds / shown,
        "capacity_tables_merged": LIMIT * seconds / merged,
        "seconds_per_move": seconds}}))


if __name__ == "__main__":
    main()
