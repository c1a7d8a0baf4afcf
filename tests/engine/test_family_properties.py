"""Random playthroughs of the widow and discard families with invariants
(in the manner of OpenSpiel and RLCard), the companion of test_properties.py.

Hypothesis chooses the table (preset, options, seats, first dealer), the
seeded decks and every action of any seat (pounces and open offers out of
turn included). After each action: the 52 cards are all there once; balances
plus pots are conserved; observations hide what a seat may not see;
``legal_actions`` agrees with ``can_x``; illegal candidates raise and change
nothing. Games replay exactly from their records, finished or not; the AI
always chooses a legal action and its games end; a void refunds the deal.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine import easy
from bot.engine.cards import shuffled_deck
from bot.engine.family import Decision, IllegalAction
from bot.engine.game import AnyDeal, Game
from bot.engine.operations import (
    OPERATION_KINDS,
    BarterAnswer,
    BarterOffer,
    BuyHorse,
    DeclineHorse,
    Draw,
    DrawDiscard,
    DrawKeep,
    KeepHand,
    Knock,
    Offer,
    OfferAnswer,
    Pass,
    Pounce,
    Stand,
    Swap,
    TakeDiscard,
    TakeWidow,
    Trade,
    operation_from_dict,
    operation_to_dict,
)
from bot.engine.rules import get_preset
from tests.profiles import examples

from .families import (
    KINDS,
    all_moves,
    assert_cards_conserved,
    assert_money_conserved,
    assert_observations_hide,
    can_decide,
    check_replay,
    play,
    snapshot,
)

SETTINGS = settings(
    max_examples=examples(60),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

TABLES: list[tuple[str, dict[str, Any]]] = [
    ("widow", {}),
    ("widow", {"direction": "anticlockwise", "deals": 3}),
    ("oldway", {}),
    ("oldway", {"pounce": True}),
    ("oldway", {"pounce": True, "direction": "anticlockwise"}),
    ("jaques", {"chips": 3}),
    ("jaques", {"chips": 4, "stake": 1, "dead_knock": True}),
    ("jaques", {"chips": 2, "stake": 1}),
    ("jaques", {"chips": 5, "three_stake": True}),
    ("jaques", {"fixed_rounds": 2, "open_trading": True}),
    ("jaques", {"chips": 3, "direct_trading": True, "direction": "anticlockwise"}),
]


@st.composite
def tables(draw: st.DrawFn) -> tuple[str, dict[str, Any], int, int]:
    preset, options = draw(st.sampled_from(TABLES))
    rules = get_preset(preset, options)
    n = draw(st.integers(rules.min_players, rules.max_players))
    return preset, options, n, draw(st.integers(0, n - 1))


candidates = st.builds(
    lambda kind, seat, card, give, take, target: (seat, Decision(kind, card, give, take, target)),
    st.sampled_from(KINDS),
    st.integers(-1, 12),
    st.one_of(st.none(), st.integers(0, 51)),
    st.lists(st.integers(0, 51), max_size=4).map(tuple),
    st.lists(st.integers(0, 51), max_size=4).map(tuple),
    st.one_of(st.none(), st.integers(-1, 12)),
)


def probe(deal: AnyDeal, seat: int, decision: Decision, legal: list[tuple[int, Decision]]) -> None:
    """A candidate action: ``can_x`` agrees with the legal moves, and an illegal one
    raises with a reason and changes nothing."""
    allowed = can_decide(deal, seat, decision) if 0 <= seat < deal.n else False
    if allowed:
        assert decision.kind in deal.legal_actions(seat)
        return
    assert (seat, decision) not in legal
    before = snapshot(deal)
    try:
        deal.act(seat, decision)
    except IllegalAction as exc:
        assert str(exc)
    else:
        raise AssertionError(f"{decision} by {seat} was applied although can_x refused it")
    assert snapshot(deal) == before


def check_state(game: Game, deal: AnyDeal) -> None:
    assert_cards_conserved(deal)
    assert_money_conserved(game, deal)
    assert_observations_hide(deal)


@settings(SETTINGS, max_examples=examples(15, thorough=250))  # slow: scripts/thorough runs 250
@given(table=tables(), data=st.data())
def test_random_play_keeps_every_invariant(table, data):
    preset, options, n, first = table
    game = Game(get_preset(preset, options), n, first)
    deals = data.draw(st.integers(1, 4), label="deals")
    while len(game.deals) < deals and not game.complete:
        seed = data.draw(st.integers(0, 2**32 - 1), label="deck seed")
        rng = random.Random(seed)
        deal = game.start_deal(shuffled_deck(rng), rng=rng)
        check_state(game, deal)
        for _ in range(60):
            if deal.finished:
                break
            legal = all_moves(deal)
            assert legal, "a seat is to act but nobody has a legal action"
            assert deal.to_act is not None and deal.legal_actions(deal.to_act)
            for seat, decision in legal[:: max(1, len(legal) // 6)]:
                assert can_decide(deal, seat, decision), decision
            if data.draw(st.booleans(), label="probe"):
                probe(deal, *data.draw(candidates, label="candidate"), legal)
            mine = [m for m in legal if m[0] == deal.to_act]
            pool = mine if mine and data.draw(st.integers(0, 4), label="own") else legal
            seat, decision = pool[data.draw(st.integers(0, len(pool) - 1), label="move")]
            deal.act(seat, decision)
            check_state(game, deal)
        # finish with the AI (its decisions are always legal)
        while not deal.finished:
            seat = deal.to_act
            assert seat is not None
            decision = easy.choose(deal.observation(seat))
            assert can_decide(deal, seat, decision)
            deal.act(seat, decision)
            check_state(game, deal)
    check_replay(game)


@settings(max_examples=examples(40), deadline=None)
@given(table=tables(), seed=st.integers(0, 2**32 - 1), cut=st.integers(0, 120))
def test_games_in_progress_replay_exactly(table, seed, cut):
    preset, options, n, first = table
    rng = random.Random(seed)
    game = Game(get_preset(preset, options), n, first)
    moves = 0
    while not game.complete and moves < cut:
        deal = game.current or game.start_deal(shuffled_deck(rng), rng=rng)
        legal = all_moves(deal)
        seat, decision = legal[rng.randrange(len(legal))]
        deal.act(seat, decision)
        moves += 1
    check_replay(game)


@settings(max_examples=examples(25), deadline=None)
@given(table=tables(), seed=st.integers(0, 2**32 - 1))
def test_ai_games_are_legal_and_end(table, seed):
    preset, options, n, first = table
    game = play(get_preset(preset, options), n, first, random.Random(seed))
    assert game.complete and game.winners
    assert game.pots == (0,) * game.rules.n_pots or game.rules.game_end == "deals"
    assert_money_conserved(game)
    check_replay(game)


@settings(max_examples=examples(40), deadline=None)
@given(table=tables(), seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 30))
def test_void_refunds_the_deal_and_keeps_cards(table, seed, steps):
    preset, options, n, first = table
    rng = random.Random(seed)
    game = Game(get_preset(preset, options), n, first)
    if rng.random() < 0.5:  # sometimes void a later deal
        deal = game.start_deal(shuffled_deck(rng), rng=rng)
        while not deal.finished:
            seat = deal.to_act
            assert seat is not None
            deal.act(seat, easy.choose(deal.observation(seat)))
        if game.complete:
            return
    ledger, standing = game.ledger, game.standing
    deal = game.start_deal(shuffled_deck(rng), rng=rng)
    for _ in range(steps):
        if deal.finished:
            return
        legal = all_moves(deal)
        deal.act(*legal[rng.randrange(len(legal))])
    if deal.finished:
        return
    assert game.close() is deal and deal.voided and deal.finished
    assert deal.delta == [0] * n and deal.movements == []
    assert game.ledger == ledger and game.standing == standing
    assert game.conserved_total() == 0
    assert_cards_conserved(deal)
    assert deal.legal_actions(deal.dealer) == [] and deal.to_act is None


def test_random_play_reaches_every_kind_of_event():
    """The generators above are not idle: seeded play reaches pounces, horses,
    sweeps, reshuffles, all-pass and knock endings, dead knocks, three-stake
    pot awards, fixed-round ends and offers out of turn."""
    seen: set[str] = set()
    rng = random.Random(2026)
    for number in range(120):
        preset, options = TABLES[number % len(TABLES)]
        rules = get_preset(preset, options)
        n = rng.randint(rules.min_players, min(rules.max_players, 6))
        game = Game(rules, n, rng.randrange(n))
        while not game.complete and len(game.deals) < 40:
            deal = game.start_deal(shuffled_deck(rng), rng=rng)
            patient = rng.random() < 0.3  # long deals reach the end of the stock
            while not deal.finished:
                seat = deal.to_act
                assert seat is not None
                legal = all_moves(deal)
                calm = [m for m in legal if m[1].kind in ("draw", "draw_discard")]
                pounces = [m for m in legal if m[1].kind == "pounce"]
                if pounces and rng.random() < 0.5:
                    move = pounces[rng.randrange(len(pounces))]
                elif patient and calm and len(deal.operations) < 200:
                    move = calm[rng.randrange(len(calm))]
                elif rng.random() < 0.5:
                    move = (seat, easy.choose(deal.observation(seat)))
                else:
                    move = legal[rng.randrange(len(legal))]
                if move[0] != seat:
                    seen.add(f"{move[1].kind} out of turn")
                seen.add(move[1].kind)
                op = deal.act(*move)
                if getattr(op, "reshuffle", None):
                    seen.add("reshuffle")
            sd = deal.showdown
            assert sd is not None
            seen.add(f"ended by {sd.ended_by}")
            seen |= {m.reason for m in sd.payments}
            if sd.game_winners and rules.fixed_rounds and len(game.deals) == rules.fixed_rounds:
                seen.add("fixed rounds")
    assert {
        "pounce", "pounce out of turn", "take_widow", "keep_hand", "swap", "stand", "knock",
        "buy_horse", "decline_horse", "sweep", "reshuffle", "ended by pass", "ended by knock",
        "ended by stand", "dead_knock", "lowest", "pot", "fixed rounds", "offer out of turn",
        "accept", "refuse", "take_discard", "draw_keep", "draw_discard", "pass",
    } <= seen, seen


def test_every_operation_kind_survives_the_action_log():
    ops = [
        Trade(1, 5, True), BarterOffer(2, 7), BarterAnswer(0, None), BarterAnswer(0, 9), Knock(3),
        TakeWidow(0), KeepHand(0), Swap(1, (3, 4), (50, 51)), Stand(2), Pounce(2, 23),
        BuyHorse(0), DeclineHorse(1), TakeDiscard(1, 8), Draw(2), Draw(2, (1, 2, 3)),
        DrawKeep(2, 30), DrawDiscard(0), Pass(1), Offer(0, 2, 11), OfferAnswer(2, None),
        OfferAnswer(2, 12),
    ]
    assert {op.kind for op in ops} == set(OPERATION_KINDS)
    for op in ops:
        data = json.loads(json.dumps(operation_to_dict(op)))
        assert operation_from_dict(data) == op
    for bad in ({"kind": "swap", "seat": 1}, {"kind": "shuffle", "seat": 1},
                {"kind": "offer", "seat": 1, "target": "x", "card": "Kd"},
                {"kind": "pass", "seat": True}, {"kind": "draw", "seat": 0, "reshuffle": "Kd"}):
        with pytest.raises(ValueError):
            operation_from_dict(bad)
