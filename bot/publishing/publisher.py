"""The public messages of a game: the deal's table message, barter offers,
showdowns, final standings, lobby edits and the read-only end of a table.

One ``Publisher`` per bot (``CommerceBot.publisher``), shared by the commands,
the control handlers and the timers. It renders only what the table service
has already committed, so a failed post or edit never loses an action: the
watch (``bot.timers.clock``) posts what could not be posted. It decides no timer
and knows none: what its messages show of the timers it reads in ``countdowns``
(``bot.publishing.countdowns``), and what it shows it tells the ``Moments`` it is
given (``bot.changes.after`` arms the timers from them).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import datetime
import functools
import hashlib
import logging
from collections.abc import Awaitable
from typing import Any, Protocol

import discord

from .. import i18n
from ..i18n import _, deck
from ..runtime.language import in_server_language, known_server_language
from ..runtime.metrics import Metrics
from ..runtime.sending import NO_PINGS, ping, reply, retrying
from ..service import LiveTable, PostedMessage, TableService
from ..storage import OPEN_STATUSES
from ..ui import media, render
from ..ui.components import (
    CutButton,
    NextDealButton,
    PlayButton,
    ProofButton,
    answers_view,
    dynamic_view,
    lobby_view,
    proof_view,
    table_controls,
)
from .commitments import Commitments
from .countdowns import Countdowns
from .ending import Ending
from .older import OlderMessages, retryable, settle_old
from .panels import Panels
from .places import Places
from .showing import AI_PACE, Showing

log = logging.getLogger(__name__)


def sent_view(view: discord.ui.View | None) -> discord.ui.View:
    """``view`` as ``send`` takes it: ``None`` (no controls) becomes ``MISSING``,
    since ``send`` is typed for a view or nothing."""
    return view if view is not None else discord.utils.MISSING


def shows(content: str, embed: discord.Embed, png: bytes,
          view: discord.ui.View | None) -> tuple[bytes, bytes]:
    """What a table message shows, to compare with what it showed: digests (one
    pair is kept per table) of its text, embed and controls, and of its picture."""
    words = repr((content, embed.to_dict(), view.to_components() if view is not None else None))
    return (hashlib.blake2b(words.encode(), digest_size=16).digest(),
            hashlib.blake2b(png, digest_size=16).digest())


def moment(countdowns: Countdowns, live: LiveTable, frame: bool,
           ) -> tuple[datetime.datetime | None, tuple[object, ...]]:
    """The turn deadline a table message shows now (``turn_deadline``), and
    everything a table message's text, embed, picture and controls are drawn
    from (``Publisher.head``, ``table_embed``, ``media.table_png``), as a key:
    the table's row, seats, game, deal and its operation count, shuffle log and
    events (its cuts), the turn deadline shown, ``frame``, the language and the
    deck. Rows and seats are frozen, and a deal and a game change only by their
    operations and deals (the count of each is in the key): equal keys draw the
    same message, so a refresh of a message that shows its key already draws
    nothing again (``same_moment``)."""
    game, deal = live.game, live.deal
    log = game.shuffle_log if game is not None else None
    deadline = turn_deadline(countdowns, live)
    return deadline, (live, game, deal, live.row, tuple(live.seats),
                      len(game.deals) if game else 0, len(deal.operations) if deal is not None else 0,
                      deal is not None and deal.finished, len(log.burned) if log is not None else 0,
                      len(live.events), deadline, frame, i18n.current(), deck.current())


def same_moment(one: tuple[object, ...], other: tuple[object, ...]) -> bool:
    """Whether two ``moment`` keys are the same: the same table, game and deal
    objects (not only equal ones), and equal in the rest."""
    return (one[0] is other[0] and one[1] is other[1] and one[2] is other[2]
            and one[3:] == other[3:])


def turn_deadline(countdowns: Countdowns, live: LiveTable) -> datetime.datetime | None:
    """The turn deadline a table message shows now (``None``: none, or the deal is over)."""
    deal = live.deal
    return countdowns.turn_deadline(live) if deal is not None and not deal.finished else None


async def table_posted(service: TableService,
                       shown: dict[int, tuple[int, tuple[bytes, bytes], tuple[object, ...]]],
                       live: LiveTable, entry: tuple[int, tuple[bytes, bytes], tuple[object, ...]],
                       ) -> None:
    """Store the id of the table message just posted (``TableService.posted``),
    ``entry`` being what it shows (``Publisher.shown``). The table's row then names
    the message, which the message does not show: when nothing else of the row
    changed meanwhile, what it shows is kept under the new row, so the refresh that
    follows the post finds the same moment (``same_moment``) and draws nothing again."""
    message_id, now = entry[0], entry[2]
    row = live.row
    await service.posted(live, PostedMessage("table", message_id))
    if (shown.get(live.id) is entry and live.row is not row and now[3] is row
            and live.row == dataclasses.replace(row, table_message_id=message_id)):
        shown[live.id] = (message_id, entry[1], (*now[:3], live.row, *now[4:]))


class Moments(Protocol):
    """What a refresh tells of the moments it shows, to whoever arms the timers
    (``bot.changes.after.Arming``): the publisher only says what it shows, at the
    moment it shows it, and decides no timer. Given per call (``refresh``,
    ``post_deal``); a refresh given none (``UNTIMED``) arms nothing."""

    async def showing(self, live: LiveTable) -> None:
        """The table message is about to show ``live``'s latest state (not a step
        being shown), or a refresh of it just ended: what it shows of the turn
        timer must be known now."""

    async def presenting(self, table_id: int) -> None:
        """Moves the table message has not shown yet are about to be shown one at
        a time: the moment just passed is over."""

    def announced(self, live: LiveTable, at: datetime.datetime | None) -> None:
        """The finished deal's showdown of a game not over is posted, showing the
        next deal at ``at`` (``None``: it shows no time, or was posted before)."""

    async def ended(self, table_id: int) -> None:
        """The table's end is about to be shown: none of its timers runs on."""


class Untimed:
    """``Moments`` told to nobody: a refresh that arms no timer (``UNTIMED``)."""

    async def showing(self, live: LiveTable) -> None:
        """Nothing to arm."""

    async def presenting(self, table_id: int) -> None:
        """Nothing to stop."""

    def announced(self, live: LiveTable, at: datetime.datetime | None) -> None:
        """Nothing to schedule."""

    async def ended(self, table_id: int) -> None:
        """Nothing to stop."""


#: the ``Moments`` of a refresh that arms no timer
UNTIMED: Moments = Untimed()


def predraw(client: discord.Client, live: LiveTable) -> None:
    """Draw now the table picture the table message will show for ``live`` (a step
    or the latest state), in its server's language and two-colour deck: the edit
    that follows finds it drawn (``media.table_png`` keeps the last ones). Called
    while a move commits (``Storage.while_committing``); nothing is drawn while
    the guild's language is not known without waiting."""
    if live.deal is None or live.game is None:
        return
    language = known_server_language(client, live.row.guild_id)
    if language is not None:
        with i18n.use(language), deck.use(deck.TWO):
            media.table_png(live)


class Publisher:
    """Posts and keeps up to date the public messages of every table.

    Args:
        client: the bot (channels are found through it, by id).
        service: the table service whose committed state is shown.
        pace: seconds between two AI moves as the table message shows them
            (``bot.publishing.showing``; docs/AI.md "At a table"); 0 shows the latest
            state at once.
        metrics: where Discord's answers are counted (``bot.runtime.metrics``);
            ``None``: nowhere.

    Attributes:
        countdowns: what the messages show of the timers (the turn deadline, the
            next deal's time), written by the timers (``bot.publishing.countdowns``).
        offers: barter offers already announced: ``(table, deal, seq)`` -> message
            id (``None``: unknown).
        panels: every player's private panel (``bot.publishing.panels``), refreshed with
            the table message.
        places: the channels and threads tables play in (``bot.publishing.places``).
        commitments: each lobby's fair-shuffle message (``bot.publishing.commitments``).
        shown: per table, its table message's id, what it shows as last sent
            and what from (``moment``): an edit that would change nothing is not
            made (nor drawn), and the picture is uploaded only when it changed.
        showing: which step of its deal each table message shows, and the AI's
            pace (``bot.publishing.showing``).
    """

    def __init__(self, client: discord.Client, service: TableService, *,
                 pace: float = AI_PACE, metrics: Metrics | None = None) -> None:
        """A publisher that has announced nothing yet; ``restore`` reads back the
        offers announced before a restart."""
        self.client = client
        self.service = service
        self.metrics = metrics
        self.showing = Showing(service, pace)
        self.countdowns = Countdowns()
        self.offers: dict[tuple[int, int, int], int | None] = {}
        self.editing: set[int] = set()
        self.dirty: set[int] = set()
        self.panels = Panels(service, metrics)
        self.places = Places(client, service, metrics)
        self.shown: dict[int, tuple[int, tuple[bytes, bytes], tuple[object, ...]]] = {}
        #: tables whose public messages are behind their state (an edit or post
        #: Discord refused for a while): the watch brings them up to date
        self.behind: set[int] = set()
        #: the table's older messages: what was sent, the edits still owed
        self.older = OlderMessages(metrics, self.behind)
        self.commitments = Commitments(self)
        self.ending = Ending(self)
        media.warm_up()  # the card sprites, drawn in the background once per process

    def restore(self, moments: Moments = UNTIMED) -> None:
        """After a start: remember the offers announced before it (the table
        message carries the Accept / Refuse buttons either way, so never ping
        twice), and refresh every table message, posting a showdown a crash
        kept back (told to ``moments``, as ``refresh``)."""
        for live in list(self.service.tables.values()):
            if live.game is None:
                continue
            deal = live.deal
            if deal is not None and deal.pending is not None:
                key = (live.id, live.deal_number, len(deal.operations))
                known = live.row.offer_key == f"{key[1]}:{key[2]}"
                self.offers[key] = live.row.offer_message_id if known else None
            asyncio.get_running_loop().create_task(self.refresh(live, moments=moments))

    def forget(self, table_id: int) -> None:
        """A table's end is shown: drop what is remembered of its messages and panels."""
        self.shown.pop(table_id, None)
        self.behind.discard(table_id)
        self.ending.ends.pop(table_id, None)
        self.older.forget(table_id)
        self.commitments.refused.discard(table_id)
        self.dirty.discard(table_id)
        self.showing.forget(table_id)
        self.panels.forget(table_id)
        for key in [k for k in self.offers if k[0] == table_id]:
            self.offers.pop(key, None)

    def busy(self, table_id: int) -> bool:
        """Whether the table's messages are being brought up to date now (moves
        being shown included): the timers leave such a table to that refresh."""
        return table_id in self.editing

    def channel(self, live: LiveTable) -> discord.PartialMessageable:
        """Where the table plays (a channel or a thread)."""
        return self.client.get_partial_messageable(live.row.channel_id,
                                                   guild_id=live.row.guild_id)

    def table_embed(self, live: LiveTable, deadline: datetime.datetime | None = None,
                    ) -> discord.Embed:
        """The table message's embed now: the turn deadline (``deadline``; by default
        ``turn_deadline``'s now) as a relative timestamp, and the table picture as its image."""
        turn = turn_deadline(self.countdowns, live) if deadline is None else deadline
        return media.attach(render.table_embed(live, deadline=turn), media.TABLE_FILE)

    @in_server_language
    async def post_deal(self, live: LiveTable, *, paced: bool = True,
                        settled: int | None = None, moments: Moments = UNTIMED) -> None:
        """Post the new deal's table message, then anything the AI already did
        (``paced``: one move at a time, as ``refresh``); the previous showdown
        loses its Next deal button (unless it is ``settled``: the press of Next
        deal on it took it off already, in its own answer), and so does the old table
        message unless it was sent with none (``OlderMessages.bare``). ``moments``
        is told what is shown, first the new deal just before its table message."""
        previous = live.showdown_messages.get(live.deal_number - 1)
        old_table = live.row.table_message_id
        for message_id in (previous, old_table):
            if message_id is not None and message_id in (settled, self.older.bare.get(live.id)):
                self.older.embeds(live.id, message_id, drop=True)
                continue
            if message_id is not None:  # no button or countdown left on the deal before
                keep = proof_view(live.id, live.deal_number - 1) if message_id == previous else None
                await self.older.settle(live.id, message_id, functools.partial(
                    settle_old, self.channel(live), message_id,
                    self.older.embeds(live.id, message_id, drop=True), keep))
        await self.panels.refresh(live)  # the panels of the deal before are forgotten
        await moments.showing(live)  # first: the table message shows its deadline
        first = self.showing.first(live) if paced else live
        if first is not live:  # as dealt: the AI moves follow one at a time
            await self.post_table_message(first, frame=True)
            await self.refresh(live, moments=moments)
            return
        await self.post_table_message(live)
        await self.refresh(live, paced=False, moments=moments)  # an offer, a showdown, the end

    @staticmethod
    def head(live: LiveTable, frame: bool = False) -> tuple[str, discord.ui.View | None]:
        """The table message's text line and controls (``render.ping_text``,
        ``components.table_controls``): the ping and the moves now, or for a step
        being shown (``frame``) no ping and My hand only."""
        return ("" if frame else render.ping_text(live)), table_controls(live, frame)

    @in_server_language
    async def answer_on_table(self, interaction: discord.Interaction, live: LiveTable, *,
                              frame: bool = False) -> None:
        """Answer a press on the table message by editing that message to ``live``
        (``frame``: a step being shown, as ``head``): the interaction's own answer,
        which costs nothing of Discord's global limit, instead of an edit by the
        bot's token afterwards. Nothing is done when the press was on another
        message, or was answered already; a refused answer is left to ``refresh``.
        """
        message_id = live.row.table_message_id
        if (interaction.response.is_done() or interaction.message is None
                or interaction.message.id != message_id or message_id is None):
            return
        (content, view), (deadline, now) = self.head(live, frame), moment(self.countdowns, live, frame)
        embed, png = self.table_embed(live, deadline), media.table_png(live)
        try:
            await interaction.response.edit_message(
                content=content, embed=embed, view=view,
                attachments=[media.picture_file(png)],
                allowed_mentions=ping(None if frame else render.ping_target(live)))
        except discord.HTTPException:
            return
        self.shown[live.id] = (message_id, shows(content, embed, png, view), now)
        self.older.remember(live.id, message_id, [embed], bare=view is None)
        self.showing.mark(live)

    @in_server_language
    async def post_table_message(self, live: LiveTable, *, frame: bool = False) -> None:
        """Post the deal's table message and remember it (failures are logged: the
        state is committed, and the watch posts a message that could not be);
        ``frame``: as ``head``."""
        (content, view), (deadline, now) = self.head(live, frame), moment(self.countdowns, live, frame)
        embed, png = self.table_embed(live, deadline), media.table_png(live)
        try:
            msg = await retrying(lambda: self.channel(live).send(
                content=content, embed=embed, file=media.picture_file(png),
                view=sent_view(view), allowed_mentions=ping(None if frame else
                                                            render.ping_target(live))),
                self.metrics)
        except discord.HTTPException:
            log.exception("table %s: could not post the table message", live.id)
            return
        shown = self.shown[live.id] = (msg.id, shows(content, embed, png, view), now)
        self.older.remember(live.id, msg.id, [embed], bare=view is None)
        self.showing.mark(live)
        await table_posted(self.service, self.shown, live, shown)

    @in_server_language
    async def refresh(self, live: LiveTable, interaction: discord.Interaction | None = None,
                      *, paced: bool = True, moments: Moments = UNTIMED) -> None:
        """Bring the table's public messages up to date after any change: a lobby's
        message, a deal's table message (``paced``: the moves it has not shown yet
        one at a time first, see ``pace``), offers and showdowns, and, once the
        table has ended (its game over or closed in any way), its end
        (``Ending.show``). Edits are coalesced: while one refresh of the table is in
        flight, later changes are folded into one more. Discord 429/5xx answers are
        retried; the game state is already committed, so a failed edit never loses
        an action, and a table whose messages are behind is marked ``behind`` for
        the watch to bring up to date. ``moments`` is told what is shown
        (``Moments``): moves about to be shown one at a time, each latest state
        just before the table message shows it, a showdown posted, an end, and
        the state once the refresh is over."""
        if live.id in self.editing:
            self.dirty.add(live.id)
            if live.row.status == "closed":
                self.showing.wake(live.id)  # a closed table's moves are not shown on
            return
        self.editing.add(live.id)
        try:
            await self.service.settled(live.id)
            if paced and self.showing.pace > 0 and live.id in self.service.tables:
                # the turn timer of the moment just passed must not run on (nor remind)
                # while the moves after it are shown; the new moment's starts when the
                # table message shows it (``_refresh_once``)
                await moments.presenting(live.id)
            while True:
                self.dirty.discard(live.id)
                if paced and not await self.showing.present(live, self.show_step):
                    current = self.service.current(live.id)
                    if current is None:
                        break  # its end was shown meanwhile
                    live = current  # closed or rebuilt meanwhile: show it as it is
                await self._refresh_once(live, interaction, moments)
                if self.service.current(live.id) is live:  # not when its end was just shown
                    self.showing.mark(live)
                if live.id not in self.dirty:
                    break
        finally:
            self.editing.discard(live.id)
        if live.id in self.service.tables:
            await moments.showing(live)

    async def _refresh_once(self, live: LiveTable, interaction: discord.Interaction | None,
                            moments: Moments) -> None:
        if live.id in self.older.owed:
            await self.older.settle(live.id)
        if live.row.status not in OPEN_STATUSES:
            await moments.ended(live.id)  # no timer of an ended table runs on, nor reminds
            await self.ending.show(live)
            return
        if live.deal is None:
            await self.refresh_lobby(live)
            return
        try:
            if live.deal.finished:  # the showdown first: the table message then shows when
                await self.after_deal_change(live, moments)  # the next deal comes
                await self.edit_table_message(live)
            else:
                await moments.showing(live)  # the deadline the message shows
                if live.row.table_message_id is not None:
                    await self.edit_table_message(live)
                else:
                    await self.post_table_message(live)
                await self.after_deal_change(live, moments)
            if live.id not in self.older.owed:
                self.behind.discard(live.id)
        except discord.Forbidden:
            log.warning("table %s: missing permission to post in channel %s",
                        live.id, live.row.channel_id)
            if interaction is not None:
                with contextlib.suppress(discord.HTTPException):
                    await reply(interaction, _("Your move is saved, but I cannot update the table: "
                                               "I am missing **Send Messages** or **Embed Links** "
                                               "in this channel."))
        except discord.HTTPException:
            log.warning("table %s: could not update the table message; the watch tries again",
                        live.id, exc_info=True)
            self.behind.add(live.id)
        except Exception:  # the move is committed: the watch tries again later
            log.exception("table %s: could not bring the table up to date", live.id)
            self.behind.add(live.id)
        try:  # the panels catch up whether or not the public messages could
            await self.panels.refresh(live)
        except Exception:
            log.exception("table %s: could not bring the panels up to date", live.id)

    @in_server_language
    async def show_step(self, live: LiveTable) -> None:
        """Edit the table message to a step being shown (``Showing.present``)."""
        await self.edit_table_message(live, frame=True)

    @in_server_language
    async def edit_table_message(self, live: LiveTable, *, frame: bool = False) -> None:
        """Edit the table message to the table's state now (its picture too). An
        edit that would change nothing the message shows is not made, and the
        picture is uploaded again only when it changed. ``frame``: ``live`` is a
        step being shown (``Showing.present``): nobody is pinged, the only buttons are My
        hand (and I'm back), and a failed edit is not retried (the next step or
        the latest state follows)."""
        message_id = live.row.table_message_id
        if message_id is None:
            return
        deadline, now = moment(self.countdowns, live, frame)
        last = self.shown.get(live.id)
        if last is not None and last[0] == message_id and same_moment(last[2], now):
            return  # drawn from the same: it shows this already
        message = self.channel(live).get_partial_message(message_id)
        (content, view), embed = self.head(live, frame), self.table_embed(live, deadline)
        png = media.table_png(live)
        state = shows(content, embed, png, view)
        if last is not None and last[:2] == (message_id, state):
            self.shown[live.id] = (message_id, state, now)
            return
        changes: dict[str, Any] = {"content": content, "embed": embed, "view": view,
                                   "allowed_mentions": ping(None if frame else
                                                            render.ping_target(live))}
        same_picture = last is not None and last[0] == message_id and last[1][1] == state[1]

        def call() -> Awaitable[Any]:
            return message.edit(**changes) if same_picture else message.edit(
                **changes, attachments=[media.picture_file(png)])
        await (call() if frame else retrying(call, self.metrics))
        self.shown[live.id] = (message_id, state, now)
        self.older.remember(live.id, message_id, [embed], bare=view is None)

    @in_server_language
    async def after_deal_change(self, live: LiveTable, moments: Moments = UNTIMED) -> None:
        """Post a barter offer to a human target, or the showdown of a finished deal (Proof
        first: the one button kept, so a double click on Next deal lands on no other);
        ``moments`` is told of a showdown of a game not over, posted now or before."""
        deal = live.deal
        assert deal is not None and live.game is not None
        channel = self.channel(live)
        if deal.finished:
            if deal.showdown is None or live.deal_number in live.announced:
                if not live.game.complete:
                    moments.announced(live, None)
                return
            complete = live.game.complete
            items: list[discord.ui.DynamicItem[Any]] = []
            if not complete:
                items.append(NextDealButton(live.id, live.deal_number))
                items += [CutButton(live.id)] if live.game.shuffler is not None else []
                if any(s.away for s in live.seats):
                    items.append(PlayButton(live.id, live.deal_number, "back"))
            items[:0] = [ProofButton(live.id, live.deal_number)] if live.game.shuffler is not None else []
            view = sent_view(dynamic_view(*(item.item for item in items)) if items else None)
            delay = live.row.next_deal_delay
            at = (discord.utils.utcnow() + datetime.timedelta(seconds=delay)
                  if delay > 0 and not complete else None)
            embed = media.attach(render.showdown_embed(live, next_deal=at), media.SHOWDOWN_FILE)
            msg = await retrying(lambda: channel.send(
                embed=embed, file=media.showdown_file(live), view=view), self.metrics)
            self.older.remember(live.id, msg.id, [embed])
            await self.service.posted(live, PostedMessage("showdown", msg.id))
            if not complete:
                moments.announced(live, at)
            return
        pending = deal.pending
        if pending is not None:
            target = deal.to_act
            assert target is not None and pending is not None
            seq = len(deal.operations)
            key = (live.id, live.deal_number, seq)
            if not live.is_ai(target) and key not in self.offers:
                member = live.member_of(target)
                self.offers[key] = None  # posted at most once, even if the send fails
                try:
                    msg = await channel.send(
                        render.offer_ping(live), allowed_mentions=ping(member),
                        view=answers_view(live.id, live.deal_number, seq,
                                          deal.controls().answers))
                except discord.HTTPException as exc:
                    if retryable(exc):  # not posted: the watch posts it later
                        self.offers.pop(key, None)
                    raise
                self.offers[key] = msg.id
                await self.service.posted(
                    live, PostedMessage("offer", msg.id, f"{key[1]}:{key[2]}"))

    @in_server_language
    async def close_offer(self, live: LiveTable, deal: int, seq: int, text: str) -> None:
        """Replace a barter offer's buttons with its outcome (unless its press did)."""
        msg_id = self.offers.pop((live.id, deal, seq), None)
        if msg_id is None and live.row.offer_key == f"{deal}:{seq}":
            msg_id = live.row.offer_message_id
        if live.row.offer_key is not None and live.id in self.service.tables:
            with contextlib.suppress(Exception):
                await self.service.posted(live, PostedMessage("offer", None))
        if msg_id is not None and not self.older.answered(live.id, msg_id):
            message = self.channel(live).get_partial_message(msg_id)
            await self.older.settle(live.id, msg_id, functools.partial(
                message.edit, content=text, view=None, allowed_mentions=NO_PINGS))

    @in_server_language
    async def refresh_lobby(self, live: LiveTable, note: str | None = None, *,
                            strict: bool = False) -> None:
        """Edit the lobby message after a change (``note``: text above it). A
        failed edit marks the table ``behind`` (the watch edits it again), or with
        ``strict`` is raised."""
        if live.row.lobby_message_id is None:
            return
        view = lobby_view(live.id) if live.row.status == "lobby" else None
        content = note if note is not None else discord.utils.MISSING  # MISSING: keep the text
        message = self.channel(live).get_partial_message(live.row.lobby_message_id)
        try:
            await retrying(lambda: message.edit(content=content, embed=render.lobby_embed(live),
                                                view=view), self.metrics)
        except discord.HTTPException as exc:
            if strict:
                raise
            if exc.status == 429 or exc.status >= 500:
                self.behind.add(live.id)
            return
        if live.deal is None and live.id not in self.older.owed:
            self.behind.discard(live.id)

