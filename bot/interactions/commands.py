"""The ``/commerce`` slash-command group, shared by several cogs.

Discord sees one top-level command, ``/commerce``, with every subcommand under
it; the code keeps one cog per concern (tables, ledger, help). The group is
defined here once and made once per bot (``CommerceBot.setup_hook`` adds it to
the command tree); each ``Subcommands`` cog adds its own commands to it when
it loads and takes them out when it unloads. (A ``commands.GroupCog`` cannot
do this: each makes a group of its own, and two groups may not share a name.)
"""

from __future__ import annotations

from discord import app_commands
from discord.ext import commands


@app_commands.guild_only()
class CommerceGroup(app_commands.Group, name="commerce",
                    description="Play Commerce, the old three-card exchange game"):
    """``/commerce``: its subcommands come from the ``Subcommands`` cogs."""


class Subcommands(commands.Cog):
    """A cog whose app commands are subcommands of the bot's ``/commerce`` group.

    Write the commands as usual (``@app_commands.command`` methods); when the
    cog loads they join ``group`` in the order they are defined, instead of
    becoming top-level commands, and they leave it when the cog unloads.

    Args:
        group: the bot's ``/commerce`` (``CommerceBot.commerce``).
    """

    def __init__(self, group: CommerceGroup) -> None:
        """A cog whose commands will join ``group`` when it loads."""
        self.group = group
        self.joined: tuple[str, ...] = ()

    async def cog_load(self) -> None:
        """Move the cog's commands into ``group``, in the order they are defined."""
        for command in self.__cog_app_commands__:
            self.group.add_command(command)
        self.joined = tuple(c.name for c in self.__cog_app_commands__)
        # they are the group's now: discord.py must not add them at the top level too
        self.__cog_app_commands__ = []

    async def cog_unload(self) -> None:
        """Take the cog's commands back out of ``group``."""
        for name in self.joined:
            self.group.remove_command(name)
