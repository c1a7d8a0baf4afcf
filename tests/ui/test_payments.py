"""Issue 10: each deal's payments itemised by reason (bot/ui/payments.py), in
players' words (bot/ui/words.py), wherever a deal's result is shown: the
showdown embed, its picture, the private panel at the deal's end, the history.
"""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from bot.engine import PRESETS, Decision, Game, TradeDeal, easy, get_preset, shuffled_deck
from bot.engine.hands import Category, category_of, score
from bot.ui import panel, payments, pictures, render, words
from tests.ui.test_words import live_table, problems

NAMES = ["Ann", "Ben", "Cat", "Dora"]


def played(preset: str, seed: int, n: int = 4, options=None):
    """A game of ``preset`` whose first deal the AI played to its end."""
    rng = random.Random(f"{preset} {seed}")
    game = Game(get_preset(preset, options), n, seed % n)
    deal = game.start_deal(shuffled_deck(rng), rng=rng)
    while not deal.finished:
        deal.act(deal.to_act, easy.choose(deal.observation(deal.to_act)))
    return game, deal


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_items_add_up_to_each_seats_change_in_plain_words(preset):
    seen = set()
    for seed in range(12):
        game, deal = played(preset, seed)
        for tally in payments.tallies(deal):
            assert sum(i.amount for i in tally.items) == tally.total == deal.delta[tally.seat]
            text = tally.text()
            assert not problems(text), text
            assert "_" not in text  # a reason name never shows through
            for item in tally.items:
                assert item.reason in words.REASONS
                assert words.reason_words(item.reason, item.count) in text
                seen.add(item.reason)
            if tally.total:
                unit = "chip" if preset == "jaques" else "point"
                assert text.startswith(words.signed(tally.total) + f" {unit}")
    expected = {"foster": {"ante", "pool"}, "widow": {"ante", "pool"},
                "oldway": {"stake"}, "jaques": {"stake"}}.get(preset, {"ante", "pool"})
    assert expected <= seen, seen


def test_words_agree_in_number():
    assert words.reason_words("fee", 1) == "trade fee"
    assert words.reason_words("fee", 3) == "trade fees"
    assert words.reason_words("knock", 1) == "knock chip"
    assert words.reason_words("ante", 3) == "antes"
    assert words.reason_words("penalty", 3) == "dealer's penalty"  # one penalty, paid to 3
    assert words.reason_words("pot", 1, pot=2, pots=3) == "pair pot"
    assert words.reason_words("sweep", 2, chips=True) == "pots"
    assert words.reason_words("sweep", 1) == "sweep"
    with pytest.raises(KeyError):
        words.reason_words("bribe")
    assert (words.signed(5), words.signed(-2), words.signed(0)) == ("+5", "−2", "±0")
    lives = payments.Tally(0, 0, (), (payments.Item("life", -1),))
    assert lives.text() == "±0 points · −1 life (weakest hand −1)"
    assert payments.Tally(1, 1, (payments.Item("pool", 1),), chips=True).text() == \
        "+1 chip (pool 1)"


def foster_deal(trader_wins: bool):
    """A foster deal of three where the eldest trades, then the next seat knocks:
    the first deck (by seed) where the knocker's hand beats the others, and the
    dealer's hand is not of the winner's kind (so the dealer pays the winner only,
    docs/RULES.md §2.1)."""
    rules = get_preset("foster")
    for seed in range(500):
        deal = TradeDeal(rules, 3, 0, shuffled_deck(random.Random(seed)))
        eldest = deal.to_act
        deal.trade(eldest, deal.hands[eldest][0])
        knocker = deal.to_act
        deal.knock(knocker)
        sd = deal.showdown
        winner = eldest if trader_wins else knocker
        cats = [category_of(score(h, rules.ranking)) for h in sd.hands]
        if sd.winner == winner and cats[0] != cats[winner] and cats[0] is not Category.NONE:
            return deal, eldest, knocker
    raise AssertionError("no such deck")


def test_a_foster_deal_itemised():
    deal, eldest, knocker = foster_deal(trader_wins=False)
    texts = [t.text() for t in payments.tallies(deal)]
    assert texts[knocker] == "+3 points (ante −1, pool 3, dealer's penalty 1)"
    assert texts[eldest] == "−2 points (ante −1, trade fee −1)"
    assert texts[0] == "−1 point (ante −1, trade fee 1, dealer's penalty −1)"


def jaques_deal(options=None):
    """A jaques deal of three in which the eldest knocks at once holding the best
    hand and the others pass: the first such deck by seed."""
    rules = get_preset("jaques", options)
    for seed in range(500):
        game = Game(rules, 3, 0)
        deal = game.start_deal(shuffled_deck(random.Random(seed)))
        knocker = deal.to_act
        deal.act(knocker, Decision("knock"))
        while not deal.finished:
            deal.act(deal.to_act, Decision("pass"))
        sd = deal.showdown
        if sd.best == (knocker,) and len(sd.losers) == 1:
            return game, deal, knocker, sd.losers[0]
    raise AssertionError("no such deck")


def test_the_best_jaques_hand_says_why_it_lost_two_chips():
    game, deal, knocker, lowest = jaques_deal()
    texts = [t.text() for t in payments.tallies(deal)]
    assert texts[knocker] == "−2 chips (stake −1, knock chip −1)"
    assert texts[lowest] == "−2 chips (stake −1, lowest hand −1)"
    [other] = {0, 1, 2} - {knocker, lowest}
    assert texts[other] == "−1 chip (stake −1)"


def test_showdown_embed_panel_and_picture_itemise_the_deal():
    game, deal, knocker, lowest = jaques_deal()
    live = live_table(game, NAMES[:3], humans=3)
    assert render.payment_lines(live, deal)[knocker] == \
        f"{NAMES[knocker]}: −2 chips (stake −1, knock chip −1)"
    assert render.showdown_embed(live).fields == []  # the picture itemises it (below)
    built = panel.build(live, knocker)
    assert built.content.splitlines()[-1] == "**Your result:** −2 chips (stake −1, knock chip −1)"
    # the picture: each row says why, under its cards; the rows grow to hold it
    obs = deal.observation(None)
    items = [t.items_text() for t in payments.tallies(deal)]
    scene = pictures.showdown_scene(obs, NAMES[:3], payments=items)
    assert scene.rows[knocker].payments == "stake −1, knock chip −1"
    bare = Image.open(io.BytesIO(pictures.showdown_png(obs, NAMES[:3])))
    full = Image.open(io.BytesIO(pictures.showdown_png(obs, NAMES[:3], payments=items)))
    assert full.height == bare.height + 3 * pictures.PAY_H
    assert full.width == bare.width


def test_a_voided_deal_shows_no_result_line():
    game, deal = played("foster", 1, n=3)
    live = live_table(game, NAMES[:3], humans=3)
    fresh = game.start_deal(shuffled_deck(random.Random(2)))
    fresh.void()
    assert all(t.items == () and t.total == 0 for t in payments.tallies(fresh))
    assert "Your result" not in panel.build(live, 0).content


def test_tallies_asked_again_follow_the_deal_as_it_moves():
    """``tallies`` keeps its last answer for the same deal in the same state (a
    showdown's picture and embed ask for it in turn); any move of that deal, or
    another deal, is tallied afresh."""
    rng = random.Random(5)
    game = Game(get_preset("foster"), 3, 0)
    deal = game.start_deal(shuffled_deck(rng), rng=rng)
    first = payments.tallies(deal)
    assert payments.tallies(deal) == first
    while not deal.finished:
        deal.act(deal.to_act, easy.choose(deal.observation(deal.to_act)))
        now = payments.tallies(deal)
        assert [t.total for t in now] == deal.delta
        assert [sum(i.amount for i in t.items) for t in now] == deal.delta
    assert any(deal.delta) and payments.tallies(deal) != first
    _, other = played("foster", 3, n=3)
    assert [t.total for t in payments.tallies(other)] == other.delta
    assert [t.total for t in payments.tallies(deal)] == deal.delta
