"""Format 1 fair deals, as records made before one commitment covered a whole game
(docs/FAIRNESS.md "Format 1 records"): each deal had a seed of its own, committed
before the deal, and one cut. ``verify`` still checks such deals, and says what they do
not prove; the bot deals this way only the remaining deals of a game begun before.

The encoding (all integers unsigned, big-endian)::

    message = lp(b"commerce-deck-v1")
              || u64(table_id) || u64(deal_number)
              || lp(utf8(preset))
              || u32(len(cuts)) || lp(cut_1) || ... || lp(cut_k)
    lp(b)   = u32(len(b)) || b
    block_i = HMAC-SHA256(key=seed, message || u32(i))      i = 0, 1, 2, ...
    stream  = block_0 || block_1 || ...  read as consecutive u32 values

The shuffle is ``fairness.shuffle`` over ``[0, 1, ..., 51]`` (``deck[0]`` is the top
card). Nothing here is part of an observation: the seed and the cuts live only in
``Game.proofs`` and in records, never in a deal object.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

from .cards import DECK, Card, card_code
from .fairness import SEED_BYTES, _lp, _u32, commitment, shuffle, stream

#: domain-separation string of format 1 (format 2 has its own: ``fairness.DOMAIN``)
DOMAIN = b"commerce-deck-v1"

_U64 = 1 << 64

__all__ = ["DOMAIN", "SEED_BYTES", "DealProof", "commitment", "cut_bytes", "deck_order",
           "failed_checks", "message"]


def cut_bytes(cut: bytes | str) -> bytes:
    """A cut as bytes: ``bytes`` as they are, a ``str`` as its UTF-8 encoding.
    Records store the bytes as hex."""
    return cut.encode("utf-8") if isinstance(cut, str) else bytes(cut)


def message(
    cuts: Sequence[bytes | str], table_id: int, deal_number: int, preset: str
) -> bytes:
    """The HMAC message of a format 1 deal (before the block counter); see the
    module text.

    Raises:
        ValueError: ``table_id`` or ``deal_number`` is not in ``0 .. 2**64 - 1``.
    """
    for name, value in (("table_id", table_id), ("deal_number", deal_number)):
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < _U64:
            raise ValueError(f"{name} must be an integer from 0 to 2**64 - 1")
    parts = [
        _lp(DOMAIN),
        table_id.to_bytes(8, "big"),
        deal_number.to_bytes(8, "big"),
        _lp(preset.encode("utf-8")),
        _u32(len(cuts)),
    ]
    parts.extend(_lp(cut_bytes(c)) for c in cuts)
    return b"".join(parts)


def deck_order(
    seed: bytes,
    cuts: Sequence[bytes | str],
    table_id: int,
    deal_number: int,
    preset: str,
) -> list[Card]:
    """The deck (top card first) that ``seed`` and ``cuts`` give for format 1 deal
    ``deal_number`` (from 1) of table ``table_id`` under ``preset``.

    Raises:
        ValueError: ``seed`` is not 32 bytes, or ``table_id``/``deal_number`` out
            of range.
    """
    return shuffle(stream(seed, message(cuts, table_id, deal_number, preset)), DECK)


def failed_checks(
    committed: str,
    seed: bytes,
    cuts: Sequence[bytes | str],
    table_id: int,
    deal_number: int,
    preset: str,
    deck: Sequence[Card],
) -> list[tuple[str, str]]:
    """Every check the deal fails, as ``(check, reason)``: ``commitment`` (SHA-256
    of the seed differs from the commitment) and ``deck`` (the recorded deck is
    not ``deck_order`` of the seed and cuts). Empty when the deal is proven;
    ``committed`` is the deal's commitment (hex, either case)."""
    failures: list[tuple[str, str]] = []
    actual = hashlib.sha256(seed).hexdigest()
    if actual != committed.lower():
        failures.append(
            ("commitment", f"SHA-256 of the seed is {actual}, the commitment is {committed}")
        )
    try:
        expected = deck_order(seed, cuts, table_id, deal_number, preset)
    except ValueError as exc:
        return [*failures, ("deck", str(exc))]
    played = list(deck)
    if played != expected:
        if len(played) != len(expected):
            reason = f"the deck has {len(played)} cards, the seed and cuts give 52"
        else:
            k = next(i for i, (a, b) in enumerate(zip(played, expected, strict=True)) if a != b)
            reason = (
                f"card {k} of the deck is {card_code(played[k])}, "
                f"the seed and cuts give {card_code(expected[k])}"
            )
        failures.append(("deck", reason))
    return failures


@dataclass(frozen=True)
class DealProof:
    """A deal's fairness data as a game record carries it; each part may be absent.

    Attributes:
        commitment: SHA-256 of the seed, hex (public before the cut).
        seed: the secret seed (revealed at the deal's end).
        cuts: the cut values, in the order they were made.
    """

    commitment: str | None = None
    seed: bytes | None = None
    cuts: tuple[bytes, ...] | None = None

    @classmethod
    def make(cls, seed: bytes, cuts: Sequence[bytes | str]) -> DealProof:
        """The full proof of a deal dealt from ``seed`` and ``cuts``."""
        return cls(commitment(seed), bytes(seed), tuple(cut_bytes(c) for c in cuts))

    def to_record(self) -> dict[str, object]:
        """The record fields (``commitment``, ``seed``, ``cuts``; hex) that are present."""
        out: dict[str, object] = {}
        if self.commitment is not None:
            out["commitment"] = self.commitment
        if self.seed is not None:
            out["seed"] = self.seed.hex()
        if self.cuts is not None:
            out["cuts"] = [c.hex() for c in self.cuts]
        return out

