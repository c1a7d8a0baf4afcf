"""Operations: the frozen records of applied actions (pokerkit manner).

An operation is at once the action log row in storage and a step of a game
record. It holds only what the actor chose; what follows from the deck (the
card drawn in a trade or a draw, the widow card a dealer receives) is
recomputed on replay, so a log row never needs to name a card the actor did
not already hold or see. The one exception is ``Draw.reshuffle``: the order of
a discard pile shuffled into a new stock comes from the live random source, so
it is written into the operation to make replay exact (it is never shown to
players; see docs/RECORDS.md).

``kind`` is the name of the action (and of the AI's ``Decision`` that makes it),
except the answers, whose decisions are ``accept``/``refuse``.

Trade-and-barter family: ``Trade``, ``BarterOffer``, ``BarterAnswer``, ``Knock``.
Widow family: ``TakeWidow``, ``KeepHand``, ``Swap``, ``Knock``, ``Stand``,
``Pounce``, ``BuyHorse``, ``DeclineHorse``.
Discard family: ``TakeDiscard``, ``Draw``, ``DrawKeep``, ``DrawDiscard``,
``Pass``, ``Knock``, ``Offer``, ``OfferAnswer``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from .cards import Card, card_code, parse_card


@dataclass(frozen=True)
class SeatOperation:
    """What every operation holds: the acting ``seat``. Each operation class names
    its ``kind`` where it is declared (``class Knock(SeatOperation, kind="knock")``);
    one that adds no field is this dataclass as it is (frozen, equal only to an
    operation of its own class)."""

    kind: ClassVar[str]
    seat: int

    def __init_subclass__(cls, kind: str = "", **rest: Any) -> None:
        """Set the subclass's ``kind`` (the action's name, see the module)."""
        super().__init_subclass__(**rest)
        if kind:
            cls.kind = kind


@dataclass(frozen=True)
class CardOperation(SeatOperation):
    """An operation that names one ``card``."""

    card: Card


@dataclass(frozen=True)
class CardOffer(CardOperation):
    """A card given in a trade or offered in a barter, ``knock`` ending the turn
    with a knock."""

    knock: bool = False


@dataclass(frozen=True)
class CardAnswer(SeatOperation):
    """The answer to an offer: the ``card`` given back, or ``None`` (refused)."""

    card: Card | None


class Trade(CardOffer, kind="trade"):
    """``seat`` gives ``card`` (and the fee) to the dealer and draws the stock top."""


class BarterOffer(CardOffer, kind="barter_offer"):
    """``seat`` offers ``card`` face down to its neighbour in play order."""


class BarterAnswer(CardAnswer, kind="barter_answer"):
    """The barter target ``seat`` gives ``card`` back, or refuses by knocking (``None``)."""


class Knock(SeatOperation, kind="knock"):
    """``seat`` knocks. Trade family: the deal ends at once. Widow: the seat takes
    no more turns (two knocks end the deal). Discard: the final round starts."""


# ------------------------------------------------------------------ widow family
class TakeWidow(SeatOperation, kind="take_widow"):
    """The dealer exchanges the whole hand for the widow (the old hand becomes the widow)."""


class KeepHand(SeatOperation, kind="keep_hand"):
    """The dealer declines the widow and keeps the dealt hand."""


@dataclass(frozen=True)
class Swap(SeatOperation, kind="swap"):
    """``seat`` puts ``give`` (own cards) face up in the widow and takes ``take``
    (widow cards); the same number each way."""

    give: tuple[Card, ...]
    take: tuple[Card, ...]


class Stand(SeatOperation, kind="stand"):
    """``seat`` stands (oldway): no more changes this deal."""


class Pounce(CardOperation, kind="pounce"):
    """``seat``, holding a tricon, takes ``card`` — the fourth of that rank — from the
    middle (oldway option); the seat then holds four of a kind and stands."""


class BuyHorse(SeatOperation, kind="buy_horse"):
    """``seat``, having lost the last life, buys one more (oldway)."""


class DeclineHorse(SeatOperation, kind="decline_horse"):
    """``seat``, having lost the last life, does not buy a horse and sits out."""


# ---------------------------------------------------------------- discard family
class TakeDiscard(CardOperation, kind="take_discard"):
    """``seat`` lays ``card`` face up on the discard pile and takes the old top card."""


@dataclass(frozen=True)
class Draw(SeatOperation, kind="draw"):
    """``seat`` draws the stock top (seen only by them) and must then keep it
    (``DrawKeep``) or discard it (``DrawDiscard``). ``reshuffle`` is the new stock,
    top first, when the stock was empty and the discard pile (but its top) was
    shuffled into it; else ``None``."""

    reshuffle: tuple[Card, ...] | None = None


class DrawKeep(CardOperation, kind="draw_keep"):
    """``seat`` keeps the drawn card and lays ``card`` from the hand face up on the
    discard pile."""


class DrawDiscard(SeatOperation, kind="draw_discard"):
    """``seat`` lays the drawn card face up on the discard pile at once."""


class Pass(SeatOperation, kind="pass"):
    """``seat`` passes its turn."""


@dataclass(frozen=True)
class Offer(SeatOperation, kind="offer"):
    """``seat`` offers ``card`` to ``target`` for a direct trade (jaques option)."""

    target: int
    card: Card


class OfferAnswer(CardAnswer, kind="offer_answer"):
    """The offer's target ``seat`` gives ``card`` back (the cards swap) or refuses
    (``None``)."""


Operation = (
    Trade | BarterOffer | BarterAnswer | Knock
    | TakeWidow | KeepHand | Swap | Stand | Pounce | BuyHorse | DeclineHorse
    | TakeDiscard | Draw | DrawKeep | DrawDiscard | Pass | Offer | OfferAnswer
)

_SEAT_ONLY: dict[str, type[Knock | TakeWidow | KeepHand | Stand | BuyHorse | DeclineHorse
                          | DrawDiscard | Pass]] = {
    cls.kind: cls
    for cls in (Knock, TakeWidow, KeepHand, Stand, BuyHorse, DeclineHorse, DrawDiscard, Pass)
}
_ONE_CARD: dict[str, type[Pounce | TakeDiscard | DrawKeep]] = {
    cls.kind: cls for cls in (Pounce, TakeDiscard, DrawKeep)
}
_OFFERS: dict[str, type[Trade | BarterOffer]] = {cls.kind: cls for cls in (Trade, BarterOffer)}
_ANSWERS: dict[str, type[BarterAnswer | OfferAnswer]] = {
    cls.kind: cls for cls in (BarterAnswer, OfferAnswer)
}

_KINDS: dict[str, type[Operation]] = {
    cls.kind: cls
    for cls in (
        Trade, BarterOffer, BarterAnswer, Knock, TakeWidow, KeepHand, Swap, Stand, Pounce,
        BuyHorse, DeclineHorse, TakeDiscard, Draw, DrawKeep, DrawDiscard, Pass, Offer,
        OfferAnswer,
    )
}

#: every operation kind
OPERATION_KINDS: tuple[str, ...] = tuple(_KINDS)


def operation_to_dict(op: Operation) -> dict[str, Any]:
    """JSON-ready dict of ``op`` with card codes: ``{"kind", "seat"}`` plus
    ``"card"`` (trade, barter_offer, barter_answer, offer_answer: code or null;
    pounce, take_discard, draw_keep, offer), ``"knock": true`` (trade/barter
    ending with a knock), ``"give"``/``"take"`` (swap: lists of codes),
    ``"target"`` (offer), ``"reshuffle"`` (draw after an empty stock: list of codes)."""
    data: dict[str, Any] = {"kind": op.kind, "seat": op.seat}
    if isinstance(op, CardOperation):
        data["card"] = card_code(op.card)
        if isinstance(op, CardOffer) and op.knock:
            data["knock"] = True
    elif isinstance(op, CardAnswer):
        data["card"] = None if op.card is None else card_code(op.card)
    elif isinstance(op, Swap):
        data["give"] = [card_code(c) for c in op.give]
        data["take"] = [card_code(c) for c in op.take]
    elif isinstance(op, Offer):
        data["target"] = op.target
        data["card"] = card_code(op.card)
    elif isinstance(op, Draw) and op.reshuffle is not None:
        data["reshuffle"] = [card_code(c) for c in op.reshuffle]
    return data


def _int(data: dict[str, Any], key: str) -> int:
    value = data[key]
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"{key} must be an integer")
    return value


def _codes(data: dict[str, Any], key: str) -> tuple[Card, ...]:
    value = data[key]
    if not isinstance(value, list):
        raise ValueError(f"{key} must be a list of card codes")
    return tuple(parse_card(c) for c in value)


def operation_from_dict(data: dict[str, Any]) -> Operation:
    """Inverse of ``operation_to_dict``.

    Raises:
        ValueError: unknown kind, missing field or bad card code.
    """
    try:
        kind = data["kind"]
        if kind not in _KINDS:
            raise ValueError(f"unknown operation kind {kind!r}")
        seat = _int(data, "seat")
        if kind in _SEAT_ONLY:
            return _SEAT_ONLY[kind](seat)
        if kind in _ONE_CARD:
            return _ONE_CARD[kind](seat, parse_card(data["card"]))
        if kind in _ANSWERS:
            card = data.get("card")
            return _ANSWERS[kind](seat, None if card is None else parse_card(card))
        if kind == "swap":
            return Swap(seat, _codes(data, "give"), _codes(data, "take"))
        if kind == "offer":
            return Offer(seat, _int(data, "target"), parse_card(data["card"]))
        if kind == "draw":
            return Draw(seat, _codes(data, "reshuffle") if "reshuffle" in data else None)
        return _OFFERS[kind](seat, parse_card(data["card"]), bool(data.get("knock", False)))
    except KeyError as exc:
        raise ValueError(f"operation is missing {exc.args[0]!r}") from None
