"""The ``strong`` AI level: determinised Monte Carlo over the cards its seat
cannot see (docs/AI.md "How strong decides").

``choose(view, rng, budget)`` decides from a ``SeatView`` alone — the seat's
observation and its memory of the deal (``view.seat_view``) — never from the
deal itself:

1. **Worlds.** A world is a complete deal consistent with everything the seat
   knows. It is sampled by replaying the seat's log symbolically: every card
   the seat has seen is followed from place to place (its own hand, the cards
   it gave away in barters and to whom, the cards it traded to the waste or
   under the stock, every face-up card, the discard pile, a card offered to
   it); a card it never saw is an unknown. Where another seat moved a card
   unseen (a face-down trade, a barter or direct trade between two others, a
   drawn card kept), which of its cards moved is drawn at random among the
   ones it could have held — less often one the log later shows still with
   it, more often one the log later shows at the receiving end; a card
   revealed later (a parlett trade, a discard, a pounce's tricon, a card that
   reaches the seat) pins what moved. The unseen cards are then dealt at
   random to the unknowns, and the stock (whose order nobody knows) is
   shuffled. A sample that contradicts the log is drawn again; after
   ``SAMPLE_ATTEMPTS`` the world honours the present only (``_present_only``).
2. **Candidates.** Every legal decision (from ``choices`` of a world, which
   uses only what the seat can see), trimmed to ``MAX_CANDIDATES`` by a static
   rating when there are more (oldway swaps, jaques offers); the ``normal``
   level's own choice is always kept.
3. **Playouts.** Each candidate is applied in a world and the deal is played
   to its end by a fast policy (``ROLLOUT``: ``normal.patient``, which is
   ``normal`` but passes only with a top-10% hand in jaques) for every seat,
   scoring ``outcome`` for the seat: the points or chips the deal moved
   (oldway: plus ``LIFE_VALUE`` per life won or lost; hoyle: plus an equal
   share of a carried pool); with ``game=True`` (not the default: ``GAME``),
   ``game_outcome``: in oldway plus what the rest of the game is then worth to
   the seat (``prospects.oldway_value``) in place of ``LIFE_VALUE`` per life.
   Candidates share the same worlds (common random numbers); successive
   halving drops the worse half after each round.
4. **Choice.** The best mean wins, but only when it beats the default by
   more than ``CONFIDENCE`` standard errors of their paired difference;
   otherwise the default stands. The default is the rollout policy's choice,
   or in the short trade presets the equilibrium table's decision
   (``equilibrium.choose``), which needs ``TABLE_CONFIDENCE`` standard errors.

The budget is a number of playouts and/or a wall-clock deadline
(``time.perf_counter``), checked before each world is sampled, before each
playout and every ``CLOCK_EVERY`` moves inside a playout: a search that is past
its deadline, or would be after one more step as long as the longest seen so
far (``RESERVE_SHARE``), drops the playout under way and chooses from the
worlds every live candidate finished. With a playout budget alone the choice is a pure function
of the view and the random source.
"""

from __future__ import annotations

import copy
import dataclasses
import math
import random
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from . import easy, equilibrium, normal, prospects
from .cards import Card, rank
from .discard import DiscardDeal
from .family import DealBase, Decision, Observation
from .hands import score
from .moves import best_swap
from .operations import BarterOffer, Knock, Offer, Operation
from .trade import TradeDeal
from .view import SeatView, Seen
from .widow import WidowDeal

__all__ = [
    "DEFAULT_BUDGET", "LIFE_VALUE", "Budget", "candidates", "check_world", "choose",
    "game_outcome", "outcome", "playout", "sample_world", "world",
]

#: oldway: what a life is worth in points when a deal is scored (the stake it cost)
LIFE_VALUE = normal.LIFE_VALUE
#: at most this many candidates are played out (the rest are trimmed statically)
MAX_CANDIDATES = 8
#: the best candidate replaces the rollout policy's choice only when its paired mean gain
#: exceeds this many standard errors
CONFIDENCE = 1.0
#: a playout stops after this many moves (every policy ends its deals far sooner)
MAX_PLAYOUT_MOVES = 600
#: attempts to sample a world before falling back to the present alone
SAMPLE_ATTEMPTS = 30
#: a world where another seat's latest decision does not fit is redrawn with this
#: probability ...
MODEL_REJECT = 0.8
#: ... at most this many times per world
MODEL_ATTEMPTS = 8
#: judge worlds by the other seats' latest decisions (``_Model``)
USE_MODEL = True
#: widow family: the model also asks that another seat's latest swap left the best
#: hand a swap could have (the cards it kept fit the cards it took), not only that
#: the seat swapped rather than stopped
MODEL_SWAPS = False
#: ... and a world whose swaps do not fit is always redrawn, at most this many times
#: (the attempts of ``SAMPLE_ATTEMPTS`` must leave room for ``MODEL_ATTEMPTS`` too)
SWAP_ATTEMPTS = 20
#: decide from ``equilibrium``'s table where it covers the state (the short trade presets)
USE_EQUILIBRIUM = True
#: where the table covers the state its decision is the search's default, and a
#: candidate replaces it only when its paired mean gain over the same worlds exceeds
#: this many standard errors (stricter than ``CONFIDENCE``: the table is the better
#: default; docs/AI.md "The table as the search's default")
TABLE_CONFIDENCE = 2.0
#: a playout looks at the clock every this many moves (a move takes ~0.1 ms)
CLOCK_EVERY = 4
#: the search stops once the longest gap it has seen between two looks at the clock
#: (a slow step, or the process waiting for a busy core) would carry it past the
#: deadline; that reserve is at most this share of the budget's seconds
RESERVE_SHARE = 0.25
#: score playouts with the game's standing (``game_outcome``) rather than the deal
#: alone (``outcome``). Off: measured in oldway's game mode, playing for the game by
#: the symmetric model lost to the deal alone (docs/AI.md "Playing for the game");
#: the arena seats both, ``gamewise`` (``game=True``) and ``dealwise`` (``game=False``)
GAME = False

Policy = Callable[[Observation], Decision]
#: seconds on a monotonic clock (``time.perf_counter``; tests pass a fake one)
Clock = Callable[[], float]


@dataclass(frozen=True)
class Budget:
    """How much thinking one decision may take.

    Attributes:
        playouts: playouts in all (across candidates); ``None``: no limit.
        seconds: a wall-clock deadline from the start of ``choose``; ``None``:
            none (then the choice is deterministic for a seeded ``rng``).
    """

    playouts: int | None = 2000
    seconds: float | None = 0.2


#: the budget of a live table (docs/AI.md: decision times)
DEFAULT_BUDGET = Budget()

ROLLOUTS: dict[str, Policy] = {"easy": easy.choose_easy, "normal": normal.choose,
                               "patient": normal.patient}
#: the playouts' policy and the choice that stands unless the playouts are sure of
#: a better one: ``normal``, patient in jaques (``normal.patient``)
ROLLOUT = "patient"


class _Contradiction(Exception):
    """A sampled hidden move contradicts what the seat saw later."""


# ---------------------------------------------------------------------- outcome
def outcome(deal: DealBase, seat: int) -> float:
    """What the deal (over or not) brought ``seat``: its points or chips moved;
    oldway adds ``LIFE_VALUE`` per life won or lost (a horse, a lost life);
    hoyle adds an equal share of a pool carried to the next deal."""
    value = float(deal.delta[seat])
    if isinstance(deal, WidowDeal) and deal.lives is not None and deal.lives_in is not None:
        value += LIFE_VALUE * (deal.lives[seat] - deal.lives_in[seat])
    elif isinstance(deal, TradeDeal) and deal.showdown is not None and deal.showdown.winner is None:
        value += deal.pool / len(deal.active)
    return value


def game_outcome(deal: DealBase, seat: int) -> float:
    """What the deal brought ``seat`` with the game's standing in mind (docs/AI.md
    "Playing for the game"): in oldway, the points it moved plus what the rest of
    the game is then worth to the seat (``prospects.seat_value``: its lives and
    the others', the pool, the horse; nothing once the game is over, whose sweep
    is in the points), in place of ``LIFE_VALUE`` per life; elsewhere, and where
    the model does not apply (more than ``prospects.MAX_SEATS`` seats with lives),
    ``outcome``. Comparable between playouts from the same decision only: its
    level includes the value of the standing the deal started from."""
    if isinstance(deal, WidowDeal) and deal.lives is not None and not deal.voided:
        future = prospects.seat_value(deal.rules, tuple(deal.lives), seat, deal.pool,
                                      deal.horse_available)
        if future is not None:
            return float(deal.delta[seat]) + future
    return outcome(deal, seat)


# ----------------------------------------------------------------- world sampling
#: the kinds of event that are another seat's decision (checked by ``_Model``)
_DECISIONS = frozenset({
    "trade", "barter_offer", "barter_accept", "swap", "take_discard", "draw", "pass",
})


@dataclass
class _Cards:
    """Where every card is, in one sampled world (a negative number: a card not yet
    named, each unknown its own)."""

    hands: list[list[Card]]
    bag: list[Card]  # the stock whose order nobody knows (its top part)
    queue: list[Card]  # hoyle: cards traded under the stock, in order
    waste: list[Card]
    widow: list[Card]
    discard: list[Card]
    drawn: dict[int, Card]
    pending: Card | None = None  # the card of a barter waiting for its answer
    pending_at: int | None = None  # or its place in the offerer's hand, before naming


class _Needs:
    """Where the seat's log later proves a card to be: ``(entry, seat)`` pairs, a
    card that seat must hold just before that log entry (it lays it face up,
    swaps it, pounces with it, or hands it to the seat)."""

    def __init__(self, view: SeatView) -> None:
        me = view.seat
        self.at: dict[Card, list[tuple[int, int]]] = {}
        prev = list(view.hand0 or ())
        for i, seen in enumerate(view.log):
            event = seen.event
            s = event.seat
            now = list(seen.hand) if seen.hand is not None else prev
            cards: list[tuple[Card, int]] = []
            if event.kind in ("take_discard", "swap", "take_widow"):
                cards += [(c, s) for c in event.given]
            elif event.kind in ("draw_keep", "trade") and event.shown is not None:
                cards.append((event.shown, s))
            elif event.kind == "pounce" and event.shown is not None:
                cards += [(c, s) for c in range(52) if rank(c) == rank(event.shown) and c != event.shown]
            elif event.kind == "offer" and seen.card is not None:
                cards.append((seen.card, s))
            elif event.kind in ("barter_accept", "offer_accept") and me in (s, event.target):
                other = event.target if s == me else s
                assert other is not None
                cards += [(c, other) for c in now if c not in prev]
            for card, holder in cards:
                self.at.setdefault(card, []).append((i, holder))
            prev = now

    def next_holder(self, card: Card, after: int) -> int | None:
        """The seat the log next proves to hold ``card`` after entry ``after``."""
        for entry, seat in self.at.get(card, ()):
            if entry > after:
                return seat
        return None


class _Sampler:
    """Replays a seat's log symbolically, drawing the moves it did not see."""

    def __init__(self, view: SeatView, rng: random.Random, needs: _Needs | None = None) -> None:
        self.view = view
        self.rng = rng
        self.known: set[Card] = set()
        self.needs = needs if needs is not None else _Needs(view)
        self.tokens = 0
        #: what each unknown (a negative token) turned out to be
        self.named: dict[int, Card] = {}
        #: per other seat, its latest decision: (log entry, its hand then, what it did)
        self.decisions: dict[int, tuple[int, list[Card], str, tuple[Card, ...], Card | None]] = {}

    def unknowns(self, count: int) -> list[Card]:
        """``count`` fresh unknowns (distinct negative tokens)."""
        out = list(range(-self.tokens - 1, -self.tokens - count - 1, -1))
        self.tokens += count
        return out

    def take(self, loc: list[Card], card: Card) -> Card:
        """Remove ``card`` from ``loc``, naming one of its unknowns when needed."""
        if card in loc:
            loc.remove(card)
            return card
        token = next((c for c in loc if c < 0), None)
        if card in self.known or token is None:
            raise _Contradiction
        loc.remove(token)
        self.named[token] = card
        self.known.add(card)
        return card

    def resolve(self, cards: list[Card]) -> list[Card]:
        """``cards`` with every unknown replaced by the card it was named."""
        return [self.named[c] if c < 0 else c for c in cards]

    def name(self, loc: list[Card], card: Card) -> None:
        """``card`` lies in ``loc`` (naming one of its unknowns when needed)."""
        loc.append(self.take(loc, card))

    def hidden(self, loc: list[Card], at: int, holder: int | None, to: int | None) -> Card:
        """Remove the card moved unseen at log entry ``at`` from ``loc`` (the hand of
        ``holder``, or the stock: ``None``) to seat ``to`` (``None``: out of play,
        the waste or under the stock). Any card of ``loc`` may have moved; one the
        log later proves to be with ``holder`` is seldom drawn, one it proves to
        reach ``to`` often (fewer contradictions to retry)."""
        if not loc:
            raise _Contradiction
        weights = []
        for card in loc:
            need = None if card < 0 else self.needs.next_holder(card, at)
            if need is None:
                weights.append(1.0)
            elif need == to:
                weights.append(20.0)
            elif need == holder or to is None or holder is None:
                weights.append(0.02)
            else:
                weights.append(1.0)
        i = self.rng.choices(range(len(loc)), weights)[0]
        return loc.pop(i)

    def run(self) -> _Cards:
        """Replay the log; the placements at the present, unknowns not yet named."""
        view, obs = self.view, self.view.obs
        me = view.seat
        hands: list[list[Card]] = [[] for _ in range(obs.n_seats)]
        for s in obs.active:
            hands[s] = self.unknowns(3)
        if view.hand0 is not None:
            hands[me] = list(view.hand0)
        self.known = set(view.hand0 or ()) | set(view.opening)
        rest = 52 - 3 * len(obs.active) - len(view.opening)
        cards = _Cards(hands, self.unknowns(rest), [], [], [], [], {})
        if obs.family == "widow":
            cards.widow = list(view.opening)
        elif obs.family == "discard":
            cards.discard = list(view.opening)
        steps = {
            "trade": self._trade, "barter_accept": self._exchange, "offer_accept": self._exchange,
            "take_widow": self._take_widow, "keep_hand": self._keep_hand, "swap": self._swap,
            "pounce": self._pounce, "take_discard": self._take_discard, "draw": self._draw,
            "draw_keep": self._draw_keep, "draw_discard": self._draw_discard, "offer": self._offer,
        }
        for i, seen in enumerate(view.log):
            self._remember(cards, i, seen)
            step = steps.get(seen.event.kind)
            if step is not None:
                step(cards, i, seen)
            if seen.hand is not None and sorted(hands[me]) != sorted(seen.hand):
                raise _Contradiction
        if obs.barter is not None:
            if obs.barter[0] == me:  # its own offer: it knows the card
                cards.pending = next(seen.card for seen in reversed(view.log)
                                     if seen.event.kind == "barter_offer" and seen.event.seat == me)
            else:
                cards.pending_at = self.rng.randrange(len(hands[obs.barter[0]]))
        return cards

    def _remember(self, cards: _Cards, i: int, seen: Seen) -> None:
        """Keep another seat's hand as it was when it made this decision (its
        latest one is checked against ``normal`` later: ``_Model``)."""
        event = seen.event
        me = self.view.seat
        seat, kind = event.seat, event.kind
        if kind in ("barter_accept", "offer_accept", "barter_refuse", "offer_refuse"):
            if event.target is None:
                return
            seat = event.target
        if seat == me or kind not in _DECISIONS:
            return
        top = cards.discard[-1] if cards.discard else None
        self.decisions[seat] = (i, list(cards.hands[seat]), kind, tuple(cards.widow), top)

    def _mine(self, cards: _Cards, seen: Seen) -> tuple[list[Card], list[Card]]:
        """(cards the seat gave, cards it got) at ``seen``; its hand becomes the new one."""
        me = self.view.seat
        prev = cards.hands[me]
        now = list(seen.hand or ())
        cards.hands[me] = now
        return [c for c in prev if c not in now], [c for c in now if c not in prev]

    def _trade(self, cards: _Cards, i: int, seen: Seen) -> None:
        event, s = seen.event, seen.event.seat
        hands = cards.hands
        if s == self.view.seat:
            gave, got = self._mine(cards, seen)
            out = gave[0]
            hands[s].remove(got[0])
            hands[s].append(self._draw_stock(cards, got[0]))
        else:
            if event.shown is not None:
                out = self.take(hands[s], event.shown)
            else:
                out = self.hidden(hands[s], i, s, None)
            hands[s].append(self._draw_stock(cards, None))
        (cards.queue if self.view.obs.rules.traded_card == "under_stock" else cards.waste).append(out)

    def _exchange(self, cards: _Cards, i: int, seen: Seen) -> None:
        """An accepted barter or direct trade: the two seats swap a card each."""
        s, target = seen.event.seat, seen.event.target
        assert target is not None
        hands = cards.hands
        me = self.view.seat
        if me in (s, target):
            other = target if s == me else s
            gave, got = self._mine(cards, seen)
            self.take(hands[other], got[0])
            hands[other].append(gave[0])
        else:
            a = self.hidden(hands[s], i, s, target)
            b = self.hidden(hands[target], i, target, s)
            hands[s].append(b)
            hands[target].append(a)

    def _take_widow(self, cards: _Cards, i: int, seen: Seen) -> None:
        event, s = seen.event, seen.event.seat
        for c in event.given:
            self.take(cards.hands[s], c)
        cards.hands[s] = list(event.taken)
        cards.widow = list(event.given)

    def _keep_hand(self, cards: _Cards, i: int, seen: Seen) -> None:
        if seen.event.seat == self.view.seat and seen.hand is not None:
            for c in seen.hand:  # a blind dealer looks at last
                self.name(cards.hands[self.view.seat], c)

    def _swap(self, cards: _Cards, i: int, seen: Seen) -> None:
        event, s = seen.event, seen.event.seat
        for give, take in zip(event.given, event.taken, strict=True):
            self.take(cards.hands[s], give)
            if take not in cards.widow:
                raise _Contradiction
            cards.widow[cards.widow.index(take)] = give
            cards.hands[s].append(take)

    def _pounce(self, cards: _Cards, i: int, seen: Seen) -> None:
        event, s = seen.event, seen.event.seat
        assert event.shown is not None
        tricon = [c for c in range(52) if rank(c) == rank(event.shown) and c != event.shown]
        for c in tricon:
            self.take(cards.hands[s], c)
        if event.shown not in cards.widow:
            raise _Contradiction
        cards.widow.remove(event.shown)
        cards.hands[s] = [*tricon, event.shown]

    def _take_discard(self, cards: _Cards, i: int, seen: Seen) -> None:
        event, s = seen.event, seen.event.seat
        if not cards.discard or cards.discard[-1] != event.taken[0]:
            raise _Contradiction
        cards.discard.pop()
        if s == self.view.seat:
            self._mine(cards, seen)
        else:
            self.take(cards.hands[s], event.given[0])
            cards.hands[s].append(event.taken[0])
        cards.discard.append(event.given[0])

    def _draw(self, cards: _Cards, i: int, seen: Seen) -> None:
        s = seen.event.seat
        log = self.view.log
        if not cards.bag:  # the pile but its top became the stock
            cards.bag = cards.discard[:-1]
            cards.discard = cards.discard[-1:]
        if s == self.view.seat:
            assert seen.card is not None
            cards.drawn[s] = self.take(cards.bag, seen.card)
            return
        thrown = None
        if i + 1 < len(log) and log[i + 1].event.kind == "draw_discard":
            thrown = log[i + 1].event.shown
        if thrown is not None:
            cards.drawn[s] = self.take(cards.bag, thrown)
        else:
            cards.drawn[s] = self.hidden(cards.bag, i, None, s)

    def _draw_keep(self, cards: _Cards, i: int, seen: Seen) -> None:
        shown, s = seen.event.shown, seen.event.seat
        assert shown is not None
        drawn = cards.drawn.pop(s)
        if s == self.view.seat:
            self._mine(cards, seen)
        else:
            self.take(cards.hands[s], shown)
            cards.hands[s].append(drawn)
        cards.discard.append(shown)

    def _draw_discard(self, cards: _Cards, i: int, seen: Seen) -> None:
        shown = seen.event.shown
        assert shown is not None
        if cards.drawn.pop(seen.event.seat) != shown:
            raise _Contradiction
        cards.discard.append(shown)

    def _offer(self, cards: _Cards, i: int, seen: Seen) -> None:
        if seen.event.target == self.view.seat:
            assert seen.card is not None
            self.name(cards.hands[seen.event.seat], seen.card)

    def _draw_stock(self, cards: _Cards, card: Card | None) -> Card:
        if cards.bag:
            if card is None:
                return cards.bag.pop(self.rng.randrange(len(cards.bag)))
            return self.take(cards.bag, card)
        if not cards.queue:
            raise _Contradiction
        head = cards.queue.pop(0)
        if card is None or head == card:
            return head
        if head >= 0 or card in self.known:
            raise _Contradiction
        self.named[head] = card
        self.known.add(card)
        return card

    def name_the_rest(self, cards: _Cards) -> None:
        """Deal the cards nobody has named to the unknowns, at random; shuffle the
        stock part whose order nobody knows."""
        rest = [c for c in range(52) if c not in self.known]
        self.rng.shuffle(rest)
        it = iter(rest)
        for place in (*cards.hands, cards.bag, cards.queue, cards.waste):
            for i, c in enumerate(place):
                if c < 0:
                    place[i] = self.named[c] = next(it)
        for s, c in list(cards.drawn.items()):
            if c < 0:
                cards.drawn[s] = self.named[c] = next(it)
        if next(it, None) is not None:
            raise _Contradiction
        self.rng.shuffle(cards.bag)


class _Model:
    """How plausible a world is, judged by the other seats' latest decisions:
    would ``normal``, holding that seat's hand of the world at that moment,
    have made a decision of the same sort (kept playing rather than stopped,
    or stopped)? Cheap opponent modelling; a world that fails is redrawn with
    probability ``MODEL_REJECT`` (at most ``MODEL_ATTEMPTS`` times)."""

    def __init__(self, view: SeatView) -> None:
        self.view = view
        self.stood: list[tuple[int, ...]] = []
        stood: list[int] = []
        for seen in view.log:
            self.stood.append(tuple(stood))
            if seen.event.kind in ("knock", "stand", "pounce") and view.obs.family == "widow":
                stood.append(seen.event.seat)

    def plausible(self, sampler: _Sampler) -> bool:
        """Every other seat's latest decision fits its hand in this world."""
        return self.misfit(sampler) is None

    def misfit(self, sampler: _Sampler) -> str | None:
        """``None`` when every other seat's latest decision fits its hand in this
        world; ``"kind"`` when one seat kept playing where ``normal`` would have
        stopped (or the reverse); else ``"swap"`` when one seat's swap did not
        leave the best hand a swap could have (widow family, ``MODEL_SWAPS``)."""
        swaps = False
        for seat, (i, tokens, kind, widow, top) in sampler.decisions.items():
            hand = tuple(sampler.resolve(tokens))
            predicted = self._predict(seat, i, hand, kind, widow, top)
            if predicted is None:
                continue
            stopped = predicted in ("knock", "stand", "refuse", "pass")
            if stopped != (kind == "pass"):
                return "kind"
            if kind == "swap" and MODEL_SWAPS and not self._best_swap(seat, i, hand, widow):
                swaps = True
        return "swap" if swaps else None

    def _best_swap(self, seat: int, i: int, hand: tuple[Card, ...],
                   widow: tuple[Card, ...]) -> bool:
        """Widow family: the swap that ``seat`` made at log entry ``i``, holding
        ``hand`` with ``widow`` in the middle, left a hand as good as the best
        swap there would have (``normal``'s swap when one improves the hand)."""
        event = self.view.log[i].event
        if len(hand) != 3 or any(c not in hand for c in event.given):
            return True
        ranking = self.view.obs.rules.ranking
        after = [c for c in hand if c not in event.given] + list(event.taken)
        best = best_swap(hand, widow, self.view.obs.rules.swap_max,
                         lambda cards: normal.percentile(score(cards, ranking), ranking))
        if best is None or best[0] <= normal.percentile(score(list(hand), ranking), ranking):
            return True  # no swap improved the hand: a set-up swap, nothing to judge by
        return normal.percentile(score(after, ranking), ranking) >= best[0]

    def _predict(self, seat: int, i: int, hand: tuple[Card, ...], kind: str,
                 widow: tuple[Card, ...], top: Card | None) -> str | None:
        obs = self.view.obs
        rules = obs.rules
        barter = None
        if obs.family == "trade":
            if kind == "barter_accept":
                if not rules.barter_refusal:
                    return None
                offerer = self.view.log[i].event.seat
                legal: tuple[str, ...] = ("accept", "refuse")
                barter = (offerer, seat)
            else:
                legal = ("trade", "barter", "knock")
        elif obs.family == "widow":
            if len(hand) != 3:
                return None
            legal = ("swap", "knock" if rules.widow_end == "two_knocks" else "stand")
        else:
            legal = ("take_discard", "draw", "pass")
        theirs = dataclasses.replace(
            obs, seat=seat, to_act=seat, turn=seat, hand=hand, moves=i, legal=legal,
            barter=barter, finished=False, showdown=None, phase="play",
            widow=widow if obs.family == "widow" else obs.widow,
            stood=self.stood[i] if obs.family == "widow" else obs.stood,
            discard_top=top if obs.family == "discard" else obs.discard_top,
            drawn=None, offered_card=None, offer=None, knocker=None, blind=False)
        try:
            return normal.choose(theirs).kind
        except (ValueError, AssertionError, StopIteration):  # a state normal never meets
            return None


def sample_world(view: SeatView, rng: random.Random, needs: _Needs | None = None,
                 model: _Model | None = None, stop: Callable[[], bool] | None = None) -> _Cards:
    """One placement of every card consistent with ``view`` (see the module
    docstring), made plausible by ``model`` when one is given. After
    ``SAMPLE_ATTEMPTS`` contradictory samples, or once ``stop()`` (asked after
    each rejected sample) answers true, it falls back to the present alone
    (``_present_only``)."""
    needs = needs if needs is not None else _Needs(view)
    doubts = misfits = 0
    for attempt in range(SAMPLE_ATTEMPTS):
        if attempt and stop is not None and stop():
            break
        sampler = _Sampler(view, rng, needs)
        try:
            cards = sampler.run()
            sampler.name_the_rest(cards)
        except _Contradiction:
            continue
        misfit = None if model is None else model.misfit(sampler)
        if misfit == "kind" and doubts < MODEL_ATTEMPTS and rng.random() < MODEL_REJECT:
            doubts += 1
            continue
        if misfit == "swap" and misfits < SWAP_ATTEMPTS:
            misfits += 1
            continue
        if cards.pending_at is not None:
            obs = view.obs
            assert obs.barter is not None
            cards.pending = cards.hands[obs.barter[0]][cards.pending_at]
        return cards
    return _present_only(view, rng)


def _present_only(view: SeatView, rng: random.Random) -> _Cards:
    """The fallback world: the seat's hand, the face-up cards (the widow, the
    whole discard pile, shown waste), a card offered to it and the hands of
    pouncers as they are; every other card at random."""
    obs = view.obs
    me = view.seat
    discard = _discard_pile(view)
    drawn = {me: obs.drawn} if obs.drawn is not None else {}
    hands: list[list[Card]] = [[] for _ in range(obs.n_seats)]
    for seen in view.log:
        event = seen.event
        if event.kind == "pounce" and event.shown is not None:
            hands[event.seat] = [c for c in range(52) if rank(c) == rank(event.shown)]
    if obs.hand is not None:
        hands[me] = list(obs.hand)
    if obs.offer is not None and obs.offered_card is not None:
        hands[obs.offer[0]] = [obs.offered_card]
    placed = {c for h in hands for c in h}
    seen_cards = placed | set(obs.widow or ()) | set(discard) | set(obs.shown_waste) | set(drawn.values())
    rest = [c for c in range(52) if c not in seen_cards]
    rng.shuffle(rest)
    for s in obs.active:
        while len(hands[s]) < 3:
            hands[s].append(rest.pop())
    waste = list(obs.shown_waste) + [rest.pop() for _ in range(obs.waste_count - len(obs.shown_waste))]
    cards = _Cards(hands, rest, [], waste, list(obs.widow or ()), discard, drawn)
    if obs.barter is not None:
        offers = [seen.card for seen in view.log if seen.event.kind == "barter_offer"
                  and seen.event.seat == me]
        cards.pending = offers[-1] if obs.barter[0] == me and offers else hands[obs.barter[0]][0]
    return cards


def _discard_pile(view: SeatView) -> list[Card]:
    """The face-up discard pile as the seat saw it laid (jaques), top last."""
    if view.obs.family != "discard":
        return []
    pile = list(view.opening)
    stock = 52 - 3 * len(view.obs.active) - len(view.opening)
    for seen in view.log:
        event = seen.event
        if event.kind == "draw":
            if stock == 0:
                stock = len(pile) - 1
                pile = pile[-1:]
            stock -= 1
        elif event.kind == "take_discard":
            pile.pop()
        pile.extend(event.given)
    return pile


# -------------------------------------------------------------- building a deal
class _Builder:
    """Turns sampled card placements into a live deal at the seat's present."""

    def __init__(self, view: SeatView) -> None:
        obs = view.obs
        self.view = view
        self.obs = obs
        rules = obs.rules
        deck = list(range(52))
        self.template: DealBase
        if obs.family == "trade":
            self.template = TradeDeal(rules, obs.n_seats, obs.dealer, deck, final=view.final)
        elif obs.family == "widow":
            lives = [1 if s in obs.active else 0 for s in range(obs.n_seats)]
            self.template = WidowDeal(rules, obs.n_seats, obs.dealer, deck,
                                      lives=lives if rules.lives else None,
                                      horse_available=obs.horse_available, first=False,
                                      final=view.final)
        else:
            assert obs.chips is not None
            chips = [obs.chips[s] - obs.delta[s] for s in range(obs.n_seats)]
            self.template = DiscardDeal(rules, obs.n_seats, obs.dealer, deck, chips=chips,
                                        carried_pots=obs.pots, first=False, final=view.final)
        filler: Operation = Knock(view.seat)
        self.operations: list[Operation] = [filler] * obs.moves
        if tuple(self.template.active) != tuple(obs.active):
            raise ValueError("the view's seats in play do not match its rules")

    def build(self, cards: _Cards, seed: int) -> DealBase:
        obs = self.obs
        me = self.view.seat
        deal = copy.copy(self.template)
        hands = [list(h) for h in cards.hands]
        if obs.hand is not None:
            hands[me] = list(obs.hand)
        deal.hands = hands
        deal.delta = list(obs.delta)
        deal.movements = []
        deal.operations = list(self.operations)
        deal.events = []
        deal.exposed = set()
        deal.last_event = obs.last_event
        deal.showdown = None
        deal.voided = False
        deal.game_winners = ()
        deal.turn = obs.turn
        if isinstance(deal, TradeDeal):
            deal.stock = deque(cards.bag + cards.queue)
            deal.waste = list(cards.waste)
            deal.pool = obs.pool
            deal.pending = None
            if obs.barter is not None:
                assert cards.pending is not None
                if obs.barter[0] == me:  # never the seat's decision: its knock flag is not kept
                    deal.pending = BarterOffer(me, cards.pending, False)
                else:
                    deal.pending = self._barter(deal, obs.barter[0], cards.pending)
        elif isinstance(deal, WidowDeal):
            deal.widow = list(obs.widow or ())
            deal.stock = list(cards.bag)
            deal.pool = obs.pool
            deal.lives = None if obs.lives is None else list(obs.lives)
            if obs.lives is not None:  # lives change only at the showdown
                deal.lives_in = tuple(
                    n + (1 if obs.phase == "horse" and s == obs.to_act else 0)
                    for s, n in enumerate(obs.lives))
            deal.stood = list(obs.stood)
            deal.phase = obs.phase
            deal.horse_available = obs.horse_available
            deal.horse_buyer = None
            deal.loser = None
            deal.ended_by = None
            deal.knocker = None
            deal.winner = None
            deal.pool_won = 0
            deal.scores = ()
            deal._first_payment = 0
            sd = obs.showdown
            if obs.phase == "horse" and sd is not None:  # the showdown is behind
                deal.showdown = sd
                deal.loser = obs.to_act
                deal.scores = sd.scores
                deal.winner = sd.winner
                deal.ended_by = sd.ended_by
                deal.knocker = sd.knocker
                deal.pool_won = sd.pool_won
        else:
            assert isinstance(deal, DiscardDeal)
            deal.discard = list(cards.discard)
            deal.stock = deque(cards.bag)
            deal.pot_values = list(obs.pots)
            deal.drawn = obs.drawn
            deal.pending = None
            if obs.offer is not None:
                assert obs.offered_card is not None
                deal.pending = Offer(obs.offer[0], obs.offer[1], obs.offered_card)
                deal.offer_on_turn = obs.offer[0] == obs.turn
            deal.knocker = obs.knocker
            deal.final_turns = obs.final_turns
            deal.passes = obs.passes
            deal.reshuffles = obs.reshuffles
            deal.rng = random.Random(seed)
        return deal


    @staticmethod
    def _barter(deal: TradeDeal, offerer: int, card: Card) -> BarterOffer:
        """The barter waiting for the seat's answer: which card it is and whether
        the offerer knocks with it (hoyle) are hidden; in this world they are
        what ``normal`` would have offered from the offerer's hand, else the
        sampled ``card`` without a knock."""
        guess = normal.choose(deal.observation(offerer))
        if guess.kind == "barter" and guess.card is not None:
            return BarterOffer(offerer, guess.card, guess.knock)
        return BarterOffer(offerer, card, False)


def world(view: SeatView, rng: random.Random) -> DealBase:
    """One sampled world as a live deal (tests and tools)."""
    return _Builder(view).build(sample_world(view, rng), rng.randrange(1 << 30))


def check_world(view: SeatView, deal: DealBase) -> None:
    """Assert that a world shows the seat exactly what it sees (tests)."""
    assert sorted(deal.cards_in_play()) == list(range(52)), "cards lost or doubled"
    mine = deal.observation(view.seat)
    obs = view.obs
    assert mine.hand == obs.hand or obs.hand is None, (mine.hand, obs.hand)
    for field in ("stock_count", "waste_count", "shown_waste", "widow", "discard_top",
                  "discard_count", "legal", "to_act", "pool", "delta", "stood", "drawn",
                  "offered_card", "barter", "offer", "phase", "moves"):
        assert getattr(mine, field) == getattr(obs, field), (field, getattr(mine, field),
                                                               getattr(obs, field))


# ------------------------------------------------------------------- candidates
def candidates(view: SeatView, deal: DealBase) -> list[Decision]:
    """Every legal decision of the seat in ``deal`` (a world: ``choices`` uses
    only what the seat may see), without repeats."""
    me = view.seat
    out: list[Decision] = []
    for action in view.obs.legal:
        for decision in deal.choices(me, action):
            if decision not in out:
                out.append(decision)
    return out


def _static(obs: Observation, decision: Decision) -> float:
    """A quick rating used only to trim long candidate lists (higher is better)."""
    hand = obs.hand or ()
    ranking = obs.rules.ranking
    if decision.kind == "swap":
        after = [c for c in hand if c not in decision.give] + list(decision.take)
        return normal.percentile(score(after, ranking), ranking)
    if decision.card is not None and len(hand) == 3:
        kept = tuple(c for c in hand if c != decision.card)
        gain = {"take_discard": obs.discard_top, "draw_keep": obs.drawn,
                "accept": obs.offered_card}.get(decision.kind)
        if gain is not None:
            return normal.percentile(score((*kept, gain), ranking), ranking)
        total = 0.0
        for c in range(52):
            if c not in hand:
                total += normal.percentile(score((*kept, c), ranking), ranking)
        return total / 49
    return 1.0


def _trim(obs: Observation, options: list[Decision], keep: Decision) -> list[Decision]:
    if len(options) <= MAX_CANDIDATES:
        return options
    plain = [d for d in options if d.card is None and not d.give]
    rated = sorted((d for d in options if d not in plain), key=lambda d: -_static(obs, d))
    out = plain + rated[: max(MAX_CANDIDATES - len(plain), 2)]
    if keep not in out:
        out.append(keep)
    return [d for d in options if d in out]


# --------------------------------------------------------------------- playouts
def playout(deal: DealBase, seat: int, first: Decision, policy: Policy,
            stop: Callable[[], bool] | None = None,
            score: Callable[[DealBase, int], float] = outcome) -> float:
    """Apply ``first`` for ``seat``, let ``policy`` play every seat to the end of
    the deal, and return ``score`` for ``seat`` (``outcome``, or ``game_outcome``).

    Raises:
        TimeoutError: ``stop()`` (asked every ``CLOCK_EVERY`` moves) answered
            true before the deal ended; ``deal`` is left part-played.
    """
    deal.act(seat, first)
    moves = 0
    while not deal.finished and moves < MAX_PLAYOUT_MOVES:
        if stop is not None and moves % CLOCK_EVERY == CLOCK_EVERY - 1 and stop():
            raise TimeoutError("the search's deadline passed during a playout")
        actor = deal.to_act
        assert actor is not None
        deal.act(actor, policy(deal.observation(actor)))
        moves += 1
    return score(deal, seat)


def _horse(obs: Observation, game: bool = GAME) -> Decision:
    """The horse ends the deal at once: buy when a life is worth its price —
    with ``game``, when one more life is worth at least the price to the rest
    of the game (``prospects.horse_gain``; a tie buys, as before), else when
    ``LIFE_VALUE`` is."""
    gain = None
    if game and obs.lives is not None and obs.seat is not None:
        gain = prospects.horse_gain(obs.rules, obs.lives, obs.seat, obs.pool)
    if gain is None:
        gain = LIFE_VALUE - obs.rules.horse_price
    return Decision("buy_horse" if gain >= 0 else "decline_horse")


def _late(obs: Observation) -> bool:
    return obs.moves // max(len(obs.active), 1) >= 2 * normal.LATE_CIRCUITS


def choose(view: SeatView, rng: random.Random | None = None, budget: Budget | None = None,
           rollout: str = ROLLOUT, *, clock: Clock = time.perf_counter,
           overrule: bool = True, game: bool = GAME) -> Decision:
    """Decide for ``view.seat`` (which must be the seat to act) by determinised
    Monte Carlo; see the module docstring.

    Args:
        view: what the seat knows (``view.seat_view(deal, seat)``).
        rng: the random source of the worlds (default: a fresh unseeded one).
        budget: playouts and/or seconds (default ``DEFAULT_BUDGET``).
        rollout: the policy of the playouts (``patient``, ``normal`` or ``easy``);
            ``normal.patient``'s choice (else ``normal``'s) stands unless the playouts
            find a better one (``CONFIDENCE``).
        clock: seconds on a monotonic clock, for ``budget.seconds`` (tests
            pass a fake one).
        overrule: where the equilibrium table covers the state, search with the
            table's decision as the default (``TABLE_CONFIDENCE``); ``False``:
            answer from the table at once (the arena's ``table`` seat).
        game: score the playouts with the game's standing (``game_outcome``) and
            decide the horse by it (the arena's ``gamewise`` seat); ``False``: by
            the deal alone (``outcome``, the arena's ``dealwise`` seat). Default
            ``GAME`` (off).

    Returns:
        A legal decision: past the deadline, the best over the worlds every
        live candidate finished (the rollout policy's choice if none did).

    Raises:
        ValueError: not this seat's decision.
    """
    start = clock()
    obs = view.obs
    if obs.seat is None or obs.to_act != obs.seat or obs.finished:
        raise ValueError("the AI can only decide for the seat to act")
    if "buy_horse" in obs.legal:
        return _horse(obs, game)
    table = None
    if USE_EQUILIBRIUM and obs.family == "trade":  # the short trade presets: a solved table
        rng = rng if rng is not None else random.Random()
        table = equilibrium.choose(view, rng)
        if table is not None and not overrule:
            return table
    default = table if table is not None else (
        normal.patient(obs) if rollout == "patient" else normal.choose(obs))
    if default.kind == "pounce":
        return default  # four of a kind beats every hand: nothing to weigh
    search = _Search(view, rng if rng is not None else random.Random(), budget or DEFAULT_BUDGET,
                     ROLLOUTS[rollout], start, clock, game_outcome if game else outcome)
    options = search.options(default)
    if default not in options:
        if table is not None:  # the table's card is not one of the trimmed candidates
            options = [table, *options[: MAX_CANDIDATES - 1]]
        else:
            default = options[0]
    if len(options) == 1:
        return options[0]
    confidence = TABLE_CONFIDENCE if table is not None else CONFIDENCE
    return search.run(options, default, confidence)


class _Search:
    """Successive halving over the candidates, on shared sampled worlds."""

    def __init__(self, view: SeatView, rng: random.Random, budget: Budget, policy: Policy,
                 start: float, clock: Clock = time.perf_counter,
                 score: Callable[[DealBase, int], float] = outcome) -> None:
        self.view = view
        self.score = score
        self.rng = rng
        self.policy = policy
        self.builder = _Builder(view)
        self.needs = _Needs(view)
        self.model = _Model(view) if USE_MODEL else None
        self.clock = clock
        self.deadline = None if budget.seconds is None else start + budget.seconds
        self.cap = RESERVE_SHARE * (budget.seconds or 0.0)
        self.looked = start  # the last look at the clock
        self.reserve = 0.0  # the longest gap between two looks, at most ``cap``
        self.limit = budget.playouts
        self.worlds: list[tuple[_Cards, int]] = []
        self.played = 0

    def world(self, index: int) -> tuple[_Cards, int]:
        """The ``index``-th sampled world (sampled on first use) and its seed."""
        while len(self.worlds) <= index:
            stop = None if self.deadline is None else self.late
            self.worlds.append((sample_world(self.view, self.rng, self.needs, self.model, stop),
                                self.rng.randrange(1 << 30)))
        return self.worlds[index]

    def options(self, default: Decision) -> list[Decision]:
        """The candidates: every legal decision (only stops once the deal runs
        very long), trimmed to ``MAX_CANDIDATES``."""
        obs = self.view.obs
        options = candidates(self.view, self.builder.build(*self.world(0)))
        if _late(obs):
            options = [d for d in options if d.kind in ("knock", "stand", "pass")] or options
        return _trim(obs, options, default if default in options else options[0])

    def out_of_budget(self) -> bool:
        """The playouts are spent or the deadline has passed."""
        if self.limit is not None and self.played >= self.limit:
            return True
        return self.late()

    def late(self) -> bool:
        """The deadline has passed, or the next step, as long as the longest gap
        between two looks at the clock so far (``RESERVE_SHARE``), would pass it."""
        if self.deadline is None:
            return False
        now = self.clock()
        self.reserve = min(self.cap, max(self.reserve, now - self.looked))
        self.looked = now
        return now + self.reserve > self.deadline

    def play(self, index: int, alive: list[Decision]) -> list[float] | None:
        """Every live candidate played out in world ``index`` (``None``: out of
        budget before the last one finished; its playouts are dropped)."""
        if self.out_of_budget():
            return None
        cards, seed = self.world(index)
        stop = None if self.deadline is None else self.late
        values = []
        for decision in alive:
            if self.out_of_budget():
                return None
            try:
                value = playout(self.builder.build(cards, seed), self.view.seat, decision,
                                self.policy, stop, self.score)
            except TimeoutError:
                return None
            values.append(value)
            self.played += 1
        return values

    def run(self, options: list[Decision], default: Decision,
            confidence: float = CONFIDENCE) -> Decision:
        """Play rounds of worlds, halving the candidates after each; then pick
        (``default`` stands unless beaten by ``confidence`` standard errors)."""
        results: dict[Decision, list[float]] = {d: [] for d in options}
        alive = list(options)
        rounds = max(1, math.ceil(math.log2(len(alive))))
        total = self.limit if self.limit is not None else 1 << 30
        index = 0
        for round_number in range(rounds):
            share = max(1, (total - self.played) // ((rounds - round_number) * len(alive)))
            for _ in range(share):
                values = self.play(index, alive)
                if values is None:
                    return _pick(alive, results, default, confidence)
                for decision, value in zip(alive, values, strict=True):
                    results[decision].append(value)
                index += 1
            if round_number < rounds - 1:
                ranked = sorted(alive, key=lambda d: -_mean(results[d]))
                keep = ranked[: max(2, (len(ranked) + 1) // 2)]
                alive = [d for d in alive if d in keep or d == default]
        return _pick(alive, results, default, confidence)


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else float("-inf")


def _pick(alive: list[Decision], results: dict[Decision, list[float]], default: Decision,
          confidence: float = CONFIDENCE) -> Decision:
    """The best mean over the worlds every live candidate played, if it beats
    ``default`` by more than ``confidence`` standard errors (paired)."""
    common = min(len(results[d]) for d in alive)
    if common == 0:
        return default
    best = max(alive, key=lambda d: (_mean(results[d][:common]), d == default))
    if best == default:
        return default
    diffs = [a - b for a, b in zip(results[best][:common], results[default][:common], strict=True)]
    mean = _mean(diffs)
    if common < 2:
        return best if mean > 0 else default
    var = sum((x - mean) ** 2 for x in diffs) / (common - 1)
    return best if mean > confidence * math.sqrt(var / common) else default
