"""The one vocabulary of actions (docs/RULES.md §2): every name a deal's
``legal_actions``, ``controls`` and ``choices`` use, a ``Decision.kind`` and a
control of the bot (a button or a select) carries.

``Action`` is a ``StrEnum``: a member equals its name (``Action.KNOCK ==
"knock"``), so it is written wherever a name was, and a name read back (from a
button's ``custom_id``, say) is ``Action(name)``.

A *control* is an action a player presses or picks from:

- a **button** (``BUTTONS``) makes the decision of its own kind at once, with
  no value; ``decline`` (refuse a direct trade, §2.7) makes a ``refuse``;
- a **select** (``SELECTS``) lists decisions, each option's value naming one
  (``bot.engine.choices``); ``draw_keep`` also lists ``draw_discard``, the one
  action that is no control of its own.

``MOVES`` are the controls a table message may carry (``Controls.moves``, and
``pounce`` on older messages); ``ANSWERS`` those of an offer waiting for its
answer (``Controls.answers``). Pure: no discord.
"""

from __future__ import annotations

from enum import StrEnum

__all__ = ["ANSWERS", "BUTTONS", "CONTROLS", "MOVES", "SELECTS", "Action", "control_of",
           "kind_of"]


class Action(StrEnum):
    """An action name (docs/RULES.md §2; ``Decision.kind`` and the controls)."""

    #: trade family (§2.1–§2.4): give a card and the fee to the dealer, draw the stock top
    TRADE = "trade"
    #: offer a card face down to the neighbour
    BARTER = "barter"
    #: end play (trade), take no more turns (widow), start the final round (jaques)
    KNOCK = "knock"
    #: answer an offer by giving a card back (barter, direct trade)
    ACCEPT = "accept"
    #: say no to an offer: refuse a barter by knocking (§2.1), decline a direct trade (§2.7)
    REFUSE = "refuse"
    #: the control that declines a direct trade (a ``refuse`` decision, §2.7)
    DECLINE = "decline"
    #: widow family (§2.5, §2.6): the dealer takes the widow, or keeps the dealt hand
    TAKE_WIDOW = "take_widow"
    KEEP_HAND = "keep_hand"
    #: exchange cards with the widow
    SWAP = "swap"
    #: oldway: no more changes this deal
    STAND = "stand"
    #: oldway with pounce: take the fourth card of a tricon's rank from the middle
    POUNCE = "pounce"
    #: oldway: the seat that lost its last life buys one more, or sits out
    BUY_HORSE = "buy_horse"
    DECLINE_HORSE = "decline_horse"
    #: discard family (§2.7): lay a card on the pile and take its top
    TAKE_DISCARD = "take_discard"
    #: draw the stock top, then keep it (laying a hand card) or throw it away
    DRAW = "draw"
    DRAW_KEEP = "draw_keep"
    DRAW_DISCARD = "draw_discard"
    #: pass the turn
    PASS = "pass"
    #: offer a card to another seat (direct trading)
    OFFER = "offer"


#: controls that are buttons: the decision of the same kind (``decline``: ``refuse``)
BUTTONS: frozenset[Action] = frozenset({
    Action.KNOCK, Action.STAND, Action.PASS, Action.DRAW, Action.TAKE_WIDOW, Action.KEEP_HAND,
    Action.POUNCE, Action.BUY_HORSE, Action.DECLINE_HORSE, Action.REFUSE, Action.DECLINE,
})
#: controls that are selects (each option's value names the decision, ``bot.engine.choices``)
SELECTS: frozenset[Action] = frozenset({
    Action.TRADE, Action.BARTER, Action.ACCEPT, Action.SWAP, Action.TAKE_DISCARD,
    Action.DRAW_KEEP, Action.OFFER,
})
#: every control: an action a button or a select is made for
CONTROLS: frozenset[Action] = BUTTONS | SELECTS
#: the move buttons a table message may carry (``Controls.moves``; ``pounce`` only on
#: messages sent before it became a private button)
MOVES: frozenset[Action] = frozenset({
    Action.TRADE, Action.BARTER, Action.KNOCK, Action.SWAP, Action.STAND, Action.TAKE_WIDOW,
    Action.KEEP_HAND, Action.POUNCE, Action.BUY_HORSE, Action.DECLINE_HORSE,
    Action.TAKE_DISCARD, Action.DRAW, Action.PASS, Action.OFFER,
})
#: the answers to an offer waiting for its answer (``Controls.answers``)
ANSWERS: frozenset[Action] = frozenset({Action.ACCEPT, Action.REFUSE, Action.DECLINE})


def kind_of(control: str) -> Action:
    """The decision kind a button makes: its own, ``refuse`` for ``decline``.

    Raises:
        ValueError: ``control`` is no action name.
    """
    action = Action(control)
    return Action.REFUSE if action is Action.DECLINE else action


def control_of(kind: str) -> Action:
    """The control a decision of ``kind`` is made with: its own, ``draw_keep``
    for ``draw_discard`` (an option of that select).

    Raises:
        ValueError: ``kind`` is no action name.
    """
    action = Action(kind)
    return Action.DRAW_KEEP if action is Action.DRAW_DISCARD else action
