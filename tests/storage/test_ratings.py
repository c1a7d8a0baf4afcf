"""Issue 24: skill ratings and seasons in storage (``bot/storage/ratings.py``), on
both backends: a game is rated once, with the unit that finishes it (no call of its
own), an AI level seated twice counts one game, and seasons keep their ratings and
their points apart."""

from __future__ import annotations

import pytest

from bot.service.skill import rate
from bot.storage import AnyStorage, LedgerEntry
from bot.storage.ratings import Player, SkillRow

GUILD = 1001
ANN, BEN, CAT = 11, 12, 13


async def finished_table(store: AnyStorage, members: list[int | None], guild: int = GUILD,
                         preset: str = "foster"):
    table = await store.create_table(guild, 500, ANN, preset, {}, 30)
    for i, member in enumerate(members):
        await store.add_seat(table.id, member, f"P{i}")
    await store.start_game(table.id, first_dealer=0)
    return table


async def finish_and_rate(store: AnyStorage, table, players: list[Player], ranks: list[int],
                          guild: int = GUILD, preset: str = "foster") -> None:
    async with store.atomic():
        await store.finish_game(table.id, [0], "finished")
        await store.rate_game(table.id, guild, preset, players, ranks, rate)


def by_player(rows: list[SkillRow]) -> dict[Player, SkillRow]:
    return {r.player: r for r in rows}


async def test_a_finished_game_rates_its_players_once(store: AnyStorage):
    table = await finished_table(store, [ANN, BEN, CAT])
    players = [Player(ANN), Player(BEN), Player(CAT)]
    await finish_and_rate(store, table, players, [1, 2, 2])
    board = await store.skill_board(GUILD, 1, "foster")
    assert [r.player for r in board] == [Player(ANN), Player(BEN), Player(CAT)]
    rows = by_player(board)
    assert rows[Player(ANN)].mu > 25 > rows[Player(BEN)].mu
    assert rows[Player(BEN)].mu == pytest.approx(rows[Player(CAT)].mu)  # a tie moves alike
    assert all(r.games == 1 and r.sigma < 25 / 3 for r in board)
    # the same game again changes nothing
    await store.rate_game(table.id, GUILD, "foster", players, [3, 2, 1], rate)
    assert await store.skill_board(GUILD, 1, "foster") == board
    assert await store.skill_board(GUILD, 1, "hoyle") == []
    assert await store.rated_presets(GUILD, 1) == ["foster"]


async def test_the_rating_costs_no_call_of_its_own(store: AnyStorage):
    plain = await finished_table(store, [ANN, BEN])
    before = store.round_trips
    async with store.atomic():
        await store.finish_game(plain.id, [0], "finished")
    alone = store.round_trips - before
    rated = await finished_table(store, [ANN, BEN])
    before = store.round_trips
    await finish_and_rate(store, rated, [Player(ANN), Player(BEN)], [1, 2])
    assert store.round_trips - before == alone
    assert len(await store.skill_board(GUILD, 1, "foster")) == 2


async def test_a_unit_that_fails_rates_nothing_and_the_game_can_be_rated_after(store: AnyStorage):
    table = await finished_table(store, [ANN, BEN])
    with pytest.raises(RuntimeError):
        async with store.atomic():
            await store.finish_game(table.id, [0], "finished")
            await store.rate_game(table.id, GUILD, "foster", [Player(ANN), Player(BEN)],
                                  [1, 2], rate)
            raise RuntimeError("the commit never comes")
    assert await store.skill_board(GUILD, 1, "foster") == []
    await finish_and_rate(store, table, [Player(ANN), Player(BEN)], [1, 2])
    assert [r.games for r in await store.skill_board(GUILD, 1, "foster")] == [1, 1]


async def test_an_ai_level_seated_twice_counts_one_game(store: AnyStorage):
    table = await finished_table(store, [ANN, None, None])
    strong = Player(0, "strong")
    await finish_and_rate(store, table, [Player(ANN), strong, strong], [3, 1, 2])
    rows = by_player(await store.skill_board(GUILD, 1, "foster"))
    assert set(rows) == {Player(ANN), strong}
    assert rows[strong].games == 1 and rows[strong].mu > 25 > rows[Player(ANN)].mu
    after = rate([None, None, None], [3, 1, 2])
    assert rows[strong].mu == pytest.approx((after[1][0] + after[2][0]) / 2)
    assert rows[strong].sigma == pytest.approx((after[1][1] + after[2][1]) / 2)


async def test_bad_players_or_ranks_are_refused(store: AnyStorage):
    table = await finished_table(store, [ANN, BEN])
    for players, ranks in (([], []), ([Player(ANN)], [1, 2])):
        with pytest.raises(ValueError):
            await store.rate_game(table.id, GUILD, "foster", players, ranks, rate)


async def test_seasons_keep_ratings_and_points_apart(store: AnyStorage):
    assert await store.current_season(GUILD) == 1
    first = await finished_table(store, [ANN, BEN])
    await store.add_ledger(GUILD, first.id, None, [LedgerEntry(0, ANN, 5, "pot"),
                                                   LedgerEntry(1, BEN, -5, "pot")])
    await finish_and_rate(store, first, [Player(ANN), Player(BEN)], [1, 2])
    assert await store.start_season(GUILD, BEN) == 2
    assert await store.current_season(GUILD) == 2 and await store.current_season(7) == 1
    second = await finished_table(store, [ANN, BEN])
    await store.add_ledger(GUILD, second.id, None, [LedgerEntry(0, ANN, -3, "pot"),
                                                    LedgerEntry(1, BEN, 3, "pot")])
    await finish_and_rate(store, second, [Player(ANN), Player(BEN)], [2, 1])
    one, two = await store.seasons(GUILD)
    assert (one.number, one.started_at, one.ledger_after) == (1, None, 0)
    assert one.ledger_until == two.ledger_after and two.ledger_until is None
    assert two.started_by == BEN and two.started_at is not None
    # ratings: each season its own, from scratch
    old = by_player(await store.skill_board(GUILD, 1, "foster"))
    new = by_player(await store.skill_board(GUILD, 2, "foster"))
    assert old[Player(ANN)].mu > 25 and new[Player(ANN)].mu < 25
    assert all(r.games == 1 for r in (*old.values(), *new.values()))
    # points: each season's rows only; a reset in season 2 leaves season 1 as it was
    window_one = (one.ledger_after, one.ledger_until)
    window_two = (two.ledger_after, two.ledger_until)
    assert await store.leaderboard(GUILD, 0, 10, window=window_one) == ([(ANN, 5), (BEN, -5)], 2)
    assert await store.leaderboard(GUILD, 0, 10, window=window_two) == ([(BEN, 3), (ANN, -3)], 2)
    assert await store.leaderboard(GUILD, 0, 10) == ([(ANN, 2), (BEN, -2)], 2)
    await store.reset_ledger(GUILD, BEN)
    assert await store.leaderboard(GUILD, 0, 10, window=window_one) == ([(ANN, 5), (BEN, -5)], 2)
    assert await store.leaderboard(GUILD, 0, 10, window=window_two) == ([(ANN, 0), (BEN, 0)], 2)
