"""Class 2: hostile names beyond tests/cogs/test_hostile_names.py."""

from __future__ import annotations

import json
import re
import unicodedata

import pytest

from bot.ui import names
from tests.cogs.golden import play_to_the_end
from tests.cogs.helpers import message_text
from tests.cogs.test_hostile_names import LEADING, payloads, table_of, texts


def labels_of(env, channel):
    live = env.bot.service.in_channel(channel.id)
    from bot.ui import render
    return list(render.seat_labels(live))


def button_labels(message) -> list[str]:
    return [getattr(c, "label", "") or "" for row in message.components for c in row.children]


def blank(label: str) -> bool:
    """Nothing a reader can see: only marks, format characters, spaces."""
    return all(unicodedata.category(ch)[0] in "MCZ" for ch in label)


# ------------------------------------------------------------------ look-alikes
LOOK_ALIKES = [
    ("Pat", "Раt"),     # Cyrillic Er, a
    ("BOB", "ВОВ"),     # Cyrillic Ve, O, Ve
    ("Mac", "Мас"),     # Cyrillic Em, a, es
    ("PETE", "ΡΕΤΕ"),   # Greek Rho, Epsilon, Tau
    ("BEN", "ΒΕΝ"),     # Greek Beta, Epsilon, Nu
    ("Joy", "Јоу"),     # Cyrillic Je, o, u
]


@pytest.mark.parametrize("real,fake", LOOK_ALIKES)
async def test_cyrillic_and_greek_look_alikes_are_numbered(simcord_env, real, fake):
    """RELIABILITY: 'names that look alike (case, full-width letters, Cyrillic or Greek
    look-alikes) are numbered'. The skeleton reads other scripts by their sound
    (anyascii: Р -> R, В -> V, Ρ -> R), not by their look."""
    env = simcord_env
    guild, _, channel, actors = await table_of(env, [real, fake], ai=1)
    shown = labels_of(env, channel)
    table = message_text(next(m for m in channel.history()
                              if m.id == env.bot.service.in_channel(channel.id)
                              .row.table_message_id))
    assert shown[1] != fake, (shown, table)  # 'Раt (2)' expected; two identical 'Pat' shown
    env.errors  # noqa: B018


OTHER_SCRIPTS = [("ADA", "ᎪᎠᎪ"),   # Cherokee
                 ("ADA", "ꓮꓓꓮ"),   # Lisu
                 ("Ada", "ᗅᗞᗅ"),   # Canadian syllabics
                 ("Alice", "AIice")]  # capital I for small l


@pytest.mark.parametrize("real,fake", OTHER_SCRIPTS)
async def test_other_look_alikes_are_numbered(simcord_env, real, fake):
    env = simcord_env
    guild, _, channel, actors = await table_of(env, [real, fake], ai=1)
    shown = labels_of(env, channel)
    assert shown[1] != fake, shown
    env.errors  # noqa: B018


# ------------------------------------------------------------------ blank names
BLANKS = ["🤖\ufe0f",        # the AI mark in its emoji presentation: the selector stays
          "\u3000\ufe0f",     # ideographic space and a variation selector
          "🤖\ufe0e",
          "\u2800\u3000\ufe0f"]


@pytest.mark.parametrize("nick", BLANKS, ids=[n.encode("unicode_escape").decode() for n in BLANKS])
async def test_a_name_of_a_mark_alone_is_never_blank(simcord_env, nick):
    """'a name with nothing left is Player <n>': the AI mark is replaced by a space
    before readable() runs, so the variation selector after it becomes a mark on
    that space, survives the strip, and the name shows as nothing."""
    env = simcord_env
    guild, _, channel, (ann, ben) = await table_of(env, ["ann", nick], ai=1)
    shown = labels_of(env, channel)
    assert not blank(shown[1]), [shown[1].encode("unicode_escape")]
    env.errors  # noqa: B018


async def test_blank_name_on_buttons_and_in_messages(simcord_env):
    """The same, end to end: ann's barter button reads 'Barter 9♦ with ️'."""
    env = simcord_env
    guild, _, channel, (ann, ben) = await table_of(env, ["ann", "🤖\ufe0f"], ai=1)
    live = env.bot.service.in_channel(channel.id)
    table = next(m for m in channel.history() if m.id == live.row.table_message_id)
    # the seats as the table picture shows them (its description names them): none
    # is only its balance
    [picture] = table.attachments
    seats = (picture.description or "").split("Seats: ", 1)[1].split(". ", 1)[0].split("; ")
    assert len(seats) == 3
    assert all(not blank(re.sub(r"\(dealer\)|[+−±]\d+|, .*$", "", seat).strip())
               for seat in seats), [p.encode("unicode_escape") for p in seats]
    env.errors  # noqa: B018


# ------------------------------------------------------------------ mentions
async def test_mentions_of_every_form_in_names_ping_nobody(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    role = guild.create_role("mods", mentionable=True)
    general = guild.create_text_channel("general")
    victim = guild.add_member(env.create_user("victim"))
    nicks = [f"<@!{victim.id}>", f"<@&{role.id}>", f"<#{general.id}>", "</commerce new:1>",
             "@\u200beveryone", "@еveryone", "@\u2060here"]
    actors = [guild.add_member(env.create_user(f"u{i}"), nick=n) for i, n in enumerate(nicks)]
    await actors[0].slash(general, "commerce new", rules="foster")
    channel = guild.channels["commerce-1"]
    for a in actors[1:]:
        await a.click(channel.history()[0], label="Join")
    await actors[0].click(channel.history()[0], label="Start")
    await play_to_the_end(env, channel, actors, seed=11)
    await actors[1].slash(channel, "commerce leaderboard")
    for a in actors[:3]:
        await a.slash(channel, "commerce stats", member=victim)
        await a.slash(channel, "commerce history")
    for path, data in payloads(env):
        policy = data.get("allowed_mentions")
        if data.get("content"):
            assert policy is not None, (path, data.get("content"))
            assert policy.get("parse", []) == [] and not policy.get("roles"), (path, policy)
            lead = LEADING.match(data.get("content") or "")
            users = {str(u) for u in policy.get("users", [])}
            assert users <= ({lead[1]} if lead else set()), (path, data)
        for text in texts(data):
            # no mention of the victim, the role, the channel or the command renders
            for form in (f"<@!{victim.id}>", f"<@{victim.id}>", f"<@&{role.id}>",
                         f"<#{general.id}>", "</commerce new:1>"):
                assert form not in text, (path, form, text[:300])
            assert "@everyone" not in text.replace("\\@\u200beveryone", "")
    for ch in (channel, general):
        for message in ch.history():
            stored = env.backend.get_message(ch.id, message.id)
            assert not stored.mention_everyone and not stored.ping_role_ids, message_text(message)
            lead = LEADING.match(message.content or "")
            assert set(stored.ping_user_ids) <= ({int(lead[1])} if lead else set()), \
                message.content
    env.errors  # noqa: B018


# ------------------------------------------------------------------ markdown
MARKDOWN = ["-# tiny", ">>> quote", "> quote", "1. list", "- item", "* item",
            "```code```", "[x](<https://evil.example>)", "www.evil.example", "discord.gg/evil",
            "~~strike~~", "__under__", "*it*", ":skull:", "ann\\", "<https://evil.example>",
            "[](https://evil.example)", "\\*x\\*"]


@pytest.mark.parametrize("nick", MARKDOWN)
async def test_markdown_of_every_form_in_names_stays_inert(simcord_env, nick):
    env = simcord_env
    guild, _, channel, actors = await table_of(env, [nick, "ben"], ai=1)
    await play_to_the_end(env, channel, actors, seed=5)
    shown = "\n".join(t for _, data in payloads(env) for t in texts(data))
    escaped = names.markdown_safe(names.member_label(nick))
    assert shown.count(nick) == shown.count(escaped) * escaped.count(nick), nick
    assert "https://evil" not in shown
    # a name at a line's start never begins a heading, quote or list
    for line in shown.splitlines():
        rest = re.sub(r"^(\d+\. |• |▶ |🂠 )+", "", line)  # the bot's own list marks
        assert not re.match(r"^(#{1,3} |-# |>{1,3} |\d+\. |[-*] )", rest), line
    record = json.loads(await (await actors[0].slash(
        channel, "commerce export")).response.attachments[0].read())
    assert record["players"][0] == nick
    env.errors  # noqa: B018


# ------------------------------------------------------------------ names in pictures
#: pairs of names whose texts differ but whose pictures looked the same: a name that
#: differs only in characters no picture font draws (Bengali, Tamil, Egyptian
#: hieroglyphs...), or only past where a seat's plate cuts it; and names wholly in
#: scripts no font draws, which were each drawn as "?"
PICTURE_ALIKES = [
    ("Ann", "ঌ Ann"),
    ("Ann", "Ann 𓀀"),
    ("Sir Reginald Featherstonehaugh III", "Sir Reginald Featherstonehaugh II"),
    ("வணக்கம்", "ಕನ್ನಡ"),
]


def picture_seats(env, channel) -> list[str]:
    """The seats' names as the table picture draws them, from its description
    (``Seats: name figure[, tag]; …``), each as the narrowest plate shows it."""
    from bot.ui import pictures
    live = env.bot.service.in_channel(channel.id)
    table = next(m for m in channel.history() if m.id == live.row.table_message_id)
    [picture] = table.attachments
    seats = (picture.description or "").split("Seats: ", 1)[1].split(". ", 1)[0].split("; ")
    shown = [re.sub(r" \(dealer\)| [+−±]?\d+$", "", seat.split(", ")[0]).strip()
             for seat in seats]
    return [pictures._name_line(name, pictures.NAME_ROOM)[0] for name in shown]


@pytest.mark.parametrize("real,fake", PICTURE_ALIKES,
                         ids=[f.encode("unicode_escape").decode() for _, f in PICTURE_ALIKES])
async def test_no_two_seats_look_alike_in_the_pictures(simcord_env, real, fake):
    """RELIABILITY 'On a public server': no member can pass for another. In the
    pictures a name lost what no font draws (``ঌ Ann`` was drawn ``Ann``, a name of
    Tamil letters ``?``) and was cut to fit its plate, so two seats could be drawn
    alike; every seat is now drawn unlike the others, and never as ``?``."""
    env = simcord_env
    guild, _, channel, actors = await table_of(env, [real, fake], ai=1)
    shown = picture_seats(env, channel)
    assert len(shown) == 3, shown
    assert len({names.skeleton(name) for name in shown}) == 3, shown
    assert "?" not in shown, shown
    env.errors  # noqa: B018


async def test_styled_letters_are_drawn_as_letters(simcord_env):
    """A name of mathematical letters (no font of the pictures has them) is drawn
    as the letters they are styled from, not as ``?``."""
    env = simcord_env
    guild, _, channel, actors = await table_of(env, ["ann", "𝓑𝓮𝓷"], ai=1)
    assert "Ben" in picture_seats(env, channel)
    env.errors  # noqa: B018
