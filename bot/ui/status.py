"""The one line that says what a table awaits — whose move, whose answer, the
dealer's widow choice, a horse to buy — or that its deal is over, in the two
wordings the bot shows: the table message's bold line (``render.table_status``,
``MESSAGE``) and the short status of the table picture (``pictures``,
``PICTURE``). Which case applies is decided here once, from the public
observation; one table of templates (``WORDS``) says it in each wording.
"""

from __future__ import annotations

from collections.abc import Callable

from ..engine import Observation
from .words import plural

#: the two wordings, as indices into ``WORDS``' pairs
MESSAGE, PICTURE = 0, 1

#: each case's template in the table message's wording and the picture's. Fields:
#: ``{a}`` (who offered) and ``{b}`` (who answers) for an offer, ``{seat}`` for the
#: seat awaited (the dealer for the widow choice), ``{middle}`` (``widow`` or
#: ``middle``), ``{turns}`` (the final round's turns left, in words)
WORDS: dict[str, tuple[str, str]] = {
    "voided": ("The table was closed: this deal was voided and its stakes and fees refunded.",
               "This deal is over"),
    "over": ("This deal is over: see the showdown below.", "This deal is over"),
    "barter": ("Waiting for {b} to answer {a}'s barter.", "{b} to answer {a}'s barter"),
    "offer": ("Waiting for {b} to answer {a}'s trade offer.",
              "{b} to answer {a}'s trade offer"),
    "choice": ("The dealer, {seat}, may take the widow or keep their hand.",
               "{seat}, the dealer, may take the {middle}"),
    "horse": ("{seat} lost their last life: buy a horse?", "{seat} may buy a horse"),
    "to_act": ("To act: {seat}", "To act: {seat}"),
    "drawing": (" (holding a drawn card)", " (holding a drawn card)"),
    "final": (" · final round after the knock ({turns} left)", " · final round, {turns} left"),
}


def middle_word(obs: Observation) -> str:
    """What the cards in the middle are called: the ``middle`` (oldway, whose
    players have lives) or the ``widow``."""
    return "middle" if obs.rules.lives else "widow"


def status_line(obs: Observation, name: Callable[[int], str], wording: int) -> str:
    """What the table of the public observation ``obs`` awaits, in ``wording``
    (``MESSAGE`` or ``PICTURE``), each seat named by ``name`` (plain for
    pictures, markdown-safe for messages); ``""`` when the deal is open and
    nobody is to act."""
    def say(case: str, **fields: str) -> str:
        return WORDS[case][wording].format(**fields)

    if obs.finished:
        return say("over" if obs.showdown is not None else "voided")
    if obs.barter is not None:
        return say("barter", a=name(obs.barter[0]), b=name(obs.barter[1]))
    if obs.offer is not None:
        return say("offer", a=name(obs.offer[0]), b=name(obs.offer[1]))
    if obs.phase == "choice":
        return say("choice", seat=name(obs.dealer), middle=middle_word(obs))
    if obs.phase == "horse" and obs.to_act is not None:
        return say("horse", seat=name(obs.to_act))
    if obs.to_act is None:
        return ""
    text = say("to_act", seat=name(obs.to_act))
    if obs.drawing is not None:
        text += say("drawing")
    if obs.phase == "final":
        text += say("final", turns=plural(obs.final_turns, "turn"))
    return text
