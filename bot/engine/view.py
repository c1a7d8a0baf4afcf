"""What one seat knows of a deal: its observation plus its own memory of the
deal so far (docs/AI.md "What the strong AI knows").

``seat_view(deal, seat)`` is the one place that reads a deal on a seat's
behalf for the AI levels that look back (``strong``). It returns a
``SeatView``: the seat's current ``Observation`` and, for every public event
of the deal, what the seat saw at that moment — the event itself (never a
concealed card), the seat's own hand just after it, and a card shown to that
seat alone (the card it drew, a card offered to it). Nothing else: no other
hand, no stock order, no card another seat traded face down. Two deals that
differ only in cards the seat never saw give equal views.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card
from .discard import DiscardDeal
from .family import DealBase, Observation, PublicEvent
from .operations import BarterOffer, Draw, Offer
from .trade import TradeDeal
from .widow import WidowDeal

__all__ = ["Seen", "SeatView", "seat_view"]


@dataclass(frozen=True)
class Seen:
    """One public event as a seat saw it.

    Attributes:
        event: the public event (what the whole table saw).
        hand: the seat's own hand just after the event (``None`` while an
            oldway dealer has not looked, or for a seat not dealt in).
        card: a card of this event only this seat knows: the card it drew
            (jaques ``draw``), the card offered to it (jaques ``offer``), or
            the card it offered itself (a barter, a jaques offer).
    """

    event: PublicEvent
    hand: tuple[Card, ...] | None
    card: Card | None = None


@dataclass(frozen=True)
class SeatView:
    """Everything one seat knows of a deal.

    Attributes:
        obs: the seat's current observation (``deal.observation(seat)``).
        hand0: the hand dealt to the seat (``None`` for an oldway dealer who has
            not looked yet, or a seat not dealt in).
        opening: the cards laid face up when the deal began (the widow; the
            first discard), in order.
        log: every public event of the deal so far, as the seat saw it.
        final: this deal is the game's last by count (public: the table knows
            which deal it is playing).
    """

    obs: Observation
    hand0: tuple[Card, ...] | None
    opening: tuple[Card, ...]
    log: tuple[Seen, ...]
    final: bool

    @property
    def seat(self) -> int:
        """The seat this view belongs to."""
        assert self.obs.seat is not None
        return self.obs.seat


def _fresh(deal: DealBase) -> DealBase:
    """A copy of ``deal`` as it was dealt (same deck and carried state), no action yet."""
    if isinstance(deal, TradeDeal):
        return TradeDeal(deal.rules, deal.n, deal.dealer, deal.deck,
                         carried_pool=deal.carried_pool, final=deal.final)
    if isinstance(deal, WidowDeal):
        return WidowDeal(deal.rules, deal.n, deal.dealer, deal.deck,
                         carried_pool=deal.carried_pool, lives=deal.lives_in,
                         horse_available=deal.horse_available_in, first=deal.first,
                         final=deal.final)
    assert isinstance(deal, DiscardDeal)
    return DiscardDeal(deal.rules, deal.n, deal.dealer, deal.deck, chips=deal.chips_in,
                       carried_pots=deal.carried_pots, first=deal.first, final=deal.final)


def _hand(deal: DealBase, seat: int) -> tuple[Card, ...] | None:
    if seat not in deal.active:
        return None
    if (isinstance(deal, WidowDeal) and seat == deal.dealer and deal.phase == "choice"
            and deal.rules.blind_widow_choice):
        return None
    return tuple(deal.hands[seat])


def seat_view(deal: DealBase, seat: int) -> SeatView:
    """What ``seat`` knows of ``deal`` now: its observation and its memory of
    every event (the deal is replayed from its deck to recall the seat's hand
    after each one; only what the seat saw is kept).

    Raises:
        ValueError: ``seat`` is not a seat.
    """
    obs = deal.observation(seat)
    replica = _fresh(deal)
    hand0 = _hand(replica, seat)
    if isinstance(replica, WidowDeal):
        opening: tuple[Card, ...] = tuple(replica.widow)
    elif isinstance(replica, DiscardDeal):
        opening = tuple(replica.discard)
    else:
        opening = ()
    log: list[Seen] = []
    for op in deal.operations:
        replica.apply(op)
        card: Card | None = None
        if isinstance(op, Draw) and op.seat == seat:
            card = replica.drawn
        elif isinstance(op, Offer) and op.target == seat:
            card = op.card
        elif isinstance(op, BarterOffer | Offer) and op.seat == seat:
            card = op.card
        log.append(Seen(replica.events[-1], _hand(replica, seat), card))
    final = bool(getattr(deal, "final", False))
    return SeatView(obs, hand0, opening, tuple(log), final)
