"""What the Discord layer posted for each table: message ids kept with the table
(the lobby, the table message, offers, showdowns, the final standings), that its
end was shown, and that its channel was removed.

Message ids are cosmetic to the game but not to its messages: a restart must
know what was posted, or it posts it again. Every posted message's id goes
through one call, ``posted`` (``PostedMessage``: which message, its id). Memory takes them at once; a failed
write is logged and kept, and the watch writes it again (``write_unsaved``), as
does a clean stop (part of ``TableService``).
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from .core import ServiceBase
from .errors import StorageFailure
from .live import LiveTable

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class PostedMessage:
    """A message the Discord layer posted for a table, whose id is kept with it
    (``TableService.posted``).

    Attributes:
        kind: ``lobby``, ``table`` (the current table message), ``showdown`` (of
            the latest deal), ``offer`` (the ping of a barter or trade offer) or
            ``final`` (the final standings).
        message_id: its id; ``None`` only for an ``offer`` forgotten (closed).
        offer: an offer's key, ``"<deal>:<seq>"`` (``None``: forgotten).
    """

    kind: str
    message_id: int | None
    offer: str | None = None


class Posted(ServiceBase):
    """Message ids and the end of tables as Discord shows them (part of ``TableService``)."""

    # Message ids: what the Discord layer posted. They are cosmetic: memory takes
    # them at once, and a failed write is logged and kept for the watch to write
    # again (``write_unsaved``): a restart must know which messages were posted.
    async def _remember(self, table_id: int, what: str,
                        write: Callable[[], Awaitable[None]]) -> None:
        for attempt in range(2):  # at once again: a lock held for a moment, say
            try:
                async with self._unit(None):
                    await write()
            except StorageFailure:
                if attempt:
                    log.warning("table %s: could not store the %s message id; will try again",
                                table_id, what)
                    self.unsaved[(table_id, what)] = write
            else:
                self.unsaved.pop((table_id, what), None)
                return

    async def write_unsaved(self) -> int:
        """Write again what ``_remember`` could not (the watch calls it); returns
        how many are still unsaved."""
        for (table_id, what), write in list(self.unsaved.items()):
            if self.unsaved.get((table_id, what)) is write:
                await self._remember(table_id, what, write)
        return len(self.unsaved)

    async def posted(self, live: LiveTable, message: PostedMessage) -> None:
        """The one step from a posted message to its stored id: the Discord layer
        calls it once the message is posted (the change it shows is committed
        already). Memory takes the id at once; storage in a unit of its own, and
        a failed write is kept for the watch (``write_unsaved``). A showdown's id
        belongs to the table's latest deal; a lobby's or table message's id is
        kept by the open table itself (``live`` may be a frame of it being shown,
        ``bot.publishing.showing``)."""
        kind, message_id = message.kind, message.message_id
        table_id = live.id
        open_live = self.tables.get(table_id)  # ``live`` may be a frame being shown
        if kind == "lobby":
            assert message_id is not None
            if open_live is not None:
                open_live.row = dataclasses.replace(open_live.row, lobby_message_id=message_id)
            await self._remember(table_id, kind, lambda: self.storage.set_messages(
                table_id, lobby_message_id=message_id))
        elif kind == "table":
            assert message_id is not None
            if open_live is not None:
                open_live.row = dataclasses.replace(open_live.row, table_message_id=message_id)
            await self._remember(table_id, kind, lambda: self.storage.set_messages(
                table_id, table_message_id=message_id))
        elif kind == "showdown":
            assert message_id is not None
            live.showdown_messages[live.deal_number] = message_id
            key = live.deal_key
            await self._remember(table_id, "showdown", lambda: self.storage.set_showdown_message(
                key, message_id))
        elif kind == "offer":
            offer = message.offer
            live.row = dataclasses.replace(live.row, offer_key=offer,
                                           offer_message_id=message_id)
            await self._remember(table_id, "offer", lambda: self.storage.set_offer_message(
                table_id, offer, message_id))
        elif kind == "final":
            assert message_id is not None
            live.row = dataclasses.replace(live.row, final_message_id=message_id)
            await self._remember(table_id, "final", lambda: self.storage.set_final_message(
                table_id, message_id))
        else:
            raise ValueError(f"unknown kind of message {kind!r}")

    async def end_shown(self, table_id: int) -> None:
        """The table's end is shown in Discord: remember it (a failed write is
        logged; the end is then shown again after a restart) and forget the table."""
        live = self.ending.pop(table_id, None)
        if live is not None:
            live.row = dataclasses.replace(live.row, end_shown=True)
        await self._remember(table_id, "end", lambda: self.storage.set_end_shown(table_id))

    async def channel_removed(self, table_id: int) -> None:
        """The channel or thread the bot made for the table has been removed:
        remember it (a failed write is logged; removing it again is harmless)."""
        live = self.current(table_id)
        if live is not None:
            live.row = dataclasses.replace(live.row, channel_removed=True)
        await self._remember(table_id, "channel",
                             lambda: self.storage.set_channel_removed(table_id))
