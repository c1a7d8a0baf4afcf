"""One deal of the trade-and-barter family (docs/RULES.md §2.1–§2.4; options §2.8).

``TradeDeal`` owns the cards, the pool, the deal's ledger delta and whose turn it
is. Every action comes as a triple (pokerkit manner): ``verify_x`` raises
``IllegalAction`` with a reason a player can read, ``can_x`` returns a bool,
``x`` applies the action and returns its frozen operation.

Actions: ``trade``, ``barter`` (then ``answer`` by the neighbour), ``knock``.
``legal_actions(seat)`` names them as the AI's decisions do: ``trade``,
``barter``, ``knock`` on a turn; ``accept`` / ``refuse`` answering a barter.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from functools import cache

from .cards import Card
from .family import (
    Controls,
    DealBase,
    Decision,
    IllegalAction,
    Movement,
    Observation,
    Standing,
    can,
    card_decisions,
    checked_by,
    held_decisions,
    make_showdown,
    movement,
    public_event,
)
from .hands import Category, categories_of, scores_of
from .operations import BarterAnswer, BarterOffer, Knock, Operation, Trade
from .rules import Rules
from .seating import best_seat, next_seat

__all__ = ["TradeDeal"]

_ONE_DECISION = {kind: Decision(kind) for kind in ("knock", "refuse")}
#: ``Category.NONE`` read once (an enum member read from its class costs a lookup each time)
_NONE = Category.NONE


# The operations, made once per value: they are frozen, and an action is verified
# before its operation is made, so only real seats and cards are ever kept.
_trade = cache(Trade)
_barter_offer = cache(BarterOffer)
_barter_answer = cache(BarterAnswer)
_knock = cache(Knock)


@cache
def _penalties(n_seats: int, dealer: int) -> tuple[Movement, ...]:
    """The dealer's penalty of 1 to every other seat, in seat order, made once per table."""
    return tuple(movement(dealer, s, 1, "penalty") for s in range(n_seats) if s != dealer)


@cache
def _antes(n_seats: int, ante: int) -> tuple[Movement, ...]:
    """Each seat's ante into the pool (none when ``ante`` is 0), made once per table size."""
    return tuple(movement(s, None, ante, "ante") for s in range(n_seats)) if ante else ()


class TradeDeal(DealBase):
    """State of one deal of the trade-and-barter family (docs/RULES.md §2.1–§2.4).

    Args:
        rules: the rule system.
        n_seats: number of seats (``rules.min_players..rules.max_players``).
        dealer: the dealer's seat.
        deck: the shuffled deck, 52 distinct cards, top first.
        carried_pool: points carried into the pool from the previous deal.
        final: this is the game's last deal (a pool never carries out of it).

    Raises:
        ValueError: bad seat count, dealer or deck.
    """

    def __init__(self, rules: Rules, n_seats: int, dealer: int, deck: Sequence[Card], *,
                 carried_pool: int = 0, final: bool = True) -> None:
        """Deal, take each seat's ante into the pool (plus ``carried_pool``) and
        stack the rest as the stock; the eldest hand is first to move
        (docs/RULES.md §2.1). Arguments and errors: see the class."""
        super().__init__(rules, n_seats, dealer, deck)
        self.final = final
        #: +1 or -1: the direction of play (``rules.step``, read once)
        self._step = step = rules.step
        self.stock: deque[Card] = deque(deck[3 * n_seats :])
        self.waste: list[Card] = []
        self.carried_pool = carried_pool
        self.pool = rules.ante * n_seats + carried_pool
        self.delta = [-rules.ante] * n_seats
        self.movements = list(_antes(n_seats, rules.ante))
        self.turn = next_seat(dealer, n_seats, step)  # the eldest hand: turn_order(...)[0]
        self.pending = None

    family = "trade"
    #: the barter waiting for the neighbour's answer (§2.1), or ``None``
    pending: BarterOffer | None = None
    #: nothing is ever drawn to be kept or thrown away in this family
    drawn: None = None

    # ----------------------------------------------------------------- state
    @property
    def to_act(self) -> int | None:
        """The seat whose decision is awaited: the barter target while a barter is
        pending, else the seat whose turn it is; ``None`` once finished. The one
        place that decides whose turn it is."""
        if self.showdown is not None or self.voided:
            return None
        pending = self.pending
        if pending is not None:
            return (pending.seat + self._step) % self.n  # next_seat, inlined on this hot path
        return self.turn

    def neighbour(self, seat: int) -> int:
        """The seat ``seat`` barters with: the next seat in play order."""
        return next_seat(seat, self.n, self._step)

    def cards_in_play(self) -> list[Card]:
        """Every card: hands, then stock, then waste (52 when consistent)."""
        return [c for h in self.hands for c in h] + list(self.stock) + self.waste

    @property
    def pots(self) -> tuple[int, ...]:
        """The pool as a one-pot tuple (the shape every family shares)."""
        return (self.pool,)

    def conserved_total(self) -> int:
        """Points are conserved: ``sum(delta) + pool - carried_pool`` is always 0
        (antes sit in the pool until paid out; fees and penalties move between seats)."""
        return sum(self.delta) + self.pool - self.carried_pool

    def standing_after(self) -> Standing:
        """The pool the next deal starts with (hoyle carry; a void keeps what came in)."""
        if self.voided:
            return Standing((self.carried_pool,))
        sd = self.showdown
        return Standing((self.pool if sd is not None and sd.winner is None else 0,))

    @property
    def game_over(self) -> bool:
        """This deal ended the game (the final deal reached its showdown)."""
        return self.final and self.showdown is not None

    def legal_actions(self, seat: int) -> list[str]:
        """The actions ``seat`` may take now, named as the AI's decisions:
        ``trade``, ``barter``, ``knock`` on a turn; ``accept``, ``refuse`` when
        answering a barter; ``[]`` otherwise."""
        if seat is None or seat != self.to_act:  # to_act is None once finished
            return []
        if self.pending is not None:
            return ["accept", "refuse"] if self.rules.barter_refusal else ["accept"]
        return ["trade", "barter", "knock"] if self.stock else ["barter", "knock"]

    def controls(self, seat: int | None = None) -> Controls:
        """Trade, Barter, Knock on the table (§2.1); while a barter waits:
        Accept, and Refuse (by knocking) where the rules allow it (§2.2: not
        under hoyle). Nothing private. Empty once the deal is over."""
        if self.finished:
            return Controls()
        if self.pending is not None:
            return Controls(answers=("accept", "refuse") if self.rules.barter_refusal
                            else ("accept",))
        return Controls(moves=("trade", "barter", "knock"))

    def choices(self, seat: int, action: str) -> list[Decision]:
        """``trade`` / ``barter``: each card of the hand, then (§2.2, presets that
        allow it) each card again ending the turn with a knock; ``accept``: each
        card the seat may give back; ``knock``, ``refuse``: the one decision. Only
        legal decisions; ``[]`` when ``action`` is not ``seat``'s now."""
        # the same test as ``action in self.legal_actions(seat)``, without the list
        if seat is None or seat != self.to_act:  # to_act is None once finished
            return []
        if self.pending is not None:
            if action == "refuse" and self.rules.barter_refusal:
                return [_ONE_DECISION["refuse"]]
            if action != "accept":
                return []
        elif action == "knock":
            return [_ONE_DECISION["knock"]]
        elif action != "barter" and (action != "trade" or not self.stock):
            return []
        # the seat is to act and ``action`` is legal, so every held card passes its
        # ``can_x`` check; a knock at the end of the turn only where the rules allow it
        plain = card_decisions(action)
        hand = self.hands[seat]
        if action == "accept" or not self.rules.knock_after_exchange:
            return held_decisions(plain, hand)
        return held_decisions(plain, hand) + held_decisions(card_decisions(action, True), hand)

    # ------------------------------------------------------------- checks
    def _verify_turn(self, seat: int) -> None:
        if self.showdown is not None or self.voided:  # finished
            raise IllegalAction("This deal is already over.")
        if not 0 <= seat < self.n:
            raise IllegalAction("That is not a seat at this table.")
        if self.pending is not None:
            if seat == self.to_act:
                raise IllegalAction("Answer the barter offered to you first.")
            raise IllegalAction("Wait: a barter is waiting for an answer.")
        if seat != self.turn:
            raise IllegalAction("It is not your turn.")

    def _verify_knock_flag(self, knock: bool) -> None:
        if knock and not self.rules.knock_after_exchange:
            raise IllegalAction("These rules do not let you knock in the same turn.")

    def verify_trade(self, seat: int, card: Card, knock: bool = False) -> None:
        """Check that ``seat`` may trade ``card`` now.

        Raises:
            IllegalAction: not their turn, card not held, deal over, no stock.
        """
        self._verify_turn(seat)
        if card not in self.hands[seat]:  # _verify_holds, inlined on this hot path
            raise IllegalAction("You do not hold that card.")
        if knock:
            self._verify_knock_flag(knock)
        if not self.stock:
            raise IllegalAction("The stock is empty.")

    can_trade = can(verify_trade)

    def verify_barter(self, seat: int, card: Card, knock: bool = False) -> None:
        """Check that ``seat`` may offer ``card`` to its neighbour now.

        Raises:
            IllegalAction: not their turn, card not held, deal over.
        """
        self._verify_turn(seat)
        if card not in self.hands[seat]:  # _verify_holds, inlined on this hot path
            raise IllegalAction("You do not hold that card.")
        if knock:
            self._verify_knock_flag(knock)

    can_barter = can(verify_barter)

    def verify_answer(self, seat: int, card: Card | None) -> None:
        """Check that ``seat`` may answer the pending barter with ``card``
        (``None`` refuses by knocking).

        Raises:
            IllegalAction: no barter pending for this seat, card not held,
                refusal not allowed by the rules.
        """
        if self.showdown is not None or self.voided:  # finished
            raise IllegalAction("This deal is already over.")
        if self.pending is None or seat != self.to_act:
            raise IllegalAction("No barter is waiting for your answer.")
        if card is None:
            if not self.rules.barter_refusal:
                raise IllegalAction("Under these rules a barter must be accepted.")
        elif card not in self.hands[seat]:  # _verify_holds, inlined on this hot path
            raise IllegalAction("You do not hold that card.")

    can_answer = can(verify_answer)

    def verify_knock(self, seat: int) -> None:
        """Check that ``seat`` may knock now.

        Raises:
            IllegalAction: not their turn or deal over.
        """
        self._verify_turn(seat)

    can_knock = can(verify_knock)

    # ------------------------------------------------------------ actions
    @checked_by(verify_trade)
    def trade(self, seat: int, card: Card, knock: bool = False) -> Trade:
        """Trade ``card`` for the stock top, paying the fee to the dealer."""
        op, rules = _trade(seat, card, knock), self.rules
        hand = self.hands[seat]
        hand.remove(card)
        hand.append(self.stock.popleft())
        if seat != self.dealer and rules.trade_fee:
            self._move(seat, self.dealer, rules.trade_fee, "fee")
        if rules.traded_card == "under_stock":
            self.stock.append(card)
        else:
            self.waste.append(card)
        shown = card if rules.traded_card == "face_up" else None
        self._record(op, public_event("trade", seat, None, knock, shown))
        if knock:
            self._end("knock", seat)
        elif not self.stock:
            self._end("stock", None)
        else:
            self._advance()
        return op

    @checked_by(verify_barter)
    def barter(self, seat: int, card: Card, knock: bool = False) -> BarterOffer:
        """Offer ``card`` face down to the neighbour; the deal then waits for
        ``answer`` from ``to_act``."""
        op = _barter_offer(seat, card, knock)
        self.pending = op
        self._record(op, public_event("barter_offer", seat, self.neighbour(seat)))
        return op

    @checked_by(verify_answer)
    def answer(self, seat: int, card: Card | None) -> BarterAnswer:
        """Answer the pending barter: give ``card`` back (the cards swap), or
        ``None`` to refuse by knocking (the deal ends, ``seat`` is the knocker)."""
        offer = self.pending
        assert offer is not None
        op = _barter_answer(seat, card)
        self.pending = None
        if card is None:
            self._record(op, public_event("barter_refuse", seat, offer.seat))
            self._end("knock", seat)
            return op
        offered, given = self.hands[offer.seat], self.hands[seat]
        offered.remove(offer.card)
        offered.append(card)
        given.remove(card)
        given.append(offer.card)
        self._record(op, public_event("barter_accept", offer.seat, seat, offer.knock))
        if offer.knock:
            self._end("knock", offer.seat)
        else:
            self._advance()
        return op

    @checked_by(verify_knock)
    def knock(self, seat: int) -> Knock:
        """Knock: the deal ends at once and goes to the showdown."""
        op = _knock(seat)
        self._record(op, public_event("knock", seat))
        self._end("knock", seat)
        return op

    def act(self, seat: int, decision: Decision) -> Operation:
        """Apply ``decision`` (an AI or UI choice: ``trade``, ``barter``, ``knock``,
        ``accept``, ``refuse``) for ``seat``; ``decision.knock`` ends a trade or
        barter with a knock (§2.2).

        Raises:
            IllegalAction: unknown kind, missing card, a knock the rules or the
                action do not allow, or illegal.
        """
        kind = decision.kind
        if kind == "trade":
            return self.trade(seat, decision.need_card(), decision.knock)
        if kind == "barter":
            return self.barter(seat, decision.need_card(), decision.knock)
        if decision.knock:
            raise IllegalAction("You can knock in the same turn only after a trade or a barter.")
        if kind == "knock":
            return self.knock(seat)
        if kind == "refuse":
            return self.answer(seat, None)
        if kind == "accept":
            return self.answer(seat, decision.need_card())
        raise IllegalAction("Unknown action.")

    def apply(self, op: Operation) -> Operation:
        """Apply a recorded operation (replay, restart).

        Raises:
            IllegalAction: the operation is not legal here (or of another family).
        """
        if isinstance(op, Trade):
            return self.trade(op.seat, op.card, op.knock)
        if isinstance(op, BarterOffer):
            return self.barter(op.seat, op.card, op.knock)
        if isinstance(op, BarterAnswer):
            return self.answer(op.seat, op.card)
        if isinstance(op, Knock):
            return self.knock(op.seat)
        raise IllegalAction(f"A {op.kind} is not an action of this game.")

    def void(self) -> None:
        """End the deal without a showdown: antes and fees are refunded
        (the deal's delta becomes zero; a carried-in pool stays carried)."""
        if self.finished:
            raise IllegalAction("This deal is already over.")
        self.voided = True
        self.pending = None
        self.delta = [0] * self.n
        self.pool = self.carried_pool
        self.movements = []

    # ----------------------------------------------------------- internals
    def _advance(self) -> None:
        assert self.turn is not None
        self.turn = (self.turn + self._step) % self.n  # next_seat, inlined on this hot path

    def _end(self, ended_by: str, knocker: int | None) -> None:
        self.turn = None
        scores = scores_of(self.hands, self.rules.ranking)
        cats = categories_of(scores)
        first = len(self.movements)
        winner: int | None
        pool_won = 0
        if (
            self.rules.no_hand == "carry"
            and not self.final
            and all(c is _NONE for c in cats)
        ):
            winner = None  # the pool stays for the next deal
        else:
            winner = best_seat(scores, self.dealer, self._step)
            pool_won = self.pool
            self._move(None, winner, self.pool, "pool")
            self.pool = 0
            if winner != self.dealer:
                self._dealer_penalty(cats, winner)
        top = max(scores)
        self.showdown = make_showdown(
            hands=tuple(map(tuple, self.hands)),
            scores=scores,
            categories=cats,
            winner=winner,
            ended_by=ended_by,
            knocker=knocker,
            pool_won=pool_won,
            payments=tuple(self.movements[first:]),
            best=tuple([s for s in range(self.n) if scores[s] == top]),
            pots=(self.pool,),
        )

    def _dealer_penalty(self, cats: tuple[Category, ...], winner: int) -> None:
        d = self.dealer
        if self.rules.dealer_penalty == "same_category":
            pays_all = cats[d] == cats[winner] and cats[d] is not _NONE
        else:
            pays_all = cats[d] is not _NONE
        if pays_all:  # 1 to every other seat: the dealer's n - 1 moves at once
            delta, n = self.delta, self.n
            for seat in range(n):
                delta[seat] += 1
            delta[d] -= n
            self.movements += _penalties(n, d)
        else:
            self._move(d, winner, 1, "penalty")

    # -------------------------------------------------------- observation
    def _observation(self, seat: int | None) -> Observation:
        """What ``seat`` may see (``None``: the public view, no hand at all).

        Raises:
            ValueError: ``seat`` is not a seat.
        """
        if seat is not None and not 0 <= seat < self.n:
            raise ValueError("not a seat")
        barter = None
        if self.pending is not None:
            barter = (self.pending.seat, self.neighbour(self.pending.seat))
        shown = tuple(self.waste) if self.rules.traded_card == "face_up" else ()
        return self._observe(
            seat,
            None if seat is None else tuple(self.hands[seat]),
            stock_count=len(self.stock),
            waste_count=len(self.waste),
            shown_waste=shown,
            barter=barter,
            family="trade",
            phase="over" if self.finished else "play",
            pots=(self.pool,),
        )
