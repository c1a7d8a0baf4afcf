"""Class 1: every game ends at production defaults (``build_bot``: AI pace 1.5 s,
turn timer 120 s, next deal 30 s, cooldown), with several members of whom some
play, some never act (time out, marked away) and some leave the server."""

from __future__ import annotations

import pytest

from tests.attack.common import SETTLE
from tests.attack.prod import check_end, drive, finish, setup_game, start_game

pytestmark = [pytest.mark.prod, pytest.mark.simcord(settle_timeout=SETTLE)]

GAMES = [
    ("foster", {"deals_per_player": 1}),
    ("hoyle", {"deals_per_player": 1}),
    ("parlett", {"deals_per_player": 1}),
    ("foster-more", {"deals_per_player": 1}),
    ("widow", {"deals_per_player": 1}),
    ("oldway", {}),
    ("oldway", {"pounce": True}),
    ("jaques", {"chips": 2}),
    ("jaques", {"fixed_rounds": 2, "direct_trading": True}),
    ("jaques", {"chips": 3, "open_trading": True, "dead_knock": True}),
    ("jaques", {"chips": 3, "three_stake": True}),
]


@pytest.mark.parametrize("preset,options", GAMES, ids=[f"{p}-{'-'.join(o)}" for p, o in GAMES])
async def test_a_game_with_an_idle_member_and_one_who_leaves_ends(simcord_env, preset, options):
    env = simcord_env
    guild, general, channel, (ann, ben, cat), table_id = await setup_game(
        env, preset, humans=("ann", "ben", "cat"), ai=1, **options)
    await start_game(env, channel, ann)
    moves = {"n": 0}

    def cat_leaves() -> bool:
        moves["n"] += 1
        return moves["n"] == 6

    # ann and cat play; ben never acts
    if await drive(env, channel, [ann, cat], table_id, seed=3, until=cat_leaves):
        guild.remove_member(cat)
        await drive(env, channel, [ann], table_id, seed=4)
    await finish(env, table_id)
    problems = await check_end(env, guild, channel, table_id, status="finished")
    assert problems == []
    env.errors  # noqa: B018


@pytest.mark.parametrize("preset,options", [("foster", {"deals_per_player": 1}),
                                            ("oldway", {"pounce": True}),
                                            ("widow", {"deals_per_player": 1}),
                                            ("jaques", {"chips": 2, "direct_trading": True})],
                         ids=["foster", "oldway", "widow", "jaques"])
async def test_a_game_whose_members_all_go_away_ends(simcord_env, preset, options):
    """The host starts and nobody ever clicks again (both members walk away)."""
    env = simcord_env
    guild, general, channel, (ann, ben), table_id = await setup_game(
        env, preset, humans=("ann", "ben"), ai=1, **options)
    await start_game(env, channel, ann)
    await drive(env, channel, [], table_id, seed=1, step=5.0)
    await finish(env, table_id)
    problems = await check_end(env, guild, channel, table_id, status="finished")
    assert problems == []
    env.errors  # noqa: B018
