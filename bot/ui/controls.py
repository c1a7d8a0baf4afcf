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
from ..i18n import N_, _

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
    "hand": Control(N_("My hand"), _PRIMARY),
    Action.TRADE: Control(
        N_("Trade"), placeholder=N_("Card to give the dealer"),
        prompt=N_("Pick the card you give the dealer (you pay 1 point unless you deal).")),
    Action.BARTER: Control(
        N_("Barter"), placeholder=N_("Card to offer your neighbour"),
        prompt=N_("Pick the card you offer face down to {neighbour}.")),
    Action.ACCEPT: Control(
        N_("Accept"), _SUCCESS, placeholder=N_("Card to give back"),
        prompt=N_("Pick the card you give back. You see the offered card once the swap is made.")),
    Action.KNOCK: Control(N_("Knock"), _DANGER),
    "back": Control(N_("I'm back"), _SUCCESS),
    Action.SWAP: Control(
        N_("Swap"), placeholder=N_("What to give and what to take"),
        prompt=N_("Pick what you put into the middle and what you take from it.")),
    Action.STAND: Control(N_("Stand"), _DANGER),
    Action.TAKE_WIDOW: Control(N_("Take the widow"), _SUCCESS),
    Action.KEEP_HAND: Control(N_("Keep my hand")),
    Action.POUNCE: Control(N_("Pounce!"), _DANGER),
    Action.BUY_HORSE: Control(N_("Buy a horse (1 point)"), _SUCCESS),
    Action.DECLINE_HORSE: Control(N_("No horse")),
    Action.TAKE_DISCARD: Control(
        N_("Take discard"), placeholder=N_("Card to lay on the pile"),
        prompt=N_("Pick the card you lay on the pile; you take the top discard.")),
    Action.DRAW_KEEP: Control(
        N_("Keep the drawn card"), placeholder=N_("Keep the drawn card, or throw it away"),
        prompt=N_("Keep the drawn card (and lay one of yours on the pile), or throw it away.")),
    Action.DRAW: Control(N_("Draw"), panel_style=_PRIMARY),
    Action.PASS: Control(N_("Pass")),
    Action.OFFER: Control(
        N_("Offer a trade"), placeholder=N_("Card to offer, and to whom"),
        prompt=N_("Pick the card you offer, and to whom.")),
    Action.REFUSE: Control(N_("Refuse (knock)"), _DANGER),
    Action.DECLINE: Control(N_("Decline"), _DANGER),
    Action.DRAW_DISCARD: Control(N_("Throw it away")),
    "hint": Control(N_("Hint")),
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
    return name.replace("_", " ") if control is None else _(control.label)
