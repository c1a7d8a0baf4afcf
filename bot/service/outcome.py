"""What a state change of the table service did: its ``Outcome``, which every
public coroutine that changes a table returns. ``bot.changes.after.AfterChange`` turns
it into messages, panels and timers, the same for every caller (a command, a
control, a timer, the watch).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..engine import Decision, Observation, Operation
from .live import LiveTable


@dataclass(frozen=True)
class Moment:
    """Where a table stood before a change: its status, deal number (0: none
    yet), the deal's operation count, whether that deal was over, and the offer
    waiting for an answer (its operation count and the answers it allowed)."""

    status: str
    deal: int
    operations: int
    finished: bool
    offer: tuple[int, tuple[str, ...]] | None

    @staticmethod
    def of(live: LiveTable) -> Moment:
        """The moment ``live`` stands at now."""
        deal = live.deal
        if deal is None:
            return Moment(live.row.status, live.deal_number, 0, False, None)
        offer = ((len(deal.operations), tuple(deal.controls().answers))
                 if deal.pending is not None and not deal.finished else None)
        return Moment(live.row.status, live.deal_number, len(deal.operations),
                      deal.finished, offer)


@dataclass(frozen=True)
class Answered:
    """An offer the change answered: of deal ``deal``, made at operation count
    ``seq``, by the ``seat`` it was made to; ``answers``: the answers it allowed
    (``accept`` with ``refuse`` for a barter, ``decline`` for a direct trade)."""

    deal: int
    seq: int
    seat: int
    answers: tuple[str, ...]


@dataclass(frozen=True)
class Outcome:
    """What one state change of a table did.

    Attributes:
        live: the table as committed (open, or ended and still to be shown).
        before: where it stood before the change.
        ops: the operations the change appended, in order: the member's own
            first (``own``), then the AI seats' answers; those of a new deal
            when one was dealt.
        own: the member's own operation (``act``), else ``None``.
        decision: what the member (or, on a timeout, the AI for them) decided.
        answered: the offer the change's own decision answered, if any.
        timed_out: the seat the AI played for because its time ran out.
        delay_changed: the table's next-deal delay changed.
        unseen: the table ended because its channel is gone: nothing can be
            shown there any more.
        rebuilt: the table was rebuilt from storage (after a failed rebuild):
            its public messages are shown again from scratch.
        emptied: a lobby closed because its last member left it, or (``idle``)
            stood idle; ``None``: not so.
        cut: a member's cut of the next deal: its number and the cut as used
            (docs/FAIRNESS.md "In the bot"); ``None``: no cut.
        seen_before: the acting member's own view of the deal just before their
            move (``act``), read under the table's lock: what the answer to them
            compares the move with, so no caller reads the service before a move.
    """

    live: LiveTable
    before: Moment
    ops: tuple[Operation, ...] = ()
    own: Operation | None = None
    decision: Decision | None = None
    answered: Answered | None = None
    timed_out: int | None = None
    delay_changed: bool = False
    rebuilt: bool = False
    unseen: bool = False
    emptied: str | None = None
    cut: tuple[int, str] | None = None
    seen_before: Observation | None = None
    after: Moment = field(init=False)

    def __post_init__(self) -> None:
        """``after``: where the table stands now."""
        object.__setattr__(self, "after", Moment.of(self.live))

    @staticmethod
    def of(live: LiveTable, before: Moment, **what: Any) -> Outcome:
        """The outcome of a change of ``live`` from ``before``: ``ops`` read from
        the deal (what was appended since), ``what`` the rest (``own``,
        ``decision``, ...)."""
        deal = live.deal
        ops: tuple[Operation, ...] = ()
        if deal is not None:
            start = before.operations if live.deal_number == before.deal else 0
            ops = tuple(deal.operations[start:])
        return Outcome(live, before, ops, **what)

    @property
    def dealt(self) -> bool:
        """A new deal was dealt (the game's first, or the next)."""
        return self.after.deal > self.before.deal

    @property
    def deal_over(self) -> bool:
        """The deal under way before the change is over now (its showdown is due)."""
        deal = self.live.deal
        return (not self.before.finished and self.after.deal == self.before.deal
                and deal is not None and deal.finished)

    @property
    def ended(self) -> bool:
        """The table ended with this change (its game over, or closed)."""
        return self.before.status in ("lobby", "playing") and self.after.status not in (
            "lobby", "playing")

    @property
    def offer_opened(self) -> tuple[int, int] | None:
        """A new offer waits for an answer: ``(deal, seq)``, else ``None``."""
        now = self.after.offer
        if now is None or (self.after.deal == self.before.deal and now == self.before.offer):
            return None
        return self.after.deal, now[0]
