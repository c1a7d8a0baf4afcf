"""The old way (docs/RULES.md §2.6): a game stake, three
lives, the dealer's blind choice of the middle, swaps of one to three cards,
standing, the worst hand losing a life, the horse, the sweep and pounce."""

from __future__ import annotations

import random

import pytest

from bot.engine import easy
from bot.engine.cards import parse_card
from bot.engine.family import Decision, IllegalAction, Movement
from bot.engine.game import Game, record_actions, replay
from bot.engine.hands import Category, describe, score
from bot.engine.operations import BuyHorse, Pounce, Stand
from bot.engine.rules import PRESETS, get_preset
from bot.engine.widow import WidowDeal

from .families import (
    assert_cards_conserved,
    assert_money_conserved,
    check_replay,
    layout_deck,
    play,
    random_move,
    snapshot,
)
from .support import cards

OLDWAY = PRESETS["oldway"]
POUNCE = get_preset("oldway", {"pounce": True})
C = parse_card


def stand_all(deal: WidowDeal) -> None:
    """The dealer keeps the hand and everyone stands."""
    if deal.phase == "choice":
        deal.keep_hand(deal.dealer)
    while not deal.finished and deal.phase == "play":
        seat = deal.to_act
        assert seat is not None
        deal.stand(seat)


def test_oldway_rules_are_the_rulings_of_section_2():
    r = OLDWAY
    assert r.family == "widow" and r.game_end == "lives"
    assert r.stake == 3 and r.ante == 0 and r.lives == 3 and r.best_takes == 1
    assert r.horse and r.horse_price == 1
    assert r.dealer_widow and r.blind_widow_choice and r.widow_taker_stands
    assert r.swap_max == 3 and r.widow_end == "all_stand"
    assert not r.pounce and POUNCE.pounce
    assert Game(OLDWAY, 5, 0).deals_total is None


def test_the_stake_is_paid_once_into_a_pool_that_carries():
    game = Game(OLDWAY, 4, 0)
    assert game.lives == [3, 3, 3, 3]
    deal = game.start_deal(layout_deck(["2c 5d 9h", "3c 7d Js", "4h 8s Kd", "Ac Kc 2d"],
                                       after="5c 6h Ts"))
    assert deal.pool == 12 and deal.delta == [-3, -3, -3, -3]
    assert [m.reason for m in deal.movements] == ["stake"] * 4
    assert_money_conserved(game, deal)
    stand_all(deal)
    # best hand (seat 3, point 21) takes 1; worst: 0, 1, 2 hold nothing -> the dealer,
    # furthest from the dealer's left in turn order, loses a life
    sd = deal.showdown
    assert sd is not None and sd.winner == 3 and sd.losers == (0,)
    assert sd.ended_by == "stand" and sd.pool_won == 1
    assert deal.pool == 11 and game.carry == 11
    assert game.lives == [2, 3, 3, 3]
    second = game.start_deal(layout_deck(["2c 5d 9h", "3c 7d Js", "4h 8s Kd", "Ac Kc 2d"],
                                         dealer=1, after="5c 6h Ts"))
    assert second.dealer == 1 and second.pool == 11 and second.delta == [0, 0, 0, 0]
    assert game.conserved_total() == 0


def test_the_dealer_chooses_blind_and_then_keeps_the_middle():
    deal = WidowDeal(OLDWAY, 3, 0, layout_deck(["2c 5d 9h", "3c 7d Js", "4h 8s Kd"],
                                               after="Qs Ks As"))
    obs = deal.observation(0)
    assert obs.blind and obs.hand is None and obs.widow == tuple(cards("Qs Ks As"))
    assert obs.legal == ("take_widow", "keep_hand")
    assert deal.observation(1).hand == tuple(cards("3c 7d Js")) and not deal.observation(1).blind
    deal.take_widow(0)
    assert deal.hands[0] == cards("Qs Ks As")
    assert deal.widow == cards("2c 5d 9h")  # the unseen hand, now face up
    assert deal.stood == [0]  # the dealer must keep the middle
    assert deal.observation(0).hand == tuple(cards("Qs Ks As"))
    assert deal.to_act == 1
    deal.stand(1)
    deal.stand(2)  # the dealer stood already: everyone has stood
    assert deal.finished and deal.showdown is not None and deal.showdown.winner == 0


def test_swaps_of_one_to_three_cards_the_same_number_each_way():
    deal = WidowDeal(OLDWAY, 3, 0, layout_deck(["2c 5d 9h", "3c 7d Js", "4h 8s Kd"],
                                               after="Qs Ks As"))
    deal.keep_hand(0)
    assert deal.observation(0).hand == tuple(cards("2c 5d 9h"))
    before = snapshot(deal)
    with pytest.raises(IllegalAction, match="as many"):
        deal.swap(1, [C("3c"), C("7d")], [C("Qs")])
    with pytest.raises(IllegalAction, match="not in the widow"):
        deal.swap(1, [C("3c")], [C("2c")])
    with pytest.raises(IllegalAction, match="stand instead"):
        deal.knock(1)
    assert snapshot(deal) == before
    deal.swap(1, [C("3c"), C("7d"), C("Js")], [C("Qs"), C("Ks"), C("As")])
    assert sorted(deal.hands[1]) == sorted(cards("Qs Ks As"))
    assert sorted(deal.widow) == sorted(cards("3c 7d Js"))
    deal.swap(2, [C("4h"), C("8s")], [C("Js"), C("3c")])
    assert sorted(deal.hands[2]) == sorted(cards("Js 3c Kd"))
    deal.stand(0)
    deal.stand(1)
    with pytest.raises(IllegalAction, match="stopped"):
        deal.swap(1, [C("Qs")], [C("7d")])  # a player who stood never changes again
    deal.swap(2, [C("3c")], [C("7d")])
    assert deal.to_act == 2  # the only one still playing
    deal.stand(2)
    sd = deal.showdown
    assert sd is not None and sd.winner == 1 and sd.categories[1] is Category.SEQUENCE


def test_tied_worst_hand_loses_furthest_from_the_dealers_left():
    # dealer 0, turn order 1, 2, 3, 0. Seats 1 and 3 hold nothing; 3 is later.
    hands = ["Ac Kc 2d", "2c 5d 9h", "Ah Kh 4d", "3c 7d Js"]
    deal = WidowDeal(OLDWAY, 4, 0, layout_deck(hands, after="5c 6h Ts"))
    stand_all(deal)
    assert deal.showdown is not None and deal.showdown.losers == (3,)
    assert deal.lives == [3, 3, 3, 2]
    # anticlockwise: turn order 3, 2, 1, 0 -> seat 1 is later than seat 3
    rules = get_preset("oldway", {"direction": "anticlockwise"})
    deal = WidowDeal(rules, 4, 0, layout_deck(hands, step=-1, after="5c 6h Ts"))
    stand_all(deal)
    assert deal.showdown is not None and deal.showdown.losers == (1,)


def test_best_and_worst_when_everybody_ties():
    hands = ["2c 5d 9h", "3c 7d Js", "4h 8s Kd"]
    deal = WidowDeal(OLDWAY, 3, 1, layout_deck(hands, dealer=1, after="5c 6h Ts"))
    stand_all(deal)
    sd = deal.showdown
    # the dealer has priority for the best hand and is last in turn order for the worst
    assert sd is not None and sd.winner == 1 and sd.losers == (1,)


def test_players_without_lives_sit_out():
    hands = ["", "2c 5d 9h", "Ah Kh 4d", "Ac Kc 2d"]
    deal = WidowDeal(OLDWAY, 4, 1, layout_deck(hands, dealer=1, after="5c 6h Ts"),
                     lives=[0, 2, 1, 3], first=False, carried_pool=7)
    assert deal.active == (1, 2, 3) and deal.hands[0] == []
    assert deal.pool == 7 and deal.delta == [0, 0, 0, 0]
    deal.keep_hand(1)
    assert deal.to_act == 2
    deal.stand(2)
    assert deal.to_act == 3
    deal.stand(3)
    assert deal.to_act == 1  # seat 0 is skipped
    with pytest.raises(IllegalAction, match="not dealt"):
        deal.stand(0)
    deal.stand(1)
    sd = deal.showdown
    assert sd is not None and sd.hands[0] == () and sd.scores[0] is None
    assert sd.categories[0] is None
    with pytest.raises(ValueError, match="dealer must be in play"):
        WidowDeal(OLDWAY, 4, 0, layout_deck(hands), lives=[0, 2, 1, 3])


def test_the_first_to_lose_the_last_life_may_buy_a_horse():
    hands = ["2c 5d 9h", "Ah Kh 4d", "Ac Kc 2d"]
    deal = WidowDeal(OLDWAY, 3, 0, layout_deck(hands, after="5c 6h Ts"),
                     lives=[1, 3, 3], horse_available=True, first=False, carried_pool=4)
    stand_all(deal)
    assert deal.phase == "horse" and not deal.finished
    assert deal.to_act == 0 and deal.legal_actions(0) == ["buy_horse", "decline_horse"]
    assert deal.showdown is not None  # the hands are shown already
    assert deal.lives == [0, 3, 3]
    with pytest.raises(IllegalAction, match="another player"):
        deal.buy_horse(1)
    assert deal.buy_horse(0) == BuyHorse(0)
    assert deal.finished and deal.lives == [1, 3, 3] and not deal.horse_available
    assert deal.movements[-1] == Movement(0, None, 1, "horse")
    assert deal.pool == 4 - 1 + 1  # the best hand took 1, the horse paid 1
    sd = deal.showdown
    assert sd is not None and sd.horse == 0 and sd.lives == (1, 3, 3)
    assert deal.standing_after().horse_available is False
    assert deal.conserved_total() == 0


def test_without_the_horse_the_player_sits_out():
    hands = ["2c 5d 9h", "Ah Kh 4d", "Ac Kc 2d"]
    deal = WidowDeal(OLDWAY, 3, 0, layout_deck(hands, after="5c 6h Ts"),
                     lives=[1, 3, 3], horse_available=False, first=False, carried_pool=4)
    stand_all(deal)
    assert deal.finished and deal.lives == [0, 3, 3]  # no horse offered twice
    deal = WidowDeal(OLDWAY, 3, 0, layout_deck(hands, after="5c 6h Ts"),
                     lives=[1, 3, 3], horse_available=True, first=False, carried_pool=4)
    stand_all(deal)
    deal.decline_horse(0)
    assert deal.finished and deal.lives == [0, 3, 3] and not deal.horse_available


def play_loser_deal(game: Game, loser: int) -> WidowDeal:
    """Next deal: ``loser`` holds nothing, the others hold points; all stand."""
    dealer = game.next_dealer
    good = iter(["Ah Kh 4d", "Ac Kc 2d", "As Ks 3d"])
    hands = ["" if s not in game.in_play else "2c 5d 9h" if s == loser else next(good)
             for s in range(game.n)]
    deal = game.start_deal(layout_deck(hands, dealer=dealer, after="5c 6h Ts"))
    assert isinstance(deal, WidowDeal)
    stand_all(deal)
    return deal


def test_a_whole_game_ends_with_the_sweep():
    game = Game(OLDWAY, 3, 0)
    for _ in range(3):
        play_loser_deal(game, 0)
    deal = game.deals[-1]
    assert deal.phase == "horse"
    deal.decline_horse(0)
    assert game.lives == [0, 3, 3] and game.in_play == [1, 2] and not game.complete
    assert game.next_dealer == 1  # the deal passes on among players with lives
    for _ in range(2):
        play_loser_deal(game, 1)
    assert game.lives == [0, 1, 3] and not game.complete
    last = play_loser_deal(game, 1)
    assert [d.dealer for d in game.deals] == [0, 1, 2, 1, 2, 1]
    assert game.complete and game.winners == [2]
    assert last.movements[-1] == Movement(None, 2, 3, "sweep")  # 9 staked, 6 deals took 1
    assert last.showdown is not None and last.showdown.game_winners == (2,)
    assert game.pots == (0,) and sum(game.ledger) == 0
    assert game.ledger == [-3, -1, 4]
    summary = game.summary()
    assert summary["lives"] == [0, 0, 3] and summary["pool"] == 0
    assert summary["deals"][0]["loser"] == 0 and summary["deals"][0]["lives"] == [2, 3, 3]
    check_replay(game)


def test_pounce_takes_the_fourth_card_at_any_moment():
    hands = ["As Ah Ad", "2c 5d 9h", "7c 7d 7h"]
    deal = WidowDeal(POUNCE, 3, 0, layout_deck(hands, after="7s 2d 3d"))
    assert deal.legal_actions(2) == []  # not before the dealer's choice
    assert not deal.can_pounce(2)
    deal.keep_hand(0)
    assert deal.to_act == 1 and deal.legal_actions(2) == ["pounce"]
    assert "pounce" in deal.observation(2).legal
    assert deal.pounce(2) == Pounce(2, C("7s"))  # out of turn
    assert sorted(deal.hands[2]) == sorted(cards("7c 7d 7h 7s"))
    assert deal.widow == cards("2d 3d") and deal.stood == [2]
    assert_cards_conserved(deal)
    assert describe(deal.hands[2]) == "four 7s"
    assert score(deal.hands[2]) > score(deal.hands[0])  # beats a tricon of aces
    assert deal.to_act == 1
    with pytest.raises(IllegalAction, match="stopped"):
        deal.swap(2, [C("7s")], [C("2d")])
    deal.swap(1, [C("2c"), C("9h")], [C("2d"), C("3d")])
    deal.stand(0)
    deal.stand(1)
    sd = deal.showdown
    assert sd is not None and sd.winner == 2 and sd.categories[2] is Category.FOUR
    assert_cards_conserved(deal)


def test_pounce_needs_the_option_a_tricon_and_the_card_in_the_middle():
    hands = ["As Ah Ad", "2c 5d 9h", "7c 7d 7h"]
    deal = WidowDeal(OLDWAY, 3, 0, layout_deck(hands, after="7s 2d 3d"))
    deal.keep_hand(0)
    with pytest.raises(IllegalAction, match="no pounce"):
        deal.pounce(2)
    deal = WidowDeal(POUNCE, 3, 0, layout_deck(hands, after="2d 3d 4d"))
    deal.keep_hand(0)
    with pytest.raises(IllegalAction, match="fourth card"):
        deal.pounce(0)
    # the fourth card arrives in the middle through another player's swap
    deal = WidowDeal(POUNCE, 3, 0, layout_deck(["As Ah Ad", "7s 5d 9h", "7c 7d 7h"],
                                               after="2d 3d 4d"))
    deal.keep_hand(0)
    deal.swap(1, [C("7s")], [C("2d")])
    assert deal.can_pounce(2)
    deal.stand(2)
    assert not deal.can_pounce(2)  # a player who stood never changes again


def test_oldway_records_replay_with_every_action():
    game = Game(POUNCE, 3, 0)
    deal = game.start_deal(layout_deck(["As Ah Ad", "2c 5d 9h", "7c 7d 7h"], after="7s 2d 3d"))
    assert isinstance(deal, WidowDeal)
    deal.take_widow(0)
    deal.swap(1, [C("2c")], [C("Ad")])
    deal.stand(2)
    deal.act(1, Decision("stand"))  # decisions map to actions by name
    assert record_actions(deal.operations) == [
        {"seat": 0, "action": "take_widow"},
        {"seat": 1, "action": "swap", "give": ["2c"], "take": ["Ad"]},
        {"seat": 2, "action": "stand"},
        {"seat": 1, "action": "stand"},
    ]
    assert deal.operations[-1] == Stand(1)
    again = replay(game.to_record(["a", "b", "c"], {"pounce": True}))
    assert again.summary() == game.summary()
    rng = random.Random(3)
    for number in range(6):
        game = play(POUNCE, 3 + number, number, rng, choose=random_move if number % 2 else None)
        assert game.complete and len(game.winners or []) == 1
        check_replay(game)


def test_ai_decides_blind_from_the_middle_alone():
    deal = WidowDeal(OLDWAY, 3, 0, layout_deck(["2c 5d 9h", "3c 7d Js", "4h 8s Kd"],
                                               after="Qs Ks As"))
    assert easy.choose(deal.observation(0)) == Decision("take_widow")
    deal = WidowDeal(OLDWAY, 3, 0, layout_deck(["Qs Ks As", "3c 7d Js", "4h 8s Kd"],
                                               after="2c 5d 9h"))
    assert easy.choose(deal.observation(0)) == Decision("keep_hand")
