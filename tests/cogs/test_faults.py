"""Fault injection (tests/cogs/faults.py): a seeded sample of failing commits in
scripted games of every rule family; scripts/faults.py makes every commit fail in
turn and prints the figures quoted in docs/RELIABILITY.md."""

from __future__ import annotations

import pytest

from tests.cogs.faults import GAMES, faulty_game


@pytest.mark.parametrize("family", list(GAMES))
async def test_scripted_game_without_faults(simcord_env, bots, make_bot, family):
    out = await faulty_game(simcord_env, bots, make_bot, family, None)
    assert out.problems == []
    assert out.complete and not out.fired
    assert out.commits > 10


#: a seeded sample of (family, N, restart after the fault); scripts/faults.py tries every N
SAMPLE = [(family, n, n % 2 == 1) for family in GAMES for n in range(1, 26, 4)]


@pytest.mark.parametrize(("family", "fail_at", "restart"), SAMPLE)
async def test_nth_commit_fails(simcord_env, bots, make_bot, family, fail_at, restart):
    out = await faulty_game(simcord_env, bots, make_bot, family, fail_at,
                            restart_after_fault=restart)
    assert out.problems == []
    assert out.complete
    if fail_at <= out.commits - 1:
        assert out.fired
        assert out.restarts == int(restart)
