# ruff: noqa: B023
"""Class 1: restarts at random moments of production-default games (helpers.restart:
the process dies, a fresh bot starts on the same database)."""

from __future__ import annotations

import random

import pytest

from tests.attack.common import SETTLE
from tests.attack.prod import check_end, drive, finish, restart_prod, setup_game, start_game, table_over

pytestmark = [pytest.mark.prod, pytest.mark.simcord(settle_timeout=SETTLE)]

CASES = [("foster", {"deals_per_player": 1}), ("hoyle", {"deals_per_player": 1}),
         ("widow", {"deals_per_player": 1}), ("oldway", {"pounce": True}),
         ("jaques", {"chips": 3, "open_trading": True}), ("jaques", {"fixed_rounds": 2})]


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("preset,options", CASES, ids=[f"{p}-{'-'.join(o)}" for p, o in CASES])
async def test_restarts_at_random_moments_then_the_game_ends(simcord_env, bots, db_path, preset,
                                                            options, seed):
    env = simcord_env
    rng = random.Random(seed * 31 + len(preset))
    guild, general, channel, (ann, ben), table_id = await setup_game(
        env, preset, humans=("ann", "ben"), ai=1, **options)
    await start_game(env, channel, ann)
    restarts = 0
    for _ in range(6):
        budget = {"n": rng.randrange(1, 25)}

        def tick() -> bool:
            budget["n"] -= 1
            return budget["n"] <= 0

        # ben plays only now and then: otherwise the turn timer plays for him
        players = [ann, ben] if rng.random() < 0.7 else [ann]
        if not await drive(env, channel, players, table_id, seed=rng.randrange(99), until=tick,
                           step=rng.choice([0.25, 0.5, 1.0])):
            break
        await env.advance_time(rng.choice([0, 0.3, 0.75, 1.2]))
        if table_over(env, table_id):
            break
        await restart_prod(env, bots, db_path)
        restarts += 1
    await drive(env, channel, [ann, ben], table_id, seed=seed)
    await finish(env, table_id)
    problems = await check_end(env, guild, channel, table_id, status="finished")
    assert problems == [], (restarts, problems)
    env.errors  # noqa: B018
