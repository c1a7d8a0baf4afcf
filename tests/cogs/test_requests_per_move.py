"""Issue 22 through the real bot: a member's move costs no Discord request that
shows nothing new (docs/SCALING.md "Discord's limit"). A move made at once from
the table message (Knock) edits the member's open panel of the deal in place,
never a follow-up plus a deletion; the next deal leaves the finished deal's table
message alone, since the edit that showed the deal over took its buttons off.
A dead token, a refused edit and a restart take the careful path instead."""

from __future__ import annotations

from tests.cogs.helpers import custom_ids, restart
from tests.cogs.test_table_pictures import panels_of, start


def sent_since(env, mark: int) -> list[tuple[str, str]]:
    """(method, path) of every request the bot made since ``mark``."""
    return [(r.method, r.path) for r in env.http_requests[mark:]]


def kinds(requests: list[tuple[str, str]], table) -> list[str]:
    """What each request is: the click's answer, an edit or deletion of a
    panel (through an interaction's token), a post or edit in the channel."""
    out = []
    for method, path in requests:
        if path.startswith("/interactions/"):
            out.append("answer")
        elif path.startswith("/webhooks/"):
            out.append({"PATCH": "panel edit", "DELETE": "panel deleted",
                        "POST": "follow-up"}[method])
        elif path == f"/channels/{table.channel.id}/messages":
            out.append("post")
        elif path.startswith(f"/channels/{table.channel.id}/messages/"):
            out.append("edit " + path.rsplit("/", 1)[1])
        else:
            out.append(f"{method} {path}")
    return out


async def with_panel(env, bots):
    """A started table whose player to act has opened a panel: (table, that
    player, the panel's click result)."""
    guild, table, actors = await start(env, bots)
    actor = table.actor_to_act()
    return table, actor, await actor.click(table.table_message(), label="My hand")


async def test_a_knock_from_the_table_message_edits_the_open_panel_in_place(simcord_env,
                                                                           bots):
    env = simcord_env
    table, actor, panel = await with_panel(env, bots)
    assert "Knock" in str(panel.response.components)
    mark = len(env.http_requests)
    res = await table.knock(actor)
    # the answer shows the knock on the table message; the panel is edited, the showdown posted
    assert kinds(sent_since(env, mark), table) == ["answer", "panel edit", "post"]
    assert res.response.id == table.live.row.table_message_id
    assert table.live.deal.finished and not table.table_message().components
    [mine] = panels_of(table, actor)
    assert mine.id == panel.response.id  # the same panel, never a second one
    assert mine.content.startswith("You knocked")
    assert "This deal is over" in mine.content and not mine.components
    assert not env.errors


async def test_a_knock_without_an_editable_panel_gets_a_new_one(simcord_env, bots):
    env = simcord_env
    table, actor, old = await with_panel(env, bots)
    await env.advance_time(16 * 60)  # past the 15 minutes of the panel's token
    before = env.backend.get_message(table.channel.id, old.response.id)
    stored = (before.content, before.edited_timestamp)
    mark = len(env.http_requests)
    await table.knock(actor)
    assert kinds(sent_since(env, mark), table) == ["answer", "follow-up", "post"]
    # the old panel is left alone (its token is dead); the new one says what the knock did
    after = env.backend.get_message(table.channel.id, old.response.id)
    assert (after.content, after.edited_timestamp) == stored
    newest = panels_of(table, actor)[-1]
    assert newest.id != old.response.id and newest.content.startswith("You knocked")
    # a member with no panel at all gets one too
    guild2, table2, actors2 = await start(env, bots)
    actor2 = table2.actor_to_act()
    await table2.knock(actor2)
    [first] = panels_of(table2, actor2)
    assert first.content.startswith("You knocked") and not first.components
    assert not env.errors


async def test_a_refused_in_place_edit_falls_back_to_a_new_panel(simcord_env, bots):
    env = simcord_env
    table, actor, old = await with_panel(env, bots)
    env.inject_error("PATCH", "/webhooks/*/messages/@original", status=404, code=10008,
                     message="Unknown Message", times=1)
    mark = len(env.http_requests)
    await table.knock(actor)
    assert kinds(sent_since(env, mark), table) == [
        "answer", "panel edit", "follow-up", "panel deleted", "post"]
    assert old.response is None  # the panel that could not be edited is gone
    [mine] = panels_of(table, actor)
    assert mine.content.startswith("You knocked") and not mine.components


async def test_the_next_deal_leaves_the_finished_table_message_alone(simcord_env, bots):
    env = simcord_env
    guild, table, actors = await start(env, bots)
    actor = table.actor_to_act()
    await table.knock(actor)
    old = table.table_message()
    assert not old.components  # the knock's own answer took the buttons off
    shown = (old.content, old.edited_at, [e.to_dict() for e in old.embeds])
    showdown = table.channel.history()[-1]
    mark = len(env.http_requests)
    await actor.click(showdown, label="Next deal")
    # the answer takes Next deal off the showdown; the new table message is posted
    assert kinds(sent_since(env, mark), table) == ["answer", "post"]
    assert table.live.deal_number == 2 and table.live.row.table_message_id != old.id
    again = table.message(old.id)
    assert (again.content, again.edited_at, [e.to_dict() for e in again.embeds]) == shown
    assert not again.components and "Next deal" not in str(table.message(showdown.id).components)
    assert not env.errors


async def test_after_a_restart_the_old_table_message_is_settled_before_the_next_deal(
        simcord_env, bots, make_bot):
    env = simcord_env
    guild, table, actors = await start(env, bots)
    actor = table.actor_to_act()
    await table.knock(actor)
    old_id = table.live.row.table_message_id
    showdown = table.channel.history()[-1]
    mark = len(env.http_requests)
    await restart(env, make_bot())
    table.bot_ref.append(env.bot)
    await env.settle()
    # nothing is known after a restart of what the old table message shows: it is
    # edited (by the refresh after the start) before the next deal counts on it
    assert [k for k in kinds(sent_since(env, mark), table)
            if not k.startswith(("GET", "PUT"))] == [f"edit {old_id}"]
    mark = len(env.http_requests)
    await actor.click(table.message(showdown.id), label="Next deal")
    assert kinds(sent_since(env, mark), table) == ["answer", "post"]
    assert not table.message(old_id).components
    new_id = table.live.row.table_message_id
    assert table.live.deal_number == 2 and new_id != old_id
    tables = [m for m in table.channel.history() if m.embeds
              and (m.embeds[0].title or "").startswith("Commerce table")
              and " · deal " in m.embeds[0].title]
    assert [m.id for m in tables] == [old_id, new_id]  # each posted once
    assert custom_ids(table.message(new_id))
    assert not env.errors


async def test_a_refused_edit_at_the_deal_s_end_is_made_at_the_next_deal(simcord_env, bots):
    env = simcord_env
    guild, table, actors = await start(env, bots)
    actor = table.actor_to_act()
    old_id = table.live.row.table_message_id
    showdown_posts = len(table.channel.history())
    # the knock's answer is refused, and so are the refresh's edits of the table message
    env.inject_error("POST", "/interactions/*/callback", status=500, times=1)
    env.inject_error("PATCH", f"/channels/{table.channel.id}/messages/{old_id}", status=429,
                     times=None)
    await table.knock(actor)
    await env.advance_time(8)  # the bot's own retries run out
    assert table.live.deal.finished and table.message(old_id).components  # still shown
    env.backend.faults.clear()
    showdown = table.channel.history()[showdown_posts]
    await actor.click(showdown, label="Next deal")
    await env.settle()
    assert table.live.deal_number == 2
    assert not table.message(old_id).components  # never a live button on an old deal


async def bartered(env, bots):
    """A started table where the player to act has offered a barter: (table, the
    member the offer waits for)."""
    guild, table, actors = await start(env, bots)
    await table.barter(table.actor_to_act())
    return table, table.members[table.live.member_of(table.live.deal.to_act)]


async def test_a_refusal_is_answered_on_the_offer_and_edits_the_open_panel(simcord_env, bots):
    env = simcord_env
    table, target = await bartered(env, bots)
    panel = await target.click(table.table_message(), label="My hand")
    offer = table.offer_message(target)
    mark = len(env.http_requests)
    res = await table.refuse(target)
    # the answer closes the offer, the panel is edited; the showdown and the table message
    # follow, and the panel of the member who offered says the deal is over
    assert kinds(sent_since(env, mark), table) == [
        "answer", "panel edit", "post", f"edit {table.live.row.table_message_id}",
        "panel edit"]
    edited = [path for method, path in sent_since(env, mark) if path.startswith("/webhooks/")]
    assert len(set(edited)) == 2  # each panel edited once
    assert res.response.id == offer.id
    closed = table.message(offer.id)
    assert closed.components == [] and "refused the barter by knocking" in closed.content
    assert target.mention not in closed.content  # the outcome pings nobody
    [mine] = panels_of(table, target)
    assert mine.id == panel.response.id and not mine.components
    assert "This deal is over" in mine.content
    assert table.live.deal.finished and table.live.row.offer_key is None
    assert not env.errors


async def test_a_refusal_without_a_panel_still_closes_the_offer_once(simcord_env, bots):
    env = simcord_env
    table, target = await bartered(env, bots)
    offer = table.offer_message(target)
    mark = len(env.http_requests)
    await table.refuse(target)
    assert kinds(sent_since(env, mark), table) == [
        "answer", "follow-up", "post", f"edit {table.live.row.table_message_id}",
        "panel edit"]
    assert table.message(offer.id).components == []
    [mine] = panels_of(table, target)
    assert "This deal is over" in mine.content and not mine.components
    assert not env.errors


async def test_a_double_click_on_next_deal_finds_no_other_button_under_the_pointer(
        simcord_env, bots):
    env = simcord_env
    guild, table, actors = await start(env, bots)
    actor = table.actor_to_act()
    await table.knock(actor)
    showdown = table.channel.history()[-1]

    def buttons() -> list[str]:
        return [c.custom_id for row in table.message(showdown.id).components
                for c in row.children]
    before = buttons()
    assert len(before) >= 2 and any(":next:" in b for b in before) and any(
        ":proof:" in b for b in before)
    await actor.click(showdown, label="Next deal")
    after = buttons()
    assert after and all(":next:" not in b for b in after)
    # every button still shown sits where it sat: the second click of a double click
    # lands on empty space, or on the button it already pressed before
    assert after == before[:len(after)]
    assert not env.errors
