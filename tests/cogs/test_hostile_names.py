"""Members' names are hostile text (docs/RELIABILITY.md "Hostile names"): whatever a
member calls themselves, no message of the bot pings anyone but the member it
means to ping, no name renders as markdown or a link, no name hides, reorders or
blanks the text around it, and no member can pass for an AI seat or for another
member. Records keep the names as they were.

Each test plays games through the real commands and buttons with members whose
nicknames are of one hostile kind, and checks every message the bot sent: the
REST payloads (what Discord would act on) and the messages as stored.
"""

from __future__ import annotations

import json
import re

import pytest

from bot.ui import names
from tests.cogs.golden import play_to_the_end
from tests.cogs.helpers import Table, message_text

#: a user mention at the start of a text: the one ping a message may mean
LEADING = re.compile(r"^(?:⏰ )?<@(\d+)>")


async def table_of(env, nicks: list[str], *, ai: int = 1, preset: str = "foster"):
    """A guild with a mentionable role; members nicknamed ``nicks`` (the first
    opens a table, the others join), ``ai`` AI seats, started."""
    guild = env.create_guild()
    role = guild.create_role("mods", mentionable=True)
    general = guild.create_text_channel("general")
    actors = [guild.add_member(env.create_user(f"user{i}"), nick=nick)
              for i, nick in enumerate(n.replace("ROLE", str(role.id)) for n in nicks)]
    await actors[0].slash(general, "commerce new", rules=preset)
    channel = guild.channels["commerce-1"]
    for actor in actors[1:]:
        await actor.click(channel.history()[0], label="Join")
    for _ in range(ai):
        await actors[0].click(channel.history()[0], label="Add AI")
    await actors[0].click(channel.history()[0], label="Start")
    return guild, role, channel, actors


def payloads(env):
    """``(path, body)`` of every request that sent or edited message text."""
    for entry in env.http_requests:
        body = entry.json if isinstance(entry.json, dict) else None
        if body is None:
            continue
        data = body.get("data") if isinstance(body.get("data"), dict) else body
        if "content" in data or "embeds" in data:
            yield entry.path, data


def texts(data) -> list[str]:
    """The markdown-rendered text of a message payload: content, embed titles,
    descriptions and field names and values."""
    out = [data.get("content") or ""]
    for embed in data.get("embeds") or []:
        out += [embed.get("title") or "", embed.get("description") or ""]
        out += [f"{f.get('name', '')}\n{f.get('value', '')}" for f in embed.get("fields", [])]
    return out


async def test_no_name_pings_anyone(simcord_env):
    env = simcord_env
    guild, role, channel, actors = await table_of(
        env, ["@everyone", "<@&ROLE>", "@here and friends"], ai=1)
    ann, ben, cat = actors
    # ben and cat name each other too
    await play_to_the_end(env, channel, actors, seed=4)
    sent = list(payloads(env))
    assert sent
    for path, data in sent:
        if not data.get("content"):
            continue  # no text, no mention: an edit of embeds only keeps its mentions
        policy = data.get("allowed_mentions")
        assert policy is not None, (path, data.get("content"))
        assert policy.get("parse", []) == [], (path, policy)  # no @everyone, roles or users by text
        assert not policy.get("roles"), (path, policy)
        lead = LEADING.match(data.get("content") or "")
        users = {str(u) for u in policy.get("users", [])}
        assert users <= ({lead[1]} if lead else set()), (path, data)
    # and the stored messages: nobody pinged but the member a message names first
    for message in channel.history():
        stored = env.backend.get_message(channel.id, message.id)
        assert not stored.mention_everyone and not stored.ping_role_ids, message_text(message)
        lead = LEADING.match(message.content or "")
        assert set(stored.ping_user_ids) <= ({int(lead[1])} if lead else set())
    assert not env.errors


HOSTILE = ["**BOLD**", "||x||", "`tick`", "[click](https://evil.example)",
           "https://evil.example", "# head", "<t:0:R>", "<:e:123456789012345678>"]


@pytest.mark.parametrize("nick", HOSTILE)
async def test_no_name_renders_as_markdown_or_a_link(simcord_env, nick):
    env = simcord_env
    guild, _, channel, actors = await table_of(env, [nick, "ben"], ai=1)
    await play_to_the_end(env, channel, actors, seed=5)
    res = await actors[1].slash(channel, "commerce stats", member=actors[0])
    shown = "\n".join(t for _, data in payloads(env) for t in texts(data))
    escaped = names.markdown_safe(nick)
    assert shown.count(escaped) >= 3, (escaped, shown[:500])  # table, showdowns, standings...
    # the name's text never appears but inside its escaped form
    assert shown.count(nick) == shown.count(escaped) * escaped.count(nick), nick
    assert "https://evil.example" not in shown  # never a clickable address
    assert res.response.embeds and escaped in message_text(res.response)
    # the name is still there, readable: the backslashes only keep it inert
    unescaped = re.sub(r"\\(.)", r"\1", shown).replace("\u200b", "")
    assert nick in unescaped
    # records keep the name as it was
    record = json.loads(await (await actors[0].slash(
        channel, "commerce export")).response.attachments[0].read())
    assert record["players"][0] == nick
    assert not env.errors


async def test_names_stay_readable_and_never_blank(simcord_env):
    env = simcord_env
    guild, _, channel, actors = await table_of(
        env, ["\u202eevil", "\u200b\u200b\u200b", "Ze\u0301\u0301\u0301\u0301\u0301ro"], ai=0)
    await play_to_the_end(env, channel, actors, seed=6)
    shown = "\n".join(t for _, data in payloads(env) for t in texts(data))
    assert "\u202e" not in shown
    assert "Player 2" in shown  # the blank name
    assert "evil" in shown
    for line in shown.splitlines():
        assert not re.match(r"^\W*:\s*[+-]?\d", line.replace("\u200b", "")), line
    assert "\u0301\u0301\u0301" not in shown  # at most two marks on a letter
    assert not env.errors


async def test_no_member_passes_for_an_ai_seat_or_for_another_member(simcord_env):
    env = simcord_env
    guild, _, channel, actors = await table_of(env, ["🤖 AI Ada", "Ada", "Ada", "АDA"], ai=1)
    table = Table(env, [env.bot], channel, {a.id: a for a in actors})
    labels = list(table.bot.service.in_channel(channel.id).seats)
    shown = names.seat_labels(labels, [s.ai_level for s in labels])
    assert len({names.skeleton(label) for label in shown}) == len(shown), shown
    assert [label.startswith(names.AI_MARK) for label in shown] == [False] * 4 + [True]
    assert shown[1] == "Ada" and shown[2] == "Ada (2)" and shown[3] == "АDA (3)", shown
    # the table picture says the same (its description names every seat)
    [picture] = table.table_message().attachments
    assert "; Ada (2)" in (picture.description or "") and "; АDA (3)" in picture.description
    assert not env.errors


async def test_a_right_to_left_name_leaves_the_score_after_it_in_place(simcord_env):
    """The final standings and the leaderboard print "name: score": after an Arabic
    or Hebrew name the score was drawn into it ("evil 6- :نام عربي"); the name is
    now isolated, in every public text that names it."""
    env = simcord_env
    rtl = "evil نام عربي עברית"
    guild, _, channel, actors = await table_of(env, ["ann", rtl], ai=1)
    await play_to_the_end(env, channel, actors, seed=6)
    shown = "\n".join(t for _, data in payloads(env) for t in texts(data))
    isolated = "\u2068" + rtl + "\u2069"
    assert isolated in shown
    assert rtl not in shown.replace(isolated, "")  # never without its isolate in text
    board = await actors[0].slash(channel, "commerce leaderboard")
    assert isolated + ":" in message_text(board.response) or isolated + "**" in message_text(
        board.response), message_text(board.response)
    assert not env.errors
