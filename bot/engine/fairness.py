"""A game's fair shuffle (docs/FAIRNESS.md): one secret seed per game, committed
before anything it decides is known; every random choice of the game — the first
dealer, each deal's deck, each reshuffle of a discard pile — derived from that seed
and from the cuts seated members type; and a chain over the game's record.

The encoding (docs/FAIRNESS.md "The algorithm" is the reference, with test
vectors; every integer is unsigned and big-endian)::

    lp(b)        = u32(len(b)) || b
    cuts(c)      = u32(len(c)) || for each cut: u32(seat) || lp(utf8(text))
    message      = lp("commerce-v2") || lp(label) || u64(table) || lp(utf8(preset))
                   || u64(deal) || u32(attempt) || u32(index) || cuts(c)
    block_k      = HMAC-SHA256(key = seed, message || u32(k)),   k = 0, 1, 2, ...
    stream       = block_0 || block_1 || ...   read as consecutive u32 values
    below(n)     = the next value v of the stream with v < floor(2^32 / n) * n
                   (others are skipped), as v mod n
    shuffle(L)   = for i = len(L) - 1 down to 1: swap L[i] and L[below(i + 1)]

    first dealer = below(seats)  of ("first-dealer", deal 1, attempt a, index 0)
    deck         = shuffle([0 .. 51])      of ("deck", deal n, attempt a, index 0)
    reshuffle k  = shuffle(sorted cards)   of ("reshuffle", deal n, attempt a, index k)
    chain key    = block_0  of ("chain", deal 0, attempt 0, index 0, no cuts)

The chain (``chain_heads``) runs HMAC-SHA256 under the chain key over the
record's entries, each written as canonical JSON (``canonical``).

Nothing here is part of an observation: the seed lives in ``Shuffler`` objects
and in records of finished games, never in a deal.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import struct
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from .cards import DECK, Card

#: the domain string of every message (a new algorithm gets a new string)
DOMAIN = b"commerce-v2"
#: bytes in a seed from ``new_seed``
SEED_BYTES = 32
#: the labels of the derivations (docs/FAIRNESS.md "The algorithm")
FIRST_DEALER, DECK_LABEL, RESHUFFLE, CHAIN = "first-dealer", "deck", "reshuffle", "chain"
#: characters in a cut at most, and the punctuation a cut may hold besides letters,
#: digits, marks and single spaces
CUT_MAX = 32
CUT_PUNCTUATION = frozenset("-_.,!?'#+:/()&%=")
#: combining marks (accents) a cut may stack on one letter
CUT_MARKS = 2

_U32 = 1 << 32
_U64 = 1 << 64


class CutError(ValueError):
    """A cut a member typed that cannot be used; the message says why, plainly."""


def new_seed() -> bytes:
    """A fresh secret seed: 32 bytes from the OS CSPRNG (``secrets``)."""
    return secrets.token_bytes(SEED_BYTES)


def commitment(seed: bytes) -> str:
    """The public commitment to ``seed``: its SHA-256, 64 lower-case hex digits."""
    return hashlib.sha256(seed).hexdigest()


def cut_text(raw: str) -> str:
    """The cut a member typed, as it is used and shown: NFC-normalised, runs of
    spaces made one, no space at either end; 1 to ``CUT_MAX`` characters, each a
    letter, a digit or a mark of any script (at most ``CUT_MARKS`` marks on a
    letter), a space, or one of ``CUT_PUNCTUATION`` (so a cut can be shown
    anywhere as it is).

    Raises:
        CutError: empty, too long, or a character a cut may not hold.
    """
    text = " ".join(unicodedata.normalize("NFC", raw).split(" "))
    text = " ".join(part for part in text.split(" ") if part)
    if not text:
        raise CutError("Type a word or a number to cut with.")
    if len(text) > CUT_MAX:
        raise CutError(f"A cut is at most {CUT_MAX} characters.")
    marks = 0
    for index, ch in enumerate(text):
        kind = unicodedata.category(ch)[0]
        if not (ch == " " or ch in CUT_PUNCTUATION or kind in "LNM"):
            raise CutError("A cut may hold letters, digits, spaces and - _ . , ! ? ' # + : / "
                           "( ) & % = only.")
        marks = marks + 1 if kind == "M" else 0
        if marks and (index == 0 or marks > CUT_MARKS
                      or unicodedata.category(text[index - 1])[0] not in "LNM"):
            raise CutError("A cut may hold at most two accents on a letter.")
    return text


@dataclass(frozen=True)
class Cut:
    """A seated member's contribution to one deal's shuffle: their ``seat`` (from 0)
    and the ``text`` they typed (``cut_text``)."""

    seat: int
    text: str

    def to_record(self) -> dict[str, Any]:
        """``{"seat": s, "text": t}``, as records hold a cut."""
        return {"seat": self.seat, "text": self.text}


@dataclass(frozen=True)
class Attempt:
    """One attempt at dealing deal ``deal`` (from 1): its number ``attempt`` (from 1)
    and the ``cuts`` it used, in the order they were made. Each attempt is written
    down before its deck is derived; an attempt that was not dealt is *burned*
    (docs/FAIRNESS.md "Burned attempts")."""

    deal: int
    attempt: int
    cuts: tuple[Cut, ...] = ()

    def to_record(self) -> dict[str, Any]:
        """A burned attempt as records list it: ``{"deal", "attempt", "cuts"}``."""
        return {"deal": self.deal, "attempt": self.attempt,
                "cuts": [c.to_record() for c in self.cuts]}


# ------------------------------------------------------------------ the encoding
def _u32(value: int) -> bytes:
    return value.to_bytes(4, "big")


def _lp(data: bytes) -> bytes:
    if len(data) >= _U32:
        raise ValueError("a field of 4 GiB or more cannot be encoded")
    return _u32(len(data)) + data


def _check(name: str, value: int, top: int) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < top:
        raise ValueError(f"{name} must be an integer from 0 to {top.bit_length() - 1} bits")


def message(label: str, table: int, preset: str, deal: int, attempt: int, index: int,
            cuts: Sequence[Cut] = ()) -> bytes:
    """The HMAC message of one derivation (before the block counter); see the
    module text.

    Raises:
        ValueError: ``table`` or ``deal`` not in 0..2**64-1, ``attempt``,
            ``index`` or a cut's seat not in 0..2**32-1.
    """
    _check("table", table, _U64)
    _check("deal", deal, _U64)
    _check("attempt", attempt, _U32)
    _check("index", index, _U32)
    parts = [_lp(DOMAIN), _lp(label.encode("utf-8")), table.to_bytes(8, "big"),
             _lp(preset.encode("utf-8")), deal.to_bytes(8, "big"), _u32(attempt),
             _u32(index), _u32(len(cuts))]
    for cut in cuts:
        _check("a cut's seat", cut.seat, _U32)
        parts += [_u32(cut.seat), _lp(cut.text.encode("utf-8"))]
    return b"".join(parts)


def blocks(seed: bytes, msg: bytes) -> Iterator[bytes]:
    """The blocks ``HMAC-SHA256(seed, msg || u32(k))``, for k = 0, 1, 2 and on.

    Raises:
        ValueError: ``seed`` is not ``SEED_BYTES`` bytes (HMAC pads a short key
            with zeros, so only one length is accepted).
    """
    if len(seed) != SEED_BYTES:
        raise ValueError(f"the seed must be {SEED_BYTES} bytes")
    key = bytes(seed)
    for counter in range(_U32):
        yield hmac.digest(key, msg + _u32(counter), "sha256")  # HMAC-SHA256 in one call
    raise ValueError("the byte stream is exhausted")  # pragma: no cover — 2**37 values


#: a block (32 bytes) read as its 8 big-endian u32 values
_BLOCK_VALUES = struct.Struct(">8I")


def stream(seed: bytes, msg: bytes) -> Iterator[int]:
    """The blocks of ``seed`` and ``msg`` read as consecutive u32 values (4 bytes,
    big-endian, 8 a block, none skipped or reused).

    Raises:
        ValueError: as ``blocks``.
    """
    for block in blocks(seed, msg):
        yield from _BLOCK_VALUES.unpack(block)


def below(values: Iterator[int], n: int) -> int:
    """A number in ``0..n-1``, exactly uniform: the next value ``v`` of ``values``
    below ``floor(2**32 / n) * n`` (the values above are skipped), as ``v mod n``.

    Raises:
        ValueError: ``n`` is not in 1..2**32.
        StopIteration: ``values`` ran out.
    """
    if not 1 <= n <= _U32:
        raise ValueError("n must be from 1 to 2**32")
    limit = (_U32 // n) * n
    v = next(values)
    while v >= limit:  # unbiased: reject the incomplete top range
        v = next(values)
    return v % n


def shuffle(values: Iterator[int], items: Iterable[Card]) -> list[Card]:
    """Fisher–Yates from the bottom: for ``i`` from ``len - 1`` down to 1, swap
    item ``i`` with item ``below(i + 1)``; returns the new list (item 0 is the top).

    Raises:
        StopIteration: ``values`` ran out.
    """
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = below(values, i + 1)
        out[i], out[j] = out[j], out[i]
    return out


# ------------------------------------------------------------------ the derivations
@dataclass(frozen=True)
class Shuffler:
    """Every random choice of one game, from its secret ``seed`` (32 bytes), for
    table ``table`` under preset ``preset`` (docs/FAIRNESS.md "The algorithm").
    The seed is secret until the game is over: only the service and records of
    finished games hold a ``Shuffler``'s seed."""

    seed: bytes = field(repr=False)
    table: int
    preset: str

    @property
    def commitment(self) -> str:
        """SHA-256 of the seed, hex: what the bot publishes before the game."""
        return commitment(self.seed)

    def _values(self, label: str, deal: int, attempt: int, index: int,
                cuts: Sequence[Cut]) -> Iterator[int]:
        return stream(self.seed, message(label, self.table, self.preset, deal, attempt,
                                         index, cuts))

    def first_dealer(self, seats: int, attempt: int, cuts: Sequence[Cut]) -> int:
        """The first dealer (a seat, 0..``seats``-1), chosen with deal 1's
        ``attempt`` and ``cuts``.

        Raises:
            ValueError: no seat, or as ``message``.
        """
        return below(self._values(FIRST_DEALER, 1, attempt, 0, cuts), seats)

    def deck(self, deal: int, attempt: int, cuts: Sequence[Cut]) -> list[Card]:
        """Deal ``deal``'s deck (52 cards, top first) for ``attempt`` and ``cuts``.

        Raises:
            ValueError: as ``message``.
        """
        return shuffle(self._values(DECK_LABEL, deal, attempt, 0, cuts), DECK)

    def reshuffle(self, deal: int, attempt: int, cuts: Sequence[Cut], index: int,
                  cards: Iterable[Card]) -> list[Card]:
        """The new stock (top first) of reshuffle ``index`` (from 1) of deal
        ``deal``: ``cards`` in card order (2c 2d … As), shuffled.

        Raises:
            ValueError: as ``message``.
        """
        return shuffle(self._values(RESHUFFLE, deal, attempt, index, cuts), sorted(cards))

    def chain_key(self) -> bytes:
        """The key of the record's chain (32 bytes): secret with the seed."""
        return chain_key(self.seed, self.table)


def chain_key(seed: bytes, table: int) -> bytes:
    """Block 0 of the ``chain`` message of ``table`` (preset "", deal, attempt and
    index 0, no cuts) under ``seed``.

    Raises:
        ValueError: a seed that is not 32 bytes, a table out of range.
    """
    return next(blocks(seed, message(CHAIN, table, "", 0, 0, 0)))


# ------------------------------------------------------------------ the chain
def canonical(value: Any) -> bytes:
    """``value`` as canonical JSON, UTF-8: keys sorted, no spaces, characters
    beyond ASCII as themselves (RFC 8785 for the objects, strings, whole numbers,
    booleans, nulls and lists that records hold).

    Raises:
        ValueError: a float, or anything else JSON cannot hold.
    """
    def strict(v: Any) -> Any:
        if isinstance(v, float):
            raise ValueError("a record holds no fractions")
        if isinstance(v, dict):
            return {str(k): strict(x) for k, x in v.items()}
        if isinstance(v, list | tuple):
            return [strict(x) for x in v]
        return v
    return json.dumps(strict(value), sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False, allow_nan=False).encode("utf-8")


def chain_heads(key: bytes, entries: Sequence[dict[str, Any]]) -> list[str]:
    """The head (hex) after each entry: ``h = 32 zero bytes``, then for each entry
    ``h = HMAC-SHA256(key, h || canonical(entry))``."""
    head = bytes(32)
    heads = []
    for entry in entries:
        head = hmac.new(key, head + canonical(entry), hashlib.sha256).digest()
        heads.append(head.hex())
    return heads


#: the header fields of a format 2 record that its first chain entry holds
HEADER_KEYS = ("table", "rules", "options", "players", "ai_levels", "first_dealer")


def chain_entries(record: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """The entries of a format 2 record's chain, each with what it is (``header``;
    ``burned N.A``; ``deal N``; ``end``), in order: the header; for each deal its
    burned attempts, then the deal itself; the burned attempts after the last deal;
    and the end, once the record has one (docs/FAIRNESS.md "The chain").

    Raises:
        ValueError: a field the entries need is missing or of the wrong type.
    """
    shuffle_part = record.get("shuffle")
    if not isinstance(shuffle_part, dict):
        raise ValueError("the record has no shuffle")
    header: dict[str, Any] = {"entry": "header", "format": 2}
    for key in HEADER_KEYS:
        header[key] = record.get(key, {} if key == "ai_levels" else None)
    header["commitment"] = shuffle_part.get("commitment")
    header["posted"] = shuffle_part.get("posted")
    out: list[tuple[str, dict[str, Any]]] = [("header", header)]
    burned = shuffle_part.get("burned", [])
    deals = record.get("deals")
    if not isinstance(burned, list) or not all(
            isinstance(b, dict) and _whole(b.get("deal")) and _whole(b.get("attempt"))
            for b in burned):
        raise ValueError("burned must be a list of objects with a deal and an attempt")
    if not isinstance(deals, list) or not all(isinstance(d, dict) for d in deals):
        raise ValueError("deals must be a list of objects")
    waiting = sorted(burned, key=lambda b: (b["deal"], b["attempt"]))

    def burned_entry(b: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        return (f"burned {b['deal']}.{b['attempt']}",
                {"entry": "burned", "deal": b["deal"], "attempt": b["attempt"],
                 "cuts": b.get("cuts")})

    for number, deal in enumerate(deals, 1):
        out += [burned_entry(b) for b in waiting if b["deal"] == number]
        out.append((f"deal {number}", {
            "entry": "deal", "deal": number, "attempt": deal.get("attempt"),
            "cuts": deal.get("cuts"), "deck": deal.get("deck"),
            "actions": deal.get("actions")}))
    out += [burned_entry(b) for b in waiting if not 1 <= b["deal"] <= len(deals)]
    if "end" in shuffle_part:
        out.append(("end", {"entry": "end", "end": shuffle_part["end"], "deals": len(deals)}))
    return out


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass
class ShuffleLog:
    """The public part of a format 2 game's shuffle, as its record holds it (the
    seed is the ``Shuffler``'s, secret until the game is over).

    Attributes:
        commitment: SHA-256 of the game's seed, hex, published before the game.
        posted: where it was published: ``{"guild", "channel", "message"}`` ids
            (``None``: unknown).
        attempts: per deal of the game, the attempt it was dealt from (``None``: a
            deal not dealt from the seed, e.g. a test's arranged deck).
        burned: the attempts written down but never dealt, in order.
    """

    commitment: str
    posted: dict[str, int] | None = None
    attempts: list[Attempt | None] = field(default_factory=list)
    burned: list[Attempt] = field(default_factory=list)
