"""The fair shuffle's own requests (docs/FAIRNESS.md "In the bot"): a member's cut
of the next deal, the fair-shuffle message remembered once posted, and a game seed
for a lobby opened before one seed covered a whole game. Dealing from the seed is
the core's (``ServiceBase._deal``).
"""

from __future__ import annotations

import dataclasses

from ..engine.fairness import CutError, cut_text
from ..i18n import _
from ..storage import ShuffleEvent
from .core import ServiceBase
from .errors import UserError
from .live import LiveTable
from .outcome import Moment, Outcome
from .refusals import refusal


class Shuffles(ServiceBase):
    """Cuts and the commitment (part of ``TableService``)."""

    async def commitment_posted(self, table_id: int, message_id: int) -> LiveTable:
        """The fair-shuffle message showing the game's commitment is posted as
        ``message_id``: remember it, durably (the game can start only once it is
        known; it never changes afterwards). A second call changes nothing.

        Raises:
            UserError: no such open table.
            StorageFailure: it could not be stored (Start waits for it).
        """
        async with self.lock(table_id):
            live = self.get(table_id)
            if live.row.commitment_message_id is None:
                async with self._unit(table_id):
                    await self.storage.set_commitment_message(table_id, message_id)
                    live.row = dataclasses.replace(live.row, commitment_message_id=message_id)
            return live

    async def ensure_seed(self, table_id: int) -> LiveTable:
        """A lobby opened before one seed covered a whole game gets its game seed
        now (before its commitment is posted); any other table is left as it is.

        Raises:
            UserError: no such open table.
            StorageFailure: nothing changed.
        """
        async with self.lock(table_id):
            live = self.get(table_id)
            if live.row.status == "lobby" and live.row.game_commitment is None:
                async with self._unit(table_id):
                    await self._commit_game(live)
            return live

    async def cut(self, table_id: int, member_id: int, raw: str) -> Outcome:
        """A seated member cuts the table's next deal with the text ``raw`` they
        typed (``fairness.cut_text``): it joins that deal's shuffle, after the
        commitment was posted and before the deal is dealt (docs/FAIRNESS.md "In
        the bot"). Returns its ``Outcome``: ``cut`` holds the deal's number and
        the cut as used.

        Raises:
            UserError: not seated, the commitment not posted yet, a game begun
                before fair cuts, no deal left, already cut this deal, or a text
                a cut may not be.
            StorageFailure: nothing changed.
        """
        async with self.lock(table_id):
            live = self.get(table_id)
            if live.seat_of(member_id) is None:
                raise UserError(_("Only players seated at this table can cut."))
            if live.row.game_commitment is None or (
                    live.game is not None and live.game.shuffler is None):
                raise UserError(_("This game began before players could cut: its deals are "
                                  "dealt as before."))
            if live.row.commitment_message_id is None:
                raise UserError(_("Cuts open once the fair-shuffle message is posted: try "
                                  "again in a moment."))
            game = live.game
            number = live.next_number
            if game is not None and (game.complete or (
                    game.deals_total is not None and number > game.deals_total)):
                raise UserError(_("This game has no deal left to cut."))
            done = [text for member, text in live.cuts_for(number) if member == member_id]
            if done:
                raise UserError(_("You already cut deal {number} with `{cut}`.").format(
                    number=number, cut=done[0]))
            try:
                text = cut_text(raw)
            except CutError as exc:
                raise UserError(refusal(exc)) from None
            before = Moment.of(live)
            async with self._unit(table_id):
                await self.storage.add_cut(table_id, number, member_id, text)
                live.events.append(ShuffleEvent(0, "cut", number, member_id=member_id,
                                                text=text))
            return Outcome(live, before, cut=(number, text))
