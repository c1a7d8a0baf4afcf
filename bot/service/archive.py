"""Games that are over: their records (with the proof of every deal), the
server's history of finished games, and a finished deal rebuilt at any step.

Nothing here ever reads a secret seed into a record: a record of a table still
open (``record``, for tests and tools) leaves the game's seed (and a format 1
open deal's) out, and ``export``, ``history`` and ``archived`` only serve tables
that are no longer open, whose every deal is over (docs/FAIRNESS.md "In the bot").
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..engine import Game, RecordError, get_preset, operation_from_dict, parse_card, replay
from ..i18n import _
from ..storage import OPEN_STATUSES, AnyStorage, DealRow, HintRow, PastGame, SeatRow, ShuffleEvent, TableRow
from .core import game_of, proof_of
from .errors import UserError
from .live import LiveTable

log = logging.getLogger(__name__)


def record_of(row: TableRow, seats: list[SeatRow], deals: list[DealRow],
              hints: dict[int, list[HintRow]] | None = None,
              events: list[ShuffleEvent] | None = None,
              seed: str | None = None) -> dict[str, Any]:
    """A table's game as a docs/RULES.md §3 record (docs/RECORDS.md), with ``table``,
    each AI seat's level (``ai_levels``: seat -> level) and the coach's ``hints``
    of each deal (docs/AI.md "Coach"). A game with one commitment is a format 2
    record (docs/FAIRNESS.md "In records"): its shuffle log from ``events`` and —
    once the game is over, given its ``seed`` (hex) — the seed, its end and the
    chain's head. A format 1 deal carries its own proof, its seed once it is over.

    Raises:
        ValueError: the table never started.
    """
    game = game_of(row, seats, deals, events or [], seed)
    if game is None:
        raise ValueError(f"table {row.id} never started")
    live = LiveTable(row, seats, game.rules, game)
    record = game.to_record(*live.header())
    for item, d in zip(record["deals"], deals, strict=True):
        given = (hints or {}).get(d.number)
        if given:
            item["hints"] = [{"after": h.seq, "seat": h.seat, "advice": h.advice,
                              "reason": h.reason} for h in given]
    return record


@dataclass
class Archived:
    """A game that is over, read back from storage.

    Attributes:
        past: its line in the history.
        live: the table with the whole game replayed (every deal over), for the
            renderers.
        deals: its stored deals (who cut, when each ended, void or finished).
        record: its record, as ``export`` gives it.
    """

    past: PastGame
    live: LiveTable
    deals: list[DealRow]
    record: dict[str, Any]

    def at_step(self, number: int, step: int) -> LiveTable:
        """The table as it was after the first ``step`` operations of deal
        ``number`` (1-based): the earlier deals played out, this one rebuilt from
        its deck and action log by the engine.

        Raises:
            UserError: no such deal or step.
        """
        if not 1 <= number <= len(self.deals):
            raise UserError(_("That deal is not part of this game."))
        if not 0 <= step <= len(self.deals[number - 1].actions):
            raise UserError(_("That step is not part of this deal."))
        live = self.live
        game = Game(live.rules, len(live.seats), self.past_first_dealer, table=live.id)
        for index, d in enumerate(self.deals[:number]):
            deal = game.start_deal([parse_card(c) for c in d.deck], proof=proof_of(d))
            actions = d.actions if index < number - 1 else d.actions[:step]
            for action in actions:
                deal.apply(operation_from_dict(action.payload))
            if d.status == "void" and len(actions) == len(d.actions) and not deal.finished:
                deal.void()  # the table closed in the middle of it
        return LiveTable(live.row, live.seats, live.rules, game)

    @property
    def past_first_dealer(self) -> int:
        """The game's first dealer."""
        assert self.live.row.first_dealer is not None
        return self.live.row.first_dealer


class Archive:
    """Records, history and replays of games that are over, read from storage
    only: its own small service beside the tables' (``TableService.archive``),
    writing nothing and taking no table's lock.

    Args:
        storage: the opened storage.
        tables: the open tables by id (the service's own map, only read: a game
            still running is refused by name).
    """

    def __init__(self, storage: AnyStorage, tables: Mapping[int, LiveTable]) -> None:
        """An archive over ``storage``."""
        self.storage = storage
        self.tables = tables

    async def record(self, table_id: int) -> dict[str, Any]:
        """The table's game as a record, read from storage (not memory); the seed
        of a deal still open is left out.

        Raises:
            UserError: no such table, or it never started.
        """
        row = await self.storage.get_table(table_id)
        if row is None or row.first_dealer is None:
            raise UserError(_("That table has no game to export."))
        return await self._record_of(row)

    async def _record_of(self, row: TableRow) -> dict[str, Any]:
        """The record of a started table, read from storage; the game's seed only
        once the table is no longer open (``record_of``)."""
        seed = None if row.status in OPEN_STATUSES else await self.storage.game_seed(row.id)
        return record_of(row, await self.storage.seats(row.id), await self.storage.deals(row.id),
                         await self.storage.hints(row.id), await self.storage.shuffle_events(row.id),
                         seed)

    async def history(self, guild_id: int, page: int, per_page: int,
                      ) -> tuple[list[PastGame], int]:
        """One page (0-based) of the guild's games that are over, newest first,
        and how many there are."""
        return await self.storage.past_games(guild_id, page * per_page, per_page)

    async def find_past(self, guild_id: int, number: int | None = None,
                        channel_id: int | None = None) -> PastGame:
        """The game of the guild's table ``number``, or else the latest that played
        in ``channel_id``, if it is over.

        Raises:
            UserError: no such game, or its table is still open.
        """
        past = await self.storage.past_game(guild_id, number=number,
                                            channel_id=None if number else channel_id)
        if past is not None:
            return past
        running = [t for t in self.tables.values() if t.row.guild_id == guild_id
                   and (t.row.number == number if number else t.row.channel_id == channel_id)]
        if running:
            raise UserError(_("The game at table {number} is not over yet: its "
                              "record can be exported once it is (the seeds and decks of a "
                              "running game stay secret).").format(number=running[0].row.number))
        if number:
            raise UserError(_("This server has no finished game at table {number}. "
                              "See /commerce history.").format(number=number))
        raise UserError(_("No game has ended in this channel: name the table, e.g. "
                          "`/commerce export table:3` (see /commerce history)."))

    async def archived(self, guild_id: int, table_id: int) -> Archived:
        """A game of the guild that is over, replayed from its stored record.

        Raises:
            UserError: not a game of this guild, or its table is still open.
        """
        past = await self.storage.past_game(guild_id, table_id=table_id)
        row = await self.storage.get_table(table_id)
        if past is None or row is None:
            raise UserError(_("That game is not in this server's history."))
        seats = await self.storage.seats(table_id)
        deals = await self.storage.deals(table_id)
        record = await self._record_of(row)
        try:
            game = replay(record)
        except RecordError:
            log.exception("table %s: its stored record does not replay", table_id)
            raise UserError(_("That game's record could not be read back.")) from None
        if row.status == "closed":
            game.close()  # an unfinished last deal was voided when the table closed
        live = LiveTable(row, seats, get_preset(row.preset, row.options), game)
        return Archived(past, live, deals, record)
