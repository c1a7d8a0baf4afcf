"""Issue 24 §2: the daily deal in the engine (``bot/engine/daily.py``): one seed gives
every member the same deal in the same seat; a game is a function of the seed and
the member's own moves (so it rebuilds after a restart); the deal derives as
docs/FAIRNESS.md "The daily deal" says; duplicate scores are results against the
field's average."""

from __future__ import annotations

import datetime
import hashlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.cards import card_code
from bot.engine.daily import (
    AI_NAMES,
    LEVEL,
    SEATS,
    DailyError,
    DailyGame,
    day_end,
    day_from_number,
    day_number,
    day_of,
    deck_of,
    duplicate_scores,
    ranked,
    verify_seed,
)
from bot.engine.fairness import Shuffler, below, message, stream
from bot.engine.proof import verify_record

DAY = datetime.date(2026, 12, 3)
SEED = bytes(range(32))


def play(game: DailyGame, pick: int) -> DailyGame:
    """Play ``game`` to its end, choosing the ``pick``-th legal decision (modulo) each time."""
    while not game.finished:
        decisions = [d for name in game.deal.legal_actions(game.seat)
                     for d in game.deal.choices(game.seat, name)]
        game.act(decisions[pick % len(decisions)])
    return game


def test_days_are_numbered_from_1970_and_end_at_midnight_utc():
    assert day_number(datetime.date(1970, 1, 1)) == 0
    assert day_number(DAY) == 20790 and day_from_number(20790) == DAY
    assert day_end(DAY) == datetime.datetime(2026, 12, 4, tzinfo=datetime.UTC)
    late = datetime.datetime(2026, 12, 3, 23, 30, tzinfo=datetime.timezone(datetime.timedelta(hours=-5)))
    assert day_of(late) == datetime.date(2026, 12, 4)  # 04:30 UTC the next day
    with pytest.raises(ValueError):
        day_number(datetime.date(1969, 12, 31))


def test_the_deal_is_the_seeds_deck_of_deal_1_attempt_1_no_cuts_with_the_day_as_table():
    game = DailyGame.start(SEED, DAY)
    shuffler = Shuffler(SEED, day_number(DAY), "foster")
    assert [card_code(c) for c in game.deal.deck] == deck_of(SEED, DAY)
    assert list(game.deal.deck) == shuffler.deck(1, 1, ())
    # the first dealer by hand from the algorithm's own parts (docs/FAIRNESS.md)
    values = stream(SEED, message("first-dealer", day_number(DAY), "foster", 1, 1, 0))
    assert game.game.first_dealer == below(values, SEATS) == game.deal.dealer
    assert game.seat == game.deal.turn_order()[0]  # the eldest hand
    assert game.deal.to_act == game.seat and not game.finished
    assert game.game.shuffle_log is not None
    assert game.game.shuffle_log.commitment == hashlib.sha256(SEED).hexdigest()


def test_every_member_gets_the_same_deal_and_another_day_another():
    one, two = DailyGame.start(SEED, DAY), DailyGame.start(SEED, DAY)
    assert one.deal.deck == two.deal.deck and one.seat == two.seat
    assert one.deal.observation(one.seat) == two.deal.observation(two.seat)
    assert DailyGame.start(SEED, DAY + datetime.timedelta(days=1)).deal.deck != one.deal.deck


@settings(max_examples=25, deadline=None)
@given(seed=st.binary(min_size=32, max_size=32), pick=st.integers(0, 6))
def test_a_game_rebuilds_from_the_seed_and_the_members_moves(seed, pick):
    game = play(DailyGame.start(seed, DAY), pick)
    assert game.result is not None and game.finished and game.game.closed
    assert all(row["seat"] == game.seat for row in game.own)
    again = DailyGame.replay(seed, DAY, game.own)
    assert again.result == game.result and again.deal.delta == game.deal.delta
    assert again.deal.operations == game.deal.operations
    # halfway through too: the same state, and the same result from there on
    half = DailyGame.replay(seed, DAY, game.own[:len(game.own) // 2])
    assert half.seq == len(game.own) // 2
    assert play(half, pick).result == game.result


def test_moves_of_another_seat_or_another_day_do_not_replay():
    game = play(DailyGame.start(SEED, DAY), 0)
    other = (game.seat + 1) % SEATS
    with pytest.raises(DailyError):
        DailyGame.replay(SEED, DAY, [{**game.own[0], "seat": other}])
    with pytest.raises(DailyError):
        DailyGame.replay(SEED, DAY, [{"kind": "trade", "seat": game.seat, "card": "zz"}])


def test_the_record_of_a_finished_game_proves_the_seed_and_the_shuffle():
    game = play(DailyGame.start(SEED, DAY), 1)
    record = game.to_record("ann")
    assert record["table"] == day_number(DAY) and record["rules"] == "foster"
    assert record["players"][game.seat] == "ann"
    assert [p for s, p in enumerate(record["players"]) if s != game.seat] == list(AI_NAMES)
    assert set(record["ai_levels"].values()) == {LEVEL}
    assert record["shuffle"]["seed"] == SEED.hex()
    _, summary = verify_record(record)
    checks = {c["check"]: c["status"] for c in summary["checks"]}
    assert checks["commitment"] == checks["random"] == checks["chain"] == "proven"
    assert checks["cuts"] == "not proven"  # nobody cuts a deal everybody shares


def test_the_revealed_seed_verifies_against_its_commitment_only():
    committed = hashlib.sha256(SEED).hexdigest()
    assert verify_seed(SEED.hex(), committed) and verify_seed(SEED.hex(), committed.upper())
    assert not verify_seed(bytes(32).hex(), committed)
    assert not verify_seed("not hex", committed) and not verify_seed("abcd", committed)


def test_duplicate_scores_are_results_against_the_average_and_add_up_to_zero():
    assert duplicate_scores({}) == {}
    scores = duplicate_scores({1: 5, 2: -1, 3: -1})
    assert scores == {1: 4.0, 2: -2.0, 3: -2.0} and sum(scores.values()) == 0
    assert ranked({1: 5, 2: -1, 3: -1, 4: 3}) == [
        (1, 1, 5, 3.5), (2, 4, 3, 1.5), (3, 2, -1, -2.5), (3, 3, -1, -2.5)]
