"""Claims on PostgreSQL (bot/storage/claims.py, docs/SCALING.md "Claims"), in one
process: a claim means "these guilds are mine", so two claims whose guilds overlap
are never both live, whatever their counts (every pair of the representative
topologies); a dead claim frees itself; a lost claims connection is taken back, or
the claim is lost for good (another process took the guilds, or the server stayed
away): then ``on_lost`` is told once and no write is made any more. The same with
real processes: tests/app/test_claims.py."""

from __future__ import annotations

import asyncio
import os
from urllib.parse import urlsplit

import asyncpg
import pytest

from bot.storage import ClaimRefused, DatabaseInUse, PgStorage, ShardsLost
from bot.storage import claims as claims_module
from bot.storage.claims import CLAIM_CLASS, CLAIMS_LOCK, Claim, process_name, take_claim
from bot.storage.postgres import describe_url
from bot.storage.shards import Shards
from tests.app.test_shards import TOPOLOGIES
from tests.storage.test_storage import GUILD


async def connect(url: str, application: str = "commerce-test") -> asyncpg.Connection:
    return await asyncpg.connect(url, server_settings={"application_name": application})


async def claim(url: str, shards: Shards) -> Claim:
    made = Claim(url, shards, "commerce-test", PgStorage._claims_connect, describe_url(url))
    await made.take()
    return made


async def live_claims(url: str) -> list[tuple[int, str]]:
    conn = await connect(url)
    try:
        return [(r["shard_count"], r["shard_ids"]) for r in await conn.fetch(
            "SELECT shard_count, shard_ids FROM shard_claims ORDER BY id")]
    finally:
        await conn.close()


async def steal(url: str, shards: Shards, victim: str) -> asyncpg.Connection:
    """What a second process does when it starts while ``victim``'s claims
    connection is cut: kill the sessions named ``victim`` (as a failover or an
    administrator would) and claim ``shards`` before the victim can take its claim
    back (``CLAIMS_LOCK`` is held meanwhile, so the victim's retake waits). The
    claim is held by the returned connection until it closes."""
    conn = await connect(url)
    async with conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock($1)", CLAIMS_LOCK)
        killed = await conn.fetchval(
            "SELECT count(pg_terminate_backend(pid, 5000)) FROM pg_stat_activity"
            " WHERE application_name LIKE $1", victim + "%")
        assert killed == 1
        await take_claim(conn, shards, process_name("thief"), "the test's database")
    return conn


async def wait_for(predicate, seconds: float = 10.0) -> None:
    for _ in range(int(seconds / 0.02)):
        if predicate():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("not within the time")


async def test_every_pair_of_topologies_is_refused_exactly_when_their_guilds_overlap(
        pg_migrated_url: str) -> None:
    """The full matrix of the representative topologies, each pair in both orders
    (the same topology twice included): the second claim is refused, with one line
    naming both, exactly when some guild would be served by both."""
    refused = accepted = 0
    for a in TOPOLOGIES:
        first = await claim(pg_migrated_url, a)
        try:
            for b in TOPOLOGIES:
                if a.overlap(b) is None:
                    second = await claim(pg_migrated_url, b)
                    await second.release()
                    accepted += 1
                    continue
                with pytest.raises(ClaimRefused) as err:
                    await claim(pg_migrated_url, b)
                line = str(err.value)
                assert "\n" not in line and line.startswith(
                    f"{b.describe()} would serve guilds another Commerce process already "
                    f"serves ({a.describe()}: commerce-test pid {os.getpid()} on ")
                assert err.value.theirs == a
                refused += 1
        finally:
            await first.release()
        assert await live_claims(pg_migrated_url) == []  # a refusal keeps nothing
    assert refused + accepted == len(TOPOLOGIES) ** 2 and accepted >= 20


async def test_non_overlapping_processes_are_all_accepted_together(pg_migrated_url: str) -> None:
    held = [await claim(pg_migrated_url, s) for s in
            (Shards(2, (0,)), Shards(4, (1,)), Shards(4, (3,)))]
    try:
        assert len(await live_claims(pg_migrated_url)) == 3
        for late in (Shards(1, (0,)), Shards(2, (1,)), Shards(3, (0,)), Shards(4, (2,))):
            with pytest.raises(ClaimRefused):
                await claim(pg_migrated_url, late)
    finally:
        for c in held:
            await c.release()


async def test_a_dead_process_s_claim_frees_itself_and_its_row_is_cleared(
        pg_migrated_url: str) -> None:
    """A process that dies (its connection ends without a word) leaves a row whose
    lock nobody holds: the next claim deletes it and goes ahead."""
    conn = await connect(pg_migrated_url)
    await take_claim(conn, Shards(2, (0,)), "dead pid 1 on gone", "db")
    with pytest.raises(ClaimRefused, match=r"\(shard 0 of 2: dead pid 1 on gone, since "):
        await claim(pg_migrated_url, Shards(4, (2,)))
    conn.terminate()  # as kill -9 does: no release, the row stays
    admin = await connect(pg_migrated_url)
    try:  # until the server has seen the socket close (its session ends, the lock with it)
        for _ in range(250):
            if not await admin.fetchval("SELECT count(*) FROM pg_locks WHERE locktype ="
                                        " 'advisory' AND classid = $1", CLAIM_CLASS):
                break
            await asyncio.sleep(0.02)
    finally:
        await admin.close()
    assert await live_claims(pg_migrated_url) == [(2, "[0]")]
    again = await claim(pg_migrated_url, Shards(4, (2,)))
    try:
        assert await live_claims(pg_migrated_url) == [(4, "[2]")]
    finally:
        await again.release()


async def test_a_storage_claims_again_replacing_its_own_claim(pg_migrated_url: str) -> None:
    """A second ``claim_shards`` of the same storage replaces its claim (its own is
    no conflict); a refused one keeps the first."""
    first = await PgStorage.open(pg_migrated_url)
    second = await PgStorage.open(pg_migrated_url)
    try:
        await first.claim_shards([0, 1], 4)
        with pytest.raises(DatabaseInUse, match=r"^shards 1-2 of 4 would serve guilds .*"
                           r"\(shards 0-1 of 4: commerce-bot pid \d+ on "):
            await second.claim_shards([1, 2], 4)
        await second.claim_shards([2, 3], 4)
        with pytest.raises(ClaimRefused) as refused:  # shard 0 of 2 is shards 0 and 2 of 4
            await first.claim_shards([0], 2)
        assert refused.value.theirs == Shards(4, (2, 3))
        assert sorted(await live_claims(pg_migrated_url)) == [(4, "[0, 1]"), (4, "[2, 3]")]
        await first.claim_shards([1], 4)  # narrower: its own old claim is no conflict
        assert sorted(await live_claims(pg_migrated_url)) == [(4, "[1]"), (4, "[2, 3]")]
        await first.update_settings(GUILD, turn_timer=5)  # fenced by the new claim
    finally:
        await first.close()
        await second.close()
    assert await live_claims(pg_migrated_url) == []  # close deletes the rows


async def test_a_lost_claims_connection_is_taken_back_at_once(pg_migrated_url: str) -> None:
    store = await PgStorage.open(pg_migrated_url)
    lost: list[str] = []
    try:
        await store.claim_shards([0], 2, on_lost=lost.append)
        before = store._claim.id
        admin = await connect(pg_migrated_url)
        try:
            assert await admin.fetchval(
                "SELECT count(pg_terminate_backend(pid, 5000)) FROM pg_stat_activity"
                " WHERE application_name LIKE 'commerce-bot shards%'") == 1
        finally:
            await admin.close()
        await wait_for(lambda: not store._claim.held or store._claim.id != before)  # seen
        await store.update_settings(GUILD, turn_timer=5)  # waits for the retake, then writes
        assert store._claim.held and store._claim.id != before and lost == []
        with pytest.raises(ClaimRefused):  # and it is live again
            await claim(pg_migrated_url, Shards(4, (2,)))
        assert await live_claims(pg_migrated_url) == [(2, "[0]")]  # the old row went
    finally:
        await store.close()


async def test_a_claim_taken_by_another_process_meanwhile_is_lost_for_good(
        pg_migrated_url: str) -> None:
    """Another process claims overlapping guilds between the loss of the claims
    connection and the retake: the retake is refused, ``on_lost`` is told once,
    and every write is refused from then on with nothing written."""
    store = await PgStorage.open(pg_migrated_url)
    other = await PgStorage.open(pg_migrated_url)
    lost: list[str] = []
    try:
        await store.claim_shards([0], 2, on_lost=lost.append)
        await store.update_settings(GUILD, turn_timer=5)
        thief = await steal(pg_migrated_url, Shards(4, (2,)), "commerce-bot shards")
        try:
            await wait_for(lambda: bool(lost))
            assert len(lost) == 1 and lost[0].startswith(
                "this process's claim on shard 0 of 2 of the PostgreSQL database ")
            assert ("is lost: another Commerce process took some of its guilds meanwhile "
                    "(shard 2 of 4: thief pid ") in lost[0]
            with pytest.raises(ShardsLost, match="is lost"):
                await store.update_settings(GUILD, turn_timer=7)
            assert (await other.get_settings(GUILD)).turn_timer == 5  # nothing was written
            await asyncio.sleep(0.1)
            assert len(lost) == 1
        finally:
            await thief.close()
    finally:
        await store.close()
        await other.close()


async def test_a_claim_the_server_keeps_away_from_too_long_is_lost(
        pg_migrated_url: str, pg_server, monkeypatch: pytest.MonkeyPatch) -> None:
    """While the claim is being taken back, writes wait a little, then fail with
    nothing written; once ``RECLAIM_WINDOW`` has passed without the server letting
    it back in, the claim is lost."""
    monkeypatch.setattr(claims_module, "RECLAIM_WINDOW", 1.5)
    monkeypatch.setattr(claims_module, "RECLAIM_RETRY", 0.2)
    monkeypatch.setattr(claims_module, "RECLAIM_WAIT", 0.3)
    store = await PgStorage.open(pg_migrated_url)
    lost: list[str] = []
    admin = await connect(pg_server.url())  # from another database: this one will refuse
    name = urlsplit(pg_migrated_url).path.lstrip("/")
    try:
        await store.claim_shards([1], 2, on_lost=lost.append)
        await admin.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false')
        await admin.fetchval(
            "SELECT count(pg_terminate_backend(pid, 5000)) FROM pg_stat_activity"
            " WHERE application_name LIKE 'commerce-bot shards%'")
        await wait_for(lambda: not store._claim.held)  # the loss seen
        with pytest.raises(asyncpg.InterfaceError, match="being taken back; nothing was written"):
            await store.update_settings(GUILD, turn_timer=5)
        await wait_for(lambda: bool(lost))
        assert "could not be taken back within 2 s" in lost[0]
        await admin.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true')
        await asyncio.sleep(0.5)
        with pytest.raises(ShardsLost):  # the server is back, but lost is lost
            await store.update_settings(GUILD, turn_timer=5)
        assert (await store.get_settings(GUILD)).turn_timer != 5
    finally:
        await admin.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true')
        await admin.close()
        await store.close()


async def test_a_taker_waits_for_the_write_in_flight_and_the_next_write_is_fenced(
        pg_migrated_url: str) -> None:
    """The fence: a write transaction holds its claim's row, so a process that
    takes the guilds (deleting the row of a claim whose lock it found free) waits
    for that transaction to end; the old owner's next write finds its row gone
    and is refused, so no write of it lands after the new owner took over."""
    store = await PgStorage.open(pg_migrated_url)
    lost: list[str] = []
    try:
        await store.claim_shards([0], 1, on_lost=lost.append)
        claim_id = store._claim.id
        taker = await connect(pg_migrated_url)
        try:
            async with store.atomic():
                await store.update_settings(GUILD, turn_timer=5)  # begun: the row is held
                delete = asyncio.create_task(taker.execute(
                    "DELETE FROM shard_claims WHERE id = $1", claim_id))
                await asyncio.sleep(0.3)
                assert not delete.done()  # waits for the write in flight
            await asyncio.wait_for(delete, 5)
            with pytest.raises(ShardsLost, match="its row is gone"):
                await store.update_settings(GUILD, turn_timer=7)
            assert len(lost) == 1
            assert (await store.get_settings(GUILD)).turn_timer == 5  # committed before
        finally:
            await taker.close()
    finally:
        await store.close()


async def test_a_claim_is_taken_back_once_the_server_lets_it_in_again(
        pg_migrated_url: str, pg_server, monkeypatch: pytest.MonkeyPatch) -> None:
    """A server away for less than ``RECLAIM_WINDOW`` (a restart): the claim is tried
    again until the server lets it in, then taken back, and writes go on."""
    monkeypatch.setattr(claims_module, "RECLAIM_RETRY", 0.2)
    store = await PgStorage.open(pg_migrated_url)
    lost: list[str] = []
    admin = await connect(pg_server.url())
    name = urlsplit(pg_migrated_url).path.lstrip("/")
    try:
        await store.claim_shards([1], 2, on_lost=lost.append)
        await admin.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false')
        await admin.fetchval(
            "SELECT count(pg_terminate_backend(pid, 5000)) FROM pg_stat_activity"
            " WHERE application_name LIKE 'commerce-bot shards%'")
        await asyncio.sleep(1.0)  # a few tries refused
        assert not store._claim.held and lost == []
        await admin.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true')
        await wait_for(lambda: store._claim.held)
        await store.update_settings(GUILD, turn_timer=5)
        assert (await store.get_settings(GUILD)).turn_timer == 5 and lost == []
    finally:
        await admin.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true')
        await admin.close()
        await store.close()
