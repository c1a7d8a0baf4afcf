"""The core every request of the table service shares: the open tables in
memory, the unit of work (one transaction; memory rebuilt from storage when
it fails), the rebuild of a table from its action log, and the engine step
that appends each operation to that log and lets AI seats play.
"""

from __future__ import annotations

import asyncio
import dataclasses
import gc
import logging
import random
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from typing import Any, Protocol

from ..engine import (
    AnyDeal,
    Card,
    Game,
    Observation,
    Operation,
    Rules,
    RulesError,
    card_code,
    category_name,
    describe,
    get_preset,
    operation_from_dict,
    operation_to_dict,
    parse_card,
)
from ..engine.fairness import SEED_BYTES, Attempt, Cut, ShuffleLog, Shuffler, commitment
from ..engine.fairness_v1 import DealProof
from ..i18n import _
from ..storage import (
    OPEN_STATUSES,
    AnyStorage,
    DealRow,
    GuildSettings,
    HandResult,
    LedgerEntry,
    OpenTable,
    SeatRow,
    ShuffleEvent,
    TableClosed,
    TableRow,
    utc_now,
)
from .errors import STORAGE_ERRORS, ServiceError, StorageFailure, TableGone, UserError
from .live import LiveTable
from .locks import InFlight, KeyedLock
from .players import AiPlayers
from .refusals import refusal
from .skill import rate_finished

log = logging.getLogger(__name__)

#: bytes of the cut the bot makes itself for a deal of a game begun before one
#: commitment covered a whole game (docs/FAIRNESS.md "Format 1 records")
BOT_CUT_BYTES = 16


def proof_of(deal_row: DealRow) -> DealProof | None:
    """A stored format 1 deal's fairness data (``None`` for a deal without it)."""
    if deal_row.commitment is None:
        return None
    return DealProof(
        deal_row.commitment,
        None if deal_row.seed is None else bytes.fromhex(deal_row.seed),
        None if deal_row.cuts is None else tuple(bytes.fromhex(c) for c in deal_row.cuts))


def posted_at(row: TableRow) -> dict[str, int] | None:
    """Where the table's fair-shuffle message is (``{"guild", "channel",
    "message"}``), or ``None`` when it has not been posted."""
    if row.commitment_message_id is None:
        return None
    return {"guild": row.guild_id, "channel": row.channel_id,
            "message": row.commitment_message_id}


def attempt_of(event: ShuffleEvent) -> Attempt:
    """The attempt an ``attempt`` line of the shuffle log wrote down."""
    assert event.kind == "attempt" and event.attempt is not None
    return Attempt(event.deal_number, event.attempt,
                   tuple(Cut(int(c["seat"]), str(c["text"])) for c in event.cuts or []))


def game_of(row: TableRow, seats: list[SeatRow], deals: list[DealRow],
            events: list[ShuffleEvent], seed: str | None) -> Game | None:
    """A table's game rebuilt from what is stored of it (``None`` before it
    started): each deal dealt from its stored deck and its actions applied
    (docs/RECORDS.md); a game with one commitment (docs/FAIRNESS.md) also gets its
    shuffle log (each deal's attempt and cuts, every attempt never dealt) and,
    with ``seed`` (hex), its shuffler. A closed table's game is closed."""
    if row.first_dealer is None:
        return None
    rules = get_preset(row.preset, row.options)
    tried = {(e.deal_number, e.attempt): attempt_of(e) for e in events if e.kind == "attempt"}
    log = shuffler = None
    if row.game_commitment is not None:
        dealt = {(d.number, d.attempt) for d in deals if d.attempt is not None}
        log = ShuffleLog(row.game_commitment, posted_at(row), [],
                         [a for key, a in sorted(tried.items()) if key not in dealt])
        if seed is not None:
            shuffler = Shuffler(bytes.fromhex(seed), row.id, row.preset)
    game = Game(rules, len(seats), row.first_dealer, table=row.id, shuffler=shuffler,
                shuffle_log=log)
    for deal_row in deals:
        attempt = None if deal_row.attempt is None else tried.get(
            (deal_row.number, deal_row.attempt), Attempt(deal_row.number, deal_row.attempt))
        deal = game.start_deal([parse_card(c) for c in deal_row.deck],
                               proof=proof_of(deal_row), attempt=attempt)
        for action in deal_row.actions:
            deal.apply(operation_from_dict(action.payload))
        if deal_row.status == "void" and not deal.finished:
            deal.void()
    if row.status == "closed":
        game.closed = True
    return game


def ledger_entries(live: LiveTable, deal: AnyDeal) -> list[LedgerEntry]:
    """The ledger rows of a finished deal's movements (each payer's and payee's)."""
    entries = []
    for m in deal.movements:
        if m.payer is not None:
            entries.append(LedgerEntry(m.payer, live.member_of(m.payer), -m.amount, m.reason))
        if m.payee is not None:
            entries.append(LedgerEntry(m.payee, live.member_of(m.payee), m.amount, m.reason))
    return entries

def hand_results(live: LiveTable, deal: AnyDeal) -> list[HandResult]:
    """Each scored hand of a finished deal's showdown, as stored with the deal."""
    sd = deal.showdown
    if sd is None:
        return []
    return [
        HandResult(s, live.member_of(s), sd.scores[s] or 0, describe(h, deal.rules.ranking),
                   s == sd.winner, category_name(c) if (c := sd.categories[s]) else None,
                   s == sd.knocker)
        for s, h in enumerate(sd.hands) if h and sd.scores[s] is not None
    ]


class CommitCounter(Protocol):
    """What the service counts of its units of work; the bot's metrics
    (``bot.runtime.metrics.Metrics``) fit it, so the service imports nothing of
    the Discord side."""

    def committed(self, seconds: float) -> None:
        """A unit of work committed; its commit took ``seconds``."""

    def commit_failed(self) -> None:
        """A unit of work failed on a storage error: nothing of it was written."""


class Uncounted:
    """A ``CommitCounter`` that counts nothing: a service made without the bot."""

    def committed(self, seconds: float) -> None:
        """Nothing is counted."""

    def commit_failed(self) -> None:
        """Nothing is counted."""


class ServiceBase:
    """State and unit of work of ``TableService`` (``bot.service``); the other
    parts of the service (life cycle, actions, automatic progress, queries)
    build on it.

    Args:
        storage: the opened storage.
        rng: a seeded ``random.Random`` for tests only; ``None`` uses the OS CSPRNG.
        metrics: what counts the commits (the bot's ``bot.runtime.metrics.Metrics``);
            ``None``: nothing counts them.
    """

    def __init__(self, storage: AnyStorage, rng: random.Random | None = None,
                 metrics: CommitCounter | None = None) -> None:
        """A service with no table in memory yet; ``load`` rebuilds the open ones."""
        self.storage = storage
        self.rng = rng
        self.metrics: CommitCounter = metrics if metrics is not None else Uncounted()
        self.tables: dict[int, LiveTable] = {}
        #: open tables whose rebuild from storage failed; ``resume`` retries them
        self.stale: set[int] = set()
        #: message ids (and the like) that could not be stored yet, by (table, what):
        #: the watch writes them again (``write_unsaved``)
        self.unsaved: dict[tuple[int, str], Callable[[], Awaitable[None]]] = {}
        #: tables that ended (game over, or closed) whose end Discord does not show
        #: yet: the publisher shows it, then ``end_shown`` forgets them
        self.ending: dict[int, LiveTable] = {}
        #: lobby table id -> event-loop time of its last join/leave/AI seat
        self.activity: dict[int, float] = {}
        self.lock = KeyedLock()
        #: units of work running now (``_unit``): a clean stop waits for them
        self.units = InFlight()
        #: who decides for AI seats, and the coach (strong search off the event loop)
        self.players = AiPlayers(None if rng is None else random.Random(0))
        self._settings: dict[int, GuildSettings] = {}
        #: each member's deck by ``(guild id, member id)`` (``Preferences.deck``)
        self._decks: dict[tuple[int, int], str] = {}
        #: tests only: decks to deal next, in order, instead of fair ones (such a deal
        #: is not dealt from the game's seed, and ``verify`` says so)
        self.arranged_decks: list[list[Card]] = []
        #: tests only: the first dealer of every game started, instead of the one its
        #: seed gives (``verify`` then says the first dealer is not the seed's)
        self.arranged_dealer: int | None = None

    async def load(self, shards: tuple[Sequence[int], int] | None = None) -> list[LiveTable]:
        """Rebuild every open table from storage by replaying its action log, then
        check the books of every guild with an open table: its ledger must sum
        to minus the points in its running pots (docs/RELIABILITY.md, "Ledger");
        a drift is logged as an error for the admins (nothing is changed).
        ``shards``: ``(shard_ids, shard_count)``, only the guilds those shards own
        (``Storage.open_state``); ``None``, every guild."""
        self.tables.clear()
        self.stale.clear()
        self.ending.clear()
        # Loading makes a great many long-lived objects and no garbage: the cyclic
        # collector would walk them again and again as they pile up (about half the
        # time of 10,000 tables, scripts/bench_resume.py), so it waits until the
        # tables are built. Memory is freed as usual all the while (by counting).
        collecting = gc.isenabled()
        gc.disable()
        try:
            stored, drifts = await self.storage.open_state(shards)
            for state in stored:
                try:
                    self._keep(self._build(state))
                except Exception:  # a broken table must not stop the others
                    log.exception("table %s could not be rebuilt", state.row.id)
                    if state.row.status in OPEN_STATUSES:
                        self.stale.add(state.row.id)
        finally:
            if collecting:
                gc.enable()
        for guild_id, drift in sorted(drifts.items()):
            if drift:
                log.error("guild %s: the ledger is off by %+d points", guild_id, drift)
        return list(self.tables.values())

    @asynccontextmanager
    async def _unit(self, table_id: int | None) -> AsyncIterator[None]:
        """One unit of work: every write made inside is committed together, or none,
        in one call on the database thread when the block ends (``Storage.atomic``):
        the engine step, the AI's answers, the deal's end and its ledger rows
        go to the database at once, and nothing is answered before that commit.

        The table must still be open in storage when the unit commits. On any
        failure the table is rebuilt from storage, so memory never runs ahead of
        the database; a storage error becomes ``StorageFailure``. A unit counts in
        ``units`` from its start to its end (its rebuild included), so a clean
        stop (``bot.process.stopping``) lets it finish rather than cancel it half-way.
        ``metrics`` count its commit (and the seconds it took), or its failure.

        Raises:
            TableGone: the table was closed in storage (it leaves memory too).
            StorageFailure: the transaction could not begin or commit
                (``rebuilt``: memory was rebuilt from storage).
        """
        with self.units.track():
            try:
                async with self.storage.atomic():
                    if table_id is not None:
                        await self.storage.require_open(table_id)
                    yield
                    done = time.perf_counter()
                self.metrics.committed(time.perf_counter() - done)
            except ServiceError:  # raised before anything changed (a refused request)
                raise
            except TableClosed:
                self.tables.pop(table_id or 0, None)
                raise TableGone(_("This table is closed.")) from None
            except BaseException as exc:  # also a cancellation: memory must never run ahead
                if table_id is not None:
                    await asyncio.shield(self._resync(table_id))
                if isinstance(exc, STORAGE_ERRORS):
                    self.metrics.commit_failed()
                    log.error("table %s: a write failed (%s); nothing of it was kept",
                              table_id, type(exc).__name__)
                    raise StorageFailure(rebuilt=table_id not in self.stale) from exc
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
            raise UserError(_("This table no longer exists."))
        live = self._build(OpenTable(row, await self.storage.game_seed(table_id),
                                     await self.storage.seats(table_id),
                                     await self.storage.deals(table_id),
                                     await self.storage.shuffle_events(table_id)))
        self._keep(live)
        return live

    def _keep(self, live: LiveTable) -> None:
        """Keep ``live`` where its row says it belongs: with the open tables, with
        the ended ones whose end is still to be shown (``ending``), or nowhere."""
        table_id = live.id
        if live.row.status in OPEN_STATUSES:
            self.tables[table_id] = live
            self.ending.pop(table_id, None)
            return
        self.tables.pop(table_id, None)
        self.activity.pop(table_id, None)
        if live.row.end_shown or live.row.ended_at is None:  # shown, or ended long ago
            self.ending.pop(table_id, None)
        else:
            self.ending[table_id] = live

    async def _ended(self, live: LiveTable, status: str) -> None:
        """The table ends now with ``status`` (``finished`` or ``closed``), inside
        the caller's unit: its row says so and when, its end is still to be shown,
        and memory keeps it with the ``ending`` tables (the unit's failure puts it
        back, ``_resync``)."""
        if status != "finished":  # a finished game's status comes with its winners
            await self.storage.set_status(live.id, status)
        await self.storage.set_ended(live.id)
        live.row = dataclasses.replace(live.row, status=status, end_shown=False,
                                       ended_at=live.row.ended_at or utc_now())
        self._keep(live)

    def current(self, table_id: int) -> LiveTable | None:
        """The table in memory: open, or ended with its end still to be shown."""
        return self.tables.get(table_id) or self.ending.get(table_id)

    @staticmethod
    def _build(state: OpenTable) -> LiveTable:
        """A table in memory from what is stored of it: its deals replayed
        through the engine (docs/RECORDS.md), its shuffle log."""
        row, seats = state.row, state.seats
        live = LiveTable(row, seats, get_preset(row.preset, row.options),
                         events=list(state.events), game_seed=state.game_seed)
        live.game = game_of(row, seats, state.deals, state.events, state.game_seed)
        for deal_row in state.deals:
            if deal_row.showdown_message_id is not None:
                live.showdown_messages[deal_row.number] = deal_row.showdown_message_id
        return live

    async def settled(self, table_id: int) -> None:
        """Return once no request is changing the table: its memory then holds
        only what is committed (a unit changes the engine first and commits at
        its end). Acknowledges the running interaction before any wait."""
        if self.lock.locked(table_id):
            async with self.lock(table_id):
                pass

    def get(self, table_id: int) -> LiveTable:
        """The open table ``table_id``.

        Raises:
            TableGone: no such open table (closed, or being rebuilt).
        """
        live = self.tables.get(table_id)
        if live is None:
            if table_id in self.stale:
                raise TableGone(_("This table is being restored after a storage problem; "
                                  "try again in a moment."))
            raise TableGone(_("This table is closed."))
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
            raise UserError(_("That is not a preset name. See /commerce rules."))
        try:
            return get_preset(preset, options)
        except RulesError as exc:
            text = refusal(exc)
            raise UserError(text[:1].upper() + text[1:200] + ".") from None

    async def _row(self, table_id: int) -> TableRow:
        row = await self.storage.get_table(table_id)
        assert row is not None
        return row

    # ------------------------------------------------------- fair deals
    def _random(self, size: int) -> bytes:
        """``size`` random bytes: the OS CSPRNG, or the seeded test RNG when given."""
        return self.rng.randbytes(size) if self.rng is not None else secrets.token_bytes(size)

    async def _commit_game(self, live: LiveTable) -> None:
        """Draw the game's secret seed and store it with its commitment (inside the
        caller's unit); the publisher then posts the commitment in the table
        channel, before anything can be dealt (docs/FAIRNESS.md "In the bot")."""
        seed = self._random(SEED_BYTES)
        committed = commitment(seed)
        await self.storage.set_game_seed(live.id, seed.hex(), committed)
        live.game_seed = seed.hex()
        live.row = dataclasses.replace(live.row, game_commitment=committed)

    async def _write_attempt(self, live: LiveTable) -> Attempt:
        """Write down the next attempt at the table's next deal (its number, the
        cuts of the members seated now) in a unit of its own, committed before the
        deck is derived: if dealing then fails, it is burned and the next attempt
        has the next number (docs/FAIRNESS.md "In the bot"). Raises UserError or
        StorageFailure: nothing was written, no deck derived."""
        number = live.next_number
        attempt = Attempt(number, live.attempts_at(number) + 1, live.seated_cuts(number))
        async with self._unit(live.id):
            await self.storage.add_attempt(live.id, number, attempt.attempt,
                                           [c.to_record() for c in attempt.cuts])
        live.events.append(ShuffleEvent(0, "attempt", number, attempt=attempt.attempt,
                                        cuts=[c.to_record() for c in attempt.cuts]))
        return attempt

    @staticmethod
    def _shuffler(live: LiveTable) -> Shuffler | None:
        """The game's shuffler from the seed kept for the lobby, if any."""
        seed = live.game_seed
        return None if seed is None else Shuffler(bytes.fromhex(seed), live.id, live.row.preset)

    # ---------------------------------------------------- the engine step
    async def _deal(self, live: LiveTable, attempt: Attempt | None = None) -> None:
        """Deal the next hand and let AI seats play (inside the caller's unit): from
        the game's seed, ``attempt`` (written down beforehand, ``_write_attempt``); in
        a game begun before one seed covered a game, from a fresh seed of its own and
        the bot's cut (docs/FAIRNESS.md "Format 1 records")."""
        game = live.game
        assert game is not None
        number = len(game.deals) + 1
        if self.arranged_decks:  # tests only
            deck = self.arranged_decks.pop(0)
            deal = game.start_deal(deck)
            await self.storage.start_deal(
                live.id, number, deal.dealer, [card_code(c) for c in deck])
        elif game.shuffler is not None:
            assert attempt is not None
            deal = game.deal_attempt(attempt)
            await self.storage.start_deal(
                live.id, number, deal.dealer, [card_code(c) for c in deal.deck],
                attempt=attempt.attempt)
        else:
            seed, cut = self._random(SEED_BYTES), self._random(BOT_CUT_BYTES)
            deal = game.start_fair_deal(seed, [cut])
            proof = game.proofs[-1]
            assert proof is not None
            await self.storage.start_deal(
                live.id, number, deal.dealer, [card_code(c) for c in deal.deck],
                commitment=proof.commitment, seed=seed.hex(), cuts=[cut.hex()], cut_by=None)
        await self._run_ai(live)

    async def _deal_next(self, live: LiveTable) -> None:
        """Deal a running game's next deal: its attempt written down first (a unit
        of its own), then the deal and the AI seats' first moves (a second unit).
        Raises StorageFailure: nothing was dealt (an attempt written is burned)."""
        game = live.game
        assert game is not None
        attempt = None
        if game.shuffler is not None and not self.arranged_decks:
            attempt = await self._write_attempt(live)
        async with self._unit(live.id):
            await self._deal(live, attempt)

    async def _run_ai(self, live: LiveTable) -> None:
        deal = live.deal
        while deal is not None and not deal.finished:
            seat = deal.to_act
            assert seat is not None
            if not live.is_ai(seat):
                return
            row = live.seats[seat]
            if row.is_ai:
                decision = await self.players.decide(deal, seat, row.ai_level or "easy")
            else:  # a member away or gone: the AI plays easy for them
                decision = self.players.decide_now(deal, seat)
            op = deal.act(seat, decision)
            await self._persist(live, op, None)

    async def _persist(self, live: LiveTable, op: Operation, member_id: int | None) -> None:
        """Append ``op`` (already applied to the engine) to the log, closing the
        deal (and the game) when it ends. Runs inside the caller's ``_unit``,
        which rebuilds the table from storage if anything fails."""
        deal = live.deal
        assert deal is not None and live.game is not None
        finish = None
        if deal.finished:
            finish = ("finished", ledger_entries(live, deal), hand_results(live, deal))
        await self.storage.append_action(
            live.deal_key, len(deal.operations) - 1, operation_to_dict(op), member_id,
            finish=finish,
        )
        if deal.finished and live.game.complete:
            await self.storage.finish_game(live.id, live.game.winners or [], "finished")
            await rate_finished(self.storage, live)
            await self._ended(live, "finished")

    def observation(self, table_id: int, member_id: int) -> tuple[LiveTable, Observation]:
        """The member's own view of the current deal.

        Raises:
            TableGone: the table is not open.
            NotSeated: the member is not seated there.
            UserError: no deal yet.
        """
        live = self.get(table_id)
        seat = live.seated(member_id)
        if live.deal is None:
            raise UserError(_("The game has not started yet."))
        return live, live.deal.observation(seat)
