"""Admin commands out of plain members' sight: ``/commerce-admin`` is a top-level group
with Manage Server as its default member permission, guild-only, and still checked
when it runs."""

from __future__ import annotations

import discord

from tests.cogs.helpers import answer_text

SUBCOMMANDS = {"settings", "cancel", "export", "reset-ledger", "season"}


def command(env, guild, name):
    cmd = env.backend.find_command(name, guild.id)
    assert cmd is not None, name
    return cmd


async def test_commerce_admin_is_top_level_for_managers_only(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    general = guild.create_text_channel("general")
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    mod = guild.add_member(env.create_user("mod"), roles=[mods])
    ann = guild.add_member(env.create_user("ann"))
    admin = command(env, guild, "commerce-admin")
    assert int(admin["default_member_permissions"]) == discord.Permissions(manage_guild=True).value
    assert admin.get("contexts") == [0] or admin.get("dm_permission") is False  # guild only
    assert {o["name"] for o in admin["options"]} == SUBCOMMANDS
    # nothing of it is left under /commerce, whose commands everyone sees
    commerce = command(env, guild, "commerce")
    assert "admin" not in {o["name"] for o in commerce["options"]}
    assert commerce.get("default_member_permissions") is None
    # the same, as discord.py's tree holds it
    group = env.bot.tree.get_command("commerce-admin")
    assert group.default_permissions == discord.Permissions(manage_guild=True)
    assert group.guild_only
    # what each member's client lists
    seen = {c["name"] for c in env.backend.visible_commands(user_id=ann.id, channel_id=general.id)}
    assert "commerce" in seen and "commerce-admin" not in seen
    seen = {c["name"] for c in env.backend.visible_commands(user_id=mod.id, channel_id=general.id)}
    assert {"commerce", "commerce-admin"} <= seen


async def test_a_plain_member_let_in_by_an_override_is_still_refused(simcord_env):
    """A server may allow a member or role to see a command (Integrations settings):
    the run-time check still wants Manage Server, and nothing changes."""
    env = simcord_env
    guild = env.create_guild()
    general = guild.create_text_channel("general")
    ann = guild.add_member(env.create_user("ann"))
    ben = guild.add_member(env.create_user("ben"))
    guild.set_command_permissions(int(command(env, guild, "commerce-admin")["id"]), {ann: True})
    await ben.slash(general, "commerce new")
    table = env.bot.service.in_channel(guild.channels["commerce-1"].id)
    settings = await env.bot.service.settings(guild.id)
    for path, options in (("commerce-admin settings", {"turn_timer": 5}),
                          ("commerce-admin cancel", {"table": table.row.number}),
                          ("commerce-admin export", {}),
                          ("commerce-admin reset-ledger", {}),
                          ("commerce-admin season", {})):
        res = await ann.slash(general, path, **options)
        assert res.ephemeral, path
        assert answer_text(res) == "You need the **Manage Server** permission for that.", path
        assert res.response.components == [], path  # no Confirm for the reset
        assert res.response.attachments == [], path  # no export file
    assert await env.bot.service.settings(guild.id) == settings
    assert table.id in env.bot.service.tables
    assert env.bot.service.exports.last_exports == {}  # the server's export was not used up
    actions = [a for _, a, _ in await env.bot.storage.audit_entries(guild.id)]
    assert not {"export", "end_table", "reset_ledger", "settings", "season"} & set(actions)
    assert await env.bot.storage.current_season(guild.id) == 1
