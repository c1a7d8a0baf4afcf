"""A chaos driver: games where the bot restarts at random action boundaries,
sometimes right after committing an action and before answering it."""

from __future__ import annotations

import random
from dataclasses import dataclass

from bot.engine import replay
from tests.cogs.helpers import history, open_table, restart

LOST_ANSWER = dict(status=404, code=10062, message="Unknown interaction", times=1)


@dataclass
class ChaosReport:
    actions: int = 0
    restarts: int = 0
    lost_answers: int = 0
    games: int = 0


async def chaos_game(env, bots, make_bot, rng: random.Random, report: ChaosReport,
                     restart_p: float = 0.15, lost_p: float = 0.1, names=("ann", "ben", "cat")):
    """Play one complete 3-player game with restarts; returns (live summary, record)."""
    guild, table, actors, lobby = await open_table(env, bots, names)
    await actors[0].click(lobby, label="Start")
    seed = rng.randrange(1 << 30)
    while True:
        live = table.live
        deal = live.deal
        if deal.finished:
            if live.game.complete:
                break
            showdown = next(m for m in reversed(history(env, table.channel))
                            if m.embeds and m.embeds[0].title.startswith("Showdown")
                            and m.components)
            await actors[rng.randrange(3)].click(showdown, label="Next deal")
            continue
        if rng.random() < restart_p:
            await restart(env, make_bot(seed=seed))
            report.restarts += 1
            live = table.live
        actor = table.actor_to_act()
        lost = rng.random() < lost_p  # the action's answer is lost after its commit
        ops_before = len(table.live.deal.operations)
        if deal.pending is not None:
            if rng.random() < 0.75:
                await _accept(env, table, actor, lost)
            else:
                _lose_next_answer(env, lost)
                await table.refuse(actor)
        else:
            choice = rng.choices(["trade", "barter", "knock"], weights=[5, 3, 1])[0]
            if choice == "trade" and deal.stock:
                await _select(env, table, actor, "Trade", lost)
            elif choice == "barter":
                await _select(env, table, actor, "Barter", lost)
            else:
                _lose_next_answer(env, lost)
                await table.knock(actor)
        report.actions += 1
        if lost:
            env.errors  # noqa: B018 — the lost answer was handled
            report.lost_answers += 1
            assert len(table.live.deal.operations) == ops_before + 1  # committed anyway
            await restart(env, make_bot(seed=seed))  # crash before anything else happens
            report.restarts += 1
            if not table.live.game.complete:  # the lost answer is recoverable
                res = await actor.slash(table.channel, "commerce hand")
                assert res.ephemeral and "Your hand" in res.response.content
    report.games += 1
    live = table.live
    record = await table.bot.service.archive.record(live.id)
    return live, record, guild


def _lose_next_answer(env, lost: bool) -> None:
    if lost:
        env.inject_error("POST", "/interactions/*/callback", **LOST_ANSWER)


async def _select(env, table, actor, label: str, lost: bool):
    res = await actor.click(table.table_message(), label=label)
    _lose_next_answer(env, lost)
    values = [o["value"] for row in res.response.components for c in row["components"]
              for o in c.get("options", [])]
    await actor.select(res.response, [values[0]])


async def _accept(env, table, actor, lost: bool):
    offer = table.offer_message(actor)
    res = await actor.click(offer, label="Accept")
    _lose_next_answer(env, lost)
    values = [o["value"] for row in res.response.components for c in row["components"]
              for o in c.get("options", [])]
    await actor.select(res.response, [values[-1]])


async def check_against_replay(live, record, storage, guild_id):
    """The live outcome equals an uninterrupted replay of the stored record."""
    replayed = replay(record)
    assert replayed.summary() == live.game.summary()
    assert replayed.complete and replayed.winners == live.game.winners
    seats = await storage.seats(live.id)
    board, _ = await storage.leaderboard(guild_id, 0, 100)
    balances = dict(board)
    for s in seats:
        assert balances[s.member_id] == replayed.ledger[s.seat]
    assert await storage.guild_ledger_sum(guild_id) == 0
