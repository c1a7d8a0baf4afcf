"""Issue 22: what a move's answer shows (the member's panel with its hand picture,
the table picture, the showdown's picture at a deal's end) is drawn while the
move's commit is on the database's thread (``Storage.while_committing``), and used
once the commit is done: each picture is drawn once, never again after the commit."""

from __future__ import annotations

from typing import Any

import pytest

from bot.ui import panel, pictures
from tests.cogs.test_table_pictures import pick, start


def last_showdown(channel):
    return next(m for m in reversed(channel.history())
                if m.embeds and (m.embeds[0].title or "").startswith("Showdown"))


async def test_a_moves_answer_is_drawn_while_the_move_commits(simcord_env, bots,
                                                              monkeypatch: pytest.MonkeyPatch):
    env = simcord_env
    guild, table, actors = await start(env, bots)
    storage = table.bot.service.storage
    committing = [False]
    on_thread = storage._on_thread

    async def watched(fn: Any) -> Any:
        committing[0] = True
        try:
            return await on_thread(fn)
        finally:
            committing[0] = False
    monkeypatch.setattr(storage, "_on_thread", watched)
    drawn: list[tuple[str, bool]] = []
    table_png, showdown_png, build = pictures.table_png, pictures.showdown_png, panel.build

    def drawing_table(*args: Any, **kwargs: Any) -> bytes:
        drawn.append(("table", committing[0]))
        return table_png(*args, **kwargs)

    def drawing_showdown(*args: Any, **kwargs: Any) -> bytes:
        drawn.append(("showdown", committing[0]))
        return showdown_png(*args, **kwargs)

    def building(*args: Any, **kwargs: Any) -> panel.Panel:
        drawn.append(("panel", committing[0]))
        return build(*args, **kwargs)
    monkeypatch.setattr(pictures, "table_png", drawing_table)
    monkeypatch.setattr(pictures, "showdown_png", drawing_showdown)
    monkeypatch.setattr(panel, "build", building)

    # a trade from the panel: its panel and the new table picture, while it commits
    actor = table.actor_to_act()
    hand = await actor.click(table.table_message(), label="My hand")
    drawn.clear()
    await actor.click(hand.response, custom_id=pick(hand, "trade"))
    assert ("panel", True) in drawn
    assert [d for d in drawn if d[0] == "table"] == [("table", True)]
    # a knock on the table message: its answer (the table message) and the showdown
    drawn.clear()
    await table.knock(table.actor_to_act())
    assert table.live.deal.finished
    assert [d for d in drawn if d[0] != "panel"] == [("table", True), ("showdown", True)]
    # Next deal: the new deal's table message
    drawn.clear()
    await actors[0].click(last_showdown(table.channel), label="Next deal")
    assert table.live.deal_number == 2
    assert [d for d in drawn if d[0] == "table"] == [("table", True)]
    assert not env.errors
