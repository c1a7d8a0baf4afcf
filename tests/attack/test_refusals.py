"""Classes 1 and 5: Discord refusing (429 / 5xx) for a while at the moments a
control should be taken away: the next deal (the old showdown's Next deal), the
end of a table (an offer's answers, the last showdown's Next deal, the panels).
Bursts last longer than the bot's own retries (1 + 2 + 4 s), then clear."""

from __future__ import annotations

import pytest

from tests.attack.common import live_controls, titles
from tests.cogs.golden import offers_a_move, title
from tests.cogs.helpers import RETRY_SETTLE, restart, rows
from tests.cogs.test_confirmations import choose, start

pytestmark = pytest.mark.simcord(settle_timeout=RETRY_SETTLE)

PATCH = "/channels/*/messages/*"


def burst(env, method=PATCH and "PATCH", path=PATCH, status=429):
    env.inject_error(method, path, status=status, code=0,
                     message="You are being rate limited." if status == 429 else "Bad gateway",
                     times=None)


async def knock_to_the_showdown(table):
    while not table.live.deal.finished:
        await choose(table, table.actor_to_act(), "knock")


@pytest.mark.parametrize("status", [429, 502])
async def test_the_old_showdowns_next_deal_goes_when_the_next_deal_starts_in_a_burst(
        simcord_env, bots, status):
    env = simcord_env
    table, (ann, ben, cat), _ = await start(env, bots, "foster", dealer=2)
    await knock_to_the_showdown(table)
    await env.advance_time(1)
    [showdown] = [m for m in table.channel.history() if title(m) == "Showdown · deal 1"]
    assert offers_a_move(showdown)  # Next deal
    burst(env, status=status)
    await env.advance_time(31)  # the next deal starts by itself, during the burst
    assert table.live.deal_number == 2
    await env.advance_time(60)
    env.backend.faults.clear()  # Discord takes requests again
    await env.advance_time(30)
    showdown = table.message(showdown.id)
    # deal 2 is being played, but deal 1's showdown still offers Next deal (for ever)
    assert not offers_a_move(showdown), [c.label for r in showdown.components
                                         for c in r.children]
    env.errors  # noqa: B018


async def test_an_offers_answers_go_when_the_table_is_ended_in_a_burst(simcord_env, bots):
    env = simcord_env
    table, (ann, ben, cat), _ = await start(env, bots, "foster", dealer=2)
    await choose(table, ann, "barter")  # ann offers ben a card: ben's offer message
    offer = table.offer_message(ben)
    assert offers_a_move(offer)
    burst(env)
    await ann.slash(table.channel, "commerce end")
    await env.advance_time(60)
    env.backend.faults.clear()
    await env.advance_time(60)
    [(status, shown)] = await rows(table.bot, "SELECT status, end_shown FROM tables")
    assert status == "closed"
    assert sum(t.startswith("Game over") for t in titles(table.channel)) <= 1
    # the table is closed, yet ben's offer still has Accept / Refuse
    assert not offers_a_move(table.message(offer.id)), live_controls(table.channel)
    assert shown == 1
    env.errors  # noqa: B018


async def test_the_last_showdowns_next_deal_goes_when_ended_between_deals_in_a_burst(
        simcord_env, bots):
    env = simcord_env
    table, (ann, ben, cat), _ = await start(env, bots, "foster", dealer=2)
    await table.bot.service.set_delay(table.live.id, ann.id, 0)  # Next deal button only
    await knock_to_the_showdown(table)
    await env.advance_time(1)
    [showdown] = [m for m in table.channel.history() if title(m) == "Showdown · deal 1"]
    assert offers_a_move(showdown)
    burst(env)
    await ann.slash(table.channel, "commerce end")
    await env.advance_time(60)
    env.backend.faults.clear()
    await env.advance_time(60)
    assert not live_controls(table.channel), live_controls(table.channel)
    env.errors  # noqa: B018


async def test_panels_lose_their_buttons_when_the_table_is_ended_in_a_burst(simcord_env, bots):
    """Ann's panel is open (its token lives) when the host ends the table while
    Discord refuses the webhook edits for a while: the panel keeps its move buttons."""
    env = simcord_env
    table, (ann, ben, cat), _ = await start(env, bots, "foster", dealer=2)
    panel = await ann.click(table.table_message(), label="My hand")
    assert any(c.get("type") == 2 and ":pick:" in c.get("custom_id", "")
               for row in panel.response.components for c in row["components"])
    burst(env, "PATCH", "/webhooks/*/messages/*")
    await ann.slash(table.channel, "commerce end")
    await env.advance_time(30)
    env.backend.faults.clear()
    await env.advance_time(60)
    stored = env.backend.get_message(table.channel.id, panel.response.id)
    moves = [c for row in stored.components for c in row.get("components", [])
             if ":pick:" in c.get("custom_id", "")] if stored.components else []
    assert not moves, [c.get("label") for c in moves]
    env.errors  # noqa: B018


async def test_an_answered_offer_loses_its_buttons_after_a_burst(simcord_env, bots):
    """Ben answers ann's barter while Discord refuses message edits for a while: the
    move is saved, but the offer message keeps Accept / Refuse (knock) for ever."""
    env = simcord_env
    table, (ann, ben, cat), _ = await start(env, bots, "foster", dealer=2)
    await choose(table, ann, "barter")
    offer = table.offer_message(ben)
    burst(env)
    await table.accept(ben)
    await env.advance_time(30)
    env.backend.faults.clear()
    await env.advance_time(60)
    assert table.live.deal.pending is None  # answered
    assert not offers_a_move(table.message(offer.id)), [
        c.label for r in table.message(offer.id).components for c in r.children]
    env.errors  # noqa: B018


async def test_an_offer_ping_refused_is_posted_later(simcord_env, bots):
    """Ann offers ben a barter while Discord refuses new messages for a while: the
    offer message that pings ben with Accept / Refuse is never posted afterwards."""
    env = simcord_env
    table, (ann, ben, cat), _ = await start(env, bots, "foster", dealer=2)
    burst(env, "POST", "/channels/*/messages")
    await choose(table, ann, "barter")
    await env.advance_time(30)
    env.backend.faults.clear()
    await env.advance_time(60)
    assert table.live.deal.pending is not None
    table.offer_message(ben)  # AssertionError: no barter offer message
    env.errors  # noqa: B018


@pytest.mark.parametrize("path", ["/channels/*/permissions/*"], ids=["channel-read-only"])
async def test_a_restart_while_the_last_steps_of_an_end_are_refused_posts_no_second_standings(
        simcord_env, bots, make_bot, path):
    """The last deal ends; the showdown and the final standings are posted, but a later
    step of the end (the lobby's edit, the panels, the channel made read-only) meets a
    burst, so the end is still owed (end_shown = 0). The process restarts before the
    burst clears: the new process shows the whole end again, final standings included."""
    env = simcord_env
    table, (ann, ben, cat), _ = await start(env, bots, "foster", dealer=2, deals_per_player=1)
    while table.live.deal_number < 3 or table.live.deal.finished:
        if table.live.deal.finished:
            await env.advance_time(31)
        else:
            await choose(table, table.actor_to_act(), "knock")
    # keep a panel open so that the panel step has something to edit
    await ann.click(table.table_message(), label="My hand")
    burst(env, "*", path)
    while not table.live.deal.finished:
        await choose(table, table.actor_to_act(), "knock")
    await env.advance_time(20)
    finals = sum(t.startswith("Game over") for t in titles(table.channel))
    [(shown,)] = await rows(table.bot, "SELECT end_shown FROM tables")
    if finals == 0 or shown == 1:
        pytest.skip(f"this step was not reached under the burst (finals {finals}, "
                    f"shown {shown})")
    await restart(env, make_bot())
    env.backend.faults.clear()
    await env.advance_time(30)
    [(shown,)] = await rows(table.bot, "SELECT end_shown FROM tables")
    assert shown == 1
    assert sum(t.startswith("Game over") for t in titles(table.channel)) == 1, \
        titles(table.channel)
    env.errors  # noqa: B018
