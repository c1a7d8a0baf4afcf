"""Persistent controls: ``DynamicItem`` buttons and selects whose ``custom_id``
carries the table, the deal and (for one-shot controls) the operation count, so
they keep working after a restart and a stale or repeated click is refused.

Callbacks only parse ids and hand over to the ``Play`` cog.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from ..engine import Card, card_code, card_label

if TYPE_CHECKING:
    from cogs.play import Play


def _play(interaction: discord.Interaction) -> Play:
    cog = interaction.client.get_cog("Play")  # type: ignore[attr-defined]
    assert cog is not None
    return cog  # type: ignore[no-any-return]


class LobbyButton(discord.ui.DynamicItem[discord.ui.Button], template=r"commerce:lobby:(?P<table>\d+):(?P<action>join|leave|ai|start)"):  # type: ignore[call-arg]  # noqa: E501
    """Join / Leave / Add AI / Start on the lobby message."""

    STYLES = {
        "join": ("Join", discord.ButtonStyle.success),
        "leave": ("Leave", discord.ButtonStyle.secondary),
        "ai": ("Add AI", discord.ButtonStyle.secondary),
        "start": ("Start", discord.ButtonStyle.primary),
    }

    def __init__(self, table_id: int, action: str) -> None:
        label, style = self.STYLES[action]
        super().__init__(discord.ui.Button(
            label=label, style=style, custom_id=f"commerce:lobby:{table_id}:{action}"))
        self.table_id, self.action = table_id, action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],  # noqa: D102
                             match: re.Match[str]) -> LobbyButton:
        return cls(int(match["table"]), match["action"])

    async def callback(self, interaction: discord.Interaction) -> None:  # noqa: D102
        await _play(interaction).on_lobby(interaction, self.table_id, self.action)


class PlayButton(discord.ui.DynamicItem[discord.ui.Button], template=r"commerce:play:(?P<table>\d+):(?P<deal>\d+):(?P<action>hand|trade|barter|knock|back|swap|stand|take_widow|keep_hand|pounce|buy_horse|decline_horse|take_discard|draw|pass|offer)"):  # type: ignore[call-arg]  # noqa: E501
    """My hand / Trade / Barter / Knock on a deal's table message."""

    STYLES = {
        "hand": ("My hand", discord.ButtonStyle.primary),
        "trade": ("Trade", discord.ButtonStyle.secondary),
        "barter": ("Barter", discord.ButtonStyle.secondary),
        "knock": ("Knock", discord.ButtonStyle.danger),
        "back": ("I'm back", discord.ButtonStyle.success),
        "swap": ("Swap", discord.ButtonStyle.secondary),
        "stand": ("Stand", discord.ButtonStyle.danger),
        "take_widow": ("Take the widow", discord.ButtonStyle.success),
        "keep_hand": ("Keep my hand", discord.ButtonStyle.secondary),
        "pounce": ("Pounce!", discord.ButtonStyle.danger),
        "buy_horse": ("Buy a horse (1)", discord.ButtonStyle.success),
        "decline_horse": ("No horse", discord.ButtonStyle.secondary),
        "take_discard": ("Take discard", discord.ButtonStyle.secondary),
        "draw": ("Draw", discord.ButtonStyle.secondary),
        "pass": ("Pass", discord.ButtonStyle.secondary),
        "offer": ("Offer a trade", discord.ButtonStyle.secondary),
    }

    def __init__(self, table_id: int, deal: int, action: str) -> None:
        label, style = self.STYLES[action]
        super().__init__(discord.ui.Button(
            label=label, style=style, custom_id=f"commerce:play:{table_id}:{deal}:{action}"))
        self.table_id, self.deal, self.action = table_id, deal, action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],  # noqa: D102
                             match: re.Match[str]) -> PlayButton:
        return cls(int(match["table"]), int(match["deal"]), match["action"])

    async def callback(self, interaction: discord.Interaction) -> None:  # noqa: D102
        await _play(interaction).on_play(interaction, self.table_id, self.deal, self.action)


class AnswerButton(discord.ui.DynamicItem[discord.ui.Button], template=r"commerce:answer:(?P<table>\d+):(?P<deal>\d+):(?P<seq>\d+):(?P<action>accept|refuse|decline)"):  # type: ignore[call-arg]  # noqa: E501
    """Accept / Refuse (knock) on a barter offer, Accept / Decline on a direct trade."""

    LABELS = {"accept": "Accept", "refuse": "Refuse (knock)", "decline": "Decline"}

    def __init__(self, table_id: int, deal: int, seq: int, action: str) -> None:
        label = self.LABELS[action]
        style = discord.ButtonStyle.success if action == "accept" else discord.ButtonStyle.danger
        super().__init__(discord.ui.Button(
            label=label, style=style,
            custom_id=f"commerce:answer:{table_id}:{deal}:{seq}:{action}"))
        self.table_id, self.deal, self.seq, self.action = table_id, deal, seq, action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],  # noqa: D102
                             match: re.Match[str]) -> AnswerButton:
        return cls(int(match["table"]), int(match["deal"]), int(match["seq"]), match["action"])

    async def callback(self, interaction: discord.Interaction) -> None:  # noqa: D102
        await _play(interaction).on_answer(
            interaction, self.table_id, self.deal, self.seq, self.action)


class CardSelect(discord.ui.DynamicItem[discord.ui.Select], template=r"commerce:card:(?P<table>\d+):(?P<deal>\d+):(?P<seq>\d+):(?P<action>trade|barter|accept|swap|take_discard|draw_keep|offer)"):  # type: ignore[call-arg]  # noqa: E501
    """An ephemeral select of the player's own cards; option values are card codes."""

    PLACEHOLDERS = {
        "trade": "Card to give the dealer",
        "barter": "Card to offer your neighbour",
        "accept": "Card to give back",
        "swap": "What to give and what to take",
        "take_discard": "Card to lay on the pile",
        "draw_keep": "Keep the drawn card, or throw it away",
        "offer": "Card to offer, and to whom",
    }

    def __init__(self, table_id: int, deal: int, seq: int, action: str,
                 hand: tuple[Card, ...] = (), knock_option: bool = False,
                 choices: list[tuple[str, str]] | None = None) -> None:
        """``choices``: ``(label, value)`` pairs; by default one per card of ``hand``
        (and, with ``knock_option``, each again as "then knock", value ``code!``)."""
        if choices is None:
            choices = [(card_label(c), card_code(c)) for c in hand]
            if knock_option:  # hoyle: the exchange may end with a knock in the same turn
                choices += [(f"{card_label(c)}, then knock", card_code(c) + "!") for c in hand]
        options = [discord.SelectOption(label=label, value=value) for label, value in choices[:25]]
        super().__init__(discord.ui.Select(
            placeholder=self.PLACEHOLDERS[action],
            options=options or [discord.SelectOption(label="?", value="?")],
            custom_id=f"commerce:card:{table_id}:{deal}:{seq}:{action}"))
        self.table_id, self.deal, self.seq, self.action = table_id, deal, seq, action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],  # noqa: D102
                             match: re.Match[str]) -> CardSelect:
        return cls(int(match["table"]), int(match["deal"]), int(match["seq"]), match["action"])

    async def callback(self, interaction: discord.Interaction) -> None:  # noqa: D102
        values = (interaction.data or {}).get("values") or []  # type: ignore[union-attr]
        card = values[0] if values else None
        await _play(interaction).on_card(
            interaction, self.table_id, self.deal, self.seq, self.action, card)


class NextDealButton(discord.ui.DynamicItem[discord.ui.Button], template=r"commerce:next:(?P<table>\d+):(?P<deal>\d+)"):  # type: ignore[call-arg]  # noqa: E501
    """Next deal, on a showdown message."""

    def __init__(self, table_id: int, deal: int) -> None:
        super().__init__(discord.ui.Button(
            label="Next deal", style=discord.ButtonStyle.primary,
            custom_id=f"commerce:next:{table_id}:{deal}"))
        self.table_id, self.deal = table_id, deal

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],  # noqa: D102
                             match: re.Match[str]) -> NextDealButton:
        return cls(int(match["table"]), int(match["deal"]))

    async def callback(self, interaction: discord.Interaction) -> None:  # noqa: D102
        await _play(interaction).on_next(interaction, self.table_id, self.deal)


DYNAMIC_ITEMS = (LobbyButton, PlayButton, AnswerButton, CardSelect, NextDealButton)


def view_of(*items: discord.ui.Item[Any]) -> discord.ui.View:
    """A ``timeout=None`` view holding ``items`` (persistent through DynamicItems)."""
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view


def dynamic_view(*items: discord.ui.Item[Any]) -> discord.ui.View:
    """A view of ``DynamicItem``s to send ephemerally. It is stopped at once: the
    items are dispatched by their ``custom_id`` through ``add_dynamic_items``, so
    discord.py need not keep (and time out) a stored view for each select."""
    view = view_of(*items)
    view.stop()
    return view


def lobby_view(table_id: int) -> discord.ui.View:
    """The lobby's four buttons."""
    return view_of(*(LobbyButton(table_id, a) for a in ("join", "leave", "ai", "start")))


def table_view(table_id: int, deal: int, *, away: bool = False,
               barter_seq: int | None = None, refusal: bool = True, no: str = "refuse",
               actions: tuple[str, ...] = ("trade", "barter", "knock")) -> discord.ui.View:
    """The table message's buttons: My hand and the family's ``actions`` (foster:
    Trade, Barter, Knock) — or, while an offer waits for its answer
    (``barter_seq``), My hand with Accept / Refuse; ``I'm back`` too while a seat
    is away."""
    items: list[discord.ui.Item[Any]] = [PlayButton(table_id, deal, "hand")]
    if barter_seq is None:
        items += [PlayButton(table_id, deal, a) for a in actions]
    else:
        items += answer_buttons(table_id, deal, barter_seq, refusal, no)
    if away:
        items.append(PlayButton(table_id, deal, "back"))
    return view_of(*items)


def answer_buttons(table_id: int, deal: int, seq: int, refusal: bool,
                   no: str = "refuse") -> list[AnswerButton]:
    """Accept, and ``no`` (Refuse by knocking, or Decline a direct trade) where the
    rules allow saying no."""
    return [AnswerButton(table_id, deal, seq, a)
            for a in (("accept", no) if refusal else ("accept",))]


class Paginator(discord.ui.View):
    """A small Previous/Next paginator over pre-rendered embeds, usable only by
    the member who asked (``interaction_check``)."""

    def __init__(self, owner_id: int, pages: list[discord.Embed]) -> None:
        super().__init__(timeout=120)
        self.owner_id, self.pages, self.index = owner_id, pages, 0
        self._sync()

    def _sync(self) -> None:
        self.previous.disabled = self.index == 0
        self.next.disabled = self.index >= len(self.pages) - 1

    async def interaction_check(self, interaction: discord.Interaction) -> bool:  # noqa: D102
        if interaction.user.id != self.owner_id:
            await interaction.response.send_message(
                "Only the member who asked can turn these pages.", ephemeral=True)
            return False
        return True

    @discord.ui.button(label="Previous", style=discord.ButtonStyle.secondary)
    async def previous(self, interaction: discord.Interaction, _: discord.ui.Button[Any]) -> None:  # noqa: D102
        self.index -= 1
        self._sync()
        await interaction.response.edit_message(embed=self.pages[self.index], view=self)

    @discord.ui.button(label="Next", style=discord.ButtonStyle.secondary)
    async def next(self, interaction: discord.Interaction, _: discord.ui.Button[Any]) -> None:  # noqa: D102
        self.index += 1
        self._sync()
        await interaction.response.edit_message(embed=self.pages[self.index], view=self)


class Confirm(discord.ui.View):
    """A Confirm / Cancel question only its owner can answer; ``value`` is the
    answer (``None`` when it timed out). Await ``wait()``."""

    def __init__(self, owner_id: int, timeout: float = 60) -> None:
        super().__init__(timeout=timeout)
        self.owner_id = owner_id
        self.value: bool | None = None

    async def interaction_check(self, interaction: discord.Interaction) -> bool:  # noqa: D102
        if interaction.user.id != self.owner_id:
            await interaction.response.send_message("This question is not for you.", ephemeral=True)
            return False
        return True

    @discord.ui.button(label="Confirm", style=discord.ButtonStyle.danger)
    async def confirm(self, interaction: discord.Interaction, _: discord.ui.Button[Any]) -> None:  # noqa: D102
        self.value = True
        await interaction.response.edit_message(view=None)
        self.stop()

    @discord.ui.button(label="Cancel", style=discord.ButtonStyle.secondary)
    async def cancel(self, interaction: discord.Interaction, _: discord.ui.Button[Any]) -> None:  # noqa: D102
        self.value = False
        await interaction.response.edit_message(content="Cancelled: nothing changed.", view=None)
        self.stop()
