"""Shared builders for the engine tests: decks that deal chosen hands, state
snapshots, legal-action enumeration and a driver for AI or random play."""

from __future__ import annotations

import importlib.util
import random
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

from bot.engine import easy
from bot.engine.cards import Card, card_code, parse_card, shuffled_deck
from bot.engine.game import Game
from bot.engine.rules import PRESETS, Rules
from bot.engine.trade import TradeDeal

#: the presets of each family (docs/RULES.md §2)
TRADE_PRESETS = sorted(name for name, r in PRESETS.items() if r.family == "trade")
WIDOW_PRESETS = sorted(name for name, r in PRESETS.items() if r.family == "widow")
DISCARD_PRESETS = sorted(name for name, r in PRESETS.items() if r.family == "discard")

WORKED = ["3c 4c 5c", "6s 7s Kd", "Ah Kh 4d"]  # docs/RULES.md §1 worked check, dealer 0
NOTHING = ["2c 5d 9h", "3c 7d Js", "4h 8s Kd"]  # nobody holds anything

# A legal or candidate action: (kind, seat, card, knock) with kind one of
# "trade", "barter", "knock", "answer" (card None = refuse by knocking).
Action = tuple[str, int, Card | None, bool]


def load_script(name: str) -> ModuleType:
    """``scripts/<name>.py`` imported as a module named ``name`` (the scripts are
    not a package)."""
    path = Path(__file__).resolve().parents[2] / "scripts" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def cards(text: str) -> list[Card]:
    """``"6s 7s Kd"`` -> the three cards."""
    return [parse_card(code) for code in text.split()]


def make_deck(hands: Sequence[str], dealer: int = 0, step: int = 1, stock: str = "") -> list[Card]:
    """A 52-card deck that deals ``hands[seat]`` to each seat (in the given
    order, one card per round) following docs/RULES.md §1/§2: card ``i`` goes to
    seat ``(dealer + step * (1 + i)) mod n``. ``stock`` lists the stock top
    first; the remaining cards follow in ascending order."""
    n = len(hands)
    per_seat = [cards(h) for h in hands]
    assert all(len(h) == 3 for h in per_seat)
    taken = [0] * n
    deck: list[Card] = []
    for i in range(3 * n):
        seat = (dealer + step * (1 + i)) % n
        deck.append(per_seat[seat][taken[seat]])
        taken[seat] += 1
    deck += cards(stock)
    used = set(deck)
    assert len(used) == len(deck), "a card is used twice"
    deck += [c for c in range(52) if c not in used]
    return deck


def snapshot(deal: TradeDeal) -> dict[str, Any]:
    """Every observable piece of a deal's state, copied."""
    return {
        "hands": [list(h) for h in deal.hands],
        "stock": list(deal.stock),
        "waste": list(deal.waste),
        "pool": deal.pool,
        "delta": list(deal.delta),
        "movements": list(deal.movements),
        "turn": deal.turn,
        "to_act": deal.to_act,
        "pending": deal.pending,
        "operations": list(deal.operations),
        "last_event": deal.last_event,
        "showdown": deal.showdown,
        "voided": deal.voided,
        "finished": deal.finished,
        "observations": [deal.observation(s) for s in range(deal.n)] + [deal.observation()],
    }


def legal_actions(deal: TradeDeal) -> list[Action]:
    """Every legal action of the seat to act, found through the ``can_x`` API."""
    seat = deal.to_act
    if seat is None:
        return []
    out: list[Action] = []
    if deal.pending is not None:
        for card in list(deal.hands[seat]) + [None]:
            if deal.can_answer(seat, card):
                out.append(("answer", seat, card, False))
        return out
    for card in deal.hands[seat]:
        for knock in (False, True):
            if deal.can_trade(seat, card, knock):
                out.append(("trade", seat, card, knock))
            if deal.can_barter(seat, card, knock):
                out.append(("barter", seat, card, knock))
    if deal.can_knock(seat):
        out.append(("knock", seat, None, False))
    return out


def can(deal: TradeDeal, action: Action) -> bool:
    """``can_x`` for ``action``."""
    kind, seat, card, knock = action
    if kind == "trade":
        assert card is not None
        return deal.can_trade(seat, card, knock)
    if kind == "barter":
        assert card is not None
        return deal.can_barter(seat, card, knock)
    if kind == "answer":
        return deal.can_answer(seat, card)
    return deal.can_knock(seat)


def verify(deal: TradeDeal, action: Action) -> None:
    """``verify_x`` for ``action``."""
    kind, seat, card, knock = action
    if kind == "trade":
        assert card is not None
        deal.verify_trade(seat, card, knock)
    elif kind == "barter":
        assert card is not None
        deal.verify_barter(seat, card, knock)
    elif kind == "answer":
        deal.verify_answer(seat, card)
    else:
        deal.verify_knock(seat)


def perform(deal: TradeDeal, action: Action) -> object:
    """Apply ``action`` through the public ``x`` API; returns the operation."""
    kind, seat, card, knock = action
    if kind == "trade":
        assert card is not None
        return deal.trade(seat, card, knock)
    if kind == "barter":
        assert card is not None
        return deal.barter(seat, card, knock)
    if kind == "answer":
        return deal.answer(seat, card)
    return deal.knock(seat)


def ai_action(deal: TradeDeal) -> Action:
    """The AI's choice for the seat to act, from that seat's observation only."""
    seat = deal.to_act
    assert seat is not None
    decision = easy.choose(deal.observation(seat))
    if decision.kind == "accept":
        return ("answer", seat, decision.card, False)
    if decision.kind == "refuse":
        return ("answer", seat, None, False)
    return (decision.kind, seat, decision.card, False)


def assert_cards_conserved(deal: TradeDeal) -> None:
    """Hands, stock and waste are the 52 cards once each; every hand holds 3."""
    every = deal.cards_in_play()
    assert len(every) == 52
    assert sorted(every) == list(range(52))
    assert all(len(h) == 3 for h in deal.hands)


def carried_out(deal: TradeDeal) -> int:
    """Points a finished deal leaves in the pool for the next deal."""
    sd = deal.showdown
    return deal.pool if sd is not None and sd.winner is None else 0


def assert_deal_balanced(deal: TradeDeal) -> None:
    """Points are conserved: a finished deal's delta sums to zero, except that
    a pool carried in is paid out and a pool carried out is held back (hoyle)."""
    assert deal.finished
    assert sum(deal.delta) == deal.carried_pool - carried_out(deal)
    if deal.rules.no_hand != "carry":
        assert deal.carried_pool == 0
        assert sum(deal.delta) == 0


def play_game(
    rules: Rules,
    n: int,
    first_dealer: int,
    rng: random.Random,
    choose: Callable[[TradeDeal], Action] = ai_action,
    max_moves: int = 2000,
) -> Game:
    """A whole game, every deal shuffled by ``rng`` and played by ``choose``."""
    game = Game(rules, n, first_dealer)
    while not game.complete:
        deal = game.start_deal(shuffled_deck(rng))
        moves = 0
        while not deal.finished:
            perform(deal, choose(deal))
            moves += 1
            assert moves <= max_moves, "the deal does not end"
    return game


def codes(deck: Sequence[Card]) -> list[str]:
    """Card codes of ``deck``."""
    return [card_code(c) for c in deck]


def worked_record() -> dict[str, Any]:
    """The docs/RULES.md §1 worked check as a §3 record (the first of three deals)."""
    return {
        "rules": "foster",
        "options": {},
        "players": ["Ann", "Ben", "Cat"],
        "first_dealer": 0,
        "deals": [
            {
                "deck": codes(make_deck(WORKED, stock="8s")),
                "actions": [
                    {"seat": 1, "action": "trade", "card": "Kd"},
                    {"seat": 2, "action": "knock"},
                ],
            }
        ],
    }
