"""Issue 24 §3 and §4 in storage (``bot/storage/reviews.py``), on both backends: a
review is stored once and its figures make the trend; a timed turn keeps its start
and lets exactly one reminder through."""

from __future__ import annotations

from bot.storage import AnyStorage, ReviewRow

GUILD = 1001
ANN, BEN = 11, 12


async def ended_table(store: AnyStorage, members: list[int | None], status: str = "finished"):
    table = await store.create_table(GUILD, 500, ANN, "foster", {}, 30)
    for i, member in enumerate(members):
        await store.add_seat(table.id, member, f"P{i}")
    await store.start_game(table.id, first_dealer=0)
    await store.finish_game(table.id, [0], status)
    return table


async def test_a_review_is_stored_once_and_makes_the_trend(store: AnyStorage):
    first = await ended_table(store, [ANN, BEN])
    second = await ended_table(store, [ANN, None])
    assert await store.latest_game_of(GUILD, ANN) == second.id
    assert await store.latest_game_of(GUILD, BEN) == first.id
    assert await store.latest_game_of(GUILD, 99) is None
    assert await store.review(first.id, ANN) is None
    lines = [{"deal": 1, "did": "knock"}]
    await store.save_review(GUILD, ReviewRow(first.id, ANN, 4, 3, 1.25, lines))
    await store.save_review(GUILD, ReviewRow(first.id, ANN, 9, 0, 9.0, []))  # kept: the first
    await store.save_review(GUILD, ReviewRow(second.id, ANN, 2, 1, 0.0, []))
    await store.save_review(GUILD, ReviewRow(second.id, BEN, 0, 0, 0.0, []))
    got = await store.review(first.id, ANN)
    assert got == ReviewRow(first.id, ANN, 4, 3, 1.25, lines)
    assert got.accuracy == 0.75
    assert await store.accuracy_trend(GUILD, ANN, 10) == [(first.id, 0.75), (second.id, 0.5)]
    assert await store.accuracy_trend(GUILD, ANN, 1) == [(second.id, 0.5)]
    assert await store.accuracy_trend(GUILD, BEN, 10) == []  # no decision: no figure


async def test_a_timed_turn_keeps_its_start_and_reminds_once(store: AnyStorage):
    table = await ended_table(store, [ANN, BEN])
    moment = await store.turn_moment(table.id, 1, 4, 0, "2026-01-01T10:00:00+00:00")
    again = await store.turn_moment(table.id, 1, 4, 0, "2026-01-01T12:00:00+00:00")
    assert moment == again and moment.started_at == "2026-01-01T10:00:00+00:00"
    assert moment.reminded_at is None
    assert await store.claim_reminder(table.id, 1, 4, "2026-01-01T11:00:00+00:00")
    assert not await store.claim_reminder(table.id, 1, 4, "2026-01-01T11:00:01+00:00")
    got = await store.turn_moment(table.id, 1, 4, 0, "2026-01-01T13:00:00+00:00")
    assert got.reminded_at == "2026-01-01T11:00:00+00:00"
    assert not await store.claim_reminder(table.id, 1, 5, "2026-01-01T11:00:00+00:00")
