"""The player's own move, confirmed to them first: one line in the second person
naming the cards they gave and got ("You laid 7♤ on the pile and took Q♡.").

One function per family of deal (docs/RULES.md §2): ``trade_family`` (trade
and barter, §2.1–§2.4), ``widow_family`` (widow and oldway, §2.5–§2.6) and
``discard_family`` (jaques, §2.7); ``confirmation`` picks the one of the deal.
Each reads the move's operation (what the player chose), the player's own
observation before it and the deal after it (what they got, and an answer an
AI seat gave at once).

These lines name cards only the player may see (the card a trade drew, a
barter's cards, a drawn card): they are only ever sent ephemerally, to that
player, as the first line of their panel.
"""

from __future__ import annotations

from collections.abc import Callable

from ..engine import AnyDeal, Card, Observation, Operation, PublicEvent
from ..i18n import _
from ..service import LiveTable
from .cards import card_label, hand_label
from .render import seat_name
from .words import plural


def _name(live: LiveTable, seat: int | None) -> str:
    """A seat by name (never a mention); ``"them"`` when unknown."""
    return _("them") if seat is None else seat_name(live, seat)


def _got(before: Observation, deal: AnyDeal, seat: int) -> list[Card]:
    """The cards ``seat`` holds now that it did not hold before its move."""
    old = before.hand or ()
    return [c for c in deal.hands[seat] if c not in old]


def _own_event(deal: AnyDeal, seat: int, kind: str) -> PublicEvent | None:
    """The latest public event of ``kind`` made by ``seat``."""
    return next((e for e in reversed(deal.events) if e.kind == kind and e.seat == seat), None)


#: the public events of an answer to an offer, and which of their seats answered
#: (the other is the offerer's)
ANSWERS = {"barter_accept": "target", "barter_refuse": "seat", "offer_accept": "target",
           "offer_refuse": "target"}


def _offerer(deal: AnyDeal, seat: int) -> int | None:
    """The seat whose offer ``seat`` answered last (``None``: none found)."""
    for event in reversed(deal.events):
        side = ANSWERS.get(event.kind)
        if side is not None and getattr(event, side) == seat:
            return event.target if side == "seat" else event.seat
    return None


def trade_family(live: LiveTable, deal: AnyDeal, seat: int, op: Operation,
                 before: Observation) -> str:
    """A trade, a barter offer, a barter answer or a knock (docs/RULES.md §2.1–§2.4).

    Args:
        live: the table (its seats' names).
        deal: the deal the move was made in, after it (and after any AI answer).
        seat: the player's seat.
        op: the player's operation.
        before: the player's own observation just before the move.

    Returns:
        one line, e.g. ``"You traded 7♤ and drew K♡ (1 point to Ben, the dealer)."``.
    """
    card = getattr(op, "card", None)
    given = card_label(card) if card is not None else ""
    got = hand_label(_got(before, deal, seat))
    rules = deal.rules
    if op.kind == "trade":
        face = _(" face up") if rules.traded_card == "face_up" else ""
        fee = (_(" ({points} to {name}, the dealer)").format(
            points=plural(rules.trade_fee, 'point'), name=_name(live, deal.dealer))
               if seat != deal.dealer and rules.trade_fee else "")
        text = _("You traded {given}{face} and drew {got}{fee}.").format(
            given=given, face=face, got=got, fee=fee)
    elif op.kind == "barter_offer":
        neighbour = _name(live, deal.neighbour(seat))
        if deal.pending is not None and deal.pending.seat == seat:
            text = _("You offered {given} face down to {name}: waiting for their answer.").format(
                given=given, name=neighbour)
        elif got:
            text = _("You bartered {given} with {name} and got {got}.").format(
                given=given, name=neighbour, got=got)
        else:
            text = _("You offered {given} to {name}, who refused by knocking: you keep it.").format(
                given=given, name=neighbour)
    elif op.kind == "barter_answer":
        offerer = _name(live, _offerer(deal, seat))
        text = (_("You gave {given} to {name} and got {got} in the barter.") if card is not None
                else _("You refused {name}'s barter by knocking: the deal goes to the showdown.")
                ).format(given=given, name=offerer, got=got)
    else:
        text = _("You knocked: the deal goes to the showdown.")
    if getattr(op, "knock", False):
        waiting = deal.pending is not None and deal.pending.seat == seat
        text += " " + (_("You knock once they answer.") if waiting else _("You knocked."))
    return text


def widow_family(live: LiveTable, deal: AnyDeal, seat: int, op: Operation,
                 before: Observation) -> str:
    """The dealer's widow choice, a swap, a knock or stand, a pounce, the horse
    (docs/RULES.md §2.5–§2.6). Arguments and return as ``trade_family``."""
    rules = deal.rules
    if op.kind == "take_widow":
        event = _own_event(deal, seat, "take_widow")
        took = hand_label(event.taken) if event is not None else hand_label(deal.hands[seat])
        old = hand_label(event.given) if event is not None else ""
        stands = " " + _("You stand: no more changes for you this deal.") \
            if rules.widow_taker_stands else ""
        return _("You took the widow, {took}; your old hand, {old}, lies face up in the middle.") \
            .format(took=took, old=old) + stands
    if op.kind == "keep_hand":
        return _("You kept your hand: {cards}.").format(cards=hand_label(deal.hands[seat]))
    if op.kind == "swap":
        give, take = getattr(op, "give", ()), getattr(op, "take", ())
        return _("You put {given} into the middle and took {taken}.").format(
            given=hand_label(give), taken=hand_label(take))
    if op.kind == "pounce":
        card = getattr(op, "card", None)
        taken = card_label(card) if card is not None else _("the fourth card")
        return _("Pounce! You took {taken} from the middle: four of a kind, and you stand.").format(
            taken=taken)
    if op.kind == "buy_horse":
        return _("You bought a horse: {points} into the pool for one more life.").format(
            points=plural(rules.horse_price, 'point'))
    if op.kind == "decline_horse":
        return _("You declined the horse: you sit out from now on.")
    if op.kind == "stand":
        return _("You stand with {cards}: no more changes for you this deal.").format(
            cards=hand_label(deal.hands[seat]))
    return _("You knocked with {cards}: no more turns for you this deal.").format(
        cards=hand_label(deal.hands[seat]))


def discard_family(live: LiveTable, deal: AnyDeal, seat: int, op: Operation,
                   before: Observation) -> str:
    """Take the discard, draw (then keep or throw), pass, knock, offer a trade
    and answer one (docs/RULES.md §2.7). Arguments and return as ``trade_family``."""
    card = getattr(op, "card", None)
    given = card_label(card) if card is not None else ""
    got = hand_label(_got(before, deal, seat))
    if op.kind == "take_discard":
        event = _own_event(deal, seat, "take_discard")
        top = hand_label(event.taken) if event is not None else got
        return _("You laid {given} on the pile and took {taken}.").format(given=given, taken=top)
    if op.kind == "draw":
        drawn = deal.observation(seat).drawn
        shuffled = (_("The pile was shuffled into a new stock.") + " "
                    if getattr(op, "reshuffle", None) else "")
        return shuffled + (_("You drew {card} from the stock: keep it or throw it away.").format(
            card=card_label(drawn)) if drawn is not None else _("You drew from the stock."))
    if op.kind == "draw_keep":
        kept = card_label(before.drawn) if before.drawn is not None else got
        return _("You kept {kept} and laid {given} on the pile.").format(kept=kept, given=given)
    if op.kind == "draw_discard":
        thrown = card_label(before.drawn) if before.drawn is not None else _("the drawn card")
        return _("You threw the drawn card, {card}, on the pile.").format(card=thrown)
    if op.kind == "pass":
        return _("You passed.")
    if op.kind == "knock":
        paid = sum(m.amount for m in deal.movements if m.payer == seat and m.reason == "knock")
        return _("You knocked and paid {chips} into the pot: everyone else has "
                 "one more turn.").format(chips=plural(paid, 'chip'))
    if op.kind == "offer":
        target = _name(live, getattr(op, "target", None))
        if deal.pending is not None and deal.pending.seat == seat:
            return _("You offered {given} to {name}: waiting for their answer.").format(
                given=given, name=target)
        if got:
            return _("You traded {given} with {name} and got {got}.").format(
                given=given, name=target, got=got)
        return _("You offered {given} to {name}, who declined: you keep it.").format(
            given=given, name=target)
    offerer = _name(live, _offerer(deal, seat))
    if card is not None:
        return _("You gave {given} to {name} and got {got}.").format(given=given, name=offerer, got=got)
    return _("You declined {name}'s trade.").format(name=offerer)


#: the confirmation of each family of deal (``Observation.family``)
FAMILIES: dict[str, Callable[[LiveTable, AnyDeal, int, Operation, Observation], str]] = {
    "trade": trade_family,
    "widow": widow_family,
    "discard": discard_family,
}


def confirmation(live: LiveTable, deal_number: int, before: Observation, op: Operation) -> str:
    """The one line that confirms the player's own move, first in their panel.

    Args:
        live: the table after the move (its service committed it).
        deal_number: the 1-based number of the deal the move was made in.
        before: the player's own observation just before the move
            (``before.seat`` is the player).
        op: the operation the move made (``TableService.act`` returns it).

    Returns:
        one line in the second person naming the cards the player gave and got;
        it may name cards only the player may see: send it ephemerally only.

    Raises:
        ValueError: ``before`` is the public observation, or the deal is unknown.
    """
    if before.seat is None or live.game is None or not 0 < deal_number <= len(live.game.deals):
        raise ValueError("a confirmation needs the player's own observation of a known deal")
    deal = live.game.deals[deal_number - 1]
    return FAMILIES[before.family](live, deal, before.seat, op, before)
