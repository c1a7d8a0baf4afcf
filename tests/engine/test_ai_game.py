"""``strong`` playing for the game (docs/AI.md "Playing for the game"): the
oldway standing model (``prospects``), the playouts' game score, the horse, the
arena's ``gamewise`` and ``dealwise`` seats, and a game mode run that replays
exactly."""

from __future__ import annotations

import random

import pytest

from bot.engine import arena, normal, prospects, strong
from bot.engine.cards import shuffled_deck
from bot.engine.family import DealBase, Decision
from bot.engine.game import Game
from bot.engine.rules import get_preset
from bot.engine.strong import Budget
from bot.engine.view import seat_view
from bot.engine.widow import WidowDeal

OLDWAY = get_preset("oldway")
SMALL = Budget(playouts=8, seconds=None)


def value(lives: tuple[int, ...], seat: int, pool: int, horse: bool = False) -> float:
    return prospects.oldway_value(OLDWAY, lives, seat, pool, horse)


def test_the_last_two_seats_share_what_is_left_by_hand():
    """Two seats with one life each, pool 3: the best hand takes 1 and the other
    loses its last life, so the best hand also sweeps 2; either seat alike."""
    assert value((1, 1, 0), 0, 3) == pytest.approx(1.5)
    # two lives against one, pool 3: the seat with two takes 1 + the sweep of 2
    # when it has the best hand, else it is left at one life each with pool 2
    # (worth 1: half of 1 + 1): (3 + 1) / 2; the other (0 + 1 + 1) / 2
    assert value((2, 1, 0), 0, 3) == pytest.approx(2.0)
    assert value((2, 1, 0), 1, 3) == pytest.approx(1.0)


def test_out_of_the_game_or_game_over_is_worth_nothing():
    assert value((0, 2, 1), 0, 5, True) == 0.0
    assert value((1, 0, 0), 0, 5) == 0.0  # the sweep was paid in the deal that ended it


def test_without_the_horse_the_seats_share_exactly_the_pool():
    """Every point the model pays out comes from the pool: the seats' values add
    up to it, in any standing."""
    for lives in [(3, 3, 3), (3, 1, 2), (1, 1, 1), (2, 2, 0)]:
        for pool in (0, 1, 4, 9):
            total = sum(value(lives, s, pool) for s in range(3))
            assert total == pytest.approx(pool if sum(n > 0 for n in lives) > 1 else 0)


def test_a_life_is_worth_about_a_point_when_the_pool_matches_the_lives():
    """An oldway game starts with 9 points and 9 lives at three seats, and every deal
    takes a point and a life: at such a standing a seat's future is its lives,
    one point each (docs/AI.md), not the 3 points a life cost."""
    assert value((3, 3, 3), 0, 9, True) == pytest.approx(3.0)
    assert value((2, 3, 3), 0, 8, True) == pytest.approx(2.0)
    assert value((1, 3, 2), 0, 6, True) == pytest.approx(1.0)
    assert value((3, 1, 2), 0, 6, True) == pytest.approx(3.0)


def test_the_horse_is_a_wash_at_a_matching_pool_and_a_loss_below_it():
    """At a standing where the pool matches the lives the horse returns its price
    (a tie: bought); with less in the pool it costs more than it returns."""
    assert prospects.horse_gain(OLDWAY, (0, 3, 3), 0, 6) == pytest.approx(0.0)
    assert prospects.horse_gain(OLDWAY, (0, 3, 3), 0, 4) < 0
    assert prospects.horse_gain(OLDWAY, (0, 2, 1), 0, 5) > 0


def test_the_model_stops_at_its_seat_limit():
    big = (3,) * (prospects.MAX_SEATS + 1)
    assert prospects.seat_value(OLDWAY, big, 0, 15, True) is None
    assert prospects.seat_value(get_preset("widow"), (1, 1, 1), 0, 3, False) is None
    with pytest.raises(ValueError):
        prospects.oldway_value(OLDWAY, big, 0, 15, True)
    with pytest.raises(ValueError):
        prospects.oldway_value(OLDWAY, (3, 3, 3), 0, -1, True)


def _played(preset: str, seed: int) -> DealBase:
    game = Game(get_preset(preset), 3, 0)
    deal = game.start_deal(shuffled_deck(random.Random(seed)))
    while not deal.finished:
        seat = deal.to_act
        assert seat is not None
        deal.act(seat, normal.choose(deal.observation(seat)))
    return deal


def test_game_outcome_adds_the_standing_in_oldway_and_is_outcome_elsewhere():
    deal = _played("oldway", 3)
    assert isinstance(deal, WidowDeal) and deal.lives is not None
    for seat in range(3):
        future = value(tuple(deal.lives), seat, deal.pool, deal.horse_available)
        assert strong.game_outcome(deal, seat) == pytest.approx(deal.delta[seat] + future)
    # the seat that lost a life is worth a point less than before, not three
    loser = deal.loser
    assert loser is not None
    before = strong.outcome(deal, loser) - deal.delta[loser]
    assert before == -strong.LIFE_VALUE
    for preset in ("foster", "hoyle", "widow", "jaques"):
        other = _played(preset, 3)
        assert all(strong.game_outcome(other, s) == strong.outcome(other, s) for s in range(3))


def _horse_point(pool: int) -> tuple[WidowDeal, int]:
    """An oldway deal at its horse decision: seat 0 lost its last life."""
    deal = WidowDeal(OLDWAY, 3, 2, list(range(52)), lives=(1, 3, 3), first=False,
                     carried_pool=pool)
    while deal.phase != "horse":
        seat = deal.to_act
        assert seat is not None
        obs = deal.observation(seat)
        stand = seat == 0 and "stand" in obs.legal  # seat 0 stands on its dealt hand
        deal.act(seat, Decision("stand") if stand else normal.choose(obs))
        if deal.finished:
            pytest.skip("seat 0 did not lose in this deal")
    return deal, deal.loser  # type: ignore[return-value]


def test_strong_declines_a_horse_that_costs_more_than_it_returns():
    """Two lives of others against a pool of 1: one more life returns less than
    its point; ``dealwise`` (a life at 3 points) buys it all the same."""
    deal, loser = _horse_point(2)
    obs = deal.observation(loser)
    assert obs.lives == (0, 3, 3) and obs.pool == 1
    gain = prospects.horse_gain(OLDWAY, obs.lives, loser, obs.pool)
    assert gain is not None and gain < 0
    game = strong.choose(seat_view(deal, loser), random.Random(1), SMALL, game=True)
    dealwise = strong.choose(seat_view(deal, loser), random.Random(1), SMALL, game=False)
    assert dealwise.kind == "buy_horse" and game.kind == "decline_horse"
    assert strong.choose(seat_view(deal, loser), random.Random(1), SMALL) == dealwise  # default
    rich, _ = _horse_point(9)
    assert strong.choose(seat_view(rich, loser), random.Random(1), SMALL,
                         game=True).kind == "buy_horse"


def test_outside_oldway_playing_for_the_game_changes_no_decision():
    """The game score is ``outcome`` outside oldway: the same decisions."""
    for preset in ("foster", "widow", "jaques"):
        game = Game(get_preset(preset), 3, 0)
        deal = game.start_deal(shuffled_deck(random.Random(5)))
        for _ in range(4):
            if deal.finished:
                break
            seat = deal.to_act
            assert seat is not None
            view = seat_view(deal, seat)
            a = strong.choose(view, random.Random(2), SMALL, game=True)
            assert a == strong.choose(view, random.Random(2), SMALL, game=False)
            deal.act(seat, a)


def test_strong_scores_by_the_deal_unless_asked_to_play_for_the_game():
    """``GAME`` is off (measured: docs/AI.md "Playing for the game"): the level
    ``strong`` decides as ``dealwise``."""
    assert strong.GAME is False
    game = Game(OLDWAY, 3, 0)
    deal = game.start_deal(shuffled_deck(random.Random(11)))
    for _ in range(6):
        if deal.finished:
            break
        seat = deal.to_act
        assert seat is not None
        view = seat_view(deal, seat)
        a = strong.choose(view, random.Random(4), SMALL)
        assert a == strong.choose(view, random.Random(4), SMALL, game=False)
        deal.act(seat, a)


def test_a_game_mode_run_with_both_strongs_replays_exactly():
    """The arena's game mode with ``gamewise`` and ``dealwise``: the same report
    twice, and each game's score is the ledger of the same game replayed by hand
    (every decision from its seeded random source)."""
    policies = ["gamewise", "dealwise", "normal"]
    report = arena.run_arena("oldway", policies, 1, 7, games=True, playouts=SMALL.playouts or 0)
    again = arena.run_arena("oldway", policies, 1, 7, games=True, playouts=SMALL.playouts or 0)
    assert again.per_deck == report.per_deck and report.decisions["dealwise"] > 0
    totals = dict.fromkeys(policies, 0.0)
    for t, table in enumerate(arena.seatings_of(policies, 3)):
        game = Game(OLDWAY, 3, 0)
        number = 0
        while not game.complete and number < arena.MAX_DEALS:
            tag = f"7:0:{number}"
            deal = game.start_deal(shuffled_deck(random.Random(f"arena-game:{tag}")),
                                   rng=random.Random(f"arena:{tag}:stock"))
            moves = 0
            while not deal.finished:
                seat = deal.to_act
                assert seat is not None
                rng = random.Random(f"arena:{tag}:{t}:{moves}")
                level = table[seat]
                if level == "normal":
                    decision = normal.choose(deal.observation(seat))
                else:
                    decision = strong.choose(seat_view(deal, seat), rng, SMALL,
                                             game=level == "gamewise")
                deal.act(seat, decision)
                moves += 1
            number += 1
        for seat, balance in enumerate(game.ledger):
            totals[table[seat]] += balance
    assert report.per_deck == {p: (totals[p] / 6,) for p in policies}
