"""Issue 21: one step after every change (``bot.changes.after``), and one place turning an
error into a reply (``bot.interactions.guard.error_reply``). A slash command and the
button doing the same thing give the same result; a storage failure of a timer's
automatic deal is logged, never taken for a member's refusal."""

from __future__ import annotations

import functools
import logging
import types

import pytest

from tests.cogs.helpers import Table, answer_text, message_text, private
from tests.cogs.test_confirmations import choose, start
from tests.cogs.test_faults import fail_next_commit


async def a_lobby(env, names=("ann",), joined=(), ai=0):
    """The first of ``names`` opens a lobby, those of ``joined`` (indexes) press
    Join, the host adds ``ai`` AI seats. Returns the guild, the channel, the
    lobby message and the members."""
    guild = env.create_guild()
    general = guild.create_text_channel("general")
    actors = [guild.add_member(env.create_user(n)) for n in names]
    await actors[0].slash(general, "commerce new")
    channel = guild.channels["commerce-1"]
    lobby = channel.history()[0]
    for index in joined:
        await actors[index].click(lobby, label="Join")
    for _ in range(ai):
        await actors[0].click(lobby, label="Add AI")
    return guild, channel, lobby, actors


async def lobby_of_three(env):
    """Ann opens a lobby, ben and cat join; ann then leaves the server without
    the bot being told (no members intent). Returns the channel, the lobby, ben."""
    guild, channel, lobby, (ann, ben, cat) = await a_lobby(env, ("ann", "ben", "cat"), (1, 2))
    await ben.click(lobby, label="Add AI")
    guild.remove_member(ann)
    return guild, channel, lobby, ben, cat


@pytest.mark.parametrize("path", ["button", "slash"])
async def test_start_passes_a_departed_hosts_lobby_on(simcord_env, bots, path):
    env = simcord_env
    guild, channel, lobby, ben, cat = await lobby_of_three(env)
    if path == "button":
        res = await ben.click(lobby, label="Start")
    else:
        res = await ben.slash(channel, "commerce start")
    table = Table(env, bots, channel, {ben.id: ben, cat.id: cat})
    live = table.live
    assert live.row.host_id == ben.id, answer_text(res)
    assert live.row.status == "playing" and live.deal is not None
    assert live.row.table_message_id is not None
    assert "Only the host" not in answer_text(res)


async def ended_by(env, bots, path: str):
    """A running table ended by ``/commerce end`` (its host) or by
    ``/commerce-admin cancel`` (a moderator). Returns the guild and the table."""
    import discord
    guild, channel, lobby, (ann,) = await a_lobby(env, ai=2)
    general = guild.channels["general"]
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    mod = guild.add_member(env.create_user("mod"), roles=[mods])
    await ann.click(lobby, label="Start")
    table = Table(env, bots, channel, {ann.id: ann})
    number = table.live.row.number
    if path == "end":
        res = await ann.slash(channel, "commerce end")
    else:
        res = await mod.slash(general, "commerce-admin cancel", table=number)
    assert "closed" in answer_text(res)
    await env.settle()
    return guild, table


@pytest.mark.parametrize("path", ["end", "cancel"])
async def test_end_and_admin_cancel_close_the_channel_alike(simcord_env, bots, path):
    env = simcord_env
    guild, table = await ended_by(env, bots, path)
    perms = table.bot.get_channel(table.channel.id).overwrites_for(guild.default_role)
    assert perms.send_messages is False
    assert table.bot.service.current(table.live.id) is None  # its end was shown
    texts = [message_text(m) for m in table.channel.history()]
    assert any("read-only" in t for t in texts)


@pytest.mark.parametrize("path", ["button", "slash"])
async def test_the_last_player_leaving_closes_the_lobby_alike(simcord_env, bots, path):
    env = simcord_env
    guild, channel, lobby, (ann,) = await a_lobby(env, ai=1)
    table = Table(env, bots, channel, {ann.id: ann})
    table_id = table.live.id
    if path == "button":
        res = await ann.click(lobby, label="Leave")
    else:
        res = await ann.slash(channel, "commerce leave")
    await env.settle()
    assert table.bot.service.current(table_id) is None, answer_text(res)
    assert guild.channels.get("commerce-1") is None  # a lobby's own channel goes


@pytest.mark.parametrize("path", ["button", "slash"])
async def test_a_lobby_left_by_one_of_two_shows_the_same(simcord_env, bots, path):
    env = simcord_env
    guild, channel, lobby, (ann, ben) = await a_lobby(env, ("ann", "ben"), (1,))
    if path == "button":
        res = await ben.click(lobby, label="Leave")
    else:
        res = await ben.slash(channel, "commerce leave")
    assert private(res) or path == "button"
    lobby = channel.history()[0]
    assert "ben" not in message_text(lobby)
    assert [c.label for row in lobby.components for c in row.children][:1] == ["Join"]


async def test_a_storage_failure_of_an_automatic_deal_is_logged(simcord_env, bots, caplog):
    """The timer's next deal fails to commit: it is logged as the bot's failure
    (not taken for someone pressing Next deal), and the watch deals it later."""
    env = simcord_env
    table, (ann, ben, cat), _ = await start(env, bots, "foster", dealer=2)
    while not table.live.deal.finished:
        await choose(table, table.actor_to_act(), "knock")
    number = table.live.deal_number
    caplog.set_level(logging.INFO)
    fail_next_commit(table.bot)
    await env.advance_time(31)  # the delay passes: the automatic deal's commit fails
    said = [r for r in caplog.records if r.name == "bot.timers.clock"]
    assert any("automatic next deal" in r.getMessage() and r.levelno >= logging.WARNING
               for r in said), [r.getMessage() for r in said]
    env.errors  # noqa: B018 — logged on purpose
    await env.advance_time(40)  # the watch arms the delay again; this time it commits
    assert table.live.deal_number == number + 1


@pytest.mark.parametrize("path", ["button", "slash"])
async def test_a_storage_failure_is_answered_alike(simcord_env, bots, path):
    """The same error (a write that failed) gives the same words from a slash
    command and from a button."""
    env = simcord_env
    guild, channel, lobby, (ann, ben) = await a_lobby(env, ("ann", "ben"))
    table = Table(env, bots, channel, {ann.id: ann})
    fail_next_commit(table.bot)
    if path == "button":
        res = await ben.click(lobby, label="Join")
    else:
        res = await ben.slash(channel, "commerce join")
    env.errors  # noqa: B018
    assert private(res)
    assert answer_text(res) == ("I could not save that (a storage problem on the bot's side), "
                                "so nothing changed. Try again in a moment.")
    assert table.live.seat_of(ben.id) is None


async def test_an_unexpected_error_is_answered_alike(simcord_env, bots, monkeypatch):
    """A bug (any other error) gives the same apology from a slash command's last
    resort (the tree's ``on_error``) and from a button (``guarded``)."""
    from bot.interactions.guard import error_reply
    text, _ = error_reply(RuntimeError("boom"), None)
    env = simcord_env
    guild, channel, lobby, (ann,) = await a_lobby(env)
    bot = bots[-1]

    def broken(*args, **kwargs):
        raise RuntimeError("boom")
    monkeypatch.setattr(bot.service, "in_channel", broken)
    res = await ann.slash(channel, "commerce cut", text="x")  # outside ``guarded``
    env.errors  # noqa: B018
    assert answer_text(res) == text and private(res)
    monkeypatch.setattr(bot.service, "add_ai", broken)
    res = await ann.click(channel.history()[0], label="Add AI")
    assert answer_text(res) == text


def spy_after(bot, monkeypatch):
    """Every outcome handed to the bot's one step after a change, in order."""
    seen = []
    show = bot.after.show

    async def spy(outcome, *args, **kwargs):
        seen.append(outcome)
        await show(outcome, *args, **kwargs)
    monkeypatch.setattr(bot.after, "show", spy)
    return seen


async def test_a_cut_goes_through_the_step_after_every_change(simcord_env, bots, monkeypatch):
    env = simcord_env
    guild, channel, lobby, (ann,) = await a_lobby(env, ai=1)
    seen = spy_after(env.bot, monkeypatch)
    res = await ann.slash(channel, "commerce cut", text="apple")
    assert "`apple`" in answer_text(res)
    assert [o.cut for o in seen] == [(1, "apple")]
    assert "apple" in message_text(channel.history()[0])  # the lobby lists it
    assert env.errors == []


async def test_the_watch_catches_up_through_the_step_after_every_change(
        simcord_env, bots, monkeypatch):
    env = simcord_env
    table, (ann, ben, cat), _ = await start(env, bots, "foster", dealer=2)
    caught = []
    catch_up = table.bot.timers.catch_up  # the plain callback the timers were given
    assert catch_up == table.bot.after.catch_up

    async def spy(live):
        caught.append(live.id)
        await catch_up(live)
    monkeypatch.setattr(table.bot.timers, "catch_up", spy)
    message_id = table.live.row.table_message_id
    env.inject_error("PATCH", f"/channels/{table.channel.id}/messages/{message_id}",
                     status=502, code=0, message="Bad gateway", times=6)
    await choose(table, ann, "trade")
    await env.advance_time(8)  # the bot's own retries run out: the table is behind
    assert table.live.id in table.bot.publisher.behind
    await env.advance_time(10)  # the watch catches up, through bot.after
    assert table.live.id not in table.bot.publisher.behind
    assert table.live.id in caught
    assert "traded" in message_text(table.message(message_id))


def held_by(root: object) -> list[object]:
    """Every object ``root`` holds, followed through the attributes of objects of
    ``bot.publishing``, containers, bound methods and partials (not into the
    client or the service, which are no part of the publisher)."""
    seen: set[int] = set()
    found: list[object] = []
    todo = [root]
    while todo:
        obj = todo.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        found.append(obj)
        if isinstance(obj, dict):
            todo += [*obj.keys(), *obj.values()]
        elif isinstance(obj, list | tuple | set | frozenset):
            todo += list(obj)
        elif isinstance(obj, types.MethodType):
            todo.append(obj.__self__)
        elif isinstance(obj, functools.partial):
            todo += [obj.func, *obj.args, *obj.keywords.values()]
        elif type(obj).__module__.startswith("bot.publishing") and hasattr(obj, "__dict__"):
            todo += list(vars(obj).values())
    return found


async def test_the_publisher_holds_no_timer_yet_shows_their_deadlines(simcord_env, bots):
    """The wiring goes one way (docs/ARCHITECTURE.md, "After a change"): with a
    showdown posted and its next deal waiting, nothing the publisher holds is the
    timers or the step after every change; the next deal's time it shows is the
    one the timers armed, read from its own ``countdowns``."""
    from bot.changes.after import AfterChange, Arming
    from bot.timers.clock import Timers

    env = simcord_env
    table, _, _ = await start(env, bots, "foster", dealer=2)
    while not table.live.deal.finished:
        await choose(table, table.actor_to_act(), "knock")
    await env.settle()
    bot, live = table.bot, table.live
    assert bot.timers.waiting(live.id)
    at = bot.publisher.countdowns.next_deal_at(live.id)
    assert at is not None and at == bot.timers.next_deal_at(live.id)
    held = held_by(bot.publisher)
    assert len(held) > 20  # the walk went through the publisher's parts
    assert not any(isinstance(o, Timers | AfterChange | Arming) for o in held)
    assert bot.timers not in held and bot.after not in held
