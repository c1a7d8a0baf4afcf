"""Migrations 0006 and 0009 (issues 11 and 19): a format 1 deal keeps its commitment, seed,
cuts and cutter, never changed afterwards; a table keeps its game's seed out of every row
but the one call that reads it, and neither the seed, its commitment nor the fair-shuffle
message ever change once set; the shuffle log (cuts and attempts) is append-only, one cut
per member and deal, one row per attempt; and the history lists only games whose table is
no longer open. On both backends (tests/storage/conftest.py)."""

from __future__ import annotations

import pytest

from bot.storage import AnyStorage
from tests.storage.backends import Backend
from tests.storage.test_storage import DECK, GUILD, new_table, playing_table

SEED = "ab" * 32
COMMITMENT = "cd" * 32


async def test_a_deals_proof_is_stored_with_it_and_never_changes(store: AnyStorage,
                                                                 backend: Backend) -> None:
    table, _ = await playing_table(store, [11, None])
    deal_id = await store.start_deal(table.id, 1, 0, DECK, commitment=COMMITMENT, seed=SEED,
                                     cuts=["00ff", "0102"], cut_by=11)
    [old, fair] = await store.deals(table.id)
    assert old.commitment is None and old.seed is None and old.cuts is None
    assert (fair.commitment, fair.seed, fair.cuts, fair.cut_by) == (
        COMMITMENT, SEED, ["00ff", "0102"], 11)
    assert SEED not in repr(fair) and "2c" not in repr(fair)  # a row's repr hides them
    for column, value in (("commitment", "'x'"), ("seed", "'x'"), ("cuts", "'[]'"),
                          ("cut_by", "12")):
        with pytest.raises(backend.integrity, match="immutable"):
            await backend.execute(
                f"UPDATE deals SET {column} = {value} WHERE table_id = ? AND number = ?",
                tuple(deal_id))
    assert await backend.value("SELECT COUNT(*) FROM deals WHERE seed = ?", (SEED,)) == 1


async def test_the_game_seed_is_in_no_table_row_and_never_changes(store: AnyStorage,
                                                                   backend: Backend) -> None:
    table = await new_table(store)
    assert table.game_commitment is None and await store.game_seed(table.id) is None
    await store.set_game_seed(table.id, SEED, COMMITMENT)
    row = await store.get_table(table.id)
    assert row is not None and row.game_commitment == COMMITMENT
    assert SEED not in repr(row) and row.commitment_message_id is None
    assert await store.game_seed(table.id) == SEED
    await store.set_game_seed(table.id, SEED, COMMITMENT)  # the same values: no change
    with pytest.raises(backend.integrity, match="never change"):
        await store.set_game_seed(table.id, "00" * 32, COMMITMENT)
    with pytest.raises(backend.integrity, match="never change"):
        await backend.execute("UPDATE tables SET game_commitment = 'x' WHERE id = ?",
                              (table.id,))
    await store.set_commitment_message(table.id, 77)
    assert (await store.get_table(table.id)).commitment_message_id == 77
    with pytest.raises(backend.integrity, match="never changes"):
        await store.set_commitment_message(table.id, 78)
    with pytest.raises(ValueError):
        await store.set_game_seed(999, SEED, COMMITMENT)
    assert await store.game_seed(table.id) == SEED


async def test_the_shuffle_log_is_append_only(store: AnyStorage, backend: Backend) -> None:
    table = await new_table(store)
    await store.add_cut(table.id, 1, 11, "banana")
    await store.add_attempt(table.id, 1, 1, [{"seat": 0, "text": "banana"}])
    await store.add_cut(table.id, 1, 12, "日本")
    await store.add_cut(table.id, 2, 11, "pear")
    events = await store.shuffle_events(table.id)
    assert [(e.kind, e.deal_number, e.member_id, e.attempt, e.text, e.cuts) for e in events] == [
        ("cut", 1, 11, None, "banana", None),
        ("attempt", 1, None, 1, None, [{"seat": 0, "text": "banana"}]),
        ("cut", 1, 12, None, "日本", None), ("cut", 2, 11, None, "pear", None)]
    with pytest.raises(backend.integrity):
        await store.add_cut(table.id, 1, 11, "again")  # one cut per member and deal
    with pytest.raises(backend.integrity):
        await store.add_attempt(table.id, 1, 1, [])  # an attempt is written once
    for sql in ("UPDATE shuffle_events SET payload = '{}'", "DELETE FROM shuffle_events"):
        with pytest.raises(backend.integrity, match="append-only"):
            await backend.execute(sql, ())
    assert len(await store.shuffle_events(table.id)) == 4
    [state] = [s for s in (await store.open_state())[0] if s.row.id == table.id]
    assert state.events == events


async def test_the_history_lists_only_games_that_are_over_newest_first(store: AnyStorage) -> None:
    lobby = await new_table(store, channel=501)
    await store.add_seat(lobby.id, 11, "Ann")
    running, _ = await playing_table(store, [12, None])
    finished, deal = await playing_table(store, [13, None])
    await store.finish_deal(deal, "finished", [], [])
    await store.finish_game(finished.id, [0], "finished")
    closed, deal = await playing_table(store, [14, None])
    await store.finish_deal(deal, "void", [], [])
    await store.set_status(closed.id, "closed")
    closed_lobby = await new_table(store, channel=502)
    await store.set_status(closed_lobby.id, "closed")
    games, total = await store.past_games(GUILD, 0, 10)
    assert total == 2 and [g.table_id for g in games] == [closed.id, finished.id]
    done = games[1]
    assert (done.status, done.players, done.members, done.winners, done.deals) == (
        "finished", ["P0", "P1"], [13, None], [0], 1)
    assert done.finished_at is not None and games[0].winners == []
    page, total = await store.past_games(GUILD, 1, 1)
    assert [g.table_id for g in page] == [finished.id] and total == 2
    assert await store.past_game(GUILD, table_id=running.id) is None
    assert await store.past_game(GUILD, number=lobby.number) is None
    assert (await store.past_game(GUILD, number=finished.number)).table_id == finished.id
    assert await store.past_game(GUILD + 1, table_id=finished.id) is None
    assert (await store.past_game(GUILD, channel_id=500)).table_id == closed.id
