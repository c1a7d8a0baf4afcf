"""The game record (docs/RECORDS.md): its format number, the one fold that
derives a record's action objects from the action log, the one parse that
turns them back into the log's operations, and the checks of the header and
fairness fields every format carries.

- **The fold.** ``record_actions(operations)`` folds the log — each row as
  ``operation_to_dict`` stores it — into docs/RULES.md §3 action objects
  (``fold_row`` is one step): a paired action (a barter and its answer, an
  offer and its answer, a draw and what followed) becomes one object. The
  record's fields are the log's own, so the two encodings cannot drift.
- **The parse.** ``operations_of(deal, action)`` is the inverse, and the only
  reader of an action object: it yields the operations it stands for, one at
  a time, each to be applied before the next is read (the answer's seat and
  whether it is legal depend on the deal after the first).
- **The format.** ``FORMATS`` are the formats ``replay`` reads, ``FORMAT`` the
  one written today (``record_format``). Records of format 1 and 2 stay
  readable by every later version.

Pure: no discord, no storage.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator
from typing import Any

from .cards import Card, parse_card
from .fairness import Attempt, Cut, ShuffleLog, Shuffler
from .fairness_v1 import SEED_BYTES, DealProof
from .family import DealBase
from .operations import (
    BarterAnswer,
    BarterOffer,
    Draw,
    DrawDiscard,
    DrawKeep,
    Knock,
    Offer,
    OfferAnswer,
    Operation,
    Pounce,
    Swap,
    TakeDiscard,
    Trade,
    operation_from_dict,
    operation_to_dict,
)

__all__ = [
    "ENDS", "FORMAT", "FORMATS", "PROOF_KEYS", "RECORD_KEYS", "RecordError", "fold_row",
    "operations_of", "record_actions", "record_format",
]


class RecordError(ValueError):
    """An invalid game record. ``deal`` and ``action`` index from 0 (or are ``None``)."""

    def __init__(self, reason: str, deal: int | None = None, action: int | None = None) -> None:
        """``reason`` is the message; ``deal`` and ``action`` say where (0-based)."""
        super().__init__(reason)
        self.reason = reason
        self.deal = deal
        self.action = action

    def to_dict(self) -> dict[str, Any]:
        """``{"error": {"deal", "action", "reason"}}`` as ``replay`` prints it."""
        return {"error": {"deal": self.deal, "action": self.action, "reason": self.reason}}


#: the record's name of each log kind that is not its own (docs/RECORDS.md)
_NAMES = {"barter_offer": "barter"}
#: the log kinds that complete the object before them: the key they fill, and what
#: it says when the row names no card (a refusal, the drawn card thrown away)
_FOLLOW_UPS = {
    "barter_answer": ("response", "knock"),
    "offer_answer": ("response", "refuse"),
    "draw_keep": ("discard", None),
    "draw_discard": ("discard", "drawn"),
}


def fold_row(actions: list[dict[str, Any]], row: dict[str, Any]) -> list[dict[str, Any]]:
    """One step of the fold: ``actions`` (the record's action objects so far)
    with the log row ``row`` (``operation_to_dict`` output) added — a new object
    ``{"seat", "action", ...the row's fields}``, or an answer or a draw's
    follow-up written into the object before it (``response``, ``discard``).

    Raises:
        ValueError: a follow-up row with no object before it.
    """
    fields = {k: v for k, v in row.items() if k not in ("kind", "seat")}
    kind = row["kind"]
    follow = _FOLLOW_UPS.get(kind)
    if follow is None:
        actions.append({"seat": row["seat"], "action": _NAMES.get(kind, kind), **fields})
        return actions
    if not actions:
        raise ValueError(f"a {kind} follows nothing")
    key, none = follow
    card = fields.get("card")
    actions[-1][key] = none if card is None else card
    return actions


def record_actions(operations: Iterable[Operation]) -> list[dict[str, Any]]:
    """docs/RULES.md §3 action objects from operations (docs/RECORDS.md): the
    fold of their log rows (``fold_row``). A barter offer and its answer become
    one ``barter`` object with ``response`` (a card code or ``"knock"``); a
    direct-trade offer and its answer one ``offer`` object with ``response`` (a
    card code or ``"refuse"``); a draw and its follow-up one ``draw`` object
    with ``discard`` (the hand card laid down, or ``"drawn"``). Each answer or
    follow-up is absent while pending."""
    return functools.reduce(fold_row, map(operation_to_dict, operations), [])


def _card(value: Any, what: str) -> Card:
    try:
        return parse_card(value)
    except ValueError:
        raise ValueError(f"{what} is not a card code: {value!r}") from None


def _cards(value: Any, what: str) -> tuple[Card, ...]:
    if not isinstance(value, list):
        raise ValueError(f"{what} must be a list of card codes")
    return tuple(_card(c, what) for c in value)


def _int(value: Any, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"{what} must be a seat number")
    return value


#: actions of the widow and discard families that carry the seat alone
_SEAT_ONLY = {"take_widow", "keep_hand", "stand", "buy_horse", "decline_horse", "pass"}


def operations_of(deal: DealBase, action: Any) -> Iterator[Operation]:
    """The operations a record's action object stands for in ``deal``, in the
    log's order: one, or two for a paired action whose answer or follow-up is
    written. Lazy: apply each before asking for the next (a barter's answer is
    the neighbour's; an answer is read only once its offer stands).

    Raises:
        ValueError: the object is malformed (not an object, no seat or name, a
            bad card code, list or target, a ``knock`` where none may be), or
            its name is no action of ``deal``'s family.
    """
    if not isinstance(action, dict):
        raise ValueError("an action must be an object")
    seat, kind = action.get("seat"), action.get("action")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < deal.n:
        raise ValueError(f"seat {seat!r} is not a seat")
    if not isinstance(kind, str):
        raise ValueError("an action needs its name in 'action'")
    knock = action.get("knock", False)
    if not isinstance(knock, bool):
        raise ValueError("knock must be true or false")
    if knock and kind not in ("trade", "barter"):
        raise ValueError(f"a {kind} action cannot carry knock: true")
    if deal.family == "trade":
        yield from _trade_operations(deal, seat, kind, knock, action)
    elif kind == "knock":
        yield Knock(seat)
    elif kind in _SEAT_ONLY:
        yield operation_from_dict({"kind": kind, "seat": seat})
    elif deal.family == "widow":
        if kind == "swap":
            yield Swap(seat, _cards(action.get("give"), "give"), _cards(action.get("take"), "take"))
        elif kind == "pounce":
            yield Pounce(seat, _card(action.get("card"), "card"))
        else:
            raise ValueError(f"unknown action {kind!r}")
    else:
        yield from _discard_operations(seat, kind, action)


def _trade_operations(deal: DealBase, seat: int, kind: str, knock: bool,
                      action: dict[str, Any]) -> Iterator[Operation]:
    if kind == "trade":
        yield Trade(seat, _card(action.get("card"), "card"), knock)
    elif kind == "barter":
        yield BarterOffer(seat, _card(action.get("card"), "card"), knock)
        if "response" in action:
            response = action["response"]
            target = deal.neighbour(seat)
            assert target is not None  # every trade-family deal barters
            yield BarterAnswer(target, None if response == "knock" else _card(response, "response"))
    elif kind == "knock":
        yield Knock(seat)
    else:
        raise ValueError(f"unknown action {kind!r}")


def _discard_operations(seat: int, kind: str, action: dict[str, Any]) -> Iterator[Operation]:
    if kind == "take_discard":
        yield TakeDiscard(seat, _card(action.get("card"), "card"))
    elif kind == "draw":
        order = _cards(action["reshuffle"], "reshuffle") if "reshuffle" in action else None
        yield Draw(seat, order)  # never shuffles: an empty stock needs the order
        if "discard" in action:
            thrown = action["discard"]
            yield DrawDiscard(seat) if thrown == "drawn" else DrawKeep(seat, _card(thrown, "discard"))
    elif kind == "offer":
        target = _int(action.get("target"), "target")
        yield Offer(seat, target, _card(action.get("card"), "card"))
        if "response" in action:
            response = action["response"]
            yield OfferAnswer(target, None if response == "refuse" else _card(response, "response"))
    else:
        raise ValueError(f"unknown action {kind!r}")


#: the keys every record holds (docs/RECORDS.md "The record")
RECORD_KEYS = ("rules", "options", "players", "first_dealer", "deals")
#: optional per-deal keys of a format 1 fair deal (docs/FAIRNESS.md "Format 1 records")
PROOF_KEYS = ("commitment", "seed", "cuts")
#: the format ``Game.to_record`` writes for a game with one fair shuffle (a game
#: without one writes no ``format``: it is format 1)
FORMAT = 2
#: the record formats ``replay`` reads: 1 (no ``format`` key) and 2 (docs/FAIRNESS.md);
#: a later format is added here with its reader, and the readers of these stay
FORMATS = (1, 2)
#: how a format 2 game ended, as its ``shuffle`` says
ENDS = ("finished", "closed")

_HEX = frozenset("0123456789abcdefABCDEF")


def _hex(value: Any, what: str) -> bytes:
    if not isinstance(value, str) or len(value) % 2 or not _HEX.issuperset(value):
        raise ValueError(f"{what} must be a string of hex digits (two per byte)")
    return bytes.fromhex(value)


def _whole(value: Any, what: str, low: int = 0, top: int = 1 << 64) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value < top:
        raise ValueError(f"{what} must be a whole number from {low}")
    return value


def _digest(value: Any, what: str) -> str:
    if len(_hex(value, what)) != 32:
        raise ValueError(f"{what} must be 64 hex digits")
    return str(value).lower()


def record_format(record: dict[str, Any]) -> int:
    """The record's format: 1 when it has no ``format`` key, else its value.

    Raises:
        RecordError: a format ``replay`` does not read.
    """
    fmt = record.get("format", 1)
    if fmt not in FORMATS or isinstance(fmt, bool):
        raise RecordError(f"format must be one of {', '.join(map(str, FORMATS))}")
    return int(fmt)


def _cuts(value: Any, seats: int, what: str = "cuts") -> tuple[Cut, ...]:
    """A format 2 list of cuts (``[{"seat", "text"}]``), checked for shape."""
    if not isinstance(value, list):
        raise ValueError(f"{what} must be a list of cuts")
    out = []
    for item in value:
        if not isinstance(item, dict) or set(item) != {"seat", "text"}:
            raise ValueError(f"a cut in {what} must be an object with seat and text")
        seat = _whole(item["seat"], "a cut's seat", 0, seats)
        if not isinstance(item["text"], str):
            raise ValueError("a cut's text must be a string")
        out.append(Cut(seat, item["text"]))
    return tuple(out)


def _shuffle_of(record: dict[str, Any], seats: int, table: int | None,
                preset: str) -> tuple[ShuffleLog, Shuffler | None]:
    """A format 2 record's ``shuffle``, checked for shape (``verify_record`` checks
    the values): its public log, and a shuffler when the seed is revealed.

    Raises:
        ValueError: a field missing or of the wrong shape.
    """
    part = record.get("shuffle")
    if not isinstance(part, dict):
        raise ValueError("a format 2 record needs its shuffle")
    unknown = set(part) - {"commitment", "posted", "seed", "burned", "end", "head"}
    if unknown:
        raise ValueError(f"the shuffle has unknown fields: {', '.join(sorted(unknown))}")
    if table is None:
        raise ValueError("a format 2 record needs its table")
    committed = _digest(part.get("commitment"), "the shuffle's commitment")
    posted = part.get("posted")
    if posted is not None:
        if not isinstance(posted, dict) or set(posted) != {"guild", "channel", "message"}:
            raise ValueError("posted must be null or an object with guild, channel and message")
        posted = {k: _whole(v, f"posted {k}") for k, v in posted.items()}
    burned = _burned(part.get("burned", []), seats)
    if "end" in part and part["end"] not in ENDS:
        raise ValueError(f"the shuffle's end must be {' or '.join(ENDS)}")
    if "head" in part:
        _digest(part["head"], "the shuffle's head")
    shuffler = None
    if "seed" in part:
        seed = _hex(part["seed"], "the shuffle's seed")
        if len(seed) != SEED_BYTES:
            raise ValueError("the shuffle's seed must be 64 hex digits (32 bytes)")
        shuffler = Shuffler(seed, table, preset)
    return ShuffleLog(committed, posted, [], burned), shuffler


def _burned(value: Any, seats: int) -> list[Attempt]:
    """A format 2 record's burned attempts, checked for shape."""
    if not isinstance(value, list):
        raise ValueError("burned must be a list")
    burned = []
    for item in value:
        if not isinstance(item, dict) or set(item) != {"deal", "attempt", "cuts"}:
            raise ValueError("a burned attempt must be an object with deal, attempt and cuts")
        burned.append(Attempt(_whole(item["deal"], "a burned deal", 1),
                              _whole(item["attempt"], "a burned attempt", 1, 1 << 32),
                              _cuts(item["cuts"], seats, "a burned attempt's cuts")))
    return burned


def _attempt(deal_record: dict[str, Any], number: int, seats: int) -> Attempt | None:
    """A format 2 deal's ``attempt`` and ``cuts``, checked for shape; ``None`` when
    the deal has neither (it was not dealt from the seed)."""
    if any(key in deal_record for key in ("commitment", "seed")):
        raise ValueError("a format 2 deal has no commitment or seed of its own")
    if "attempt" not in deal_record and "cuts" not in deal_record:
        return None
    attempt = _whole(deal_record.get("attempt"), "attempt", 1, 1 << 32)
    return Attempt(number, attempt, _cuts(deal_record.get("cuts"), seats))


def _proof(deal_record: dict[str, Any]) -> DealProof | None:
    """The deal's fairness fields, checked for shape only (``verify_record`` checks
    the values); ``None`` when it has none."""
    if not any(key in deal_record for key in PROOF_KEYS):
        return None
    committed = seed = cuts = None
    if "commitment" in deal_record:
        raw = deal_record["commitment"]
        if len(_hex(raw, "commitment")) != 32:
            raise ValueError("commitment must be 64 hex digits (a SHA-256)")
        committed = raw.lower()
    if "seed" in deal_record:
        seed = _hex(deal_record["seed"], "seed")
        if len(seed) != SEED_BYTES:
            raise ValueError("seed must be 64 hex digits (32 bytes)")
    if "cuts" in deal_record:
        raw_cuts = deal_record["cuts"]
        if not isinstance(raw_cuts, list):
            raise ValueError("cuts must be a list of hex strings")
        cuts = tuple(_hex(c, "a cut") for c in raw_cuts)
    return DealProof(committed, seed, cuts)
