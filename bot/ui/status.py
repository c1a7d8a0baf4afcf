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
from ..i18n import N_, _, ngettext
from .words import plural

#: the two wordings, as indices into ``WORDS``' pairs
MESSAGE, PICTURE = 0, 1

#: each case's template in the table message's wording and the picture's, as
#: message ids of the catalogs (worded in the current language when said). Fields:
#: ``{name}`` (the seat awaited, or who offered) and ``{target}`` (who answers)
WORDS: dict[str, tuple[str, str]] = {
    "voided": (N_("The table was closed: this deal was voided and its stakes and fees refunded."),
               N_("This deal is over")),
    "over": (N_("This deal is over: see the showdown below."), N_("This deal is over")),
    "barter": (N_("Waiting for {target} to answer {name}'s barter."),
               N_("{target} to answer {name}'s barter")),
    "offer": (N_("Waiting for {target} to answer {name}'s trade offer."),
              N_("{target} to answer {name}'s trade offer")),
    "choice": (N_("The dealer, {name}, may take the widow or keep their hand."),
               N_("{name}, the dealer, may take the widow")),
    "choice_middle": (N_("The dealer, {name}, may take the widow or keep their hand."),
                      N_("{name}, the dealer, may take the middle")),
    "horse": (N_("{name} lost their last life: buy a horse?"), N_("{name} may buy a horse")),
    "to_act": (N_("To act: {name}"), N_("To act: {name}")),
    "drawing": (N_(" (holding a drawn card)"), N_(" (holding a drawn card)")),
}


def middle_word(obs: Observation) -> str:
    """What the cards in the middle are called, in the current language: the
    ``middle`` (oldway, whose players have lives) or the ``widow``."""
    return _("middle") if obs.rules.lives else _("widow")


def _final_round(turns: int, wording: int) -> str:
    """The final round's note after the knock, ``turns`` turns left."""
    if wording == MESSAGE:
        return _(" · final round after the knock ({turns} left)").format(
            turns=plural(turns, "turn"))
    return " · " + ngettext("final round, {count} turn left", "final round, {count} turns left",
                            turns).format(count=turns)


def status_line(obs: Observation, name: Callable[[int], str], wording: int) -> str:
    """What the table of the public observation ``obs`` awaits, in ``wording``
    (``MESSAGE`` or ``PICTURE``) and the current language, each seat named by
    ``name`` (plain for pictures, markdown-safe for messages); ``""`` when the deal
    is open and nobody is to act."""
    def say(case: str, **fields: str) -> str:
        return _(WORDS[case][wording]).format(**fields)

    if obs.finished:
        return say("over" if obs.showdown is not None else "voided")
    if obs.barter is not None:
        return say("barter", name=name(obs.barter[0]), target=name(obs.barter[1]))
    if obs.offer is not None:
        return say("offer", name=name(obs.offer[0]), target=name(obs.offer[1]))
    if obs.phase == "choice":
        return say("choice_middle" if obs.rules.lives else "choice", name=name(obs.dealer))
    if obs.phase == "horse" and obs.to_act is not None:
        return say("horse", name=name(obs.to_act))
    if obs.to_act is None:
        return ""
    text = say("to_act", name=name(obs.to_act))
    if obs.drawing is not None:
        text += say("drawing")
    if obs.phase == "final":
        text += _final_round(obs.final_turns, wording)
    return text
