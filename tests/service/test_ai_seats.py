"""AI seats at their levels and the coach, through the table service
(docs/AI.md): levels stored with the seat and kept across a restart; the strong
AI and the coach thinking in a worker process while the event loop runs on;
hints recorded in the game record."""

from __future__ import annotations

import asyncio
import os
import random
from pathlib import Path

import pytest
import pytest_asyncio

from bot.engine import easy as engine_easy
from bot.engine import replay
from bot.engine.strong import Budget
from bot.service import TableService, UserError
from bot.service.players import AiPlayers
from bot.storage import Storage

GUILD, ANN, BEN = 9001, 11, 12


@pytest_asyncio.fixture
async def storage(tmp_path: Path):
    store = await Storage.open(tmp_path / "commerce.db")
    try:
        yield store
    finally:
        await store.close()


async def strong_table(service: TableService, levels=("strong", "normal")) -> int:
    live = await service.create(GUILD, 500, ANN, "ann", "foster", None)
    for level in levels:
        await service.add_ai(live.id, ANN, level)
    await service.commitment_posted(live.id, 9000)  # as the fair-shuffle message
    return live.id


async def test_levels_are_kept_with_the_seat_and_played(storage):
    service = TableService(storage, rng=random.Random(5))
    table_id = await strong_table(service)
    with pytest.raises(UserError, match="AI level"):
        await service.add_ai(table_id, ANN, "grandmaster")
    live = (await service.start(table_id, ANN)).live
    assert [s.ai_level for s in live.seats] == [None, "strong", "normal"]
    again = TableService(storage)
    await again.load()
    assert [s.ai_level for s in again.get(table_id).seats] == [None, "strong", "normal"]
    moves = 0
    while not live.game.complete and moves < 150:  # the strong and normal seats answer
        if live.deal.finished:
            live = (await service.next_deal(table_id, live.deal_number)).live
            continue
        assert live.deal.to_act == 0
        live = (await service.act(table_id, ANN, live.deal_number,
                                    engine_easy.choose(live.deal.observation(0)))).live
        moves += 1
    assert live.game.complete
    assert await storage.guild_ledger_sum(GUILD) == 0
    record = await service.archive.record(table_id)
    assert record["ai_levels"] == {"1": "strong", "2": "normal"}
    assert replay(record).summary() == live.game.summary()


async def test_a_hint_is_for_the_seat_to_act_and_goes_into_the_record(storage):
    service = TableService(storage, rng=random.Random(8))
    table_id = await strong_table(service, ("easy", "easy"))
    live = (await service.start(table_id, ANN)).live
    while live.deal.to_act != 0:  # Ann's turn comes after the AI seats'
        live = (await service.next_deal(table_id, live.deal_number)).live
    seq = len(live.deal.operations)
    with pytest.raises(UserError, match="earlier deal"):
        await service.hint(table_id, ANN, live.deal_number - 1, seq)
    with pytest.raises(UserError, match="not playing"):
        await service.hint(table_id, BEN, live.deal_number, seq)
    _, line = await service.hint(table_id, ANN, live.deal_number, seq)
    assert "showdowns" in line and line[:1].isupper() and line.endswith(".")
    assert len(live.deal.operations) == seq  # a hint changes nothing in the deal
    record = await service.archive.record(table_id)
    [hint] = record["deals"][-1]["hints"]
    assert (hint["after"], hint["seat"]) == (seq, 0)
    assert line.startswith(hint["advice"][:1].upper() + hint["advice"][1:])
    assert replay(record).summary() == live.game.summary()  # replay ignores hints
    await service.end(table_id, ANN, is_manager=False)
    archived = await service.archive.archived(GUILD, table_id)  # what /commerce export sends
    assert archived.record["deals"][-1]["hints"] == [hint]


async def test_the_coach_can_be_off(storage):
    service = TableService(storage, rng=random.Random(8))
    live = await service.create(GUILD, 501, ANN, "ann", "foster", None, coach=False)
    await service.add_ai(live.id, ANN)
    await service.add_ai(live.id, ANN)
    await service.commitment_posted(live.id, 9001)
    live = (await service.start(live.id, ANN)).live
    while live.deal.to_act != 0:
        live = (await service.next_deal(live.id, live.deal_number)).live
    with pytest.raises(UserError, match="coach is off"):
        await service.hint(live.id, ANN, live.deal_number, len(live.deal.operations))


async def test_the_strong_ai_thinks_in_another_process_while_the_loop_runs():
    """The search runs in a worker process (not this one), and the event loop
    keeps serving other work while it thinks."""
    from bot.engine import Game, get_preset, shuffled_deck

    players = AiPlayers(budget=Budget(playouts=400, seconds=None))
    try:
        rng = random.Random(2)
        game = Game(get_preset("foster"), 3, 0)
        deal = game.start_deal(shuffled_deck(rng), rng=rng)
        pid = await players._off_loop(os.getpid)
        assert pid != os.getpid()
        ticks = 0

        async def other_tables() -> None:
            nonlocal ticks
            while True:
                await asyncio.sleep(0)
                ticks += 1

        runner = asyncio.create_task(other_tables())
        decision = await players.decide(deal, deal.to_act, "strong")
        runner.cancel()
        assert decision in [d for a in deal.legal_actions(deal.to_act)
                            for d in deal.choices(deal.to_act, a)]
        assert ticks > 100  # the loop was never held for the search
    finally:
        players.close()


async def test_a_dead_worker_is_replaced_by_a_fresh_one():
    """A worker killed (out of memory, say) costs one answer, not every later one."""
    import signal
    from concurrent.futures import BrokenExecutor

    players = AiPlayers(budget=Budget(playouts=100, seconds=None))
    try:
        first = await players._off_loop(os.getpid)
        assert players._pool is not None
        for pid in list(players._pool._processes):  # type: ignore[attr-defined]
            os.kill(pid, signal.SIGKILL)
        await asyncio.sleep(0.5)
        with pytest.raises(BrokenExecutor):
            await players._off_loop(os.getpid)
        again = await players._off_loop(os.getpid)
        assert again not in (first, os.getpid())
    finally:
        players.close()


async def test_the_worker_lives_through_ctrl_c():
    """Ctrl+C in a terminal reaches the whole process group: the worker ignores it,
    and the search it is running ends as usual (interrupted, it would send back a
    KeyboardInterrupt, which no ``except Exception`` of the bot's stops); the bot
    stops the worker itself once it is done (a clean stop: bot/process/stopping.py)."""
    import signal
    import time

    players = AiPlayers(budget=Budget(playouts=100, seconds=None))
    try:
        pid = await players._off_loop(os.getpid)

        async def search() -> str:
            try:
                await players._off_loop(time.sleep, 1.0)
            except KeyboardInterrupt:  # caught in the task: it would end the test run
                return "interrupted"
            return "ended"

        searching = asyncio.ensure_future(search())
        await asyncio.sleep(0.3)  # the worker is busy
        os.kill(pid, signal.SIGINT)
        assert await searching == "ended"
        assert await players._off_loop(os.getpid) == pid  # the same worker, still there
    finally:
        players.close()


def legal(deal, seat) -> list:
    return [d for a in deal.legal_actions(seat) for d in deal.choices(seat, a)]


async def test_a_hint_before_the_worker_is_up_is_a_short_search_here_and_warms_it():
    """The first hint after a start does not wait seconds for a fresh worker
    process: the coach answers from a short search in this process, and the
    worker starts for the next one (issue 22: a hint within a second)."""
    from bot.engine import Game, get_preset, shuffled_deck

    players = AiPlayers()
    try:
        rng = random.Random(3)
        deal = Game(get_preset("foster"), 3, 0).start_deal(shuffled_deck(rng), rng=rng)
        assert not players.ready() and players._pool is None
        advice = await players.advise(deal, deal.to_act)
        assert advice.decision in legal(deal, deal.to_act)
        assert players._pool is not None  # started for the next hint
        await asyncio.wait_for(players._warm, 30)
        assert players.ready()
        advice = await players.advise(deal, deal.to_act)  # now from the worker
        assert advice.decision in legal(deal, deal.to_act)
    finally:
        players.close()


async def test_a_slow_worker_does_not_keep_a_hint_waiting(monkeypatch):
    """A busy worker past the hint's deadline: the coach answers here, and the
    worker is kept (it is busy, not broken)."""
    from bot.engine import Game, get_preset, shuffled_deck
    from bot.service import players as module

    players = AiPlayers()
    try:
        players.warm()
        await asyncio.wait_for(players._warm, 30)
        rng = random.Random(4)
        deal = Game(get_preset("foster"), 3, 0).start_deal(shuffled_deck(rng), rng=rng)
        monkeypatch.setattr(module, "HINT_DEADLINE", 0.0)
        advice = await players.advise(deal, deal.to_act)
        assert advice.decision in legal(deal, deal.to_act)
        assert players.ready()  # the same worker, still there
    finally:
        players.close()


async def test_a_member_waiting_on_a_slow_strong_decision_is_acknowledged_in_time():
    """A strong seat's decision that would come after the member's answer is due
    (a fresh worker starting: seconds; several tables' decisions queued behind one
    worker) acknowledges the member's interaction first (``waiting.in_time``), once,
    and the decision still comes; one that comes in time acknowledges nothing."""
    from bot.engine import Game, get_preset, shuffled_deck
    from bot.storage import waiting

    players = AiPlayers(budget=Budget(playouts=200, seconds=None))
    acknowledged: list[float] = []

    async def acknowledge() -> None:
        acknowledged.append(asyncio.get_running_loop().time())

    try:
        rng = random.Random(5)
        deal = Game(get_preset("foster"), 3, 0).start_deal(shuffled_deck(rng), rng=rng)
        seat = deal.to_act
        assert players._pool is None  # the first decision starts the worker: seconds
        loop = asyncio.get_running_loop()
        with waiting.hook(acknowledge, within=0.05):
            start = loop.time()
            decision = await players.decide(deal, seat, "strong")
            took = loop.time() - start
        assert decision in legal(deal, seat)
        assert len(acknowledged) == 1 and acknowledged[0] - start < took
        assert 0.05 <= acknowledged[0] - start < 0.5
        with waiting.hook(acknowledge, within=30.0):  # the worker is up: in time
            assert await players.decide(deal, seat, "strong") in legal(deal, seat)
        assert len(acknowledged) == 1
    finally:
        players.close()
