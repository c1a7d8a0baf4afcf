"""A seat's name on its plate: whole when a smaller size lets it fit, cut only
when it is too long even then (issue 23: "AI Babb…" was cut with room to spare)."""

from __future__ import annotations

import pytest

from bot.ui import pictures

ROOMS = {"plain": pictures.PLATE_W - 24, "dealer": pictures.PLATE_W - 24 - 20}


@pytest.mark.parametrize("room", ROOMS.values(), ids=ROOMS.keys())
@pytest.mark.parametrize("name", ["🤖 AI Babbage", "🤖 AI Lovelace", "Maximilienne"])
def test_a_name_that_fits_a_smaller_size_is_written_whole(name, room):
    font = pictures._name_font(name, room)
    assert pictures._fit(name, font, room) == name
    assert pictures._length(font, name) <= room


def test_a_short_name_keeps_the_usual_size():
    assert pictures._name_font("Ann", ROOMS["dealer"]).size == 21


def test_a_name_too_long_for_any_size_is_cut_in_the_usual_size():
    name = "Bartholomew the Long-Named"
    font = pictures._name_font(name, ROOMS["plain"])
    assert font.size == 21
    assert pictures._fit(name, font, ROOMS["plain"]).endswith("…")
