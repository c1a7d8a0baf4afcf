"""The controls' handlers: what a press of a lobby, table, offer, showdown,
leaderboard or reset button, or a choice in a card select, does.

Every handler follows one path: service call (lock, engine, commit) returning
an ``Outcome`` → answer the member → the one step after every change
(``bot.changes.after.AfterChange.show``). Errors are answered by
``bot.interactions.guard.guarded`` (``error_reply``'s words), never a traceback.

One ``Handlers`` per bot (``CommerceBot.handlers``): the controls of
``bot.ui.components`` reach it through ``interaction.client.handlers``, typed
as ``components.ControlHandlers``, and never through a cog.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import discord

from .. import i18n
from ..changes.after import AfterChange
from ..engine import Decision, choices
from ..engine.actions import BUTTONS, MOVES, Action
from ..publishing.publisher import Publisher, predraw
from ..runtime.sending import edit, reply
from ..service import (
    LiveTable,
    NotSeated,
    Outcome,
    OutOfDate,
    ServiceError,
    StorageFailure,
    TableGone,
    TableService,
    UserError,
)
from ..service.refusals import refusal
from ..timers.clock import Timers, still_member
from ..ui import confirm, hints, panel, proofs, render
from ..ui.components import BoardFilter, CardSelect, cut_form, dynamic_view
from .departures import Departures
from .guard import guarded
from .history import HistoryHandlers
from .ledger import LedgerHandlers
from .review import ReviewHandlers

log = logging.getLogger(__name__)

#: moves without a card: a table-message button makes them at once (Draw asks next)
SIMPLE_MOVES = (MOVES & BUTTONS) - {Action.DRAW}

def seat_names(live: LiveTable) -> Callable[[int], str]:
    """A seat as menu labels name it (a plain label, never a mention)."""
    return lambda seat: render.seat_label(live, seat)


def decide(action: str, value: str | None = None) -> Decision:
    """The decision a control makes (``choices.decide``).

    Raises:
        UserError: a value no menu of ours produces ("That choice is not valid.").
    """
    try:
        return choices.decide(action, value)
    except choices.ChoiceError as exc:
        raise UserError(refusal(exc)) from None


def said_on_panel(exc: ServiceError, *, earlier: bool = False) -> bool:
    """Whether the error of a move or hint from a player's panel is said on the
    panel, shown as things stand now; not when there is nothing to show: the
    table is gone (or set aside to be rebuilt after a storage problem), the
    member is not seated, or (unless ``earlier``: the panel then shows the deal
    now) the panel is of an earlier deal. Those get a short answer."""
    if isinstance(exc, StorageFailure):
        return exc.rebuilt
    if isinstance(exc, OutOfDate):
        return earlier or not exc.earlier_deal
    return not isinstance(exc, TableGone | NotSeated)


#: what Proof on a showdown answers once its table is closed
GAME_PROOF = i18n.N_("This game is over: its final standings show the seed and the record's "
                     "head, `/commerce history` shows each deal's proof, and `/commerce export` "
                     "gives the record to check.")


def cut_answer(number: int, text: str) -> str:
    """What a member who cut is told (only they see it)."""
    return "✂️ " + i18n._("Your cut for deal {number}: `{text}`. It is written in the table's log "
                     "before the deal is dealt; the deal's table message and showdown list who cut "
                     "it, and the game's record keeps your word: check that they do.").format(
                         number=number, text=text)


def drawing(publisher: Publisher, member_id: int, deal: int,
            drawn: list[tuple[LiveTable, str, panel.Panel | None]], *,
            controls: bool = True, on_table: bool = False,
            ) -> Callable[[Outcome], None]:
    """What ``TableService.act`` calls while the move commits: what the member's
    answer shows, drawn meanwhile and put in ``drawn`` for after the commit:
    what the member's panel shows (``answer_of``) and either that panel
    (``controls``: with its buttons), or, with ``on_table`` (a press answered
    on the table message), the table picture of the same moment
    (``publisher.predraw``), which the table message's answer then finds drawn.
    Nothing shown only after the answer is drawn here (the panel of a press on
    the table message, ``None``: built when sent; the table picture after a
    panel's move): a commit that ends meanwhile would wait for it, and so
    would the member (docs/BENCHMARKS.md, "the member's wait, nothing drawn
    before the answer that it does not show")."""
    def prepare(outcome: Outcome) -> None:
        shown, note = answer_of(publisher, outcome, deal)
        seat = outcome.live.seat_of(member_id)
        assert seat is not None
        if on_table:
            predraw(publisher.client, shown)
            drawn.append((shown, note, None))
        else:
            drawn.append((shown, note, panel.build(shown, seat, note=note, controls=controls)))
    return prepare


def answer_of(publisher: Publisher, outcome: Outcome, deal: int) -> tuple[LiveTable, str]:
    """What the panel that made a move shows after it: the table as the member
    sees it then (``Showing.after``) and the line saying what the move did
    (``confirm.confirmation``)."""
    live, op, before = outcome.live, outcome.own, outcome.seen_before
    assert op is not None and before is not None
    return publisher.showing.after(live, op), confirm.confirmation(live, deal, before, op)


class Handlers(HistoryHandlers, ReviewHandlers):
    """The handler of every control (``bot.ui.components.ControlHandlers``).

    Args:
        service: the table service.
        publisher: the public messages of every table.
        timers: the bot's timers (their client asks whether a member is still in the guild).
        after: the one step after every change, which shows what every change did.
    """

    def __init__(self, service: TableService, publisher: Publisher, timers: Timers,
                 after: AfterChange) -> None:
        """Handlers acting through ``service``; what changed is shown by ``after``."""
        self.service = service
        self.publisher = publisher
        self.after = after
        self.timers = timers
        self.panels = publisher.panels
        self.ledger = LedgerHandlers(service)
        self.departures = Departures(service, after, timers)

    # ------------------------------------------------------------ lobby
    async def on_lobby(self, interaction: discord.Interaction, table_id: int, action: str) -> None:
        """Join / Leave / Add AI / Start pressed on a lobby message: the lobby
        message is edited in the press's own answer (``AfterChange.show``)."""
        async def work() -> None:
            user = interaction.user
            if action == "join":
                outcome = await self.service.join(table_id, user.id, user.display_name)
            elif action == "ai":
                outcome = await self.service.add_ai(table_id, user.id)
            elif action == "leave":
                outcome = await self.service.leave(table_id, user.id)
            else:
                outcome = await self.start(interaction, table_id)
            await self.after.show(outcome, interaction)
        await guarded(interaction, table_id, work)

    async def start(self, interaction: discord.Interaction, table_id: int) -> Outcome:
        """Start the game for the member who asked (Start, ``/commerce start``):
        a host gone from the server first hands the lobby on
        (``replace_gone_host``), and the fair-shuffle message must be posted
        (``committed``). Returns what changed, for ``AfterChange.show``.

        Raises:
            UserError: as ``TableService.start``, or the fair-shuffle message
                cannot be posted now.
            StorageFailure: nothing changed.
        """
        await self.replace_gone_host(self.service.get(table_id), interaction.user.id)
        await self.committed(table_id)
        return await self.service.start(table_id, interaction.user.id)

    async def committed(self, table_id: int) -> LiveTable:
        """The lobby's fair-shuffle message is posted (``Commitments.post``):
        nothing is dealt, and nobody cuts, before it is.

        Raises:
            UserError: Discord refused it for now (try again in a moment).
        """
        try:
            return await self.publisher.commitments.post(self.service.get(table_id))
        except discord.HTTPException:
            log.warning("table %s: could not post the fair-shuffle message", table_id,
                        exc_info=True)
            raise UserError(i18n._("I could not post the fair-shuffle message in this channel, and "
                              "nothing is dealt before it is: try again in a moment (I need "
                              "**Send Messages** here).")) from None

    async def on_cut_button(self, interaction: discord.Interaction, table_id: int) -> None:
        """Cut pressed on the lobby or a showdown: a seated member gets the form to
        type their cut of the next deal."""
        async def work() -> None:
            live = await self.committed(table_id)
            if live.seat_of(interaction.user.id) is None:
                raise UserError(i18n._("Only players seated at this table can cut."))
            if interaction.response.is_done():  # acknowledged while waiting: no form now
                raise UserError(i18n._("Cut with `/commerce cut text:` and your word or number "
                                  "(the form could not open just now)."))
            await interaction.response.send_modal(cut_form(table_id, live.next_number))
        await guarded(interaction, table_id, work)

    async def on_proof(self, interaction: discord.Interaction, table_id: int, deal: int) -> None:
        """Proof pressed on a showdown: the deal's fair-shuffle proof, privately
        (``proofs.deal_proof``), from the open table or, once the game is over,
        from its stored record (``archive.archived``); when neither can be read,
        where the game's whole proof is (its final standings, ``/commerce
        history``, ``/commerce export``)."""
        async def work() -> None:
            try:
                live = self.service.get(table_id)
            except TableGone:  # a game that is over: its proof from its stored record
                try:
                    guild = interaction.guild_id or 0
                    live = (await self.service.archive.archived(guild, table_id)).live
                except UserError:
                    await reply(interaction, i18n._(GAME_PROOF))
                    return
            text = proofs.deal_proof(live, deal)
            await reply(interaction, text if text is not None else i18n._(
                "This deal was not dealt from the game's committed seed: nothing proves its "
                "shuffle."), suppress_embeds=True)
        await guarded(interaction, None, work)

    async def on_cut(self, interaction: discord.Interaction, table_id: int, text: str) -> None:
        """A member's cut from the Cut form (or ``/commerce cut``): stored for the
        next deal, confirmed to them alone, then the step after every change
        (``bot.after``: the lobby lists it)."""
        async def work() -> None:
            await self.committed(table_id)
            outcome = await self.service.cut(table_id, interaction.user.id, text)
            assert outcome.cut is not None
            await reply(interaction, cut_answer(*outcome.cut))
            await self.after.show(outcome, interaction)
        await guarded(interaction, table_id, work)

    async def replace_gone_host(self, live: LiveTable, member_id: int) -> bool:
        """When someone else than the host acts as host (Start, end) and the host
        has left the server, the host's seat is given up: a lobby passes to the
        next seated member. Returns whether the host was gone."""
        host = live.row.host_id
        if member_id == host or await still_member(self.timers.client, live.row.guild_id, host):
            return False
        await self.after.show_all(await self.service.member_gone(live.row.guild_id, host))
        return True

    # ------------------------------------------------------------- play
    async def on_play(self, interaction: discord.Interaction, table_id: int, deal: int,
                      action: str) -> None:
        """A table-message button: My hand, I'm back, a move without a card (knock,
        stand, pass, the widow choice, pounce, the horse), Draw, or a move that asks
        for cards (trade, barter, swap, take discard, offer). Each answers with the
        player's private panel (``bot.publishing.panels``): the menu of the move asked for on
        top, or what a move did above the hand. A move made at once is answered by
        the table message showing it (``Publisher.answer_on_table``), and what it did
        goes on the member's open panel of this deal, edited in place (a new panel
        when there is none: ``Panels.send``'s ``in_place``)."""
        async def work() -> None:
            user = interaction.user
            if action == "hand":
                await self.show_hand(interaction, table_id)
                return
            if action == "back":
                outcome = await self.service.back(table_id, user.id)
                await reply(interaction, i18n._("Welcome back: your seat is yours again."))
                await self.after.show(outcome, interaction)
                return
            if action in SIMPLE_MOVES:
                drawn: list[tuple[LiveTable, str, panel.Panel | None]] = []
                here = interaction.channel_id == self.service.get(table_id).row.channel_id
                outcome = await self.service.act(
                    table_id, user.id, deal, decide(action),
                    prepare=drawing(self.publisher, user.id, deal, drawn, controls=here, on_table=True))
                shown, note, rendered = (drawn[0] if drawn
                                         else (*answer_of(self.publisher, outcome, deal), None))
                try:  # the table message shows the move in the press's own answer
                    await self.publisher.answer_on_table(interaction, shown,
                                                         frame=shown is not outcome.live)
                    await self.panels.send(interaction, shown, in_place=True, note=note,
                                           rendered=rendered)
                finally:  # the table hears of the committed move even if the answer fails
                    await self.after.show(outcome, interaction)
                return
            if action == "draw":
                await self.on_draw(interaction, table_id, deal)
                return
            live = self.service.verify(table_id, user.id, deal, action)
            await self.panels.send(interaction, self.publisher.showing.as_shown(live), focus=action)
        before = self.departures.moment(table_id)
        await guarded(interaction, table_id, work)
        await self.departures.to_act_gone(interaction.user.id, table_id, before)

    async def on_draw(self, interaction: discord.Interaction, table_id: int, deal: int) -> None:
        """Draw the stock top (jaques) and ask what to do with it; pressing Draw
        again while holding it just asks again."""
        user = interaction.user
        live, obs = self.service.observation(table_id, user.id)
        note = ""
        if obs.drawn is None:
            outcome = await self.service.act(table_id, user.id, deal, decide("draw"))
            await self.after.show(outcome)
            assert outcome.own is not None and outcome.seen_before is not None
            live, note = outcome.live, confirm.confirmation(live, deal, outcome.seen_before,
                                                            outcome.own)
        await self.panels.send(interaction, live, focus="draw_keep", note=note)

    async def show_hand(self, interaction: discord.Interaction, table_id: int) -> None:
        """Answer with the member's private panel: the hand picture, the hand as
        text, and a button for each decision they can make now (``bot.publishing.panels``);
        the panel it replaces is deleted."""
        live, _ = self.service.observation(table_id, interaction.user.id)
        await self.panels.send(interaction, self.publisher.showing.as_shown(live))

    async def on_answer(self, interaction: discord.Interaction, table_id: int, deal: int,
                        seq: int, action: str) -> None:
        """Accept / Refuse (knock) pressed on a barter offer, Accept / Decline on a
        direct trade: Accept opens the panel with the cards to give back; Refuse
        and Decline are answered by the offer's message showing its outcome, and
        what they did goes on the member's open panel of this deal, edited in
        place (a new panel when there is none: ``Panels.send``'s ``in_place``)."""
        async def work() -> None:
            user = interaction.user
            if action in ("refuse", "decline"):
                drawn: list[tuple[LiveTable, str, panel.Panel | None]] = []
                here = interaction.channel_id == self.service.get(table_id).row.channel_id
                outcome = await self.service.act(
                    table_id, user.id, deal, decide(action), seq=seq,
                    prepare=drawing(self.publisher, user.id, deal, drawn, controls=here))
                shown, note, rendered = (drawn[0] if drawn
                                         else (*answer_of(self.publisher, outcome, deal), None))
                try:  # the offer shows its outcome in the press's own answer
                    await self.after.answer_on_offer(outcome, interaction)
                    await self.panels.send(interaction, shown, in_place=True, note=note,
                                           rendered=rendered)
                finally:  # the offer closes and the table hears of the move
                    await self.after.show(outcome, interaction)
                return
            live = self.service.verify(table_id, user.id, deal, "accept", seq=seq)
            await self.panels.send(interaction, live, focus="accept")
        await guarded(interaction, table_id, work)

    async def on_card(self, interaction: discord.Interaction, table_id: int, deal: int,
                      seq: int, action: str, value: str | None) -> None:
        """An option chosen in a panel's menu: its ``value`` (``choices``) is the
        decision; an offer at a large table asks for the player next."""
        async def work() -> None:
            if value is None:
                raise UserError(i18n._("Choose a card first."))
            decision = decide(action, value)
            if decision.kind == "offer" and decision.target is None:  # now the player
                user = interaction.user
                live = self.service.verify(table_id, user.id, deal, "offer", seq=seq)
                seat = live.seat_of(user.id)
                assert seat is not None and live.deal is not None
                assert decision.card is not None
                options = choices.target_options(live.deal, seat, decision.card,
                                                 seat_names(live))
                await edit(interaction, content=i18n._("Whom do you offer it to?"),
                           view=dynamic_view(CardSelect(table_id, deal, seq, "offer", options)))
                return
            await self.decide_from_panel(interaction, table_id, deal, seq, action, decision)
        await guarded(interaction, table_id, work)

    async def on_pick(self, interaction: discord.Interaction, table_id: int, deal: int,
                      seq: int, action: str, value: str | None) -> None:
        """A panel button: its decision is made at once, and the panel is edited
        in place to show what it did. A button of an earlier deal says that deal
        is over and goes; an outdated one shows the panel as things stand now."""
        async def work() -> None:
            if action == "hint":
                await self.on_hint(interaction, table_id, deal, seq)
                return
            decision = decide(action, value)
            await self.decide_from_panel(interaction, table_id, deal, seq, action, decision)
        await guarded(interaction, table_id, work)

    async def on_hint(self, interaction: discord.Interaction, table_id: int, deal: int,
                      seq: int) -> None:
        """Hint, on a player's panel: the coach thinks (the click is acknowledged
        first), then the panel shows its advice above the hand (docs/AI.md
        "Coach"). A hint for a moment that has passed shows the panel as things
        stand now."""
        if not interaction.response.is_done():
            await interaction.response.defer()
        try:
            live, line = await self.service.hint(table_id, interaction.user.id, deal, seq)
        except (UserError, StorageFailure) as exc:
            if not said_on_panel(exc):
                raise
            current = self.service.get(table_id)
            await self.panels.update(interaction, self.publisher.showing.as_shown(current),
                                     note=exc.text)
            return
        await self.panels.update(interaction, live,
                                 note="💡 " + i18n._("**Coach:** {advice}").format(
                                     advice=hints.hint_text(live, line)))

    async def decide_from_panel(self, interaction: discord.Interaction, table_id: int,
                                deal: int, seq: int, action: str, decision: Decision) -> None:
        """Make ``decision`` (from a panel's button or menu, made at operation
        count ``seq`` of deal ``deal``) and edit the panel in place: what the move
        did above the hand, or why it could not be made (an outdated panel shows
        the state now; one of an earlier deal says it is over)."""
        user = interaction.user
        live, _ = self.service.observation(table_id, user.id)  # UserError: not seated
        assert live.deal is not None
        if live.deal_number != deal:
            await edit(interaction, content=panel.over(deal, live.deal_number),
                       attachments=[], view=None)
            return
        if seq != len(live.deal.operations):
            await self.panels.update(interaction, self.publisher.showing.as_shown(live),
                                     note=i18n._("That button was out of date: "
                                            "here is where things stand now."))
            return
        drawn: list[tuple[LiveTable, str, panel.Panel | None]] = []
        try:
            outcome = await self.service.act(table_id, user.id, deal, decision, seq=seq,
                                             prepare=drawing(self.publisher, user.id, deal, drawn))
        except (UserError, StorageFailure) as exc:  # said on the panel, shown as things stand now
            if not said_on_panel(exc, earlier=True):
                raise  # closed, or being rebuilt after a storage problem: a short answer
            current = self.service.get(table_id)
            await self.panels.update(interaction, self.publisher.showing.as_shown(current),
                                     note=exc.text)
            return
        shown, note, rendered = drawn[0] if drawn else (*answer_of(self.publisher, outcome, deal), None)
        try:
            await self.panels.update(interaction, shown, note=note, rendered=rendered)
        finally:  # an answered offer closes, and the table hears of the move
            await self.after.show(outcome, interaction)

    async def on_next(self, interaction: discord.Interaction, table_id: int, deal: int) -> None:
        """Next deal pressed on a showdown message."""
        async def work() -> None:
            live = self.service.get(table_id)
            if live.seat_of(interaction.user.id) is None:
                raise UserError(i18n._("Only players at this table can deal the next hand."))
            shown = live.deal
            if (live.deal_number == deal and shown is not None and shown.showdown is not None
                    and deal not in live.announced):
                raise UserError(i18n._("This deal's showdown is still on its way: press Next deal "
                                  "on it once it is posted."))
            # the showdown loses Next deal in the press's own answer (``AfterChange``);
            # the new deal's table message follows that answer
            outcome = await self.service.next_deal(table_id, after=deal)
            await self.after.show(outcome, interaction)
        await guarded(interaction, table_id, work)

    # ------------------------------------------------- ledger and admin
    async def on_page(self, interaction: discord.Interaction, guild_id: int, page: int,
                      board: BoardFilter | None = None) -> None:
        """Previous / Next under a leaderboard (``LedgerHandlers.on_page``)."""
        await self.ledger.on_page(interaction, guild_id, page, board)

    async def on_confirm(self, interaction: discord.Interaction, question: str, expires: int,
                         confirmed: bool) -> None:
        """Confirm or Cancel under a manager's question (``LedgerHandlers.on_confirm``)."""
        await self.ledger.on_confirm(interaction, question, expires, confirmed)
