"""Each player's private panel (``bot.ui.panel``): one ephemeral message per
player per deal, edited in place as the game goes on.

A panel is sent as the answer to a click on the table message (My hand, Trade,
Draw...) or to ``/commerce hand``; the panel it replaces is deleted, so
prompts never pile up. A click on the panel itself edits it in place, and so
does a move made at once from the table message (Knock, Stand...) or an
offer's message (Refuse, Decline) while the member's panel of this deal can
still be edited: the click's own answer shows the move on the message clicked,
and the panel is edited in place, one request instead of a follow-up and a
deletion. A click that asks for something (My hand: the member is looking for
the panel; Trade, Draw, Accept: a menu) always gets a new panel. After
every change at the table the publisher calls ``refresh``: each panel whose
interaction token still lives is edited to the new state (the deal's end says
so and takes the buttons away). Discord lets an interaction's messages be
edited for 15 minutes only: an older panel is left alone, and a click on it
(its buttons are persistent ``DynamicItem``s) answers with a fresh panel in
its place. Panels are kept in memory only; after a restart the same holds.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import functools
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import discord

from .. import i18n
from ..i18n import deck
from ..runtime.metrics import Metrics
from ..runtime.sending import edit, retrying
from ..service import LiveTable, TableService
from ..ui import panel

log = logging.getLogger(__name__)

#: how long after its interaction a panel is still edited: Discord's 15 minutes,
#: less a margin for the edit itself
TOKEN_LIFE = datetime.timedelta(minutes=15) - datetime.timedelta(seconds=45)


@dataclass
class Open:
    """A panel that can still be edited through the interaction that made it.

    Attributes:
        deal: the deal number the panel belongs to.
        message_id: the panel's message (``None`` if unknown).
        editor: edits the panel (the interaction's token, while it lives).
        deleter: deletes it (same token).
        expires: after this the token is dead: never edit again.
        key: what it shows now (``panel.Panel.key``).
        note: its line above the hand; focus: the menu on top, if any.
        picture: the hand picture it shows (``panel.Panel.picture``).
    """

    deal: int
    message_id: int | None
    editor: Callable[..., Awaitable[Any]]
    deleter: Callable[[], Awaitable[Any]]
    expires: datetime.datetime
    key: tuple[Any, ...] = ()
    note: str = ""
    focus: str | None = None
    picture: bytes | None = None

    def alive(self) -> bool:
        """Whether the token still lets the panel be edited."""
        return discord.utils.utcnow() < self.expires


def _files(rendered: panel.Panel) -> list[discord.File]:
    return [rendered.file] if rendered.file is not None else []


def _changes(rendered: panel.Panel, shown: Open | None) -> dict[str, Any]:
    """The keyword arguments of an edit that brings a panel showing ``shown``
    (``None``: unknown) to ``rendered``: the hand picture is uploaded again only
    when it changed (an edit without ``attachments`` keeps the message's)."""
    changes: dict[str, Any] = {"content": rendered.content, "view": rendered.view}
    if shown is None or shown.picture != rendered.picture:
        changes["attachments"] = _files(rendered)
    return changes


@dataclass
class Panels:
    """The open panels of every table, by ``(table id, member id)``.

    Args:
        service: the table service whose committed state the panels show.
        metrics: where Discord's answers are counted (``bot.runtime.metrics``).
    """

    service: TableService
    metrics: Metrics | None = None
    open: dict[tuple[int, int], Open] = field(default_factory=dict)
    locks: dict[tuple[int, int], asyncio.Lock] = field(default_factory=dict)

    def lock(self, table_id: int, member_id: int) -> asyncio.Lock:
        """The lock of one player's panel: its edits never interleave."""
        return self.locks.setdefault((table_id, member_id), asyncio.Lock())

    async def send(self, interaction: discord.Interaction, live: LiveTable, *,
                   focus: str | None = None, note: str = "", in_place: bool = False,
                   rendered: panel.Panel | None = None) -> None:
        """Answer ``interaction`` with the member's panel, a new ephemeral message,
        and delete the panel it replaces (while that one's token lives). Outside
        the table's channel the panel shows the hand without controls (they act
        only where the table plays) and is not kept.

        ``in_place``: when the click is answered already (a move whose answer
        edited the message clicked: ``Publisher.answer_on_table``,
        ``AfterChange.answer_on_offer``) and the
        member's panel of this deal can still be edited, that panel is edited
        to the new one instead (one request, not a follow-up and a deletion);
        otherwise, or when Discord refuses that edit, a new one is sent.
        ``rendered``: that panel already built (``panel.build(live, seat,
        focus=focus, note=note, controls=<in the table's channel>)``), e.g. while
        the move committed."""
        member = interaction.user.id
        seat = live.seat_of(member)
        assert seat is not None and live.deal is not None
        here = interaction.channel_id == live.row.channel_id
        key = (live.id, member)
        async with self.lock(*key):
            if rendered is None:
                rendered = panel.build(live, seat, focus=focus, note=note, controls=here)
            old = self.open.get(key)
            if (in_place and here and old is not None and old.deal == live.deal_number
                    and old.alive() and interaction.response.is_done()
                    and await self._edit_in_place(old, rendered, note, focus)):
                return
            view = rendered.view if rendered.view is not None else discord.utils.MISSING
            files = _files(rendered)
            if interaction.response.is_done():  # acknowledged before a wait: a follow-up
                message = await interaction.followup.send(
                    rendered.content, files=files, view=view, ephemeral=True, wait=True)
                opened = Open(live.deal_number, message.id, message.edit, message.delete,
                              discord.utils.utcnow() + TOKEN_LIFE)
            else:
                answer = await interaction.response.send_message(
                    rendered.content, files=files, view=view, ephemeral=True)
                opened = Open(live.deal_number, answer.message_id,
                              interaction.edit_original_response,
                              interaction.delete_original_response,
                              discord.utils.utcnow() + TOKEN_LIFE)
            if not here:
                return
            opened.key, opened.note, opened.focus = rendered.key, note, focus
            opened.picture = rendered.picture
            old = self.open.get(key)
            self.open[key] = opened
        if old is not None and old.alive() and old.message_id != opened.message_id:
            with contextlib.suppress(discord.HTTPException):
                await old.deleter()

    async def _edit_in_place(self, opened: Open, rendered: panel.Panel, note: str,
                             focus: str | None) -> bool:
        """Edit the open panel ``opened`` to ``rendered`` through its own token
        (the caller holds its lock). Returns whether it was edited; ``False``:
        Discord refused (the message is gone, a 429 or 5xx), and the caller
        sends a new one (which replaces it)."""
        try:
            await opened.editor(**_changes(rendered, opened))
        except discord.HTTPException:
            return False
        opened.key, opened.note, opened.focus = rendered.key, note, focus
        opened.picture = rendered.picture
        return True

    async def update(self, interaction: discord.Interaction, live: LiveTable, *,
                     note: str = "", focus: str | None = None,
                     rendered: panel.Panel | None = None) -> None:
        """Edit the panel a click came from into the member's panel now (with
        ``note`` above the hand); it becomes the member's panel, through the
        click's own fresh token, and a different panel it replaces is deleted.
        ``rendered``: that panel already built (``panel.build(live, seat,
        focus=focus, note=note)``), e.g. while the move committed."""
        member = interaction.user.id
        seat = live.seat_of(member)
        assert seat is not None and live.deal is not None
        key = (live.id, member)
        message_id = interaction.message.id if interaction.message is not None else None
        async with self.lock(*key):
            if rendered is None:
                rendered = panel.build(live, seat, focus=focus, note=note)
            old = self.open.get(key)
            shown = old if old is not None and old.message_id == message_id else None
            await edit(interaction, **_changes(rendered, shown))
            self.open[key] = Open(live.deal_number, message_id,
                                  interaction.edit_original_response,
                                  interaction.delete_original_response,
                                  discord.utils.utcnow() + TOKEN_LIFE, rendered.key, note, focus,
                                  rendered.picture)
        if old is not None and old.alive() and old.message_id != message_id:
            with contextlib.suppress(discord.HTTPException):
                await old.deleter()

    async def refresh(self, live: LiveTable) -> bool:
        """Bring every open panel of the table up to date (the deal's end takes
        their buttons away); panels of an earlier deal, of a seat no longer held,
        or whose token has died are forgotten, never edited. Returns whether every
        panel shows the table now (``False``: Discord refused an edit for a while;
        the next refresh tries again)."""
        done = True
        for key, opened in list(self.open.items()):
            if key[0] != live.id:
                continue
            seat = live.seat_of(key[1])
            if (opened.deal != live.deal_number or not opened.alive() or seat is None
                    or live.deal is None):
                self.open.pop(key, None)
                continue
            async with self.lock(*key):
                if self.open.get(key) is not opened:
                    continue  # replaced meanwhile
                # in its owner's language and deck (``panel.key_of``)
                with i18n.use(opened.key[-2]), deck.use(opened.key[-3]):
                    if panel.key_of(live, seat, focus=opened.focus, note=opened.note) == opened.key:
                        continue  # it shows this already: nothing to build
                    rendered = panel.build(live, seat, focus=opened.focus, note=opened.note)
                changes = _changes(rendered, opened)
                try:  # a 429 or 5xx is tried again: the panel must not stay behind
                    await retrying(functools.partial(opened.editor, **changes), self.metrics)
                except discord.NotFound:
                    self.open.pop(key, None)
                    continue
                except discord.HTTPException as exc:
                    log.warning("table %s: could not update a panel", live.id)
                    done = done and not (exc.status == 429 or exc.status >= 500)
                    continue
                opened.key, opened.picture = rendered.key, rendered.picture
        return done

    async def close(self, live: LiveTable, text: str) -> bool:
        """The table closed: every panel of it that can still be edited says
        ``text`` and loses its buttons, and is forgotten. Returns whether all are
        (``False``: Discord refused an edit for a while; those panels are kept
        for the next call)."""
        done = True
        for key, opened in list(self.open.items()):
            if key[0] != live.id:
                continue
            if opened.alive():
                async with self.lock(*key):
                    try:
                        await retrying(functools.partial(opened.editor, content=text, view=None),
                                       self.metrics)
                    except discord.HTTPException as exc:
                        if (exc.status == 429 or exc.status >= 500) and opened.alive():
                            done = False
                            continue
            self.open.pop(key, None)
        if done:
            self.forget(live.id)
        return done

    def forget(self, table_id: int) -> None:
        """Drop every panel of a table that is gone (nothing is edited)."""
        for key in [k for k in self.open if k[0] == table_id]:
            self.open.pop(key, None)
        for key in [k for k in self.locks if k[0] == table_id]:
            self.locks.pop(key, None)
