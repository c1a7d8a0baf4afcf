"""One fair shuffle per game through ``TableService`` alone (docs/FAIRNESS.md "In the bot";
issue 19), on both storage backends: nothing is dealt before the commitment is posted;
members' cuts join the next deal and its first dealer; each attempt at a deal is committed
before its deck exists, so one whose deal was never written — a failed write, a crash —
is burned, listed and never dealt again; the record built from storage is the game played,
and the heads the showdowns showed are its chain's."""

from __future__ import annotations

import random
import sqlite3

import asyncpg
import pytest

from bot.engine import easy as engine_easy
from bot.engine.fairness import Attempt, Cut, Shuffler, chain_entries, chain_heads, chain_key
from bot.engine.proof import verify_record
from bot.service import StorageFailure, TableService, UserError
from bot.storage import AnyStorage, PgStorage

GUILD, ANN, BEN = 1, 11, 12


def disk_error(storage: AnyStorage) -> Exception:
    if isinstance(storage, PgStorage):
        return asyncpg.DiskFullError("could not extend file: No space left on device")
    return sqlite3.OperationalError("disk I/O error")


async def lobby(service: TableService, *, posted: bool = True, guild: int = GUILD) -> int:
    """Ann and Ben with one AI seat (3 seats), the fair-shuffle message posted."""
    live = await service.create(guild, 500 + guild, ANN, "Ann")
    await service.join(live.id, BEN, "Ben")
    await service.add_ai(live.id, ANN, "easy")
    if posted:
        await service.commitment_posted(live.id, 777)
    return live.id


async def play_deal(service: TableService, table_id: int) -> None:
    """The members play the current deal to its end as the easy AI would."""
    live = service.get(table_id)
    while not live.deal.finished:
        seat = live.deal.to_act
        live = (await service.act(table_id, live.member_of(seat), live.deal_number,
                                    engine_easy.choose(live.deal.observation(seat)))).live


async def test_nothing_is_dealt_or_cut_before_the_commitment_is_posted(storage):
    service = TableService(storage, rng=random.Random(1))
    table_id = await lobby(service, posted=False)
    live = service.get(table_id)
    assert live.row.game_commitment == Shuffler(bytes.fromhex(live.game_seed), table_id,
                                                "foster").commitment
    with pytest.raises(UserError, match="fair-shuffle message is not posted"):
        await service.start(table_id, ANN)
    with pytest.raises(UserError, match="once the fair-shuffle message is posted"):
        await service.cut(table_id, ANN, "early")
    assert await storage.shuffle_events(table_id) == []
    await service.commitment_posted(table_id, 777)
    await service.commitment_posted(table_id, 778)  # the first one stays
    assert service.get(table_id).row.commitment_message_id == 777
    assert (await storage.get_table(table_id)).commitment_message_id == 777


async def test_cuts_join_the_next_deal_and_decide_the_first_dealer(storage):
    service = TableService(storage, rng=random.Random(2))
    table_id = await lobby(service)
    cut = await service.cut(table_id, ANN, "  banana ")
    assert cut.cut == (1, "banana")  # an Outcome, as every change returns
    assert cut.live.id == table_id and cut.before.status == "lobby" and cut.ops == ()
    with pytest.raises(UserError, match="already cut deal 1 with `banana`"):
        await service.cut(table_id, ANN, "again")
    with pytest.raises(UserError, match="Only players seated"):
        await service.cut(table_id, 99, "x")
    with pytest.raises(UserError, match="A cut may hold"):
        await service.cut(table_id, BEN, "`x`")
    await service.cut(table_id, BEN, "42")
    live = (await service.start(table_id, ANN)).live
    seed = bytes.fromhex(live.game_seed)
    shuffler = Shuffler(seed, table_id, "foster")
    cuts = (Cut(0, "banana"), Cut(1, "42"))
    assert live.game.first_dealer == shuffler.first_dealer(3, 1, cuts)
    assert list(live.deal.deck) == shuffler.deck(1, 1, cuts)
    assert live.game.shuffle_log.attempts == [Attempt(1, 1, cuts)]
    # a cut made while deal 1 is played joins deal 2
    assert (await service.cut(table_id, BEN, "pear")).cut == (2, "pear")
    await play_deal(service, table_id)
    live = (await service.next_deal(table_id, 1)).live
    assert live.game.shuffle_log.attempts[1] == Attempt(2, 1, (Cut(1, "pear"),))
    assert list(live.deal.deck) == shuffler.deck(2, 1, (Cut(1, "pear"),))


@pytest.mark.parametrize("crash", [False, True])
async def test_an_attempt_whose_deal_was_never_written_is_burned(storage, monkeypatch, crash):
    """The attempt is committed before the deck is derived; when the deal's own write
    fails (or the process dies in between) the attempt is burned: never dealt again,
    listed in the record, and the next attempt deals another deck."""
    service = TableService(storage, rng=random.Random(3))
    table_id = await lobby(service)
    await service.cut(table_id, ANN, "apple")
    await service.start(table_id, ANN)
    await play_deal(service, table_id)
    if crash:  # the process dies right after writing the attempt
        await service._write_attempt(service.get(table_id))
        service = TableService(storage)
        await service.load()
    else:
        real = storage.start_deal

        async def failing(*args, **kwargs):
            monkeypatch.setattr(storage, "start_deal", real)
            raise disk_error(storage)

        monkeypatch.setattr(storage, "start_deal", failing)
        with pytest.raises(StorageFailure):
            await service.next_deal(table_id, 1)
    live = service.get(table_id)
    assert live.deal_number == 1 and live.attempts_at(2) == 1
    assert live.game.shuffle_log.burned == [Attempt(2, 1)]
    live = (await service.next_deal(table_id, 1)).live
    shuffler = live.game.shuffler
    assert live.game.shuffle_log.attempts[1] == Attempt(2, 2)
    assert list(live.deal.deck) == shuffler.deck(2, 2, ()) != shuffler.deck(2, 1, ())
    again = TableService(storage)
    await again.load()
    assert again.get(table_id).game.shuffle_log.burned == [Attempt(2, 1)]
    await service.end(table_id, ANN, is_manager=False)
    record = await service.archive.record(table_id)
    assert record["shuffle"]["burned"] == [{"deal": 2, "attempt": 1, "cuts": []}]
    ok, out = verify_record(record, commitment_shown=record["shuffle"]["commitment"],
                            head_shown=record["shuffle"]["head"])
    assert {c["check"]: c["status"] for c in out["checks"]} == {
        "commitment": "proven", "random": "proven", "cuts": "not proven",
        "complete": "proven", "chain": "proven", "published": "proven"}


async def test_a_failed_attempt_write_derives_nothing_and_burns_nothing(storage, monkeypatch):
    service = TableService(storage, rng=random.Random(4))
    table_id = await lobby(service)
    real = storage.add_attempt

    async def failing(*args, **kwargs):
        monkeypatch.setattr(storage, "add_attempt", real)
        raise disk_error(storage)

    monkeypatch.setattr(storage, "add_attempt", failing)
    with pytest.raises(StorageFailure):
        await service.start(table_id, ANN)
    assert service.get(table_id).row.status == "lobby"
    assert await storage.shuffle_events(table_id) == []
    live = (await service.start(table_id, ANN)).live
    assert live.game.shuffle_log.attempts == [Attempt(1, 1)]
    assert live.game.shuffle_log.burned == []


async def test_the_record_from_storage_is_the_game_and_its_heads_were_shown(storage):
    service = TableService(storage, rng=random.Random(5))
    table_id = await lobby(service)
    await service.cut(table_id, ANN, "one")
    live = (await service.start(table_id, ANN)).live
    shown = {}
    while not live.game.complete:
        await play_deal(service, table_id)
        live = service.current(table_id)
        shown[live.deal_number] = live.chain_heads()[f"deal {live.deal_number}"]
        assert "end" not in live.chain_heads() or live.game.complete
        if not live.game.complete:
            await service.cut(table_id, BEN, f"w{live.deal_number + 1}")
            live = (await service.next_deal(table_id, live.deal_number)).live
    final = service.current(table_id).chain_heads()["end"]
    record = await service.archive.record(table_id)
    assert record["shuffle"]["head"] == final
    key = chain_key(bytes.fromhex(record["shuffle"]["seed"]), table_id)
    entries = chain_entries(record)
    heads = dict(zip([w for w, _ in entries], chain_heads(key, [e for _, e in entries]),
                     strict=True))
    assert {n: heads[f"deal {n}"] for n in shown} == shown
    assert record == live.game.to_record(*live.header())
    assert verify_record(record, commitment_shown=record["shuffle"]["commitment"],
                         head_shown=final)[0]


async def test_a_lobby_from_before_gets_a_seed_and_a_game_from_before_no_cut(storage,
                                                                             backend):
    service = TableService(storage, rng=random.Random(6))
    old_lobby = await lobby(service, posted=False)
    old_game = await lobby(service, guild=GUILD + 1)
    await service.start(old_game, ANN)
    on = " ON tables" if backend.name == "postgres" else ""
    await backend.execute(f"DROP TRIGGER tables_game_seed_fixed{on}", ())
    await backend.execute("UPDATE tables SET game_seed = NULL, game_commitment = NULL", ())
    service = TableService(storage, rng=random.Random(7))
    await service.load()  # as after an upgrade: tables from before migration 0009
    with pytest.raises(UserError, match="no fair shuffle yet"):
        await service.start(old_lobby, ANN)
    live = await service.ensure_seed(old_lobby)
    assert live.row.game_commitment is not None and live.game_seed is not None
    await service.commitment_posted(old_lobby, 779)
    assert (await service.start(old_lobby, ANN)).live.game.shuffler is not None
    assert (await service.ensure_seed(old_game)).row.game_commitment is None  # left alone
    with pytest.raises(UserError, match="began before players could cut"):
        await service.cut(old_game, ANN, "late")
    await play_deal(service, old_game)
    live = (await service.next_deal(old_game, 1)).live
    assert live.game.shuffle_log is None and live.game.proofs[-1] is not None  # format 1
