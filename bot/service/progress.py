"""Automatic progress: what a table owes without anyone clicking (AI seats to
act, a first deal, a rebuild after a failed write), taken by the watch.
"""

from __future__ import annotations

from .core import ServiceBase
from .errors import STORAGE_ERRORS, StorageFailure
from .outcome import Moment, Outcome


class Progress(ServiceBase):
    """Steps the watch takes for a table (part of ``TableService``)."""

    def due(self, table_id: int) -> bool:
        """Whether the table owes an automatic step: an AI seat (or a member away
        or gone) to act, a started game without its first deal, or a rebuild
        from storage that failed."""
        if table_id in self.stale:
            return True
        live = self.tables.get(table_id)
        if live is None:
            return False
        game = live.game  # read once: the watch asks this of every table every round
        if game is None or live.row.status != "playing":
            return False
        if not game.deals:
            return True
        seat = game.deals[-1].to_act  # None once the deal is finished
        return seat is not None and live.is_ai(seat)

    async def resume(self, table_id: int) -> Outcome | None:
        """Take the automatic step the table owes (see ``due``): rebuild it, deal
        its first hand, or let AI seats play; returns what changed (a rebuilt
        table's, from where it stood before its rebuild failed: nothing), or
        ``None`` when nothing was owed or the table is not open.

        Raises:
            StorageFailure: nothing changed; try again later.
        """
        async with self.lock(table_id):
            if not self.due(table_id):
                return None
            rebuilt = table_id in self.stale
            if rebuilt:
                try:
                    await self._reload(table_id)
                except STORAGE_ERRORS as exc:
                    raise StorageFailure() from exc
                self.stale.discard(table_id)
            live = self.tables.get(table_id)
            if live is None:
                return None
            before = Moment.of(live)
            if live.game is None or live.row.status != "playing":
                return Outcome.of(live, before, rebuilt=rebuilt)
            if not live.game.deals:
                await self._deal_next(live)
            else:
                async with self._unit(table_id):
                    await self._run_ai(live)
            return Outcome.of(live, before, rebuilt=rebuilt)
