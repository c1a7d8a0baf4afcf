"""The coach's review of a game (docs/AI.md "Review"): the seat's own decisions
only, each judged from its view at that moment, the same in every run."""

from __future__ import annotations

import copy
import random

import pytest

from bot.engine import coach, easy, normal, review, strong
from bot.engine.cards import shuffled_deck
from bot.engine.family import Decision
from bot.engine.game import Game
from bot.engine.rules import get_preset

from .test_ai_levels import TABLES, twin

SMALL = strong.Budget(playouts=24, seconds=None)


def played(preset: str, options: dict[str, object], seed: int, deals: int = 2):
    """A game of three seats: seat 0 plays easy (so it errs), the others normal."""
    rng = random.Random(f"review{preset}{options}{seed}")
    game = Game(get_preset(preset, options), 3, 0)
    for _ in range(deals):
        if game.complete:
            break
        deal = game.start_deal(shuffled_deck(rng), rng=rng)
        while not deal.finished:
            seat = deal.to_act
            assert seat is not None
            obs = deal.observation(seat)
            deal.act(seat, easy.choose_easy(obs) if seat == 0 else normal.choose(obs))
    return game


@pytest.mark.parametrize(("preset", "options"), TABLES)
def test_decision_of_makes_the_same_operation(preset, options):
    game = played(preset, options, 1)
    for deal in game.deals:
        replica = review._fresh(deal)
        for op in deal.operations:
            other = copy.deepcopy(replica)
            if other.to_act == op.seat:
                made = other.act(op.seat, review.decision_of(op))
                assert type(made) is type(op) and made.seat == op.seat
                assert getattr(made, "card", None) == getattr(op, "card", None)
            replica.apply(op)


@pytest.mark.parametrize(("preset", "options"), [TABLES[0], TABLES[4], TABLES[7]])
def test_moments_are_the_seats_own_decisions_in_order(preset, options):
    game = played(preset, options, 2)
    found = list(review.moments(game.deals, 0))
    assert found, "seat 0 made no decision"
    expected = [(n, s) for n, d in enumerate(game.deals, start=1)
                for s, op in enumerate(d.operations) if op.seat == 0]
    assert [(m.deal, m.seq) for m in found] == expected[:len(found)]
    assert all(m.view.seat == 0 for m in found)
    # only the moves the member chose: the others are left out
    some = {(found[0].deal, found[0].seq)}
    assert [(m.deal, m.seq) for m in review.moments(game.deals, 0, some)] == list(some)


def test_the_advice_is_the_hint_and_the_review_repeats():
    game = played("foster", {}, 3)
    for moment in list(review.moments(game.deals, 0))[:4]:
        judged = review.judge(moment, SMALL, worlds=10)
        assert judged.advice == coach.advise(moment.view, budget=SMALL).decision
        assert review.judge(moment, SMALL, worlds=10) == judged
        assert judged.cost >= 0.0
        if judged.agrees:
            assert judged.cost == 0.0


def test_a_card_the_seat_never_saw_changes_nothing():
    game = played("foster", {}, 4, deals=1)
    deal = game.deals[0]
    rng = random.Random(5)
    other = None
    for _ in range(20):
        other = twin(deal, 0, rng)
        if other is not None and other.deck != deal.deck:
            break
    assert other is not None and other.deck != deal.deck
    mine = [review.judge(m, SMALL, worlds=8) for m in review.moments([deal], 0)]
    theirs = [review.judge(m, SMALL, worlds=8) for m in review.moments([other], 0)]
    assert [(j.decision, j.advice, j.cost) for j in mine] == \
        [(j.decision, j.advice, j.cost) for j in theirs]


def test_summary_counts_real_choices_only():
    moves = [review.Judged(1, 0, None, Decision("knock"), Decision("knock"),
                           False, 0.0),
             review.Judged(1, 2, None, Decision("knock"),
                           Decision("trade", 3), False, 1.5),
             review.Judged(1, 4, None, Decision("refuse"), Decision("refuse"),
                           True, 0.0)]
    summary = review.summarise(moves)
    assert (summary.decisions, summary.agreed, summary.cost) == (2, 1, 1.5)
    assert summary.accuracy == 0.5
    assert review.summarise([]).accuracy is None
