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
class Trade:
    """``seat`` gives ``card`` (and the fee) to the dealer and draws the stock top."""

    kind: ClassVar[str] = "trade"
    seat: int
    card: Card
    knock: bool = False


@dataclass(frozen=True)
class BarterOffer:
    """``seat`` offers ``card`` face down to its neighbour in play order."""

    kind: ClassVar[str] = "barter_offer"
    seat: int
    card: Card
    knock: bool = False


@dataclass(frozen=True)
class BarterAnswer:
    """The barter target ``seat`` gives ``card`` back, or refuses by knocking (``None``)."""

    kind: ClassVar[str] = "barter_answer"
    seat: int
    card: Card | None


@dataclass(frozen=True)
class Knock:
    """``seat`` knocks. Trade family: the deal ends at once. Widow: the seat takes
    no more turns (two knocks end the deal). Discard: the final round starts."""

    kind: ClassVar[str] = "knock"
    seat: int


# ------------------------------------------------------------------ widow family
@dataclass(frozen=True)
class TakeWidow:
    """The dealer exchanges the whole hand for the widow (the old hand becomes the widow)."""

    kind: ClassVar[str] = "take_widow"
    seat: int


@dataclass(frozen=True)
class KeepHand:
    """The dealer declines the widow and keeps the dealt hand."""

    kind: ClassVar[str] = "keep_hand"
    seat: int


@dataclass(frozen=True)
class Swap:
    """``seat`` puts ``give`` (own cards) face up in the widow and takes ``take``
    (widow cards); the same number each way."""

    kind: ClassVar[str] = "swap"
    seat: int
    give: tuple[Card, ...]
    take: tuple[Card, ...]


@dataclass(frozen=True)
class Stand:
    """``seat`` stands (oldway): no more changes this deal."""

    kind: ClassVar[str] = "stand"
    seat: int


@dataclass(frozen=True)
class Pounce:
    """``seat``, holding a tricon, takes ``card`` — the fourth of that rank — from the
    middle (oldway option); the seat then holds four of a kind and stands."""

    kind: ClassVar[str] = "pounce"
    seat: int
    card: Card


@dataclass(frozen=True)
class BuyHorse:
    """``seat``, having lost the last life, buys one more (oldway)."""

    kind: ClassVar[str] = "buy_horse"
    seat: int


@dataclass(frozen=True)
class DeclineHorse:
    """``seat``, having lost the last life, does not buy a horse and sits out."""

    kind: ClassVar[str] = "decline_horse"
    seat: int


# ---------------------------------------------------------------- discard family
@dataclass(frozen=True)
class TakeDiscard:
    """``seat`` lays ``card`` face up on the discard pile and takes the old top card."""

    kind: ClassVar[str] = "take_discard"
    seat: int
    card: Card


@dataclass(frozen=True)
class Draw:
    """``seat`` draws the stock top (seen only by them) and must then keep it
    (``DrawKeep``) or discard it (``DrawDiscard``). ``reshuffle`` is the new stock,
    top first, when the stock was empty and the discard pile (but its top) was
    shuffled into it; else ``None``."""

    kind: ClassVar[str] = "draw"
    seat: int
    reshuffle: tuple[Card, ...] | None = None


@dataclass(frozen=True)
class DrawKeep:
    """``seat`` keeps the drawn card and lays ``card`` from the hand face up on the
    discard pile."""

    kind: ClassVar[str] = "draw_keep"
    seat: int
    card: Card


@dataclass(frozen=True)
class DrawDiscard:
    """``seat`` lays the drawn card face up on the discard pile at once."""

    kind: ClassVar[str] = "draw_discard"
    seat: int


@dataclass(frozen=True)
class Pass:
    """``seat`` passes its turn."""

    kind: ClassVar[str] = "pass"
    seat: int


@dataclass(frozen=True)
class Offer:
    """``seat`` offers ``card`` to ``target`` for a direct trade (jaques option)."""

    kind: ClassVar[str] = "offer"
    seat: int
    target: int
    card: Card


@dataclass(frozen=True)
class OfferAnswer:
    """The offer's target ``seat`` gives ``card`` back (the cards swap) or refuses
    (``None``)."""

    kind: ClassVar[str] = "offer_answer"
    seat: int
    card: Card | None


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
    if isinstance(op, Trade | BarterOffer):
        data["card"] = card_code(op.card)
        if op.knock:
            data["knock"] = True
    elif isinstance(op, BarterAnswer | OfferAnswer):
        data["card"] = None if op.card is None else card_code(op.card)
    elif isinstance(op, Pounce | TakeDiscard | DrawKeep):
        data["card"] = card_code(op.card)
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
        if kind in ("barter_answer", "offer_answer"):
            card = data.get("card")
            answer = None if card is None else parse_card(card)
            return BarterAnswer(seat, answer) if kind == "barter_answer" else OfferAnswer(seat, answer)
        if kind == "swap":
            return Swap(seat, _codes(data, "give"), _codes(data, "take"))
        if kind == "offer":
            return Offer(seat, _int(data, "target"), parse_card(data["card"]))
        if kind == "draw":
            return Draw(seat, _codes(data, "reshuffle") if "reshuffle" in data else None)
        knock = bool(data.get("knock", False))
        card_in = parse_card(data["card"])
        return Trade(seat, card_in, knock) if kind == "trade" else BarterOffer(seat, card_in, knock)
    except KeyError as exc:
        raise ValueError(f"operation is missing {exc.args[0]!r}") from None
