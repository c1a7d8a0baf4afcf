"""Persistent controls: ``DynamicItem`` buttons and selects whose ``custom_id``
carries the table, the deal and (for one-shot controls) the operation count, so
they keep working after a restart and a stale or repeated click is refused.

Every control the bot sends is one of ``DYNAMIC_ITEMS`` in a ``timeout=None``
view (a player's panel sends the bare items its controls wrap, with the same
ids: ``PickButton.button``, ``CardSelect.menu``): none of them ever times out.
The leaderboard pager and the reset-ledger question carry their guild, their
owner and (the pager) its preset and period, (the question) an expiry time; the
history's buttons and menu carry their guild and what they show
(``HistoryState``).

Before any callback runs, one check (``Placed.interaction_check``) makes sure
the control acts only where it was posted — its table's guild and channel, or
the guild in its id — and only for its owner; a refused click gets a short
ephemeral answer and changes nothing. Callbacks only parse ids and hand over
to the bot's handlers (``ControlHandlers``; no cog is ever imported here).
"""

from __future__ import annotations

import contextlib
import functools
import re
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, Self, cast

import discord

from .. import i18n
from ..engine import PRESETS, Controls
from ..engine.fairness import CUT_MAX
from ..i18n import N_, _
from ..service import LiveTable, UserError
from ..service.queries import PERIODS
from .controls import ANSWER_NAMES, CONTROLS, SELECT_NAMES, TABLE_NAMES, pattern

if TYPE_CHECKING:
    from discord.types.interactions import SelectMessageComponentInteractionData

#: the answer to a control used outside the guild or channel it was posted in
NOT_HERE = N_("That control does not belong here.")
#: the highest season a leaderboard's option and pager ids name
MAX_SEASON = 9999
#: seconds the reset-ledger question can be answered
CONFIRM_SECONDS = 60

#: the two kinds of persistent control: a button and a select, each in a view of its own kind
DynamicButton = discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]]
DynamicSelect = discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]]


class ControlHandlers(Protocol):
    """What the controls hand over to: the bot's ``handlers`` (``bot.interactions.handlers.Handlers``,
    made in ``CommerceBot.setup_hook``). The UI layer names no cog and no module
    above it; it only knows this shape."""

    async def on_lobby(self, interaction: discord.Interaction, table_id: int,
                       action: str) -> None:
        """Join / Leave / Add AI / Start."""

    async def on_play(self, interaction: discord.Interaction, table_id: int, deal: int,
                      action: str) -> None:
        """A table-message button."""

    async def on_answer(self, interaction: discord.Interaction, table_id: int, deal: int,
                        seq: int, action: str) -> None:
        """Accept / Refuse / Decline an offer."""

    async def on_card(self, interaction: discord.Interaction, table_id: int, deal: int,
                      seq: int, action: str, value: str | None) -> None:
        """An option chosen in a card select."""

    async def on_pick(self, interaction: discord.Interaction, table_id: int, deal: int,
                      seq: int, action: str, value: str | None) -> None:
        """A button of a player's private panel: one decision, made at once."""

    async def on_next(self, interaction: discord.Interaction, table_id: int, deal: int) -> None:
        """Next deal."""

    async def on_cut_button(self, interaction: discord.Interaction, table_id: int) -> None:
        """Cut, on the lobby or a showdown: ask for the member's cut."""

    async def on_proof(self, interaction: discord.Interaction, table_id: int, deal: int) -> None:
        """Proof, on a showdown: the deal's fair-shuffle proof, privately."""

    async def on_cut(self, interaction: discord.Interaction, table_id: int, text: str) -> None:
        """The cut a member typed (the Cut form)."""

    async def on_page(self, interaction: discord.Interaction, guild_id: int, page: int,
                      board: BoardFilter | None = None) -> None:
        """Previous / Next under a leaderboard (of ``board``'s preset and period)."""

    async def on_confirm(self, interaction: discord.Interaction, question: str, expires: int,
                         confirmed: bool) -> None:
        """Confirm / Cancel of a manager's question (``ConfirmButton.question``)."""

    async def on_history(self, interaction: discord.Interaction, guild_id: int,
                         state: HistoryState) -> None:
        """A history button or menu: show ``state``."""

    async def on_review(self, interaction: discord.Interaction, guild_id: int, table_id: int,
                        page: int, opens: bool) -> None:
        """Review (``opens``: a new private message) or a review's Previous / Next."""


def handlers(interaction: discord.Interaction) -> ControlHandlers:
    """The handlers of the bot that received ``interaction``."""
    # the client is a ``CommerceBot``, which this layer may not import (it sits above the UI)
    found: ControlHandlers = interaction.client.handlers  # type: ignore[attr-defined]
    return found


def table_refusal(interaction: discord.Interaction, table_id: int) -> str | None:
    """Why a control of table ``table_id`` may not act on ``interaction`` (``None``:
    it may): the table is not open, or it plays in another guild or channel."""
    service = getattr(interaction.client, "service", None)
    if service is None:
        return NOT_HERE
    try:
        live = service.get(table_id)
    except UserError as exc:  # closed, or being restored after a storage problem
        return str(exc)
    if (live.row.guild_id, live.row.channel_id) != (interaction.guild_id, interaction.channel_id):
        return NOT_HERE
    return None


#: the largest number a control's ``custom_id`` may carry: the databases' integers
#: (SQLite's and PostgreSQL's ``BIGINT``) hold no larger one, and Discord's ids fit
ID_MAX = 2**63 - 1
_NUMBERS = re.compile(r"\d+")


def too_large(interaction: discord.Interaction) -> bool:
    """The ``custom_id`` of ``interaction`` carries a number past ``ID_MAX``
    (a forged id: a look-up with it would fail in the database driver)."""
    data = interaction.data
    custom_id = data.get("custom_id") if isinstance(data, dict) else None
    return isinstance(custom_id, str) and any(
        len(n) > 18 and int(n) > ID_MAX for n in _NUMBERS.findall(custom_id))


def unknown_controls(items: tuple[type[discord.ui.DynamicItem[Any]], ...],
                     ) -> Callable[[discord.Interaction], Coroutine[Any, Any, None]]:
    """The bot's ``on_interaction`` listener for a press or choice whose
    ``custom_id`` looks like the bot's (``commerce:``) but matches none of
    ``items``' templates (a control of an older version of the bot, or a forged
    or cut id): no control would answer it, and Discord would show "This
    interaction failed"; it is answered ``NOT_HERE``, ephemerally, and changes
    nothing."""
    templates = tuple(cls.__discord_ui_compiled_template__ for cls in items)

    async def answer(interaction: discord.Interaction) -> None:
        data = interaction.data
        if interaction.type is not discord.InteractionType.component or not isinstance(data, dict):
            return
        custom_id = data.get("custom_id")
        if (not isinstance(custom_id, str) or not custom_id.startswith("commerce:")
                or any(t.fullmatch(custom_id) for t in templates)):
            return
        with contextlib.suppress(discord.HTTPException), i18n.use(interaction.locale):
            await interaction.response.send_message(_(NOT_HERE), ephemeral=True)
    return answer


class Placed:
    """Mixin of every control: the one place that refuses a click made outside
    the control's guild or channel, or by someone it is not for. Subclasses
    say why in ``refusal``; a refused click is answered ephemerally, and the
    callback (so any change) never runs.

    Attributes:
        table_id: the table the control belongs to; set by the controls of a table,
            while the others (no table in their id) override ``refusal``.
    """

    table_id: int

    def refusal(self, interaction: discord.Interaction) -> str | None:
        """Why this control may not act on ``interaction``; ``None`` when it may."""
        return table_refusal(interaction, self.table_id)

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        """discord.py's check before the callback: ``False`` (after an ephemeral
        answer saying why) refuses the click. A ``custom_id`` naming a number no
        database column holds (past ``ID_MAX``: none the bot made) that ``refusal``
        lets through is refused as not belonging here, before the callback looks
        anything up."""
        text = self.refusal(interaction)
        if text is None and too_large(interaction):
            text = NOT_HERE
        if text is None:
            return True
        with contextlib.suppress(discord.HTTPException), i18n.use(interaction.locale):
            await interaction.response.send_message(_(text), ephemeral=True)
        return False


#: the answer to a private control arriving on a message everyone sees
NOT_PRIVATE = N_("That control belongs on your private panel: press **My hand**.")


class Private(Placed):
    """Mixin of the controls of a player's private panel (``PickButton``,
    ``CardSelect``): they act only from an ephemeral message. One arriving on a
    public message (a forged or replayed click) is refused, so the message it
    came from — which everyone sees — is never edited into someone's panel."""

    def refusal(self, interaction: discord.Interaction) -> str | None:
        """``Placed``'s refusal, or ``NOT_PRIVATE`` when the click did not come
        from an ephemeral message."""
        text = super().refusal(interaction)
        if text is not None:
            return text
        message = interaction.message
        if message is None or not message.flags.ephemeral:
            return NOT_PRIVATE
        return None


class LobbyButton(Placed, DynamicButton,
                  template=r"commerce:lobby:(?P<table>\d+):(?P<action>join|leave|ai|start)"):
    """Join / Leave / Add AI / Start on the lobby message."""

    STYLES = {
        "join": (N_("Join"), discord.ButtonStyle.success),
        "leave": (N_("Leave"), discord.ButtonStyle.secondary),
        "ai": (N_("Add AI"), discord.ButtonStyle.secondary),
        "start": (N_("Start"), discord.ButtonStyle.primary),
    }

    def __init__(self, table_id: int, action: str) -> None:
        """A lobby button of table ``table_id``; ``action``: a key of ``STYLES``."""
        label, style = self.STYLES[action]
        super().__init__(discord.ui.Button(
            label=_(label), style=style, custom_id=f"commerce:lobby:{table_id}:{action}"))
        self.table_id, self.action = table_id, action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> LobbyButton:
        """Rebuild the button from its ``custom_id`` (discord.py calls this on a click)."""
        return cls(int(match["table"]), match["action"])

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the click to the handlers' ``on_lobby``."""
        await handlers(interaction).on_lobby(interaction, self.table_id, self.action)


class PlayButton(Placed, DynamicButton,
                 template=(r"commerce:play:(?P<table>\d+):(?P<deal>\d+)"
                           rf":(?P<action>{pattern(TABLE_NAMES)})")):
    """My hand / Trade / Barter / Knock on a deal's table message (the names of
    ``controls.TABLE_NAMES``, shown as ``controls.CONTROLS`` says)."""

    def __init__(self, table_id: int, deal: int, action: str) -> None:
        """A button of deal number ``deal`` (1-based) at table ``table_id``;
        ``action``: one of ``controls.TABLE_NAMES``."""
        super().__init__(self.button(table_id, deal, action))
        self.table_id, self.deal, self.action = table_id, deal, action

    @staticmethod
    def button(table_id: int, deal: int, action: str) -> discord.ui.Button[discord.ui.View]:
        """The button a ``PlayButton`` of these arguments wraps, alone: what a
        table message sends (``table_view``); a click on it is dispatched to a
        ``PlayButton`` made from its ``custom_id``, as ``PickButton.button``'s."""
        control = CONTROLS[action]
        return discord.ui.Button(label=_(control.label), style=control.style,
                                 custom_id=f"commerce:play:{table_id}:{deal}:{action}")

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> PlayButton:
        """Rebuild the button from its ``custom_id`` (discord.py calls this on a click)."""
        return cls(int(match["table"]), int(match["deal"]), match["action"])

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the click to the handlers' ``on_play``."""
        await handlers(interaction).on_play(interaction, self.table_id, self.deal, self.action)


class AtMoment:
    """Mixin of the controls made for one moment of a deal (an answer to an offer,
    a select of cards): their id ends ``<table>:<deal>:<seq>:<action>``, the
    operation count ``seq`` they were made at (a later click is stale)."""

    def __init__(self, table_id: int, deal: int, seq: int, action: str,
                 item: discord.ui.Item[Any]) -> None:
        """The control ``item`` of ``action`` at operation count ``seq`` of deal
        ``deal`` at table ``table_id``."""
        super().__init__(item)  # type: ignore[call-arg]  # the DynamicItem's
        self.table_id, self.deal, self.seq, self.action = table_id, deal, seq, action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> Self:
        """Rebuild the control from its ``custom_id`` (discord.py calls this on a click)."""
        # each control's own constructor takes these four and makes its item
        return cls(int(match["table"]), int(match["deal"]), int(match["seq"]),  # type: ignore[call-arg]
                   match["action"])


class AnswerButton(AtMoment, Placed, DynamicButton,
                   template=(r"commerce:answer:(?P<table>\d+):(?P<deal>\d+):(?P<seq>\d+)"
                             rf":(?P<action>{pattern(ANSWER_NAMES)})")):
    """Accept / Refuse (knock) on a barter offer, Accept / Decline on a direct trade."""

    def __init__(self, table_id: int, deal: int, seq: int, action: str) -> None:
        """An answer to the offer made at operation count ``seq`` of deal ``deal``
        at table ``table_id``; ``action``: ``accept``, ``refuse`` or ``decline``."""
        super().__init__(table_id, deal, seq, action, self.button(table_id, deal, seq, action))

    @staticmethod
    def button(table_id: int, deal: int, seq: int, action: str,
               ) -> discord.ui.Button[discord.ui.View]:
        """The button an ``AnswerButton`` of these arguments wraps, alone: what a
        table message or an offer sends (``answer_buttons``); a click on it is
        dispatched to an ``AnswerButton`` made from its ``custom_id``."""
        control = CONTROLS[action]
        return discord.ui.Button(label=_(control.label), style=control.style,
                                 custom_id=f"commerce:answer:{table_id}:{deal}:{seq}:{action}")

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the answer to the handlers' ``on_answer``."""
        await handlers(interaction).on_answer(
            interaction, self.table_id, self.deal, self.seq, self.action)


class CardSelect(AtMoment, Private, DynamicSelect,
                 template=(r"commerce:card:(?P<table>\d+):(?P<deal>\d+):(?P<seq>\d+)"
                           rf":(?P<action>{pattern(SELECT_NAMES)})")):
    """An ephemeral select of the decisions a control offers; option values are
    those of ``bot.engine.choices`` (one encoding: ``Kd``, ``Kd!``, ``Kd@3``...)."""

    def __init__(self, table_id: int, deal: int, seq: int, action: str,
                 choices: list[tuple[str, str]] | None = None,
                 placeholder: str | None = None) -> None:
        """The select for ``action`` (one of ``controls.SELECT_NAMES``) at operation count
        ``seq`` of deal ``deal`` at table ``table_id``.

        Args:
            table_id: the table.
            deal: the deal number (1-based).
            seq: the operation count the choices were made for; a later click is stale.
            action: one of ``controls.SELECT_NAMES``.
            choices: ``(label, value)`` pairs (``bot.engine.choices.options``), the
                first 25 shown; none when the control is rebuilt from its ``custom_id``.
            placeholder: what the menu says before a choice (default: the
                action's placeholder, ``controls.CONTROLS``).
        """
        super().__init__(table_id, deal, seq, action,
                         self.menu(table_id, deal, seq, action, choices, placeholder))

    @staticmethod
    def menu(table_id: int, deal: int, seq: int, action: str,
             choices: list[tuple[str, str]] | None = None,
             placeholder: str | None = None) -> discord.ui.Select[discord.ui.View]:
        """The menu a ``CardSelect`` of these arguments wraps, alone: what a
        panel sends. Its ``custom_id`` is the control's, so a choice made in it
        is dispatched to a ``CardSelect`` made from that id (``from_custom_id``)
        like any other; the wrapper itself is never needed in a view that is not
        kept (``dynamic_view``), and costs as much again to make."""
        options = [discord.SelectOption(label=label, value=value)
                   for label, value in (choices or [])[:25]]
        return discord.ui.Select(
            placeholder=placeholder or _(CONTROLS[action].placeholder),
            options=options or [discord.SelectOption(label="?", value="?")],
            custom_id=f"commerce:card:{table_id}:{deal}:{seq}:{action}")

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the chosen option's value (``None`` if none came) to the handlers' ``on_card``."""
        # a select's interaction carries the chosen values (none when Discord omits them)
        data = cast("SelectMessageComponentInteractionData | None", interaction.data)
        values = (data.get("values") if data else None) or []
        card = values[0] if values else None
        await handlers(interaction).on_card(
            interaction, self.table_id, self.deal, self.seq, self.action, card)


class PickButton(Private, DynamicButton,
                 template=(r"commerce:pick:(?P<table>\d+):(?P<deal>\d+):(?P<seq>\d+)"
                           r":(?P<action>[a-z_]{1,20})(?::(?P<value>[0-9A-Za-z!@?-]{1,60}))?")):
    """A button of a player's private panel that makes one decision at once
    ("Trade K♥", "Barter K♥ with Ben", "Knock"...). The id carries the table, the
    deal, the operation count it was made for (a later click is stale) and the
    decision as ``bot.engine.choices`` encodes it: the control and, for a
    decision with a card, the select value (``Kd``, ``Kd!``, ``KdQs-2c3h``...)."""

    def __init__(self, table_id: int, deal: int, seq: int, action: str, value: str | None = None,
                 *, label: str = "?", style: discord.ButtonStyle = discord.ButtonStyle.secondary,
                 row: int | None = None) -> None:
        """The button deciding ``action`` (with ``value``, ``None`` for a button
        decision) for the state after ``seq`` operations of deal ``deal`` at table
        ``table_id``; ``label`` and ``style`` only matter when it is sent."""
        super().__init__(self.button(table_id, deal, seq, action, value, label=label, style=style,
                                     row=row))
        self.table_id, self.deal, self.seq = table_id, deal, seq
        self.action, self.value = action, value

    @staticmethod
    def button(table_id: int, deal: int, seq: int, action: str, value: str | None = None, *,
               label: str = "?", style: discord.ButtonStyle = discord.ButtonStyle.secondary,
               row: int | None = None) -> discord.ui.Button[discord.ui.View]:
        """The button a ``PickButton`` of these arguments wraps, alone: what a
        panel sends. Its ``custom_id`` is the control's, so a click on it is
        dispatched to a ``PickButton`` made from that id (``from_custom_id``)
        like any other; the wrapper itself is never needed in a view that is not
        kept (``dynamic_view``), and costs as much again to make."""
        tail = f":{value}" if value is not None else ""
        return discord.ui.Button(label=label[:80], style=style, row=row,
                                 custom_id=f"commerce:pick:{table_id}:{deal}:{seq}:{action}{tail}")

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> PickButton:
        """Rebuild the button from its ``custom_id`` (discord.py calls this on a click)."""
        return cls(int(match["table"]), int(match["deal"]), int(match["seq"]), match["action"],
                   match["value"])

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the decision to the handlers' ``on_pick``."""
        await handlers(interaction).on_pick(interaction, self.table_id, self.deal, self.seq,
                                            self.action, self.value)


class NextDealButton(Placed, DynamicButton, template=r"commerce:next:(?P<table>\d+):(?P<deal>\d+)"):
    """Next deal, on a showdown message."""

    def __init__(self, table_id: int, deal: int) -> None:
        """Next deal after deal number ``deal`` at table ``table_id``."""
        super().__init__(discord.ui.Button(
            label=_("Next deal"), style=discord.ButtonStyle.primary,
            custom_id=f"commerce:next:{table_id}:{deal}"))
        self.table_id, self.deal = table_id, deal

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> NextDealButton:
        """Rebuild the button from its ``custom_id`` (discord.py calls this on a click)."""
        return cls(int(match["table"]), int(match["deal"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the click to the handlers' ``on_next``."""
        await handlers(interaction).on_next(interaction, self.table_id, self.deal)


class CutButton(Placed, DynamicButton, template=r"commerce:cut:(?P<table>\d+)"):
    """Cut, on the lobby and each showdown: a seated member types a word or a
    number that joins the next deal's shuffle (docs/FAIRNESS.md "In the bot")."""

    def __init__(self, table_id: int) -> None:
        """Cut the next deal of table ``table_id``."""
        super().__init__(discord.ui.Button(
            label=_("Cut"), style=discord.ButtonStyle.secondary, emoji="✂️",
            custom_id=f"commerce:cut:{table_id}"))
        self.table_id = table_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> CutButton:
        """Rebuild the button from its ``custom_id`` (discord.py calls this on a click)."""
        return cls(int(match["table"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the click to the handlers' ``on_cut_button``."""
        await handlers(interaction).on_cut_button(interaction, self.table_id)


class ProofButton(Placed, DynamicButton,
                  template=r"commerce:proof:(?P<table>\d+):(?P<deal>\d+)"):
    """Proof, on each showdown, kept once the game has moved on: answers privately
    with the deal's fair-shuffle proof (``proofs.deal_proof``, docs/FAIRNESS.md
    "In the bot"). Anyone in the guild may ask; after the game, the answer says
    where the whole game's proof is."""

    def __init__(self, table_id: int, deal: int) -> None:
        """The proof of deal number ``deal`` at table ``table_id``."""
        super().__init__(discord.ui.Button(
            label=_("Proof"), style=discord.ButtonStyle.secondary, emoji="🔒",
            custom_id=f"commerce:proof:{table_id}:{deal}"))
        self.table_id, self.deal = table_id, deal

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> ProofButton:
        """Rebuild the button from its ``custom_id`` (discord.py calls this on a click)."""
        return cls(int(match["table"]), int(match["deal"]))

    def refusal(self, interaction: discord.Interaction) -> str | None:
        """Refuse a click in another channel than its table's while the table is
        open; a closed table's proof is answered by the handler."""
        text = table_refusal(interaction, self.table_id)
        return text if text == NOT_HERE else None

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the click to the handlers' ``on_proof``."""
        await handlers(interaction).on_proof(interaction, self.table_id, self.deal)


def proof_view(table_id: int, deal: int) -> discord.ui.View:
    """What a showdown keeps once its deal is behind: its Proof button alone (its
    bare button in a stopped view, ``dynamic_view``, made once per language)."""
    return _proof_view(table_id, deal, i18n.current())


@functools.lru_cache(maxsize=64)
def _proof_view(table_id: int, deal: int, language: str) -> discord.ui.View:
    """``proof_view`` in ``language`` (the current one)."""
    return dynamic_view(ProofButton(table_id, deal).item)


#: the ``custom_id`` of table n's Cut form, and of its one line
CUT_FORM = re.compile(r"commerce:cutform:(?P<table>\d+)")
CUT_TEXT = "commerce:cutform:text"


def cut_form(table_id: int, deal: int) -> discord.ui.Modal:
    """The form a Cut press opens: one line, the member's cut of deal ``deal``. It is
    stopped at once, so discord.py keeps nothing of it: its submission, whenever it
    comes (after a restart too), is handed over by ``dispatch_cut_form``."""
    form: discord.ui.Modal = discord.ui.Modal(
        title=_("Cut the shuffle of deal {number}").format(number=deal), timeout=None,
        custom_id=f"commerce:cutform:{table_id}")
    form.add_item(discord.ui.TextInput(
        label=_("Your cut: any word or number"), placeholder=_("e.g. banana 42"), min_length=1,
        max_length=CUT_MAX, custom_id=CUT_TEXT))
    form.stop()
    return form


def _form_value(nodes: Any, custom_id: str) -> str | None:
    """The value of the field ``custom_id`` among a form submission's components."""
    for node in nodes if isinstance(nodes, list) else []:
        if not isinstance(node, dict):
            continue
        if node.get("custom_id") == custom_id and isinstance(node.get("value"), str):
            return str(node["value"])
        found = _form_value(node.get("components", []), custom_id) or _form_value(
            [node["component"]] if isinstance(node.get("component"), dict) else [], custom_id)
        if found is not None:
            return found
    return None


async def dispatch_cut_form(interaction: discord.Interaction) -> None:
    """The bot's ``on_interaction`` listener: a Cut form's submission goes to the
    handlers' ``on_cut`` once ``Placed``'s check passes (its table open, in this
    guild and channel); any other interaction is left alone."""
    if interaction.type is not discord.InteractionType.modal_submit or interaction.data is None:
        return
    match = CUT_FORM.fullmatch(str(interaction.data.get("custom_id", "")))
    if match is None:
        return
    table_id = int(match["table"])
    refusal = table_refusal(interaction, table_id)
    if refusal is not None:
        with contextlib.suppress(discord.HTTPException), i18n.use(interaction.locale):
            await interaction.response.send_message(_(refusal), ephemeral=True)
        return
    text = _form_value(interaction.data.get("components", []), CUT_TEXT) or ""
    await handlers(interaction).on_cut(interaction, table_id, text)


@dataclass(frozen=True)
class BoardFilter:
    """Which ledger rows a leaderboard counts; it lives in its pager's ids.

    Attributes:
        period: a key of ``PERIODS`` (``week``, ``month``, ``all``).
        preset: one preset's tables only (a key of ``PRESETS``), ``None`` for all.
        season: one season's rows (from 1, at most ``MAX_SEASON``), ``None`` for the
            current one (docs/RATINGS.md "Seasons").
    """

    period: str = "all"
    preset: str | None = None
    season: int | None = None

    def tail(self) -> str:
        """The id's end: ``""`` for the whole ledger (the ids of older pagers),
        else ``:<period>:<preset or nothing>``, and ``:<season>`` for a season."""
        if self == BoardFilter():
            return ""
        return f":{self.period}:{self.preset or ''}" + (
            "" if self.season is None else f":{self.season}")

    @classmethod
    def parse(cls, tail: str | None) -> BoardFilter | None:
        """The filter of an id's end (``tail()`` without its first colon; ``None``:
        none); ``None`` when it names no period, preset or season of ours."""
        if tail is None:
            return cls()
        period, colon, rest = tail.partition(":")
        preset, colon_season, season = rest.partition(":")
        if (not colon or period not in PERIODS or (preset and preset not in PRESETS)
                or (colon_season and not (season.isascii() and season.isdigit()
                                          and 1 <= int(season) <= MAX_SEASON))):
            return None
        return cls(period, preset or None, int(season) if colon_season else None)


#: the highest page number a pager id may carry (a bigger one is garbled)
MAX_PAGE = 100_000


class LeaderboardButton(Placed, DynamicButton,
                        template=(r"commerce:board:(?P<guild>\d+):(?P<owner>\d+):(?P<page>\d+)"
                                  r":(?P<way>prev|next)(?::(?P<filters>[\s\S]*))?")):
    """Previous / Next under a leaderboard. The id carries the guild, the member
    who asked, the 0-based page to show and the board's filter (``BoardFilter``;
    under 90 characters in all, Discord allows 100); each click queries that
    page afresh, so the pager never expires and survives a restart. An id whose
    filter or page is not one the bot makes is refused with a short answer."""

    LABELS = {"prev": N_("Previous"), "next": N_("Next")}

    def __init__(self, guild_id: int, owner_id: int, page: int, way: str,
                 disabled: bool = False, board: BoardFilter | None = None) -> None:
        """The button of ``owner_id``'s pager that shows page ``page`` (0-based) of
        guild ``guild_id``'s leaderboard of ``board`` (``None``: a garbled id,
        refused); ``way``: ``prev`` or ``next``."""
        tail = board.tail() if board is not None else ":?"
        super().__init__(discord.ui.Button(
            label=_(self.LABELS[way]), style=discord.ButtonStyle.secondary, disabled=disabled,
            custom_id=f"commerce:board:{guild_id}:{owner_id}:{page}:{way}{tail}"))
        self.guild_id, self.owner_id, self.page, self.way = guild_id, owner_id, page, way
        self.board = board

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> LeaderboardButton:
        """Rebuild the button from its ``custom_id`` (discord.py calls this on a click)."""
        page = int(match["page"])
        board = BoardFilter.parse(match["filters"]) if page <= MAX_PAGE else None
        return cls(int(match["guild"]), int(match["owner"]), min(page, MAX_PAGE), match["way"],
                   board=board)

    def refusal(self, interaction: discord.Interaction) -> str | None:
        """Refuse a click in another guild, by anyone but the member who asked, or
        on an id the bot did not make."""
        if interaction.guild_id != self.guild_id:
            return NOT_HERE
        if interaction.user.id != self.owner_id:
            return _("These pages are not for you. Only the member who asked can turn them: "
                     "run /commerce leaderboard for your own.")
        if self.board is None:
            return _("That button is not one of ours. Run /commerce leaderboard again.")
        return None

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the page to show, and the board's filter, to the handlers' ``on_page``."""
        assert self.board is not None  # refused before
        await handlers(interaction).on_page(interaction, self.guild_id, self.page, self.board)


class ConfirmButton(Placed, DynamicButton,
                    template=(r"commerce:(?P<question>reset|season):(?P<guild>\d+):(?P<owner>\d+)"
                              r":(?P<expires>\d+):(?P<answer>confirm|cancel)")):
    """Confirm / Cancel of a manager's question: ``reset`` (``/commerce-admin
    reset-ledger``) or ``season`` (``/commerce-admin season``). The id carries the
    question, the guild, the manager who asked and when the question expires (unix
    seconds); a later click is told to run the command again."""

    #: the Confirm button's label of each question
    CONFIRM = {"reset": N_("Confirm"), "season": N_("Start the new season")}

    def __init__(self, question: str, guild_id: int, owner_id: int, expires: int,
                 answer: str) -> None:
        """``answer`` (``confirm`` or ``cancel``) to ``owner_id``'s ``question`` in
        guild ``guild_id``, valid until ``expires`` (unix seconds)."""
        label, style = ((self.CONFIRM[question], discord.ButtonStyle.danger) if answer == "confirm"
                        else (N_("Cancel"), discord.ButtonStyle.secondary))
        super().__init__(discord.ui.Button(
            label=_(label), style=style,
            custom_id=f"commerce:{question}:{guild_id}:{owner_id}:{expires}:{answer}"))
        self.question, self.guild_id, self.owner_id = question, guild_id, owner_id
        self.expires, self.answer = expires, answer

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> ConfirmButton:
        """Rebuild the button from its ``custom_id`` (discord.py calls this on a click)."""
        guild, owner, expires = map(int, match.group("guild", "owner", "expires"))
        return cls(match["question"], guild, owner, expires, match["answer"])

    def refusal(self, interaction: discord.Interaction) -> str | None:
        """Refuse a click in another guild, or by anyone but the manager who asked."""
        if interaction.guild_id != self.guild_id:
            return NOT_HERE
        if interaction.user.id != self.owner_id:
            return _("This question is not for you.")
        return None

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the answer (Confirm: ``True``) to the handlers' ``on_confirm``."""
        await handlers(interaction).on_confirm(
            interaction, self.question, self.expires, self.answer == "confirm")


@dataclass(frozen=True)
class HistoryState:
    """What a history message shows; it lives in its controls' ids.

    Attributes:
        view: ``list`` (a page of games), ``game`` (one game and its deals),
            ``deal`` (one deal), ``step`` (a deal replayed up to a step) or
            ``export`` (send the game's record).
        page: the 0-based page of the list to go back to.
        table: the game's table id (0 in the list).
        deal: the deal number, from 1 (0 when none).
        step: operations of the deal replayed (``step`` view).
    """

    view: str
    page: int = 0
    table: int = 0
    deal: int = 0
    step: int = 0


HISTORY_VIEWS = ("list", "game", "deal", "step", "export")


class HistoryButton(Placed, DynamicButton,
                    template=(r"commerce:hist:(?P<guild>\d+):(?P<view>list|game|deal|step|export)"
                              r":(?P<page>\d+):(?P<table>\d+):(?P<deal>\d+):(?P<step>\d+)"
                              r":(?P<tag>[a-z]{1,8})")):
    """A button of a ``/commerce history`` message: the state it leads to is in
    its id (guild, view, page, table, deal, step; ``tag`` keeps two buttons that
    lead to the same state apart), so it works after any wait and a restart."""

    def __init__(self, guild_id: int, state: HistoryState, tag: str, label: str,
                 disabled: bool = False, row: int | None = None) -> None:
        """The button of guild ``guild_id``'s history leading to ``state``."""
        s = state
        super().__init__(discord.ui.Button(
            label=label, style=discord.ButtonStyle.secondary, disabled=disabled, row=row,
            custom_id=f"commerce:hist:{guild_id}:{s.view}:{s.page}:{s.table}:{s.deal}:{s.step}"
                      f":{tag}"))
        self.guild_id, self.state, self.tag = guild_id, state, tag

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> HistoryButton:
        """Rebuild the button from its ``custom_id`` (discord.py calls this on a click)."""
        state = HistoryState(match["view"], int(match["page"]), int(match["table"]),
                             int(match["deal"]), int(match["step"]))
        return cls(int(match["guild"]), state, match["tag"], "?")

    def refusal(self, interaction: discord.Interaction) -> str | None:
        """Refuse a click in another guild."""
        return NOT_HERE if interaction.guild_id != self.guild_id else None

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the state to show to the handlers' ``on_history``."""
        await handlers(interaction).on_history(interaction, self.guild_id, self.state)


class HistorySelect(Placed, DynamicSelect,
                    template=r"commerce:histsel:(?P<guild>\d+):(?P<page>\d+):(?P<table>\d+)"):
    """The menu of a ``/commerce history`` message: a game of the list (``table``
    0; the option values are table ids) or a deal of a game (the values are deal
    numbers)."""

    def __init__(self, guild_id: int, page: int, table: int,
                 choices: list[tuple[str, str]] | None = None, placeholder: str = "?") -> None:
        """The menu of page ``page`` (``table`` 0) or of game ``table``;
        ``choices``: ``(label, value)`` pairs, the first 25 shown."""
        options = [discord.SelectOption(label=label[:100], value=value)
                   for label, value in (choices or [])[:25]]
        super().__init__(discord.ui.Select(
            placeholder=placeholder,
            options=options or [discord.SelectOption(label="?", value="0")],
            custom_id=f"commerce:histsel:{guild_id}:{page}:{table}"))
        self.guild_id, self.page, self.table = guild_id, page, table

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> HistorySelect:
        """Rebuild the menu from its ``custom_id`` (discord.py calls this on a click)."""
        return cls(int(match["guild"]), int(match["page"]), int(match["table"]))

    def refusal(self, interaction: discord.Interaction) -> str | None:
        """Refuse a choice made in another guild."""
        return NOT_HERE if interaction.guild_id != self.guild_id else None

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the chosen game (or deal) to the handlers' ``on_history``."""
        data = cast("SelectMessageComponentInteractionData | None", interaction.data)
        values = (data.get("values") if data else None) or []
        chosen = int(values[0]) if values and values[0].isdigit() else 0
        chosen = chosen if chosen <= ID_MAX else 0  # a forged value: no such game or deal
        if self.table == 0:
            state = HistoryState("game", self.page, table=chosen)
        else:
            state = HistoryState("deal", self.page, table=self.table, deal=chosen)
        await handlers(interaction).on_history(interaction, self.guild_id, state)


class ReviewButton(Placed, DynamicButton,
                   template=(r"commerce:review:(?P<guild>\d+):(?P<table>\d+):(?P<page>\d{1,4})"
                             r":(?P<way>open|prev|next)")):
    """Review, under a game's final standings, and Previous / Next under a review:
    the id carries the guild, the game's table and the 0-based page. Whoever
    presses sees their own review only (``ReviewHandlers.on_review``), so the
    button needs no owner; it works after any wait and a restart."""

    LABELS = {"open": N_("Review"), "prev": N_("Previous"), "next": N_("Next")}

    def __init__(self, guild_id: int, table_id: int, page: int, way: str,
                 disabled: bool = False) -> None:
        """The button of guild ``guild_id``'s game at ``table_id`` leading to
        ``page``; ``way``: ``open`` (a new message), ``prev`` or ``next``."""
        super().__init__(discord.ui.Button(
            label=_(self.LABELS[way]), disabled=disabled,
            style=discord.ButtonStyle.primary if way == "open" else discord.ButtonStyle.secondary,
            custom_id=f"commerce:review:{guild_id}:{table_id}:{page}:{way}"))
        self.guild_id, self.table_id, self.page, self.way = guild_id, table_id, page, way

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> ReviewButton:
        """Rebuild the button from its ``custom_id`` (discord.py calls this on a click)."""
        return cls(int(match["guild"]), int(match["table"]), int(match["page"]), match["way"])

    def refusal(self, interaction: discord.Interaction) -> str | None:
        """Refuse a click in another guild (the game is over: no table check)."""
        return NOT_HERE if interaction.guild_id != self.guild_id else None

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the page to show to the handlers' ``on_review``."""
        await handlers(interaction).on_review(interaction, self.guild_id, self.table_id,
                                              self.page, self.way == "open")


DYNAMIC_ITEMS = (LobbyButton, PlayButton, AnswerButton, CardSelect, PickButton, NextDealButton,
                 CutButton, ProofButton, LeaderboardButton, ConfirmButton, HistoryButton,
                 HistorySelect, ReviewButton)


def view_of(*items: discord.ui.Item[Any]) -> discord.ui.View:
    """A ``timeout=None`` view holding ``items`` (persistent through DynamicItems)."""
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view


def dynamic_view(*items: discord.ui.Item[Any]) -> discord.ui.View:
    """A view of ``DynamicItem``s, or of the items they wrap (``PickButton.button``,
    ``CardSelect.menu``), to send ephemerally. It is stopped at once: the items
    are dispatched by their ``custom_id`` through ``add_dynamic_items``, so
    discord.py need not keep (and time out) a stored view for each select, and
    never calls the items it holds."""
    view = view_of(*items)
    view.stop()
    return view


class PanelControls(discord.ui.View):
    """A panel's controls as they are sent: their components' payloads, made
    straight (``pick_payload``, ``menu_payload``) rather than through
    discord.py's ``Button`` and ``Select`` (a panel is built at every move; its
    items cost more to make than all else of its controls; ``bot.ui.panel``).
    It has no timeout and is sent as any
    view (``to_components``) and stopped at once, as ``dynamic_view``:
    the items are dispatched by their ``custom_id`` to ``PickButton`` and
    ``CardSelect`` (``add_dynamic_items``), so discord.py keeps no view for it.

    Args:
        rows: by row (0 to 4), the components' payloads in that row, in order.
    """

    def __init__(self, rows: dict[int, list[dict[str, Any]]]) -> None:
        """Controls of these ``rows``, stopped."""
        super().__init__(timeout=None)
        self.rows = rows
        self.stop()

    def to_components(self) -> list[dict[str, Any]]:
        """The rows of components, top to bottom, as discord.py's ``View`` gives them."""
        return [{"type": 1, "components": [dict(c) for c in self.rows[row]]}
                for row in sorted(self.rows) if self.rows[row]]

    def is_finished(self) -> bool:
        """Always (stopped at once, even when made outside an event loop)."""
        return True

    def is_dispatchable(self) -> bool:
        """Never: its items are dispatched by their ``custom_id``."""
        return False


def pick_payload(table: int, number: int, seq: int, action: str, value: str | None = None, *,
                 label: str, style: discord.ButtonStyle) -> dict[str, Any]:
    """The payload of ``PickButton.button`` of these arguments (its ``custom_id``,
    label and style): what discord.py's ``Button.to_component_dict`` gives."""
    tail = f":{value}" if value is not None else ""
    return {"type": 2, "style": style.value, "disabled": False, "label": label[:80],
            "custom_id": f"commerce:pick:{table}:{number}:{seq}:{action}{tail}"}


def menu_payload(table: int, number: int, seq: int, action: str,
                 options: list[tuple[str, str]], placeholder: str) -> dict[str, Any]:
    """The payload of ``CardSelect.menu`` of these arguments (its first 25
    ``(label, value)`` options): what discord.py's ``Select.to_component_dict``
    gives."""
    shown = [{"label": label, "value": value, "default": False} for label, value in options[:25]]
    return {"type": 3, "custom_id": f"commerce:card:{table}:{number}:{seq}:{action}",
            "min_values": 1, "max_values": 1, "disabled": False, "required": True,
            "placeholder": placeholder,
            "options": shown or [{"label": "?", "value": "?", "default": False}]}


def lobby_view(table_id: int) -> discord.ui.View:
    """The lobby's buttons: Join, Leave, Add AI, Start and Cut."""
    return view_of(*(LobbyButton(table_id, a) for a in ("join", "leave", "ai", "start")),
                   CutButton(table_id))


def table_view(table_id: int, deal: int, controls: Controls, *, seq: int = 0,
               away: bool = False) -> discord.ui.View:
    """The table message's buttons: My hand and the deal's ``controls``
    (``DealBase.controls``): its move buttons (foster: Trade, Barter, Knock) or,
    while an offer waits for its answer, its answers (Accept / Refuse) for the
    offer made at operation count ``seq``; ``I'm back`` too while a seat is away.
    The buttons are sent bare, in a stopped view (``dynamic_view``): discord.py
    dispatches their clicks by ``custom_id`` (``PlayButton``, ``AnswerButton``)."""
    return _table_view(table_id, deal, controls.moves, controls.answers,
                       seq if controls.answers else 0, away, i18n.current())


@functools.lru_cache(maxsize=512)
def _table_view(table_id: int, deal: int, moves: tuple[str, ...], answers: tuple[str, ...],
                seq: int, away: bool, language: str) -> discord.ui.View:
    """``table_view``'s view, in ``language`` (the current one): the bare buttons
    (``PlayButton.button``, ``AnswerButton.button``) in a stopped view
    (``dynamic_view``), which nothing changes once made, so the same moment's
    controls (a deal's move buttons stay the same from move to move) are made once."""
    items: list[discord.ui.Item[Any]] = [PlayButton.button(table_id, deal, "hand")]
    items += [PlayButton.button(table_id, deal, a) for a in moves]
    items += [AnswerButton.button(table_id, deal, seq, a) for a in answers]
    if away:
        items.append(PlayButton.button(table_id, deal, "back"))
    return dynamic_view(*items)


def table_controls(live: LiveTable, frame: bool = False) -> discord.ui.View | None:
    """The table message's controls now (``table_view``; ``None`` once the deal
    is over; no answers while an offer waits for a member: ``offered_to_member``);
    for a step being shown (``frame``), My hand only (and I'm back while a seat
    is away): nobody acts on a step the table is still reading."""
    deal = live.deal
    away = any(s.away for s in live.seats)
    if frame:
        return table_view(live.id, live.deal_number, Controls(), away=away)
    if deal is None or deal.finished:
        return None
    controls = deal.controls()
    if offered_to_member(live):  # its answers are on the offer's own message, said once
        controls = Controls(moves=controls.moves, private=controls.private)
    return table_view(live.id, live.deal_number, controls, seq=len(deal.operations),
                      away=away)


def offered_to_member(live: LiveTable) -> bool:
    """Whether an offer waits for a member's answer (not an AI's): its message
    (``render.offer_ping``) pings them and carries the answers, so the table
    message does neither."""
    deal = live.deal
    return (deal is not None and not deal.finished and deal.pending is not None
            and deal.to_act is not None and not live.is_ai(deal.to_act))


def answer_buttons(table_id: int, deal: int, seq: int,
                   answers: tuple[str, ...]) -> list[AnswerButton]:
    """The answers to the offer made at operation count ``seq``: Accept, and how
    its target says no where the rules allow it (Refuse by knocking, or Decline
    a direct trade: ``Controls.answers``)."""
    return [AnswerButton(table_id, deal, seq, a) for a in answers]


def answers_view(table_id: int, deal: int, seq: int, answers: tuple[str, ...]) -> discord.ui.View:
    """An offer's own message's controls: ``answer_buttons``' answers as bare buttons
    (``AnswerButton.button``) in a stopped view (``dynamic_view``)."""
    return dynamic_view(*(AnswerButton.button(table_id, deal, seq, a) for a in answers))


def pager_view(guild_id: int, owner_id: int, page: int, pages: int,
               board: BoardFilter | None = None) -> discord.ui.View | None:
    """Previous / Next for page ``page`` (0-based) of ``pages`` of the leaderboard
    of ``board`` (default: the whole ledger); ``None`` when everything fits on
    one page."""
    if pages <= 1:
        return None
    board = board or BoardFilter()
    return view_of(LeaderboardButton(guild_id, owner_id, max(page - 1, 0), "prev",
                                     disabled=page <= 0, board=board),
                   LeaderboardButton(guild_id, owner_id, min(page + 1, pages - 1), "next",
                                     disabled=page >= pages - 1, board=board))


def confirm_view(question: str, guild_id: int, owner_id: int, now: float) -> discord.ui.View:
    """Confirm / Cancel of ``question`` (``reset`` or ``season``) asked at ``now``
    (unix seconds), answerable for ``CONFIRM_SECONDS``."""
    expires = int(now) + CONFIRM_SECONDS
    return view_of(*(ConfirmButton(question, guild_id, owner_id, expires, a)
                     for a in ("confirm", "cancel")))
