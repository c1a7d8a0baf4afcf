"""The AI levels (docs/AI.md): every level decides legally everywhere, the strong
level sees only what its seat may see, and the arena repeats for a seed."""

from __future__ import annotations

import dataclasses
import random

import pytest

from bot.engine import arena, easy, levels, normal, strong
from bot.engine.__main__ import main as engine_main
from bot.engine.cards import Card, rank, shuffled_deck
from bot.engine.discard import DiscardDeal
from bot.engine.family import Decision
from bot.engine.game import AnyDeal, Game
from bot.engine.operations import Operation
from bot.engine.rules import get_preset
from bot.engine.trade import TradeDeal
from bot.engine.view import SeatView, seat_view
from bot.engine.widow import WidowDeal

from .families import random_move

#: every preset, and the options that add decisions of their own
TABLES = [
    ("foster", {}), ("hoyle", {}), ("parlett", {}), ("foster-more", {}), ("widow", {}),
    ("oldway", {}), ("oldway", {"pounce": True}), ("jaques", {}),
    ("jaques", {"open_trading": True, "dead_knock": True}),
    ("jaques", {"three_stake": True, "direct_trading": True}),
]
TINY = strong.Budget(playouts=16, seconds=None)


def every_choice(deal: AnyDeal, seat: int) -> list[Decision]:
    """Every legal decision of ``seat`` now."""
    return [d for action in deal.legal_actions(seat) for d in deal.choices(seat, action)]


def walk(preset: str, options: dict[str, object], seed: int, deals: int = 5):
    """Yield ``(deal, seat)`` at every decision point of a few deals where moves
    are a mix of random legal ones (also out of turn) and normal's."""
    rng = random.Random(f"{preset}{options}{seed}")
    rules = get_preset(preset, options)
    game = Game(rules, 3, 0)
    for _ in range(deals):
        if game.complete:
            n = rng.randint(3, 5)
            game = Game(rules, n, rng.randrange(n))
        deal = game.start_deal(shuffled_deck(rng), rng=rng)
        moves = 0
        while not deal.finished and moves < 60:
            seat = deal.to_act
            assert seat is not None
            yield deal, seat
            if rng.random() < 0.5:
                mover, decision = random_move(deal, rng)
            else:
                mover, decision = seat, normal.choose(deal.observation(seat))
            deal.act(mover, decision)
            moves += 1
        while not deal.finished:
            seat = deal.to_act
            assert seat is not None
            deal.act(seat, easy.choose_easy(deal.observation(seat)))


@pytest.mark.parametrize(("preset", "options"), TABLES)
def test_every_level_decides_legally_everywhere(preset, options):
    kinds: set[str] = set()
    points = 0
    for deal, seat in walk(preset, options, 1):
        legal = every_choice(deal, seat)
        view = seat_view(deal, seat)
        for level in levels.LEVELS:  # strong: levels.choose of the seat's view
            rng = random.Random(points)
            decision = levels.decide(deal, seat, level, rng=rng, budget=TINY)
            assert decision in legal, (level, decision, deal.legal_actions(seat))
            kinds.add(decision.kind)
        for _ in range(2):  # every sampled world shows the seat exactly what it sees
            strong.check_world(view, strong.world(view, random.Random(points)))
        points += 1
    assert points > 10
    assert len(kinds) >= 3


def test_levels_end_deals_on_their_own():
    for preset, options in TABLES:
        rules = get_preset(preset, options)
        rng = random.Random(preset)
        game = Game(rules, 3, 0)
        deal = game.start_deal(shuffled_deck(rng), rng=rng)
        seating = ["strong", "normal", "easy"]
        moves = 0
        while not deal.finished:
            seat = deal.to_act
            assert seat is not None
            deal.act(seat, levels.decide(deal, seat, seating[seat % 3],
                                         rng=random.Random(moves), budget=TINY))
            moves += 1
            assert moves < 500, preset


# ------------------------------------------------------------- what strong sees
def seen_cards(view: SeatView) -> set[Card]:
    """Every card the seat has seen or can infer (a pouncer's tricon)."""
    obs = view.obs
    out = set(view.hand0 or ()) | set(view.opening) | set(obs.hand or ()) | set(obs.widow or ())
    out |= set(obs.shown_waste)
    for c in (obs.discard_top, obs.drawn, obs.offered_card):
        if c is not None:
            out.add(c)
    for seen in view.log:
        out |= set(seen.hand or ()) | set(seen.event.given) | set(seen.event.taken)
        for c in (seen.card, seen.event.shown):
            if c is not None:
                out.add(c)
        if seen.event.kind == "pounce" and seen.event.shown is not None:
            out |= {c for c in range(52) if rank(c) == rank(seen.event.shown)}
    return out


def relabel(op: Operation, perm: dict[Card, Card]) -> Operation:
    """``op`` with every card renamed by ``perm``."""
    changes: dict[str, object] = {}
    for field in dataclasses.fields(op):
        value = getattr(op, field.name)
        if field.name == "card" and value is not None:
            changes["card"] = perm[value]
        elif field.name in ("give", "take", "reshuffle") and value is not None:
            changes[field.name] = tuple(perm[c] for c in value)
    return dataclasses.replace(op, **changes)


def twin(deal: AnyDeal, seat: int, rng: random.Random) -> AnyDeal | None:
    """The same deal with the cards ``seat`` has never seen shuffled among
    themselves, every action renamed alike; ``None`` if that is not playable."""
    view = seat_view(deal, seat)
    hidden = sorted(set(range(52)) - seen_cards(view))
    shuffled = hidden[:]
    rng.shuffle(shuffled)
    perm = {c: c for c in range(52)} | dict(zip(hidden, shuffled, strict=True))
    deck = [perm[c] for c in deal.deck]
    if isinstance(deal, TradeDeal):
        other: AnyDeal = TradeDeal(deal.rules, deal.n, deal.dealer, deck,
                                   carried_pool=deal.carried_pool, final=deal.final)
    elif isinstance(deal, WidowDeal):
        other = WidowDeal(deal.rules, deal.n, deal.dealer, deck, carried_pool=deal.carried_pool,
                          lives=deal.lives_in, horse_available=deal.horse_available_in,
                          first=deal.first, final=deal.final)
    else:
        assert isinstance(deal, DiscardDeal)
        other = DiscardDeal(deal.rules, deal.n, deal.dealer, deck, chips=deal.chips_in,
                            carried_pots=deal.carried_pots, first=deal.first, final=deal.final)
    try:
        for op in deal.operations:
            other.apply(relabel(op, perm))
    except ValueError:
        return None
    return other


@pytest.mark.parametrize(("preset", "options"), TABLES)
def test_strong_decides_the_same_whatever_its_seat_cannot_see(preset, options):
    rng = random.Random(f"twin{preset}{options}")
    compared = differed = 0
    for deal, seat in walk(preset, options, 2, deals=8):
        if compared >= 8 or rng.random() < 0.5:
            continue
        other = twin(deal, seat, rng)
        if other is None or other.finished or other.to_act != seat:
            continue
        view_a, view_b = seat_view(deal, seat), seat_view(other, seat)
        assert view_a == view_b  # the seat's observation and memory are identical
        if other.hands != deal.hands:
            differed += 1
        budget = strong.Budget(playouts=40, seconds=None)
        a = levels.decide(deal, seat, "strong", rng=random.Random(9), budget=budget)
        b = levels.decide(other, seat, "strong", rng=random.Random(9), budget=budget)
        assert a == b
        compared += 1
    assert compared >= 3 and differed >= 1


@pytest.mark.parametrize(("preset", "options"), [TABLES[0], TABLES[6], TABLES[8]])
def test_the_fallback_world_still_shows_the_present(preset, options, monkeypatch):
    monkeypatch.setattr(strong, "SAMPLE_ATTEMPTS", 0)  # every sample falls back
    points = 0
    for deal, seat in walk(preset, options, 3):
        view = seat_view(deal, seat)
        strong.check_world(view, strong.world(view, random.Random(points)))
        assert strong.choose(view, random.Random(points), TINY) in every_choice(deal, seat)
        points += 1
    assert points > 10


def test_views_differ_when_the_seat_saw_something_different():
    deck = shuffled_deck(random.Random(4))
    deal = TradeDeal(get_preset("foster"), 3, 0, deck)
    other = TradeDeal(get_preset("foster"), 3, 0, deck[3:] + deck[:3])
    assert seat_view(deal, 1) != seat_view(other, 1)


# ------------------------------------------------------------ strong's machinery
def test_strong_honours_a_deadline_and_needs_a_view():
    deal = TradeDeal(get_preset("foster"), 3, 0, shuffled_deck(random.Random(5)))
    view = seat_view(deal, 1)
    decision = strong.choose(view, random.Random(1), strong.Budget(playouts=None, seconds=0.0))
    assert decision in every_choice(deal, 1)
    with pytest.raises(ValueError):
        levels.choose(deal.observation(1), "strong")
    with pytest.raises(ValueError):
        levels.choose(deal.observation(1), "grandmaster")
    with pytest.raises(ValueError):
        strong.choose(seat_view(deal, 2))  # not seat 2's turn


def test_strong_remembers_where_its_cards_went():
    # seat 1 trades the K♦ face down: in every world the K♦ lies in the waste
    deal = TradeDeal(get_preset("foster"), 3, 0, shuffled_deck(random.Random(6)))
    gone = deal.hands[1][0]
    deal.trade(1, gone)
    deal.barter(2, deal.hands[2][0])
    view = seat_view(deal, 0)
    assert view.obs.barter == (2, 0)
    mine = seat_view(deal, 1)
    rng = random.Random(2)
    for _ in range(20):
        world = strong.world(mine, rng)
        assert isinstance(world, TradeDeal)
        assert gone not in world.stock and gone in world.waste
        strong.check_world(mine, world)


def test_arena_repeats_for_a_seed_and_reports():
    def run() -> arena.ArenaReport:
        return arena.run_arena("foster", ["strong", "normal", "easy"], 2, 5, playouts=8)

    first, second = run(), run()
    assert first.per_deck == second.per_deck
    assert first.scores == second.scores
    assert set(first.pairs) == {("strong", "normal"), ("strong", "easy"), ("normal", "easy")}
    assert "strong - normal" in first.text()
    assert len(arena.seatings_of(["strong", "normal", "easy"], 3)) == 6
    assert len(arena.seatings_of(["strong", "normal"], 3)) == 3


@pytest.mark.parametrize("preset", ["hoyle", "oldway", "jaques"])
def test_arena_smoke_from_the_command_line(preset, capsys):
    code = engine_main(["arena", "--preset", preset, "--policies", "strong,normal,easy",
                        "--deals", "1", "--seed", "3", "--playouts", "4"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "strong - easy" in out and "95% CI" in out


def test_arena_rejects_bad_arguments(capsys):
    assert engine_main(["arena", "--preset", "nope", "--deals", "1"]) == 2
    assert engine_main(["arena", "--policies", "strong,wizard", "--deals", "1"]) == 2
    assert "arena:" in capsys.readouterr().out


@pytest.mark.parametrize(("preset", "options"), [TABLES[0], TABLES[6], TABLES[8]])
def test_the_coach_advises_the_same_whatever_the_seat_cannot_see(preset, options):
    """The hint (its choice and its showdown figure) depends on the seat's view only."""
    from bot.engine import coach

    rng = random.Random(f"coach{preset}{options}")
    compared = 0
    for deal, seat in walk(preset, options, 2, deals=6):
        if compared >= 3 or rng.random() < 0.5:
            continue
        other = twin(deal, seat, rng)
        if other is None or other.finished or other.to_act != seat:
            continue
        budget = strong.Budget(playouts=30, seconds=None)
        a = coach.advise(seat_view(deal, seat), random.Random(4), budget, worlds=30)
        b = coach.advise(seat_view(other, seat), random.Random(4), budget, worlds=30)
        assert a == b
        assert 0.0 <= a.wins <= 1.0 and a.decision in every_choice(deal, seat)
        compared += 1
    assert compared >= 2


def test_the_coachs_reason_names_the_hand_and_the_figure():
    from bot.engine import coach
    from bot.engine.family import Decision

    deal, seat = next(walk("foster", {}, 1, deals=1))
    obs = deal.observation(seat)
    knock = coach.explain(coach.Advice(Decision("knock"), 0.834, 200), obs)
    trade = coach.explain(coach.Advice(Decision("trade", obs.hand[0]), 0.12, 200), obs)
    assert knock.endswith("wins about 83% of showdowns here") and knock.startswith("your ")
    assert trade.endswith("would win only about 12% of showdowns as it is")
    blind = dataclasses.replace(obs, hand=None)  # a dealer who has not looked yet
    text = coach.explain(coach.Advice(Decision("keep_hand"), 0.0, 200), blind)
    assert "%" not in text and "hands you could hold" in text
