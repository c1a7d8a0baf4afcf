"""The one vocabulary of actions (``bot.engine.actions``): every name a deal
uses — its legal actions, its controls, its decisions — is an ``Action``; every
control is a button or a select, never both; a button's decision and a
decision's control go back and forth (docs/RULES.md §2)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine import choices
from bot.engine.actions import (
    ANSWERS,
    BUTTONS,
    CONTROLS,
    MOVES,
    SELECTS,
    Action,
    control_of,
    kind_of,
)
from bot.engine.cards import shuffled_deck
from bot.engine.game import Game
from bot.engine.rules import get_preset
from tests.profiles import examples

from .families import random_move
from .test_choices import TABLES

NAMES = {a.value for a in Action}


def test_every_control_is_a_button_or_a_select_and_not_both():
    assert BUTTONS.isdisjoint(SELECTS)
    assert CONTROLS == BUTTONS | SELECTS
    assert set(Action) - CONTROLS == {Action.DRAW_DISCARD}  # an option of draw_keep
    assert MOVES <= CONTROLS and ANSWERS <= CONTROLS
    assert choices.BUTTONS is BUTTONS and choices.SELECTS is SELECTS


def test_an_action_is_its_name():
    for action in Action:
        assert action == action.value and f"{action}" == action.value
        assert Action(action.value) is action
        assert hash(action) == hash(action.value)
        assert action.name.lower() == action.value


def test_a_button_makes_its_own_kind_and_decline_makes_a_refuse():
    for button in BUTTONS:
        assert choices.decide(button) == choices.Decision(kind_of(button))
    assert kind_of("decline") is Action.REFUSE
    assert control_of("draw_discard") is Action.DRAW_KEEP
    assert {control_of(a) for a in Action} == CONTROLS
    with pytest.raises(ValueError):
        kind_of("nonsense")
    with pytest.raises(ValueError):
        control_of("hand")


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=st.sampled_from(TABLES), seed=st.integers(0, 2**32 - 1), moves=st.integers(0, 60))
def test_every_name_a_deal_uses_is_of_the_vocabulary(table, seed, moves):
    preset, opts = table
    rules = get_preset(preset, opts)
    rng = random.Random(seed)
    n = rng.randint(rules.min_players, rules.max_players)
    game = Game(rules, n, rng.randrange(n))
    deal = game.start_deal(shuffled_deck(rng), rng=rng)
    for _ in range(moves):
        for seat in (None, *range(n)):
            controls = deal.controls(seat)
            assert set(controls.moves) <= MOVES - {Action.POUNCE}
            assert set(controls.answers) <= ANSWERS
            assert set(controls.private) <= BUTTONS
            if seat is not None:
                assert set(deal.legal_actions(seat)) <= NAMES
                for name in (*controls.moves, *controls.answers, *controls.private):
                    assert all(d.kind in NAMES for d in deal.choices(seat, kind_of(name)))
        if deal.finished:
            if game.complete:
                break
            deal = game.start_deal(shuffled_deck(rng), rng=rng)
            continue
        seat, decision = random_move(deal, rng)
        assert decision.kind in NAMES
        assert control_of(decision.kind) in CONTROLS
        deal.act(seat, decision)
