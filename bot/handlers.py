"""The controls' handlers: what a press of a lobby, table, offer, showdown,
leaderboard or reset button, or a choice in a card select, does.

Every handler follows one path: service call (lock, engine, commit) → answer
the interaction → refresh the public messages (``bot.messages``). ``UserError``
becomes a short ephemeral answer; anything else is logged with the table id
and answered with an apology, never a traceback (``bot.interactions.guarded``).

One ``Handlers`` per bot (``CommerceBot.handlers``): the controls of
``bot.ui.components`` reach it through ``interaction.client.handlers``, typed
as ``components.ControlHandlers``, and never through a cog.
"""

from __future__ import annotations

from collections.abc import Callable

import discord

from .engine import Decision, Observation, card_label, choices, hand_label
from .interactions import NO_PINGS, edit, guarded, reply, require_manager
from .messages import Publisher
from .service import LiveTable, TableService, UserError
from .timers import Timers
from .ui import render
from .ui.components import CardSelect, PlayButton, dynamic_view, lobby_view, pager_view

#: leaderboard lines per page
PER_PAGE = 10

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


class Handlers:
    """The handler of every control (``bot.ui.components.ControlHandlers``).

    Args:
        service: the table service.
        publisher: the public messages of every table.
        timers: asked whether a member is still in the guild.
    """

    def __init__(self, service: TableService, publisher: Publisher, timers: Timers) -> None:
        """Handlers acting through ``service`` and posting through ``publisher``."""
        self.service = service
        self.publisher = publisher
        self.timers = timers

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
                    await self.publisher.close_channel(live)
                    return
            else:
                await self.replace_gone_host(self.service.get(table_id), user.id)
                live = await self.service.start(table_id, user.id)
                await edit(interaction, embed=render.lobby_embed(live), view=None)
                await self.publisher.post_deal(live)
                return
            await edit(interaction, embed=render.lobby_embed(live), view=lobby_view(table_id))
        await guarded(interaction, table_id, work)

    async def replace_gone_host(self, live: LiveTable, member_id: int) -> bool:
        """When someone else than the host acts as host (Start, end) and the host
        has left the server, the host's seat is given up: a lobby passes to the
        next seated member. Returns whether the host was gone."""
        host = live.row.host_id
        if member_id == host or await self.timers.still_member(live.row.guild_id, host):
            return False
        for changed in await self.service.member_gone(live.row.guild_id, host):
            if changed.row.status == "closed":
                await self.publisher.close_channel(changed)
            await self.publisher.refresh_lobby(changed)
        return True

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
                await self.publisher.refresh(live)
                return
            if action in SIMPLE_MOVES:
                live, _ = await self.service.act(table_id, user.id, deal, decide(action))
                try:
                    await reply(interaction, SIMPLE_MOVES[action])
                finally:  # the table hears of the committed move even if the answer fails
                    await self.publisher.refresh(live, interaction)
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
            await self.publisher.refresh(live)
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
                    await self.publisher.close_offer(live, deal, seq, text)
                finally:
                    await self.publisher.refresh(live, interaction)
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
                await self.publisher.refresh(live, interaction)
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
            await self.publisher.close_offer(live, deal, seq, f"{render.seat_name(live, seat)} "
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
            await self.publisher.close_offer(live, deal, seq, f"{render.seat_name(live, seat)} "
                                                    "accepted the barter.")

    async def on_next(self, interaction: discord.Interaction, table_id: int, deal: int) -> None:
        """Next deal pressed on a showdown message."""
        async def work() -> None:
            live = self.service.get(table_id)
            if live.seat_of(interaction.user.id) is None:
                raise UserError("Only players at this table can deal the next hand.")
            live = await self.service.next_deal(table_id, after=deal)
            await edit(interaction, view=None)
            await self.publisher.post_deal(live)
        await guarded(interaction, table_id, work)

    # ------------------------------------------------------------ ledger
    async def on_page(self, interaction: discord.Interaction, guild_id: int, page: int) -> None:
        """Previous / Next pressed under a leaderboard: show page ``page`` (0-based)
        as the ledger stands now."""
        async def work() -> None:
            rows, total = await self.service.leaderboard(guild_id, page, per_page=PER_PAGE)
            if not rows:
                raise UserError(f"Page {page + 1} of the leaderboard is empty now: the ledger "
                                "has changed. Run /commerce leaderboard again.")
            pages = -(-total // PER_PAGE)
            await edit(interaction, embed=render.leaderboard_embed(rows, page, total, PER_PAGE),
                       view=pager_view(guild_id, interaction.user.id, page, pages),
                       allowed_mentions=discord.AllowedMentions.none())
        await guarded(interaction, None, work)

    # ------------------------------------------------------------- admin
    async def on_reset_answer(self, interaction: discord.Interaction, expires: int,
                              confirmed: bool) -> None:
        """Confirm or Cancel pressed under the reset question (by the member who
        asked, in the guild it was asked in: ``components.Placed`` checked that).
        After ``expires`` (unix seconds) nothing happens and the buttons go."""
        async def work() -> None:
            assert interaction.guild is not None
            if discord.utils.utcnow().timestamp() > expires:
                await edit(interaction, content="This confirmation expired: run the command again.",
                           view=None)
                return
            if not confirmed:
                await edit(interaction, content="Cancelled: nothing changed.", view=None)
                return
            member = require_manager(interaction)  # they may have lost it meanwhile
            count = await self.service.reset_ledger(interaction.guild.id, member.id)
            await edit(interaction, content=f"Done: {count} balance(s) reset to zero.", view=None)
        await guarded(interaction, None, work)
