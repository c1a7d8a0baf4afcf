"""A public message Discord refused to update for a while is brought up to date
once Discord accepts requests again (docs/RELIABILITY.md "Discord refuses"): the
table message, a showdown, a lobby, the final standings. The moves are saved at
once; only what Discord shows lags, and the watch sees that it is behind."""

from __future__ import annotations

import pytest

from tests.cogs.golden import title
from tests.cogs.helpers import RETRY_SETTLE, message_text, restart, rows
from tests.cogs.test_confirmations import choose, start

pytestmark = pytest.mark.simcord(settle_timeout=RETRY_SETTLE)


def refuse(env, method: str, path: str, status: int, times: int | None) -> None:
    env.inject_error(method, path, status=status, code=0,
                     message="You are being rate limited." if status == 429 else "Bad gateway",
                     times=times)


@pytest.mark.parametrize("status", [429, 502])
async def test_a_table_message_refused_six_times_catches_up(simcord_env, bots, status):
    env = simcord_env
    table, (ann, ben, cat), _ = await start(env, bots, "foster", dealer=2)
    message_id = table.live.row.table_message_id
    before = message_text(table.message(message_id))
    refuse(env, "PATCH", f"/channels/{table.channel.id}/messages/{message_id}", status, 6)
    await choose(table, ann, "trade")
    assert len(table.live.deal.operations) == 1  # the move is saved at once
    await env.advance_time(8)  # the bot's own retries run out
    assert message_text(table.message(message_id)) == before
    assert table.live.id in table.bot.publisher.behind
    await env.advance_time(10)  # Discord takes requests again: the watch catches up
    after = message_text(table.message(message_id))
    assert after != before and "traded" in after
    assert table.live.id not in table.bot.publisher.behind
    env.errors  # noqa: B018  (the refusals were logged, not raised to a member)


async def test_a_burst_that_clears_later_is_caught_up_after_it(simcord_env, bots):
    env = simcord_env
    table, (ann, ben, cat), _ = await start(env, bots, "foster", dealer=2)
    message_id = table.live.row.table_message_id
    refuse(env, "PATCH", f"/channels/{table.channel.id}/messages/*", 429, None)
    await choose(table, ann, "trade")
    await env.advance_time(60)
    assert "traded" not in message_text(table.message(message_id))
    env.backend.faults.clear()
    await env.advance_time(6)
    assert "traded" in message_text(table.message(message_id))
    env.errors  # noqa: B018


async def test_a_showdown_and_the_final_standings_refused_are_posted_later_once(
        simcord_env, bots):
    env = simcord_env
    table, (ann, ben, cat), _ = await start(env, bots, "foster", dealer=2,
                                            deals_per_player=1)
    while table.live.deal_number < 3 or table.live.deal.finished:  # to the last deal
        if table.live.deal.finished:
            await env.advance_time(31)
        else:
            await choose(table, table.actor_to_act(), "knock")
    assert table.live.deal_number == 3 and not table.live.deal.finished
    refuse(env, "POST", f"/channels/{table.channel.id}/messages", 503, 8)
    await choose(table, table.actor_to_act(), "knock")
    [(status, shown)] = await rows(table.bot, "SELECT status, end_shown FROM tables")
    assert (status, shown) == ("finished", 0)
    await env.advance_time(60)
    titles = [title(m) for m in table.channel.history()]
    assert titles.count("Showdown · deal 3") == 1
    assert sum(t.startswith("Game over") for t in titles) == 1
    assert titles[-1].startswith("Game over")
    [(status, shown)] = await rows(table.bot, "SELECT status, end_shown FROM tables")
    assert (status, shown) == ("finished", 1)
    env.errors  # noqa: B018


async def test_a_lobby_refused_catches_up(simcord_env, bots):
    env = simcord_env
    guild = env.create_guild()
    general = guild.create_text_channel("general")
    ann, ben = (guild.add_member(env.create_user(n)) for n in ("ann", "ben"))
    await ann.slash(general, "commerce new")
    channel = guild.channels["commerce-1"]
    lobby = channel.history()[0]
    refuse(env, "PATCH", f"/channels/{channel.id}/messages/{lobby.id}", 429, 6)
    await ben.slash(channel, "commerce join")
    await env.advance_time(8)
    assert "ben" not in message_text(table_lobby := channel.history()[0]), table_lobby
    await env.advance_time(10)
    assert "ben" in message_text(channel.history()[0])
    env.errors  # noqa: B018


async def test_an_end_still_owed_is_shown_after_a_restart(simcord_env, bots, make_bot):
    env = simcord_env
    table, (ann, ben, cat), _ = await start(env, bots, "foster", dealer=2,
                                            deals_per_player=1)
    while table.live.deal_number < 3 or table.live.deal.finished:
        if table.live.deal.finished:
            await env.advance_time(31)
        else:
            await choose(table, table.actor_to_act(), "knock")
    refuse(env, "POST", f"/channels/{table.channel.id}/messages", 503, None)
    await choose(table, table.actor_to_act(), "knock")
    [(shown,)] = await rows(table.bot, "SELECT end_shown FROM tables")
    assert shown == 0
    await restart(env, make_bot())  # the process died with the end still owed
    env.backend.faults.clear()
    await env.advance_time(10)
    titles = [title(m) for m in table.channel.history()]
    assert titles.count("Showdown · deal 3") == 1
    assert sum(t.startswith("Game over") for t in titles) == 1
    [(shown,)] = await rows(table.bot, "SELECT end_shown FROM tables")
    assert shown == 1
    assert not table.bot.service.ending
    env.errors  # noqa: B018
