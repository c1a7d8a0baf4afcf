"""The deck a member sees their own cards in: two colours (the default, as every
public picture and text shows them) or four, chosen with ``/commerce settings``
and kept per member and guild (``bot.service.preferences``, migration 0013).

Like the language (``bot.i18n``), how a member reads cards is a context variable: ``guarded``
sets it for a member's own interaction (``use``), ``bot.runtime.language``'s
``in_server_language`` puts it back to ``TWO`` for whatever is shown in public,
and a panel refreshed after someone else's move is built again in the deck it
was built in (its ``bot.ui.panel.Panel.key``). So a member's four colours reach their
own hand picture, panel, buttons, menus and ephemeral answers, and never a
message, picture or embed others see: public pictures stay in two colours, a
table's shared picture cannot be drawn for each reader.

**Pictures** (``bot.ui.pictures.FOUR_COLOUR_INK``): spades black, hearts red (the
two-colour deck's own inks), diamonds blue ``(16, 72, 172)``, clubs green
``(48, 130, 96)``. The two new inks were picked by a search over blues and greens
for the largest smallest difference (CIEDE2000) between any two suits' inks as
people with protanopia, deuteranopia and tritanopia see them (the Machado 2009
simulation), among inks with at least 4.5:1 contrast (WCAG 2.1) on the white card
face: every ink on the face is at least 4.5:1 (black 17.7, red 5.6, blue 8.1,
green 4.6), and the smallest difference under any of the three simulations is
about 16, where the familiar Okabe–Ito blue and bluish green give 12.6 and only
3.4:1 for the green (tests/ui/test_deck.py measures both with ColorAide). The
card face is the same white on Discord's dark and light themes, so the contrast
holds on both; and the suits' shapes differ anyway, colour is never the only
difference.

**Text** can take colour only from emoji (buttons and menus show no ANSI, and
ANSI code blocks are not coloured on every client). In four colours a card is
named with its rank, in the theme's text colour as always, and a suit that keeps
its colour on both themes: spades stay the outline ``♤`` (the theme's own ink:
white on dark, black on light, the "black" suit readable on either, where the
black emoji spade vanishes on the dark theme), hearts ``❤️`` (red), diamonds
``🔷`` (blue) and clubs ``☘️`` (the green shamrock, the clover the suit is named
after in French and German). Each emoji set draws these in its own shade of red,
blue and green, mid-tones that stand out from both Discord's dark grey and its
white; the shape names the suit wherever a colour is hard to tell. Pictures'
descriptions (alt text) keep the outline suits: a screen reader says "club
suit", not "shamrock".
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator

__all__ = ["DECKS", "FOUR", "TWO", "current", "enter", "leave", "suits", "use"]

#: the decks a member may choose, the first the default (bot.storage.members keeps
#: the same two names, as its table's CHECK does)
DECKS = ("two", "four")
TWO, FOUR = DECKS
#: each filled suit character (the engine's labels) as text names it, by deck
SUITS = {
    TWO: {"♣": "♧", "♦": "♢", "♥": "♡", "♠": "♤"},
    FOUR: {"♣": "☘️", "♦": "🔷", "♥": "❤️", "♠": "♤"},
}

_current: contextvars.ContextVar[str] = contextvars.ContextVar("commerce_deck", default=TWO)


def current() -> str:
    """The deck of the cards drawn and named now (one of ``DECKS``)."""
    return _current.get()


def suits() -> dict[str, str]:
    """Each filled suit character as text names it in the current deck."""
    return SUITS[_current.get()]


@contextlib.contextmanager
def use(deck: str) -> Iterator[str]:
    """Draw and name cards in ``deck`` (an unknown one: ``TWO``) inside the block;
    yields that deck."""
    token = enter(deck)
    try:
        yield _current.get()
    finally:
        leave(token)


def enter(deck: str) -> contextvars.Token[str]:
    """``use`` for code that cannot be indented: returns the token ``leave`` takes."""
    return _current.set(deck if deck in DECKS else TWO)


def leave(token: contextvars.Token[str]) -> None:
    """Go back to the deck before ``enter`` gave ``token``."""
    _current.reset(token)
