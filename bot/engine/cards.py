"""Cards, card codes and the deck (docs/RULES.md §3.2).

A card is an ``int`` in ``0..51``: ``rank * 4 + suit`` where ``rank`` indexes
``RANKS`` (``0`` is the two, ``12`` the ace) and ``suit`` indexes ``SUITS``.
Codes (``"Td"``) are for records and storage; labels (``"10♦"``) are for people.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterable

Card = int

RANKS = "23456789TJQKA"
SUITS = "cdhs"
SUIT_SYMBOLS = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}
RANK_LABELS = {"T": "10"}
RANK_NAMES = {
    "2": "2s", "3": "3s", "4": "4s", "5": "5s", "6": "6s", "7": "7s", "8": "8s",
    "9": "9s", "T": "10s", "J": "jacks", "Q": "queens", "K": "kings", "A": "aces",
}

DECK: tuple[Card, ...] = tuple(range(52))


def rank(card: Card) -> int:
    """Rank index of ``card``: 0 (two) .. 12 (ace)."""
    return card >> 2


def suit(card: Card) -> int:
    """Suit index of ``card``: 0 clubs, 1 diamonds, 2 hearts, 3 spades."""
    return card & 3


def parse_card(code: str) -> Card:
    """Card from its two-character code (``"Td"``, ``"As"``; rank and suit in
    either case).

    Raises:
        ValueError: ``code`` is not a card code.
    """
    try:
        return _BY_CODE[code]  # a code as ``card_code`` writes it: the usual case
    except (KeyError, TypeError):
        pass
    if not isinstance(code, str) or len(code) != 2:
        raise ValueError(f"not a card code: {code!r}")
    r = RANKS.find(code[0].upper())
    s = SUITS.find(code[1].lower())
    if r < 0 or s < 0:
        raise ValueError(f"not a card code: {code!r}")
    return r * 4 + s


def card_code(card: Card) -> str:
    """Two-character code of ``card`` (``"Td"``)."""
    return RANKS[card >> 2] + SUITS[card & 3]


#: each card by its code as ``card_code`` writes it
_BY_CODE: dict[str, Card] = {card_code(c): c for c in range(52)}


def card_label(card: Card) -> str:
    """Human label of ``card`` with its suit symbol (``"10♦"``)."""
    r = RANKS[card >> 2]
    return RANK_LABELS.get(r, r) + SUIT_SYMBOLS[SUITS[card & 3]]


def hand_label(cards: Iterable[Card]) -> str:
    """Cards as people read them, highest first (``"A♠ 10♥ 4♣"``)."""
    return " ".join(card_label(c) for c in sorted(cards, reverse=True))


def shuffled_deck(rng: random.Random | None = None) -> list[Card]:
    """A freshly shuffled 52-card deck, top card first.

    Uses the OS CSPRNG (``secrets.SystemRandom``) unless a seeded ``rng`` is
    given; only tests and benchmarks pass one.
    """
    deck = list(DECK)
    (rng or secrets.SystemRandom()).shuffle(deck)
    return deck
