"""``/commerce about``: the bot's version, uptime, servers and tables, the invite
link with exactly the permissions the README's "Inviting the bot" lists, and where
the rules and the fairness page are.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from importlib import metadata

import discord

from ..i18n import _, ngettext
from .render import GREEN

#: the permissions the README lists under "Inviting the bot", and no other
INVITE_PERMISSIONS = discord.Permissions(
    view_channel=True, send_messages=True, embed_links=True, attach_files=True,
    read_message_history=True, manage_channels=True, manage_roles=True,
    create_public_threads=True, send_messages_in_threads=True, manage_threads=True)
#: the scopes of the invite link
INVITE_SCOPES = ("bot", "applications.commands")
#: the name the project is installed under (``pyproject.toml``)
DISTRIBUTION = "commerce-bot"


def version() -> str:
    """The installed version of the bot (``pyproject.toml``), or ``unknown``."""
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return "unknown"


def invite_url(client_id: int) -> str:
    """The link that adds the application ``client_id`` to a server with
    ``INVITE_PERMISSIONS`` and ``INVITE_SCOPES``."""
    return discord.utils.oauth_url(client_id, permissions=INVITE_PERMISSIONS,
                                   scopes=INVITE_SCOPES)


@dataclass(frozen=True)
class About:
    """What ``/commerce about`` shows: ``started`` (aware UTC), the ``guilds`` this
    process serves, its ``open_tables``, and in the whole database the tables
    ever opened (``tables``) and games ever started (``games``); ``client_id``:
    the application (``None``: not known yet, no link)."""

    started: datetime.datetime
    guilds: int
    open_tables: int
    tables: int
    games: int
    client_id: int | None


def about_embed(about: About) -> discord.Embed:
    """The ``/commerce about`` embed."""
    embed = discord.Embed(title="Commerce", colour=GREEN,
                          description=_("The historical three-card exchange game, with provably "
                                        "fair deals."))
    embed.add_field(name=_("Version"), value=version())
    embed.add_field(name=_("Up since"), value=discord.utils.format_dt(about.started, "R"))
    embed.add_field(name=_("Servers"), value=str(about.guilds))
    opened = ngettext("{count} table opened", "{count} tables opened",
                      about.tables).format(count=about.tables)
    started = ngettext("{count} game started", "{count} games started",
                       about.games).format(count=about.games)
    embed.add_field(name=_("Tables"), inline=False,
                    value=_("{open} open now · {opened} and {started} in all").format(
                        open=about.open_tables, opened=opened, started=started))
    if about.client_id is not None:
        embed.add_field(name=_("Invite"), inline=False,
                        value="[" + _("Add Commerce to a server") + f"]({invite_url(about.client_id)}) "
                              + _("(only the permissions it needs)"))
    embed.add_field(name=_("Rules and fairness"), inline=False,
                    value=_("`/commerce rules` explains the game. Every deal can be checked: its **Proof** "
                            "button shows how it was shuffled, and `/commerce export` gives a "
                            "finished game's whole record."))
    return embed
