"""The piles' labels in the middle of the table picture never run into each other,
in any language (issue 23 §2: German's "Ablagestapel (12)" met "Talon 42")."""

from __future__ import annotations

import pytest

from bot import i18n
from bot.engine import Card
from bot.engine.cards import parse_card
from bot.ui import pictures

LANGUAGES = ("en", "de", "fr", "es")


def label_extents(stock: int | None, middle_label: str, middle: tuple[Card, ...],
                  discard: tuple[Card | None, int] | None) -> list[tuple[float, float, str]]:
    """(left, right, text) of each pile's label as the picture writes it."""
    words: list[pictures.Words] = []
    frame = pictures._frame(3)
    pictures._draw_centre(*pictures._nowhere(), frame, "", stock, middle_label, middle,
                          discard, "", only="labels", words=words)
    out = []
    for (x, _y), text, font, _fill, anchor in words:
        assert anchor == "mm"
        half = pictures._length(font, text) / 2
        out.append((x - half, x + half, text))
    return sorted(out)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("counts", [(42, 1), (9, 12), (0, 0), (88, 88)])
def test_the_stock_and_discard_labels_keep_apart(lang, counts):
    token = i18n.enter(lang)
    try:
        labels = label_extents(counts[0], "", (), (parse_card("5C"), counts[1]))
    finally:
        i18n.leave(token)
    assert len(labels) == 2
    (left_a, right_a, a), (left_b, _right_b, b) = labels
    assert right_a + 8 <= left_b, f"{a!r} runs into {b!r} in {lang}"


def test_english_piles_keep_their_old_places():
    """The gap widens only where labels would meet: English keeps 28 pixels."""
    token = i18n.enter("en")
    try:
        labels = label_extents(42, "", (), (None, 1))
    finally:
        i18n.leave(token)
    centres = [(left + right) / 2 for left, right, _ in labels]
    assert centres[1] - centres[0] == pictures.MID_CARD + 28
