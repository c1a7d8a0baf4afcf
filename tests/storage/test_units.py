"""Units of work (``Storage.atomic``): writes queued and sent in one call on the
database thread, reads inside a unit seeing its writes, and nothing kept of a
unit that fails anywhere (docs/ARCHITECTURE.md "Storage"). On both backends
(``store`` and ``backend``: tests/storage/conftest.py); on PostgreSQL also a lock
held by another session and a lost connection."""

from __future__ import annotations

import asyncio
import contextvars
import sqlite3
import threading
from typing import Any

import aiosqlite
import asyncpg
import pytest

from bot.service.errors import STORAGE_ERRORS
from bot.storage import AnyStorage, LedgerEntry, PgStorage, TableClosed, waiting
from bot.storage import ledger as ledger_module
from bot.storage import postgres as postgres_module
from tests.storage.backends import Backend
from tests.storage.test_storage import ANN, BEN, playing_table

ACTIONS = "SELECT COUNT(*) FROM actions"
#: a context variable the work done while a unit commits must see as its task set it
LANGUAGE: contextvars.ContextVar[str] = contextvars.ContextVar("test_language", default="en")


def test_aiosqlite_still_runs_a_function_on_its_thread():
    """``Storage._on_thread`` relies on aiosqlite's ``Connection._execute``."""
    assert callable(getattr(aiosqlite.Connection, "_execute", None))


async def test_a_unit_of_many_writes_is_one_call(store: AnyStorage, backend: Backend) -> None:
    table, deal = await playing_table(store, [ANN, BEN])
    calls = store.round_trips
    async with store.atomic():
        await store.require_open(table.id)
        for seq in range(5):
            await store.append_action(deal, seq, {"seq": seq}, ANN)
        await store.set_seat_state(table.id, 0, timeouts=2)
        await store.finish_deal(deal, "finished", [LedgerEntry(0, ANN, 1, "pool"),
                                                   LedgerEntry(1, BEN, -1, "ante")], [])
        await store.add_cut(table.id, 1, ANN, "banana")
        assert store.round_trips == calls  # nothing sent yet
        assert await backend.value(ACTIONS) == 0
    assert store.round_trips == calls + 1
    assert await backend.value(ACTIONS) == 5
    assert await backend.value("SELECT SUM(amount) FROM ledger") == 0
    assert (await store.seats(table.id))[0].timeouts == 2


async def test_actions_appended_in_a_row_are_one_write_in_their_order(
        store: AnyStorage, backend: Backend, monkeypatch: pytest.MonkeyPatch) -> None:
    """A move and the AI's answers (actions appended one after another in a unit)
    go in one statement; another write queued in between starts a new one, and the
    order of everything is kept. A duplicate among them keeps nothing of the unit."""
    table, deal = await playing_table(store, [ANN, BEN])
    statements: list[int] = []
    real = ledger_module.insert_rows

    async def counted(tx: Any, insert: str, rows: Any) -> None:
        if insert.startswith("INSERT INTO actions"):
            statements.append(len(rows))
        await real(tx, insert, rows)
    monkeypatch.setattr(ledger_module, "insert_rows", counted)
    async with store.atomic():
        for seq in range(3):
            await store.append_action(deal, seq, {"seq": seq}, ANN if seq == 0 else None)
        await store.set_seat_state(table.id, 0, timeouts=1)
        for seq in range(3, 5):
            await store.append_action(deal, seq, {"seq": seq}, BEN)
    assert statements == [3, 2]
    stored = (await store.deals(table.id))[0].actions
    assert [(a.payload, a.member_id) for a in stored] == [
        ({"seq": 0}, ANN), ({"seq": 1}, None), ({"seq": 2}, None), ({"seq": 3}, BEN),
        ({"seq": 4}, BEN)]
    with pytest.raises(backend.integrity):
        async with store.atomic():
            await store.set_seat_state(table.id, 0, timeouts=5)
            await store.append_action(deal, 5, {"seq": 5}, ANN)
            await store.append_action(deal, 5, {"seq": 5}, ANN)
    assert statements[-1] == 2  # the duplicate came in the same statement
    assert (await store.seats(table.id))[0].timeouts == 1
    assert await backend.value(ACTIONS) == 5


async def test_a_read_inside_a_unit_sees_its_writes(store: AnyStorage, backend: Backend) -> None:
    table, deal = await playing_table(store, [ANN, BEN])
    async with store.atomic():
        await store.set_seat_state(table.id, 1, away=True)
        assert (await store.seats(table.id))[1].away  # flushed, not committed
        await store.append_action(deal, 0, {"k": 1}, BEN)
        assert await backend.value(ACTIONS) == 0  # another connection
    assert await backend.value(ACTIONS) == 1


@pytest.mark.parametrize("flushed", [False, True])
async def test_a_unit_that_fails_keeps_nothing(store: AnyStorage, backend: Backend, flushed) -> None:
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
    assert await backend.value(ACTIONS) == 0
    assert not (await store.seats(table.id))[0].away
    # the connection is usable again and the lock was released
    await store.append_action(deal, 0, {"k": 1}, ANN)
    assert await backend.value(ACTIONS) == 1


async def test_an_error_in_the_block_sends_nothing(store: AnyStorage, backend: Backend) -> None:
    table, deal = await playing_table(store, [ANN, BEN])
    calls = store.round_trips
    with pytest.raises(RuntimeError):
        async with store.atomic():
            await store.append_action(deal, 0, {"k": 1}, ANN)
            raise RuntimeError("the engine refused")
    assert store.round_trips == calls
    assert await backend.value(ACTIONS) == 0


async def test_require_open_refuses_a_table_closed_behind_our_back(store: AnyStorage,
                                                                   backend: Backend) -> None:
    table, deal = await playing_table(store, [ANN, BEN])
    await store.set_status(table.id, "closed")
    with pytest.raises(TableClosed):
        async with store.atomic():
            await store.require_open(table.id)
            await store.append_action(deal, 0, {"k": 1}, ANN)
    assert await backend.value(ACTIONS) == 0


async def test_units_of_other_tasks_never_mix(store: AnyStorage, backend: Backend) -> None:
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
    assert results[0] is None and isinstance(results[1], backend.integrity)
    assert await backend.value(ACTIONS) == 3


# ------------------------------------------------------------------ PostgreSQL only


@pytest.fixture
def postgres(backend: Backend) -> Backend:
    """The test's backend, on PostgreSQL only (the SQLite counterparts of these tests
    are in tests/cogs/test_faults.py: a second sqlite3 connection holding the lock)."""
    if not backend.postgres:
        pytest.skip("PostgreSQL only")
    return backend


async def _lock_actions(url: str, ready: asyncio.Event, hold: float) -> None:
    """Another session: ``LOCK TABLE actions IN EXCLUSIVE MODE`` (readers pass,
    writers wait) for ``hold`` seconds."""
    conn = await asyncpg.connect(url)
    try:
        async with conn.transaction():
            await conn.execute("LOCK TABLE actions IN EXCLUSIVE MODE")
            ready.set()
            await asyncio.sleep(hold)
    finally:
        await conn.close()


async def test_a_unit_waits_for_a_lock_held_elsewhere_then_commits(
        store: PgStorage, postgres: Backend, monkeypatch: pytest.MonkeyPatch) -> None:
    """The first try gives up after ``FIRST_WAIT_MS``; the interaction is
    acknowledged, and the second try waits for the lock and commits everything."""
    monkeypatch.setattr(postgres_module, "BUSY_WAIT", 3.0)
    table, deal = await playing_table(store, [ANN, BEN])
    ready = asyncio.Event()
    holder = asyncio.create_task(_lock_actions(postgres.address, ready, 0.6))
    await ready.wait()
    acknowledged: list[float] = []

    async def acknowledge() -> None:
        acknowledged.append(asyncio.get_running_loop().time())

    start = asyncio.get_running_loop().time()
    with waiting.hook(acknowledge):
        async with store.atomic():
            await store.set_seat_state(table.id, 0, away=True)
            await store.append_action(deal, 0, {"k": 1}, ANN)
    took = asyncio.get_running_loop().time() - start
    await holder
    assert len(acknowledged) == 1 and acknowledged[0] - start < 0.5
    assert 0.5 < took < 3.0
    assert await postgres.value(ACTIONS) == 1
    assert (await store.seats(table.id))[0].away


async def test_a_lock_held_too_long_fails_the_unit_cleanly(
        store: PgStorage, postgres: Backend, monkeypatch: pytest.MonkeyPatch) -> None:
    """After ``BUSY_WAIT`` the unit fails with LockNotAvailableError, nothing of it
    written; the storage works again once the lock is gone."""
    monkeypatch.setattr(postgres_module, "BUSY_WAIT", 0.5)
    table, deal = await playing_table(store, [ANN, BEN])
    ready = asyncio.Event()
    holder = asyncio.create_task(_lock_actions(postgres.address, ready, 1.5))
    await ready.wait()
    start = asyncio.get_running_loop().time()
    with pytest.raises(asyncpg.LockNotAvailableError):
        async with store.atomic():
            await store.set_seat_state(table.id, 0, away=True)
            await store.append_action(deal, 0, {"k": 1}, ANN)
    assert 0.4 < asyncio.get_running_loop().time() - start < 1.4
    assert not (await store.seats(table.id))[0].away  # reads pass an EXCLUSIVE lock
    await holder
    assert await postgres.value(ACTIONS) == 0
    await store.append_action(deal, 0, {"k": 1}, ANN)
    assert await postgres.value(ACTIONS) == 1


@pytest.mark.parametrize("attempt", range(5))
async def test_a_lost_connection_fails_at_most_one_call_then_connects_again(
        store: PgStorage, postgres: Backend, attempt: int) -> None:
    """A server-side kill reaches asyncpg at once or only at the next statement
    (repeated: it is a race): that unit fails with a storage error
    (``STORAGE_ERRORS``) and nothing of it is kept, or, if the loss was already
    seen, the storage connects again first; either way the next call works."""
    table, deal = await playing_table(store, [ANN, BEN])
    pid = store._conn_now().get_server_pid()
    await postgres.execute("SELECT pg_terminate_backend(?)", (pid,))
    try:
        async with store.atomic():
            await store.append_action(deal, 0, {"k": 1}, ANN)
        kept = [0]
    except STORAGE_ERRORS:
        kept = []
    assert [a.seq for a in (await store.deals(table.id))[0].actions] == kept
    await store.append_action(deal, 1, {"k": 1}, ANN)
    assert store.reconnects == 1
    assert [a.seq for a in (await store.deals(table.id))[0].actions] == [*kept, 1]
    assert store._conn_now().get_server_pid() != pid


async def test_a_failed_statement_in_a_flushed_unit_ends_the_unit(
        store: PgStorage, postgres: Backend) -> None:
    """Once the unit's transaction failed (and was rolled back), its other calls
    are refused, so a later write can never commit without the earlier ones."""
    table, deal = await playing_table(store, [ANN, BEN])
    with pytest.raises(postgres_module.UnitFailed):
        async with store.atomic():
            await store.append_action(deal, 0, {"k": 1}, ANN)
            await store.seats(table.id)  # flushed
            with pytest.raises(ValueError, match="already seated"):
                await store.add_seat(table.id, ANN, "Ann again")
            await store.set_seat_state(table.id, 0, away=True)
    assert await postgres.value(ACTIONS) == 0
    assert not (await store.seats(table.id))[0].away


async def test_work_meanwhile_runs_while_the_commit_is_on_the_database_thread(
        store: AnyStorage, backend: Backend, monkeypatch: pytest.MonkeyPatch) -> None:
    """``while_committing``: the commit, on aiosqlite's thread, waits here until
    the work given runs on the event loop, so that work ran while the commit
    was under way (not after it), in the task's context (a context variable set
    in the unit), before the unit's block ended; the unit is committed all the
    same."""
    if isinstance(store, PgStorage):
        pytest.skip("SQLite's commit runs on a thread of its own")
    table, deal = await playing_table(store, [ANN, BEN])
    ran = threading.Event()
    order: list[str] = []
    commit = store._commit

    def slow_commit(conn: Any) -> None:
        order.append(f"commit waited {ran.wait(5)}")  # the loop is free meanwhile
        commit(conn)
        order.append("committed")
    monkeypatch.setattr(store, "_commit", slow_commit)
    async with store.atomic():
        await store.append_action(deal, 0, {"k": 1}, ANN)
        LANGUAGE.set("fr")
        store.while_committing(lambda: (order.append(f"drawn in {LANGUAGE.get()}"), ran.set()))
        assert not ran.is_set()  # not before the block ends
    order.append("block ended")
    assert order == ["drawn in fr", "commit waited True", "committed", "block ended"]
    assert await backend.value(ACTIONS) == 1


async def test_work_meanwhile_of_a_failed_commit_runs_before_the_failure_is_raised(
        store: AnyStorage, backend: Backend, monkeypatch: pytest.MonkeyPatch) -> None:
    """A commit that fails once the work was handed over: the work has run by the
    time the error reaches the block (so what it made is dropped by the caller,
    never used later), and nothing was written."""
    if isinstance(store, PgStorage):
        pytest.skip("SQLite's commit runs on a thread of its own")
    table, deal = await playing_table(store, [ANN, BEN])
    done: list[str] = []

    def failing_commit(conn: Any) -> None:
        raise sqlite3.OperationalError("disk I/O error")
    monkeypatch.setattr(store, "_commit", failing_commit)
    with pytest.raises(sqlite3.OperationalError, match="disk I/O"):
        try:
            async with store.atomic():
                await store.append_action(deal, 0, {"k": 1}, ANN)
                store.while_committing(lambda: done.append("drawn"))
        finally:
            done.append("raised")
    assert done == ["drawn", "raised"]
    monkeypatch.undo()
    assert await backend.value(ACTIONS) == 0


async def test_work_meanwhile_runs_at_once_without_a_commit_and_never_after_a_failure(
        store: AnyStorage, backend: Backend, caplog: pytest.LogCaptureFixture) -> None:
    table, deal = await playing_table(store, [ANN, BEN])
    done: list[str] = []
    # no unit, or nothing to commit: at once
    store.while_committing(lambda: done.append("outside"))
    assert done == ["outside"]
    async with store.atomic():
        store.while_committing(lambda: done.append("nothing written"))
    assert done == ["outside", "nothing written"]
    with pytest.raises(RuntimeError):
        async with store.atomic():
            await store.append_action(deal, 0, {"k": 1}, ANN)
            store.while_committing(lambda: done.append("failed"))
            raise RuntimeError("the block fails")
    assert done == ["outside", "nothing written"]
    assert await backend.value(ACTIONS) == 0

    def broken() -> None:
        raise ValueError("drawing failed")
    async with store.atomic():  # an error of the work is logged; the unit commits
        await store.append_action(deal, 0, {"k": 1}, ANN)
        store.while_committing(broken)
        store.while_committing(lambda: done.append("after the broken one"))
    assert done[-1] == "after the broken one"
    assert await backend.value(ACTIONS) == 1
    assert "drawing failed" in caplog.text
