"""Issue 24: skill ratings and seasons through Discord. Games played to their end
rate their members; the rating board (``/commerce leaderboard by: rating``) ranks a
member after ``MIN_GAMES`` rated games, shows the AI levels' ratings, and names
members inertly; an admin starts a new season (with a confirmation), after which
the boards count it and the old season stays browsable; a plain member is refused."""

from __future__ import annotations

import re

import discord

from bot.engine import PRESETS
from bot.service.skill import MIN_GAMES
from bot.ui.components import MAX_SEASON, BoardFilter, LeaderboardButton
from tests.cogs.helpers import Table, answer_text, rows

NAMES = ("ann", "ben", "cat")


async def play_game(env, guild, general, number: int, actors, bots=None) -> Table:
    """``actors[0]`` opens table ``number``, the others join, it starts, and every
    seat knocks at its turn until the game is over (``Next deal`` between deals)."""
    res = await actors[0].slash(general, "commerce new")
    assert res.ephemeral, answer_text(res)
    channel = guild.channels[f"commerce-{number}"]
    lobby = channel.history()[0]
    for a in actors[1:]:
        await a.click(lobby, label="Join")
    await actors[0].click(lobby, label="Start")
    table = Table(env, bots or [env.bot], channel, {a.id: a for a in actors})
    while True:
        live = table.live
        if live.deal.finished:
            if live.game.complete:
                return table
            await actors[0].click(channel.history()[-1], label="Next deal")
            continue
        await table.knock(table.actor_to_act())


async def rating_board(actor, channel, **options) -> discord.Embed:
    res = await actor.slash(channel, "commerce leaderboard", by="rating", **options)
    assert not res.ephemeral, answer_text(res)
    [embed] = res.response.embeds
    return embed


def ranked_lines(embed: discord.Embed) -> list[str]:
    return [line for line in (embed.description or "").splitlines()
            if re.match(r"\d+\. ", line)]


async def test_the_rating_board_ranks_after_the_minimum_and_seasons_start_again(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    general = guild.create_text_channel("general")
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    actors = [guild.add_member(env.create_user(n), roles=[mods] if n == "ann" else [])
              for n in NAMES]
    ann, ben, cat = actors
    for number in range(1, MIN_GAMES):
        await play_game(env, guild, general, number, actors)
    embed = await rating_board(ben, general)
    assert ranked_lines(embed) == []
    assert f"3 players with fewer than {MIN_GAMES} rated games" in embed.description
    assert embed.title == "Commerce ratings · foster · season 1"
    await play_game(env, guild, general, MIN_GAMES, actors)
    embed = await rating_board(ben, general)
    lines = ranked_lines(embed)
    assert len(lines) == 3 and "fewer than" not in embed.description
    assert all(f"{MIN_GAMES} games)" in line for line in lines)
    # the order is the ordinal's, as stored
    stored = await rows(env.bot, "SELECT member_id, mu, sigma, games FROM ratings"
                                 " WHERE guild_id = ? AND season = 1", (guild.id,))
    assert sorted(r[3] for r in stored) == [MIN_GAMES] * 3
    order = [m for m, *_ in sorted(stored, key=lambda r: (-(r[1] - 3 * r[2]), r[0]))]
    named = {a.name: a.id for a in actors}
    assert [named[line.partition(". ")[2].partition(": ")[0]] for line in lines] == order
    assert f"**{stored[0][1] - 3 * stored[0][2]:.1f}**" in embed.description
    assert len(await rows(env.bot, "SELECT table_id FROM rated_games")) == MIN_GAMES
    # points stay the default board
    res = await ben.slash(general, "commerce leaderboard")
    assert res.response.embeds[0].title == "Commerce leaderboard"

    # a plain member cannot start a season, even let in by an override
    admin = env.backend.find_command("commerce-admin", guild.id)
    guild.set_command_permissions(int(admin["id"]), {ben: True})
    res = await ben.slash(general, "commerce-admin season")
    assert res.ephemeral and "Manage Server" in answer_text(res)
    assert res.response.components == []
    # the admin is asked first; Cancel changes nothing
    res = await ann.slash(general, "commerce-admin season")
    assert res.ephemeral and "Start season 2" in answer_text(res)
    cancelled = await ann.click(res.response, label="Cancel")
    assert "nothing changed" in answer_text(cancelled)
    assert await env.bot.storage.current_season(guild.id) == 1
    res = await ann.slash(general, "commerce-admin season")
    done = await ann.click(res.response, label="Start the new season")
    assert "Season 2 has begun" in answer_text(done)
    assert await env.bot.storage.current_season(guild.id) == 2
    # the boards count season 2: nobody yet
    embed = await rating_board(ben, general)
    assert embed.title == "Commerce ratings · foster · season 2" and ranked_lines(embed) == []
    res = await ben.slash(general, "commerce leaderboard")
    assert answer_text(res) == "Nobody has won or lost points in season 2 yet."
    # season 1 stays browsable, points and ratings
    old = await rating_board(ben, general, season=1)
    assert old.title == "Commerce ratings · foster · season 1 (over)"
    assert ranked_lines(old) == lines
    res = await ben.slash(general, "commerce leaderboard", season=1)
    points = res.response.embeds[0]
    assert points.title == "Commerce leaderboard · season 1" and len(points.description.splitlines()) == 3
    res = await ben.slash(general, "commerce leaderboard", by="rating", season=3)
    assert res.ephemeral and "There is no season 3" in answer_text(res)
    res = await ben.slash(general, "commerce leaderboard", by="rating", period="week")
    assert res.ephemeral and "whole seasons" in answer_text(res)
    # a game of season 2 rates in season 2 only
    await play_game(env, guild, general, MIN_GAMES + 1, actors)
    games = await rows(env.bot, "SELECT season, SUM(games) FROM ratings GROUP BY season"
                                " ORDER BY season")
    assert [tuple(r) for r in games] == [(1, 3 * MIN_GAMES), (2, 3)]
    audit = [a for _, a, _ in await env.bot.storage.audit_entries(guild.id)]
    assert audit.count("season") == 1
    assert env.errors == []


async def test_ai_levels_are_rated_and_shown_beside_the_members(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    general = guild.create_text_channel("general")
    ann = guild.add_member(env.create_user("ann"))
    assert (await ann.slash(general, "commerce new")).ephemeral
    channel = guild.channels["commerce-1"]
    await ann.slash(channel, "commerce addbot", level="normal")
    await ann.slash(channel, "commerce addbot", level="easy")
    lobby = channel.history()[0]
    await ann.click(lobby, label="Start")
    table = Table(env, [env.bot], channel, {ann.id: ann})
    while not table.live.game.complete:
        live = table.live
        if live.deal.finished:
            await ann.click(channel.history()[-1], label="Next deal")
        else:
            await table.knock(ann)
    stored = await rows(env.bot, "SELECT member_id, ai_level, games FROM ratings ORDER BY ai_level")
    assert [tuple(r) for r in stored] == [(ann.id, "", 1), (0, "easy", 1), (0, "normal", 1)]
    embed = await rating_board(ann, general)
    [field] = embed.fields
    assert field.name == "AI levels"
    assert [line.split(":")[0] for line in field.value.splitlines()] in (
        ["easy", "normal"], ["normal", "easy"])
    assert all("(" in line and "1 game)" in line for line in field.value.splitlines())
    assert "1 player with fewer than" in embed.description
    assert env.errors == []


def names_on(embed: discord.Embed) -> set[str]:
    """The members' names on a board (each line ``rank. name: figures``)."""
    return {line.partition(". ")[2].partition(": ")[0] for line in ranked_lines(embed)}


async def test_hostile_names_stay_inert_on_the_rating_board(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    general = guild.create_text_channel("general")
    hostile = ("@everyone **boss**", "[x](https://evil.example) <@&1>", "cat")
    actors = [guild.add_member(env.create_user(n)) for n in hostile]
    for number in range(1, MIN_GAMES + 1):
        await play_game(env, guild, general, number, actors)
    res = await actors[2].slash(general, "commerce leaderboard", by="rating")
    embed = res.response.embeds[0]
    text = embed.description
    message = general.history()[-1]
    assert message.embeds[0].title == embed.title
    stored = env.backend.get_message(general.id, message.id)
    assert not stored.mention_everyone and not stored.ping_role_ids and not stored.ping_user_ids
    assert "](https://" not in text and "**boss**" not in text and "<@&1>" not in text
    assert "@everyone" not in text
    # named exactly as the points board names them (the same inert labels)
    points = await actors[2].slash(general, "commerce leaderboard")
    assert names_on(embed) == names_on(points.response.embeds[0])
    assert len(names_on(embed)) == len(actors) and all(names_on(embed))
    assert "<@" not in text
    assert env.errors == []


def test_a_pager_id_carries_its_season_within_discords_limit():
    longest = max(PRESETS, key=len)
    for board in (BoardFilter("month", longest, MAX_SEASON), BoardFilter("all", None, 1)):
        button = LeaderboardButton(2**63 - 1, 2**63 - 1, 99_999, "next", board=board)
        assert len(button.item.custom_id) <= 100
        match = LeaderboardButton.__discord_ui_compiled_template__.fullmatch(button.item.custom_id)
        assert BoardFilter.parse(match["filters"]) == board
    for garbled in ("all::0", "all::x", f"all::{MAX_SEASON + 1}", "all::1:2", "all::١"):
        assert BoardFilter.parse(garbled) is None, garbled
    assert BoardFilter.parse("week:foster") == BoardFilter("week", "foster")  # older ids
