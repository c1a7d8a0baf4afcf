"""Issue 3 proof: restarts at random action boundaries (also between the commit of
an action and the answer to its interaction) never change a game's outcome."""

from __future__ import annotations

import random

import pytest

from tests.cogs.chaos import ChaosReport, chaos_game, check_against_replay


@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_restarted_games_equal_their_uninterrupted_replay(simcord_env, bots, make_bot,
                                                                seed):
    rng = random.Random(seed)
    report = ChaosReport()
    live, record, guild = await chaos_game(simcord_env, bots, make_bot, rng, report,
                                           lost_p=0.25)
    assert report.restarts >= 2 and report.actions >= 3
    assert report.lost_answers >= 1
    await check_against_replay(live, record, bots[-1].storage, guild.id)
