"""What every family of deal shares (docs/RULES.md §1, §2): the error type,
money movements, public events, the showdown, the observation, the game
standing carried between deals, the controls of the moment, and ``DealBase`` —
the one abstract deal interface, with the cards dealt in turn order, the
ledger of movements and the bookkeeping of operations.

Each family keeps only its own rules: ``trade.TradeDeal`` (trade and barter),
``widow.WidowDeal`` (widow exchange) and ``discard.DiscardDeal`` (stock and
discard pile). All three implement ``DealBase`` (pokerkit manner: abstract
methods and properties), so code outside the engine never asks which family it
holds: ``to_act``, ``turn``, ``finished``, ``voided``, ``void()``,
``operations``, ``events``, ``pending``, ``drawn``, ``apply(op)``,
``act(seat, decision)``, ``legal_actions(seat)``, ``controls(seat)``,
``choices(seat, action)``, ``neighbour(seat)``, ``observation(seat | None)``, ``showdown``,
``delta``, ``movements``, ``cards_in_play()``, ``hands``, ``dealer``, ``pots``,
``standing_after()``, ``game_over``, ``conserved_total()``.
"""

from __future__ import annotations

import copy
import dataclasses
from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from functools import cache, update_wrapper
from typing import TYPE_CHECKING, ClassVar, Concatenate, ParamSpec, Self, TypeVar

from .cards import DECK, Card
from .hands import Category
from .rules import Family, Rules
from .seating import turn_order

if TYPE_CHECKING:
    from .operations import BarterOffer, Offer, Operation


#: the cards of a whole deck, to check a deck against
_DECK_SET = frozenset(DECK)


class IllegalAction(ValueError):
    """An action the rules or the moment do not allow; ``str()`` is for the player."""


_Args = ParamSpec("_Args")
_Deal = TypeVar("_Deal")


def can(verify: Callable[Concatenate[_Deal, _Args], None],
        ) -> Callable[Concatenate[_Deal, _Args], bool]:
    """The ``can_`` twin of a ``verify_`` method, for the class body
    (``can_knock = can(verify_knock)``): the same arguments, ``True`` when
    ``verify`` would pass, ``False`` when it raises ``IllegalAction``."""

    def check(deal: _Deal, /, *args: _Args.args, **kwargs: _Args.kwargs) -> bool:
        try:
            verify(deal, *args, **kwargs)
        except IllegalAction:
            return False
        return True

    check.__name__ = check.__qualname__ = verify.__name__.replace("verify", "can", 1)
    check.__doc__ = f"``True`` when ``{verify.__name__}`` would pass."
    return check


_Done = TypeVar("_Done")


def checked_by(verify: Callable[Concatenate[_Deal, _Args], None],
               ) -> Callable[[Callable[Concatenate[_Deal, _Args], _Done]],
                             Callable[Concatenate[_Deal, _Args], _Done]]:
    """Decorate the action of a ``verify_`` method (``@checked_by(verify_knock)``
    above ``def knock``): the action runs only once ``verify`` passed with the
    same arguments, so it raises what ``verify`` raises (``IllegalAction``) and
    changes nothing then; its docstring says so."""

    def decorate(action: Callable[Concatenate[_Deal, _Args], _Done],
                 ) -> Callable[Concatenate[_Deal, _Args], _Done]:
        def checked(deal: _Deal, /, *args: _Args.args, **kwargs: _Args.kwargs) -> _Done:
            verify(deal, *args, **kwargs)
            return action(deal, *args, **kwargs)

        update_wrapper(checked, action)
        checked.__doc__ = (f"{action.__doc__}\n\n        Raises:\n            IllegalAction: "
                           f"see ``{verify.__name__}``.\n        ")
        return checked

    return decorate


@dataclass(frozen=True)
class Movement:
    """Points or chips moved: ``payer`` to ``payee`` (``None`` is the pool, or pot
    number ``pot`` when there are three). ``reason`` is one of ``ante``, ``stake``,
    ``fee``, ``pool``, ``penalty`` (trade family), ``horse``, ``sweep`` (oldway; jaques:
    the pots taken at the game's end), ``knock``, ``lowest``, ``dead_knock``, ``pot``
    (jaques). Frozen: the deals share equal movements (``movement``)."""

    payer: int | None
    payee: int | None
    amount: int
    reason: str
    pot: int = 0


#: how many values ``_shared`` keeps per kind before it starts again (a few hundred
#: distinct ones in practice, so the tables stay small)
_SHARED_MAX = 4096
_Key = TypeVar("_Key", bound=tuple[object, ...])
_Value = TypeVar("_Value")


def _shared(made: dict[_Key, _Value], key: _Key, make: Callable[..., _Value]) -> _Value:
    """``made[key]``, first built as ``make(*key)``: equal frozen values are built
    once, not on every deal (``made`` is emptied when it grows past ``_SHARED_MAX``)."""
    value = made.get(key)
    if value is None:
        if len(made) >= _SHARED_MAX:
            made.clear()
        value = made[key] = make(*key)
    return value


#: movements made so far, shared by value
_MOVEMENTS: dict[tuple[int | None, int | None, int, str, int], Movement] = {}


def movement(payer: int | None, payee: int | None, amount: int, reason: str, pot: int = 0,
             ) -> Movement:
    """``Movement(payer, payee, amount, reason, pot)``, the same object for equal
    values (``_shared``)."""
    key = (payer, payee, amount, reason, pot)
    return _MOVEMENTS.get(key) or _shared(_MOVEMENTS, key, Movement)


@dataclass(frozen=True)
class PublicEvent:
    """What the table saw of an operation: never a concealed card.

    ``kind`` is the operation kind, or for answers ``barter_accept`` /
    ``barter_refuse`` / ``offer_accept`` / ``offer_refuse``. ``shown`` is a card the
    rules put face up (a ``parlett`` trade, a pounce, a discard). ``given`` and
    ``taken`` are the face-up cards a seat put into and took from the widow or
    the discard pile.
    """

    kind: str
    seat: int
    target: int | None = None
    knocked: bool = False
    shown: Card | None = None
    given: tuple[Card, ...] = ()
    taken: tuple[Card, ...] = ()


#: events without given or taken cards, shared by value like ``_MOVEMENTS``
_EVENTS: dict[tuple[str, int, int | None, bool, Card | None], PublicEvent] = {}


def public_event(kind: str, seat: int, target: int | None = None, knocked: bool = False,
                 shown: Card | None = None) -> PublicEvent:
    """``PublicEvent(kind, seat, target, knocked, shown)`` with no ``given`` or
    ``taken`` cards, the same object for equal values (``_shared``)."""
    key = (kind, seat, target, knocked, shown)
    return _EVENTS.get(key) or _shared(_EVENTS, key, PublicEvent)


@dataclass(frozen=True)
class Showdown:
    """The end of a deal: every hand shown, the winner and the payments.

    Seats not in the deal (sitting out, eliminated) have an empty hand and
    ``None`` as score and category.

    Attributes:
        winner: the seat that won the pool (trade, widow), the best hand (oldway:
            it takes ``best_takes``; jaques: earliest best seat from the dealer's
            left, for information). ``None`` when the pool carries over (hoyle).
        ended_by: ``knock`` | ``stock`` (trade) | ``stand`` (oldway, all stood) |
            ``pass`` (jaques, a full circuit of passes) | ``None``.
        knocker: the seat whose knock ended play (widow: the second knock).
        pool_won: what the winner took from the pool.
        payments: the movements from the showdown on.
        best: every seat holding the best hand.
        losers: oldway: the seat losing a life; jaques: the seats that paid for
            the lowest hand or a dead knock.
        pot_winners: jaques three-stake: per pot, the seats sharing it.
        lives, chips, pots: the standing after the deal (where the preset has them).
        horse: the seat that bought the horse in this deal.
        game_winners: the seats that took the final sweep (oldway) or the pot
            (jaques) when this deal ended the game.
    """

    hands: tuple[tuple[Card, ...], ...]
    scores: tuple[int | None, ...]
    categories: tuple[Category | None, ...]
    winner: int | None
    ended_by: str | None
    knocker: int | None
    pool_won: int
    payments: tuple[Movement, ...]
    best: tuple[int, ...] = ()
    losers: tuple[int, ...] = ()
    pot_winners: tuple[tuple[int, ...], ...] = ()
    lives: tuple[int, ...] | None = None
    chips: tuple[int, ...] | None = None
    pots: tuple[int, ...] = ()
    horse: int | None = None
    game_winners: tuple[int, ...] = ()


#: every field of a showdown, and the defaults of those that have one (``make_showdown``)
_SHOWDOWN_FIELDS = frozenset(f.name for f in dataclasses.fields(Showdown))
_SHOWDOWN_DEFAULTS = {f.name: f.default for f in dataclasses.fields(Showdown)
                      if f.default is not dataclasses.MISSING}
_SHOWDOWN_NEEDED = _SHOWDOWN_FIELDS - _SHOWDOWN_DEFAULTS.keys()


def make_showdown(**fields: object) -> Showdown:
    """``Showdown(**fields)``, the same object made at once (the frozen dataclass's
    ``__init__`` sets its 16 fields one ``object.__setattr__`` at a time), as
    ``DealBase._observe`` makes an observation.

    Raises:
        TypeError: a field ``Showdown`` does not have, or one it needs missing.
    """
    keys = fields.keys()
    if not (keys <= _SHOWDOWN_FIELDS and _SHOWDOWN_NEEDED <= keys):
        raise TypeError(f"not the fields of a showdown: {sorted(keys)}")
    made = dict(_SHOWDOWN_DEFAULTS)
    made.update(fields)
    showdown = object.__new__(Showdown)
    showdown.__dict__.update(made)
    return showdown


@dataclass(frozen=True)
class Observation:
    """What one seat (or, with ``seat=None``, the public) may see of a deal.

    Everything the bot shows is rendered from an observation. ``hand`` is the
    seat's own cards (``None`` for the public, and for an oldway dealer who has
    not looked yet: ``blind``); other hands appear only in ``showdown`` once the
    deal is over. Fields after ``moves`` belong to the newer families and keep
    their defaults elsewhere.

    Attributes (family fields):
        family: ``trade`` | ``widow`` | ``discard``.
        legal: ``legal_actions(seat)`` (empty for the public view).
        active: the seats dealt in.
        phase: ``choice`` (widow: the dealer's widow decision), ``play``,
            ``final`` (jaques: the round after a knock), ``horse`` (oldway: the
            loser may buy a horse), ``over``.
        widow: the face-up widow / middle cards (widow family; ``None`` in the
            families without a widow).
        stood: seats that knocked (widow) or stood (oldway), in order.
        lives: lives per seat (oldway, live during the deal).
        horse_available: the horse has not been offered yet.
        discard_top, discard_count: the face-up discard pile (jaques).
        drawing: the seat holding a drawn card (public); ``drawn``: that card,
            only in its holder's observation.
        offer: (offering seat, target) of a pending direct trade;
            ``offered_card``: the card, only in the target's observation.
        knocker: the jaques knocker; ``final_turns``: turns left after the knock.
        passes: consecutive passes (a full circuit ends the deal).
        chips: chips per seat, live (jaques).
        pots: the pool or pots, live.
        reshuffles: how often the discard pile became the stock.
    """

    seat: int | None
    n_seats: int
    dealer: int
    turn: int | None
    to_act: int | None
    pool: int
    stock_count: int
    waste_count: int
    shown_waste: tuple[Card, ...]
    delta: tuple[int, ...]
    hand: tuple[Card, ...] | None
    barter: tuple[int, int] | None  # (offering seat, target seat) while pending
    last_event: PublicEvent | None
    finished: bool
    showdown: Showdown | None
    rules: Rules
    moves: int = 0
    family: Family = "trade"
    legal: tuple[str, ...] = ()
    active: tuple[int, ...] = ()
    phase: str = "play"
    widow: tuple[Card, ...] | None = None
    blind: bool = False
    stood: tuple[int, ...] = ()
    lives: tuple[int, ...] | None = None
    horse_available: bool = False
    discard_top: Card | None = None
    discard_count: int = 0
    drawing: int | None = None
    drawn: Card | None = None
    offer: tuple[int, int] | None = None
    offered_card: Card | None = None
    knocker: int | None = None
    final_turns: int = 0
    passes: int = 0
    chips: tuple[int, ...] | None = None
    pots: tuple[int, ...] = ()
    reshuffles: int = 0


#: every field of an observation, and the defaults of those that have one
#: (``DealBase._observe`` makes observations without the dataclass's ``__init__``)
_OBSERVATION_FIELDS = frozenset(f.name for f in dataclasses.fields(Observation))
_OBSERVATION_DEFAULTS = {f.name: f.default for f in dataclasses.fields(Observation)
                         if f.default is not dataclasses.MISSING}
#: the fields without a default: every family's observation names them all
_OBSERVATION_NEEDED = _OBSERVATION_FIELDS - _OBSERVATION_DEFAULTS.keys()


@dataclass(frozen=True)
class Standing:
    """The game state one deal hands to the next.

    Attributes:
        pots: pool/pots carried into the next deal (hoyle carry, oldway pool,
            jaques pots).
        lives: lives per seat (oldway) or ``None``.
        horse_available: the horse has not been offered yet (oldway).
        chips: chips per seat (jaques) or ``None``.
    """

    pots: tuple[int, ...] = (0,)
    lives: tuple[int, ...] | None = None
    horse_available: bool = False
    chips: tuple[int, ...] | None = None

    def in_play(self, n: int) -> tuple[int, ...]:
        """Seats still in the game: with lives left (oldway), with chips (jaques)."""
        if self.lives is not None:
            return tuple(s for s in range(n) if self.lives[s] > 0)
        if self.chips is not None:
            return tuple(s for s in range(n) if self.chips[s] > 0)
        return tuple(range(n))


@dataclass(frozen=True)
class Controls:
    """The controls of the moment (``DealBase.controls``): which buttons a table
    shows, and which a seat is shown beside its own hand.

    Attributes:
        moves: the table message's move buttons, by family and phase, the same
            for every seat (a press out of turn is refused by the deal):
            ``trade``, ``barter``, ``knock`` (docs/RULES.md §2.1–§2.4);
            ``take_widow``, ``keep_hand`` (the dealer's choice), then ``swap``
            and ``knock`` (§2.5) or ``stand`` (§2.6), then ``buy_horse``,
            ``decline_horse`` (§2.6 the horse); ``take_discard``, ``draw``,
            ``pass``, ``knock`` and, with direct trading, ``offer`` (§2.7).
            Empty while an offer waits for its answer and once the deal is over.
        answers: while an offer waits for its answer: ``accept``, then how its
            target says no where the rules allow it — ``refuse`` (refuse a
            barter by knocking: the deal ends, §2.1; never under §2.2) or
            ``decline`` (decline a direct trade: play goes on, §2.7). Empty
            otherwise.
        private: buttons only this seat is shown, beside its own hand
            (``pounce``, §2.6); always empty for the public view.
    """

    moves: tuple[str, ...] = ()
    answers: tuple[str, ...] = ()
    private: tuple[str, ...] = ()


@cache
def _places(dealer: int, n_seats: int, step: int) -> tuple[int, ...]:
    """Each seat's place in ``turn_order(dealer, n_seats, step)`` (0: the eldest hand),
    by seat: worked out once per table and dealer."""
    places = [0] * n_seats
    for k, seat in enumerate(turn_order(dealer, n_seats, step)):
        places[seat] = k
    return tuple(places)


class DealBase(ABC):
    """One deal of any family: the abstract interface every family implements,
    and the state and bookkeeping they share.

    Abstract (each family's own rules): ``to_act``, ``pots``, ``game_over``,
    ``pending``, ``drawn``, ``legal_actions``, ``controls``, ``choices``,
    ``act``, ``apply``, ``void``, ``observation``, ``cards_in_play``,
    ``conserved_total``, ``standing_after``. Shared: the seats, hands, deck,
    ``delta``, ``movements``, ``operations``, ``events``, ``showdown``,
    ``finished``, ``turn_order``.

    Args:
        rules: the rule system.
        n_seats: number of seats (``rules.min_players..rules.max_players``).
        dealer: the dealer's seat (one of ``active``).
        deck: the shuffled deck, 52 distinct cards, top first.
        active: the seats dealt in (default all); at least two.

    Raises:
        ValueError: bad seat count, dealer, active seats or deck.
    """

    family: ClassVar[Family]
    #: ``_seen``: the observations made, with the state they were made at
    #: (``observation``): (operation count, voided, showdown, seat -> observation),
    #: or ``None``; a slot, so that ``vars(deal)`` holds the deal's state alone
    __slots__ = ("__dict__", "_seen")
    _seen: tuple[int, bool, Showdown | None, dict[int | None, Observation]] | None
    #: the seat whose turn it is (``None`` outside play: the dealer's choice,
    #: the horse, or once the deal is over)
    turn: int | None

    def __init__(self, rules: Rules, n_seats: int, dealer: int, deck: Sequence[Card],
                 active: Collection[int] | None = None) -> None:
        """Check the arguments, then deal three cards to each seat in play, one at a
        time in turn order from the eldest hand (docs/RULES.md §1.3); the family
        lays out ``deck[dealt:]``. Arguments and errors: see the class."""
        if rules.family != self.family:
            raise ValueError(f"{rules.name} is not played with {type(self).__name__}")
        if not rules.min_players <= n_seats <= rules.max_players:
            raise ValueError(
                f"{rules.name} needs {rules.min_players} to {rules.max_players} players"
            )
        if not 0 <= dealer < n_seats:
            raise ValueError("dealer is not a seat")
        if len(deck) != 52 or set(deck) != _DECK_SET:
            raise ValueError("the deck must hold each of the 52 cards once")
        seats = tuple(range(n_seats)) if active is None else tuple(sorted(set(active)))
        if len(seats) < 2 or (active is not None and not all(0 <= s < n_seats for s in seats)):
            raise ValueError("a deal needs at least two seats in play")
        if dealer not in seats:
            raise ValueError("the dealer must be in play")
        self._seen = None
        self.rules = rules
        self.n = n_seats
        self.dealer = dealer
        self.deck: tuple[Card, ...] = tuple(deck)
        self.active: tuple[int, ...] = seats
        # card i goes to the turn order's seat i % m, one round at a time: the cards
        # k, k + m, k + 2m of the deck to the seat k places into the order
        m = len(seats)
        cards = deck if type(deck) is list else list(deck)
        if m == n_seats:  # every seat in play: each hand one slice, in seat order
            self.hands: list[list[Card]] = [cards[k : 3 * m : m] for k in
                                            _places(dealer, n_seats, rules.step)]
        else:
            self.hands = [[] for _ in range(n_seats)]
            for k, seat in enumerate(turn_order(dealer, n_seats, rules.step, seats)):
                self.hands[seat] = cards[k : 3 * m : m]
        self.dealt = 3 * m  # deck[dealt:] is what the family lays out next
        self.delta = [0] * n_seats
        self.movements: list[Movement] = []
        self.operations: list[Operation] = []
        self.last_event: PublicEvent | None = None
        #: every public event of the deal, in order (what the table saw)
        self.events: list[PublicEvent] = []
        #: cards that have lain face up in this deal (widow, discards, shown trades)
        self.exposed: set[Card] = set()
        self.showdown: Showdown | None = None
        self.voided = False
        #: seats that took the final sweep or pot when this deal ended the game
        self.game_winners: tuple[int, ...] = ()

    # ------------------------------------------------- the family's interface
    @property
    @abstractmethod
    def to_act(self) -> int | None:
        """The seat whose decision is awaited (the target of a pending offer, the
        seat whose turn it is...); ``None`` once finished. A pounce or an open
        offer may also come from another seat (see ``legal_actions``)."""

    @property
    @abstractmethod
    def pots(self) -> tuple[int, ...]:
        """The pool, or the pots (jaques three-stake: three), as they stand."""

    @property
    @abstractmethod
    def game_over(self) -> bool:
        """This deal ended the game (docs/RULES.md §1.7, §2.6 the end, §2.7 the end)."""

    @property
    @abstractmethod
    def pending(self) -> BarterOffer | Offer | None:
        """The offer waiting for its answer from ``to_act`` (a barter, §2.1; a
        direct trade, §2.7), or ``None``. Its card is the offerer's: show it
        only through ``observation(seat)`` (``offered_card``)."""

    @property
    @abstractmethod
    def drawn(self) -> Card | None:
        """The card the seat whose turn it is drew and must still keep or throw
        away (§2.7), or ``None``. Hidden: only ``observation(turn).drawn`` may
        show it; ``observation(None).drawing`` says who holds one."""

    @abstractmethod
    def legal_actions(self, seat: int) -> list[str]:
        """The action names ``seat`` may take now (``Decision.kind``); ``[]``
        when none (the deal is over, not the seat's move, not a seat)."""

    @abstractmethod
    def controls(self, seat: int | None = None) -> Controls:
        """The buttons of the moment for the family and phase: the table
        message's (``moves`` or ``answers``, the same for everyone) and, for
        ``seat``, the ones only it is shown (``private``). Uses only what
        ``seat`` may see. Empty once the deal is over."""

    @abstractmethod
    def choices(self, seat: int, action: str) -> list[Decision]:
        """Every decision the control ``action`` (a button or select of
        ``Controls``, or ``accept``) offers ``seat`` now, each legal, in the order
        a menu lists them; ``[]`` when the control is not ``seat``'s now. Built
        only from what ``seat`` may see (its hand, its drawn card, the face-up
        cards, the seats in play)."""

    @abstractmethod
    def act(self, seat: int, decision: Decision) -> Operation:
        """Apply ``decision`` (an AI or UI choice, see ``Decision``) for ``seat``.

        Raises:
            IllegalAction: unknown kind, missing card or target, or illegal now.
        """

    @abstractmethod
    def apply(self, op: Operation) -> Operation:
        """Apply a recorded operation (replay, restart).

        Raises:
            IllegalAction: the operation is not legal here (or of another family).
        """

    @abstractmethod
    def void(self) -> None:
        """End the deal without a showdown, refunding what the deal itself moved.

        Raises:
            IllegalAction: the deal is already over.
        """

    def observation(self, seat: int | None = None) -> Observation:
        """What ``seat`` may see (``None``: the public view, no hand at all): the
        family's ``_observation``, made once per seat and state (an observation is
        frozen, and a deal changes only through its actions and ``void``: a new
        operation, the showdown or the void makes the next call observe again; a
        copy of the deal observes afresh).

        Raises:
            ValueError: ``seat`` is not a seat.
        """
        moves, voided, showdown = len(self.operations), self.voided, self.showdown
        seen = self._seen
        if seen is None or seen[0] != moves or seen[1] != voided or seen[2] is not showdown:
            seen = self._seen = (moves, voided, showdown, {})
        made = seen[3].get(seat)
        if made is None:
            made = seen[3][seat] = self._observation(seat)
        return made

    @abstractmethod
    def _observation(self, seat: int | None) -> Observation:
        """``observation(seat)`` made afresh: the family's own fields (``_observe``).

        Raises:
            ValueError: ``seat`` is not a seat.
        """

    def __copy__(self) -> Self:
        """A shallow copy, without the observations made of this deal (``observation``)."""
        clone = object.__new__(type(self))
        clone.__dict__.update(self.__dict__)
        clone._seen = None
        return clone

    def __deepcopy__(self, memo: dict[int, object]) -> Self:
        """A deep copy, without the observations made of this deal (``observation``)."""
        clone = object.__new__(type(self))
        memo[id(self)] = clone
        for name, value in self.__dict__.items():
            clone.__dict__[name] = copy.deepcopy(value, memo)
        clone._seen = None
        return clone

    @abstractmethod
    def cards_in_play(self) -> list[Card]:
        """Every card of the deal, wherever it lies (52 when consistent)."""

    @abstractmethod
    def conserved_total(self) -> int:
        """Balances of the deal plus what lies in the pool or pots, less what was
        carried in: always 0."""

    @abstractmethod
    def standing_after(self) -> Standing:
        """What the next deal starts with (a void keeps what came in)."""

    # ----------------------------------------------------------------- state
    def neighbour(self, seat: int) -> int | None:
        """The seat ``seat`` barters with (docs/RULES.md §2.1): the next seat in
        play order in the trade-and-barter family (``TradeDeal``); ``None`` in the
        families without a barter."""
        return None

    @property
    def finished(self) -> bool:
        """The deal is over (showdown reached or voided)."""
        return self.showdown is not None or self.voided

    def _observe(self, seat: int | None, hand: tuple[Card, ...] | None, *, stock_count: int,
                 **family: object) -> Observation:
        """The fields every family shares, plus the family's own (``family``).

        Raises:
            TypeError: a family field ``Observation`` does not have, or one it
                needs missing (as its ``__init__`` would).
        """
        if not family.keys() <= _OBSERVATION_FIELDS:
            raise TypeError(f"not fields of an observation: {sorted(family.keys() - _OBSERVATION_FIELDS)}")
        fields = dict(_OBSERVATION_DEFAULTS)
        fields.update(
            seat=seat,
            n_seats=self.n,
            dealer=self.dealer,
            turn=self.turn,
            to_act=self.to_act,
            pool=sum(self.pots),
            stock_count=stock_count,
            delta=tuple(self.delta),
            hand=hand,
            last_event=self.last_event,
            finished=self.finished,
            showdown=self.showdown,
            rules=self.rules,
            moves=len(self.operations),
            legal=() if seat is None else tuple(self.legal_actions(seat)),
            active=self.active,
        )
        fields.update(family)
        if not _OBSERVATION_NEEDED <= fields.keys():
            raise TypeError(f"an observation needs {sorted(_OBSERVATION_NEEDED - fields.keys())}")
        # the frozen dataclass's ``__init__`` sets its 38 fields one ``object.__setattr__``
        # at a time (most of an observation's cost): the same object, made at once
        observation = object.__new__(Observation)
        observation.__dict__.update(fields)
        return observation

    def turn_order(self) -> list[int]:
        """One circuit of the seats in play: eldest hand first, the dealer last."""
        return turn_order(self.dealer, self.n, self.rules.step, self.active)

    # ------------------------------------------------------------- helpers
    def _verify_open(self) -> None:
        if self.finished:
            raise IllegalAction("This deal is already over.")

    def _verify_seat(self, seat: int) -> None:
        if not isinstance(seat, int) or not 0 <= seat < self.n:
            raise IllegalAction("That is not a seat at this table.")
        if seat not in self.active:
            raise IllegalAction("You are not dealt in this deal.")

    def _verify_holds(self, seat: int, card: Card) -> None:
        if card not in self.hands[seat]:
            raise IllegalAction("You do not hold that card.")

    def _card_choices(self, seat: int, kind: str, allowed: Callable[[Card], bool],
                      ) -> list[Decision]:
        """``Decision(kind, card)`` for each card of ``seat``'s hand, when ``allowed``
        passes for the first: ``allowed`` must depend on the card only through
        ``seat`` holding it (``_verify_holds``), so one check answers for every card."""
        hand = self.hands[seat]
        if not hand or not allowed(hand[0]):
            return []
        return held_decisions(card_decisions(kind), hand)

    def _record(self, op: Operation, event: PublicEvent) -> None:
        self.operations.append(op)
        self.last_event = event
        self.events.append(event)
        if event.given or event.taken:
            self.exposed.update(event.given, event.taken)
        if event.shown is not None:
            self.exposed.add(event.shown)

    def _move(
        self, payer: int | None, payee: int | None, amount: int, reason: str, pot: int = 0
    ) -> None:
        if payer is not None:
            self.delta[payer] -= amount
        if payee is not None:
            self.delta[payee] += amount
        self.movements.append(movement(payer, payee, amount, reason, pot))


@dataclass(frozen=True)
class Decision:
    """A choice for the seat to act, as the AI makes it and a UI may build it;
    ``deal.act(seat, decision)`` turns it into the matching action.

    ``kind`` is an action name of ``legal_actions``:

    - trade family: ``trade`` (``card``), ``barter`` (``card``), ``knock``,
      ``accept`` (``card`` given back), ``refuse`` (knock instead); ``knock``
      set on a trade or barter knocks at the end of that turn (docs/RULES.md
      §2.2, presets that allow it);
    - widow family: ``take_widow``, ``keep_hand``, ``swap`` (``give``, ``take``),
      ``knock`` (widow), ``stand`` (oldway), ``pounce``, ``buy_horse``,
      ``decline_horse``;
    - discard family: ``take_discard`` (``card`` laid on the pile), ``draw``,
      ``draw_keep`` (``card`` laid on the pile), ``draw_discard``, ``pass``,
      ``knock``, ``offer`` (``target``, ``card``), ``accept`` (``card`` given
      back), ``refuse``.
    """

    kind: str
    card: Card | None = None
    give: tuple[Card, ...] = ()
    take: tuple[Card, ...] = ()
    target: int | None = None
    knock: bool = False

    def need_card(self) -> Card:
        """``card``, or ``IllegalAction`` asking the player to choose one."""
        if self.card is None:
            raise IllegalAction("Choose a card first.")
        return self.card


def held_decisions(made: tuple[Decision, ...], hand: Sequence[Card]) -> list[Decision]:
    """``[made[card] for card in hand]`` (``made`` from ``card_decisions``): a hand of
    three, the usual one, without the comprehension's own frame."""
    try:
        a, b, c = hand
    except ValueError:
        return [made[card] for card in hand]
    return [made[a], made[b], made[c]]


@cache
def card_decisions(kind: str, knock: bool = False) -> tuple[Decision, ...]:
    """``Decision(kind, card, knock=knock)`` for every card of the deck, by card:
    made once per kind (a ``Decision`` is frozen, so every deal can share them)."""
    return tuple(Decision(kind, card, knock=knock) for card in DECK)
