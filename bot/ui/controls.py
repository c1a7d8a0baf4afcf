"""The one table of the bot's game controls: for every action of the engine's
vocabulary (``bot.engine.actions.Action``), and for the table message's own
My hand and I'm back and the panel's Hint, how it is shown.

The table message's buttons (``components.PlayButton``), the answers to an
offer (``AnswerButton``), the panel's buttons and menus (``bot.ui.panel``,
``CardSelect``) and the "You may:" line of a hand (``render.hand_text``) all
take their labels, styles, placeholders and prompts from ``CONTROLS``, and the
``custom_id`` patterns of those controls are made from its names
(``pattern``): one name, one label, everywhere.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import discord

from ..engine.actions import ANSWERS, MOVES, SELECTS, Action

__all__ = ["ANSWER_NAMES", "CONTROLS", "Control", "SELECT_NAMES", "TABLE_NAMES", "label",
           "pattern"]

_PRIMARY = discord.ButtonStyle.primary
_SECONDARY = discord.ButtonStyle.secondary
_SUCCESS = discord.ButtonStyle.success
_DANGER = discord.ButtonStyle.danger


@dataclass(frozen=True)
class Control:
    """How one control is shown.

    Attributes:
        label: the button's label, and the action's name in a sentence ("You may:
            Swap, Stand."); a select's panel buttons start with it ("Trade K♥").
        style: the button's colour (a select's buttons on the panel too).
        placeholder: a select's menu placeholder (``""`` for a button).
        prompt: what a select's menu asks when it is the panel's focus
            (``{neighbour}``: the barter partner's name).
        panel_style: the button's colour on a player's panel when it is not
            ``style`` (``None``: the same).
    """

    label: str
    style: discord.ButtonStyle = _SECONDARY
    placeholder: str = ""
    prompt: str = ""
    panel_style: discord.ButtonStyle | None = None

    @property
    def on_panel(self) -> discord.ButtonStyle:
        """The button's colour on a player's panel."""
        return self.style if self.panel_style is None else self.panel_style


#: every control by name, in the order of the id patterns made from them (``pattern``)
CONTROLS: dict[str, Control] = {
    "hand": Control("My hand", _PRIMARY),
    Action.TRADE: Control(
        "Trade", placeholder="Card to give the dealer",
        prompt="Pick the card you give the dealer (you pay 1 point unless you deal)."),
    Action.BARTER: Control(
        "Barter", placeholder="Card to offer your neighbour",
        prompt="Pick the card you offer face down to {neighbour}."),
    Action.ACCEPT: Control(
        "Accept", _SUCCESS, placeholder="Card to give back",
        prompt="Pick the card you give back. You see the offered card once the swap is made."),
    Action.KNOCK: Control("Knock", _DANGER),
    "back": Control("I'm back", _SUCCESS),
    Action.SWAP: Control(
        "Swap", placeholder="What to give and what to take",
        prompt="Pick what you put into the middle and what you take from it."),
    Action.STAND: Control("Stand", _DANGER),
    Action.TAKE_WIDOW: Control("Take the widow", _SUCCESS),
    Action.KEEP_HAND: Control("Keep my hand"),
    Action.POUNCE: Control("Pounce!", _DANGER),
    Action.BUY_HORSE: Control("Buy a horse (1 point)", _SUCCESS),
    Action.DECLINE_HORSE: Control("No horse"),
    Action.TAKE_DISCARD: Control(
        "Take discard", placeholder="Card to lay on the pile",
        prompt="Pick the card you lay on the pile; you take the top discard."),
    Action.DRAW_KEEP: Control(
        "Keep the drawn card", placeholder="Keep the drawn card, or throw it away",
        prompt="Keep the drawn card (and lay one of yours on the pile), or throw it away."),
    Action.DRAW: Control("Draw", panel_style=_PRIMARY),
    Action.PASS: Control("Pass"),
    Action.OFFER: Control(
        "Offer a trade", placeholder="Card to offer, and to whom",
        prompt="Pick the card you offer, and to whom."),
    Action.REFUSE: Control("Refuse (knock)", _DANGER),
    Action.DECLINE: Control("Decline", _DANGER),
    Action.DRAW_DISCARD: Control("Throw it away"),
    "hint": Control("Hint"),
}

#: the buttons of a table message (``PlayButton``): My hand, I'm back and the moves
TABLE_NAMES: tuple[str, ...] = tuple(n for n in CONTROLS if n in MOVES or n in ("hand", "back"))
#: the answers on an offer (``AnswerButton``)
ANSWER_NAMES: tuple[str, ...] = tuple(n for n in CONTROLS if n in ANSWERS)
#: the menus of a panel (``CardSelect``)
SELECT_NAMES: tuple[str, ...] = tuple(n for n in CONTROLS if n in SELECTS)


def pattern(names: Iterable[str]) -> str:
    """The ``custom_id`` pattern that matches exactly one of ``names``
    (``trade|barter|knock``), for a ``DynamicItem`` template."""
    return "|".join(names)


def label(name: str) -> str:
    """What a control called ``name`` says (an unknown name is said as is, its
    underscores as spaces)."""
    control = CONTROLS.get(name)
    return name.replace("_", " ") if control is None else control.label
