"""Shared builders for the tests of every family: decks that lay out chosen
hands (and widow or discard), every legal move of every seat, snapshots,
invariant checks and drivers for AI or random play."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable, Sequence
from itertools import combinations
from typing import Any

from bot.engine import easy
from bot.engine.cards import Card, shuffled_deck
from bot.engine.discard import DiscardDeal
from bot.engine.family import Decision
from bot.engine.game import AnyDeal, Game, replay
from bot.engine.rules import Rules, get_preset
from bot.engine.seating import turn_order
from bot.engine.widow import WidowDeal

from .support import cards

Move = tuple[int, Decision]


def layout_deck(
    hands: Sequence[str], dealer: int = 0, step: int = 1, after: str = "",
    active: Sequence[int] | None = None,
) -> list[Card]:
    """A 52-card deck that deals ``hands[seat]`` to each seat in play (``""`` for a
    seat out of play) in docs/RULES.md §1 order over the seats in ``active``; ``after``
    lists the cards that follow, top first (the widow, or the discard top then
    the stock); the remaining cards follow in ascending order."""
    n = len(hands)
    seats = [s for s in range(n) if hands[s]] if active is None else list(active)
    order = turn_order(dealer, n, step, seats)
    per_seat = {s: cards(hands[s]) for s in seats}
    taken = dict.fromkeys(seats, 0)
    deck: list[Card] = []
    for i in range(3 * len(order)):
        seat = order[i % len(order)]
        deck.append(per_seat[seat][taken[seat]])
        taken[seat] += 1
    deck += cards(after)
    assert len(set(deck)) == len(deck), "a card is used twice"
    deck += [c for c in range(52) if c not in set(deck)]
    return deck


def all_moves(deal: AnyDeal) -> list[Move]:
    """Every legal move of every seat (including pounces and open offers out of
    turn), with concrete cards, from ``legal_actions``."""
    out: list[Move] = []
    for seat in range(deal.n):
        hand = deal.hands[seat]
        for kind in deal.legal_actions(seat):
            if kind in ("trade", "barter", "accept", "take_discard", "draw_keep"):
                out += [(seat, Decision(kind, c)) for c in hand]
            elif kind == "swap":
                assert isinstance(deal, WidowDeal)
                for k in range(1, deal.rules.swap_max + 1):
                    for give in combinations(hand, k):
                        for take in combinations(deal.widow, k):
                            out.append((seat, Decision("swap", give=give, take=take)))
            elif kind == "offer":
                assert isinstance(deal, DiscardDeal)
                for target in deal.offer_targets(seat):
                    out += [(seat, Decision("offer", c, target=target)) for c in hand]
            else:
                out.append((seat, Decision(kind)))
    return out


KINDS = [
    "trade", "barter", "knock", "accept", "refuse", "take_widow", "keep_hand", "swap", "stand",
    "pounce", "buy_horse", "decline_horse", "take_discard", "draw", "draw_keep", "draw_discard",
    "pass", "offer", "nonsense",
]


def snapshot(deal: AnyDeal) -> dict[str, Any]:
    """Every piece of a deal's state (deep-copied) and every observation."""
    state = {k: v for k, v in vars(deal).items() if k != "rng"}
    return {
        "state": copy.deepcopy(state),
        "observations": [deal.observation(s) for s in range(deal.n)] + [deal.observation()],
    }


def assert_cards_conserved(deal: AnyDeal) -> None:
    """The 52 cards are all there once; every hand in play holds 3 (4 after a pounce)."""
    every = deal.cards_in_play()
    assert sorted(every) == list(range(52))
    for seat in range(deal.n):
        size = len(deal.hands[seat])
        if seat in deal.active:
            assert size in ((3, 4) if isinstance(deal, WidowDeal) else (3,))
        else:
            assert size == 0


def assert_money_conserved(game: Game, deal: AnyDeal | None = None) -> None:
    """Balances plus pots are conserved (0) for the game and the deal; chips
    never go negative."""
    assert game.conserved_total() == 0
    if deal is not None:
        assert deal.conserved_total() == 0
    if game.chips is not None:
        assert min(game.chips) >= 0


def ai_move(deal: AnyDeal) -> Move:
    """The AI's decision for the seat to act, from that seat's observation only."""
    seat = deal.to_act
    assert seat is not None
    return seat, easy.choose(deal.observation(seat))


def play(
    rules: Rules, n: int, first: int, rng: random.Random,
    choose: Callable[[AnyDeal, random.Random], Move] | None = None,
    max_deals: int | None = None, max_moves: int = 3000,
) -> Game:
    """A game played by ``choose`` (default: the AI), checking invariants after
    every action; stops when complete or after ``max_deals`` deals."""
    game = Game(rules, n, first)
    while not game.complete and (max_deals is None or len(game.deals) < max_deals):
        deal = game.start_deal(shuffled_deck(rng), rng=rng)
        assert_cards_conserved(deal)
        assert_money_conserved(game, deal)
        moves = 0
        while not deal.finished:
            seat, decision = ai_move(deal) if choose is None else choose(deal, rng)
            assert decision.kind in deal.legal_actions(seat), (decision, deal.legal_actions(seat))
            deal.act(seat, decision)
            assert_cards_conserved(deal)
            assert_money_conserved(game, deal)
            moves += 1
            assert moves <= max_moves, "the deal does not end"
        assert len(game.deals) < 2000, "the game does not end"
    return game


def random_move(deal: AnyDeal, rng: random.Random) -> Move:
    """A random legal move: mostly of the seat to act, sometimes of any seat (a
    pounce or an open offer out of turn)."""
    moves = all_moves(deal)
    assert moves, "the deal waits but nobody can move"
    mine = [m for m in moves if m[0] == deal.to_act]
    if mine and rng.random() < 0.8:
        moves = mine
    return moves[rng.randrange(len(moves))]


def check_replay(game: Game) -> None:
    """The record of ``game`` survives JSON and replays to the same game."""
    record = game.to_record([f"p{i}" for i in range(game.n)])
    again = replay(json.loads(json.dumps(record)))
    assert again.summary() == game.summary()
    assert [d.operations for d in again.deals] == [d.operations for d in game.deals]
    assert again.ledger == game.ledger
    assert again.pots == game.pots


def knock_or_stop(deal: AnyDeal) -> None:
    """End a deal with legal moves quickly (trade: knock; widow: keep, then stop;
    discard: knock or pass)."""
    while not deal.finished:
        seat = deal.to_act
        assert seat is not None
        legal = deal.legal_actions(seat)
        for kind in ("keep_hand", "knock", "stand", "decline_horse", "pass", "draw_discard",
                     "refuse"):
            if kind in legal:
                deal.act(seat, Decision(kind))
                break
        else:  # pragma: no cover - every state offers one of the above
            raise AssertionError(legal)



def can_decide(deal: AnyDeal, seat: int, d: Decision) -> bool:
    """``can_x`` of the action ``d`` names, for ``seat`` (``False`` for a kind the
    family does not have)."""
    card = d.card
    if isinstance(deal, WidowDeal):
        simple = {
            "take_widow": deal.can_take_widow, "keep_hand": deal.can_keep_hand,
            "knock": deal.can_knock, "stand": deal.can_stand, "pounce": deal.can_pounce,
            "buy_horse": deal.can_buy_horse, "decline_horse": deal.can_decline_horse,
        }
        if d.kind == "swap":
            return deal.can_swap(seat, d.give, d.take)
        return d.kind in simple and simple[d.kind](seat)
    if isinstance(deal, DiscardDeal):
        if d.kind == "take_discard":
            return card is not None and deal.can_take_discard(seat, card)
        if d.kind == "draw_keep":
            return card is not None and deal.can_draw_keep(seat, card)
        if d.kind == "offer":
            return card is not None and d.target is not None and deal.can_offer(seat, d.target, card)
        if d.kind in ("accept", "refuse"):
            return deal.can_answer(seat, card if d.kind == "accept" else None) and (
                d.kind == "refuse" or card is not None)
        simple_d = {"draw": deal.can_draw, "draw_discard": deal.can_draw_discard,
                    "pass": deal.can_pass, "knock": deal.can_knock}
        return d.kind in simple_d and simple_d[d.kind](seat)
    if d.kind in ("trade", "barter", "accept"):
        if card is None:
            return False
        if d.kind == "accept":
            return deal.can_answer(seat, card)
        return (deal.can_trade if d.kind == "trade" else deal.can_barter)(seat, card)
    if d.kind == "refuse":
        return deal.can_answer(seat, None)
    return d.kind == "knock" and deal.can_knock(seat)


def assert_observations_hide(deal: AnyDeal) -> None:
    """Each seat sees its own hand and only its own private cards; the public
    view shows no hand and no showdown before the deal is decided."""
    public = deal.observation()
    assert public.hand is None and public.drawn is None and public.offered_card is None
    assert public.legal == ()
    if deal.showdown is None:
        assert public.showdown is None
    for seat in range(deal.n):
        obs = deal.observation(seat)
        assert obs.legal == tuple(deal.legal_actions(seat))
        if not obs.blind:
            assert obs.hand == tuple(deal.hands[seat])
        else:
            assert obs.hand is None and seat == deal.dealer
        if isinstance(deal, DiscardDeal):
            assert obs.drawn == (deal.drawn if seat == deal.turn else None)
            pending = deal.pending
            assert obs.offered_card == (
                pending.card if pending is not None and seat == pending.target else None)


def reshuffled_game() -> tuple[Game, int]:
    """A jaques game (3 seats, dealer 0, a seeded reshuffle) whose first deal
    draws the stock empty, rebuilds it from the discard pile and goes on one
    more draw; returns the game and the record index of the reshuffling draw."""
    game = Game(get_preset("jaques"), 3, 0)
    deal = game.start_deal(layout_deck(["2c 5d 9h", "3c 7d Js", "4h 8s Kd"], after="Qs"),
                           rng=random.Random(1))
    assert isinstance(deal, DiscardDeal)
    index = 0
    while deal.stock:
        seat = deal.to_act
        assert seat is not None
        deal.draw(seat)
        deal.draw_discard(seat)
        index += 1
    seat = deal.to_act
    assert seat is not None
    op = deal.draw(seat)
    assert op.reshuffle is not None
    deal.draw_discard(seat)
    return game, index
