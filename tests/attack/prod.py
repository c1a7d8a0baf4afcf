# ruff: noqa: B905
"""A production-default game driver with events fired at chosen moments, and the
end's invariants (one showdown per deal, final standings once, no control left,
ledger zero, end shown, nothing kept in memory)."""

from __future__ import annotations

import random
from collections.abc import Callable

from bot.__main__ import build_bot
from tests.attack.common import env_channel, lobby_message
from tests.cogs.golden import PAUSE, answer, controls, offers_a_move, pick, title, to_answer
from tests.cogs.helpers import history, message_text, restart, rows

STALL = 1500.0


def current(env):
    return env.bot


async def setup_game(env, preset="foster", *, humans=("ann",), ai=2, nicks=None, **options):
    guild = env.create_guild()
    general = guild.create_text_channel("general")
    nicks = nicks or [None] * len(humans)
    actors = [guild.add_member(env.create_user(n), nick=k) for n, k in zip(humans, nicks)]
    res = await actors[0].slash(general, "commerce new", rules=preset, **options)
    text = res.followups[-1].content if res.followups else res.response.content
    assert "ready" in text, text
    live = env.bot.service.of_member(guild.id, actors[0].id)
    channel = env_channel(env, guild, live.row.channel_id)
    for a in actors[1:]:
        await env.advance_time(1)
        await a.click(lobby_message(env, channel), label="Join")
    for _ in range(ai):
        await env.advance_time(2)
        await actors[0].click(lobby_message(env, channel), label="Add AI")
    return guild, general, channel, actors, live.id


async def start_game(env, channel, host):
    await env.advance_time(2)
    await host.click(lobby_message(env, channel), label="Start")


def table_over(env, table_id) -> bool:
    service = env.bot.service
    return table_id not in service.tables and table_id not in service.ending


async def drive(env, channel, players, table_id, *, seed=1,
                until: Callable[[], bool] | None = None,
                step: float = 1.0) -> bool:
    """Play through members' clicks (``players``: those who act; the others time out)
    until ``until()`` holds (returns True) or the table is over (returns False)."""
    rng = random.Random(seed)
    idle = 0.0
    while not table_over(env, table_id):
        if until is not None and until():
            return True
        found = to_answer(history(env, channel), players) if players else None
        if found is None:
            await env.advance_time(step)
            idle += step
            assert idle < STALL, "the game stalled:\n" + "\n---\n".join(
                message_text(m) for m in channel.history()[-4:])
            continue
        actor, message = found
        try:
            if any(cid.startswith("commerce:answer") for cid, _ in controls(message)):
                await answer(actor, message, rng)
            else:
                await pick(actor, await actor.click(message, label="My hand"), rng)
        except (AssertionError, TimeoutError):
            pass  # a stale control, or a click that waits for the shown moves
        idle = 0.0
        await env.advance_time(PAUSE)
    return False


async def finish(env, table_id, seconds=60):
    for _ in range(int(seconds)):
        if table_over(env, table_id):
            break
        await env.advance_time(1)
    await env.advance_time(10)


async def check_end(env, guild, channel, table_id, *, status=None, deals_expected=None):
    """The invariants of an ended table; returns a list of problems (empty: none)."""
    problems = []
    bot = env.bot
    if not table_over(env, table_id):
        problems.append("the table is still open or its end still owed")
    [(st, shown, deals_done)] = await rows(
        bot, "SELECT status, end_shown, (SELECT COUNT(*) FROM deals d WHERE d.table_id = t.id"
             " AND d.status = 'finished') FROM tables t WHERE t.id = ?", (table_id,))
    if status is not None and st != status:
        problems.append(f"status {st}, expected {status}")
    if shown != 1:
        problems.append(f"end_shown = {shown}")
    [(total,)] = await rows(bot, "SELECT COALESCE(SUM(amount), 0) FROM ledger WHERE guild_id = ?",
                            (guild.id,))
    if total != 0:
        problems.append(f"ledger sums to {total}")
    me = bot.get_guild(guild.id)
    if me is not None and me.get_channel_or_thread(channel.id) is not None:
        shown = channel.history()
        shows: dict[int, int] = {}
        finals = 0
        for m in shown:
            t = title(m)
            if t.startswith("Showdown"):
                n = int(t.rsplit(" ", 1)[-1])
                shows[n] = shows.get(n, 0) + 1
            finals += t.startswith("Game over")
        if any(v != 1 for v in shows.values()):
            problems.append(f"showdowns per deal: {shows}")
        if deals_done and sorted(shows) != list(range(1, max(shows) + 1)):
            problems.append(f"showdowns {sorted(shows)} for {deals_done} settled deals")
        if deals_done and finals != 1:
            problems.append(f"{finals} final standings for {deals_done} deals")
        live = [message_text(m)[:120] for m in shown if offers_a_move(m)]
        if live:
            problems.append(f"controls left: {live}")
    problems += leftovers(bot, table_id)
    return problems


def leftovers(bot, table_id) -> list[str]:
    """Per-table entries the bot still keeps for ``table_id``."""
    holders = {"service": bot.service, "publisher": bot.publisher,
               "showing": bot.publisher.showing, "panels": bot.publisher.panels,
               "timers": bot.timers, "locks": bot.service.lock, "places": bot.publisher.places,
               "handlers": bot.handlers}
    kept = []
    for where, obj in holders.items():
        for attr, value in vars(obj).items():
            if isinstance(value, dict | set | list):
                for key in value:
                    first = key[0] if isinstance(key, tuple) and key else key
                    if first == table_id:
                        kept.append(f"{where}.{attr}[{key!r}]")
    return kept


async def restart_prod(env, bots, db_path):
    new = build_bot(db_path)
    bots.append(new)
    await restart(env, new)
    return new
