"""Class 4: /commerce-admin export's once-per-10-minutes limit across a restart."""

from __future__ import annotations

from tests.attack.common import moderator, server
from tests.cogs.helpers import answer_text, restart


def got_file(res) -> bool:
    message = res.followups[-1] if res.followups else res.response
    return bool(message.attachments)


async def test_the_export_limit_holds_across_a_restart(simcord_env, make_bot):
    """RELIABILITY: '/commerce-admin export sends that server's own data, once per 10
    minutes per server'. The limit is kept in memory only: after a restart (a crash
    loop, a deploy, or an admin who can make the bot restart) the next press reads
    and uploads the whole server again at once."""
    env = simcord_env
    guild, general, (ann,) = server(env)
    mod = moderator(env, guild)
    first = await mod.slash(general, "commerce-admin export")
    assert got_file(first), answer_text(first)
    again = await mod.slash(general, "commerce-admin export")
    assert not got_file(again)  # refused within 10 minutes
    await env.advance_time(60)
    await restart(env, make_bot())
    after = await mod.slash(general, "commerce-admin export")
    assert not got_file(after), "a second full export 1 minute after the first"
    env.errors  # noqa: B018
