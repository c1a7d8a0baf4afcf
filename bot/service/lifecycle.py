"""A table's life cycle: a lobby opened, joined, left and filled with AI
seats, the game started, members gone, and the table ended (by its host, a
manager, a deleted channel or an idle lobby), its pots shared.
"""

from __future__ import annotations

import asyncio
import dataclasses
import datetime
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from ..engine import Game, implied_options
from ..engine.fairness import ShuffleLog
from ..engine.levels import LEVELS
from ..i18n import _
from ..storage import LedgerEntry, TableRow
from .core import ServiceBase, attempt_of, posted_at
from .errors import STORAGE_ERRORS, StorageFailure, UserError
from .live import LiveTable
from .outcome import Moment, Outcome

log = logging.getLogger(__name__)


#: the level of an AI seat added without one (docs/AI.md)
DEFAULT_AI_LEVEL = "easy"
#: tables not played to their end that one member may open in ``OPEN_WINDOW`` seconds:
#: opening and leaving lobbies, or starting and ending games, cannot flood a server
#: (games played to their end do not count)
OPEN_BURST = 3
OPEN_WINDOW = 10 * 60
AI_NAMES = ("Ada", "Babbage", "Cardano", "Descartes", "Euler", "Fermat", "Gauss",
            "Hypatia", "Jacobi", "Kepler", "Leibniz")


class LifeCycle(ServiceBase):
    """Opening, seating, starting and closing tables (part of ``TableService``)."""

    async def create(
        self, guild_id: int, channel_id: int, host_id: int, host_name: str,
        preset: str = "foster", options: dict[str, Any] | None = None,
        next_deal_delay: int = 30,
        open_place: Callable[[int], Awaitable[tuple[int, str]]] | None = None,
        coach: bool = True, max_tables: int = 10,
    ) -> LiveTable:
        """Open a lobby with the host seated (``coach``: members may ask for hints,
        docs/AI.md "Coach"), in ``channel_id`` or, with
        ``open_place``, where that coroutine opens it: it gets the table's number
        (the n of ``commerce-<n>``) and returns ``(channel_id, place)``, place
        being ``channel``, ``thread`` or ``here`` (``TableRow.place``). Number,
        place and row are made under the guild's lock, so tables created at the
        same moment never share a number or a channel name. The guild may have
        ``max_tables`` open tables at once, and a member may open ``OPEN_BURST``
        tables not played to their end in ``OPEN_WINDOW`` seconds (docs/RELIABILITY.md "A table's channel").

        Raises:
            UserError: bad preset/options, host already seated, channel taken,
                a limit reached, or whatever ``open_place`` raises.
            StorageFailure: nothing was stored (a place already opened is the
                caller's to remove).
        """
        self.check_rules(preset, options)
        async with self.lock(("guild", guild_id)):
            self.check_free(guild_id, host_id)
            if self.in_channel(channel_id):
                raise UserError(_("A table is already open in this channel."))
            await self._check_limits(guild_id, host_id, max_tables)
            place: str | None = None
            number = None
            if open_place is not None:
                try:
                    number = await self.storage.next_table_number(guild_id)
                except STORAGE_ERRORS as exc:
                    raise StorageFailure() from exc
                channel_id, place = await open_place(number)
            async with self._unit(None):
                row = await self.storage.create_table(
                    guild_id, channel_id, host_id, preset, implied_options(options),
                    next_deal_delay, place, coach)
                await self.storage.add_seat(row.id, host_id, host_name)
                # the game's seed, committed before anything can be dealt
                await self._commit_game(LiveTable(row, [], self.check_rules(preset, options)))
            if number is not None and row.number != number:  # another writer: never here
                log.warning("table %s got number %s, its channel says %s", row.id, row.number,
                            number)
            self.touch(row.id)
            return await self._reload(row.id)

    async def _check_limits(self, guild_id: int, member_id: int, max_tables: int) -> None:
        """Raise ``UserError`` when the guild has ``max_tables`` open tables, or
        the member opened ``OPEN_BURST`` tables not played to their end in the
        last ``OPEN_WINDOW`` seconds (``StorageFailure`` when that cannot be read)."""
        open_now = sum(1 for t in self.tables.values() if t.row.guild_id == guild_id)
        if open_now >= max_tables:
            raise UserError(_("This server already has {count} open tables, its limit: finish "
                              "or end one first (admins set the limit with /commerce-admin "
                              "settings max_tables).").format(count=open_now))
        since = (datetime.datetime.now(datetime.UTC)
                 - datetime.timedelta(seconds=OPEN_WINDOW)).isoformat(timespec="seconds")
        try:
            recent = await self.storage.unfinished_tables_since(guild_id, member_id, since)
        except STORAGE_ERRORS as exc:
            raise StorageFailure() from exc
        if recent >= OPEN_BURST:
            raise UserError(_("You opened {count} tables in the last {minutes} minutes "
                              "that were not played to their end: finish one, or wait a few "
                              "minutes before opening another.").format(
                                  count=recent, minutes=OPEN_WINDOW // 60))

    def check_free(self, guild_id: int, member_id: int, here: int | None = None) -> None:
        """Raise ``UserError`` naming the way out if the member sits at another
        open table of the guild (``here``: the table they are joining)."""
        live = self.of_member(guild_id, member_id)
        if live is None:
            return
        if live.id == here:
            raise UserError(_("You are already seated at this table."))
        where = _("table {number}").format(number=live.row.number) + f" (<#{live.row.channel_id}>)"
        if live.row.status == "lobby":
            way = _("leave it first with /commerce leave (or its Leave button)")
        else:
            way = _("its game is running: finish it, or ask its host (or a member with "
                    "Manage Server) to close it with /commerce end there")
        raise UserError(_("You are already seated at {where}: {way}.").format(where=where, way=way))

    async def join(self, table_id: int, member_id: int, name: str) -> Outcome:
        """Seat ``member_id`` at a lobby table; returns what changed.

        Raises:
            UserError: not a lobby, full, already seated here or elsewhere.
            StorageFailure: nothing changed.
        """
        guild_id = self.get(table_id).row.guild_id
        async with self.lock(("guild", guild_id)), self.lock(table_id):
            live = self._lobby(table_id)
            self.check_free(guild_id, member_id, here=table_id)
            if len(live.seats) >= live.rules.max_players:
                raise UserError(_("This table is full ({seats} seats).").format(
                    seats=live.rules.max_players))
            before = Moment.of(live)
            async with self._unit(table_id):
                live.seats.append(await self.storage.add_seat(table_id, member_id, name))
            self.touch(table_id)
            return Outcome.of(live, before)

    async def add_ai(self, table_id: int, member_id: int, level: str = DEFAULT_AI_LEVEL
                     ) -> Outcome:
        """Add an AI seat playing at ``level`` (``easy``, ``normal`` or ``strong``;
        docs/AI.md); only someone seated at the table may. Returns what changed.

        Raises:
            UserError: not a lobby, full, caller not seated, unknown level.
            StorageFailure: nothing changed.
        """
        if level not in LEVELS:
            raise UserError(_("Choose an AI level: {levels}.").format(levels=', '.join(LEVELS)))
        async with self.lock(table_id):
            live = self._lobby(table_id)
            if live.seat_of(member_id) is None:
                raise UserError(_("Only players seated at this table can add an AI."))
            if len(live.seats) >= live.rules.max_players:
                raise UserError(_("This table is full ({seats} seats).").format(
                    seats=live.rules.max_players))
            taken = {s.name for s in live.seats}
            name = next((f"AI {n}" for n in AI_NAMES if f"AI {n}" not in taken), "AI")
            before = Moment.of(live)
            async with self._unit(table_id):
                live.seats.append(await self.storage.add_seat(table_id, None, name, level))
            self.touch(table_id)
            return Outcome.of(live, before)

    async def leave(self, table_id: int, member_id: int) -> Outcome:
        """Leave a lobby. If the host leaves, the next seated member hosts; if no
        member remains, the table closes (its status becomes ``closed``;
        ``Outcome.emptied`` is ``left``). Returns what changed.

        Raises:
            UserError: not seated, or the game has started.
            StorageFailure: nothing changed.
        """
        async with self.lock(table_id):
            live = self.get(table_id)
            seat = live.seat_of(member_id)
            if seat is None:
                raise UserError(_("You are not seated at this table."))
            if live.row.status != "lobby":
                raise UserError(
                    _("The game has started: ask the host to end it with /commerce end.")
                )
            before = Moment.of(live)
            async with self._unit(table_id):
                await self.storage.remove_seat(table_id, seat)
                humans = [s for s in await self.storage.seats(table_id) if not s.is_ai]
                if not humans:
                    await self.storage.set_status(table_id, "closed")
                    await self.storage.set_ended(table_id)
                elif member_id == live.row.host_id:  # the host left: the next player hosts
                    assert humans[0].member_id is not None
                    await self.storage.set_host(table_id, humans[0].member_id)
                live = await self._reload(table_id)
            self.touch(table_id)
            return Outcome.of(live, before, emptied=None if humans else "left")

    async def start(self, table_id: int, member_id: int) -> Outcome:
        """Start the game: the first dealer and deal 1 drawn from the game's seed
        and the cuts made in the lobby, AI seats play (docs/FAIRNESS.md "In the
        bot"). The attempt at deal 1 is written down first, in a transaction of its
        own; the game starts in a second one. Only once the commitment is posted
        (``commitment_posted``) can the game start. Returns what changed (the
        first deal dealt, with the AI's first moves).

        Raises:
            UserError: not the host, too few seats, not a lobby, the commitment
                not posted yet.
            StorageFailure: nothing changed (the table is still a lobby; an
                attempt written down is burned).
        """
        async with self.lock(table_id):
            live = self._lobby(table_id)
            if member_id != live.row.host_id or live.seat_of(member_id) is None:
                raise UserError(_("Only the host can start the game."))
            n = len(live.seats)
            if n < live.rules.min_players:
                raise UserError(
                    _("You need at least {least} players "
                      "(now {count}). Invite friends or press Add AI.").format(
                          least=live.rules.min_players, count=n)
                )
            shuffler = self._shuffler(live)
            committed = live.row.game_commitment
            if shuffler is None or committed is None:
                raise UserError(_("This table has no fair shuffle yet: try Start again in a "
                                  "moment."))
            if live.row.commitment_message_id is None:
                raise UserError(_("The fair-shuffle message is not posted yet: try Start "
                                  "again in a moment."))
            self.activity.pop(table_id, None)  # a lobby's idle clock, no longer needed
            attempt = None if self.arranged_decks else await self._write_attempt(live)
            if self.arranged_dealer is not None:  # tests only: a dealer they chose
                first = self.arranged_dealer
            elif attempt is not None:
                first = shuffler.first_dealer(n, attempt.attempt, attempt.cuts)
            else:  # tests only: an arranged deck, and the dealer the seed gives
                first = shuffler.first_dealer(n, 1, live.seated_cuts(1))
            burned = [attempt_of(e) for e in live.events
                      if e.kind == "attempt" and e.deal_number == 1
                      and (attempt is None or e.attempt != attempt.attempt)]
            before = Moment.of(live)
            async with self._unit(table_id):
                await self.storage.start_game(table_id, first)
                live.row = dataclasses.replace(live.row, status="playing", first_dealer=first)
                live.game = Game(live.rules, n, first, table=table_id, shuffler=shuffler,
                                 shuffle_log=ShuffleLog(committed, posted_at(live.row), [],
                                                        burned))
                await self._deal(live, attempt)
            return Outcome.of(live, before)

    def _lobby(self, table_id: int) -> LiveTable:
        live = self.get(table_id)
        if live.row.status != "lobby":
            raise UserError(_("The game at this table has already started."))
        return live

    async def set_delay(self, table_id: int, member_id: int, seconds: int) -> Outcome:
        """Change the table's automatic next-deal delay (seconds, 0 = off);
        returns what changed (``delay_changed``).

        Raises:
            UserError: not seated at the table, or out of range (0..600).
        """
        if not 0 <= seconds <= 600:
            raise UserError(_("Choose a delay from 0 (off) to 600 seconds."))
        async with self.lock(table_id):
            live = self.get(table_id)
            if live.seat_of(member_id) is None:
                raise UserError(_("Only players at this table can change its delay."))
            async with self._unit(table_id):
                await self.storage.set_next_deal_delay(table_id, seconds)
                live.row = dataclasses.replace(live.row, next_deal_delay=seconds)
            return Outcome.of(live, Moment.of(live), delay_changed=True)

    async def kept_channels(self, shards: tuple[tuple[int, ...], int] | None = None,
                            ) -> list[tuple[TableRow, int]]:
        """The ended tables whose channel the bot made and keeps, with their
        guild's ``keep_days`` (``Storage.kept_channels``); ``[]`` when storage
        cannot be read now (the next sweep tries again)."""
        try:
            return await self.storage.kept_channels(shards)
        except STORAGE_ERRORS:
            log.warning("could not read the kept channels; will try again")
            return []

    # ------------------------------------------------------- departures
    async def member_gone(self, guild_id: int, member_id: int) -> list[Outcome]:
        """The member left the guild: the AI takes their seat in running games
        (their ledger still counts); they leave lobbies (a host hands the lobby
        on). Returns what changed, a table each.

        Raises:
            StorageFailure: a table could not be changed (the others were).
        """
        changed = []
        failed: StorageFailure | None = None
        for live in [t for t in self.tables.values() if t.row.guild_id == guild_id]:
            seat = live.seat_of(member_id)
            if seat is None:
                continue
            try:
                if live.row.status == "lobby":
                    changed.append(await self.leave(live.id, member_id))
                    continue
                async with self.lock(live.id):
                    before = Moment.of(live)
                    async with self._unit(live.id):
                        await self.storage.set_seat_state(live.id, seat, gone=True)
                        live.set_seat(seat, gone=True)
                        await self.storage.audit(guild_id, member_id, "member_gone",
                                                 f"table {live.id}")
                        await self._run_ai(live)
                changed.append(Outcome.of(live, before))
            except StorageFailure as exc:
                failed = exc
        if failed is not None and not changed:
            raise failed
        return changed

    async def channel_gone(self, channel_id: int) -> Outcome | None:
        """The table's channel or thread was deleted or archived: end the table
        cleanly (the deal in progress is voided and refunded; the record stays);
        ``None``: no table played there."""
        live = self.in_channel(channel_id)
        if live is None:
            return None
        return dataclasses.replace(await self.end(live.id, None, is_manager=True), unseen=True)

    # ------------------------------------------------------ idle lobbies
    def touch(self, table_id: int) -> None:
        """Note activity at a lobby (for ``idle_lobbies``); a table that is no
        longer an open lobby keeps no entry."""
        if table_id in self.tables and self.tables[table_id].row.status == "lobby":
            self.activity[table_id] = asyncio.get_running_loop().time()

    def idle_lobbies(self, seconds: float) -> list[int]:
        """Lobby tables with no join, leave or AI added for ``seconds`` (counted
        from the bot's start for lobbies older than that)."""
        now = asyncio.get_running_loop().time()
        return [t.id for t in self.tables.values() if t.row.status == "lobby"
                and now - self.activity.setdefault(t.id, now) >= seconds]

    async def close_idle(self, table_id: int, seconds: float) -> Outcome | None:
        """Close a lobby that has been idle for ``seconds`` (``Outcome.emptied``
        is ``idle``); ``None`` if it is not (any more). Raises StorageFailure
        (nothing changed)."""
        async with self.lock(table_id):
            if table_id not in self.idle_lobbies(seconds):
                return None
            live = self.tables[table_id]
            before = Moment.of(live)
            async with self._unit(table_id):
                await self.storage.audit(live.row.guild_id, None, "idle_lobby_closed",
                                         f"table {table_id}")
                await self._ended(live, "closed")
            return Outcome.of(live, before, emptied="idle")

    # ---------------------------------------------------------------- end
    async def end(self, table_id: int, member_id: int | None, is_manager: bool,
                  host_gone: bool = False) -> Outcome:
        """Close a table; an unfinished deal is voided (its stakes and fees refunded)
        and a pool or pot carried from earlier deals is shared by the players
        still in the game (docs/RELIABILITY.md, "Ledger"). One transaction.
        Returns what changed (``ended``).

        Args:
            table_id: the table to close.
            member_id: who asks (``None``: the bot itself).
            is_manager: the member has Manage Server.
            host_gone: the host has left the server: any seated member may end it.

        Raises:
            UserError: the caller may not end it.
            StorageFailure: nothing changed.
        """
        async with self.lock(table_id):
            live = self.get(table_id)
            seated = member_id is not None and live.seat_of(member_id) is not None
            if not (member_id is None or member_id == live.row.host_id or is_manager
                    or (host_gone and seated)):
                raise UserError(_("Only the host or a member with Manage Server can end this table."))
            before = Moment.of(live)
            async with self._unit(table_id):
                if live.game is not None:
                    voided = live.game.close()
                    shares = self._share_pots(live)
                    if voided is not None:
                        await self.storage.finish_deal(live.deal_key, "void", shares, [])
                    elif shares:
                        await self.storage.add_ledger(live.row.guild_id, table_id,
                                                      live.deal_key, shares)
                await self.storage.audit(
                    live.row.guild_id, member_id, "end_table", f"table {table_id}"
                )
                await self._ended(live, "closed")
            return Outcome.of(live, before)

    @staticmethod
    def _share_pots(live: LiveTable) -> list[LedgerEntry]:
        """A closed game's pool or pots carried between deals (hoyle carry, oldway
        pool, jaques pots) shared equally by the seats still in the game; the odd
        points go to the earliest of them from the dealer's left. No point is
        created or lost."""
        game = live.game
        assert game is not None
        pots = -sum(game.ledger)
        if pots <= 0:
            return []
        seats = game.in_play or list(range(game.n))
        dealer = game.deals[-1].dealer if game.deals else 0
        step = game.rules.step
        seats.sort(key=lambda s: ((s - dealer) * step - 1) % game.n)
        share, odd = divmod(pots, len(seats))
        return [LedgerEntry(s, live.member_of(s), share + (1 if i < odd else 0), "share")
                for i, s in enumerate(seats) if share or i < odd]
