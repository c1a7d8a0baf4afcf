"""One deal of the discard-pile family (docs/RULES.md §2.7 jaques).

Seats with chips are dealt three cards each (docs/RULES.md §1 order); the next card
of the deck is turned face up to start the discard pile; the rest is the
concealed stock. From the eldest hand on, a turn is one of:

- ``take_discard``: lay one hand card face up on the pile and take the old top;
- ``draw``: take the stock top (seen only by you), then ``draw_keep`` (lay a
  hand card on the pile instead) or ``draw_discard`` (lay the drawn card there);
- ``pass``;
- ``knock``: pay ``knock_fee`` into the pot; every other seat then has exactly
  one more turn, then the showdown. Only one knock per deal;
- with ``direct_trading``: ``offer`` one card to another seat, who answers
  (``answer``: a card back, or refuse); accepted or not, the turn is used. With
  ``open_trading`` any seat may also offer outside its turn (it uses no turn).

A full circuit of passes ends the deal at once. When the stock is empty, the
next ``draw`` first shuffles the discard pile but its top card into a new stock.

Showdown: every tied lowest hand pays ``lowest_pays`` into the pot; with
``dead_knock`` a knocker without the best hand pays ``dead_knock_fine`` instead.
With ``three_stake`` the three pots go to the best tricon, the best sequence or
flush, and the best pair or high card (ties split; an unwon pot carries over).
A payment never exceeds the payer's chips. Seats left without chips are out.
When at most one seat has chips — or after the last of the ``fixed_rounds`` —
the pots go to the last seat left (or the seats with the most chips; when the
last seats all drop out together, they share the same way) and the game ends.
Sharing at the game's end takes every pot together: with ``three_stake`` the
total of the three pots is shared equally, and the odd chips (one remainder)
go to the earliest taker from the dealer's left (docs/RECORDS.md "Rulings").

Random source: a live reshuffle (``draw``) asks the deal's ``reshuffler`` — the
game's fair shuffle (docs/FAIRNESS.md), which derives it from the game's seed —
or, without one, uses ``secrets.SystemRandom`` (a seeded ``rng`` in tests); the new
stock order is written into the ``Draw`` operation. A recorded draw (``apply``:
replay, restart) repeats that order and never shuffles: without it, a draw from an empty stock is illegal
(docs/RECORDS.md "Rulings").
"""

from __future__ import annotations

import random
import secrets
from collections import deque
from collections.abc import Callable, Sequence
from typing import TypeVar

from .cards import Card
from .family import (
    Controls,
    DealBase,
    Decision,
    IllegalAction,
    Observation,
    PublicEvent,
    Showdown,
    Standing,
    can,
    checked_by,
)
from .hands import Category, category_of, score
from .operations import (
    Draw,
    DrawDiscard,
    DrawKeep,
    Knock,
    Offer,
    OfferAnswer,
    Operation,
    Pass,
    TakeDiscard,
)
from .rules import Rules
from .seating import play_order, split

#: the categories each of the three-stake pots is won with
THREE_STAKE_POTS: tuple[tuple[Category, ...], ...] = (
    (Category.TRICON,),
    (Category.SEQUENCE, Category.FLUSH),
    (Category.PAIR, Category.NONE),
)


#: what ends a turn that drew: the drawn card kept or thrown away
_AfterDraw = TypeVar("_AfterDraw", DrawKeep, DrawDiscard)

class DiscardDeal(DealBase):
    """State of one deal of the discard family.

    Args:
        rules: a rule system with ``family == "discard"``.
        n_seats: number of seats.
        dealer: the dealer's seat (must have chips).
        deck: the shuffled deck, 52 distinct cards, top first.
        chips: chips per seat at the start of the deal (default ``rules.chips``
            each); seats without chips are out.
        carried_pots: the pots carried in (default empty pots).
        first: the game's first deal (each seat pays ``rules.stake``).
        final: the last of the ``fixed_rounds``.
        rng: a seeded random source for live reshuffles (tests); default the OS
            CSPRNG. A recorded draw never uses it.
        reshuffler: gives a live reshuffle's new stock (top first) from its
            number in the deal (from 1) and the cards reshuffled; used instead of
            ``rng`` (the game's fair shuffle, ``fairness.Shuffler.reshuffle``).

    Raises:
        ValueError: bad seat count, dealer, deck, chips or pots.
    """

    family = "discard"
    #: the direct trade offered and waiting for its target's answer, or ``None``
    pending: Offer | None = None
    #: the card the seat whose turn it is drew and must keep or throw away
    drawn: Card | None = None

    def __init__(self, rules: Rules, n_seats: int, dealer: int, deck: Sequence[Card], *,
                 chips: Sequence[int] | None = None, carried_pots: Sequence[int] | None = None,
                 first: bool = True, final: bool = False, rng: random.Random | None = None,
                 reshuffler: Callable[[int, Sequence[Card]], list[Card]] | None = None) -> None:
        """Deal to the seats with chips, take the stake (first deal) and, under
        three-stake, an ante into each pot; turn up the first discard, stack the stock
        (docs/RULES.md §2.7). Arguments and errors: see the class."""
        chips_in = tuple(chips) if chips is not None else (rules.chips,) * n_seats
        if len(chips_in) != n_seats or any(c < 0 for c in chips_in):
            raise ValueError("chips must give one stack per seat")
        super().__init__(rules, n_seats, dealer, deck, [s for s in range(n_seats) if chips_in[s] > 0])
        pots_in = tuple(carried_pots) if carried_pots is not None else (0,) * rules.n_pots
        if len(pots_in) != rules.n_pots:
            raise ValueError(f"{rules.name} plays with {rules.n_pots} pot(s)")
        self.chips_in = chips_in
        self.carried_pots = pots_in
        self.first = first
        self.final = final
        self.rng = rng
        self.reshuffler = reshuffler
        self.pot_values = list(pots_in)
        if first and rules.stake:
            for s in self.active:
                self._pay(s, rules.stake, "stake")
        if rules.three_stake:
            for s in self.active:
                for pot in range(rules.n_pots):
                    self._pay(s, rules.ante, "ante", pot)
        self.discard: list[Card] = [deck[self.dealt]]  # face up; the top is the last
        self.exposed.update(self.discard)
        self.stock: deque[Card] = deque(deck[self.dealt + 1 :])
        self.turn = self.turn_order()[0]
        self.drawn = None
        self.pending = None  # an offer waiting for its answer
        self.offer_on_turn = False
        self.knocker: int | None = None
        self.final_turns = 0
        self.passes = 0
        self.reshuffles = 0

    # ----------------------------------------------------------------- state
    @property
    def to_act(self) -> int | None:
        """The seat whose decision is awaited: the target of a pending offer, else the
        seat whose turn it is (also while it holds a drawn card); ``None`` once
        finished. Under open trading any seat may also ``offer``."""
        if self.finished:
            return None
        if self.pending is not None:
            return self.pending.target
        return self.turn

    @property
    def pots(self) -> tuple[int, ...]:
        """The pot (or the three pots) as they stand."""
        return tuple(self.pot_values)

    @property
    def pool(self) -> int:
        """All chips in the pots."""
        return sum(self.pot_values)

    def chips(self, seat: int) -> int:
        """``seat``'s chips now (start of the deal plus this deal's movements)."""
        return self.chips_in[seat] + self.delta[seat]

    def cards_in_play(self) -> list[Card]:
        """Every card: hands, a drawn card, stock, discard pile (52 when consistent)."""
        drawn = [] if self.drawn is None else [self.drawn]
        return [c for h in self.hands for c in h] + drawn + list(self.stock) + self.discard

    def conserved_total(self) -> int:
        """``sum(delta) + sum(pots) - sum(carried_pots)``: always 0 (chips only move
        between stacks and pots)."""
        return sum(self.delta) + self.pool - sum(self.carried_pots)

    def standing_after(self) -> Standing:
        """Chips and pots for the next deal (a void keeps what came in)."""
        if self.voided:
            return Standing(self.carried_pots, chips=self.chips_in)
        return Standing(self.pots, chips=tuple(self.chips(s) for s in range(self.n)))

    @property
    def game_over(self) -> bool:
        """This deal ended the game (one seat left with chips, or fixed rounds played)."""
        return bool(self.game_winners) and not self.voided

    def offer_targets(self, seat: int) -> list[int]:
        """Seats ``seat`` may offer a card to (in the deal, not itself, not the knocker)."""
        return [s for s in self.turn_order() if s not in (seat, self.knocker)]

    def legal_actions(self, seat: int) -> list[str]:
        """The actions ``seat`` may take now: ``take_discard``, ``draw``, ``pass``,
        ``knock``, ``offer`` on a turn; ``draw_keep``/``draw_discard`` after a draw;
        ``accept``/``refuse`` answering an offer; ``offer`` outside the turn under
        open trading; else ``[]``."""
        if self.finished or not 0 <= seat < self.n:
            return []
        if self.pending is not None:
            return ["accept", "refuse"] if seat == self.pending.target else []
        if self.drawn is not None:
            return ["draw_keep", "draw_discard"] if seat == self.turn else []
        out: list[str] = []
        if seat == self.turn:
            out = ["take_discard", "draw", "pass"]
            # ``can_knock`` here: its turn checks have just passed, what is left is
            # verify_knock's own (no knock yet, a chip to pay) and the seat in the deal
            if (self.knocker is None and self.chips(seat) >= self.rules.knock_fee
                    and seat in self.active):
                out.append("knock")
        if self.rules.direct_trading and self._may_offer(seat) and self.offer_targets(seat):
            out.append("offer")
        return out

    def controls(self, seat: int | None = None) -> Controls:
        """Take discard, Draw, Pass, Knock (until someone knocked: then the last
        round has no Knock) and, with direct trading, Offer a trade on the table
        (§2.7); while an offer waits: Accept and Decline. Nothing private. Empty
        once the deal is over."""
        if self.finished:
            return Controls()
        if self.pending is not None:
            return Controls(answers=("accept", "decline"))
        knock = ("knock",) if self.knocker is None else ()
        offer = ("offer",) if self.rules.direct_trading else ()
        return Controls(moves=("take_discard", "draw", "pass", *knock, *offer))

    def choices(self, seat: int, action: str) -> list[Decision]:
        """``take_discard``: each hand card to lay on the pile; ``draw_keep``: each
        hand card to lay there instead of the drawn card, then ``draw_discard``
        (throw the drawn card away); ``offer``: each hand card to each seat it may
        go to (seat by seat in turn order); ``accept``: each card to give back;
        any other action of ``legal_actions``: the one decision. ``[]`` when
        ``action`` is not ``seat``'s now."""
        if action not in self.legal_actions(seat):
            return []
        if action == "take_discard":
            return self._card_choices(seat, action, lambda c: self.can_take_discard(seat, c))
        if action == "draw_keep":
            keep = self._card_choices(seat, action, lambda c: self.can_draw_keep(seat, c))
            return keep + [Decision("draw_discard")]
        if action == "accept":
            return self._card_choices(seat, action, lambda c: self.can_answer(seat, c))
        if action == "offer":
            # each target checked once: the card only has to be held (``verify_offer``)
            hand = self.hands[seat]
            return [Decision("offer", card, target=target)
                    for target in self.offer_targets(seat)
                    if hand and self.can_offer(seat, target, hand[0]) for card in hand]
        return [Decision(action)]

    # ------------------------------------------------------------- checks
    def _verify_not_waiting(self, seat: int) -> None:
        if self.pending is not None:
            if seat == self.pending.target:
                raise IllegalAction("Answer the trade offered to you first.")
            raise IllegalAction("Wait: a trade offer is waiting for an answer.")
        if self.drawn is not None:
            if seat == self.turn:
                raise IllegalAction("Keep or discard the card you drew first.")
            raise IllegalAction("Wait: the player who drew is deciding.")

    def _verify_turn(self, seat: int) -> None:
        self._verify_open()
        self._verify_seat(seat)
        self._verify_not_waiting(seat)
        if seat != self.turn:
            raise IllegalAction("It is not your turn.")

    def _may_offer(self, seat: int) -> bool:
        return seat in self.active and seat != self.knocker and (
            seat == self.turn or self.rules.open_trading
        )

    def verify_take_discard(self, seat: int, card: Card) -> None:
        """Check that ``seat`` may lay ``card`` on the pile and take the top card.

        Raises:
            IllegalAction: not the seat's turn, card not held, something pending.
        """
        self._verify_turn(seat)
        self._verify_holds(seat, card)

    can_take_discard = can(verify_take_discard)

    def verify_draw(self, seat: int) -> None:
        """Check that ``seat`` may draw the stock top now.

        Raises:
            IllegalAction: not the seat's turn, something pending.
        """
        self._verify_turn(seat)
        if not self.stock and len(self.discard) < 2:
            raise IllegalAction("There is no card left to draw.")

    can_draw = can(verify_draw)

    def _verify_drawn(self, seat: int) -> None:
        self._verify_open()
        self._verify_seat(seat)
        if self.pending is not None:
            self._verify_not_waiting(seat)
        if seat != self.turn:
            raise IllegalAction("It is not your turn.")
        if self.drawn is None:
            raise IllegalAction("Draw a card first.")

    def verify_draw_keep(self, seat: int, card: Card) -> None:
        """Check that ``seat`` may keep the drawn card and lay ``card`` on the pile.

        Raises:
            IllegalAction: nothing drawn, not the seat's turn, card not held.
        """
        self._verify_drawn(seat)
        self._verify_holds(seat, card)

    can_draw_keep = can(verify_draw_keep)

    def verify_draw_discard(self, seat: int) -> None:
        """Check that ``seat`` may lay the drawn card on the pile.

        Raises:
            IllegalAction: nothing drawn, or not the seat's turn.
        """
        self._verify_drawn(seat)

    can_draw_discard = can(verify_draw_discard)

    def verify_pass(self, seat: int) -> None:
        """Check that ``seat`` may pass now.

        Raises:
            IllegalAction: not the seat's turn, something pending.
        """
        self._verify_turn(seat)

    can_pass = can(verify_pass)

    def verify_knock(self, seat: int) -> None:
        """Check that ``seat`` may knock now.

        Raises:
            IllegalAction: not the seat's turn, a knock already made, no chip to pay.
        """
        self._verify_turn(seat)
        if self.knocker is not None:
            raise IllegalAction("Someone has already knocked: only one knock counts.")
        if self.chips(seat) < self.rules.knock_fee:
            raise IllegalAction("You have no chip left to pay for a knock.")

    can_knock = can(verify_knock)

    def verify_offer(self, seat: int, target: int, card: Card) -> None:
        """Check that ``seat`` may offer ``card`` to ``target`` now.

        Raises:
            IllegalAction: no direct trading, not the seat's turn (without open
                trading), bad target, the knocker involved, card not held,
                something pending.
        """
        if not self.rules.direct_trading:
            raise IllegalAction("These rules have no direct trading.")
        self._verify_open()
        self._verify_seat(seat)
        self._verify_not_waiting(seat)
        if seat != self.turn and not self.rules.open_trading:
            raise IllegalAction("It is not your turn.")
        if seat == self.knocker:
            raise IllegalAction("You knocked: your hand is closed to trades.")
        if not isinstance(target, int) or target == seat or target not in self.active:
            raise IllegalAction("Offer your card to another player in this deal.")
        if target == self.knocker:
            raise IllegalAction("The knocker's hand is closed to trades.")
        self._verify_holds(seat, card)

    can_offer = can(verify_offer)

    def verify_answer(self, seat: int, card: Card | None) -> None:
        """Check that ``seat`` may answer the pending offer with ``card`` (``None``
        refuses).

        Raises:
            IllegalAction: no offer waiting for this seat, card not held.
        """
        self._verify_open()
        if self.pending is None or seat != self.pending.target:
            raise IllegalAction("No trade offer is waiting for your answer.")
        if card is not None:
            self._verify_holds(seat, card)

    can_answer = can(verify_answer)

    # ------------------------------------------------------------ actions
    @checked_by(verify_take_discard)
    def take_discard(self, seat: int, card: Card) -> TakeDiscard:
        """Lay ``card`` face up on the pile and take the old top card; the turn ends."""
        op = TakeDiscard(seat, card)
        top = self.discard.pop()
        hand = self.hands[seat]
        hand[hand.index(card)] = top
        self.discard.append(card)
        self._record(op, PublicEvent("take_discard", seat, shown=card, given=(card,), taken=(top,)))
        self._end_turn(passed=False)
        return op

    @checked_by(verify_draw)
    def draw(self, seat: int) -> Draw:
        """Draw the stock top; ``seat`` must then keep or discard it. When the stock
        is empty, the pile but its top is first shuffled into a new stock — live,
        by the deal's ``reshuffler`` (else the OS CSPRNG, ``secrets.SystemRandom``;
        a seeded ``rng`` in tests) — and the new order is written into the
        returned ``Draw`` (``reshuffle``)."""
        order: list[Card] | None = None
        if not self.stock:
            order = list(self.discard[:-1])
            if self.reshuffler is not None:
                order = list(self.reshuffler(self.reshuffles + 1, order))
            else:
                (self.rng or secrets.SystemRandom()).shuffle(order)
        return self._draw(seat, order)

    def verify_recorded_draw(self, seat: int, reshuffle: Sequence[Card] | None) -> None:
        """Check that a recorded draw (``Draw(seat, reshuffle)``: replay, restart)
        can be repeated exactly. It must carry the new stock order when the stock
        is empty, and only then: a replay never shuffles.

        Raises:
            IllegalAction: see ``verify_draw``; a ``reshuffle`` while the stock is
                not empty; none when it is empty; one that is not the discard pile
                but its top.
        """
        self.verify_draw(seat)
        if self.stock:
            if reshuffle is not None:
                raise IllegalAction("The stock is not empty: there is nothing to reshuffle.")
        elif reshuffle is None:
            raise IllegalAction(
                "The stock is empty, but the draw does not say how the discard pile "
                "was reshuffled (reshuffle)."
            )
        elif sorted(reshuffle) != sorted(self.discard[:-1]):
            raise IllegalAction("The reshuffled stock must hold the discard pile but its top.")

    can_recorded_draw = can(verify_recorded_draw)

    def _draw(self, seat: int, order: Sequence[Card] | None) -> Draw:
        self.verify_recorded_draw(seat, order)
        if order is None:
            op = Draw(seat)
        else:
            self.stock = deque(order)
            self.discard = self.discard[-1:]
            self.reshuffles += 1
            op = Draw(seat, tuple(order))
        self.drawn = self.stock.popleft()
        self.passes = 0
        self._record(op, PublicEvent("draw", seat, knocked=False))
        return op

    @checked_by(verify_draw_keep)
    def draw_keep(self, seat: int, card: Card) -> DrawKeep:
        """Keep the drawn card and lay ``card`` from the hand face up; the turn ends."""
        drawn = self.drawn
        assert drawn is not None
        hand = self.hands[seat]
        hand[hand.index(card)] = drawn
        return self._laid_on_pile(DrawKeep(seat, card), card)

    @checked_by(verify_draw_discard)
    def draw_discard(self, seat: int) -> DrawDiscard:
        """Lay the drawn card face up on the pile; the turn ends."""
        assert self.drawn is not None
        return self._laid_on_pile(DrawDiscard(seat), self.drawn)

    def _laid_on_pile(self, op: _AfterDraw, card: Card) -> _AfterDraw:
        """End a turn that drew: ``card`` (the drawn one, or the hand's card it
        replaced) goes face up on the pile."""
        self.drawn = None
        self.discard.append(card)
        self._record(op, PublicEvent(op.kind, op.seat, shown=card, given=(card,)))
        self._end_turn(passed=False)
        return op

    @checked_by(verify_pass)
    def pass_turn(self, seat: int) -> Pass:
        """Pass; a full circuit of passes (no knock yet) ends the deal at once."""
        op = Pass(seat)
        self._record(op, PublicEvent("pass", seat))
        self._end_turn(passed=True)
        return op

    @checked_by(verify_knock)
    def knock(self, seat: int) -> Knock:
        """Knock: pay ``knock_fee`` into the pot; every other seat has one more turn."""
        op = Knock(seat)
        self._pay(seat, self.rules.knock_fee, "knock")
        self.knocker = seat
        self.final_turns = len(self.active) - 1
        self.passes = 0
        self._record(op, PublicEvent("knock", seat, knocked=True))
        self._next_turn()
        return op

    @checked_by(verify_offer)
    def offer(self, seat: int, target: int, card: Card) -> Offer:
        """Offer ``card`` to ``target`` (direct trading); ``target`` sees the card and
        must ``answer``."""
        op = Offer(seat, target, card)
        self.pending = op
        self.offer_on_turn = seat == self.turn
        self._record(op, PublicEvent("offer", seat, target))
        return op

    @checked_by(verify_answer)
    def answer(self, seat: int, card: Card | None) -> OfferAnswer:
        """Answer the pending offer: give ``card`` back (the cards swap) or refuse
        (``None``). An offer made on the offerer's turn uses that turn either way."""
        offer = self.pending
        assert offer is not None
        op = OfferAnswer(seat, card)
        self.pending = None
        if card is None:
            self._record(op, PublicEvent("offer_refuse", offer.seat, seat))
        else:
            mine, theirs = self.hands[offer.seat], self.hands[seat]
            mine[mine.index(offer.card)] = card
            theirs[theirs.index(card)] = offer.card
            self._record(op, PublicEvent("offer_accept", offer.seat, seat))
        if self.offer_on_turn:
            self._end_turn(passed=False)
        elif card is not None:
            self.passes = 0
        return op

    def act(self, seat: int, decision: Decision) -> Operation:
        """Apply ``decision`` (an AI or UI choice) for ``seat``.

        Raises:
            IllegalAction: unknown kind, missing card or target, a knock joined
                to another action, or illegal.
        """
        kind = decision.kind
        if decision.knock:
            raise IllegalAction("These rules do not let you knock in the same turn.")
        if kind == "take_discard":
            return self.take_discard(seat, decision.need_card())
        if kind == "draw":
            return self.draw(seat)
        if kind == "draw_keep":
            return self.draw_keep(seat, decision.need_card())
        if kind == "draw_discard":
            return self.draw_discard(seat)
        if kind == "pass":
            return self.pass_turn(seat)
        if kind == "knock":
            return self.knock(seat)
        if kind == "offer":
            if decision.target is None:
                raise IllegalAction("Choose a player to offer your card to.")
            return self.offer(seat, decision.target, decision.need_card())
        if kind == "accept":
            return self.answer(seat, decision.need_card())
        if kind == "refuse":
            return self.answer(seat, None)
        raise IllegalAction("Unknown action.")

    def apply(self, op: Operation) -> Operation:
        """Apply a recorded operation (replay, restart); a ``Draw`` repeats its
        recorded reshuffle and never shuffles (``verify_recorded_draw``).

        Raises:
            IllegalAction: the operation is not legal here (or of another family),
                or a draw from an empty stock lacks its ``reshuffle``.
        """
        if isinstance(op, TakeDiscard):
            return self.take_discard(op.seat, op.card)
        if isinstance(op, Draw):
            return self._draw(op.seat, op.reshuffle)
        if isinstance(op, DrawKeep):
            return self.draw_keep(op.seat, op.card)
        if isinstance(op, DrawDiscard):
            return self.draw_discard(op.seat)
        if isinstance(op, Pass):
            return self.pass_turn(op.seat)
        if isinstance(op, Knock):
            return self.knock(op.seat)
        if isinstance(op, Offer):
            return self.offer(op.seat, op.target, op.card)
        if isinstance(op, OfferAnswer):
            return self.answer(op.seat, op.card)
        raise IllegalAction(f"A {op.kind} is not an action of this game.")

    def void(self) -> None:
        """End the deal without a showdown: the deal's stakes and knock fees are
        refunded; chips and pots are as they came in."""
        if self.finished:
            raise IllegalAction("This deal is already over.")
        self.voided = True
        self.turn = None
        self.pending = None
        self.delta = [0] * self.n
        self.movements = []
        self.pot_values = list(self.carried_pots)

    # ----------------------------------------------------------- internals
    def _pay(self, seat: int, amount: int, reason: str, pot: int = 0) -> int:
        """``seat`` pays ``amount`` into ``pot``, never more than its chips."""
        paid = min(amount, self.chips(seat))
        if paid > 0:
            self._move(seat, None, paid, reason, pot)
            self.pot_values[pot] += paid
        return paid

    def _take(self, seat: int, amount: int, reason: str, pot: int) -> None:
        self._move(None, seat, amount, reason, pot)
        self.pot_values[pot] -= amount

    def _sweep(self, takers: Sequence[int]) -> None:
        """The game is over: ``takers`` (earliest from the dealer's left first) take
        every pot together. Their total is shared equally, the odd chips going to
        the first taker; each share is paid out of the pots in order."""
        pot = 0
        for seat, share in split(self.pool, takers):
            while share:
                while not self.pot_values[pot]:
                    pot += 1
                amount = min(share, self.pot_values[pot])
                self._take(seat, amount, "sweep", pot)
                share -= amount

    def _next_turn(self) -> None:
        assert self.turn is not None
        self.turn = play_order(self.turn, self.n, self.rules.step, self.active)[0]

    def _end_turn(self, passed: bool) -> None:
        self.passes = self.passes + 1 if passed else 0
        if self.knocker is not None:
            self.final_turns -= 1
            if self.final_turns <= 0:
                self._end("knock")
                return
        elif self.passes >= len(self.active):
            self._end("pass")
            return
        self._next_turn()

    def _end(self, ended_by: str) -> None:
        self.turn = None
        rules = self.rules
        first = len(self.movements)
        order = self.turn_order()  # from the dealer's left, the dealer last
        held = {s: score(self.hands[s], rules.ranking) for s in order}
        scores = tuple(held.get(s) for s in range(self.n))
        best = [s for s in order if held[s] == max(held.values())]
        lowest = [s for s in order if held[s] == min(held.values())]
        losers: list[int] = []
        dead = rules.dead_knock and self.knocker is not None and self.knocker not in best
        if dead:
            assert self.knocker is not None
            self._pay(self.knocker, rules.dead_knock_fine, "dead_knock")
            losers.append(self.knocker)
        for s in lowest:
            if not (dead and s == self.knocker):
                self._pay(s, rules.lowest_pays, "lowest")
                losers.append(s)
        pot_winners: list[tuple[int, ...]] = []
        if rules.three_stake:
            for pot, cats in enumerate(THREE_STAKE_POTS):
                qualified = [s for s in order if category_of(held[s]) in cats]
                top = max((held[s] for s in qualified), default=None)
                winners = tuple(s for s in qualified if held[s] == top)
                pot_winners.append(winners)
                for s, share in split(self.pot_values[pot], winners):
                    self._take(s, share, "pot", pot)
        alive = [s for s in order if self.chips(s) > 0]
        if len(alive) <= 1 or self.final:
            if len(alive) == 1:
                takers = alive
            elif not alive:
                takers = order  # the last seats all dropped out together
            else:
                everyone = play_order(self.dealer, self.n, rules.step)
                most = max(self.chips(s) for s in everyone)
                takers = [s for s in everyone if self.chips(s) == most]
            self._sweep(takers)
            self.game_winners = tuple(takers)
        payments = tuple(self.movements[first:])
        winner = best[0]
        self.showdown = Showdown(
            hands=tuple(tuple(h) for h in self.hands),
            scores=scores,
            categories=tuple(None if sc is None else category_of(sc) for sc in scores),
            winner=winner,
            ended_by=ended_by,
            knocker=self.knocker,
            pool_won=sum(m.amount for m in payments if m.payee == winner and m.reason == "pot"),
            payments=payments,
            best=tuple(best),
            losers=tuple(losers),
            pot_winners=tuple(pot_winners),
            chips=tuple(self.chips(s) for s in range(self.n)),
            pots=self.pots,
            game_winners=self.game_winners,
        )

    # -------------------------------------------------------- observation
    def _observation(self, seat: int | None) -> Observation:
        """What ``seat`` may see (``None``: the public view, no hand at all): its
        hand, its drawn card, a card offered to it; for everyone the discard top,
        stock size, chips and pots.

        Raises:
            ValueError: ``seat`` is not a seat.
        """
        if seat is not None and not 0 <= seat < self.n:
            raise ValueError("not a seat")
        drawing = self.turn if self.drawn is not None else None
        offer = None if self.pending is None else (self.pending.seat, self.pending.target)
        offered = self.pending.card if self.pending is not None and seat == self.pending.target else None
        if self.finished:
            phase = "over"
        else:
            phase = "final" if self.knocker is not None else "play"
        return self._observe(
            seat,
            None if seat is None else tuple(self.hands[seat]),
            stock_count=len(self.stock),
            waste_count=0,
            shown_waste=(),
            barter=None,
            family="discard",
            phase=phase,
            discard_top=self.discard[-1] if self.discard else None,
            discard_count=len(self.discard),
            drawing=drawing,
            drawn=self.drawn if seat is not None and seat == drawing else None,
            offer=offer,
            offered_card=offered,
            knocker=self.knocker,
            final_turns=self.final_turns,
            passes=self.passes,
            chips=tuple(self.chips(s) for s in range(self.n)),
            pots=self.pots,
            reshuffles=self.reshuffles,
        )
