"""``normal._expected_after`` remembers its answers and sums precomputed rows
(docs/AI.md "Budget"): the same floats as computing card by card, so the same
decisions, only faster."""

from __future__ import annotations

import copy
import random

import pytest

from bot.engine import normal, strong
from bot.engine.hands import RANKINGS
from bot.engine.view import seat_view

from .test_ai_levels import walk


def test_the_remembered_answer_is_the_computed_float_exactly():
    rng = random.Random(25)
    normal._EXPECTED.clear()
    for _ in range(400):
        ranking = rng.choice(RANKINGS)
        cards = rng.sample(range(52), rng.randint(3, 20))
        kept, seen = tuple(cards[:2]), set(cards[2:])
        pool = [c for c in range(52) if c not in seen and c not in kept]
        rng.shuffle(pool)  # the order of the sum is the pool's, whatever it is
        k = rng.randint(1, 5)
        expected = normal._expected_plain(kept, pool, ranking, k)
        assert normal._expected_after(kept, pool, ranking, k) == expected
        assert normal._expected_after(kept, pool, ranking, k) == expected  # remembered
    assert normal._EXPECTED  # it did remember


def test_a_full_cache_is_emptied_and_answers_stay_the_same(monkeypatch):
    monkeypatch.setattr(normal, "EXPECTED_CACHE_SIZE", 100)
    normal._EXPECTED.clear()
    normal._ROWS.clear()
    rng = random.Random(7)
    for _ in range(300):
        kept = tuple(rng.sample(range(52), 2))
        pool = [c for c in range(52) if c not in kept][: rng.randint(1, 50)]
        assert normal._expected_after(kept, pool, "classic", 2) == normal._expected_plain(
            kept, pool, "classic", 2)
    assert len(normal._EXPECTED) <= 100 and len(normal._ROWS) <= 2


@pytest.mark.parametrize("preset", ["foster", "hoyle", "parlett", "foster-more"])
def test_strong_decides_the_same_with_and_without_the_cache(preset, monkeypatch):
    budget = strong.Budget(playouts=40, seconds=None)
    cases = [(copy.deepcopy(deal), seat) for deal, seat in walk(preset, {}, 11, deals=3)
             if seat == deal.to_act][:8]
    assert len(cases) >= 4

    def decisions() -> list[object]:
        out: list[object] = []
        for i, (deal, seat) in enumerate(cases):
            view = seat_view(deal, seat)
            out += [strong.choose(view, random.Random(i), budget), normal.choose(view.obs)]
        return out

    normal._EXPECTED.clear()
    cached = decisions()
    assert normal._EXPECTED  # the cache was used
    monkeypatch.setattr(normal, "CACHE_EXPECTED", False)
    normal._EXPECTED.clear()
    assert decisions() == cached
    assert not normal._EXPECTED  # and this time it was not
