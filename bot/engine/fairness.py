"""Provably fair deals: commit, cut, reveal (docs/FAIRNESS.md; records: docs/RULES.md §3.3).

Before a deal the bot draws a secret ``seed`` (``new_seed``) and publishes its
``commitment`` (the hex SHA-256 of the seed). A player then *cuts*: contributes a
value the bot could not know when it committed. The deck is ``deck_order(seed,
cuts, table_id, deal_number, preset)``, a deterministic function anyone can
recompute. When the deal is over the seed is revealed, and ``verify_deal``
checks that it matches the commitment and gives the deck that was played.

The encoding (all integers unsigned, big-endian; docs/FAIRNESS.md is the
reference and carries test vectors)::

    message = lp(b"commerce-deck-v1")
              || u64(table_id) || u64(deal_number)
              || lp(utf8(preset))
              || u32(len(cuts)) || lp(cut_1) || ... || lp(cut_k)
    lp(b)   = u32(len(b)) || b
    block_i = HMAC-SHA256(key=seed, message || u32(i))      i = 0, 1, 2, ...
    stream  = block_0 || block_1 || ...  read as consecutive u32 values

Fisher-Yates from the bottom: ``deck = [0, 1, ..., 51]`` (our card order,
``bot.engine.cards``: 2c 2d 2h 2s 3c ... As); for ``i`` from 51 down to 1, with
``n = i + 1``, draw values until one is below ``(2**32 // n) * n`` and take
``j = v % n``; swap ``deck[i]`` and ``deck[j]``. ``deck[0]`` is the top card.

Nothing here is part of an observation: the seed and the cuts live only in
``Game.proofs`` and in records, never in a deal object.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass

from .cards import DECK, Card, card_code
from .seating import play_order

#: domain-separation string: a new algorithm gets a new string
DOMAIN = b"commerce-deck-v1"
#: bytes in a seed from ``new_seed``
SEED_BYTES = 32

_U32 = 1 << 32
_U64 = 1 << 64


def new_seed() -> bytes:
    """A fresh secret seed: 32 bytes from the OS CSPRNG (``secrets``)."""
    return secrets.token_bytes(SEED_BYTES)


def commitment(seed: bytes) -> str:
    """The public commitment to ``seed``: its SHA-256, 64 lower-case hex digits."""
    return _sha256_hex(seed)


def _sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def cut_bytes(cut: bytes | str) -> bytes:
    """A cut as bytes: ``bytes`` as they are, a ``str`` as its UTF-8 encoding
    (a phrase a player typed). Records store the bytes as hex."""
    return cut.encode("utf-8") if isinstance(cut, str) else bytes(cut)


def _u32(value: int) -> bytes:
    return value.to_bytes(4, "big")


def _lp(data: bytes) -> bytes:
    if len(data) >= _U32:
        raise ValueError("a field of 4 GiB or more cannot be encoded")
    return _u32(len(data)) + data


def message(
    cuts: Sequence[bytes | str], table_id: int, deal_number: int, preset: str
) -> bytes:
    """The HMAC message of a deal (before the block counter); see the module text.

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


def _values(seed: bytes, msg: bytes) -> Iterator[int]:
    """The u32 stream: HMAC-SHA256(seed, msg || u32(counter)), counter from 0."""
    for counter in range(_U32):
        block = hmac.new(seed, msg + _u32(counter), hashlib.sha256).digest()
        for k in range(0, len(block), 4):
            yield int.from_bytes(block[k:k + 4], "big")
    raise ValueError("the byte stream is exhausted")  # pragma: no cover — 2**37 values


def deck_order(
    seed: bytes,
    cuts: Sequence[bytes | str],
    table_id: int,
    deal_number: int,
    preset: str,
) -> list[Card]:
    """The shuffled deck (top card first) that ``seed`` and ``cuts`` give for deal
    ``deal_number`` (the first deal of a game is 1) of table ``table_id`` under
    ``preset`` — a pure, documented function (docs/FAIRNESS.md).

    Raises:
        ValueError: ``seed`` is not 32 bytes, or ``table_id``/``deal_number`` out
            of range.
    """
    if len(seed) != SEED_BYTES:
        raise ValueError(f"the seed must be {SEED_BYTES} bytes")
    return shuffle_with(_values(bytes(seed), message(cuts, table_id, deal_number, preset)))


def shuffle_with(values: Iterator[int]) -> list[Card]:
    """Fisher-Yates over ``DECK`` driven by 32-bit ``values``: for ``i`` from 51
    down to 1, ``n = i + 1``, skip every value ``>= (2**32 // n) * n`` (so that
    ``v % n`` is exactly uniform), swap ``deck[i]`` with ``deck[v % n]``.

    Raises:
        StopIteration: ``values`` ran out.
    """
    deck = list(DECK)
    for i in range(len(deck) - 1, 0, -1):
        n = i + 1
        limit = (_U32 // n) * n
        v = next(values)
        while v >= limit:  # unbiased: reject the incomplete top range
            v = next(values)
        j = v % n
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def failed_checks(
    commitment: str,  # shadows the function: inside, _sha256_hex hashes
    seed: bytes,
    cuts: Sequence[bytes | str],
    table_id: int,
    deal_number: int,
    preset: str,
    deck: Sequence[Card],
) -> list[tuple[str, str]]:
    """Every check the deal fails, as ``(check, reason)``: ``commitment`` (SHA-256
    of the seed differs from the commitment) and ``deck`` (the recorded deck is
    not ``deck_order`` of the seed and cuts). Empty when the deal is proven."""
    failures: list[tuple[str, str]] = []
    actual = _sha256_hex(seed)
    if actual != commitment.lower():
        failures.append(
            ("commitment", f"SHA-256 of the seed is {actual}, the commitment is {commitment}")
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


def verify_deal(
    commitment: str,
    seed: bytes,
    cuts: Sequence[bytes | str],
    table_id: int,
    deal_number: int,
    preset: str,
    deck: Sequence[Card],
) -> str | None:
    """``None`` when SHA-256(``seed``) is ``commitment`` (hex, either case) and
    ``deck`` is ``deck_order(seed, cuts, table_id, deal_number, preset)``; else
    the reason (the failed checks, joined by ``"; "``)."""
    failures = failed_checks(commitment, seed, cuts, table_id, deal_number, preset, deck)
    if not failures:
        return None
    return "; ".join(f"{check}: {reason}" for check, reason in failures)


def cutter(dealer: int, n: int, step: int, seats: Collection[int] | None = None) -> int:
    """The seat that cuts: the one before the dealer in play order among ``seats``
    (the dealer's right when play is clockwise, ``step`` +1; the dealer's left
    when it is anticlockwise) — the dealer itself only if it is alone."""
    return play_order(dealer, n, -step, seats)[0]


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
        return cls(_sha256_hex(seed), bytes(seed), tuple(cut_bytes(c) for c in cuts))

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

