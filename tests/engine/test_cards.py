"""Cards, codes, labels and shuffles (docs/RULES.md §3 card codes)."""

from __future__ import annotations

import inspect
import random

import pytest

from bot.engine import cards as cards_module
from bot.engine.cards import (
    DECK,
    card_code,
    card_label,
    hand_label,
    parse_card,
    rank,
    shuffled_deck,
    suit,
)


def test_every_code_round_trips_and_codes_are_distinct():
    codes = [card_code(c) for c in DECK]
    assert len(set(codes)) == 52
    assert [parse_card(code) for code in codes] == list(DECK)
    assert {code[0] for code in codes} == set("23456789TJQKA")
    assert {code[1] for code in codes} == set("cdhs")


@pytest.mark.parametrize(
    ("code", "rank_index", "suit_index"),
    [("2c", 0, 0), ("Td", 8, 1), ("Jh", 9, 2), ("As", 12, 3), ("Kc", 11, 0)],
)
def test_parse_card_gives_rank_and_suit(code, rank_index, suit_index):
    card = parse_card(code)
    assert rank(card) == rank_index
    assert suit(card) == suit_index


@pytest.mark.parametrize(("code", "label"), [("Td", "10♦"), ("As", "A♠"), ("2c", "2♣"), ("Qh", "Q♥")])
def test_labels_use_symbols_and_ten_is_10(code, label):
    assert card_label(parse_card(code)) == label


@pytest.mark.parametrize("bad", ["", "T", "1c", "Tx", "10d", "Tdd", "  ", "Zc"])
def test_parse_card_rejects_non_codes(bad):
    with pytest.raises(ValueError, match="not a card code"):
        parse_card(bad)


@pytest.mark.parametrize("bad", [5, None, ["Td"]])
def test_parse_card_rejects_non_strings(bad):
    with pytest.raises(ValueError):
        parse_card(bad)


def test_hand_label_lists_highest_first():
    hand = [parse_card(c) for c in ("4c", "As", "Th")]
    assert hand_label(hand) == "A♠ 10♥ 4♣"


def test_seeded_shuffle_is_a_reproducible_permutation():
    first = shuffled_deck(random.Random(1234))
    again = shuffled_deck(random.Random(1234))
    other = shuffled_deck(random.Random(1235))
    assert first == again
    assert sorted(first) == list(range(52))
    assert first != other
    assert first != list(DECK)


def test_unseeded_shuffle_uses_the_os_csprng(monkeypatch):
    source = inspect.getsource(cards_module.shuffled_deck)
    assert "secrets.SystemRandom()" in source

    calls: list[list[int]] = []

    class RecordingSystemRandom(random.Random):
        def shuffle(self, x, *args, **kwargs):  # test double
            calls.append(list(x))
            x.reverse()

    monkeypatch.setattr(cards_module.secrets, "SystemRandom", RecordingSystemRandom)
    deck = cards_module.shuffled_deck()
    assert calls == [list(DECK)]
    assert deck == list(reversed(DECK))


def test_unseeded_shuffles_differ():
    # 52! orderings: two equal CSPRNG shuffles would mean no shuffling at all.
    assert shuffled_deck() != shuffled_deck()
