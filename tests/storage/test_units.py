"""Units of work (``Storage.atomic``): writes queued and sent in one call on the
database thread, reads inside a unit seeing its writes, and nothing kept of a
unit that fails anywhere (docs/ARCHITECTURE.md "Storage")."""

from __future__ import annotations

import asyncio
import sqlite3

import aiosqlite
import pytest
import pytest_asyncio

from bot.storage import LedgerEntry, Storage, TableClosed
from tests.storage.test_storage import ANN, BEN, count, playing_table


@pytest_asyncio.fixture
async def db_path(tmp_path):
    return tmp_path / "commerce.db"


@pytest_asyncio.fixture
async def store(db_path):
    storage = await Storage.open(db_path)
    try:
        yield storage
    finally:
        await storage.close()


def test_aiosqlite_still_runs_a_function_on_its_thread():
    """``Storage._on_thread`` relies on aiosqlite's ``Connection._execute``."""
    assert callable(getattr(aiosqlite.Connection, "_execute", None))


async def test_a_unit_of_many_writes_is_one_call(store: Storage, db_path) -> None:
    table, deal = await playing_table(store, [ANN, BEN])
    calls = store.round_trips
    async with store.atomic():
        await store.require_open(table.id)
        for seq in range(5):
            await store.append_action(deal, seq, {"seq": seq}, ANN)
        await store.set_seat_state(table.id, 0, timeouts=2)
        await store.finish_deal(deal, "finished", [LedgerEntry(0, ANN, 1, "pool"),
                                                   LedgerEntry(1, BEN, -1, "ante")], [])
        await store.set_next_seed(table.id, "ab" * 16, "cd" * 32)
        assert store.round_trips == calls  # nothing sent yet
        assert count(db_path, "SELECT COUNT(*) FROM actions") == 0
    assert store.round_trips == calls + 1
    assert count(db_path, "SELECT COUNT(*) FROM actions") == 5
    assert count(db_path, "SELECT SUM(amount) FROM ledger") == 0
    assert (await store.seats(table.id))[0].timeouts == 2


async def test_a_read_inside_a_unit_sees_its_writes(store: Storage, db_path) -> None:
    table, deal = await playing_table(store, [ANN, BEN])
    async with store.atomic():
        await store.set_seat_state(table.id, 1, away=True)
        assert (await store.seats(table.id))[1].away  # flushed, not committed
        await store.append_action(deal, 0, {"k": 1}, BEN)
        assert count(db_path, "SELECT COUNT(*) FROM actions") == 0  # another connection
    assert count(db_path, "SELECT COUNT(*) FROM actions") == 1


@pytest.mark.parametrize("flushed", [False, True])
async def test_a_unit_that_fails_keeps_nothing(store: Storage, db_path, flushed) -> None:
    """A failing queued write (here: closing a deal that does not exist) undoes
    every write before it, whether or not the unit had already flushed."""
    table, deal = await playing_table(store, [ANN, BEN])
    with pytest.raises(ValueError, match="no deal"):
        async with store.atomic():
            await store.append_action(deal, 0, {"k": 1}, ANN)
            if flushed:
                await store.seats(table.id)
            await store.set_seat_state(table.id, 0, away=True)
            await store.finish_deal(deal._replace(number=99), "void", [], [])
    assert count(db_path, "SELECT COUNT(*) FROM actions") == 0
    assert not (await store.seats(table.id))[0].away
    # the connection is usable again and the lock was released
    await store.append_action(deal, 0, {"k": 1}, ANN)
    assert count(db_path, "SELECT COUNT(*) FROM actions") == 1


async def test_an_error_in_the_block_sends_nothing(store: Storage, db_path) -> None:
    table, deal = await playing_table(store, [ANN, BEN])
    calls = store.round_trips
    with pytest.raises(RuntimeError):
        async with store.atomic():
            await store.append_action(deal, 0, {"k": 1}, ANN)
            raise RuntimeError("the engine refused")
    assert store.round_trips == calls
    assert count(db_path, "SELECT COUNT(*) FROM actions") == 0


async def test_require_open_refuses_a_table_closed_behind_our_back(store: Storage,
                                                                   db_path) -> None:
    table, deal = await playing_table(store, [ANN, BEN])
    await store.set_status(table.id, "closed")
    with pytest.raises(TableClosed):
        async with store.atomic():
            await store.require_open(table.id)
            await store.append_action(deal, 0, {"k": 1}, ANN)
    assert count(db_path, "SELECT COUNT(*) FROM actions") == 0


async def test_units_of_other_tasks_never_mix(store: Storage, db_path) -> None:
    """Two tasks' units run side by side; one fails, the other's writes stay."""
    table, deal = await playing_table(store, [ANN, BEN])
    other, other_deal = await playing_table(store, [None, None])

    async def good() -> None:
        async with store.atomic():
            for seq in range(3):
                await store.append_action(deal, seq, {"k": seq}, ANN)
                await asyncio.sleep(0)

    async def bad() -> None:
        async with store.atomic():
            await store.append_action(other_deal, 0, {"k": 0}, None)
            await asyncio.sleep(0)
            await store.append_action(other_deal, 0, {"k": 0}, None)  # duplicate seq

    results = await asyncio.gather(good(), bad(), return_exceptions=True)
    assert results[0] is None and isinstance(results[1], sqlite3.IntegrityError)
    assert count(db_path, "SELECT COUNT(*) FROM actions") == 3
