"""The one step after every change of a table: an ``Outcome`` of the table
service (``bot.service.outcome``) becomes messages, panels and timers, the
same whoever caused it (a slash command, a button, a timer, the watch, Discord
telling of a member or a channel gone).

Callers answer the member first, their own way (an ephemeral line, a panel);
then they hand the outcome to ``AfterChange.show``, which decides what the table
shows: the lobby message (edited in the press's own answer when the press was
on it), a new deal's table message (the showdown pressed losing its Next deal
in that answer), an answered offer closed, a turn that ran out said, a changed
delay applied, and the table brought up to date (``Publisher.refresh``: the
table message, offers, showdowns, panels; a table that ended shows its end,
``bot.publishing.ending``).

It also decides the timers (``bot.timers.clock.Timers``): a new deal stops the
next-deal timer, a changed delay moves it, a channel gone stops them all, and
what the publisher shows while it brings the table up to date (``Moments``:
moves shown one at a time, a state shown with its turn deadline, a showdown
announcing the next deal, an end) arms or stops them through ``Arming``. The
wiring goes one way: this step knows the publisher and the timers, the timers
know the publisher and show what they change through this step's ``show`` and
``catch_up`` (plain callbacks, ``Timers.show``), and the publisher knows neither.

One ``AfterChange`` per bot (``CommerceBot.after``), shared by the handlers,
the cogs and the timers.
"""

from __future__ import annotations

import contextlib
import datetime

import discord

from ..i18n import N_, _
from ..publishing.publisher import Publisher
from ..runtime.language import in_server_language
from ..runtime.sending import NO_PINGS, edit
from ..service import LiveTable, Outcome
from ..timers.clock import Timers
from ..ui import render
from ..ui.components import lobby_view, proof_view

#: the operations of an exchange whose public line hides what the player got
CONCEALED = frozenset({"trade", "barter_offer", "barter_answer"})
#: the lobby's line once its last member left it
LAST_LEFT = N_("The last player left: this table is closed.")
#: an answered offer's line when the AI answered for a member whose time ran out
TIMED_OUT = N_("Answered by the AI: time ran out.")


def idle_note(seconds: int) -> str:
    """The lobby's line once it stood ``seconds`` without a join or leave."""
    return _("Nobody joined or left for {minutes} minutes: this lobby is closed.").format(
        minutes=seconds // 60)


def offer_closed_text(outcome: Outcome) -> str | None:
    """What an offer the change answered says instead of its buttons (``None``:
    it answered none): accepted, refused by knocking (a barter), declined (a
    direct trade), or answered by the AI once time ran out. Names are plain
    (no ping) but for the one who accepted, as before."""
    answered, live = outcome.answered, outcome.live
    if answered is None:
        return None
    if outcome.timed_out is not None:
        return _(TIMED_OUT)
    decision = outcome.decision
    if decision is None or decision.kind not in ("accept", "refuse"):
        return None
    if decision.kind == "accept":
        own = outcome.own
        barter = own is not None and own.kind in CONCEALED
        return (_("{name} accepted the barter.") if barter else _("{name} accepted the trade.")
                ).format(name=render.seat_name(live, answered.seat))
    who = render.seat_name(live, answered.seat, mention=False)
    return (_("{who} refused the barter by knocking.") if "refuse" in answered.answers
            else _("{who} declined the trade.")).format(who=who)


def pressed_on(interaction: discord.Interaction | None, message_id: int | None) -> bool:
    """Whether ``interaction`` is a press of a control on message ``message_id``."""
    return (interaction is not None and message_id is not None
            and interaction.type is discord.InteractionType.component
            and interaction.message is not None and interaction.message.id == message_id)


class Arming:
    """The timers armed from what the publisher shows (``Moments``, given to each
    ``Publisher.refresh``): the turn timer of the member to act starts when the
    table message shows their moment (its deadline shown with it), stops while
    the moves after it are shown one at a time; a posted showdown schedules the
    next deal at the time it shows; an ended table's timers stop.

    Args:
        timers: the bot's timers.
    """

    def __init__(self, timers: Timers) -> None:
        """Arming ``timers``."""
        self.timers = timers

    async def showing(self, live: LiveTable) -> None:
        """(Re)start the turn timer of the member to act (one already running for
        this very moment keeps its deadline; ``Timers.arm_turn_timer``)."""
        await self.timers.arm_turn_timer(live)

    async def presenting(self, table_id: int) -> None:
        """Stop the turn timer of the moment just passed, and its reminder."""
        await self.timers.stop_turn_timer(table_id)

    def announced(self, live: LiveTable, at: datetime.datetime | None) -> None:
        """Deal the next hand at ``at``, the time the showdown shows; without one,
        after the table's delay unless a next deal is waiting already."""
        if at is not None:
            self.timers.schedule_next(live, at)
        elif not self.timers.waiting(live.id):
            self.timers.schedule_next(live)

    async def ended(self, table_id: int) -> None:
        """Stop every timer of an ended table, and take its reminder away (first:
        ``Timers.forget`` drops the reminder from what it knows without deleting it)."""
        await self.timers.stop_turn_timer(table_id)
        self.timers.forget(table_id)


class AfterChange:
    """Turns each ``Outcome`` into what the table shows, and the timers it arms.

    Args:
        publisher: the bot's publisher (its messages and panels).
        timers: the bot's timers (armed from what the publisher shows, ``Arming``).
    """

    def __init__(self, publisher: Publisher, timers: Timers) -> None:
        """The step after every change, posting through ``publisher`` and arming
        ``timers``."""
        self.publisher = publisher
        self.timers = timers
        #: what the publisher is told to show, as it shows it (``Moments``)
        self.arming = Arming(timers)

    @in_server_language
    async def answer_on_offer(self, outcome: Outcome, interaction: discord.Interaction) -> None:
        """A press on a barter offer's message that answered it (Refuse, Decline)
        is answered by replacing the offer's buttons with its outcome
        (``offer_closed_text``): no request of the bot's token, and ``show`` then
        only forgets the offer (``Publisher.close_offer``). Nothing is done when
        the press was on another message or answered already."""
        text, answered, live = offer_closed_text(outcome), outcome.answered, outcome.live
        if text is None or answered is None or interaction.response.is_done():
            return
        message_id = self.publisher.offers.get((live.id, answered.deal, answered.seq))
        if message_id is None and live.row.offer_key == f"{answered.deal}:{answered.seq}":
            message_id = live.row.offer_message_id
        if message_id is None or not pressed_on(interaction, message_id):
            return
        try:
            await interaction.response.edit_message(content=text, view=None,
                                                    allowed_mentions=NO_PINGS)
        except discord.HTTPException:
            return  # left to ``Publisher.close_offer``
        self.publisher.older.answered(live.id, message_id, now=True)

    @in_server_language
    async def show(self, outcome: Outcome, interaction: discord.Interaction | None = None,
                   *, paced: bool = True, idle: int = 0) -> None:
        """Bring the table up to date after ``outcome``.

        Args:
            outcome: what the change did.
            interaction: the press or command that caused it (``None``: a timer,
                the watch, Discord's event); a press on the lobby message or on
                the showdown whose next deal was dealt is answered by editing that
                message (no request of the bot's token), after the member's own
                answer if any.
            paced: AI moves are shown one at a time (``bot.publishing.showing``); the watch
                shows the latest state at once.
            idle: the seconds an idle lobby stood before it closed (its line).

        Failures to show are logged, never raised: the change is committed and
        the watch brings what Discord refused up to date (``Publisher.behind``).
        Discord's refusal of the press's own answer is raised
        (``discord.HTTPException``) once the table is up to date.
        """
        publisher, live = self.publisher, outcome.live
        if outcome.unseen:  # its channel is gone: its panels close, its end counts as shown
            self.timers.forget(live.id)
            await publisher.ending.unseen(live)
            return
        if outcome.delay_changed:
            self.timers.reschedule_next(live)
            return
        if outcome.before.status == "lobby":
            await self._lobby(outcome, interaction, idle)
        if outcome.cut is not None:
            return  # a cut shows in the lobby's list only; a game's next deal proves it
        if outcome.dealt and not outcome.rebuilt:
            settled = None
            shown = live.showdown_messages.get(outcome.before.deal)
            if outcome.before.status != "lobby" and pressed_on(interaction, shown):
                # the showdown loses Next deal (and its countdown) in the press's own
                # answer: no request of the bot's token (docs/SCALING.md, "Discord's limit")
                assert interaction is not None
                await edit(interaction, embeds=publisher.older.settled_embeds(
                    interaction.message), view=proof_view(live.id, outcome.before.deal)
                    if live.game is not None and live.game.shuffler is not None else None)
                settled = shown
            self.timers.cancel_timer(live.id)  # the next deal is here
            await publisher.post_deal(live, paced=paced, settled=settled, moments=self.arming)
            return
        if outcome.rebuilt and live.deal is not None:
            self.timers.cancel_timer(live.id)
            await publisher.post_deal(live, paced=False, moments=self.arming)
            return
        text = offer_closed_text(outcome)
        if text is not None and outcome.answered is not None:
            await publisher.close_offer(live, outcome.answered.deal, outcome.answered.seq, text)
        if outcome.timed_out is not None:
            await self._timed_out(outcome)
        if outcome.before.status == "lobby" and not outcome.ended:
            return  # the lobby message was all it shows
        await publisher.refresh(live, interaction, paced=paced, moments=self.arming)

    async def _lobby(self, outcome: Outcome, interaction: discord.Interaction | None,
                     idle: int) -> None:
        """The lobby message after a change: edited in the press's own answer
        when the press was on it, else by the bot (an ended lobby's is left to
        its end, ``Ending.show``, unless it has a line to say)."""
        live = outcome.live
        note = (_(LAST_LEFT) if outcome.emptied == "left"
                else idle_note(idle) if outcome.emptied == "idle" else None)
        view = lobby_view(live.id) if live.row.status == "lobby" else None
        if pressed_on(interaction, live.row.lobby_message_id):
            assert interaction is not None
            await edit(interaction, embed=render.lobby_embed(live), view=view,
                       **({"content": note} if note is not None else {}))
        elif not outcome.ended or outcome.emptied == "idle":
            await self.publisher.refresh_lobby(live, note)

    async def _timed_out(self, outcome: Outcome) -> None:
        """Say in the channel that the AI played for a member whose time ran out
        (nobody pinged; failures ignored: the table message shows the move)."""
        live, seat = outcome.live, outcome.timed_out
        assert seat is not None
        played = render.moves_made(live, outcome.before.deal, outcome.before.operations, seat)
        note = (" " + _("They are marked away: the AI plays for them until they press I'm back.")
                if live.seats[seat].away else "")
        with contextlib.suppress(discord.HTTPException):
            await self.publisher.channel(live).send(
                "⌛ " + _("{name} ran out of time, so the AI {played} for them.").format(
                    name=render.seat_name(live, seat, mention=False), played=played or _("played"))
                + note, allowed_mentions=NO_PINGS)

    async def catch_up(self, live: LiveTable) -> None:
        """Bring the table's public messages up to what is committed, at once (no
        pace): the watch's step for a table that owes one without any change (its
        end not shown yet, an update Discord refused, a showdown or table message a
        failure lost, a next deal whose countdown is not running). Failures are
        logged, never raised (``Publisher.refresh``)."""
        await self.publisher.refresh(live, paced=False, moments=self.arming)

    def restore(self) -> None:
        """After a start: every table's messages brought up to date, its timers
        armed as they show (``Publisher.restore``)."""
        self.publisher.restore(self.arming)

    async def show_all(self, outcomes: list[Outcome],
                       interaction: discord.Interaction | None = None) -> None:
        """``show`` each of ``outcomes`` (a member gone: a table each)."""
        for outcome in outcomes:
            await self.show(outcome, interaction)
