"""The table service: the one path from an interaction to a state change.

Each public coroutine takes the table's lock, checks the request, steps the
engine, appends the operation to the action log (committed before it
returns), lets AI seats play, and returns a ``LiveTable`` for rendering.
Errors a user can cause are raised as ``UserError`` with a short message.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import random
import secrets
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .engine import (
    AnyDeal,
    Decision,
    Game,
    IllegalAction,
    Observation,
    Operation,
    Rules,
    RulesError,
    card_code,
    describe,
    get_preset,
    implied_options,
    operation_from_dict,
    operation_to_dict,
    parse_card,
    record_actions,
    shuffled_deck,
)
from .engine import ai as engine_ai
from .locks import KeyedLock
from .storage import (
    GuildSettings,
    HandResult,
    LedgerEntry,
    MemberStats,
    SeatRow,
    Storage,
    TableRow,
)

log = logging.getLogger(__name__)

AI_NAMES = ("Ada", "Babbage", "Cardano", "Descartes", "Euler", "Fermat", "Gauss",
            "Hypatia", "Jacobi", "Kepler", "Leibniz")


class UserError(Exception):
    """Something the user asked for cannot be done; ``str()`` is the ephemeral answer."""


class StorageFailure(UserError):
    """A write could not be committed (disk full, I/O error, database locked too
    long). Nothing of the request was applied: memory was rebuilt from storage."""

    def __init__(self, text: str = "I could not save that (a storage problem on the bot's "
                                   "side), so nothing changed. Try again in a moment.") -> None:
        super().__init__(text)


#: errors of the storage layer (a failed write); anything else is a bug
STORAGE_ERRORS = (sqlite3.Error, OSError)


@dataclass
class LiveTable:
    """A table in memory: its row, seats and (once started) the engine game.

    ``deal_ids[i]`` is the storage id of ``game.deals[i]``.
    """

    row: TableRow
    seats: list[SeatRow]
    rules: Rules
    game: Game | None = None
    deal_ids: list[int] = field(default_factory=list)
    #: deal number -> message id of its posted showdown
    showdown_messages: dict[int, int] = field(default_factory=dict)

    @property
    def announced(self) -> set[int]:
        """Deal numbers whose showdown has been posted."""
        return set(self.showdown_messages)

    @property
    def id(self) -> int:
        return self.row.id

    @property
    def deal(self) -> AnyDeal | None:
        """The latest deal (finished or not), or ``None`` before the first."""
        return self.game.deals[-1] if self.game and self.game.deals else None

    @property
    def deal_number(self) -> int:
        """1-based number of the latest deal (0 before the first)."""
        return len(self.game.deals) if self.game else 0

    def seat_of(self, member_id: int) -> int | None:
        """The seat of ``member_id`` at this table, or ``None``."""
        for s in self.seats:
            if s.member_id == member_id:
                return s.seat
        return None

    def member_of(self, seat: int) -> int | None:
        """The member sitting in ``seat`` (``None`` for an AI seat)."""
        return self.seats[seat].member_id

    def is_ai(self, seat: int) -> bool:
        """The AI decides for ``seat`` now (an AI seat, or a member away or gone)."""
        return self.seats[seat].ai_plays


class TableService:
    """Owns every open table; see the module docstring.

    Args:
        storage: the opened storage.
        rng: a seeded ``random.Random`` for tests only; ``None`` uses the OS CSPRNG.
    """

    def __init__(self, storage: Storage, rng: random.Random | None = None) -> None:
        self.storage = storage
        self.rng = rng
        self.tables: dict[int, LiveTable] = {}
        #: open tables whose rebuild from storage failed; ``resume`` retries them
        self.stale: set[int] = set()
        #: lobby table id -> event-loop time of its last join/leave/AI seat
        self.activity: dict[int, float] = {}
        self.lock = KeyedLock()
        self._settings: dict[int, GuildSettings] = {}

    # ------------------------------------------------------------ loading
    async def load(self) -> list[LiveTable]:
        """Rebuild every open table from storage by replaying its action log."""
        self.tables.clear()
        self.stale.clear()
        for row in await self.storage.open_tables():
            try:
                await self._reload(row.id)
            except Exception:  # a broken table must not stop the others
                log.exception("table %s could not be rebuilt", row.id)
                self.stale.add(row.id)
        return list(self.tables.values())

    @asynccontextmanager
    async def _unit(self, table_id: int | None) -> AsyncIterator[None]:
        """One unit of work: every write made inside is committed together, or none.

        The write lock is taken first (before the engine changes anything), and
        the table must still be open in storage. On any failure the table is
        rebuilt from storage, so memory never runs ahead of the database; a
        storage error becomes ``StorageFailure``.

        Raises:
            UserError: the table was closed in storage (it leaves memory too).
            StorageFailure: the transaction could not begin or commit.
        """
        try:
            async with self.storage.atomic():
                if table_id is not None:
                    row = await self.storage.get_table(table_id)
                    if row is None or row.status not in ("lobby", "playing"):
                        self.tables.pop(table_id, None)
                        raise UserError("This table is closed.")
                yield
        except UserError:  # raised before anything changed (a refused request)
            raise
        except BaseException as exc:  # also a cancellation: memory must never run ahead
            if table_id is not None:
                await asyncio.shield(self._resync(table_id))
            if isinstance(exc, STORAGE_ERRORS):
                log.error("table %s: a write failed (%s); nothing of it was kept",
                          table_id, type(exc).__name__)
                raise StorageFailure() from exc
            raise

    async def _resync(self, table_id: int) -> None:
        """Rebuild the table from storage; if even that fails, keep it aside
        (``stale``) for ``resume`` to retry."""
        try:
            await self._reload(table_id)
            self.stale.discard(table_id)
        except Exception:
            log.exception("table %s: could not be rebuilt from storage; will retry", table_id)
            self.tables.pop(table_id, None)
            self.stale.add(table_id)

    async def _reload(self, table_id: int) -> LiveTable:
        row = await self.storage.get_table(table_id)
        if row is None:
            raise UserError("This table no longer exists.")
        seats = await self.storage.seats(table_id)
        rules = get_preset(row.preset, row.options)
        live = LiveTable(row, seats, rules)
        if row.first_dealer is not None:
            game = Game(rules, len(seats), row.first_dealer)
            for deal_row in await self.storage.deals(table_id):
                deal = game.start_deal([parse_card(c) for c in deal_row.deck])
                for action in deal_row.actions:
                    deal.apply(operation_from_dict(action.payload))
                if deal_row.status == "void" and not deal.finished:
                    deal.void()
                live.deal_ids.append(deal_row.id)
                if deal_row.showdown_message_id is not None:
                    live.showdown_messages[deal_row.number] = deal_row.showdown_message_id
            if row.status == "closed":
                game.closed = True
            live.game = game
        if row.status in ("lobby", "playing"):
            self.tables[table_id] = live
        else:
            self.tables.pop(table_id, None)
        return live

    def get(self, table_id: int) -> LiveTable:
        """The open table ``table_id``.

        Raises:
            UserError: no such open table.
        """
        live = self.tables.get(table_id)
        if live is None:
            if table_id in self.stale:
                raise UserError("This table is being restored after a storage problem; "
                                "try again in a moment.")
            raise UserError("This table is closed.")
        return live

    def in_channel(self, channel_id: int) -> LiveTable | None:
        """The open table playing in ``channel_id``, if any."""
        for live in self.tables.values():
            if live.row.channel_id == channel_id:
                return live
        return None

    def of_member(self, guild_id: int, member_id: int) -> LiveTable | None:
        """The open table in ``guild_id`` where ``member_id`` is seated, if any."""
        for live in self.tables.values():
            if live.row.guild_id == guild_id and live.seat_of(member_id) is not None:
                return live
        return None

    @staticmethod
    def check_rules(preset: str, options: dict[str, Any] | None) -> Rules:
        """The rules a table would play (``options`` is not changed; what they
        imply is the rules' to apply: ``get_preset``).

        Raises:
            UserError: unknown preset or bad option, said plainly.
        """
        if len(preset) > 40:
            raise UserError("That is not a preset name. See /commerce rules.")
        try:
            return get_preset(preset, options)
        except RulesError as exc:
            text = str(exc)
            raise UserError(text[:1].upper() + text[1:200] + ".") from None

    # -------------------------------------------------------------- lobby
    async def create(
        self, guild_id: int, channel_id: int, host_id: int, host_name: str,
        preset: str = "foster", options: dict[str, Any] | None = None,
        next_deal_delay: int = 30,
        open_place: Callable[[int], Awaitable[tuple[int, str]]] | None = None,
    ) -> LiveTable:
        """Open a lobby with the host seated, in ``channel_id`` or, with
        ``open_place``, where that coroutine opens it: it gets the table's number
        (the n of ``commerce-<n>``) and returns ``(channel_id, place)``, place
        being ``channel``, ``thread`` or ``here`` (``TableRow.place``). Number,
        place and row are made under the guild's lock, so tables created at the
        same moment never share a number or a channel name.

        Raises:
            UserError: bad preset/options, host already seated, channel taken,
                or whatever ``open_place`` raises.
            StorageFailure: nothing was stored (a place already opened is the
                caller's to remove).
        """
        self.check_rules(preset, options)
        async with self.lock(("guild", guild_id)):
            self.check_free(guild_id, host_id)
            if self.in_channel(channel_id):
                raise UserError("A table is already open in this channel.")
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
                    next_deal_delay, place)
                await self.storage.add_seat(row.id, host_id, host_name)
            if number is not None and row.number != number:  # another writer: never here
                log.warning("table %s got number %s, its channel says %s", row.id, row.number,
                            number)
            self.touch(row.id)
            return await self._reload(row.id)

    def check_free(self, guild_id: int, member_id: int, here: int | None = None) -> None:
        """Raise ``UserError`` naming the way out if the member sits at another
        open table of the guild (``here``: the table they are joining)."""
        live = self.of_member(guild_id, member_id)
        if live is None:
            return
        if live.id == here:
            raise UserError("You are already seated at this table.")
        where = f"table {live.row.number} (<#{live.row.channel_id}>)"
        if live.row.status == "lobby":
            way = "leave it first with /commerce leave (or its Leave button)"
        else:
            way = ("its game is running: finish it, or ask its host (or a member with "
                   "Manage Server) to close it with /commerce end there")
        raise UserError(f"You are already seated at {where}: {way}.")

    async def join(self, table_id: int, member_id: int, name: str) -> LiveTable:
        """Seat ``member_id`` at a lobby table.

        Raises:
            UserError: not a lobby, full, already seated here or elsewhere.
            StorageFailure: nothing changed.
        """
        guild_id = self.get(table_id).row.guild_id
        async with self.lock(("guild", guild_id)), self.lock(table_id):
            live = self._lobby(table_id)
            self.check_free(guild_id, member_id, here=table_id)
            if len(live.seats) >= live.rules.max_players:
                raise UserError(f"This table is full ({live.rules.max_players} seats).")
            async with self._unit(table_id):
                await self.storage.add_seat(table_id, member_id, name)
                live = await self._reload(table_id)
            self.touch(table_id)
            return live

    async def add_ai(self, table_id: int, member_id: int) -> LiveTable:
        """Add an AI seat; only someone seated at the table may.

        Raises:
            UserError: not a lobby, full, caller not seated.
            StorageFailure: nothing changed.
        """
        async with self.lock(table_id):
            live = self._lobby(table_id)
            if live.seat_of(member_id) is None:
                raise UserError("Only players seated at this table can add an AI.")
            if len(live.seats) >= live.rules.max_players:
                raise UserError(f"This table is full ({live.rules.max_players} seats).")
            taken = {s.name for s in live.seats}
            name = next((f"AI {n}" for n in AI_NAMES if f"AI {n}" not in taken), "AI")
            async with self._unit(table_id):
                await self.storage.add_seat(table_id, None, name)
                live = await self._reload(table_id)
            self.touch(table_id)
            return live

    async def leave(self, table_id: int, member_id: int) -> LiveTable:
        """Leave a lobby. If the host leaves, the next seated member hosts; if no
        member remains, the table closes (its status becomes ``closed``).

        Raises:
            UserError: not seated, or the game has started.
            StorageFailure: nothing changed.
        """
        async with self.lock(table_id):
            live = self.get(table_id)
            seat = live.seat_of(member_id)
            if seat is None:
                raise UserError("You are not seated at this table.")
            if live.row.status != "lobby":
                raise UserError(
                    "The game has started: ask the host to end it with /commerce end."
                )
            async with self._unit(table_id):
                await self.storage.remove_seat(table_id, seat)
                humans = [s for s in await self.storage.seats(table_id) if not s.is_ai]
                if not humans:
                    await self.storage.set_status(table_id, "closed")
                elif member_id == live.row.host_id:  # the host left: the next player hosts
                    assert humans[0].member_id is not None
                    await self.storage.set_host(table_id, humans[0].member_id)
                live = await self._reload(table_id)
            self.touch(table_id)
            return live

    async def start(self, table_id: int, member_id: int) -> LiveTable:
        """Start the game: random first dealer, first deal dealt, AI seats play,
        all in one transaction.

        Raises:
            UserError: not the host, too few seats, not a lobby.
            StorageFailure: nothing changed (the table is still a lobby).
        """
        async with self.lock(table_id):
            live = self._lobby(table_id)
            if member_id != live.row.host_id or live.seat_of(member_id) is None:
                raise UserError("Only the host can start the game.")
            n = len(live.seats)
            if n < live.rules.min_players:
                raise UserError(
                    f"You need at least {live.rules.min_players} players "
                    f"(now {n}). Invite friends or press Add AI."
                )
            first = self.rng.randrange(n) if self.rng else secrets.randbelow(n)
            async with self._unit(table_id):
                await self.storage.start_game(table_id, first)
                live = await self._reload(table_id)
                await self._deal(live)
            return live

    def _lobby(self, table_id: int) -> LiveTable:
        live = self.get(table_id)
        if live.row.status != "lobby":
            raise UserError("The game at this table has already started.")
        return live

    # --------------------------------------------------------------- play
    async def _deal(self, live: LiveTable) -> None:
        """Deal the next hand and let AI seats play (inside the caller's unit)."""
        assert live.game is not None
        deck = shuffled_deck(self.rng)
        deal = live.game.start_deal(deck)
        deal_id = await self.storage.start_deal(
            live.id, live.deal_number, deal.dealer, [card_code(c) for c in deck]
        )
        live.deal_ids.append(deal_id)
        await self._run_ai(live)

    async def next_deal(self, table_id: int, after: int) -> LiveTable:
        """Deal the next hand once deal number ``after`` is over (idempotent: a
        second call for the same ``after`` is refused).

        Raises:
            UserError: the deal is not over, already dealt, or the game is over.
            StorageFailure: nothing changed (the deal can be dealt again).
        """
        async with self.lock(table_id):
            live = self.get(table_id)
            if live.game is None or live.deal_number != after or live.game.current is not None:
                raise UserError("The next deal has already started.")
            if live.game.complete:
                raise UserError("This game is over.")
            async with self._unit(table_id):
                await self._deal(live)
            return live

    async def act(self, table_id: int, member_id: int, deal_number: int, decision: Decision,
                  seq: int | None = None) -> tuple[LiveTable, Operation]:
        """Apply a player's decision and let AI seats answer (docs/RULES.md §2:
        ``deal.act`` of the table's family).

        Args:
            deal_number: the deal the control belongs to (stale controls are refused).
            decision: what the player chose (``bot.engine.choices.decide`` turns a
                control and its select value into one).
            seq: the number of operations the control was issued after, when it
                carries one (card selects): a used or outdated select is refused.

        Returns:
            the table and the player's own operation.

        Raises:
            UserError: not seated, stale control, not your turn, a card not held,
                anything the rules do not allow now.
            StorageFailure: nothing changed.
        """
        async with self.lock(table_id):
            live, seat, deal = self._control(table_id, member_id, deal_number, seq)
            async with self._unit(table_id):
                try:
                    op = deal.act(seat, decision)
                except IllegalAction as exc:  # checked before anything changes
                    raise UserError(str(exc)) from None
                await self._persist(live, op, member_id)
                if live.seats[seat].timeouts:
                    await self.storage.set_seat_state(table_id, seat, timeouts=0)
                    live.seats = await self.storage.seats(table_id)
                await self._run_ai(live)
            return live, op

    def _control(self, table_id: int, member_id: int, deal_number: int,
                 seq: int | None) -> tuple[LiveTable, int, AnyDeal]:
        """The table, the member's seat and the deal a control acts on.

        Raises:
            UserError: not seated, a control of an earlier deal, or one that is
                out of date (``seq`` is the operation count it was issued at).
        """
        live = self.get(table_id)
        seat = live.seat_of(member_id)
        if seat is None:
            raise UserError("You are not playing at this table.")
        deal = live.deal
        if deal is None or live.deal_number != deal_number:
            raise UserError("That button belongs to an earlier deal.")
        if seq is not None and seq != len(deal.operations):
            raise UserError("That choice is out of date: press My hand to see where things stand.")
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
            raise UserError("This deal is already over.")
        if deal.to_act != seat:
            if deal.to_act is not None and live.deal is deal and deal.pending is not None:
                raise UserError("Wait: an offer is waiting for an answer.")
            raise UserError("It is not your turn.")
        raise UserError("You cannot do that now.")

    async def _run_ai(self, live: LiveTable) -> None:
        deal = live.deal
        while deal is not None and not deal.finished:
            seat = deal.to_act
            assert seat is not None
            if not live.is_ai(seat):
                return
            op = deal.act(seat, engine_ai.choose(deal.observation(seat)))
            await self._persist(live, op, None)

    async def _persist(self, live: LiveTable, op: Operation, member_id: int | None) -> None:
        """Append ``op`` (already applied to the engine) to the log, closing the
        deal (and the game) when it ends. Runs inside the caller's ``_unit``,
        which rebuilds the table from storage if anything fails."""
        deal = live.deal
        assert deal is not None and live.game is not None
        finish = None
        if deal.finished:
            finish = ("finished", self._ledger(live, deal), self._hands(live, deal))
        await self.storage.append_action(
            live.deal_ids[-1], len(deal.operations) - 1, operation_to_dict(op),
            member_id, finish=finish,
        )
        if deal.finished and live.game.complete:
            await self.storage.finish_game(live.id, live.game.winners or [], "finished")
            live.row = await self._row(live.id)
            self.tables.pop(live.id, None)

    async def _row(self, table_id: int) -> TableRow:
        row = await self.storage.get_table(table_id)
        assert row is not None
        return row

    @staticmethod
    def _ledger(live: LiveTable, deal: AnyDeal) -> list[LedgerEntry]:
        entries = []
        for m in deal.movements:
            if m.payer is not None:
                entries.append(LedgerEntry(m.payer, live.member_of(m.payer), -m.amount, m.reason))
            if m.payee is not None:
                entries.append(LedgerEntry(m.payee, live.member_of(m.payee), m.amount, m.reason))
        return entries

    @staticmethod
    def _hands(live: LiveTable, deal: AnyDeal) -> list[HandResult]:
        sd = deal.showdown
        if sd is None:
            return []
        return [
            HandResult(s, live.member_of(s), sd.scores[s] or 0, describe(h, deal.rules.ranking),
                       s == sd.winner)
            for s, h in enumerate(sd.hands) if h and sd.scores[s] is not None
        ]

    # ----------------------------------------------------- presence (issue 3)
    async def timeout(self, table_id: int, deal_number: int, seq: int,
                      away_after: int = 2) -> LiveTable | None:
        """The turn timer ran out for the seat to act at (``deal_number``, ``seq``):
        the AI plays that decision (a barter answer is an accept with the AI's
        card) and the seat's timeouts grow; at ``away_after`` in a row the seat is
        marked away. Returns ``None`` (and changes nothing) when the moment has
        passed. One transaction.

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
            async with self._unit(table_id):
                # the AI finishes the whole move (a jaques draw is followed by keep or
                # throw), but never spends the absent player's points on a horse
                for _ in range(3):
                    decision = engine_ai.choose(deal.observation(seat))
                    if decision.kind == "refuse" and "refuse" in deal.controls(seat).answers:
                        # refusing would knock and end the deal for them: accept instead
                        decision = Decision("accept", engine_ai.worst_card(tuple(deal.hands[seat])))
                    if decision.kind == "buy_horse":
                        decision = Decision("decline_horse")
                    op = deal.act(seat, decision)
                    await self._persist(live, op, None)
                    if deal.finished or deal.to_act != seat or deal.drawn is None:
                        break
                if own_turn:  # answering someone else's offer never marks a seat away
                    timeouts = live.seats[seat].timeouts + 1
                    await self.storage.set_seat_state(
                        table_id, seat, timeouts=timeouts,
                        away=True if timeouts >= away_after else None)
                    live.seats = await self.storage.seats(table_id)
                await self._run_ai(live)
            return live

    async def back(self, table_id: int, member_id: int) -> LiveTable:
        """The member takes their seat back from the AI.

        Raises:
            UserError: not seated, or not away.
            StorageFailure: nothing changed.
        """
        async with self.lock(table_id):
            live = self.get(table_id)
            seat = live.seat_of(member_id)
            if seat is None:
                raise UserError("You are not playing at this table.")
            if not live.seats[seat].away:
                raise UserError("You are not marked away.")
            async with self._unit(table_id):
                await self.storage.set_seat_state(table_id, seat, away=False, timeouts=0)
                live.seats = await self.storage.seats(table_id)
            return live

    async def member_gone(self, guild_id: int, member_id: int) -> list[LiveTable]:
        """The member left the guild: the AI takes their seat in running games
        (their ledger still counts); they leave lobbies (a host hands the lobby
        on). Returns the tables changed.

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
                async with self.lock(live.id), self._unit(live.id):
                    await self.storage.set_seat_state(live.id, seat, gone=True)
                    live.seats = await self.storage.seats(live.id)
                    await self.storage.audit(guild_id, member_id, "member_gone",
                                             f"table {live.id}")
                    await self._run_ai(live)
                changed.append(live)
            except StorageFailure as exc:
                failed = exc
        if failed is not None and not changed:
            raise failed
        return changed

    async def channel_gone(self, channel_id: int) -> LiveTable | None:
        """The table's channel or thread was deleted or archived: end the table
        cleanly (the deal in progress is voided and refunded; the record stays)."""
        live = self.in_channel(channel_id)
        if live is None:
            return None
        return await self.end(live.id, None, is_manager=True)

    # ---------------------------------------------------------------- end
    async def end(self, table_id: int, member_id: int | None, is_manager: bool,
                  host_gone: bool = False) -> LiveTable:
        """Close a table; an unfinished deal is voided (its stakes and fees refunded)
        and a pool or pot carried from earlier deals is shared by the players
        still in the game (docs/RELIABILITY.md, "Ledger"). One transaction.

        Args:
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
                raise UserError("Only the host or a member with Manage Server can end this table.")
            async with self._unit(table_id):
                if live.game is not None:
                    voided = live.game.close()
                    shares = self._share_pots(live)
                    if voided is not None:
                        await self.storage.finish_deal(live.deal_ids[-1], "void", shares, [])
                    elif shares:
                        await self.storage.add_ledger(live.row.guild_id, table_id,
                                                      live.deal_ids[-1], shares)
                await self.storage.set_status(table_id, "closed")
                await self.storage.audit(
                    live.row.guild_id, member_id, "end_table", f"table {table_id}"
                )
                live.row = await self._row(table_id)
            self.tables.pop(table_id, None)
            self.activity.pop(table_id, None)
            return live

    # ------------------------------------------------- automatic progress
    def touch(self, table_id: int) -> None:
        """Note activity at a lobby (for ``idle_lobbies``)."""
        self.activity[table_id] = asyncio.get_running_loop().time()

    def idle_lobbies(self, seconds: float) -> list[int]:
        """Lobby tables with no join, leave or AI added for ``seconds`` (counted
        from the bot's start for lobbies older than that)."""
        now = asyncio.get_running_loop().time()
        return [t.id for t in self.tables.values() if t.row.status == "lobby"
                and now - self.activity.setdefault(t.id, now) >= seconds]

    async def close_idle(self, table_id: int, seconds: float) -> LiveTable | None:
        """Close a lobby that has been idle for ``seconds``; ``None`` if it is
        not (any more). Raises StorageFailure (nothing changed)."""
        async with self.lock(table_id):
            if table_id not in self.idle_lobbies(seconds):
                return None
            live = self.tables[table_id]
            async with self._unit(table_id):
                await self.storage.set_status(table_id, "closed")
                await self.storage.audit(live.row.guild_id, None, "idle_lobby_closed",
                                         f"table {table_id}")
                live.row = await self._row(table_id)
            self.tables.pop(table_id, None)
            self.activity.pop(table_id, None)
            return live

    def due(self, table_id: int) -> bool:
        """Whether the table owes an automatic step: an AI seat (or a member away
        or gone) to act, a started game without its first deal, or a rebuild
        from storage that failed."""
        if table_id in self.stale:
            return True
        live = self.tables.get(table_id)
        if live is None or live.game is None or live.row.status != "playing":
            return False
        if not live.game.deals:
            return True
        deal = live.deal
        return (deal is not None and not deal.finished and deal.to_act is not None
                and live.is_ai(deal.to_act))

    async def resume(self, table_id: int) -> LiveTable | None:
        """Take the automatic step the table owes (see ``due``): rebuild it, deal
        its first hand, or let AI seats play; ``None`` when nothing was owed.

        Raises:
            StorageFailure: nothing changed; try again later.
        """
        async with self.lock(table_id):
            if not self.due(table_id):
                return None
            if table_id in self.stale:
                try:
                    await self._reload(table_id)
                except STORAGE_ERRORS as exc:
                    raise StorageFailure() from exc
                self.stale.discard(table_id)
            live = self.tables.get(table_id)
            if live is None or live.game is None or live.row.status != "playing":
                return live
            async with self._unit(table_id):
                if not live.game.deals:
                    await self._deal(live)
                else:
                    await self._run_ai(live)
            return live

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

    async def set_delay(self, table_id: int, member_id: int, seconds: int) -> LiveTable:
        """Change the table's automatic next-deal delay (seconds, 0 = off).

        Raises:
            UserError: not seated at the table, or out of range (0..600).
        """
        if not 0 <= seconds <= 600:
            raise UserError("Choose a delay from 0 (off) to 600 seconds.")
        async with self.lock(table_id):
            live = self.get(table_id)
            if live.seat_of(member_id) is None:
                raise UserError("Only players at this table can change its delay.")
            async with self._unit(table_id):
                await self.storage.set_next_deal_delay(table_id, seconds)
                live.row = await self._row(table_id)
            return live

    # Message ids: what the Discord layer posted. They are cosmetic: memory takes
    # them at once, and a failed write is logged, not raised (after a restart the
    # bot then edits an older message, whose controls still work).
    async def _remember(self, table_id: int, what: str,
                        write: Callable[[], Awaitable[None]]) -> None:
        try:
            async with self._unit(None):
                await write()
        except StorageFailure:
            log.warning("table %s: could not store the %s message id", table_id, what)

    async def set_offer_message(self, live: LiveTable, key: str | None,
                                message_id: int | None) -> None:
        """Remember the message that pinged a player about offer ``key`` (or forget it)."""
        live.row = dataclasses.replace(live.row, offer_key=key, offer_message_id=message_id)
        await self._remember(live.id, "offer", lambda: self.storage.set_offer_message(
            live.id, key, message_id))

    async def mark_announced(self, live: LiveTable, message_id: int) -> None:
        """Remember that the latest deal's showdown was posted as ``message_id``."""
        live.showdown_messages[live.deal_number] = message_id
        await self._remember(live.id, "showdown", lambda: self.storage.set_showdown_message(
            live.deal_ids[-1], message_id))

    async def set_message(self, table_id: int, *, lobby: int | None = None,
                          table: int | None = None) -> None:
        """Remember the lobby or the current table message id."""
        live = self.tables.get(table_id)
        if live is not None:
            live.row = dataclasses.replace(
                live.row, lobby_message_id=lobby or live.row.lobby_message_id,
                table_message_id=table or live.row.table_message_id)
        await self._remember(table_id, "table", lambda: self.storage.set_messages(
            table_id, lobby_message_id=lobby, table_message_id=table))

    def observation(self, table_id: int, member_id: int) -> tuple[LiveTable, Observation]:
        """The member's own view of the current deal.

        Raises:
            UserError: not seated, or no deal yet.
        """
        live = self.get(table_id)
        seat = live.seat_of(member_id)
        if seat is None:
            raise UserError("You are not playing at this table.")
        if live.deal is None:
            raise UserError("The game has not started yet.")
        return live, live.deal.observation(seat)

    # ------------------------------------------------- guild-wide queries
    async def settings(self, guild_id: int) -> GuildSettings:
        """The guild's settings (defaults when never set; cached)."""
        cached = self._settings.get(guild_id)
        if cached is None:
            cached = self._settings[guild_id] = await self.storage.get_settings(guild_id)
        return cached

    async def update_settings(self, guild_id: int, member_id: int, **fields: Any) -> GuildSettings:
        """Change guild settings and record who did it in the audit table (one
        transaction).

        Raises:
            UserError: a bad value. StorageFailure: nothing changed.
        """
        try:
            async with self._unit(None):
                settings = await self.storage.update_settings(guild_id, **fields)
                await self.storage.audit(guild_id, member_id, "settings",
                                         ", ".join(f"{k}={v}" for k, v in sorted(fields.items())))
        except ValueError as exc:
            raise UserError(str(exc).capitalize() + ".") from None
        self._settings[guild_id] = settings
        return settings

    async def record(self, table_id: int) -> dict[str, Any]:
        """The table's game as a docs/RULES.md §3 record, read from storage (not memory).

        Raises:
            UserError: no such table, or it never started.
        """
        row = await self.storage.get_table(table_id)
        if row is None or row.first_dealer is None:
            raise UserError("That table has no game to export.")
        seats = await self.storage.seats(table_id)
        deals = []
        for deal_row in await self.storage.deals(table_id):
            ops = [operation_from_dict(a.payload) for a in deal_row.actions]
            deals.append({"deck": list(deal_row.deck), "actions": record_actions(ops)})
        return {"rules": row.preset, "options": dict(row.options),
                "players": [s.name for s in seats], "first_dealer": row.first_dealer,
                "deals": deals}

    async def backup(self, guild_id: int, member_id: int) -> Path:
        """Write a consistent copy of the database beside it, in ``backups/``;
        audited. Returns the file written."""
        stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
        folder = self.storage.path.parent / "backups"
        dest = folder / f"commerce-{stamp}.db"
        n = 1
        while dest.exists():
            n += 1
            dest = folder / f"commerce-{stamp}-{n}.db"
        try:
            await self.storage.backup(dest)
            async with self._unit(None):
                await self.storage.audit(guild_id, member_id, "backup", dest.name)
        except STORAGE_ERRORS as exc:
            log.error("guild %s: backup failed (%s)", guild_id, exc)
            raise StorageFailure("The backup could not be written (a storage problem on "
                                 "the bot's side); nothing changed.") from exc
        return dest

    async def reset_ledger(self, guild_id: int, member_id: int) -> int:
        """Zero every balance in the guild, AI seats' too (offsetting entries;
        audited); points in running games' pots stay there (see
        ``Storage.reset_ledger``). Returns the members reset.

        Raises:
            StorageFailure: nothing changed.
        """
        async with self._unit(None):
            return await self.storage.reset_ledger(guild_id, member_id)

    async def leaderboard(self, guild_id: int, page: int, per_page: int = 10,
                          ) -> tuple[list[tuple[int, int]], int]:
        """One page (0-based) of ``(member_id, balance)`` and the member count."""
        return await self.storage.leaderboard(guild_id, page * per_page, per_page)

    async def stats(self, guild_id: int, member_id: int) -> MemberStats:
        """``/commerce stats`` figures for a member."""
        return await self.storage.member_stats(guild_id, member_id)
