"""``/commerce`` is one top-level group whose subcommands come from five cogs
(tables, ledger, history, help; ``bot/interactions/commands.py``): Discord sees exactly the commands it
saw when one cog held them all, in the same order, and a cog that unloads takes
its subcommands with it without leaving anything at the top level."""

from __future__ import annotations

from tests.cogs.helpers import answer_text

#: /commerce's subcommands, in the order Discord lists them, and the cog of each
SUBCOMMANDS = {
    "new": "Tables", "join": "Tables", "leave": "Tables", "start": "Tables",
    "addbot": "Tables", "hand": "Tables", "end": "Tables", "cut": "Tables", "delay": "Tables",
    "leaderboard": "Ledger", "stats": "Ledger", "history": "History", "export": "History",
    "review": "History",  # issue 24 §3: the coach's review, added deliberately
    "rules": "Help", "about": "Help", "settings": "Settings", "daily": "Daily",
}

#: /commerce-admin's subcommands, in the order Discord lists them (no ``backup``: a copy of
#: the whole database is the operator's, ``python -m bot.storage backup`` on the host)
ADMIN_SUBCOMMANDS = ["settings", "cancel", "export", "reset-ledger", "season"]


def synced(env) -> list[dict]:
    return list(env.backend.commands.get(None, {}).values())


async def test_commerce_is_one_guild_only_group_made_of_four_cogs(simcord_env):
    env = simcord_env
    assert [c["name"] for c in synced(env)] == ["commerce", "commerce-admin"]
    commerce = synced(env)[0]
    assert [o["name"] for o in commerce["options"]] == list(SUBCOMMANDS)
    assert all(o["type"] == 1 for o in commerce["options"])  # subcommands, no nested group
    assert commerce["dm_permission"] is False and commerce["contexts"] == [0]
    assert commerce.get("default_member_permissions") is None
    group = env.bot.tree.get_command("commerce")
    assert group is env.bot.commerce and group.guild_only
    owners = {c.name: type(c.binding).__name__ for c in group.commands}
    assert owners == SUBCOMMANDS
    # issue 24: the leaderboard ranks by points or rating, of a season
    board = next(o for o in commerce["options"] if o["name"] == "leaderboard")
    assert [o["name"] for o in board["options"]] == ["preset", "period", "by", "season"]
    by = board["options"][2]
    assert [c["value"] for c in by["choices"]] == ["points", "rating"] and not by.get("required")
    assert board["options"][3]["min_value"] == 1 and not board["options"][3].get("required")
    assert {c.qualified_name for c in env.bot.tree.get_commands()} == {"commerce", "commerce-admin"}
    # issue 24 §2: /commerce daily plays today's deal, or shows a day's board or shuffle
    daily = next(o for o in commerce["options"] if o["name"] == "daily")
    assert [o["name"] for o in daily["options"]] == ["show", "day"]
    assert [c["value"] for c in daily["options"][0]["choices"]] == ["play", "board", "proof"]
    assert not any(o.get("required") for o in daily["options"])


async def test_commerce_admin_syncs_its_five_subcommands_and_no_backup(simcord_env):
    env = simcord_env
    admin = synced(env)[1]
    assert admin["name"] == "commerce-admin"
    assert [o["name"] for o in admin["options"]] == ADMIN_SUBCOMMANDS
    assert all(o["type"] == 1 for o in admin["options"])
    export = next(o for o in admin["options"] if o["name"] == "export")
    assert export.get("options", []) == []  # the server's own data: nothing to choose
    assert "backup" not in {c.name for c in env.bot.tree.get_command("commerce-admin").commands}
    assert not any("backup" in str(c) for c in synced(env))


async def test_a_cog_that_unloads_takes_its_subcommands_and_gives_them_back(simcord_env):
    env = simcord_env
    bot = env.bot
    await bot.unload_extension("cogs.ledger")
    names = [c.name for c in bot.commerce.commands]
    assert names == [n for n, cog in SUBCOMMANDS.items() if cog != "Ledger"]
    await bot.load_extension("cogs.ledger")
    assert sorted(c.name for c in bot.commerce.commands) == sorted(SUBCOMMANDS)
    assert {c.name for c in bot.tree.get_commands()} == {"commerce", "commerce-admin"}
    # the reloaded commands run in the new cog
    guild = env.create_guild()
    channel = guild.create_text_channel("general")
    ann = guild.add_member(env.create_user("ann"))
    await bot.tree.sync()
    result = await ann.slash(channel, "commerce leaderboard")
    assert answer_text(result) == "Nobody has finished a deal on this server yet."
