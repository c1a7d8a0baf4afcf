"""Cards as members read them in text: buttons, menu options, embeds and messages.

Discord draws the filled suit characters (``♠ ♣ ♥ ♦``) as emoji or in their own
colour, and its black spade and club all but vanish on the dark theme ("Trade
A♣" reads "Trade A"). Text built for members names a card with the outline
suit characters instead (``♤ ♧ ♡ ♢``), which have no emoji form: Discord writes
them in the theme's text colour, readable on either theme, and their shapes
tell the four suits apart without colour. A member who chose the four-colour
deck reads their own cards with coloured suits (``bot.i18n.deck``). The engine's own labels
(``bot.engine.card_label``), and so records and replays, are unchanged; the
pictures draw their suits themselves.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

from ..engine import Card
from ..engine import card_label as engine_card_label
from ..i18n import deck

#: each filled suit character (the engine's labels) and its outline form
OUTLINE = deck.SUITS[deck.TWO]
#: ``str.translate`` tables of each deck
_TABLES = {name: str.maketrans(suits) for name, suits in deck.SUITS.items()}


def outline_suits(text: str) -> str:
    """``text`` with every filled suit character in its outline form (``"give 7♠ ·
    take K♥"`` → ``"give 7♤ · take K♡"``): for text the engine words (a menu
    option, the coach's advice) or a catalog message naming cards. In a member's
    four-colour deck (``deck.current()``, set for their own answers) the suits of
    ``deck.SUITS`` instead (``"K❤️"``)."""
    return text.translate(_TABLES[deck.current()])


def card_label(card: Card) -> str:
    """``card`` as text names it, e.g. ``"10♢"`` (rank, then the outline suit)."""
    return _card_label(card, deck.current())


@functools.lru_cache(maxsize=512)
def _card_label(card: Card, shown: str) -> str:
    """``card_label`` in the deck ``shown`` (the current one)."""
    return outline_suits(engine_card_label(card))


def hand_label(cards: Iterable[Card]) -> str:
    """Cards as text names them, highest first (``"A♤ 10♡ 4♧"``)."""
    return " ".join(card_label(c) for c in sorted(cards, reverse=True))
