"""Where tables play, and the life of the channels the bot makes for them
(docs/RELIABILITY.md "A table's channel").

- A new table opens where the guild's ``table_mode`` says: a ``commerce-<n>``
  channel under the *Commerce* category, a thread of the current channel, or the
  current channel itself. Without Manage Channels, or at one of Discord's channel
  limits (500 per server, 50 per category), it opens in a thread instead; when
  that is impossible too, the member is told exactly what is missing.
- A lobby that ends without a game (its last member left, it stood idle) has the
  channel or thread the bot made for it removed at once.
- A finished game's channel becomes read-only (a thread is archived and locked)
  and is removed the guild's ``keep_days`` after the game ended (0: kept for
  ever); the watch sweeps them (``sweep``).
- The bot never removes or changes a channel it did not make.

One ``Places`` per bot (``Publisher.places``).
"""

from __future__ import annotations

import collections
import datetime
import logging

import discord

from ..i18n import N_, _
from ..runtime.metrics import Metrics
from ..runtime.sending import retrying
from ..service import TableService, UserError
from ..storage import TableRow

log = logging.getLogger(__name__)

#: the name of the category the bot's table channels go in
CATEGORY = "Commerce"
#: Discord's answers when a channel cannot be made because a limit is reached:
#: 30013 (the server's 500 channels) and 50035 naming the category's 50
SERVER_FULL = 30013
#: finished games' channels a server keeps at most, whatever its ``keep_days``: the
#: oldest go first (the category's 50 channels stay free for new tables)
KEEP_AT_MOST = 20
INVALID_FORM = 50035

#: what a member is told when no table can be opened here
CANNOT_OPEN = N_("I cannot open a table here: I need **Manage Channels** (to create a table "
               "channel) or **Create Public Threads** and **Send Messages in Threads** in "
               "this channel.")


def channel_limit(exc: discord.HTTPException) -> str | None:
    """Which of Discord's channel limits ``exc`` reports (``"server"``, 500
    channels; ``"category"``, 50 in one category), or ``None``."""
    if exc.status != 400:
        return None
    if exc.code == SERVER_FULL:
        return "server"
    if exc.code == INVALID_FORM and "category" in (exc.text or "").lower():
        return "category"
    return None


class Places:
    """Opens, closes and removes the places where tables play.

    Args:
        client: the bot (channels are found through it, by id).
        service: the table service (what is stored about each table's place).
        metrics: where Discord's answers are counted (``bot.runtime.metrics``).
    """

    def __init__(self, client: discord.Client, service: TableService,
                 metrics: Metrics | None = None) -> None:
        """Nothing opened yet."""
        self.client = client
        self.service = service
        self.metrics = metrics
        #: a finished game's channel was just kept: the watch sweeps at its next
        #: round (a server keeps at most ``KEEP_AT_MOST``)
        self.sweep_due = False

    # ------------------------------------------------------------ opening
    async def open(self, interaction: discord.Interaction, mode: str, number: int,
                   ) -> tuple[discord.TextChannel | discord.Thread, str]:
        """Where a new table number ``number`` plays, by the guild's ``mode``
        (``channel``, ``thread``, ``here``). Returns the channel and what it is:
        ``channel`` or ``thread`` (made for the table) or ``here``.

        Raises:
            UserError: naming the permission or the limit that stands in the way.
        """
        guild = interaction.guild
        channel = interaction.channel
        assert guild is not None
        me = guild.me
        name = f"commerce-{number}"
        if mode == "here" and isinstance(channel, discord.TextChannel | discord.Thread):
            if not channel.permissions_for(me).send_messages:
                raise UserError(_("I need the **Send Messages** permission in this channel."))
            return channel, "here"
        full: str | None = None
        if mode == "channel" and me.guild_permissions.manage_channels:
            try:
                return await self._new_channel(guild, name), "channel"
            except discord.Forbidden:
                log.info("guild %s: cannot create a channel, trying a thread", guild.id)
            except discord.HTTPException as exc:
                full = channel_limit(exc)
                if full is None:
                    raise
                log.info("guild %s: the %s's channel limit is reached, trying a thread",
                         guild.id, full)
        thread = await self._new_thread(channel, name)
        if thread is not None:
            return thread, "thread"
        if full is not None:
            where = (_("this server has Discord's maximum of 500 channels")
                     if full == "server" else
                     _("the **{category}** category has Discord's maximum of 50 channels").format(
                         category=CATEGORY))
            raise UserError(_("I cannot open a table: {where}, and I cannot open a thread here "
                              "instead (I need **Create Public Threads** and **Send Messages in "
                              "Threads**). Ask an admin to remove old channels, or run "
                              "/commerce new in a channel where I may open threads.").format(
                                  where=where))
        raise UserError(_(CANNOT_OPEN))

    async def _new_channel(self, guild: discord.Guild, name: str) -> discord.TextChannel:
        category = discord.utils.get(guild.categories, name=CATEGORY)
        if category is None:
            category = await guild.create_category(CATEGORY, reason="Commerce tables")
        return await guild.create_text_channel(name, category=category,
                                               reason="New Commerce table")

    @staticmethod
    async def _new_thread(channel: object, name: str) -> discord.Thread | None:
        """A public thread of ``channel`` for the table, ``None`` when the bot
        may not open one there (or Discord refuses)."""
        if not isinstance(channel, discord.TextChannel):
            return None
        perms = channel.permissions_for(channel.guild.me)
        if not (perms.create_public_threads and perms.send_messages_in_threads):
            return None
        try:
            return await channel.create_thread(name=name, type=discord.ChannelType.public_thread,
                                               reason="New Commerce table")
        except discord.HTTPException as exc:
            log.info("guild %s: cannot open a thread (%s %s)", channel.guild.id, exc.status,
                     exc.code)
            return None

    # ------------------------------------------------------------ the end
    def own(self, row: TableRow) -> discord.TextChannel | discord.Thread | None:
        """The channel or thread the bot made for the table ``row`` (found by id,
        never by name); ``None`` for a table played in an existing channel, or one
        the bot cannot see (gone, or another shard's)."""
        channel = self.client.get_channel(row.channel_id)
        if row.place is None:  # a table older than the place column: by its name
            ours = getattr(channel, "name", "") == f"commerce-{row.number}"
        else:
            ours = row.place in ("channel", "thread")
        if not ours or not isinstance(channel, discord.TextChannel | discord.Thread):
            return None
        return channel

    async def end(self, row: TableRow, *, played: bool) -> None:
        """The table ended: its own channel is made read-only when a game was
        ``played`` there (``close``), removed when it never got past its lobby
        (``remove``).

        Raises:
            discord.HTTPException: Discord refused (429 and 5xx were retried).
        """
        if played:
            await self.close(row)
            self.sweep_due = True
        else:
            await self.remove(row)

    async def close(self, row: TableRow) -> None:
        """After the last deal: make the table's own channel read-only (a thread
        is archived and locked); a channel it did not make is left as it was.

        Raises:
            discord.HTTPException: Discord refused (429 and 5xx were retried).
        """
        channel = self.own(row)
        if isinstance(channel, discord.Thread):
            await retrying(lambda: channel.edit(archived=True, locked=True), self.metrics)
        elif isinstance(channel, discord.TextChannel):
            await retrying(lambda: channel.set_permissions(
                channel.guild.default_role, send_messages=False, reason="Commerce game over"),
                self.metrics)

    async def remove(self, row: TableRow) -> None:
        """Remove the channel or thread the bot made for the table, and remember
        that it is gone; a channel it did not make stays.

        Raises:
            discord.HTTPException: Discord refused (429 and 5xx were retried);
                a channel already gone counts as removed.
        """
        channel = self.own(row)
        if channel is None:
            guild = self.client.get_guild(row.guild_id)
            if (guild is not None and guild.get_channel_or_thread(row.channel_id) is None
                    and row.place in ("channel", "thread")):
                await self.service.channel_removed(row.id)  # someone removed it already
            return
        try:
            await retrying(lambda: channel.delete(reason="Commerce table over"),
                           self.metrics)
        except discord.NotFound:
            pass
        except discord.Forbidden:  # never asked again: Discord counts refused requests
            log.warning("table %s: may not remove its channel (Manage Channels, or Manage "
                        "Threads for a thread); left as it is", row.id)
        await self.service.channel_removed(row.id)

    async def sweep(self, shards: tuple[tuple[int, ...], int] | None = None,
                    now: datetime.datetime | None = None) -> int:
        """Remove the channels of finished tables kept longer than their guild's
        ``keep_days`` (0: kept for ever), and the oldest beyond ``KEEP_AT_MOST`` a
        guild; ``shards``: only the guilds this process serves. Returns how many
        were removed; a refusal for a while (429, 5xx) is tried again at the next
        sweep, a missing permission never."""
        moment = now or datetime.datetime.now(datetime.UTC)  # the storage's own clock
        removed = 0
        kept = await self.service.kept_channels(shards)
        left = collections.Counter(row.guild_id for row, _ in kept)
        for row, keep in kept:  # the oldest first
            ended = datetime.datetime.fromisoformat(row.ended_at or "")
            old = keep > 0 and moment - ended >= datetime.timedelta(days=keep)
            if not old and left[row.guild_id] <= KEEP_AT_MOST:
                continue
            left[row.guild_id] -= 1
            try:
                await self.remove(row)
            except discord.HTTPException as exc:
                log.warning("table %s: could not remove its channel (%s)", row.id, exc.status)
                continue
            removed += 1
        return removed
