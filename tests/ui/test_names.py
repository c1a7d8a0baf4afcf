"""Members' names as the bot shows them (bot/ui/names.py): readable (nothing hidden,
reordered or blank, at most ``MAX_NAME`` characters), inert in markdown (no ping, no
link, no formatting), and no seat passing for another or for an AI seat."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from bot import i18n
from bot.ui import names


def seat(name: str, member_id: int | None) -> SimpleNamespace:
    return SimpleNamespace(name=name, member_id=member_id)


@pytest.mark.parametrize(("raw", "shown"), [
    ("Ann", "Ann"),
    ("  Ann \t  Lee\n", "Ann Lee"),
    ("\u202eelgoog", "elgoog"),            # a right-to-left override goes
    ("A\u200bn\u2060n", "Ann"),             # zero-width space and word joiner go
    ("\u200b\u3164\u2800", ""),             # nothing visible: blank
    ("e" + "\u0301" * 9, "\u00e9\u0301\u0301"),  # é, then at most two marks more
    ("👩\u200d💻 dev", "👩\u200d💻 dev"),     # an emoji sequence keeps its joiner
    ("x" * 40, "x" * names.MAX_NAME),
])
def test_a_name_is_made_readable(raw, shown):
    assert names.readable(raw) == shown


def test_markdown_mentions_and_links_are_inert():
    text = names.markdown_safe("@everyone **bold** [x](https://evil.example) <@&1> `c`")
    assert "@everyone" not in text and "\\@\u200beveryone" in text
    assert "https://" not in text and "https\\:\u200b//" in text  # no link to click
    assert "\\*\\*bold\\*\\*" in text and "\\[x\\]" in text and "\\<\\@\u200b&1\\>" in text
    assert names.markdown_safe("Ann Lee") == "Ann Lee"


def test_no_seat_passes_for_another_or_for_an_ai_seat():
    seats = [seat("Ann", 1), seat("Аnn", 2), seat("ANN", 3), seat("🤖 Bot", 4), seat("Bot", None),
             seat("", 5)]
    labels = names.seat_labels(seats, [None, None, None, None, "strong", None])
    assert labels[0] == "Ann"
    assert labels[1] == "Аnn (2)" and labels[2] == "ANN (3)"  # Cyrillic А and the case fold
    assert not labels[3].startswith(names.AI_MARK)  # a member cannot wear the AI mark
    assert labels[4] == f"{names.AI_MARK} Bot (strong)"
    assert labels[5] == "Player 6"
    assert names.seat_labels([seat("Bot", None)], ["easy"]) == [f"{names.AI_MARK} Bot"]


@pytest.mark.parametrize(("language", "shown"), [
    ("en", ["🤖 AI Ada (strong)", "🤖 AI Babbage", "🤖 AI (normal)", "Player 4", "AI Ann"]),
    ("de", ["🤖 KI Ada (stark)", "🤖 KI Babbage", "🤖 KI (normal)", "Spieler 4", "AI Ann"]),
    ("fr", ["🤖 IA Ada (fort)", "🤖 IA Babbage", "🤖 IA (normal)", "Joueur 4", "AI Ann"]),
    ("es", ["🤖 IA Ada (fuerte)", "🤖 IA Babbage", "🤖 IA (normal)", "Jugador 4", "AI Ann"]),
])
def test_the_words_of_a_seat_label_are_in_the_readers_language(language, shown):
    """An AI seat's word and level and a nameless member's ``Player <n>`` are worded;
    a member's own name (here one that starts with "AI") never is."""
    seats = [seat("AI Ada", None), seat("AI Babbage", None), seat("AI", None), seat("", 4),
             seat("AI Ann", 5)]
    with i18n.use(language):
        assert names.seat_labels(seats, ["strong", "easy", "normal", None, None]) == shown


@pytest.mark.parametrize("label", ["evil نام عربي", "עברית", "محمد", "ann ܐܒܓ", "ߊߓ"])
def test_a_right_to_left_name_is_isolated_so_it_reorders_nothing_after_it(label):
    """Without an isolate, "evil نام عربي: −6" shows as "evil 6− :نام عربي": the
    score after a right-to-left name was drawn into it (docs/RELIABILITY.md,
    "Hostile names")."""
    shown = names.markdown_safe(label)
    assert shown == "\u2068" + label + "\u2069"
    assert names.markdown_safe(names.readable("\u2069" + label + "\u2069\u2066")) == shown


@pytest.mark.parametrize("label", ["ann", "王小明", "Ζωή", "🤖 Ada", "12345"])
def test_a_left_to_right_or_neutral_name_is_not_isolated(label):
    assert names.markdown_safe(label) == label
