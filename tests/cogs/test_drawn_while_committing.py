"""Issue 22: what a move's answer shows (the member's panel with its hand picture
after a move from the panel, the table picture after a press on the table
message) is drawn while the move's commit is on the database's thread
(``Storage.while_committing``) and used once the commit is done, or dropped if
it fails; what is shown only after the answer (the table picture after a panel's
move, the panel after a knock, the showdown, a new deal's table message) is
drawn after the answer, never before it, so that the member's answer never
waits for it."""

from __future__ import annotations

import sqlite3
import threading
import time
from typing import Any

import discord
import pytest

from bot.storage import PgStorage
from bot.ui import media, panel, pictures
from tests.cogs.helpers import answer_text
from tests.cogs.test_table_pictures import pick, start


def last_showdown(channel):
    return next(m for m in reversed(channel.history())
                if m.embeds and (m.embeds[0].title or "").startswith("Showdown"))


async def test_a_moves_answer_is_drawn_while_the_move_commits_and_the_rest_after_it(
        simcord_env, bots, monkeypatch: pytest.MonkeyPatch):
    """The commit of a unit given work meanwhile is held on the thread (as a slow
    disk would) until the picture the answer needs is drawn, for at most 2 s:
    that picture drawn while ``committing`` proves the overlap; every other one
    is drawn once the member is answered."""
    env = simcord_env
    guild, table, actors = await start(env, bots)
    media._table_picture.cache_clear()  # a state drawn in another test is drawn again
    storage = table.bot.service.storage
    committing, answered = [False], [False]
    on_thread, commit, while_committing = (storage._on_thread, storage._commit,
                                           storage.while_committing)
    expected, release = threading.Event(), threading.Event()
    needed = [""]  # the picture the answer of the click under way needs

    async def watched(fn: Any) -> Any:
        committing[0] = True
        try:
            return await on_thread(fn)
        finally:
            committing[0] = False

    def registered(fn: Any) -> None:
        expected.set()
        while_committing(fn)

    def slow_commit(conn: Any) -> None:
        if expected.is_set():
            expected.clear()
            release.wait(2)
            release.clear()
        commit(conn)
    monkeypatch.setattr(storage, "_on_thread", watched)
    monkeypatch.setattr(storage, "_commit", slow_commit)
    monkeypatch.setattr(storage, "while_committing", registered)
    drawn: list[tuple[str, str]] = []
    # media draws each picture from its scene (``draw_table``, ``draw_showdown``)
    table_png, showdown_png, build = pictures.draw_table, pictures.draw_showdown, panel.build

    def drawing(kind: str, draw: Any) -> Any:
        def wrapped(*args: Any, **kwargs: Any) -> Any:
            drawn.append((kind, "committing" if committing[0]
                          else "after the answer" if answered[0] else "before the answer"))
            try:
                return draw(*args, **kwargs)
            finally:
                if kind == needed[0]:
                    release.set()
        return wrapped
    monkeypatch.setattr(pictures, "draw_table", drawing("table", table_png))
    monkeypatch.setattr(pictures, "draw_showdown", drawing("showdown", showdown_png))
    monkeypatch.setattr(panel, "build", drawing("panel", build))
    for name in ("edit_message", "send_message", "defer"):
        def answering(original: Any) -> Any:
            async def answer(self: Any, *args: Any, **kwargs: Any) -> Any:
                answered[0] = True
                return await original(self, *args, **kwargs)
            return answer
        monkeypatch.setattr(discord.InteractionResponse, name,
                            answering(getattr(discord.InteractionResponse, name)))

    def click() -> None:
        drawn.clear()
        answered[0] = False

    # a trade from the panel: its panel while it commits, the new table picture
    # (the table message's edit) once the member is answered
    actor = table.actor_to_act()
    hand = await actor.click(table.table_message(), label="My hand")
    click()
    needed[0] = "panel"
    await actor.click(hand.response, custom_id=pick(hand, "trade"))
    assert drawn == [("panel", "committing"), ("table", "after the answer")]
    # a knock on the table message, answered by that message's edit: its table
    # picture while it commits; the member's panel and the showdown after
    click()
    needed[0] = "table"
    await table.knock(table.actor_to_act())
    assert table.live.deal.finished
    assert drawn[0] == ("table", "committing")
    assert {when for _, when in drawn[1:]} == {"after the answer"}
    assert {kind for kind, _ in drawn[1:]} == {"panel", "showdown"}  # panels: theirs, others'
    assert [kind for kind, _ in drawn].count("showdown") == 1
    # Next deal, answered by the showdown's edit: the new deal's table message after it
    click()
    needed[0] = ""
    await actors[0].click(last_showdown(table.channel), label="Next deal")
    assert table.live.deal_number == 2
    assert [d for d in drawn if d[0] == "table"] == [("table", "after the answer")]
    assert not env.errors


async def test_pictures_shown_after_the_answer_are_not_drawn_once_the_commit_is_done(
        simcord_env, bots, monkeypatch: pytest.MonkeyPatch):
    """A commit done before the answer's panel is (the panel takes 0.5 s here): the
    table picture is not drawn ahead of the answer, where it would only delay it,
    but after it, once."""
    env = simcord_env
    guild, table, actors = await start(env, bots)
    media._table_picture.cache_clear()
    build, table_png = panel.build, pictures.draw_table
    answered = [False]
    order: list[bool] = []  # per table picture drawn: whether the member was answered

    def building(*args: Any, **kwargs: Any) -> panel.Panel:
        rendered = build(*args, **kwargs)
        time.sleep(0.5)  # the loop is busy: the commit on the thread ends meanwhile
        return rendered

    def drawing_table(*args: Any, **kwargs: Any) -> bytes:
        order.append(answered[0])
        return table_png(*args, **kwargs)
    response_edit = discord.InteractionResponse.edit_message

    async def answering(self: Any, *args: Any, **kwargs: Any) -> Any:
        answered[0] = True
        return await response_edit(self, *args, **kwargs)
    actor = table.actor_to_act()
    hand = await actor.click(table.table_message(), label="My hand")
    monkeypatch.setattr(panel, "build", building)
    monkeypatch.setattr(pictures, "draw_table", drawing_table)
    monkeypatch.setattr(discord.InteractionResponse, "edit_message", answering)
    await actor.click(hand.response, custom_id=pick(hand, "trade"))
    assert answered[0]
    assert order == [True]  # drawn once, after the answer
    assert not env.errors


async def test_what_was_drawn_for_a_move_whose_commit_fails_is_never_shown(
        simcord_env, bots, monkeypatch: pytest.MonkeyPatch):
    """The move's commit fails once the answer's panel was drawn for it (while the
    commit was on the database's thread): the member is told nothing changed, on
    a panel showing their hand as it was, never the panel drawn for the move; the
    table's state is unchanged."""
    env = simcord_env
    guild, table, actors = await start(env, bots)
    storage = table.bot.service.storage
    if isinstance(storage, PgStorage):
        pytest.skip("the commit is held on SQLite's thread")
    actor = table.actor_to_act()
    live = table.live
    seat = live.seat_of(actor.id)
    ops, cards = len(live.deal.operations), list(live.deal.hands[seat])
    hand = await actor.click(table.table_message(), label="My hand")
    built: list[panel.Panel] = []
    drew, build, commit = threading.Event(), panel.build, storage._commit

    def building(*args: Any, **kwargs: Any) -> panel.Panel:
        built.append(build(*args, **kwargs))
        drew.set()
        return built[-1]

    def failing(conn: Any) -> None:
        if drew.wait(2):  # the move's panel was drawn while this commit was under way
            raise sqlite3.OperationalError("disk I/O error")
        commit(conn)
    monkeypatch.setattr(panel, "build", building)
    monkeypatch.setattr(storage, "_commit", failing)
    res = await actor.click(hand.response, custom_id=pick(hand, "trade"))
    monkeypatch.setattr(storage, "_commit", commit)
    assert "You traded" in built[0].content  # drawn for the move, before its commit failed
    assert "nothing changed" in answer_text(res)
    assert "You traded" not in answer_text(res)
    live = table.live
    assert len(live.deal.operations) == ops and list(live.deal.hands[seat]) == cards
    env.errors  # noqa: B018 — the failed commit is logged on purpose
