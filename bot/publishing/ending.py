"""Showing a table's end, however it ended (docs/RELIABILITY.md "On a public
server"): its last showdown, the table message in its final state, every control
taken off, the final standings (posted once, restarts included), the lobby,
the panels and the channel. One ``Ending`` per bot, owned by the ``Publisher``
(``bot.publishing.publisher``), which calls it when a table's refresh finds it ended.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Awaitable, Callable
from typing import Protocol

import discord

from .. import i18n
from ..runtime.language import in_server_language
from ..runtime.metrics import Metrics
from ..runtime.sending import retrying
from ..service import LiveTable, PostedMessage, TableService
from ..ui import render
from ..ui.components import proof_view
from ..ui.review import final_view
from .older import OlderMessages, retryable, settle_old
from .panels import Panels
from .places import Places

log = logging.getLogger(__name__)


class StillOwed(Exception):
    """Edits of a table's older messages that Discord refused for a while are
    still owed (``OlderMessages.owed``): the step that needed them is not done."""


class Publishing(Protocol):
    """What the end asks of the publisher (``bot.publishing.publisher.Publisher``)."""

    service: TableService
    panels: Panels
    places: Places
    behind: set[int]
    offers: dict[tuple[int, int, int], int | None]
    older: OlderMessages
    metrics: Metrics | None

    def channel(self, live: LiveTable) -> discord.PartialMessageable:
        """Where the table plays."""

    def forget(self, table_id: int) -> None:
        """Drop what is remembered of the table's messages."""

    async def edit_table_message(self, live: LiveTable, *, frame: bool = False) -> None:
        """Edit the table message to the table's state now."""

    async def refresh_lobby(self, live: LiveTable, note: str | None = None, *,
                            strict: bool = False) -> None:
        """Edit the lobby message."""

    async def after_deal_change(self, live: LiveTable) -> None:
        """Post an offer's ping or the showdown."""

    async def close_offer(self, live: LiveTable, deal: int, seq: int, text: str) -> None:
        """Replace an offer's buttons with its outcome."""


class Ending:
    """The end of every table, step by step.

    Args:
        publisher: the bot's publisher (its messages, panels and places).

    Attributes:
        ends: per ended table, the steps of its end already shown.
    """

    def __init__(self, publisher: Publishing) -> None:
        """No end shown yet."""
        self.publisher = publisher
        self.ends: dict[int, set[str]] = {}

    @in_server_language
    async def show(self, live: LiveTable) -> None:
        """Show that the table has ended, however it ended (its last deal, life or
        chips, fixed rounds, ``/commerce end``, an admin, a deleted channel, an
        empty or idle lobby), once: the last showdown if it is still to be posted,
        the table message in its final state with no control, the final standings,
        the lobby message, every open panel closed, and the channel made read-only
        (a thread archived and locked); a lobby that never started has the channel
        or thread the bot made for it removed. Each step is done at most once;
        when Discord refuses for a while (429, 5xx) the rest is left to the watch
        (``behind``), and a step Discord can never do (the channel is gone, a
        permission is missing) is given up. Then the service forgets the table.
        Its timers are stopped before (``Moments.ended``, ``bot.changes.after``)."""
        done = self.ends.setdefault(live.id, set())
        steps: list[tuple[str, Callable[[], Awaitable[None]]]] = [
            ("showdown", lambda: self._showdown(live)),
            ("table", lambda: self.publisher.edit_table_message(live)),
            ("controls", lambda: self._controls(live)),
            ("final", lambda: self._final(live)),
            ("lobby", lambda: self.publisher.refresh_lobby(live, strict=True)),
            ("panels", lambda: self._panels(live)),
            ("channel", lambda: self.publisher.places.end(live.row, played=bool(live.game and
                                                                      live.game.deals))),
        ]
        for name, step in steps:
            if name in done:
                continue
            try:
                await step()
            except StillOwed:
                self.publisher.behind.add(live.id)
                return
            except discord.HTTPException as exc:
                if retryable(exc):
                    log.warning("table %s: Discord is not taking its end yet (%s); the watch "
                                "tries again", live.id, exc.status)
                    self.publisher.behind.add(live.id)
                    return
                log.warning("table %s: gave up a step of its end (%s: %s %s)", live.id, name,
                            exc.status, getattr(exc, "code", ""))
            done.add(name)
        await self.publisher.service.end_shown(live.id)
        self.publisher.forget(live.id)

    @in_server_language
    async def unseen(self, live: LiveTable) -> None:
        """A table ended because its channel was deleted or archived: nothing can
        be shown there any more (a post would reopen an archived thread), so its
        open panels are closed and its end counts as shown (its timers are stopped
        before, ``bot.changes.after``)."""
        await self.publisher.panels.close(live, i18n._("This table is closed: its channel is gone."))
        await self.publisher.service.end_shown(live.id)
        self.publisher.forget(live.id)

    async def _showdown(self, live: LiveTable) -> None:
        deal = live.deal
        if (deal is not None and deal.finished and deal.showdown is not None
                and live.deal_number not in live.announced):
            await self.publisher.after_deal_change(live)

    async def _controls(self, live: LiveTable) -> None:
        """No control left on the table's other messages: the last showdown's
        Next deal, a pending offer's answers."""
        shown = live.showdown_messages.get(live.deal_number)
        if shown is not None and live.row.status == "closed":
            channel = self.publisher.channel(live)
            await self.publisher.older.settle(live.id, shown, functools.partial(
                settle_old, channel, shown, self.publisher.older.embeds(live.id, shown),
                proof_view(live.id, live.deal_number) if live.game and live.game.shuffler
                else None))
        for (table_id, deal, seq), _ in list(self.publisher.offers.items()):
            if table_id == live.id:
                await self.publisher.close_offer(live, deal, seq, i18n._("This table is closed."))
        if not await self.publisher.older.settle(live.id):
            raise StillOwed()

    async def _panels(self, live: LiveTable) -> None:
        """Every open panel shows the end (a finished game's result) with no
        control; one Discord refused for a while keeps the step owed."""
        if live.row.status == "finished":
            done = await self.publisher.panels.refresh(live)
        else:
            done = await self.publisher.panels.close(live, i18n._("This table is closed."))
        if not done:
            raise StillOwed()

    async def _final(self, live: LiveTable) -> None:
        if live.game is not None and live.game.deals and live.row.final_message_id is None:
            message = await retrying(lambda: self.publisher.channel(live).send(
                embed=render.final_embed(live),
                view=final_view(live.row.guild_id, live.id)), self.publisher.metrics)
            await self.publisher.service.posted(live, PostedMessage("final", message.id))
