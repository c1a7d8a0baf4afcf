"""Issue 24 §4: ``/commerce about`` shows the version, uptime, servers and tables,
and the invite link with exactly the permissions the README lists (the same link
is logged at start)."""

from __future__ import annotations

import logging
import re
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import discord

from bot.ui.about import version
from tests.cogs.helpers import answer_text, restart

README = Path(__file__).resolve().parents[2] / "README.md"


def readme_permissions() -> int:
    """The permissions integer of the bold names in the README's "Inviting the bot"."""
    text = README.read_text(encoding="utf-8")
    section = text.split("## Inviting the bot", 1)[1].split("\n### ", 1)[0]
    names = [" ".join(n.split()) for n in re.findall(r"\*\*([A-Za-z\s]+)\*\*", section)]
    assert len(names) == 10, names
    flags = {name.lower().replace(" ", "_").replace("view_channels", "view_channel")
             for name in names}
    return discord.Permissions(**dict.fromkeys(flags, True)).value


def link_of(embed: discord.Embed) -> str:
    [field] = [f for f in embed.fields if f.name == "Invite"]
    return re.search(r"\((https://[^)]+)\)", field.value)[1]


async def test_about_shows_the_bot_and_its_invite_link(simcord_env, make_bot, caplog):
    env = simcord_env
    guild = env.create_guild()
    general = guild.create_text_channel("general")
    ann = guild.add_member(env.create_user("ann"))
    await ann.slash(general, "commerce new")
    res = await ann.slash(general, "commerce about")
    assert res.ephemeral, answer_text(res)
    [embed] = res.response.embeds
    fields = {f.name: f.value for f in embed.fields}
    assert fields["Version"] == version() != "unknown"
    assert fields["Up since"].startswith("<t:") and fields["Servers"] == str(len(env.bot.guilds))
    assert fields["Tables"] == "1 open now · 1 table opened and 0 games started in all"
    # what a member can use from Discord, not the repository's files
    rules = fields["Rules and fairness"]
    assert "/commerce rules" in rules and "**Proof**" in rules and "/commerce export" in rules
    assert "docs/" not in str(embed.to_dict()) and "README" not in str(embed.to_dict())
    link = link_of(embed)
    query = parse_qs(urlsplit(link).query)
    assert urlsplit(link).netloc == "discord.com"
    assert query["client_id"] == [str(env.bot.application_id)]
    # the integer the README's list makes, bit by bit: nothing more, nothing less
    assert int(query["permissions"][0]) == readme_permissions() == (
        1 << 4 | 1 << 10 | 1 << 11 | 1 << 14 | 1 << 15 | 1 << 16 | 1 << 28 | 1 << 34 | 1 << 35
        | 1 << 38)
    assert query["scope"] == ["bot applications.commands"]
    assert env.errors == []
    # a bot that starts logs the same link, once
    caplog.set_level(logging.INFO, logger="cogs.help")
    await restart(env, make_bot())
    logged = [r.getMessage() for r in caplog.records if r.name == "cogs.help"]
    assert logged == [f"invite link: {link}"]
