"""A fuzzer through SimCord: random members doing random commands and clicks in
random order (outsiders, stale controls, double clicks, concurrent events),
checking the invariants after every step."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import simcord

from bot import create_bot
from tests.cogs.helpers import custom_ids, emit_component, history

COMMANDS = ("commerce hand", "commerce join", "commerce leave", "commerce start",
            "commerce addbot", "commerce leaderboard", "commerce stats", "commerce end")


@dataclass
class FuzzReport:
    steps: int = 0
    interactions: int = 0
    races: int = 0
    stale: int = 0
    games_finished: int = 0
    errors: list[str] = field(default_factory=list)


def check_invariants(bot, report: FuzzReport) -> None:
    for live in bot.service.tables.values():
        game = live.game
        if game is None:
            continue
        deal = live.deal
        if deal is not None and not deal.voided:
            cards = deal.cards_in_play()
            assert sorted(cards) == list(range(52)), "52 distinct cards"
            assert all(len(h) == 3 for h in deal.hands)
        for d in game.deals:
            if d.showdown is not None:
                assert sum(d.delta) == 0, "every finished deal sums to zero"


async def fuzz_run(tmp_path, rng: random.Random, steps: int, report: FuzzReport) -> None:
    bot = create_bot(db_path=tmp_path / f"fuzz-{rng.random()}.db",
                     rng=random.Random(rng.random()), cooldown=None, ai_pace=0)
    try:
        async with simcord.run(bot) as env:
            guild = env.create_guild()
            general = guild.create_text_channel("general")
            members = [guild.add_member(env.create_user(n)) for n in ("ann", "ben", "cat", "dan")]
            await members[0].slash(general, "commerce new")
            table = guild.channels["commerce-1"]
            for m in members[1:3]:
                await m.slash(table, "commerce join")
            await members[0].slash(table, "commerce start")
            selects: list = []  # ephemeral responses holding a select, possibly stale
            for _ in range(steps):
                report.steps += 1
                who = rng.choice(members)
                roll = rng.random()
                try:
                    results = await _step(env, bot, table, who, members, roll, rng, selects,
                                          report)
                except simcord.SetupError:
                    continue  # the control is not there for this member: not a bot reply
                for res in results:
                    report.interactions += 1
                    assert res.acknowledged, "every interaction is acknowledged"
                errors = env.errors
                if errors:
                    report.errors += [repr(e) for e in errors]
                assert not errors, errors
                check_invariants(bot, report)
            report.games_finished += sum(
                1 for live in [bot.service.in_channel(table.id)] if live is None)
    finally:
        await bot.close_storage()


async def _step(env, bot, table, who, members, roll, rng, selects, report):
    with_buttons = [m for m in history(env, table) if m.components]
    if roll < 0.45 and with_buttons:
        # click any live control of any public message (stale ones included)
        msg = rng.choice(with_buttons[-4:])
        ids = [c for c in custom_ids(msg) if c]
        if not ids:
            return []
        cid = rng.choice(ids)
        if cid != custom_ids(with_buttons[-1])[0]:
            report.stale += 1
        res = await who.click(msg, custom_id=cid)
        if res.response is not None and res.ephemeral and res.response.components:
            selects.append((who, res))
        return [res]
    if roll < 0.65 and selects:
        return await _use_panel(rng, selects)
    if roll < 0.75 and with_buttons:
        # a double click, or two members at once: two events before the bot settles
        msg = with_buttons[-1]
        ids = custom_ids(msg)
        if not ids:
            return []
        other = rng.choice(members)
        results = [emit_component(env, who, msg, rng.choice(ids)),
                   emit_component(env, other, msg, rng.choice(ids))]
        await env.settle()
        report.races += 1
        return results
    if roll < 0.9:
        name = rng.choice(COMMANDS[:-1] if rng.random() < 0.9 else COMMANDS)
        return [await who.slash(table, name)]
    await env.advance_time(rng.choice([5, 31, 61, 121]))
    return []


async def _use_panel(rng, selects):
    """One of the menus or buttons of a private panel seen before (possibly
    replaced since, hence deleted, or out of date)."""
    owner, res = rng.choice(selects[-5:])
    if res.response is None:
        return []  # the panel was replaced: its controls are gone
    parts = [c for row in res.response.components for c in row["components"]]
    if not parts:
        return []
    part = rng.choice(parts)
    if part.get("type") == 2:
        return [await owner.click(res.response, custom_id=part["custom_id"])]
    options = [o["value"] for o in part.get("options", [])]
    if not options:
        return []
    return [await owner.select(res.response, [rng.choice(options)], custom_id=part["custom_id"])]
