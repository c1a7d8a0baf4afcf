"""The table's older messages (docs/RELIABILITY.md "On a public server"): a
showdown or table message of the deal before, or a closed offer, keeps no
control once the game has moved on. Their embeds are remembered as sent, so
taking the controls off needs no fetch first (one request fewer of Discord's
global limit), and an edit Discord refuses for a while stays owed until the
watch makes it. No edit is made that would show nothing new: a table message
sent with no control (its deal over) is left as it is at the next deal, and an
offer whose Refuse or Decline took its buttons off in the press's own answer
is not edited again. One ``OlderMessages`` per bot, owned by the ``Publisher``
(``bot.publishing.publisher``).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from ..runtime.metrics import Metrics
from ..runtime.sending import retrying

log = logging.getLogger(__name__)


def retryable(exc: discord.HTTPException) -> bool:
    """Whether Discord's refusal is for a while (429, 5xx): try again later."""
    return exc.status == 429 or exc.status >= 500


async def settle_old(channel: discord.PartialMessageable, message_id: int,
                     sent: list[discord.Embed] | None = None,
                     keep: discord.ui.View | None = None) -> None:
    """A message of the deal before, once the next deal has started (or the
    table ended): its buttons go (but ``keep``: a showdown's Proof), and so does
    its line counting down to the next deal. ``sent``: the message's embeds as
    the bot sent them (then the message is not fetched first: one request fewer
    of Discord's global limit).

    Raises:
        discord.HTTPException: Discord refused (``OlderMessages.settle`` keeps it owed).
    """
    message: discord.Message | discord.PartialMessage
    if sent is None:
        fetched = await channel.fetch_message(message_id)
        message, found = fetched, fetched.embeds
    else:
        message, found = channel.get_partial_message(message_id), sent
    await message.edit(embeds=without_countdown(found), view=keep)


def without_countdown(embeds: list[discord.Embed]) -> list[discord.Embed]:
    """Copies of ``embeds`` without their line counting down to the next deal."""
    out = []
    for embed in embeds:
        embed = embed.copy()
        if embed.description and "⏭" in embed.description:
            embed.description = "\n".join(
                line for line in embed.description.split("\n")
                if not line.startswith("⏭")).rstrip()
        out.append(embed)
    return out


class OlderMessages:
    """What was sent on each table's messages, and the edits still owed to them.

    Args:
        metrics: where Discord's answers are counted (``bot.runtime.metrics``).
        behind: the publisher's set of tables whose messages are behind their
            state; a table with an edit still owed is put in it, for the watch.

    Attributes:
        owed: per table, edits of its older messages Discord refused for a
            while: message id -> the edit, made again by ``settle``.
        sent: per table, the embeds of its latest messages as sent (table
            message, showdown), by message id.
        bare: per table, its table message as last sent or edited with no
            control (its deal over): the next deal needs no edit to take them
            off. Unknown after a restart (the refresh at the start edits it).
        pressed: per table, messages whose controls the press on them took
            off in its own answer (an offer refused): not edited again.
    """

    def __init__(self, metrics: Metrics | None, behind: set[int]) -> None:
        """Nothing sent, nothing owed."""
        self.metrics = metrics
        self.behind = behind
        self.owed: dict[int, dict[int, Callable[[], Awaitable[Any]]]] = {}
        self.sent: dict[int, dict[int, list[discord.Embed]]] = {}
        self.bare: dict[int, int] = {}
        self.pressed: dict[int, set[int]] = {}

    def forget(self, table_id: int) -> None:
        """The table's end is shown: nothing of it is remembered any more."""
        self.owed.pop(table_id, None)
        self.sent.pop(table_id, None)
        self.bare.pop(table_id, None)
        self.pressed.pop(table_id, None)

    def answered(self, table_id: int, message_id: int, *, now: bool = False) -> bool:
        """Whether the press on the table's message ``message_id`` took its
        controls off in its own answer (then forgotten); ``now``: it just did."""
        if now:
            self.pressed.setdefault(table_id, set()).add(message_id)
            return True
        pressed = self.pressed.get(table_id, set())
        found = message_id in pressed
        pressed.discard(message_id)
        return found

    def remember(self, table_id: int, message_id: int, embeds: list[discord.Embed], *,
                 bare: bool | None = None) -> None:
        """The table's message ``message_id`` was just sent with ``embeds``;
        ``bare``: it is the table message, sent with no control (``True``) or
        with some (``False``)."""
        self.sent.setdefault(table_id, {})[message_id] = embeds
        if bare:
            self.bare[table_id] = message_id
        elif bare is not None and self.bare.get(table_id) == message_id:
            del self.bare[table_id]

    def embeds(self, table_id: int, message_id: int, *, drop: bool = False,
               ) -> list[discord.Embed] | None:
        """The embeds of the table's message ``message_id`` as the bot last sent
        them (``None``: unknown, after a restart); ``drop``: forget them (the
        message will not change again)."""
        sent = self.sent.get(table_id, {})
        return sent.pop(message_id, None) if drop else sent.get(message_id)

    @staticmethod
    def settled_embeds(message: discord.Message | None) -> list[discord.Embed]:
        """``message``'s embeds without their line counting down to the next deal
        (as ``settle_old`` leaves them); ``[]`` without a message."""
        return without_countdown(message.embeds if message is not None else [])

    async def settle(self, table_id: int, message_id: int | None = None,
                     edit: Callable[[], Awaitable[Any]] | None = None) -> bool:
        """Make ``edit`` of the table's older message ``message_id`` (its controls
        taken off) and every edit still owed to the table. An edit Discord
        refuses for a while (429, 5xx, after the retries) stays owed and the
        table ``behind``, so the watch makes it later; one Discord can never make
        (the message is gone, a permission is missing) is given up. Returns
        whether nothing is owed any more."""
        owed = self.owed.setdefault(table_id, {})
        if message_id is not None and edit is not None:
            owed[message_id] = edit
        for mid, make in list(owed.items()):
            try:
                await retrying(make, self.metrics)
            except discord.HTTPException as exc:
                if retryable(exc):
                    self.behind.add(table_id)
                    continue
                log.info("table %s: gave up an edit of message %s (%s)", table_id, mid,
                         exc.status)
            owed.pop(mid, None)
        if not owed:
            self.owed.pop(table_id, None)
            return True
        return False
