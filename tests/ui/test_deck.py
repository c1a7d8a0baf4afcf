"""The four-colour deck's inks and suits (bot/i18n/deck.py): the inks of the hand
picture have at least 4.5:1 contrast on the card's white face (WCAG 2.1, the same face
on Discord's dark and light themes) and stay apart for protanopes, deuteranopes and
tritanopes (Machado's simulation, CIEDE2000, measured with ColorAide), better than the
Okabe–Ito pair they were compared with; the pictures draw each suit in its ink; text
names cards in the current deck and two colours come back after a member's block."""

from __future__ import annotations

import itertools
import random

import pytest
from coloraide import Color

from bot.engine import Game, get_preset, shuffled_deck
from bot.i18n import deck
from bot.ui import cards, pictures
from tests.ui.test_pictures import decode

DEFICIENCIES = ("protan", "deutan", "tritan")
#: the smallest difference between two suits' inks, in any of the three simulations
MIN_DIFFERENCE = 15.0


def colour(rgb: tuple[int, int, int]) -> Color:
    return Color("srgb", [v / 255 for v in rgb])


def smallest_difference(inks) -> float:
    """The smallest CIEDE2000 difference between two of ``inks`` as people with each
    colour vision deficiency see them."""
    return min(colour(a).filter(kind, method="machado").delta_e(
        colour(b).filter(kind, method="machado"), method="2000")
        for kind in DEFICIENCIES for a, b in itertools.combinations(set(inks), 2))


def test_every_four_colour_ink_reads_on_the_card_face():
    face = colour(pictures.FACE)
    for ink in pictures.FOUR_COLOUR_INK:
        assert colour(ink).contrast(face, method="wcag21") >= 4.5, ink


def test_the_four_inks_stay_apart_for_colour_blind_players():
    chosen = smallest_difference(pictures.FOUR_COLOUR_INK)
    okabe_ito = smallest_difference((pictures.BLACK, pictures.RED, (0, 114, 178), (0, 158, 115)))
    assert chosen >= MIN_DIFFERENCE > okabe_ito
    # the two-colour deck tells its pairs apart by shape only: the reason for four
    assert len(set(pictures.SUIT_INK)) == 2 and len(set(pictures.FOUR_COLOUR_INK)) == 4


def hand_of(suits: set[int]):
    """An observation of a seat whose hand holds exactly the suits ``suits``."""
    for seed in range(500):
        rng = random.Random(seed)
        deal = Game(get_preset("foster"), 3, 0).start_deal(shuffled_deck(rng), rng=rng)
        obs = deal.observation(0)
        if {c % 4 for c in obs.hand} == suits:
            return obs
    raise AssertionError("no such hand")


@pytest.mark.parametrize("suits", [{0, 1, 3}, {1, 2, 3}, {0, 2}])
def test_the_hand_picture_draws_each_suit_in_its_ink(suits):
    obs = hand_of(suits)
    four = {c for _n, c in decode(pictures.hand_png(obs, pictures.FOUR_COLOUR_INK))
            .convert("RGB").getcolors(1 << 16)}
    two = {c for _n, c in decode(pictures.hand_png(obs)).convert("RGB").getcolors(1 << 16)}
    assert (pictures.GREEN in four) == (0 in suits)
    assert (pictures.BLUE in four) == (1 in suits)
    assert (pictures.RED in four) == (2 in suits)
    assert (pictures.BLACK in four) == (3 in suits)
    assert not two & {pictures.GREEN, pictures.BLUE}
    assert (pictures.RED in two) == bool(suits & {1, 2})
    assert (pictures.BLACK in two) == bool(suits & {0, 3})


def test_text_names_cards_in_the_current_deck_and_goes_back_to_two():
    assert cards.hand_label([51, 46, 41, 36]) == "A♤ K♡ Q♢ J♧"
    with deck.use(deck.FOUR):
        assert cards.hand_label([51, 46, 41, 36]) == "A♤ K❤️ Q🔷 J☘️"
        assert cards.outline_suits("give 7♣ · take K♦") == "give 7☘️ · take K🔷"
        with deck.use("nonsense"):  # an unknown deck is the default one
            assert cards.card_label(0) == "2♧"
    assert deck.current() == deck.TWO and cards.card_label(1) == "2♢"


def test_the_public_picture_ignores_a_member_s_deck():
    obs = hand_of({0, 1, 3})
    rng = random.Random(1)
    deal = Game(get_preset("foster"), 3, 0).start_deal(shuffled_deck(rng), rng=rng)
    names = ["Ann", "Ben", "Cat"]
    plain = pictures.table_png(deal.observation(None), names)
    with deck.use(deck.FOUR):
        assert pictures.table_png(deal.observation(None), names) == plain
        assert pictures.hand_png(obs) == pictures.hand_png(obs, pictures.SUIT_INK)


def test_the_storage_keeps_the_same_decks_as_its_check():
    from bot.storage import members
    assert members.DECKS == deck.DECKS
    sql = (members.__file__.rsplit("/", 1)[0] + "/migrations/0013_member_settings.sql")
    with open(sql, encoding="utf-8") as f:
        assert "CHECK (deck IN ('two', 'four'))" in f.read()
