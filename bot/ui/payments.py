"""Each deal's payments itemised by reason: what every seat paid and got, and why.

A deal records every movement of points or chips with its reason
(``deal.movements``: antes, stakes, trade fees, the pool, the dealer's
penalty, the horse, knock chips, lowest hands, dead-knock fines, pots and
sweeps; docs/RULES.md §1.6, §2.1–§2.7). Here they are summed per seat and
reason, and written in players' words (``words.reason_words``), e.g.
``"+5 points (pool 6, ante −1)"``. Lives (oldway, §2.6) are no movement: the
weakest hand's lost life and a bought horse's life are told beside them.

Amounts of money are public (every payment follows from public moves and the
showdown), so these lines may appear in public messages.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine import AnyDeal, Observation
from ..i18n import _
from .words import amount, plural, reason_words, signed


@dataclass(frozen=True)
class Item:
    """One reason of a seat's change: ``amount`` (signed: points or chips; lives
    for ``life`` and ``horse_life``) summed over ``count`` movements, and the
    pot it went to or came from (three-stake wins, ``pot``)."""

    reason: str
    amount: int
    count: int = 1
    pot: int = 0


@dataclass(frozen=True)
class Tally:
    """What one deal did to one seat.

    Attributes:
        seat: the seat.
        total: the change in points (chips in jaques): the deal's ``delta``.
        items: ``total`` by reason, in the order the deal first moved them.
        lives: the change in lives by reason (oldway), else empty.
        chips: the game counts chips rather than points.
        pots: how many pots the game plays with (three-stake: 3).
    """

    seat: int
    total: int
    items: tuple[Item, ...]
    lives: tuple[Item, ...] = ()
    chips: bool = False
    pots: int = 1

    @property
    def unit(self) -> str:
        """``point`` or ``chip``: what ``total`` counts."""
        return "chip" if self.chips else "point"

    def words(self, item: Item) -> str:
        """``item`` in plain words with its amount: ``"trade fees −2"``, ``"pool 6"``."""
        noun = reason_words(item.reason, item.count, pot=item.pot, pots=self.pots,
                            chips=self.chips)
        return f"{noun} {amount(item.amount)}"

    def items_text(self) -> str:
        """The reasons, then the lives: ``"stake −3 · lives: weakest hand −1"``
        (empty when nothing moved)."""
        text = ", ".join(self.words(i) for i in self.items)
        if self.lives:
            lives = _("lives: ") + ", ".join(self.words(i) for i in self.lives)
            text = f"{text} · {lives}" if text else lives
        return text

    def text(self) -> str:
        """The whole change: ``"+5 points (pool 6, ante −1)"``, ``"−2 chips (stake
        −1, knock chip −1)"``, ``"±0 points"``; with lives ``"… · −1 life
        (weakest hand −1)"``."""
        text = f"{signed(self.total)} {plural(abs(self.total), self.unit, number=False)}"
        if self.items:
            text += " (" + ", ".join(self.words(i) for i in self.items) + ")"
        if self.lives:
            change = sum(i.amount for i in self.lives)
            text += (f" · {signed(change)} {plural(abs(change), 'life', number=False)} ("
                     + ", ".join(self.words(i) for i in self.lives) + ")")
        return text


def tallies(deal: AnyDeal) -> list[Tally]:
    """Every seat's change in ``deal`` so far (a finished deal: its result), by
    reason. Each tally's items add up to its ``total``, which is ``deal.delta``
    of that seat; a voided deal moved nothing (its stakes were refunded).

    Args:
        deal: a deal of any family (its ``movements``, ``delta``, ``showdown``).

    Returns:
        one ``Tally`` per seat, in seat order.
    """
    obs = deal.observation(None)  # made once per state of the deal: it keys the last result
    if _last and _last[0][0] is deal and _last[0][1] is obs:
        return list(_last[0][2])
    found = _tallies(deal, obs)
    _last[:] = [(deal, obs, tuple(found))]
    return found


#: the last deal ``tallies`` was asked for, its public observation then (a new one
#: is made whenever the deal changes: ``DealBase.observation``) and its tallies:
#: a showdown's picture and its embed ask for the same
_last: list[tuple[AnyDeal, Observation, tuple[Tally, ...]]] = []


def _tallies(deal: AnyDeal, obs: Observation) -> list[Tally]:
    """``tallies`` made afresh, from ``obs``, the deal's public observation."""
    chips, pots = obs.chips is not None, max(1, len(obs.pots))
    grouped: list[dict[tuple[str, int], list[int]]] = [{} for _ in range(deal.n)]
    for m in deal.movements:
        key = (m.reason, m.pot if m.reason == "pot" else 0)
        for seat, sign in ((m.payer, -1), (m.payee, 1)):
            if seat is not None and m.amount:
                entry = grouped[seat].setdefault(key, [0, 0])
                entry[0] += sign * m.amount
                entry[1] += 1
    lives: list[list[Item]] = [[] for _ in range(deal.n)]
    sd = deal.showdown
    if sd is not None and sd.lives is not None:
        for seat in sd.losers:
            lives[seat].append(Item("life", -1))
        if sd.horse is not None:
            lives[sd.horse].append(Item("horse_life", 1))
    return [Tally(seat, deal.delta[seat],
                  tuple(Item(reason, total, count, pot)
                        for (reason, pot), (total, count) in grouped[seat].items() if total),
                  tuple(lives[seat]), chips, pots)
            for seat in range(deal.n)]
