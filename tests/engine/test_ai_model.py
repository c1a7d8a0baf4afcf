"""strong's opponent model in the widow family (docs/AI.md "How strong decides",
step 2): with ``strong.MODEL_SWAPS`` a world is less plausible when another
seat's latest swap did not leave the best hand a swap could have there."""

from __future__ import annotations

import random

import pytest

from bot.engine import normal, strong
from bot.engine.cards import shuffled_deck
from bot.engine.family import Decision
from bot.engine.game import Game
from bot.engine.hands import score
from bot.engine.moves import best_swap
from bot.engine.rules import get_preset
from bot.engine.view import seat_view

from .test_ai_levels import every_choice, walk


def _pct(cards, ranking) -> float:
    return normal.percentile(score(list(cards), ranking), ranking)


def _opening():
    """An oldway deal of the arena (seed 11, deck 17) after its first three
    moves: the dealer keeps its hand, seat 1 takes two widow cards and keeps
    one of its own (the best swap), seat 2 does the same; seat 0 to act."""
    rules = get_preset("oldway")
    deal = Game(rules, 3, 0).start_deal(shuffled_deck(random.Random("arena:11:17")),
                                        rng=random.Random("arena:11:17:stock"))
    deal.act(0, Decision("keep_hand"))
    for seat in (1, 2):
        obs = deal.observation(seat)
        best = best_swap(tuple(obs.hand), tuple(obs.widow), rules.swap_max,
                         lambda cards: _pct(cards, rules.ranking))
        assert best is not None and best[0] > _pct(obs.hand, rules.ranking)
        deal.act(seat, Decision("swap", give=best[1], take=best[2]))
    assert deal.to_act == 0
    return deal


def test_a_swap_that_was_not_the_best_makes_a_world_implausible():
    deal = _opening()
    view = seat_view(deal, 0)
    model = strong._Model(view)
    ranking = view.obs.rules.ranking
    i = 1
    event = view.log[i].event
    assert event.kind == "swap" and event.seat == 1 and len(event.given) == 2
    kept = [c for c in deal.hands[1] if c not in event.taken]
    assert len(kept) == 1
    widow = tuple(view.opening)
    hand = (*event.given, kept[0])
    assert model._best_swap(1, i, hand, widow)  # the seat's real hand: the best swap
    misfits = 0
    for other in range(52):
        if other in hand or other in widow or other in deal.hands[0]:
            continue
        fake = (*event.given, other)
        best = best_swap(fake, widow, 3, lambda cards: _pct(cards, ranking))
        after = [c for c in fake if c not in event.given] + list(event.taken)
        fits = best is None or best[0] <= _pct(fake, ranking) or _pct(after, ranking) >= best[0]
        assert model._best_swap(1, i, fake, widow) == fits
        misfits += not fits
    assert misfits >= 10


def _fitting_worlds(view, flag: bool, samples: int) -> int:
    """How many of ``samples`` sampled worlds give seat 1 a kept card with which
    its swap (log entry 1) was the best swap."""
    ranking = view.obs.rules.ranking
    event = view.log[1].event
    rng = random.Random(3)
    saved = strong.MODEL_SWAPS
    strong.MODEL_SWAPS = flag
    try:
        model = strong._Model(view)
        fits = 0
        for _ in range(samples):
            cards = strong.sample_world(view, rng, model=model)
            hand = [*event.given, *(c for c in cards.hands[1] if c not in event.taken)]
            best = best_swap(tuple(hand), tuple(view.opening), 3, lambda h: _pct(h, ranking))
            after = [c for c in hand if c not in event.given] + list(event.taken)
            assert best is not None
            fits += _pct(after, ranking) >= best[0]
        return fits
    finally:
        strong.MODEL_SWAPS = saved


def test_the_swap_check_tilts_the_sampled_worlds():
    """With the check, far more sampled worlds give seat 1 a kept card that fits
    the cards it took (its swap was the best there) than without it."""
    view = seat_view(_opening(), 0)
    without, with_check = _fitting_worlds(view, False, 200), _fitting_worlds(view, True, 200)
    assert with_check > 1.5 * without, (without, with_check)


@pytest.mark.parametrize("preset", ["widow", "oldway"])
def test_strong_decides_legally_with_the_swap_check(monkeypatch, preset):
    monkeypatch.setattr(strong, "MODEL_SWAPS", True)
    budget = strong.Budget(playouts=24, seconds=None)
    points = 0
    for deal, seat in walk(preset, {}, 7, deals=3):
        if points >= 10:
            break
        decision = strong.choose(seat_view(deal, seat), random.Random(points), budget)
        assert decision in every_choice(deal, seat)
        points += 1
    assert points >= 5
