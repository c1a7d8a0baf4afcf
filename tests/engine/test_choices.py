"""The one deal interface (``DealBase``: ``controls``, ``choices``, ``pending``,
``drawn``) and the one encoding of select values (``bot.engine.choices``).

Hypothesis plays random deals of every preset (docs/RULES.md §2) and, at every
moment, checks for every seat that: the choices the deal offers are exactly its
legal decisions (enumerated independently, ``families.all_moves``); every one
of them, and every card-first step of an offer, goes to its select value and
back to an equal ``Decision``, with a label; every menu fits and decodes to a
legal decision; the table's controls are those of the family and phase. Bad
values are refused with one short sentence. Controls and choices use only what
their seat may see.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine import choices
from bot.engine.cards import card_code, shuffled_deck
from bot.engine.choices import ChoiceError, control, decide, label, options, value
from bot.engine.family import Controls, DealBase, Decision, IllegalAction
from bot.engine.game import AnyDeal, Game
from bot.engine.rules import OPTIONS, PRESETS, RulesError, get_preset
from tests.profiles import examples

from .families import all_moves, random_move

SETTINGS = settings(
    max_examples=examples(100),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

#: every preset as it comes, and the options that add controls or choices
TABLES: list[tuple[str, dict[str, Any]]] = [(name, {}) for name in PRESETS] + [
    ("oldway", {"pounce": True}),
    ("jaques", {"direct_trading": True}),
    ("jaques", {"open_trading": True, "chips": 3}),
    ("jaques", {"direct_trading": True, "three_stake": True, "direction": "anticlockwise"}),
]


def name(seat: int) -> str:
    return f"Seat {seat}"


def legal_decisions(deal: AnyDeal, seat: int) -> set[Decision]:
    """Every legal decision of ``seat``: the tests' own enumeration, plus each trade
    or barter again ending with a knock where the rules allow it (§2.2)."""
    moves = [d for s, d in all_moves(deal) if s == seat]
    if deal.rules.knock_after_exchange:
        moves += [dataclasses.replace(d, knock=True) for d in moves if d.kind in ("trade", "barter")]
    return set(moves)


def old_table_buttons(deal: AnyDeal) -> tuple[str, ...]:
    """What the table message showed before the interface existed (the cog's
    ``family_actions``, ``no_answer`` and refusal logic), as the reference."""
    rules = deal.rules
    if deal.pending is not None:
        if rules.family != "trade":
            return ("accept", "decline")
        return ("accept", "refuse") if rules.barter_refusal else ("accept",)
    if rules.family == "trade":
        return ("trade", "barter", "knock")
    if rules.family == "widow":
        phase = deal.observation(None).phase
        if phase == "choice":
            return ("take_widow", "keep_hand")
        if phase == "horse":
            return ("buy_horse", "decline_horse")
        return ("swap", "knock" if rules.widow_end == "two_knocks" else "stand")
    knock = ("knock",) if deal.observation(None).knocker is None else ()  # one knock counts
    return ("take_discard", "draw", "pass", *knock) + (("offer",) if rules.direct_trading else ())


def check_moment(deal: AnyDeal) -> None:
    public = deal.controls()
    if deal.finished:
        assert public == Controls() and all(deal.controls(s) == Controls() for s in range(deal.n))
        return
    assert public.private == ()
    assert (public.answers if deal.pending is not None else public.moves) == old_table_buttons(deal)
    assert not (public.moves and public.answers)
    for seat in range(deal.n):
        mine = deal.controls(seat)
        assert (mine.moves, mine.answers) == (public.moves, public.answers)
        assert mine.private == (("pounce",) if "pounce" in deal.legal_actions(seat) else ())
        legal = legal_decisions(deal, seat)
        offered = [d for a in deal.legal_actions(seat) for d in deal.choices(seat, a)]
        assert set(offered) == legal
        assert deal.choices(seat, "nonsense") == []
        obs = deal.observation(seat)
        partial = {Decision("offer", d.card) for d in legal if d.kind == "offer"}
        for decision in legal | partial:
            assert decide(control(decision), value(decision)) == decision
            assert label(decision, obs, name)
        for action in set(deal.legal_actions(seat)) & choices.SELECTS:
            menu = options(deal, seat, action, name)
            assert 0 < len(menu) <= choices.MAX_OPTIONS
            assert len({v for _, v in menu}) == len(menu)
            for _, text in menu:
                made = decide(action, text)
                if made.kind == "offer" and made.target is None:  # the card first
                    assert made in partial
                    assert made.card is not None
                    step = choices.target_options(deal, seat, made.card, name)
                    assert step and all(decide("offer", v) in legal for _, v in step)
                else:
                    assert made in legal


@st.composite
def tables(draw: st.DrawFn) -> tuple[str, dict[str, Any], int, int]:
    preset, opts = draw(st.sampled_from(TABLES))
    rules = get_preset(preset, opts)
    n = draw(st.integers(rules.min_players, rules.max_players))
    return preset, opts, n, draw(st.integers(0, n - 1))


@SETTINGS
@given(table=tables(), seed=st.integers(0, 2**32 - 1), moves=st.integers(0, 80))
def test_every_legal_decision_goes_to_its_value_and_back(table, seed, moves):
    preset, opts, n, dealer = table
    rng = random.Random(seed)
    game = Game(get_preset(preset, opts), n, dealer)
    deal = game.start_deal(shuffled_deck(rng), rng=rng)
    check_moment(deal)
    for _ in range(moves):
        if deal.finished:
            if game.complete:
                break
            deal = game.start_deal(shuffled_deck(rng), rng=rng)
        else:
            seat, decision = random_move(deal, rng)
            deal.act(seat, decision)
        check_moment(deal)


@pytest.mark.parametrize(("preset", "opts"), TABLES)
def test_controls_and_choices_use_only_what_the_seat_may_see(preset, opts):
    """Two deals that differ only in cards a seat cannot see (the other hands and
    the concealed stock) give that seat the same controls and choices."""
    rules = get_preset(preset, opts)
    rng = random.Random(preset + str(opts))
    actions = sorted(choices.BUTTONS | choices.SELECTS | {"draw_discard", "swap"})
    for n in (rules.min_players, rules.max_players):
        deck = shuffled_deck(rng)
        deal = type_of(rules)(rules, n, 0, deck)
        for seat in range(n):
            obs = deal.observation(seat)
            seen = set(deal.hands[seat]) | set(obs.widow or ()) | {obs.discard_top}
            hidden = [i for i, card in enumerate(deck) if card not in seen]
            other = list(deck)
            cards = [deck[i] for i in hidden]
            rng.shuffle(cards)
            for i, card in zip(hidden, cards, strict=True):
                other[i] = card
            twin = type_of(rules)(rules, n, 0, other)
            assert twin.hands[seat] == deal.hands[seat]
            assert twin.controls(seat) == deal.controls(seat)
            assert twin.controls() == deal.controls()
            for action in actions:
                assert twin.choices(seat, action) == deal.choices(seat, action)


def type_of(rules: Any) -> type[DealBase]:
    game = Game(rules, rules.min_players, 0)
    return type(game.start_deal(shuffled_deck(random.Random(0))))


@pytest.mark.parametrize(("control_name", "text"), [
    ("trade", "Zz"), ("trade", "Kd!!"), ("trade", ""), ("trade", None), ("barter", "!"),
    ("accept", "Kd!"), ("take_discard", "Kd@1"), ("draw_keep", "drawnn"), ("draw_keep", None),
    ("swap", "KdQs"), ("swap", "Kd-"), ("swap", "K-2c"), ("swap", "-2c"), ("swap", "Kd-2c-3c"),
    ("offer", "Kd"), ("offer", "Kd@"), ("offer", "Kd@x"), ("offer", "Kd@-1"), ("offer", "K@1"),
    ("offer", "Zz?"), ("knock", "Kd"), ("decline", ""), ("nonsense", "Kd"), ("nonsense", None),
])
def test_a_value_no_menu_makes_is_refused_in_one_short_sentence(control_name, text):
    with pytest.raises(ChoiceError) as caught:
        decide(control_name, text)
    assert str(caught.value) == "That choice is not valid."
    assert isinstance(caught.value, ValueError)


def test_the_values_of_each_kind_of_menu():
    kd, qs, c2, h3 = 45, 43, 0, 6  # Kd Qs 2c 3h
    assert card_code(kd) == "Kd" and card_code(h3) == "3h"
    table = {
        Decision("trade", kd): ("trade", "Kd"),
        Decision("barter", kd, knock=True): ("barter", "Kd!"),
        Decision("accept", kd): ("accept", "Kd"),
        Decision("take_discard", kd): ("take_discard", "Kd"),
        Decision("draw_keep", kd): ("draw_keep", "Kd"),
        Decision("draw_discard"): ("draw_keep", "drawn"),
        Decision("swap", give=(kd, qs), take=(c2, h3)): ("swap", "KdQs-2c3h"),
        Decision("offer", kd, target=3): ("offer", "Kd@3"),
        Decision("offer", kd): ("offer", "Kd?"),
        Decision("knock"): ("knock", None),
        Decision("refuse"): ("refuse", None),
    }
    for decision, (control_name, text) in table.items():
        assert (control(decision), value(decision)) == (control_name, text)
        assert decide(control_name, text) == decision
    assert decide("decline") == Decision("refuse")  # declining a direct trade (§2.7)
    assert decide("trade", "kd") == Decision("trade", kd)  # card codes ignore case
    with pytest.raises(ValueError):
        value(Decision("trade"))  # no menu offers a trade without its card


def test_a_knock_joins_only_a_trade_or_barter_that_allows_it():
    for preset in PRESETS:
        game = Game(PRESETS[preset], 4, 0)
        deal = game.start_deal(shuffled_deck(random.Random(preset)))
        seat = deal.to_act
        assert seat is not None
        for kind in deal.legal_actions(seat):
            for decision in deal.choices(seat, kind):
                joined = dataclasses.replace(decision, knock=True)
                if kind in ("trade", "barter") and deal.rules.knock_after_exchange:
                    assert joined in deal.choices(seat, kind)
                    continue
                ops = len(deal.operations)
                with pytest.raises(IllegalAction):
                    deal.act(seat, joined)
                assert len(deal.operations) == ops


def test_option_bounds_are_the_rules_table():
    """Each whole-number option takes exactly its table's range (docs/RULES.md §2.8)."""
    for option in OPTIONS.values():
        if option.kind != "whole":
            continue
        preset = next(p for p, r in PRESETS.items() if option.name in r.table_options)
        extra = {"chips": option.high + 1} if option.name == "stake" else {}
        get_preset(preset, {option.name: option.low, **extra})
        get_preset(preset, {option.name: option.high, **extra})
        for bad in (option.low - 1, option.high + 1):
            with pytest.raises(RulesError, match=f"from {option.low} to {option.high}"):
                get_preset(preset, {option.name: bad, **extra})
        assert option.description.endswith(f"({option.low}-{option.high})")
        assert len(option.description) <= 100  # a slash-command option's description


def test_open_trading_implies_direct_trading_without_changing_the_callers_options():
    given_options = {"open_trading": True}
    rules = get_preset("jaques", given_options)
    assert rules.open_trading and rules.direct_trading
    assert given_options == {"open_trading": True}
    assert not get_preset("jaques", {"open_trading": False}).direct_trading
