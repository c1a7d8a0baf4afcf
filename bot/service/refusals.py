"""The engine's and the storage's refusals in the member's language.

The engine stays free of the catalogs (tests/test_architecture.py): its errors
(``IllegalAction``, ``CutError``, ``ChoiceError``, ``RulesError``) and the
storage's ``ValueError`` of a bad setting carry English words. The service turns
them into a ``UserError`` here, at the edge: ``refusal`` gives the catalog's
words of a message with no value in it (``MESSAGES``, each the engine's own
English, marked for the catalog) and of one that names a value by its pattern
(``PATTERNS``); a message of neither stays as it is.
tests/service/test_refusals.py reads the engine's sources and fails when one of
its refusals is in neither table.
"""

from __future__ import annotations

import re

from ..i18n import N_, _

#: the engine's refusals without a value, as it words them (bot/engine)
MESSAGES = frozenset({
    N_("Unknown action."),
    N_("Wait: a trade offer is waiting for an answer."),
    N_("Wait: the player who drew is deciding."),
    N_("It is not your turn."),
    N_("There is no card left to draw."),
    N_("Draw a card first."),
    N_("Someone has already knocked: only one knock counts."),
    N_("You have no chip left to pay for a knock."),
    N_("These rules have no direct trading."),
    N_("You knocked: your hand is closed to trades."),
    N_("Offer your card to another player in this deal."),
    N_("The knocker's hand is closed to trades."),
    N_("No trade offer is waiting for your answer."),
    N_("These rules do not let you knock in the same turn."),
    N_("This deal is already over."),
    N_("Answer the trade offered to you first."),
    N_("Keep or discard the card you drew first."),
    N_("The stock is not empty: there is nothing to reshuffle."),
    N_("The stock is empty, but the draw does not say how the discard pile was reshuffled "
       "(reshuffle)."),
    N_("Choose a player to offer your card to."),
    N_("The reshuffled stock must hold the discard pile but its top."),
    N_("Type a word or a number to cut with."),
    N_("A cut may hold letters, digits, spaces and - _ . , ! ? ' # + : / ( ) & % = only."),
    N_("A cut may hold at most two accents on a letter."),
    N_("That is not a seat at this table."),
    N_("You are not dealt in this deal."),
    N_("You do not hold that card."),
    N_("Choose a card first."),
    N_("No deal is in progress."),
    N_("open_trading needs direct_trading"),
    N_("stake must be smaller than chips"),
    N_("stake does not apply with three_stake (1 chip per pot per deal)"),
    N_("Wait: a barter is waiting for an answer."),
    N_("The stock is empty."),
    N_("No barter is waiting for your answer."),
    N_("You can knock in the same turn only after a trade or a barter."),
    N_("Answer the barter offered to you first."),
    N_("Under these rules a barter must be accepted."),
    N_("There is no horse to buy now."),
    N_("Only the dealer may take the widow."),
    N_("The horse is offered to another player."),
    N_("The dealer decides about the widow first."),
    N_("Wait: the loser of the last life decides about the horse."),
    N_("The widow can only be taken by the dealer before play starts."),
    N_("You have stopped: no more changes this deal."),
    N_("Give as many cards as you take."),
    N_("Exchange exactly one card with the widow."),
    N_("Name each card once."),
    N_("That card is not in the widow."),
    N_("Under these rules you stand instead of knocking."),
    N_("Under these rules you knock instead of standing."),
    N_("These rules have no pounce."),
    N_("You can pounce only while play is on."),
    N_("Pounce needs a tricon and its fourth card in the middle."),
    N_("Choose the cards to exchange first."),
    N_("That is not the card you can pounce on."),
    N_("That choice is not valid."),
})

#: the refusals that name a value (the engine's and the storage's), by pattern, and the
#: catalog's template for each; the groups fill ``{a}``, ``{b}``, ``{c}`` in order
PATTERNS = (
    (re.compile(r"A (\w+) is not an action of this game\."), N_("A {a} is not an action of this game.")),
    (re.compile(r"A cut is at most (\d+) characters\."), N_("A cut is at most {a} characters.")),
    (re.compile(r"Exchange 1 to (\d+) cards\."), N_("Exchange 1 to {a} cards.")),
    (re.compile(r"(\w+) must be true or false"), N_("{a} must be true or false")),
    (re.compile(r"(\w+) must be a whole number from (-?\d+) to (-?\d+)"),
     N_("{a} must be a whole number from {b} to {c}")),
    (re.compile(r"(\w+) must be one of (.+?)( \(or none\))?"), N_("{a} must be one of {b}")),
    (re.compile(r"(\w+) must be (.+)"), N_("{a} must be {b}")),
    (re.compile(r"unknown option (.+) for (\S+)"), N_("unknown option {a} for {b}")),
    (re.compile(r"unknown rules preset (.+)"), N_("unknown rules preset {a}")),
    (re.compile(r"unknown settings: (.+)"), N_("unknown settings: {a}")),
    (re.compile(r"(\w+) cannot be negative"), N_("{a} cannot be negative")),
)


def refusal(exc: BaseException) -> str:
    """The words of the engine's or the storage's refusal ``exc`` in the current
    language (``str(exc)`` as it is when it is in neither table)."""
    text = str(exc)
    if text in MESSAGES:
        return _(text)
    for pattern, template in PATTERNS:
        found = pattern.fullmatch(text)
        if found is not None:
            values = [value or "" for value in found.groups()]
            if template == "{a} must be {b}":  # the values a choice allows, "x or y"
                *names, last = values[1].split(" or ")
                if names:
                    values[1] = _("{names} or {last}").format(names=", ".join(names), last=last)
            return _(template).format(**dict(zip("abc", values, strict=False)))
    return text
