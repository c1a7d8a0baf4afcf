"""A whole game: deals in turn, the ledger, the winners, and game records
(RULES.md §1 "Game length", §3 "Game records").
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from .cards import Card, card_code, parse_card, shuffled_deck
from .deal import Deal, IllegalAction
from .hands import Category
from .operations import BarterAnswer, BarterOffer, Operation, Trade
from .rules import OPTION_FIELDS, PRESETS, Rules, RulesError, get_preset


class GameError(ValueError):
    """A game-level step that is not allowed now (e.g. a deal while one is open)."""


class RecordError(ValueError):
    """An invalid game record. ``deal`` and ``action`` index from 0 (or are ``None``)."""

    def __init__(self, reason: str, deal: int | None = None, action: int | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.deal = deal
        self.action = action

    def to_dict(self) -> dict[str, Any]:
        """``{"error": {"deal", "action", "reason"}}`` as ``replay`` prints it."""
        return {"error": {"deal": self.deal, "action": self.action, "reason": self.reason}}


class Game:
    """A game of ``rules.deals_per_player * n_seats`` deals.

    Args:
        rules: the rule system (options already applied).
        n_seats: number of seats.
        first_dealer: seat of the first dealer.

    Raises:
        ValueError: seat count or first dealer out of range.
    """

    def __init__(self, rules: Rules, n_seats: int, first_dealer: int) -> None:
        if not rules.min_players <= n_seats <= rules.max_players:
            raise ValueError(
                f"{rules.name} needs {rules.min_players} to {rules.max_players} players"
            )
        if not 0 <= first_dealer < n_seats:
            raise ValueError("first dealer is not a seat")
        self.rules = rules
        self.n = n_seats
        self.first_dealer = first_dealer
        self.deals_total = n_seats * rules.deals_per_player
        self.deals: list[Deal] = []
        self.closed = False

    # ------------------------------------------------------------- state
    @property
    def current(self) -> Deal | None:
        """The deal in progress, or ``None``."""
        if self.deals and not self.deals[-1].finished:
            return self.deals[-1]
        return None

    @property
    def deals_played(self) -> int:
        """Deals that reached a showdown."""
        return sum(1 for d in self.deals if d.showdown is not None)

    @property
    def complete(self) -> bool:
        """Every deal of the game has been played."""
        return self.deals_played >= self.deals_total

    @property
    def ledger(self) -> list[int]:
        """Balance per seat after the finished deals (points)."""
        totals = [0] * self.n
        for deal in self.deals:
            if deal.finished:
                for seat, d in enumerate(deal.delta):
                    totals[seat] += d
        return totals

    @property
    def running_balances(self) -> list[int]:
        """Balance per seat including the open deal's antes and fees so far."""
        totals = self.ledger
        if self.current is not None:
            for seat, d in enumerate(self.current.delta):
                totals[seat] += d
        return totals

    @property
    def carry(self) -> int:
        """Points that will join the next deal's pool (``hoyle`` no-hand carry)."""
        if not self.deals:
            return 0
        last = self.deals[-1]
        if last.voided:
            return last.carried_pool
        if last.showdown is not None and last.showdown.winner is None:
            return last.pool
        return 0

    @property
    def next_dealer(self) -> int:
        """The dealer of the next deal: the deal passes one seat in play order."""
        return (self.first_dealer + self.rules.step * len(self.deals)) % self.n

    @property
    def winners(self) -> list[int] | None:
        """Seats with the highest final balance (several on a tie), or ``None``
        while the game is incomplete."""
        if not self.complete:
            return None
        ledger = self.ledger
        top = max(ledger)
        return [s for s, v in enumerate(ledger) if v == top]

    # ------------------------------------------------------------ steps
    def start_deal(
        self, deck: Sequence[Card] | None = None, rng: random.Random | None = None
    ) -> Deal:
        """Start the next deal with ``deck`` (or a fresh CSPRNG shuffle).

        Raises:
            GameError: a deal is in progress, the game is complete or closed.
        """
        if self.closed:
            raise GameError("This game has been closed.")
        if self.current is not None:
            raise GameError("A deal is already in progress.")
        if self.complete:
            raise GameError("Every deal of this game has been played.")
        deal = Deal(
            self.rules,
            self.n,
            self.next_dealer,
            list(deck) if deck is not None else shuffled_deck(rng),
            carried_pool=self.carry,
            final=len(self.deals) + 1 == self.deals_total,
        )
        self.deals.append(deal)
        return deal

    def apply(self, op: Operation) -> Operation:
        """Apply ``op`` to the deal in progress.

        Raises:
            IllegalAction: no deal in progress, or the operation is not legal.
        """
        deal = self.current
        if deal is None:
            raise IllegalAction("No deal is in progress.")
        return deal.apply(op)

    def close(self) -> Deal | None:
        """Close the game early; an open deal is voided (antes and fees refunded).
        Returns the voided deal, if any."""
        deal = self.current
        if deal is not None:
            deal.void()
        self.closed = True
        return deal

    # ----------------------------------------------------------- records
    @property
    def options(self) -> dict[str, Any]:
        """The table options that differ from the preset (``Rules.with_options`` input)."""
        base = PRESETS.get(self.rules.name)
        return {
            key: getattr(self.rules, key)
            for key in OPTION_FIELDS
            if base is None or getattr(self.rules, key) != getattr(base, key)
        }

    def to_record(
        self, players: Sequence[str], options: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        """The game as a RULES.md §3 record (JSON-ready); ``options`` default to
        the game's own table options."""
        return {
            "rules": self.rules.name,
            "options": dict(self.options if options is None else options),
            "players": list(players),
            "first_dealer": self.first_dealer,
            "deals": [
                {"deck": [card_code(c) for c in d.deck], "actions": record_actions(d.operations)}
                for d in self.deals
            ],
        }

    def summary(self) -> dict[str, Any]:
        """The outcome as ``python -m bot.engine replay`` prints it (RULES.md §3)."""
        deals = []
        for d in self.deals:
            sd = d.showdown
            deals.append(
                {
                    "dealer": d.dealer,
                    "hands": [[card_code(c) for c in h] for h in d.hands],
                    "categories": [category_name(c) for c in sd.categories] if sd else None,
                    "winner": sd.winner if sd else None,
                    "ended_by": sd.ended_by if sd else None,
                    "knocker": sd.knocker if sd else None,
                    "ledger_delta": list(d.delta),
                }
            )
        return {
            "deals": deals,
            "ledger": self.ledger,
            "complete": self.complete,
            "winners": self.winners,
        }


def category_name(category: Category) -> str:
    """Lower-case category name for records: ``tricon``, ``sequence``, ``point``, ``none``..."""
    return category.name.lower()


def record_actions(operations: Sequence[Operation]) -> list[dict[str, Any]]:
    """RULES.md §3 action objects from operations: a barter offer and its answer
    become one ``barter`` object with ``response`` (absent while pending)."""
    out: list[dict[str, Any]] = []
    for op in operations:
        if isinstance(op, Trade):
            item: dict[str, Any] = {"seat": op.seat, "action": "trade", "card": card_code(op.card)}
            if op.knock:
                item["knock"] = True
            out.append(item)
        elif isinstance(op, BarterOffer):
            item = {"seat": op.seat, "action": "barter", "card": card_code(op.card)}
            if op.knock:
                item["knock"] = True
            out.append(item)
        elif isinstance(op, BarterAnswer):
            out[-1]["response"] = "knock" if op.card is None else card_code(op.card)
        else:
            out.append({"seat": op.seat, "action": "knock"})
    return out


def _card(value: Any, what: str) -> Card:
    try:
        return parse_card(value)
    except ValueError:
        raise ValueError(f"{what} is not a card code: {value!r}") from None


def _apply_action(deal: Deal, action: Any) -> None:
    if not isinstance(action, dict):
        raise ValueError("an action must be an object")
    seat, kind = action.get("seat"), action.get("action")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < deal.n:
        raise ValueError(f"seat {seat!r} is not a seat")
    knock = action.get("knock", False)
    if not isinstance(knock, bool):
        raise ValueError("knock must be true or false")
    if kind == "trade":
        deal.trade(seat, _card(action.get("card"), "card"), knock)
    elif kind == "barter":
        deal.barter(seat, _card(action.get("card"), "card"), knock)
        if "response" in action:
            response = action["response"]
            target = deal.neighbour(seat)
            deal.answer(target, None if response == "knock" else _card(response, "response"))
    elif kind == "knock":
        if knock:
            raise ValueError("a knock action cannot carry knock: true")
        deal.knock(seat)
    else:
        raise ValueError(f"unknown action {kind!r}")


def replay(record: Any) -> Game:
    """Rebuild a game from a RULES.md §3 record.

    Raises:
        RecordError: the record is malformed or an action is illegal, with the
            deal and action index where it went wrong.
    """
    if not isinstance(record, dict):
        raise RecordError("the record must be a JSON object")
    try:
        options = record.get("options") or {}
        if not isinstance(options, dict):
            raise RecordError("options must be an object")
        rules = get_preset(str(record.get("rules", "foster")), options)
        players = record.get("players")
        if not isinstance(players, list):
            raise RecordError("players must be a list")
        first = record.get("first_dealer")
        if not isinstance(first, int) or isinstance(first, bool):
            raise RecordError("first_dealer must be a seat number")
        game = Game(rules, len(players), first)
    except (RulesError, ValueError) as exc:
        if isinstance(exc, RecordError):
            raise
        raise RecordError(str(exc)) from None
    deals = record.get("deals")
    if not isinstance(deals, list):
        raise RecordError("deals must be a list")
    for di, deal_record in enumerate(deals):
        if not isinstance(deal_record, dict):
            raise RecordError("a deal must be an object", di)
        if game.current is not None:
            raise RecordError("the previous deal is unfinished", di)
        try:
            raw = deal_record.get("deck")
            if not isinstance(raw, list):
                raise ValueError("deck must be a list of 52 card codes")
            deck = [_card(c, "deck entry") for c in raw]
            deal = game.start_deal(deck)
        except (ValueError, GameError) as exc:
            raise RecordError(str(exc), di) from None
        actions = deal_record.get("actions", [])
        if not isinstance(actions, list):
            raise RecordError("actions must be a list", di)
        for ai, action in enumerate(actions):
            if deal.finished:
                raise RecordError("the deal is already over", di, ai)
            try:
                _apply_action(deal, action)
            except ValueError as exc:  # IllegalAction is a ValueError
                raise RecordError(str(exc), di, ai) from None
    return game
