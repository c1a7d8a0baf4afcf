"""One deal of the widow-exchange family (docs/RULES.md §2.5 widow, §2.6 oldway).

Three cards lie face up in the middle (the *widow*). The dealer may first take
the whole widow for the hand (``take_widow`` / ``keep_hand``; under oldway before
looking at the hand, and then keeps it). From the eldest hand on, each turn is
an exchange with the widow (``swap``: exactly one card under ``widow``; one to
three, the same number each way, under ``oldway``) or a stop: ``knock`` (widow:
two knocks end play) or ``stand`` (oldway: the deal ends when all have stood).
A seat that stopped takes no more turns. With the oldway ``pounce`` option a
seat holding a tricon may take the fourth card of that rank from the middle at
any moment of play (``pounce``), holds four of a kind and stands.

Showdown: the best hand takes the pool (widow) or ``best_takes`` from it
(oldway); under oldway the worst hand loses a life — a tie goes against the
seat furthest from the dealer's left in turn order. The first seat to lose its
last life may then ``buy_horse`` (one more life, ``horse_price`` into the pool)
or ``decline_horse``; the deal ends after that decision. When only one seat has
lives left, it takes the rest of the pool (the sweep) and the game is over.

Cards: hands (dealt as in docs/RULES.md §1 to the seats in play), then the next three
cards of the deck form the widow; the rest is an unused concealed stock. A
pounce moves a card from the widow to a hand, so ``cards_in_play()`` (hands +
widow + stock) always holds the 52 cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import TypeVar

from .cards import Card, rank
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
    BuyHorse,
    DeclineHorse,
    KeepHand,
    Knock,
    Operation,
    Pounce,
    Stand,
    Swap,
    TakeWidow,
)
from .rules import Rules
from .seating import best_seat, play_order, worst_seat

#: the operations that stop a seat: a knock (widow) or a stand (oldway)
_Stop = TypeVar("_Stop", Knock, Stand)


class WidowDeal(DealBase):
    """State of one deal of the widow family.

    Args:
        rules: a rule system with ``family == "widow"``.
        n_seats: number of seats.
        dealer: the dealer's seat (must have lives, oldway).
        deck: the shuffled deck, 52 distinct cards, top first.
        carried_pool: the pool carried in (oldway: the game's pool).
        lives: lives per seat at the start of the deal (oldway; default
            ``rules.lives`` each). Seats without lives sit out.
        horse_available: nobody has been offered the horse yet (default
            ``rules.horse``).
        first: the game's first deal (each seat pays ``rules.stake``).
        final: the game's last deal by count (the ``deals`` game end).

    Raises:
        ValueError: bad seat count, dealer, deck or lives.
    """

    family = "widow"
    #: no offer ever waits for an answer in this family
    pending: None = None
    #: nothing is ever drawn to be kept or thrown away in this family
    drawn: None = None

    def __init__(self, rules: Rules, n_seats: int, dealer: int, deck: Sequence[Card], *,
                 carried_pool: int = 0, lives: Sequence[int] | None = None,
                 horse_available: bool | None = None, first: bool = True, final: bool = True) -> None:
        """Deal to the seats in play (with lives, in oldway), take the stake (first
        deal) and the antes into the pool, and lay the next three cards face up as
        the widow (docs/RULES.md §2.5, §2.6). Arguments and errors: see the class."""
        lives_in: tuple[int, ...] | None = None
        if rules.lives:
            lives_in = tuple(lives) if lives is not None else (rules.lives,) * n_seats
            if len(lives_in) != n_seats:
                raise ValueError("lives must give one number per seat")
        active = None if lives_in is None else [s for s in range(n_seats) if lives_in[s] > 0]
        super().__init__(rules, n_seats, dealer, deck, active)
        self.first = first
        self.final = final
        self.lives_in = lives_in
        self.lives: list[int] | None = None if lives_in is None else list(lives_in)
        self.horse_available_in = bool(rules.lives and rules.horse) if horse_available is None \
            else horse_available
        self.horse_available = self.horse_available_in
        self.horse_buyer: int | None = None
        self.widow: list[Card] = list(deck[self.dealt : self.dealt + 3])
        self.exposed.update(self.widow)
        self.stock: list[Card] = list(deck[self.dealt + 3 :])  # not used in play
        self.carried_pool = carried_pool
        self.pool = carried_pool
        if first and rules.stake:
            for s in self.active:
                self._move(s, None, rules.stake, "stake")
                self.pool += rules.stake
        if rules.ante:
            for s in self.active:
                self._move(s, None, rules.ante, "ante")
                self.pool += rules.ante
        self.stood: list[int] = []
        self.took_widow = False
        self.loser: int | None = None
        self.ended_by: str | None = None
        self.knocker: int | None = None
        self.winner: int | None = None
        self.pool_won = 0
        self.scores: tuple[int | None, ...] = ()
        self._first_payment = len(self.movements)
        self.phase = "choice" if rules.dealer_widow else "play"
        self.turn = None
        if self.phase == "play":
            self.turn = self.turn_order()[0]

    # ----------------------------------------------------------------- state
    @property
    def finished(self) -> bool:
        """The deal is over (showdown and any horse decision done, or voided)."""
        return self.voided or self.phase == "over"

    @property
    def to_act(self) -> int | None:
        """The seat whose decision is awaited: the dealer choosing about the widow,
        the seat whose turn it is, or the seat offered the horse; ``None`` once
        finished. Under the pounce option another seat may also ``pounce``."""
        if self.finished:
            return None
        if self.phase == "choice":
            return self.dealer
        if self.phase == "horse":
            return self.loser
        return self.turn

    @property
    def pots(self) -> tuple[int, ...]:
        """The pool as a one-pot tuple."""
        return (self.pool,)

    @property
    def stop_action(self) -> str:
        """``knock`` (widow) or ``stand`` (oldway): the action that stops a seat."""
        return "knock" if self.rules.widow_end == "two_knocks" else "stand"

    def cards_in_play(self) -> list[Card]:
        """Every card: hands, widow, unused stock (52 when consistent)."""
        return [c for h in self.hands for c in h] + self.widow + self.stock

    def conserved_total(self) -> int:
        """``sum(delta) + pool - carried_pool``: always 0 (stakes, antes and the horse
        go into the pool; the best hand and the sweep take from it)."""
        return sum(self.delta) + self.pool - self.carried_pool

    def standing_after(self) -> Standing:
        """Pool, lives and horse for the next deal (a void keeps what came in)."""
        if self.voided:
            return Standing((self.carried_pool,), self.lives_in, self.horse_available_in)
        lives = None if self.lives is None else tuple(self.lives)
        return Standing((self.pool,), lives, self.horse_available)

    @property
    def alive(self) -> list[int]:
        """Seats with lives left (all seats when the rules have no lives)."""
        if self.lives is None:
            return list(range(self.n))
        return [s for s in range(self.n) if self.lives[s] > 0]

    @property
    def game_over(self) -> bool:
        """This deal ended the game: one seat is left with lives (oldway), or it was
        the final deal by count."""
        if self.voided or self.phase != "over":
            return False
        if self.lives is not None:
            return len(self.alive) <= 1
        return self.final

    def pounce_card(self, seat: int) -> Card | None:
        """The card ``seat`` could pounce on now (its tricon's fourth card lying in
        the widow), ignoring whose turn it is; else ``None``."""
        hand = self.hands[seat]
        if len(hand) != 3 or len({rank(c) for c in hand}) != 1:
            return None
        r = rank(hand[0])
        return next((c for c in self.widow if rank(c) == r), None)

    def legal_actions(self, seat: int) -> list[str]:
        """The actions ``seat`` may take now: ``take_widow``/``keep_hand`` (dealer's
        choice), ``swap`` and ``knock`` or ``stand`` (turn), ``pounce`` (any time
        in play, pounce option), ``buy_horse``/``decline_horse``; else ``[]``."""
        if self.finished or not 0 <= seat < self.n:
            return []
        if self.phase == "choice":
            return ["take_widow", "keep_hand"] if seat == self.dealer else []
        if self.phase == "horse":
            return ["buy_horse", "decline_horse"] if seat == self.loser else []
        out = ["swap", self.stop_action] if seat == self.turn else []
        if self.can_pounce(seat):
            out.append("pounce")
        return out

    def controls(self, seat: int | None = None) -> Controls:
        """The dealer's choice (Take the widow / Keep my hand), then Swap and Knock
        (§2.5) or Stand (§2.6), then the horse (Buy a horse / No horse, §2.6) on
        the table; Pounce only for ``seat`` when it can pounce now (§2.6, the
        pounce option). Empty once the deal is over."""
        if self.finished:
            return Controls()
        private = ("pounce",) if seat is not None and self.can_pounce(seat) else ()
        if self.phase == "choice":
            return Controls(moves=("take_widow", "keep_hand"), private=private)
        if self.phase == "horse":
            return Controls(moves=("buy_horse", "decline_horse"), private=private)
        return Controls(moves=("swap", self.stop_action), private=private)

    def choices(self, seat: int, action: str) -> list[Decision]:
        """``swap``: every legal exchange with the widow, one card each way first,
        then two, then three (§2.6: up to ``swap_max``); any other action of
        ``legal_actions``: the one decision. ``[]``
        when ``action`` is not ``seat``'s now."""
        if action not in self.legal_actions(seat):
            return []
        if action == "swap":
            # ``swap`` is legal, so ``seat`` is the seat whose turn it is; checked once,
            # and then every k distinct cards of the hand against every k of the widow
            # (1 <= k <= swap_max) pass ``can_swap`` by construction
            if not self._can_turn(seat):
                return []
            hand = self.hands[seat]
            return [Decision("swap", give=give, take=take)
                    for k in range(1, self.rules.swap_max + 1)
                    for give in combinations(hand, k)
                    for take in combinations(self.widow, k)]
        return [Decision(action)]

    # ------------------------------------------------------------- checks
    def _verify_phase(self, seat: int, phase: str) -> None:
        self._verify_open()
        self._verify_seat(seat)
        if self.phase == phase:
            return
        if self.phase == "choice":
            raise IllegalAction("The dealer decides about the widow first.")
        if self.phase == "horse":
            raise IllegalAction("Wait: the loser of the last life decides about the horse.")
        if phase == "choice":
            raise IllegalAction("The widow can only be taken by the dealer before play starts.")
        raise IllegalAction("There is no horse to buy now.")

    def _verify_chooser(self, seat: int, phase: str, chooser: int | None, other: str) -> None:
        """``seat`` decides in ``phase`` (the widow's or the horse's): it is
        ``chooser``'s decision; ``other`` is what another seat is told."""
        self._verify_phase(seat, phase)
        if seat != chooser:
            raise IllegalAction(other)

    def _verify_turn(self, seat: int) -> None:
        self._verify_phase(seat, "play")
        if seat in self.stood:
            raise IllegalAction("You have stopped: no more changes this deal.")
        if seat != self.turn:
            raise IllegalAction("It is not your turn.")

    _can_turn = can(_verify_turn)

    def verify_take_widow(self, seat: int) -> None:
        """Check that ``seat`` may take the whole widow now (the dealer, first).

        Raises:
            IllegalAction: not the dealer's choice, or not the dealer.
        """
        self._verify_chooser(seat, "choice", self.dealer, "Only the dealer may take the widow.")

    can_take_widow = can(verify_take_widow)

    #: keeping the hand is the other answer to the same choice (the dealer, first)
    verify_keep_hand, can_keep_hand = verify_take_widow, can_take_widow

    def verify_swap(self, seat: int, give: Sequence[Card], take: Sequence[Card]) -> None:
        """Check that ``seat`` may put ``give`` into the widow and take ``take``.

        Raises:
            IllegalAction: not the seat's turn, the seat has stopped, a card not
                held or not in the widow, unequal or too many cards.
        """
        self._verify_turn(seat)
        if len(give) != len(take):
            raise IllegalAction("Give as many cards as you take.")
        if self.rules.swap_max == 1 and len(give) != 1:
            raise IllegalAction("Exchange exactly one card with the widow.")
        if not 1 <= len(give) <= self.rules.swap_max:
            raise IllegalAction(f"Exchange 1 to {self.rules.swap_max} cards.")
        if len(set(give)) != len(give) or len(set(take)) != len(take):
            raise IllegalAction("Name each card once.")
        for card in give:
            self._verify_holds(seat, card)
        if any(card not in self.widow for card in take):
            raise IllegalAction("That card is not in the widow.")

    can_swap = can(verify_swap)

    def _verify_stop(self, seat: int, action: str) -> None:
        self._verify_turn(seat)
        if action != self.stop_action:
            raise IllegalAction("Under these rules you stand instead of knocking." if action == "knock"
                                else "Under these rules you knock instead of standing.")

    def verify_knock(self, seat: int) -> None:
        """Check that ``seat`` may knock now (widow: no more turns for this seat).

        Raises:
            IllegalAction: not the seat's turn, or these rules stand instead.
        """
        self._verify_stop(seat, "knock")

    can_knock = can(verify_knock)

    def verify_stand(self, seat: int) -> None:
        """Check that ``seat`` may stand now (oldway: no more changes).

        Raises:
            IllegalAction: not the seat's turn, or these rules knock instead.
        """
        self._verify_stop(seat, "stand")

    can_stand = can(verify_stand)

    def verify_pounce(self, seat: int) -> None:
        """Check that ``seat`` may pounce now (any moment of play, not only its turn).

        Raises:
            IllegalAction: no pounce option, not in play, the seat stopped, no
                tricon, or the fourth card is not in the middle.
        """
        if not self.rules.pounce:
            raise IllegalAction("These rules have no pounce.")
        self._verify_open()
        self._verify_seat(seat)
        if self.phase != "play":
            raise IllegalAction("You can pounce only while play is on.")
        if seat in self.stood:
            raise IllegalAction("You have stopped: no more changes this deal.")
        if self.pounce_card(seat) is None:
            raise IllegalAction("Pounce needs a tricon and its fourth card in the middle.")

    can_pounce = can(verify_pounce)

    def verify_buy_horse(self, seat: int) -> None:
        """Check that ``seat`` may buy the horse now.

        Raises:
            IllegalAction: no horse offered, or offered to another seat.
        """
        self._verify_chooser(seat, "horse", self.loser, "The horse is offered to another player.")

    can_buy_horse = can(verify_buy_horse)

    #: declining the horse is the other answer to the same offer
    verify_decline_horse, can_decline_horse = verify_buy_horse, can_buy_horse

    # ------------------------------------------------------------ actions
    @checked_by(verify_take_widow)
    def take_widow(self, seat: int) -> TakeWidow:
        """The dealer takes the widow; the old hand lies face up as the new widow.
        Under ``widow_taker_stands`` the dealer then stands."""
        op = TakeWidow(seat)
        old = self.hands[seat]
        self.hands[seat] = self.widow
        self.widow = old
        self.took_widow = True
        self._record(op, PublicEvent("take_widow", seat, given=tuple(old),
                                     taken=tuple(self.hands[seat])))
        if self.rules.widow_taker_stands:
            self.stood.append(seat)
        self._start_play()
        return op

    @checked_by(verify_keep_hand)
    def keep_hand(self, seat: int) -> KeepHand:
        """The dealer keeps the dealt hand; play starts with the eldest hand."""
        op = KeepHand(seat)
        self._record(op, PublicEvent("keep_hand", seat))
        self._start_play()
        return op

    @checked_by(verify_swap)
    def swap(self, seat: int, give: Sequence[Card], take: Sequence[Card]) -> Swap:
        """Exchange ``give`` for ``take`` with the widow (each given card takes the
        place of a taken one); the turn passes."""
        op = Swap(seat, tuple(give), tuple(take))
        hand = self.hands[seat]
        for g, t in zip(give, take, strict=True):
            hand[hand.index(g)] = t
            self.widow[self.widow.index(t)] = g
        self._record(op, PublicEvent("swap", seat, given=op.give, taken=op.take))
        self._advance()
        return op

    @checked_by(verify_knock)
    def knock(self, seat: int) -> Knock:
        """Knock (widow): the seat takes no more turns; the second knock ends play."""
        return self._stopped(Knock(seat))

    @checked_by(verify_stand)
    def stand(self, seat: int) -> Stand:
        """Stand (oldway): no more changes; the deal ends when all have stood."""
        return self._stopped(Stand(seat))

    def _stopped(self, op: _Stop) -> _Stop:
        """Record ``op`` (a knock or a stand) and stop its seat."""
        self._record(op, PublicEvent(op.kind, op.seat))
        self._stop(op.seat)
        return op

    @checked_by(verify_pounce)
    def pounce(self, seat: int) -> Pounce:
        """Take the fourth card of the seat's tricon from the middle: the seat holds
        four of a kind (above every 3-card hand) and stands. Play goes on."""
        card = self.pounce_card(seat)
        assert card is not None
        op = Pounce(seat, card)
        self.widow.remove(card)
        self.hands[seat].append(card)
        self._record(op, PublicEvent("pounce", seat, shown=card, taken=(card,)))
        self.stood.append(seat)
        if seat == self.turn:
            self._advance()
        elif self._play_over():
            self._end()
        return op

    @checked_by(verify_buy_horse)
    def buy_horse(self, seat: int) -> BuyHorse:
        """Buy one more life for ``horse_price`` paid into the pool; the deal ends."""
        op = BuyHorse(seat)
        assert self.lives is not None
        self.lives[seat] += 1
        self.horse_buyer = seat
        self.horse_available = False
        self._move(seat, None, self.rules.horse_price, "horse")
        self.pool += self.rules.horse_price
        self._record(op, PublicEvent("buy_horse", seat))
        self._finish()
        return op

    @checked_by(verify_decline_horse)
    def decline_horse(self, seat: int) -> DeclineHorse:
        """Decline the horse: the seat sits out from now on; the deal ends."""
        op = DeclineHorse(seat)
        self.horse_available = False
        self._record(op, PublicEvent("decline_horse", seat))
        self._finish()
        return op

    def act(self, seat: int, decision: Decision) -> Operation:
        """Apply ``decision`` (an AI or UI choice, see ``legal_actions``) for ``seat``.

        Raises:
            IllegalAction: unknown kind, missing cards, a knock joined to another
                action, or illegal.
        """
        kind = decision.kind
        if decision.knock:
            raise IllegalAction("These rules do not let you knock in the same turn.")
        if kind == "take_widow":
            return self.take_widow(seat)
        if kind == "keep_hand":
            return self.keep_hand(seat)
        if kind == "swap":
            if not decision.give:
                raise IllegalAction("Choose the cards to exchange first.")
            return self.swap(seat, decision.give, decision.take)
        if kind == "knock":
            return self.knock(seat)
        if kind == "stand":
            return self.stand(seat)
        if kind == "pounce":
            return self.pounce(seat)
        if kind == "buy_horse":
            return self.buy_horse(seat)
        if kind == "decline_horse":
            return self.decline_horse(seat)
        raise IllegalAction("Unknown action.")

    def apply(self, op: Operation) -> Operation:
        """Apply a recorded operation (replay, restart).

        Raises:
            IllegalAction: the operation is not legal here (or of another family).
        """
        if isinstance(op, TakeWidow):
            return self.take_widow(op.seat)
        if isinstance(op, KeepHand):
            return self.keep_hand(op.seat)
        if isinstance(op, Swap):
            return self.swap(op.seat, op.give, op.take)
        if isinstance(op, Knock):
            return self.knock(op.seat)
        if isinstance(op, Stand):
            return self.stand(op.seat)
        if isinstance(op, Pounce):
            self.verify_pounce(op.seat)
            if self.pounce_card(op.seat) != op.card:
                raise IllegalAction("That is not the card you can pounce on.")
            return self.pounce(op.seat)
        if isinstance(op, BuyHorse):
            return self.buy_horse(op.seat)
        if isinstance(op, DeclineHorse):
            return self.decline_horse(op.seat)
        raise IllegalAction(f"A {op.kind} is not an action of this game.")

    def void(self) -> None:
        """End the deal without a showdown: the deal's stakes, antes and horse are
        refunded, lives and the carried pool are as they came in."""
        if self.finished:
            raise IllegalAction("This deal is already over.")
        self.voided = True
        self.turn = None
        self.delta = [0] * self.n
        self.movements = []
        self.pool = self.carried_pool
        self.lives = None if self.lives_in is None else list(self.lives_in)
        self.horse_available = self.horse_available_in
        self.horse_buyer = None
        self.showdown = None

    # ----------------------------------------------------------- internals
    def _start_play(self) -> None:
        self.phase = "play"
        self.turn = None
        self._advance(self.dealer)

    def _play_over(self) -> bool:
        waiting = [s for s in self.active if s not in self.stood]
        if self.rules.widow_end == "two_knocks":
            return len(self.stood) >= 2 or not waiting
        return not waiting

    def _stop(self, seat: int) -> None:
        self.stood.append(seat)
        self._advance()

    def _advance(self, after: int | None = None) -> None:
        """Pass the turn on from ``after`` (default: the current turn), or end play."""
        start = self.turn if after is None else after
        assert start is not None
        if self._play_over():
            self._end()
            return
        waiting = [s for s in self.active if s not in self.stood]
        self.turn = play_order(start, self.n, self.rules.step, waiting)[0]

    def _end(self) -> None:
        self.turn = None
        if self.stop_action == "knock":
            self.ended_by, self.knocker = "knock", self.stood[-1]
        else:
            self.ended_by = "stand"
        ranking = self.rules.ranking
        scores: list[int | None] = [
            score(self.hands[s], ranking) if s in self.active else None for s in range(self.n)
        ]
        self.scores = tuple(scores)
        winner = best_seat(scores, self.dealer, self.rules.step)
        self.winner = winner
        take = self.pool if self.rules.best_takes is None else min(self.rules.best_takes, self.pool)
        if take:
            self._move(None, winner, take, "pool")
            self.pool -= take
        self.pool_won = take
        if self.lives is not None:
            loser = worst_seat(scores, self.dealer, self.rules.step)
            self.loser = loser
            self.lives[loser] -= 1
            if self.lives[loser] == 0 and self.horse_available:
                self.phase = "horse"
                self.showdown = self._showdown()
                return
        self._finish()

    def _finish(self) -> None:
        self.phase = "over"
        alive = self.alive
        if self.lives is not None and len(alive) == 1 and self.pool:
            self._move(None, alive[0], self.pool, "sweep")
            self.pool = 0
        if self.lives is not None and len(alive) <= 1:
            self.game_winners = tuple(alive)
        self.showdown = self._showdown()

    def _showdown(self) -> Showdown:
        scores = self.scores
        top = max(sc for sc in scores if sc is not None)
        cats: tuple[Category | None, ...] = tuple(
            None if sc is None else category_of(sc) for sc in scores
        )
        return Showdown(
            hands=tuple(tuple(h) for h in self.hands),
            scores=scores,
            categories=cats,
            winner=self.winner,
            ended_by=self.ended_by,
            knocker=self.knocker,
            pool_won=self.pool_won,
            payments=tuple(self.movements[self._first_payment :]),
            best=tuple(s for s in self.active if scores[s] == top),
            losers=() if self.loser is None else (self.loser,),
            lives=None if self.lives is None else tuple(self.lives),
            pots=(self.pool,),
            horse=self.horse_buyer,
            game_winners=self.game_winners,
        )

    # -------------------------------------------------------- observation
    def _observation(self, seat: int | None) -> Observation:
        """What ``seat`` may see (``None``: the public view, no hand at all). The
        oldway dealer choosing blind sees no hand (``blind``).

        Raises:
            ValueError: ``seat`` is not a seat.
        """
        if seat is not None and not 0 <= seat < self.n:
            raise ValueError("not a seat")
        blind = (
            seat == self.dealer and self.phase == "choice" and self.rules.blind_widow_choice
            and not self.finished
        )
        hand = None if seat is None or blind else tuple(self.hands[seat])
        return self._observe(
            seat,
            hand,
            stock_count=len(self.stock),
            waste_count=0,
            shown_waste=(),
            barter=None,
            family="widow",
            phase="over" if self.finished else self.phase,
            widow=tuple(self.widow),
            blind=blind,
            stood=tuple(self.stood),
            lives=None if self.lives is None else tuple(self.lives),
            horse_available=self.horse_available,
            pots=(self.pool,),
        )
