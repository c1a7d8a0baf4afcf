"""Operations: the frozen records of applied actions (STYLE.md, pokerkit manner).

An operation is at once the action log row in storage and a step of a game
record. It holds only what the actor chose; what follows from the deck (the
card drawn in a trade) is recomputed on replay, so a log row never needs to
name a card the actor did not already hold.
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
    """``seat`` knocks: the deal ends at once."""

    kind: ClassVar[str] = "knock"
    seat: int


Operation = Trade | BarterOffer | BarterAnswer | Knock

_KINDS: dict[str, type[Operation]] = {
    cls.kind: cls for cls in (Trade, BarterOffer, BarterAnswer, Knock)
}


def operation_to_dict(op: Operation) -> dict[str, Any]:
    """JSON-ready dict of ``op``: ``{"kind", "seat", "card"?, "knock"?}`` with card codes."""
    data: dict[str, Any] = {"kind": op.kind, "seat": op.seat}
    if isinstance(op, Trade | BarterOffer):
        data["card"] = card_code(op.card)
        if op.knock:
            data["knock"] = True
    elif isinstance(op, BarterAnswer):
        data["card"] = None if op.card is None else card_code(op.card)
    return data


def operation_from_dict(data: dict[str, Any]) -> Operation:
    """Inverse of ``operation_to_dict``.

    Raises:
        ValueError: unknown kind, missing field or bad card code.
    """
    try:
        cls = _KINDS[data["kind"]]
        seat = data["seat"]
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise ValueError("seat must be an integer")
        if cls is Knock:
            return Knock(seat)
        if cls is BarterAnswer:
            card = data.get("card")
            return BarterAnswer(seat, None if card is None else parse_card(card))
        return cls(seat, parse_card(data["card"]), bool(data.get("knock", False)))  # type: ignore[call-arg]
    except KeyError as exc:
        raise ValueError(f"operation is missing {exc.args[0]!r}") from None
