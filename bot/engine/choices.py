"""One encoding for the controls of a deal: a ``Decision`` as the value a menu
option carries, and back, with the label a player reads (docs/RULES.md §2).

A *control* is the name of a button or a select (``trade``, ``swap``,
``decline``...: the names of ``Controls`` and ``DealBase.choices``); a select
option's *value* says which decision it is. Buttons carry no value.

============================  ==============  =====================================
control                       value           decision
============================  ==============  =====================================
``trade``, ``barter``         ``Kd``          trade / barter the K♦ (§2.1)
``trade``, ``barter``         ``Kd!``         the same, then knock (§2.2)
``accept``, ``take_discard``  ``Kd``          give back / lay the K♦ (§2.1, §2.7)
``draw_keep``                 ``Kd``          keep the drawn card, lay the K♦ (§2.7)
``draw_keep``                 ``drawn``       ``draw_discard``: throw the drawn card away
``swap``                      ``KdQs-2c3h``   give K♦ Q♠, take 2♣ 3♥ (§2.5, §2.6)
``offer``                     ``Kd@3``        offer the K♦ to seat 3 (§2.7)
``offer``                     ``Kd?``         the K♦ is chosen, the seat comes next
buttons                       none            ``Decision(control)``; ``decline``
                                              is a ``refuse`` (§2.7)
============================  ==============  =====================================

``decide(control(d), value(d)) == d`` for every decision ``d`` a deal offers.
Values are well formed or rejected here (``ChoiceError``); whether the
decision is legal is the deal's to say (``IllegalAction``). Pure: no discord.
"""

from __future__ import annotations

from collections.abc import Callable

from .actions import BUTTONS, SELECTS, Action, control_of, kind_of
from .cards import Card, card_code, card_label, hand_label, parse_card
from .family import DealBase, Decision, Observation

__all__ = [
    "BUTTONS", "MAX_OPTIONS", "SELECTS", "ChoiceError", "control", "decide", "label",
    "options", "target_options", "value",
]

#: the most options one menu may list (Discord's limit)
MAX_OPTIONS = 25
#: the controls: buttons (no value, the decision of the same kind) and selects (each
#: option's value names the decision), as ``bot.engine.actions`` lists them
assert BUTTONS.isdisjoint(SELECTS)

_THEN_KNOCK = "!"
_TO = "@"
_SEAT_NEXT = "?"
_DRAWN = "drawn"


class ChoiceError(ValueError):
    """A control or value no menu of ours produces; ``str()`` is for the player."""

    def __init__(self) -> None:
        """The one message a player sees, whatever was wrong with the value."""
        super().__init__("That choice is not valid.")


def _card(code: str) -> Card:
    try:
        return parse_card(code)
    except ValueError:
        raise ChoiceError() from None


def _cards(codes: str) -> tuple[Card, ...]:
    if not codes or len(codes) % 2:
        raise ChoiceError()
    return tuple(_card(codes[i:i + 2]) for i in range(0, len(codes), 2))


def _codes(cards: tuple[Card, ...]) -> str:
    return "".join(card_code(c) for c in cards)


def decide(control_name: str, value_text: str | None = None) -> Decision:
    """The decision a control makes: a button (``value_text`` ``None``) or a
    select option's value (see the module table).

    Raises:
        ChoiceError: an unknown control, a button given a value or a select
            given none, or a value no menu produces (a bad card code, a
            missing part, a seat that is not a number).
    """
    if control_name in BUTTONS:
        if value_text is not None:
            raise ChoiceError()
        return Decision(kind_of(control_name))
    if control_name not in SELECTS or value_text is None:
        raise ChoiceError()
    if control_name in (Action.TRADE, Action.BARTER):
        knock = value_text.endswith(_THEN_KNOCK)
        code = value_text[:-1] if knock else value_text
        return Decision(control_name, _card(code), knock=knock)
    if control_name == Action.DRAW_KEEP and value_text == _DRAWN:
        return Decision(Action.DRAW_DISCARD)
    if control_name == Action.SWAP:
        give, sep, take = value_text.partition("-")
        if not sep:
            raise ChoiceError()
        return Decision(Action.SWAP, give=_cards(give), take=_cards(take))
    if control_name == Action.OFFER:
        if value_text.endswith(_SEAT_NEXT):
            return Decision(Action.OFFER, _card(value_text[:-1]))
        code, sep, seat = value_text.partition(_TO)
        if not sep or not seat.isascii() or not seat.isdigit():
            raise ChoiceError()
        return Decision(Action.OFFER, _card(code), target=int(seat))
    return Decision(control_name, _card(value_text))


def control(decision: Decision) -> str:
    """The control ``decision`` is made with: its kind, except ``draw_discard``
    (an option of the ``draw_keep`` select; ``actions.control_of``)."""
    return control_of(decision.kind)


def value(decision: Decision) -> str | None:
    """The select option value of ``decision`` (``None``: a button makes it).

    Raises:
        ValueError: a decision no control makes (missing card, unknown kind).
    """
    kind = decision.kind
    if kind in BUTTONS:
        return None
    if kind == Action.DRAW_DISCARD:
        return _DRAWN
    if kind == Action.SWAP:
        return f"{_codes(decision.give)}-{_codes(decision.take)}"
    if kind not in SELECTS or decision.card is None:
        raise ValueError(f"no control makes {decision!r}")
    code = card_code(decision.card)
    if kind == Action.OFFER:
        return code + _SEAT_NEXT if decision.target is None else f"{code}{_TO}{decision.target}"
    return code + _THEN_KNOCK if decision.knock else code


def label(decision: Decision, obs: Observation, seat_name: Callable[[int], str]) -> str:
    """What a menu option says for ``decision``, from ``obs`` (the chooser's own
    observation: its drawn card, the discard top) and ``seat_name`` (a seat as
    shown to players). A button's decision is labelled with its action name.
    """
    kind, card = decision.kind, decision.card
    if kind == Action.SWAP:
        return f"give {hand_label(decision.give)} · take {hand_label(decision.take)}"
    if kind == Action.DRAW_DISCARD:
        drawn = "the drawn card" if obs.drawn is None else card_label(obs.drawn)
        return f"throw {drawn} away"
    if card is None:
        return kind.replace("_", " ")
    if kind == Action.TAKE_DISCARD and obs.discard_top is not None:
        return f"lay {card_label(card)}, take {card_label(obs.discard_top)}"
    if kind == Action.DRAW_KEEP and obs.drawn is not None:
        return f"keep {card_label(obs.drawn)}, lay {card_label(card)}"
    if kind == Action.OFFER:
        if decision.target is None:
            return f"offer {card_label(card)}…"
        return f"{card_label(card)} to {seat_name(decision.target)}"
    return f"{card_label(card)}, then knock" if decision.knock else card_label(card)


def _pairs(decisions: list[Decision], obs: Observation,
           seat_name: Callable[[int], str]) -> list[tuple[str, str]]:
    out = []
    for decision in decisions:
        text = value(decision)
        assert text is not None, decision
        out.append((label(decision, obs, seat_name), text))
    return out


def options(deal: DealBase, seat: int, action: str,
            seat_name: Callable[[int], str]) -> list[tuple[str, str]]:
    """``(label, value)`` of each option of the select ``action`` for ``seat`` now
    (``deal.choices``; labels from ``seat``'s own observation). An offer with
    more (card, seat) pairs than one menu holds asks for the card first
    (values ``Kd?``, then ``target_options``).
    """
    decisions = deal.choices(seat, action)
    if action == Action.OFFER and len(decisions) > MAX_OPTIONS:
        cards = dict.fromkeys(d.card for d in decisions if d.card is not None)
        decisions = [Decision(Action.OFFER, card) for card in cards]
    return _pairs(decisions, deal.observation(seat), seat_name)


def target_options(deal: DealBase, seat: int, card: Card,
                   seat_name: Callable[[int], str]) -> list[tuple[str, str]]:
    """The second step of an offer at a large table: ``(label, value)`` of each
    seat ``seat`` may offer ``card`` to, at most ``MAX_OPTIONS``."""
    decisions = [d for d in deal.choices(seat, Action.OFFER) if d.card == card]
    return _pairs(decisions[:MAX_OPTIONS], deal.observation(seat), seat_name)
