"""Play: lobby buttons, table buttons, card selects, barter answers, showdowns.

Every handler follows one path: service call (lock, engine, commit) → answer
the interaction → refresh the public messages. ``UserError`` becomes a short
ephemeral answer; anything else is logged with the table id and answered
with an apology, never a traceback.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord.ext import commands, tasks

from bot import waiting
from bot.app import CommerceBot
from bot.engine import Decision, Observation, card_label, choices, hand_label
from bot.service import LiveTable, StorageFailure, UserError
from bot.ui import render
from bot.ui.components import (
    CardSelect,
    NextDealButton,
    PlayButton,
    answer_buttons,
    dynamic_view,
    lobby_view,
    table_view,
    view_of,
)

log = logging.getLogger(__name__)

NO_PINGS = discord.AllowedMentions.none()
RETRY_DELAYS = (1.0, 2.0, 4.0)
#: seconds between two rounds of the watch over open tables (see ``Play.tick``)
WATCH_EVERY = 5.0
#: seconds without a join, leave or new AI seat after which a lobby closes
LOBBY_IDLE = 30 * 60


async def retrying(call: Callable[[], Awaitable[Any]]) -> Any:
    """Run a Discord call, retrying on 429 and 5xx answers (the state it shows is
    already committed, so waiting is safe). Other errors are raised."""
    for delay in (*RETRY_DELAYS, None):
        try:
            return await call()
        except discord.HTTPException as exc:
            if delay is None or not (exc.status == 429 or exc.status >= 500):
                raise
            log.info("Discord answered %s; retrying in %.0f s", exc.status, delay)
            await asyncio.sleep(delay)


async def reply(interaction: discord.Interaction, text: str, **kwargs: Any) -> None:
    """Answer ephemerally, whether or not the interaction was answered already
    (text beyond Discord's 2,000 characters is cut)."""
    await say(interaction, text, ephemeral=True, **kwargs)


async def say(interaction: discord.Interaction, text: str | None = None, *,
              ephemeral: bool = False, **kwargs: Any) -> None:
    """Answer with a message, as the first response or (once the interaction was
    acknowledged, e.g. deferred before a wait) as a follow-up."""
    if text is not None and len(text) > 1900:
        text = text[:1900] + "…"
    if interaction.response.is_done():
        await interaction.followup.send(text or discord.utils.MISSING, ephemeral=ephemeral,
                                        **kwargs)
    else:
        await interaction.response.send_message(text, ephemeral=ephemeral, **kwargs)


async def edit(interaction: discord.Interaction, **kwargs: Any) -> None:
    """Edit the message a component is on, as the first response or (once the
    interaction was deferred) through the original response."""
    if interaction.response.is_done():
        await interaction.edit_original_response(**kwargs)
    else:
        await interaction.response.edit_message(**kwargs)


def defer_hook(interaction: discord.Interaction, public: bool = False,
               ) -> Callable[[], Awaitable[None]]:
    """What ``bot.waiting`` calls before a wait: acknowledge the interaction so
    Discord does not fail it after 3 seconds (a component: a silent deferred
    update; a command: "thinking…", ephemeral unless ``public``)."""
    async def defer() -> None:
        if interaction.response.is_done():
            return
        with contextlib.suppress(discord.HTTPException):
            if interaction.type is discord.InteractionType.component:
                await interaction.response.defer()
            else:
                await interaction.response.defer(ephemeral=not public, thinking=True)
    return defer


async def guarded(interaction: discord.Interaction, table_id: int | None,
                  work: Callable[[], Awaitable[None]], *, public: bool = False) -> None:
    """Run ``work``; turn ``UserError`` into an ephemeral answer and any other
    error into a logged apology. A member clicking or commanding faster than
    the bot's cooldown allows gets a short answer and nothing runs. Before any
    wait (a busy table or database) the interaction is acknowledged first
    (``defer_hook``; ``public``: a command whose answer everyone sees)."""
    client = interaction.client
    cooldown = getattr(client, "cooldown", None)
    if cooldown is not None:
        retry = cooldown.get_bucket(interaction).update_rate_limit()
        if retry:
            with contextlib.suppress(discord.HTTPException):
                await reply(interaction, f"Slow down a little: try again in {retry:.0f} s.")
            return
    try:
        with waiting.hook(defer_hook(interaction, public)):
            await work()
    except UserError as exc:
        with contextlib.suppress(discord.HTTPException):
            await reply(interaction, str(exc))
    except discord.NotFound as exc:
        if exc.code not in (10062, 10015):  # not an expired interaction: a real fault
            log.exception("table %s: interaction failed", table_id)
        else:
            log.warning("table %s: the interaction expired before it was answered", table_id)
    except Exception:
        log.exception("table %s: interaction failed", table_id)
        with contextlib.suppress(discord.HTTPException):
            await reply(interaction, "Something went wrong on our side. Nothing was lost: "
                                     "press My hand to see where things stand.")


#: moves without a card, and what the player is told
SIMPLE_MOVES = {
    "knock": "You knocked.",
    "stand": "You stand: no more changes for you this deal.",
    "pass": "You passed.",
    "take_widow": "You took the widow; your old hand lies face up in the middle.",
    "keep_hand": "You keep your hand.",
    "pounce": "Pounce! The fourth card is yours.",
    "buy_horse": "You bought a horse: one more life for 1 point.",
    "decline_horse": "No horse: you sit out from now on.",
}

PROMPTS = {
    "trade": "Pick the card you give the dealer (you pay 1 point unless you deal).",
    "barter": "Pick the card you offer face down to your neighbour.",
    "swap": "Pick what you put into the middle and what you take from it.",
    "take_discard": "Pick the card you lay on the pile; you take the top discard.",
    "draw_keep": "Keep the drawn card (and lay one of yours on the pile), or throw it away.",
    "offer": "Pick the card you offer, and to whom.",
}


def seat_names(live: LiveTable) -> Callable[[int], str]:
    """A seat as menu labels name it (never a mention)."""
    return lambda seat: render.seat_name(live, seat, mention=False)


def decide(action: str, value: str | None = None) -> Decision:
    """The decision a control makes (``choices.decide``).

    Raises:
        UserError: a value no menu of ours produces ("That choice is not valid.").
    """
    try:
        return choices.decide(action, value)
    except choices.ChoiceError as exc:
        raise UserError(str(exc)) from None


#: the operations of an exchange whose public line hides what the player got
CONCEALED = frozenset({"trade", "barter_offer", "barter_answer"})


class Play(commands.Cog):
    """Controls of lobbies and tables; public messages of a game."""

    def __init__(self, bot: CommerceBot) -> None:
        self.bot = bot
        self.service = bot.service
        self.timers: dict[int, asyncio.Task[None]] = {}
        self.turn_timers: dict[int, asyncio.Task[None]] = {}
        # barter offers already announced: (table, deal, seq) -> message id (None: unknown)
        self.offers: dict[tuple[int, int, int], int | None] = {}
        self.editing: set[int] = set()
        self.dirty: set[int] = set()

    async def cog_load(self) -> None:  # noqa: D102
        for live in list(self.service.tables.values()):
            if live.game is None:
                continue
            deal = live.deal
            if deal is not None and deal.pending is not None:
                # announced before the restart, or not: the table message carries the
                # Accept / Refuse buttons either way, so never ping twice
                key = (live.id, live.deal_number, len(deal.operations))
                known = live.row.offer_key == f"{key[1]}:{key[2]}"
                self.offers[key] = live.row.offer_message_id if known else None
            # refresh every table message; post a showdown a crash kept back
            asyncio.get_running_loop().create_task(self.refresh(live))
        self.watch.start()

    async def cog_unload(self) -> None:  # noqa: D102
        self.watch.cancel()
        for task in [*self.timers.values(), *self.turn_timers.values()]:
            task.cancel()

    # ------------------------------------------------------------ the watch
    @tasks.loop(seconds=WATCH_EVERY)
    async def watch(self) -> None:
        """Every few seconds (and at start-up): ``tick``."""
        await self.tick()

    @watch.before_loop
    async def _before_watch(self) -> None:
        await self.bot.wait_until_ready()

    async def tick(self) -> None:
        """Keep every open table moving by itself, whatever failed before: a
        table owing an automatic step (AI seats to act, a first deal, a rebuild
        after a failed write) takes it; a showdown not yet posted is posted; a
        next deal or turn timer that is not running is started; a lobby idle for
        ``LOBBY_IDLE`` seconds is closed. Failures are logged and tried again at
        the next tick."""
        for table_id in sorted({*self.service.tables, *self.service.stale}):
            try:
                await self._tend(table_id)
            except StorageFailure:
                log.warning("table %s: still cannot write; will try again", table_id)
            except Exception:
                log.exception("table %s: the watch failed", table_id)
        for table_id in self.service.idle_lobbies(LOBBY_IDLE):
            try:
                live = await self.service.close_idle(table_id, LOBBY_IDLE)
            except StorageFailure:
                continue
            if live is not None:
                log.info("table %s: lobby closed after %s s without activity", table_id,
                         LOBBY_IDLE)
                await self.refresh_lobby(live, "Nobody joined or left for "
                                               f"{LOBBY_IDLE // 60} minutes: this lobby is closed.")
                await self.close_channel(live)

    async def _tend(self, table_id: int) -> None:
        if self.service.due(table_id):
            before = self.service.tables.get(table_id)
            number = before.deal_number if before is not None else None
            live = await self.service.resume(table_id)
            if live is not None and live.deal_number != number:
                await self.post_deal(live)  # the first deal, dealt late
            elif live is not None:
                await self.refresh(live)
            return
        live = self.service.tables.get(table_id)
        if live is None or live.game is None or live.deal is None:
            return
        deal = live.deal
        if deal.finished:
            unposted = deal.showdown is not None and live.deal_number not in live.announced
            waiting = (not live.game.complete and live.row.next_deal_delay > 0
                       and table_id not in self.timers)
            if unposted or waiting:
                await self.refresh(live)
        elif live.row.table_message_id is None:
            await self.refresh(live)  # posts the table message a failed write lost
        elif table_id not in self.turn_timers:
            await self.arm_turn_timer(live)

    # ------------------------------------------------------------ lobby
    async def on_lobby(self, interaction: discord.Interaction, table_id: int, action: str) -> None:
        """Join / Leave / Add AI / Start pressed on a lobby message."""
        async def work() -> None:
            user = interaction.user
            if action == "join":
                live = await self.service.join(table_id, user.id, user.display_name)
            elif action == "ai":
                live = await self.service.add_ai(table_id, user.id)
            elif action == "leave":
                live = await self.service.leave(table_id, user.id)
                if live.row.status == "closed":
                    await edit(interaction, content="The last player left: this table is closed.",
                               embed=None, view=None)
                    await self.close_channel(live)
                    return
            else:
                await self.replace_gone_host(self.service.get(table_id), user.id)
                live = await self.service.start(table_id, user.id)
                await edit(interaction, embed=render.lobby_embed(live), view=None)
                await self.post_deal(live)
                return
            await edit(interaction, embed=render.lobby_embed(live), view=lobby_view(table_id))
        await guarded(interaction, table_id, work)

    async def replace_gone_host(self, live: LiveTable, member_id: int) -> bool:
        """When someone else than the host acts as host (Start, end) and the host
        has left the server, the host's seat is given up: a lobby passes to the
        next seated member. Returns whether the host was gone."""
        host = live.row.host_id
        if member_id == host or await self.still_member(live.row.guild_id, host):
            return False
        for changed in await self.service.member_gone(live.row.guild_id, host):
            if changed.row.status == "closed":
                await self.close_channel(changed)
            await self.refresh_lobby(changed)
        return True

    async def refresh_lobby(self, live: LiveTable, note: str | None = None) -> None:
        """Edit the lobby message after a change (``note``: text above it)."""
        if live.row.lobby_message_id is None:
            return
        view = lobby_view(live.id) if live.row.status == "lobby" else None
        extra = {"content": note} if note is not None else {}
        with contextlib.suppress(discord.HTTPException):
            await self.channel(live).get_partial_message(live.row.lobby_message_id).edit(
                embed=render.lobby_embed(live), view=view, **extra)

    # ------------------------------------------------------------- play
    async def on_play(self, interaction: discord.Interaction, table_id: int, deal: int,
                      action: str) -> None:
        """A table-message button: My hand, I'm back, a move without a card (knock,
        stand, pass, the widow choice, pounce, the horse), Draw, or a move that asks
        for cards (trade, barter, swap, take discard, offer) through a select."""
        async def work() -> None:
            user = interaction.user
            if action == "hand":
                await self.show_hand(interaction, table_id)
                return
            if action == "back":
                live = await self.service.back(table_id, user.id)
                await reply(interaction, "Welcome back: your seat is yours again.")
                await self.refresh(live)
                return
            if action in SIMPLE_MOVES:
                live, _ = await self.service.act(table_id, user.id, deal, decide(action))
                try:
                    await reply(interaction, SIMPLE_MOVES[action])
                finally:  # the table hears of the committed move even if the answer fails
                    await self.refresh(live, interaction)
                return
            if action == "draw":
                await self.on_draw(interaction, table_id, deal)
                return
            live = self.service.verify(table_id, user.id, deal, action)
            _, obs = self.service.observation(table_id, user.id)
            assert obs.seat is not None and live.deal is not None
            seq = len(live.deal.operations)
            options = choices.options(live.deal, obs.seat, action, seat_names(live))
            await reply(interaction, f"{render.hand_text(live, obs)}\n\n{PROMPTS[action]}",
                        view=dynamic_view(CardSelect(table_id, deal, seq, action, options)))
        await guarded(interaction, table_id, work)

    async def on_draw(self, interaction: discord.Interaction, table_id: int, deal: int) -> None:
        """Draw the stock top (jaques) and ask what to do with it; pressing Draw
        again while holding it just asks again."""
        user = interaction.user
        _, obs = self.service.observation(table_id, user.id)
        live = self.service.get(table_id)
        if obs.drawn is None:
            live, _ = await self.service.act(table_id, user.id, deal, decide("draw"))
            _, obs = self.service.observation(table_id, user.id)
            await self.refresh(live)
        assert live.deal is not None and obs.seat is not None and obs.drawn is not None
        seq = len(live.deal.operations)
        options = choices.options(live.deal, obs.seat, "draw_keep", seat_names(live))
        await reply(interaction, f"{render.hand_text(live, obs)}\n\n{PROMPTS['draw_keep']}",
                    view=dynamic_view(CardSelect(table_id, deal, seq, "draw_keep", options)))

    async def show_hand(self, interaction: discord.Interaction, table_id: int) -> None:
        """Send the member's current hand ephemerally (a fresh message every time),
        with the buttons only this player is shown now (``Controls.private``: a
        Pounce button only for the player who can pounce)."""
        live, obs = self.service.observation(table_id, interaction.user.id)
        assert live.deal is not None and obs.seat is not None
        private = live.deal.controls(obs.seat).private
        # a control acts only in its table's channel (components.Placed): /commerce hand
        # run elsewhere shows the cards without the button
        if private and interaction.channel_id == live.row.channel_id:
            await reply(interaction, render.hand_text(live, obs), view=dynamic_view(
                *(PlayButton(table_id, live.deal_number, a) for a in private)))
        else:
            await reply(interaction, render.hand_text(live, obs))

    async def on_answer(self, interaction: discord.Interaction, table_id: int, deal: int,
                        seq: int, action: str) -> None:
        """Accept / Refuse (knock) pressed on a barter offer, Accept / Decline on a
        direct trade."""
        async def work() -> None:
            user = interaction.user
            if action in ("refuse", "decline"):
                live, _ = await self.service.act(table_id, user.id, deal, decide(action), seq=seq)
                who = render.seat_name(live, live.seat_of(user.id) or 0)
                text = (f"{who} refused the barter by knocking." if action == "refuse"
                        else f"{who} declined the trade.")
                try:
                    await reply(interaction, "Done: " + text, allowed_mentions=NO_PINGS)
                    await self.close_offer(live, deal, seq, text)
                finally:
                    await self.refresh(live, interaction)
                return
            live = self.service.verify(table_id, user.id, deal, "accept", seq=seq)
            _, obs = self.service.observation(table_id, user.id)
            assert obs.seat is not None and live.deal is not None
            options = choices.options(live.deal, obs.seat, "accept", seat_names(live))
            await reply(
                interaction,
                f"{render.hand_text(live, obs)}\n\nPick the card you give back. "
                "You see the offered card once the swap is made.",
                view=dynamic_view(CardSelect(table_id, deal, seq, "accept", options)))
        await guarded(interaction, table_id, work)

    async def on_card(self, interaction: discord.Interaction, table_id: int, deal: int,
                      seq: int, action: str, value: str | None) -> None:
        """An option chosen in an ephemeral select: its ``value`` (``choices``)
        is the decision; an offer at a large table asks for the player next."""
        async def work() -> None:
            user = interaction.user
            if value is None:
                raise UserError("Choose a card first.")
            _, before = self.service.observation(table_id, user.id)
            decision = decide(action, value)
            if decision.kind == "offer" and decision.target is None:  # now the player
                live = self.service.verify(table_id, user.id, deal, "offer", seq=seq)
                assert before.seat is not None and live.deal is not None
                assert decision.card is not None
                options = choices.target_options(live.deal, before.seat, decision.card,
                                                 seat_names(live))
                await edit(interaction, content="Whom do you offer it to?",
                           view=dynamic_view(CardSelect(table_id, deal, seq, "offer", options)))
                return
            live, op = await self.service.act(table_id, user.id, deal, decision, seq=seq)
            try:
                if op.kind in CONCEALED:
                    await self.answer_card(interaction, live, before, deal, seq, decision)
                else:
                    await self.answer_move(interaction, live, deal, seq, action)
            finally:
                await self.refresh(live, interaction)
        await guarded(interaction, table_id, work)

    async def answer_move(self, interaction: discord.Interaction, live: LiveTable, deal: int,
                          seq: int, action: str) -> None:
        """Tell the player what their move did, by its public line and their hand."""
        seat = live.seat_of(interaction.user.id)
        assert seat is not None
        text = "Done."
        if live.deal_number == deal and live.deal is not None:
            event = live.deal.last_event
            text = render.event_text(live, event)
            text += "\n" + render.hand_text(live, live.deal.observation(seat))
        await edit(interaction, content=text, view=None)
        if action == "accept":
            await self.close_offer(live, deal, seq, f"{render.seat_name(live, seat)} "
                                                    "accepted the trade.")

    async def answer_card(self, interaction: discord.Interaction, live: LiveTable,
                          before: Observation, deal: int, seq: int, decision: Decision) -> None:
        """Tell the player what their concealed exchange did (a trade, a barter
        offer or answer: the public line does not say what they got)."""
        user = interaction.user
        seat = live.seat_of(user.id)
        action = decision.kind
        assert seat is not None and live.deal is not None and before.hand is not None
        assert decision.card is not None
        after = live.deal.hands[seat] if live.deal_number == deal else []
        new = [c for c in after if c not in before.hand]
        knocked = decision.knock
        given = card_label(decision.card)
        if action == "trade":
            text = f"You traded {given} and drew {hand_label(new)}."
        elif action == "barter" and live.deal_number == deal and live.deal.pending is not None:
            text = f"You offered {given}. Waiting for your neighbour's answer."
        elif action == "barter":
            text = (f"You offered {given}; your neighbour answered at once"
                    + (f" and gave you {hand_label(new)}." if new else " by knocking."))
        else:
            text = f"You gave {given} and received {hand_label(new)}."
        if knocked:
            text += " You knocked at the end of your turn."
        if live.deal_number == deal:
            text += "\n" + render.hand_text(live, live.deal.observation(seat))
        await edit(interaction, content=text, view=None)
        if action == "accept":
            await self.close_offer(live, deal, seq, f"{render.seat_name(live, seat)} "
                                                    "accepted the barter.")

    async def on_next(self, interaction: discord.Interaction, table_id: int, deal: int) -> None:
        """Next deal pressed on a showdown message."""
        async def work() -> None:
            live = self.service.get(table_id)
            if live.seat_of(interaction.user.id) is None:
                raise UserError("Only players at this table can deal the next hand.")
            live = await self.service.next_deal(table_id, after=deal)
            await edit(interaction, view=None)
            await self.post_deal(live)
        await guarded(interaction, table_id, work)

    # -------------------------------------------------- public messages
    def channel(self, live: LiveTable) -> discord.PartialMessageable:
        """Where the table plays (a channel or a thread)."""
        return self.bot.get_partial_messageable(live.row.channel_id, guild_id=live.row.guild_id)

    def table_view(self, live: LiveTable) -> discord.ui.View | None:
        deal = live.deal
        if deal is None or deal.finished:
            return None
        return table_view(live.id, live.deal_number, deal.controls(),
                          seq=len(deal.operations), away=any(s.away for s in live.seats))

    async def post_deal(self, live: LiveTable) -> None:
        """Post the new deal's table message, then anything the AI already did;
        the previous showdown loses its Next deal button."""
        self.cancel_timer(live.id)
        previous = live.showdown_messages.get(live.deal_number - 1)
        if previous is not None:
            with contextlib.suppress(discord.HTTPException):
                await self.channel(live).get_partial_message(previous).edit(view=None)
        await self.post_table_message(live)
        try:
            await self.after_deal_change(live)
        except Exception:
            log.exception("table %s: could not announce the deal's progress", live.id)
        await self.arm_turn_timer(live)

    async def post_table_message(self, live: LiveTable) -> None:
        """Post the deal's table message and remember it (failures are logged: the
        state is committed, and the watch posts a message that could not be)."""
        try:
            msg = await retrying(lambda: self.channel(live).send(
                content=self.ping_text(live), embed=render.table_embed(live),
                view=self.table_view(live)))
        except discord.HTTPException:
            log.exception("table %s: could not post the table message", live.id)
            return
        await self.service.set_message(live.id, table=msg.id)

    def ping_text(self, live: LiveTable) -> str:
        deal = live.deal
        if deal is None or deal.finished or deal.to_act is None or live.is_ai(deal.to_act):
            return ""
        return f"{render.seat_name(live, deal.to_act)}, your move."

    async def refresh(self, live: LiveTable, interaction: discord.Interaction | None = None) -> None:
        """Bring the table message up to date after a change. Edits are coalesced:
        while one edit for the table is in flight, later changes are folded into
        one more edit. Discord 429/5xx answers are retried; the game state is
        already committed, so a failed edit never loses an action."""
        if live.id in self.editing:
            self.dirty.add(live.id)
            return
        self.editing.add(live.id)
        try:
            while True:
                self.dirty.discard(live.id)
                await self._refresh_once(live, interaction)
                if live.id not in self.dirty:
                    break
        finally:
            self.editing.discard(live.id)
        await self.arm_turn_timer(live)

    async def _refresh_once(self, live: LiveTable, interaction: discord.Interaction | None) -> None:
        if live.deal is None:
            return
        try:
            if live.row.table_message_id is not None:
                message = self.channel(live).get_partial_message(live.row.table_message_id)
                await retrying(lambda: message.edit(
                    content=self.ping_text(live), embed=render.table_embed(live),
                    view=self.table_view(live)))
            elif not live.deal.finished:
                await self.post_table_message(live)
            await self.after_deal_change(live)
        except discord.Forbidden:
            log.warning("table %s: missing permission to post in channel %s",
                        live.id, live.row.channel_id)
            if interaction is not None:
                with contextlib.suppress(discord.HTTPException):
                    await reply(interaction, "Your move is saved, but I cannot update the table: "
                                             "I am missing **Send Messages** or **Embed Links** "
                                             "in this channel.")
        except discord.HTTPException:
            log.exception("table %s: could not update the table message", live.id)
        except Exception:  # the move is committed: the watch tries again later
            log.exception("table %s: could not bring the table up to date", live.id)

    async def after_deal_change(self, live: LiveTable) -> None:
        """Post a barter offer to a human target, or the showdown (and final standings)."""
        deal = live.deal
        assert deal is not None and live.game is not None
        channel = self.channel(live)
        if deal.finished:
            if deal.showdown is None or live.deal_number in live.announced:
                if not live.game.complete and live.id not in self.timers:
                    self.schedule_next(live)
                return
            complete = live.game.complete
            items: list[discord.ui.Item[Any]] = []
            if not complete:
                items.append(NextDealButton(live.id, live.deal_number))
                if any(s.away for s in live.seats):
                    items.append(PlayButton(live.id, live.deal_number, "back"))
            view = view_of(*items) if items else None
            msg = await retrying(lambda: channel.send(embed=render.showdown_embed(live), view=view))
            await self.service.mark_announced(live, msg.id)
            if complete:
                await channel.send(embed=render.final_embed(live))
                await self.close_channel(live)
            else:
                self.schedule_next(live)
            return
        pending = deal.pending
        if pending is not None:
            target = deal.to_act
            assert target is not None
            seq = len(deal.operations)
            key = (live.id, live.deal_number, seq)
            if not live.is_ai(target) and key not in self.offers:
                offerer = render.seat_name(live, pending.seat)
                answers = deal.controls().answers
                if "decline" in answers:  # a direct trade: the card is shown to the target
                    how = ("Press My hand to see the card; Accept (then pick the card you give "
                           "back) or Decline.")
                elif "refuse" in answers:  # a barter, refused by knocking
                    how = ("Choose the card you give back before you see theirs, or refuse by "
                           "knocking.")
                else:
                    how = "Choose the card you give back before you see theirs (you must accept)."
                self.offers[key] = None  # posted at most once, even if the send fails
                msg = await channel.send(
                    f"{render.seat_name(live, target)}, {offerer} offers you a card face down. {how}",
                    view=view_of(*answer_buttons(live.id, live.deal_number, seq, answers)))
                self.offers[key] = msg.id
                await self.service.set_offer_message(live, f"{key[1]}:{key[2]}", msg.id)

    async def close_offer(self, live: LiveTable, deal: int, seq: int, text: str) -> None:
        """Replace a barter offer's buttons with its outcome."""
        msg_id = self.offers.pop((live.id, deal, seq), None)
        if msg_id is None and live.row.offer_key == f"{deal}:{seq}":
            msg_id = live.row.offer_message_id
        if live.row.offer_key is not None and live.id in self.service.tables:
            with contextlib.suppress(Exception):
                await self.service.set_offer_message(live, None, None)
        if msg_id is not None:
            with contextlib.suppress(discord.HTTPException):
                await self.channel(live).get_partial_message(msg_id).edit(
                    content=text, view=None, allowed_mentions=NO_PINGS)

    async def close_channel(self, live: LiveTable) -> None:
        """After the last deal: make the table read-only (channel) or lock it (thread)."""
        channel = self.bot.get_channel(live.row.channel_id)  # found by id, never by name
        try:
            if live.row.place is None:  # a table older than the place column: by its name
                ours = getattr(channel, "name", "") == f"commerce-{live.row.number}"
            else:
                ours = live.row.place in ("channel", "thread")
            if channel is None or not ours:  # a table played "here" leaves the channel as it was
                return
            if isinstance(channel, discord.Thread):
                await channel.edit(archived=True, locked=True)
            elif isinstance(channel, discord.TextChannel):
                await channel.set_permissions(channel.guild.default_role, send_messages=False,
                                              reason="Commerce game over")
        except discord.HTTPException:
            log.warning("table %s: could not make the channel read-only", live.id)

    # ------------------------------------------------------------ timers
    def reschedule_next(self, live: LiveTable) -> None:
        """Apply a changed delay to a next deal that is already waiting."""
        if live.id in self.timers:
            self.cancel_timer(live.id)
            self.schedule_next(live)

    def schedule_next(self, live: LiveTable) -> None:
        """Deal the next hand automatically after the table's delay."""
        delay = live.row.next_deal_delay
        if delay <= 0:
            return
        self.cancel_timer(live.id)
        self.timers[live.id] = asyncio.create_task(self._auto_next(live.id, live.deal_number, delay))

    def forget(self, table_id: int) -> None:
        """Stop every timer of a closed table."""
        self.cancel_timer(table_id)
        turn = self.turn_timers.pop(table_id, None)
        if turn is not None:
            turn.cancel()

    def cancel_timer(self, table_id: int) -> None:
        task = self.timers.pop(table_id, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    async def arm_turn_timer(self, live: LiveTable) -> None:
        """(Re)start the turn timer of the member to act, if the guild has one."""
        old = self.turn_timers.pop(live.id, None)
        if old is not None and old is not asyncio.current_task():
            old.cancel()
        deal = live.deal
        if deal is None or deal.finished or live.id not in self.service.tables:
            return
        seat = deal.to_act
        assert seat is not None
        if live.is_ai(seat):
            return
        seconds = (await self.service.settings(live.row.guild_id)).turn_timer
        if seconds > 0:
            self.turn_timers[live.id] = asyncio.create_task(self._turn_timer(
                live.id, live.deal_number, len(deal.operations), seat, seconds))

    async def _turn_timer(self, table_id: int, deal_number: int, seq: int, seat: int,
                          seconds: int) -> None:
        await asyncio.sleep(seconds / 2)
        live = self.service.tables.get(table_id)
        if live is None:
            return
        member_id = live.member_of(seat)
        with contextlib.suppress(discord.HTTPException):
            await self.channel(live).send(
                f"⏰ <@{member_id}>, it is your move: {seconds - seconds // 2} seconds left "
                "before the AI plays for you.")
        await asyncio.sleep(seconds - seconds / 2)
        # From here on the timer acts: re-arming must not cancel it half-way.
        self.turn_timers.pop(table_id, None)
        await asyncio.shield(self._expire(table_id, deal_number, seq, seat, member_id))

    async def _expire(self, table_id: int, deal_number: int, seq: int, seat: int,
                      member_id: int | None) -> None:
        try:
            live = self.service.tables.get(table_id)
            if live is None or member_id is None:
                return
            if not await self.still_member(live.row.guild_id, member_id):
                for changed in await self.service.member_gone(live.row.guild_id, member_id):
                    await self.refresh(changed)
                return
            timed = await self.service.timeout(table_id, deal_number, seq)
            if timed is None:
                return
            await self.close_offer(timed, deal_number, seq, "Answered by the AI: time ran out.")
            note = (" They are marked away: the AI plays for them until they press I'm back."
                    if timed.seats[seat].away else "")
            with contextlib.suppress(discord.HTTPException):
                await self.channel(timed).send(
                    f"⌛ {render.seat_name(timed, seat, mention=False)} ran out of time, "
                    f"so the AI played for them.{note}", allowed_mentions=NO_PINGS)
            await self.refresh(timed)
        except Exception:
            log.exception("table %s: turn timer failed", table_id)

    async def still_member(self, guild_id: int, member_id: int) -> bool:
        """Whether the member is still in the guild (asks Discord; no member intent)."""
        guild = self.bot.get_guild(guild_id)
        if guild is None:
            return True
        try:
            await guild.fetch_member(member_id)
        except discord.NotFound:
            return False
        except discord.HTTPException:
            return True
        return True

    # ----------------------------------------------------------- listeners
    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:  # noqa: D102
        await self.channel_gone(channel.id, "deleted")

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:  # noqa: D102
        await self.channel_gone(payload.thread_id, "deleted")

    @commands.Cog.listener()
    async def on_thread_update(self, before: discord.Thread, after: discord.Thread) -> None:  # noqa: D102
        if after.archived and not before.archived:
            await self.channel_gone(after.id, "archived")

    @commands.Cog.listener()
    async def on_raw_member_remove(self, payload: discord.RawMemberRemoveEvent) -> None:  # noqa: D102
        for live in await self.service.member_gone(payload.guild_id, payload.user.id):
            await self.refresh(live)

    async def channel_gone(self, channel_id: int, how: str) -> None:
        """A moderator deleted or archived a table's channel: end the table cleanly."""
        try:
            live = await self.service.channel_gone(channel_id)
        except Exception:
            log.exception("channel %s: could not close its table", channel_id)
            return
        if live is not None:
            self.forget(live.id)
            log.info("table %s closed: its channel was %s", live.id, how)

    async def _auto_next(self, table_id: int, after: int, delay: int) -> None:
        await asyncio.sleep(delay)
        self.timers.pop(table_id, None)
        await asyncio.shield(self._deal_next(table_id, after))

    async def _deal_next(self, table_id: int, after: int) -> None:
        try:
            live = await self.service.next_deal(table_id, after=after)
        except UserError:
            return  # someone pressed Next deal, or the table closed
        except Exception:
            log.exception("table %s: automatic next deal failed", table_id)
            return
        await self.post_deal(live)


async def setup(bot: CommerceBot) -> None:  # noqa: D103
    await bot.add_cog(Play(bot))
