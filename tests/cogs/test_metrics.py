"""The metrics and the health check (bot/runtime/metrics.py, bot/process/health.py) of a real bot
against SimCord, read over HTTP from its endpoint (on a free loopback port), as
Prometheus and Docker Compose read them: interactions by kind and outcome,
commits, 429s and retries, open tables, the watch, shard claims; /health 200
while all is well and 503 with its reason otherwise. No label ever names a
table, a member or a card.

The endpoint starts in the bot's ``setup_hook``, so it answers on the bot's
own clock: SimCord's virtual time moves the watch's lag.
"""

from __future__ import annotations

import asyncio
import json
import random
import re

import aiohttp
import pytest
import pytest_asyncio
from prometheus_client.parser import text_string_to_metric_families

from bot import create_bot
from bot.process import health
from tests.cogs.helpers import CARD_LABEL
from tests.cogs.test_confirmations import choose, start

LOOPBACK_ANY_PORT = ("127.0.0.1", 0)


@pytest_asyncio.fixture
async def simcord_bot(db_path, bots):
    bot = create_bot(db_path=db_path, rng=random.Random(7), cooldown=None, ai_pace=0,
                     endpoint=LOOPBACK_ANY_PORT)
    bots.append(bot)
    yield bot
    for b in bots:
        await b.close_storage()


async def fetch(bot, path: str) -> tuple[int, str]:
    assert bot.endpoint is not None
    async with aiohttp.ClientSession() as session, session.get(bot.endpoint.url + path) as res:
        return res.status, await res.text()


async def scrape(bot) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of ``/metrics``: (name, sorted labels) -> value."""
    status, text = await fetch(bot, "metrics")
    assert status == 200
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


def value(samples, name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


async def healthy(bot) -> tuple[int, dict]:
    status, text = await fetch(bot, "health")
    return status, json.loads(text)


async def test_interactions_and_commits_are_counted_by_kind_and_outcome(simcord_env, bots):
    env = simcord_env
    table, (ann, ben, cat), _ = await start(env, bots, "foster", dealer=2)
    bot = table.bot
    samples = await scrape(bot)
    assert value(samples, "commerce_interactions_total", kind="/commerce new", outcome="ok") == 1
    assert value(samples, "commerce_interactions_total", kind="lobby", outcome="ok") == 3
    assert value(samples, "commerce_interaction_seconds_count", kind="lobby") == 3
    committed = value(samples, "commerce_commits_total", outcome="committed")
    assert committed >= 4  # the table, two joins and the start, each in one transaction
    assert value(samples, "commerce_commit_seconds_count") == committed
    assert value(samples, "commerce_commits_total", outcome="failed") == 0

    await ben.click(table.table_message(), label="Knock")  # ann's turn: refused
    await choose(table, ann, "trade")  # My hand, then the trade on the panel
    samples = await scrape(bot)
    assert value(samples, "commerce_interactions_total", kind="play", outcome="ok") >= 1
    assert value(samples, "commerce_interactions_total", kind="pick", outcome="ok") \
        + value(samples, "commerce_interactions_total", kind="card", outcome="ok") == 1
    assert value(samples, "commerce_interactions_total", kind="play", outcome="refused") == 1
    assert value(samples, "commerce_commits_total", outcome="committed") > committed


async def test_a_failed_commit_is_counted(simcord_env, bots, monkeypatch):
    env = simcord_env
    guild = env.create_guild()
    ann, ben = (guild.add_member(env.create_user(n)) for n in ("ann", "ben"))
    await ann.slash(guild.create_text_channel("general"), "commerce new")
    lobby = guild.channels["commerce-1"].history()[0]
    storage = bots[-1].storage
    if storage.dialect == "postgres":
        import asyncpg

        async def fail(*args, **kwargs):
            raise asyncpg.exceptions.DiskFullError("disk full")
    else:
        import sqlite3

        def fail(*args, **kwargs):
            raise sqlite3.OperationalError("disk I/O error")
    monkeypatch.setattr(storage, "_commit", fail)
    await ben.click(lobby, label="Join")  # answered: nothing was saved
    monkeypatch.undo()
    samples = await scrape(bots[-1])
    assert value(samples, "commerce_commits_total", outcome="failed") == 1
    assert value(samples, "commerce_interactions_total", kind="lobby", outcome="failed") == 1
    await ben.click(lobby, label="Join")
    samples = await scrape(bots[-1])
    assert value(samples, "commerce_interactions_total", kind="lobby", outcome="ok") == 1


async def test_429s_and_retries_are_counted_where_they_are_seen(simcord_env, bots):
    env = simcord_env
    table, (ann, ben, cat), _ = await start(env, bots, "foster", dealer=2)
    bot = table.bot
    message_id = table.live.row.table_message_id
    env.inject_error("PATCH", f"/channels/{table.channel.id}/messages/{message_id}",
                     status=429, message="You are being rate limited.", times=2)
    await choose(table, ann, "trade")
    await env.advance_time(8)  # the bot's retries wait 1 s, then 2 s
    samples = await scrape(bot)
    assert value(samples, "commerce_discord_429_total", seen_by="retrying") == 2
    assert value(samples, "commerce_discord_retries_total", status="429") == 2
    assert value(samples, "commerce_discord_retries_total", status="5xx") == 0

    env.inject_error("PATCH", f"/channels/{table.channel.id}/messages/{message_id}",
                     status=502, message="Bad gateway", times=1)
    await choose(table, ben, "trade")
    await env.advance_time(4)
    samples = await scrape(bot)
    assert value(samples, "commerce_discord_retries_total", status="5xx") == 1

    # a 429 that ends an interaction: the answer to it refused once
    env.inject_error("POST", "/interactions/*", status=429,
                     message="You are being rate limited.", times=1)
    await cat.click(table.table_message(), label="My hand")
    samples = await scrape(bot)
    assert value(samples, "commerce_discord_429_total", seen_by="interaction") == 1
    assert value(samples, "commerce_interactions_total", kind="play",
                 outcome="discord_error") == 1
    env.errors  # noqa: B018


async def test_open_tables_the_watch_and_the_shards_are_read_at_each_scrape(
        simcord_env, bots):
    env = simcord_env
    guild = env.create_guild()
    general = guild.create_text_channel("general")
    ann = guild.add_member(env.create_user("ann"))
    await ann.slash(general, "commerce new")
    bot = bots[-1]
    samples = await scrape(bot)
    assert value(samples, "commerce_open_tables", state="lobby") == 1
    assert value(samples, "commerce_open_tables", state="playing") == 0
    assert value(samples, "commerce_shard_claimed", shard="0") == 1
    assert value(samples, "commerce_shard_claims_total", outcome="made") == 1
    assert value(samples, "commerce_discord_ready") == 1
    lobby = guild.channels["commerce-1"].history()[0]
    await ann.click(lobby, label="Add AI")
    await ann.click(lobby, label="Add AI")
    await ann.click(lobby, label="Start")
    await env.advance_time(31)
    samples = await scrape(bot)
    assert value(samples, "commerce_open_tables", state="lobby") == 0
    assert value(samples, "commerce_open_tables", state="playing") == 1
    rounds = value(samples, "commerce_watch_rounds_total")
    assert rounds >= 5  # one every 5 s of the 31
    assert value(samples, "commerce_watch_lag_seconds") == 0  # it keeps pace

    bot.timers.watch.cancel()  # the watch stops (as an unhandled error would stop it)
    await env.advance_time(60)
    samples = await scrape(bot)
    assert value(samples, "commerce_watch_rounds_total") == rounds
    assert value(samples, "commerce_watch_lag_seconds") >= 50
    status, body = await healthy(bot)
    assert status == 503 and "watch" in body["reason"], body
    bot.timers.watch.start()
    await env.advance_time(6)
    assert await healthy(bot) == (200, {"status": "ok"})


async def test_no_label_names_a_table_a_member_a_channel_or_a_card(simcord_env, bots):
    env = simcord_env
    table, actors, watcher = await start(env, bots, "foster", dealer=2)
    await choose(table, actors[0], "trade")
    await env.advance_time(10)
    status, text = await fetch(table.bot, "metrics")
    assert status == 200
    ids = {str(table.live.id), str(table.channel.id), str(table.channel.guild.id),
           *(str(a.id) for a in (*actors, watcher))}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            for name, label in sample.labels.items():
                if family.name.startswith("commerce_"):
                    assert label not in ids, (sample, name)
                    assert not CARD_LABEL.search(label) and not re.search(
                        r"\b(10|[2-9JQKA])[cdhs]\b", label), (sample, name)
                if name == "kind":
                    assert re.fullmatch(r"/[a-z -]+|[a-z]+", label), sample
    for snowflake in ids - {str(table.live.id)}:
        assert snowflake not in text


async def test_health_is_ok_then_unhealthy_while_the_database_does_not_answer(
        simcord_env, bots, monkeypatch):
    env = simcord_env
    await start(env, bots, "foster", dealer=2)
    bot = bots[-1]
    assert await healthy(bot) == (200, {"status": "ok"})

    async def no_answer() -> None:  # a database that answers a minute later
        await asyncio.sleep(60)

    monkeypatch.setattr(bot.storage, "ping", no_answer)
    asking = asyncio.ensure_future(healthy(bot))
    for _ in range(20):  # the check waits on the bot's clock: SimCord's virtual time
        await env.advance_time(0.5)
        if asking.done():
            break
    status, body = await asking
    assert status == 503 and body == {"status": "unhealthy", "reason": (
        f"the database did not answer within {health.STORAGE_WAIT:g} s")}

    async def refused() -> None:
        raise OSError("connection refused")

    monkeypatch.setattr(bot.storage, "ping", refused)
    status, body = await healthy(bot)
    assert status == 503 and body["reason"] == "the database did not answer (OSError)"
    monkeypatch.undo()
    assert (await healthy(bot))[0] == 200


async def test_health_is_unhealthy_once_the_storage_is_closed_or_the_bot_stops(
        simcord_env, bots):
    env = simcord_env
    await start(env, bots, "foster", dealer=2)
    bot = bots[-1]
    await bot.storage.close()
    status, body = await healthy(bot)
    assert status == 503 and body["reason"] == "the database did not answer (RuntimeError)"
    bot.in_flight.close()  # the first step of a clean stop (bot/process/stopping.py)
    assert await healthy(bot) == (503, {"status": "unhealthy", "reason": "the bot is stopping"})
    url = bot.endpoint.url
    await bot.close_storage()  # the last step: the endpoint stops listening
    assert bot.endpoint is None
    with pytest.raises(aiohttp.ClientConnectionError):
        async with aiohttp.ClientSession() as session, session.get(url + "health"):
            pass


async def test_without_an_endpoint_the_bot_listens_nowhere_and_still_counts(
        simcord_env, bots, make_bot):
    env = simcord_env
    from tests.cogs.helpers import restart

    quiet = make_bot()  # as create_bot builds it by default
    await restart(env, quiet, bots[0])
    assert quiet.endpoint_address is None and quiet.endpoint is None
    guild = env.create_guild()
    ann = guild.add_member(env.create_user("ann"))
    await ann.slash(guild.create_text_channel("general"), "commerce new")
    assert quiet.metrics.registry.get_sample_value(
        "commerce_interactions_total", {"kind": "/commerce new", "outcome": "ok"}) == 1
    assert quiet.metrics.registry.get_sample_value(
        "commerce_open_tables", {"state": "lobby"}) == 1
