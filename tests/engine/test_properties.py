"""Random playthroughs with invariants (in the manner of OpenSpiel and RLCard).

Hypothesis chooses the table (preset, direction, 3..12 seats, first dealer),
the seeded decks and every action. After each action: the 52 cards are all
there once, each hand holds 3; finished deals conserve points; illegal
actions are refused without changing anything; records replay exactly.
"""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from bot.engine.cards import shuffled_deck
from bot.engine.family import IllegalAction
from bot.engine.game import Game, replay
from bot.engine.rules import get_preset
from bot.engine.trade import TradeDeal
from tests.profiles import examples

from .support import (
    TRADE_PRESETS,
    Action,
    ai_action,
    assert_cards_conserved,
    assert_deal_balanced,
    can,
    legal_actions,
    perform,
    snapshot,
    verify,
)

PROPERTY_SETTINGS = settings(
    max_examples=examples(150),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
MAX_RANDOM_ACTIONS = 60  # per deal; then the deal is closed by knocking


def without_knocks(legal: list[Action]) -> list[Action]:
    """The legal actions that do not end the deal by a knock (when any)."""
    calm = [
        (kind, seat, card, knock)
        for kind, seat, card, knock in legal
        if kind != "knock" and not knock and not (kind == "answer" and card is None)
    ]
    return calm or legal


@st.composite
def tables(draw: st.DrawFn) -> tuple[str, dict[str, Any], int, int]:
    preset = draw(st.sampled_from(TRADE_PRESETS))
    options = {"direction": draw(st.sampled_from(["clockwise", "anticlockwise"]))}
    n = draw(st.integers(3, 12))
    first = draw(st.integers(0, n - 1))
    return preset, options, n, first


candidate_actions = st.tuples(
    st.sampled_from(["trade", "barter", "knock", "answer"]),
    st.integers(-1, 12),
    st.one_of(st.none(), st.integers(0, 51)),
    st.booleans(),
)


def probe_illegal(deal: TradeDeal, action: Action, legal: list[Action]) -> None:
    """A candidate action: if ``can_x`` refuses it, it must raise and change nothing."""
    kind, seat, card, knock = action
    if kind in ("trade", "barter") and card is None:
        return
    if kind == "knock":
        action = (kind, seat, None, False)
    elif kind == "answer":
        action = (kind, seat, card, False)
    if can(deal, action):
        assert action in legal
        verify(deal, action)
        return
    assert action not in legal
    before = snapshot(deal)
    for attempt in (verify, perform):
        try:
            attempt(deal, action)
        except IllegalAction as exc:
            assert str(exc)
        else:
            raise AssertionError(f"{action} was applied although can_x refused it")
    assert snapshot(deal) == before


def close_deal(deal: TradeDeal) -> None:
    """End a deal with legal moves: answer any barter, then knock."""
    while not deal.finished:
        seat = deal.to_act
        assert seat is not None
        if deal.pending is not None:
            refuse = deal.can_answer(seat, None)
            perform(deal, ("answer", seat, None if refuse else deal.hands[seat][0], False))
        else:
            perform(deal, ("knock", seat, None, False))
        assert_cards_conserved(deal)


def check_game(game: Game, players: list[str], options: dict[str, Any]) -> None:
    """Every finished deal balances, the ledger plus the carried pool is zero,
    and the record replays to the same game."""
    for deal in game.deals:
        if deal.finished:
            assert_deal_balanced(deal)
        else:
            assert deal is game.deals[-1]
    if game.current is None:
        assert sum(game.ledger) + game.carry == 0
    record = game.to_record(players, options)
    again = replay(json.loads(json.dumps(record)))
    assert again.summary() == game.summary()
    assert [d.operations for d in again.deals] == [d.operations for d in game.deals]


#: the suite's slowest property test (every draw is Hypothesis's): fewer examples than the
#: others here; scripts/thorough runs 500
@settings(PROPERTY_SETTINGS, max_examples=examples(25, thorough=500))
@given(table=tables(), data=st.data())
def test_random_legal_games_keep_every_invariant(table, data):
    preset, options, n, first = table
    rules = get_preset(preset, options)
    game = Game(rules, n, first)
    deals_to_play = data.draw(st.integers(1, n), label="deals")
    finish_last = data.draw(st.booleans(), label="finish last deal")
    for number in range(deals_to_play):
        seed = data.draw(st.integers(0, 2**32 - 1), label="deck seed")
        deal = game.start_deal(shuffled_deck(random.Random(seed)))
        assert_cards_conserved(deal)
        # "calm" deals avoid knocking so that the stock can run out
        calm = data.draw(st.booleans(), label="calm")
        for _ in range(MAX_RANDOM_ACTIONS):
            if deal.finished:
                break
            legal = legal_actions(deal)
            assert legal, "a seat is to act but has no legal action"
            assert all(a[1] == deal.to_act for a in legal)
            if data.draw(st.booleans(), label="probe"):
                probe_illegal(deal, data.draw(candidate_actions, label="candidate"), legal)
            choices = without_knocks(legal) if calm else legal
            action = data.draw(st.sampled_from(choices), label="action")
            perform(deal, action)
            assert_cards_conserved(deal)
        if number < deals_to_play - 1 or finish_last:
            close_deal(deal)
            sd = deal.showdown
            assert sd is not None
            event(f"ended by {sd.ended_by}" + (", pool carried" if sd.winner is None else ""))
    check_game(game, [f"p{i}" for i in range(n)], options)


@PROPERTY_SETTINGS
@given(table=tables(), seed=st.integers(0, 2**32 - 1))
def test_ai_games_keep_every_invariant_and_end(table, seed):
    preset, options, n, first = table
    rng = random.Random(seed)
    game = Game(get_preset(preset, options), n, first)
    while not game.complete:
        deal = game.start_deal(shuffled_deck(rng))
        for _ in range(2000):
            if deal.finished:
                break
            perform(deal, ai_action(deal))
            assert_cards_conserved(deal)
        assert deal.finished, "an AI deal did not end"
        assert_deal_balanced(deal)
    assert game.winners is not None
    check_game(game, [f"p{i}" for i in range(n)], options)


@settings(max_examples=examples(100), deadline=None)
@given(table=tables(), seed=st.integers(0, 2**32 - 1), cut=st.integers(0, 200))
def test_records_of_games_in_progress_replay_exactly(table, seed, cut):
    preset, options, n, first = table
    rng = random.Random(seed)
    game = Game(get_preset(preset, options), n, first)
    moves = 0
    while not game.complete and moves < cut:
        deal = game.current or game.start_deal(shuffled_deck(rng))
        legal = legal_actions(deal)
        perform(deal, legal[rng.randrange(len(legal))])
        moves += 1
    check_game(game, [f"p{i}" for i in range(n)], options)


@settings(max_examples=examples(100), deadline=None)
@given(table=tables(), seed=st.integers(0, 2**32 - 1), data=st.data())
def test_void_refunds_and_keeps_cards(table, seed, data):
    preset, options, n, first = table
    rng = random.Random(seed)
    game = Game(get_preset(preset, options), n, first)
    deal = game.start_deal(shuffled_deck(rng))
    for _ in range(data.draw(st.integers(0, 20))):
        if deal.finished:
            return
        legal = legal_actions(deal)
        perform(deal, legal[rng.randrange(len(legal))])
    if deal.finished:
        return
    assert game.close() is deal
    assert deal.delta == [0] * n
    assert game.ledger == [0] * n
    assert_cards_conserved(deal)


def test_random_play_reaches_every_kind_of_ending():
    """The generators above are not idle: seeded random play reaches knocks,
    refusals, stock endings, hoyle carries and under-stock cycles."""
    seen: set[str] = set()
    rng = random.Random(2024)
    for game_number in range(300):
        preset = TRADE_PRESETS[game_number % len(TRADE_PRESETS)]
        n = rng.randint(3, 12)
        game = Game(get_preset(preset), n, rng.randrange(n))
        while not game.complete:
            deal = game.start_deal(shuffled_deck(rng))
            calm = rng.random() < 0.5
            while not deal.finished:
                legal = legal_actions(deal)
                # hoyle's stock never runs out: calm play stops after 200 moves
                calm = calm and len(deal.operations) < 200
                choices = without_knocks(legal) if calm else legal
                action = choices[rng.randrange(len(choices))]
                perform(deal, action)
                if action[0] == "answer" and action[2] is None:
                    seen.add("refusal")
                if deal.rules.traded_card == "under_stock" and len(deal.operations) > 52:
                    seen.add("stock cycled")
            sd = deal.showdown
            assert sd is not None
            seen.add(f"{sd.ended_by}")
            if sd.winner is None:
                seen.add("carry")
            assert_deal_balanced(deal)
        assert sum(game.ledger) + game.carry == 0
    assert seen == {"knock", "stock", "refusal", "carry", "stock cycled"}
