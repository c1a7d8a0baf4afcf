"""Issue 24 §2: the daily deal's seeds and plays in storage (``bot/storage/daily.py``),
on both backends: a day's seed is written once and kept, a play is begun once, a
move is written only at the play's own move count, and the board reads finished
plays only."""

from __future__ import annotations

from bot.storage import AnyStorage

GUILD, OTHER = 1001, 1002
ANN, BEN, CAT = 11, 12, 13
DAY = 20790
SEED_A, SEED_B = "a" * 64, "b" * 64
COMMIT_A, COMMIT_B = "c" * 64, "d" * 64


async def test_a_days_seed_is_written_once_and_kept(store: AnyStorage):
    assert await store.stored_daily_seed(DAY) is None
    first = await store.daily_seed(DAY, SEED_A, COMMIT_A)
    again = await store.daily_seed(DAY, SEED_B, COMMIT_B)  # a second draw keeps the first
    assert (first.seed, first.commitment) == (again.seed, again.commitment) == (SEED_A, COMMIT_A)
    stored = await store.stored_daily_seed(DAY)
    assert stored is not None and stored.seed == SEED_A
    other = await store.daily_seed(DAY + 1, SEED_B, COMMIT_B)
    assert other.seed == SEED_B


async def test_a_play_is_begun_once_and_moves_are_written_at_their_count(store: AnyStorage):
    await store.daily_seed(DAY, SEED_A, COMMIT_A)
    play, new = await store.begin_daily_play(GUILD, DAY, ANN, "Ann")
    assert new and play.seq == 0 and play.moves == [] and play.result is None
    again, new = await store.begin_daily_play(GUILD, DAY, ANN, "Ann again")
    assert not new and again.name == "Ann"
    move = {"kind": "trade", "seat": 1, "card": "Kd"}
    assert await store.save_daily_moves(GUILD, DAY, ANN, 0, [move], None)
    assert not await store.save_daily_moves(GUILD, DAY, ANN, 0, [move, move], None)  # stale
    assert await store.save_daily_moves(GUILD, DAY, ANN, 1, [move, move], -2)
    done = await store.daily_play(GUILD, DAY, ANN)
    assert done is not None and (done.seq, done.result, done.moves) == (2, -2, [move, move])
    # a finished play takes no more moves
    assert not await store.save_daily_moves(GUILD, DAY, ANN, 2, [move] * 3, 5)
    assert await store.daily_play(GUILD, DAY, BEN) is None


async def test_the_board_reads_the_finished_plays_of_one_guild_and_day(store: AnyStorage):
    await store.daily_seed(DAY, SEED_A, COMMIT_A)
    await store.daily_seed(DAY + 1, SEED_B, COMMIT_B)
    for guild, day, member, result in ((GUILD, DAY, ANN, 3), (GUILD, DAY, BEN, None),
                                       (OTHER, DAY, CAT, 7), (GUILD, DAY + 1, BEN, 1)):
        await store.begin_daily_play(guild, day, member, f"m{member}")
        if result is not None:
            assert await store.save_daily_moves(guild, day, member, 0, [], result)
    assert await store.daily_results(GUILD, DAY) == [(ANN, "m11", 3)]
    assert await store.daily_results(OTHER, DAY) == [(CAT, f"m{CAT}", 7)]
    assert await store.daily_results(GUILD, DAY + 1) == [(BEN, "m12", 1)]


async def test_a_member_begins_a_day_in_one_guild_only(store: AnyStorage):
    """The same cards are dealt in every guild: a second guild's game of the same
    day is not begun (None, nothing written), whatever came first; another day is."""
    await store.daily_seed(DAY, SEED_A, COMMIT_A)
    await store.daily_seed(DAY + 1, SEED_B, COMMIT_B)
    begun = await store.begin_daily_play(GUILD, DAY, ANN, "Ann")
    assert begun is not None and begun[1]
    assert await store.begin_daily_play(OTHER, DAY, ANN, "Ann") is None
    assert await store.daily_play(OTHER, DAY, ANN) is None
    again = await store.begin_daily_play(GUILD, DAY, ANN, "Ann")
    assert again is not None and not again[1]
    tomorrow = await store.begin_daily_play(OTHER, DAY + 1, ANN, "Ann")
    assert tomorrow is not None and tomorrow[1]
