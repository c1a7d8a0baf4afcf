"""Actions at a running table: a member's decision checked and applied, the
next deal, the turn timer's move for a slow player, and a seat taken back
from the AI.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from ..engine import AnyDeal, Decision, IllegalAction, Observation, choices, coach
from ..engine import easy as engine_easy
from ..engine.actions import ANSWERS
from ..i18n import _
from .core import ServiceBase
from .errors import OutOfDate, UserError
from .live import LiveTable
from .outcome import Answered, Moment, Outcome
from .refusals import refusal

log = logging.getLogger(__name__)


class Hint(str):
    """The coach's hint as the game record keeps it (English: "Knock — your
    sequence to 8 wins about 83% of showdowns here."), with what it was made of,
    for the UI to word it in the member's language: ``advice``
    (``coach.Advice``) and ``obs``, the member's observation it was made for."""

    advice: coach.Advice
    obs: Observation


class Actions(ServiceBase):
    """Moves at a running table (part of ``TableService``)."""

    async def next_deal(self, table_id: int, after: int) -> Outcome:
        """Deal the next hand once deal number ``after`` is over (idempotent: a
        second call for the same ``after`` is refused), whoever asks (Next deal,
        the timer): it uses the cuts members made for it (docs/FAIRNESS.md "In the
        bot"). Returns what changed (the deal dealt, with the AI's first moves).

        Raises:
            UserError: the deal is not over, already dealt, or the game is over.
            StorageFailure: nothing was dealt (the deal can be dealt again, from the
                next attempt).
        """
        async with self.lock(table_id):
            live = self.get(table_id)
            if live.game is None or live.deal_number != after or live.game.current is not None:
                raise UserError(_("The next deal has already started."))
            if live.game.complete:
                raise UserError(_("This game is over."))
            before = Moment.of(live)
            await self._deal_next(live)
            return Outcome.of(live, before)

    async def act(self, table_id: int, member_id: int, deal_number: int, decision: Decision,
                  seq: int | None = None,
                  prepare: Callable[[Outcome], object] | None = None,
                  ) -> Outcome:
        """Apply a player's decision and let AI seats answer (docs/RULES.md §2:
        ``deal.act`` of the table's family).

        Args:
            table_id: the table.
            member_id: the member who acts (their seat is the one that moves).
            deal_number: the deal the control belongs to (stale controls are refused).
            decision: what the player chose (``bot.engine.choices.decide`` turns a
                control and its select value into one).
            seq: the number of operations the control was issued after, when it
                carries one (card selects): a used or outdated select is refused.
            prepare: called with the outcome while the move's commit is on the
                database's side (``Storage.while_committing``), under the table's
                lock: to draw the answer meanwhile. It must change nothing; what it
                makes is for after this returns (on a failure it is dropped).

        Returns:
            what changed: the player's own operation (``own``), then the AI's,
            the offer it answered (``answered``), the player's view just before
            (``seen_before``).

        Raises:
            UserError: not seated, stale control, not your turn, a card not held,
                anything the rules do not allow now.
            StorageFailure: nothing changed.
        """
        async with self.lock(table_id):
            live, seat, deal = self._control(table_id, member_id, deal_number, seq)
            before = Moment.of(live)
            seen = deal.observation(seat)
            async with self._unit(table_id):
                try:
                    op = deal.act(seat, decision)
                except IllegalAction as exc:  # checked before anything changes
                    raise UserError(refusal(exc)) from None
                await self._persist(live, op, member_id)
                if live.seats[seat].timeouts:
                    await self.storage.set_seat_state(table_id, seat, timeouts=0)
                    live.set_seat(seat, timeouts=0)
                await self._run_ai(live)
                outcome = Outcome.of(live, before, own=op, decision=decision,
                                     answered=self._answered(before, seat), seen_before=seen)
                if prepare is not None:
                    self.storage.while_committing(lambda: prepare(outcome))
            return outcome

    @staticmethod
    def _answered(before: Moment, seat: int) -> Answered | None:
        """The offer waiting at ``before`` that ``seat``'s decision answered."""
        if before.offer is None:
            return None
        seq, answers = before.offer
        return Answered(before.deal, seq, seat, answers)

    async def hint(self, table_id: int, member_id: int, deal_number: int,
                   seq: int) -> tuple[LiveTable, Hint]:
        """The coach's hint for the member's own decision now (docs/AI.md
        "Coach"): the strong AI's choice from the member's view only, with one
        line of reason, e.g. "Knock — your sequence to 8 wins about 83% of
        showdowns here". The hint is recorded with the deal (it shows in the game
        record). The table waits while the coach thinks (about 0.2 s); other
        tables do not.

        Raises:
            UserError: the table has the coach off, not the member's decision, a
                stale panel, or the coach could not answer in time.
            StorageFailure: the hint could not be recorded (nothing is shown).
        """
        async with self.lock(table_id):
            live, seat, deal = self._control(table_id, member_id, deal_number, seq)
            if not live.row.coach:
                raise UserError(_("The coach is off at this table."))
            if deal.finished or deal.to_act != seat:
                raise UserError(_("A hint is for your own decision: wait for your turn."))
            try:
                advice = await self.players.advise(deal, seat)
            except Exception:
                log.warning("table %s: the coach did not answer", table_id, exc_info=True)
                raise UserError(_("The coach is thinking too slowly right now; "
                                  "try again in a moment.")) from None
            obs = deal.observation(seat)
            names = {s.seat: s.name for s in live.seats}
            text = choices.label(advice.decision, obs, lambda s: names.get(s, "?"))
            verb = advice.decision.kind.replace("_", " ")
            if text == verb:
                what = verb
            elif advice.decision.kind == "swap":
                what = f"{verb} ({text.replace(' · ', ', ')})"
            else:
                what = f"{verb} {text}"
            line = Hint(f"{what[:1].upper()}{what[1:]} — {coach.explain(advice, obs)}.")
            line.advice, line.obs = advice, obs
            async with self._unit(table_id):
                await self.storage.add_hint(live.deal_key, len(deal.operations), seat,
                                            member_id, what, coach.explain(advice, obs))
            return live, line

    def _control(self, table_id: int, member_id: int, deal_number: int,
                 seq: int | None) -> tuple[LiveTable, int, AnyDeal]:
        """The table, the member's seat and the deal a control acts on.

        Raises:
            TableGone: the table is not open.
            NotSeated: the member is not seated there.
            OutOfDate: a control of an earlier deal (``earlier_deal``), or one
                that is out of date (``seq`` is the operation count it was issued at).
        """
        live = self.get(table_id)
        seat = live.seated(member_id)
        deal = live.deal
        if deal is None or live.deal_number != deal_number:
            raise OutOfDate(_("That button belongs to an earlier deal."), earlier_deal=True)
        if seq is not None and seq != len(deal.operations):
            raise OutOfDate(_("That choice is out of date: press My hand to see where things "
                              "stand."))
        return live, seat, deal

    def verify(self, table_id: int, member_id: int, deal_number: int, kind: str,
               seq: int | None = None) -> LiveTable:
        """Check, without changing anything, that ``member_id`` may start ``kind``
        now (used before showing a card select).

        Raises:
            UserError: as ``act`` would.
        """
        live, seat, deal = self._control(table_id, member_id, deal_number, seq)
        if kind in deal.legal_actions(seat):
            return live
        if deal.finished:
            raise UserError(_("This deal is already over."))
        if deal.to_act != seat:
            if deal.to_act is not None and live.deal is deal and deal.pending is not None:
                if kind in ANSWERS:  # someone else's offer: as a Refuse pressed there is told
                    raise UserError(_("No barter is waiting for your answer."))
                raise UserError(_("Wait: an offer is waiting for an answer."))
            raise UserError(_("It is not your turn."))
        raise UserError(_("You cannot do that now."))

    # ----------------------------------------------------- presence (issue 3)
    async def timeout(self, table_id: int, deal_number: int, seq: int,
                      away_after: int = 2) -> Outcome | None:
        """The turn timer ran out for the seat to act at (``deal_number``, ``seq``):
        the AI plays that decision (a barter answer is an accept with the AI's
        card) and the seat's timeouts grow; at ``away_after`` in a row the seat is
        marked away. Returns what changed (``timed_out``: the seat; ``answered``:
        the offer it answered), or ``None`` (and changes nothing) when the moment
        has passed. One transaction.

        Raises:
            StorageFailure: nothing changed; the timer may try again.
        """
        async with self.lock(table_id):
            live = self.tables.get(table_id)
            deal = live.deal if live else None
            if (live is None or deal is None or deal.finished or live.deal_number != deal_number
                    or len(deal.operations) != seq):
                return None
            seat = deal.to_act
            assert seat is not None
            if live.is_ai(seat):
                return None
            own_turn = seat == deal.turn and deal.pending is None
            before = Moment.of(live)
            async with self._unit(table_id):
                # the AI finishes the whole move (a jaques draw is followed by keep or
                # throw), but never spends the absent player's points on a horse
                for _ in range(3):
                    decision = engine_easy.choose(deal.observation(seat))
                    if decision.kind == "refuse" and "refuse" in deal.controls(seat).answers:
                        # refusing would knock and end the deal for them: accept instead
                        decision = Decision("accept", engine_easy.worst_card(tuple(deal.hands[seat])))
                    if decision.kind == "buy_horse":
                        decision = Decision("decline_horse")
                    op = deal.act(seat, decision)
                    await self._persist(live, op, None)
                    if deal.finished or deal.to_act != seat or deal.drawn is None:
                        break
                if own_turn:  # answering someone else's offer never marks a seat away
                    timeouts = live.seats[seat].timeouts + 1
                    away = True if timeouts >= away_after else None
                    await self.storage.set_seat_state(table_id, seat, timeouts=timeouts,
                                                      away=away)
                    live.set_seat(seat, timeouts=timeouts, away=away)
                await self._run_ai(live)
            return Outcome.of(live, before, timed_out=seat,
                              answered=self._answered(before, seat))

    async def back(self, table_id: int, member_id: int) -> Outcome:
        """The member takes their seat back from the AI; returns what changed.

        Raises:
            UserError: not seated, or not away.
            StorageFailure: nothing changed.
        """
        async with self.lock(table_id):
            live = self.get(table_id)
            seat = live.seated(member_id)
            if not live.seats[seat].away:
                raise UserError(_("You are not marked away."))
            async with self._unit(table_id):
                await self.storage.set_seat_state(table_id, seat, away=False, timeouts=0)
                live.set_seat(seat, away=False, timeouts=0)
            return Outcome.of(live, Moment.of(live))
