"""The pictures' attachments (bot/ui/media.py) say what they show: the table's and
the showdown's descriptions come from the public observation only and name no
card the public may not see, the hand's from its owner's view; all in the
current language, within Discord's 1,024 characters."""

from __future__ import annotations

import re

import pytest

from bot import i18n
from bot.engine import PRESETS
from bot.ui import media
from bot.ui.cards import card_label, hand_label
from tests.ui.test_render import CARD, moments, played_table, public_cards

NAMES = ["Ann", "Ben", "Cat", "Dora", "Eli", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lou"]


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_a_public_picture_s_description_names_only_public_cards(preset):
    live, rng = played_table(preset, 4, n=4, names=NAMES)
    showdowns = 0
    for deal in moments(live, rng):
        table = media.picture_file(media.table_png(live)).description
        assert table is not None and len(table) <= 1024
        assert all(name in table for name in NAMES[:4]), table
        if not deal.finished:
            public = public_cards(deal.observation(None))
            assert set(CARD.findall(table)) <= public, (table, public)
            continue
        showdowns += 1
        showdown = media.showdown_file(live).description
        assert showdown is not None and len(showdown) <= 1024
        sd = deal.showdown
        assert sd is not None
        shown = {label for hand in sd.hands for label in hand_label(hand).split()}
        assert set(CARD.findall(showdown)) == shown, showdown
        for seat, hand in enumerate(sd.hands):
            if hand:
                assert f"{NAMES[seat]}: {hand_label(hand)} — " in showdown \
                    or f"{NAMES[seat]} (dealer): {hand_label(hand)} — " in showdown, showdown
    assert showdowns


def test_the_descriptions_say_what_the_pictures_show_in_the_current_language():
    live, rng = played_table("widow", 5, n=3, names=NAMES)
    deal = next(moments(live, rng, deals=1))
    widow = deal.observation(None).widow
    assert widow
    english = media.picture_file(media.table_png(live)).description
    assert english is not None
    assert english.startswith(f"Table: {media.table_title(live)}. ")
    # the widow's cards in the order the picture lays them out, not sorted (issue 23 §3)
    in_place = " ".join(card_label(c) for c in widow)
    assert f"Face up (widow): {in_place}." in english
    assert re.search(r"Stock: \d+ cards\.", english)
    with i18n.use("de"):
        german = media.picture_file(media.table_png(live)).description
        assert german is not None and german != english
        assert german.startswith(i18n._("Table: {title}.").format(title=media.table_title(live)))
        assert in_place in german
    seat = deal.to_act
    hand = media.hand_file(deal.observation(seat)).description
    assert hand is not None and hand.startswith(f"Your hand: {hand_label(deal.hands[seat])} — ")
    others = {c for s, h in enumerate(deal.hands) if s != seat for c in h} - set(widow)
    assert not set(CARD.findall(hand)) & {hand_label([c]) for c in others}
