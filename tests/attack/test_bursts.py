# ruff: noqa: B023
"""Class 5: bursts of 429 / 5xx on every message kind, some lasting minutes, through
whole games at production defaults; once Discord takes requests again every public
message must be up to date, once, with no control left over."""

from __future__ import annotations

import random

import pytest

from tests.attack.common import SETTLE
from tests.attack.prod import check_end, drive, finish, setup_game, start_game, table_over

pytestmark = [pytest.mark.prod, pytest.mark.simcord(settle_timeout=SETTLE)]

PATHS = ["/channels/*/messages", "/channels/*/messages/*", "/webhooks/*/*/messages/*",
         "/channels/*/permissions/*"]


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("preset,options", [("foster", {"deals_per_player": 1}),
                                            ("jaques", {"chips": 3, "direct_trading": True})],
                         ids=["foster", "jaques"])
async def test_bursts_come_and_go_through_a_game(simcord_env, preset, options, seed):
    env = simcord_env
    rng = random.Random(seed)
    guild, general, channel, (ann, ben), table_id = await setup_game(
        env, preset, humans=("ann", "ben"), ai=1, **options)
    await start_game(env, channel, ann)
    bursts = 0
    while not table_over(env, table_id) and bursts < 12:
        budget = {"n": rng.randrange(3, 30)}

        def tick() -> bool:
            budget["n"] -= 1
            return budget["n"] <= 0

        await drive(env, channel, [ann, ben], table_id, seed=rng.randrange(99), until=tick)
        if table_over(env, table_id):
            break
        status = rng.choice([429, 500, 502, 503])
        for path in rng.sample(PATHS, rng.randrange(1, len(PATHS) + 1)):
            env.inject_error(rng.choice(["POST", "PATCH", "PUT", "*"]), path, status=status,
                             message="refused", times=None)
        await env.advance_time(rng.choice([3, 10, 45, 120, 300]))
        env.backend.faults.clear()
        bursts += 1
    await drive(env, channel, [ann, ben], table_id, seed=seed)
    await finish(env, table_id, 120)
    problems = await check_end(env, guild, channel, table_id, status="finished")
    assert problems == [], (bursts, problems)
    env.errors  # noqa: B018
