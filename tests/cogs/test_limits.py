"""Discord's limits and the bot's own memory, at the largest tables (issue 18 §7):
every family at its maximum seats with 32-character names plays through SimCord
(which refuses over-limit payloads as Discord does); the command tree and the
autocomplete answers keep within Discord's limits; nothing kept in memory for a
table outlives it; two quick presses of Add AI both count."""

from __future__ import annotations

import re

import pytest

from bot.ui import help as help_text
from tests.cogs.golden import play_to_the_end
from tests.cogs.helpers import emit_component, rows

#: Discord's documented limits on command names, descriptions, options and choices
NAME = re.compile(r"^[-_\w]{1,32}$")


def long_name(i: int) -> str:
    return f"Player {i:02d} with a very long nick"[:32].ljust(32, "x")


@pytest.mark.parametrize(("preset", "seats"), [("foster", 12), ("widow", 12), ("oldway", 12),
                                              ("jaques", 10)])
async def test_a_full_table_of_long_names_plays_within_discords_limits(simcord_env, preset,
                                                                        seats):
    env = simcord_env
    guild = env.create_guild()
    general = guild.create_text_channel("general")
    humans = [guild.add_member(env.create_user(f"u{i}"), nick=long_name(i)) for i in range(4)]
    options = {"deals_per_player": 1} if preset in ("foster", "widow") else {}
    if preset == "jaques":
        options = {"chips": 2}
    res = await humans[0].slash(general, "commerce new", rules=preset, **options)
    assert "ready" in res.response.content or res.followups, res
    channel = guild.channels["commerce-1"]
    for h in humans[1:]:
        await h.click(channel.history()[0], label="Join")
    for _ in range(seats - len(humans)):
        await humans[0].click(channel.history()[0], label="Add AI")
    live = env.bot.service.in_channel(channel.id)
    assert len(live.seats) == seats
    await humans[0].click(channel.history()[0], label="Start")
    seen = await play_to_the_end(env, channel, humans, seed=seats)
    assert seen.finals == 1 and seen.live_controls == []
    assert not env.errors  # SimCord refused no payload


def command_chars(data: dict) -> int:
    total = len(data.get("name", "")) + len(data.get("description", ""))
    for option in data.get("options", []):
        total += command_chars(option)
        total += sum(len(c["name"]) + len(str(c["value"])) for c in option.get("choices", []))
    return total


def check_command(data: dict, path: str) -> None:
    assert NAME.fullmatch(data["name"]) and data["name"] == data["name"].lower(), path
    if "description" in data and data.get("type", 1) in (1, 2):  # slash commands and options
        assert 1 <= len(data["description"]) <= 100, (path, data["description"])
    options = data.get("options", [])
    assert len(options) <= 25, path
    for option in options:
        assert len(option.get("choices", [])) <= 25, (path, option["name"])
        for choice in option.get("choices", []):
            assert 1 <= len(choice["name"]) <= 100, (path, choice)
        check_command(option, f"{path} {option['name']}")


async def test_the_command_tree_keeps_within_discords_limits(simcord_env):
    env = simcord_env
    for command in env.bot.tree.get_commands():
        data = command.to_dict(env.bot.tree)
        check_command(data, data["name"])
        assert command_chars(data) <= 4000, data["name"]


@pytest.mark.parametrize("typed", ["", "f", "o", "x" * 200, "ja", "-"])
async def test_autocomplete_answers_keep_within_discords_limits(simcord_env, typed):
    env = simcord_env
    guild = env.create_guild()
    general = guild.create_text_channel("general")
    ann = guild.add_member(env.create_user("ann"))
    res = await ann.autocomplete(general, "commerce new", "rules", typed)
    choices = res if isinstance(res, list) else getattr(res, "choices", [])
    assert len(choices) <= 25
    for choice in choices:
        name = choice["name"] if isinstance(choice, dict) else choice.name
        assert 1 <= len(name) <= 100
    assert help_text.preset_autocomplete is not None
    assert not env.errors


async def test_nothing_kept_in_memory_outlives_its_table(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    general = guild.create_text_channel("general")
    ann = guild.add_member(env.create_user("ann"))
    await ann.slash(general, "commerce new", deals_per_player=1)
    channel = guild.channels["commerce-1"]
    for _ in range(2):
        await ann.click(channel.history()[0], label="Add AI")
    table_id = env.bot.service.in_channel(channel.id).id
    await ann.click(channel.history()[0], label="Start")
    await play_to_the_end(env, channel, [ann], seed=9)
    await env.advance_time(60)
    # and a lobby opened and left, twice
    for _ in range(2):
        await ann.slash(general, "commerce new")
        await ann.slash(general, "commerce leave")
    await env.advance_time(10)
    [(count,)] = await rows(env.bot, "SELECT COUNT(*) FROM tables")
    bot = env.bot
    holders = {"service": bot.service, "publisher": bot.publisher, "showing": bot.publisher.showing,
               "panels": bot.publisher.panels, "timers": bot.timers, "locks": bot.service.lock}
    kept = []
    for where, obj in holders.items():
        for attr, value in vars(obj).items():
            if not isinstance(value, dict | set):
                continue
            for key in value:
                first = key[0] if isinstance(key, tuple) and key else key
                if isinstance(first, int) and 1 <= first <= count:
                    kept.append(f"{where}.{attr}[{key!r}]")
    assert kept == [], kept
    assert table_id == 1
    assert not env.errors


async def test_two_quick_presses_of_add_ai_both_count(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    general = guild.create_text_channel("general")
    ann = guild.add_member(env.create_user("ann"))
    await ann.slash(general, "commerce new")
    channel = guild.channels["commerce-1"]
    lobby = channel.history()[0]
    live = env.bot.service.in_channel(channel.id)
    custom_id = f"commerce:lobby:{live.id}:ai"
    first = emit_component(env, ann, lobby, custom_id)
    second = emit_component(env, ann, lobby, custom_id)
    await env.settle()
    assert len(env.bot.service.in_channel(channel.id).seats) == 3
    assert first.acknowledged and second.acknowledged
    assert "AI Babbage" in str(channel.history()[0].embeds[0].to_dict())
    assert not env.errors
