"""A table's game, written once for both storages (``Games``: a mixin of
``Storage`` and ``PgStorage``): its deals, the append-only action log, the
shuffle log (docs/FAIRNESS.md "In the bot"), the coach's hints, and the one read
that rebuilds every open table (``open_state``). Every statement runs against the
unit of work's ``Tx`` (``bot/storage/units.py``); a duplicate or a write the
schema's triggers refuse raises the driver's error (``sqlite3.IntegrityError``;
``asyncpg.IntegrityConstraintViolationError``, ``UniqueViolationError`` for a
duplicate key)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any, ClassVar, NamedTuple

from . import ledger
from .models import (
    ActionRow,
    DealKey,
    DealRow,
    HandResult,
    HintRow,
    LedgerEntry,
    OpenTable,
    SeatRow,
    ShuffleEvent,
)
from .shared import (
    CLOSED_DEAL_STATUSES,
    TABLE_SELECT,
    TABLE_STATUSES,
    check_shards,
    seat_row,
    table_row,
    utc_now,
)
from .units import Statements, Step, Tx

#: a table's shuffle log, in order (one parameter: the table id)
SHUFFLE_EVENTS = ("SELECT id, table_id, kind, deal_number, member_id, attempt, payload"
                  " FROM shuffle_events WHERE table_id = ? ORDER BY id")


def _json_each(texts: list[str]) -> list[Any]:
    """Each of ``texts`` (JSON documents) decoded, in one call of the decoder (a
    restart reads tens of thousands of actions)."""
    if not texts:
        return []
    return list(json.loads("[" + ",".join(texts) + "]"))


def shuffle_events(rows: list[Any]) -> list[ShuffleEvent]:
    """``ShuffleEvent``s of rows of ``shuffle_events`` (sqlite3 or asyncpg), in order."""
    payloads = _json_each([row["payload"] for row in rows])
    return [ShuffleEvent(id=row["id"], kind=row["kind"], deal_number=row["deal_number"],
                         member_id=row["member_id"], attempt=row["attempt"],
                         text=payload.get("text"), cuts=payload.get("cuts"))
            for row, payload in zip(rows, payloads, strict=True)]


def deal_rows(deals: list[Any], actions: list[Any]) -> list[DealRow]:
    """``DealRow``s of rows of ``deals`` with their rows of ``actions`` (by deal
    id, in seq order)."""
    by_deal: dict[int, list[ActionRow]] = {}
    payloads = _json_each([row["payload"] for row in actions])
    for row, payload in zip(actions, payloads, strict=True):
        by_deal.setdefault(row["deal_id"], []).append(
            ActionRow(seq=row["seq"], payload=payload, member_id=row["member_id"]))
    cuts = _json_each([row["cuts"] or "null" for row in deals])
    return [
        DealRow(id=row["id"], number=row["number"], dealer=row["dealer"],
                deck=row["deck"].split(), status=row["status"],
                actions=by_deal.get(row["id"], []),
                showdown_message_id=row["showdown_message_id"],
                commitment=row["commitment"], seed=row["seed"],
                cuts=cut, cut_by=row["cut_by"], finished_at=row["finished_at"],
                attempt=row["attempt"])
        for row, cut in zip(deals, cuts, strict=True)
    ]


class OpenStateSql(NamedTuple):
    """The six statements of ``open_state`` (no parameters; both dialects)."""

    tables: str
    seats: str
    deals: str
    actions: str
    drift: str
    events: str


def open_state_sql(shards: tuple[Iterable[int], int] | None = None) -> OpenStateSql:
    """``open_state``'s statements for the open tables (and the ended ones whose
    end is still to be shown) of the guilds that ``shards`` (``(shard_ids,
    shard_count)``; ``None``: every guild) owns: Discord sends a guild's events
    to shard ``(guild_id >> 22) % shard_count``. Raises
    ValueError for bad shards (``check_shards``)."""
    where = "status IN ('lobby', 'playing')"
    # and the ended tables whose end is still to be shown (``TableUpdates.set_ended``)
    owed = "(status IN ('lobby', 'playing') OR (ended_at IS NOT NULL AND end_shown = 0))"
    if shards is not None:
        ids = check_shards(*shards)
        mine = f" AND (guild_id >> 22) % {int(shards[1])} IN ({', '.join(map(str, ids))})"
        where += mine
        owed += mine
    opened = f" IN (SELECT id FROM tables WHERE {owed})"
    return OpenStateSql(
        tables=TABLE_SELECT.replace("t.game_commitment", "t.game_commitment, t.game_seed")
        + f" WHERE t.id{opened} ORDER BY t.id",
        seats="SELECT * FROM seats WHERE table_id" + opened + " ORDER BY table_id, seat",
        deals="SELECT * FROM deals WHERE table_id" + opened + " ORDER BY table_id, number",
        actions="SELECT a.deal_id, a.seq, a.payload, a.member_id FROM actions a JOIN deals d"
                " ON d.id = a.deal_id WHERE d.table_id" + opened + " ORDER BY a.deal_id, a.seq",
        drift=ledger.drift_sql(f"SELECT guild_id FROM tables WHERE {where}"),
        events=SHUFFLE_EVENTS.replace(" = ?", opened).replace("ORDER BY id",
                                                              "ORDER BY table_id, id"))


async def open_state(tx: Tx, queries: OpenStateSql) -> tuple[list[OpenTable], dict[int, int]]:
    """Run ``queries`` (``open_state_sql``): the open tables with their game seed,
    seats, deals and shuffle logs, and each of their guilds' ledger drift."""
    tables = await tx.all(queries.tables)
    seats: dict[int, list[SeatRow]] = {}
    for row in await tx.all(queries.seats):
        seats.setdefault(row["table_id"], []).append(seat_row(row))
    raw_deals = await tx.all(queries.deals)
    deals: dict[int, list[DealRow]] = {}
    for raw, deal in zip(raw_deals, deal_rows(raw_deals, await tx.all(queries.actions)),
                         strict=True):
        deals.setdefault(raw["table_id"], []).append(deal)
    drift = {int(guild): int(off) for guild, off in await tx.all(queries.drift)}
    events: dict[int, list[Any]] = {}
    for row in await tx.all(queries.events):
        events.setdefault(row["table_id"], []).append(row)
    return [OpenTable(table_row(row), row["game_seed"], seats.get(row["id"], []),
                      deals.get(row["id"], []), shuffle_events(events.get(row["id"], [])))
            for row in tables], drift


async def close_deal(tx: Tx, deal_id: int, status: str, entries: list[LedgerEntry],
                     hands: list[HandResult]) -> None:
    """Close an open deal: its status, ledger rows and hand results.
    Raises ValueError if the deal is not open."""
    now = utc_now()
    if await tx.run("UPDATE deals SET status = ?, finished_at = ? WHERE id = ? AND status = 'open'",
                    (status, now, deal_id)) == 0:
        raise ValueError(f"deal {deal_id} is not open")
    deal = await tx.one("SELECT d.table_id, t.guild_id FROM deals d JOIN tables t"
                        " ON t.id = d.table_id WHERE d.id = ?", (deal_id,))
    assert deal is not None  # the update above found it
    await ledger.append(tx, deal["guild_id"], deal["table_id"], deal_id, entries, now)
    await ledger.insert_rows(
        tx, "INSERT INTO deal_hands (deal_id, seat, member_id, score, label, won, category,"
        " knocked) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [(deal_id, h.seat, h.member_id, h.score, h.label, int(h.won), h.category,
          int(h.knocked)) for h in hands])


#: an action's row (``append_action``), followed by its values or the query giving them
_APPEND = "INSERT INTO actions (deal_id, seq, payload, member_id, created_at)"
#: an action's row by its deal's table and number: ``(table_id, number, seq, payload,
#: member_id, created_at)`` (an unknown deal leaves ``deal_id`` NULL: refused)
_APPEND_TO_DEAL = (_APPEND + " VALUES ((SELECT id FROM deals WHERE table_id = ? AND number = ?),"
                   " ?, ?, ?, ?)")


def _check_finish(status: str) -> None:
    if status not in CLOSED_DEAL_STATUSES:
        raise ValueError(f"a deal closes as 'finished' or 'void', not {status!r}")


class Games(Statements):
    """Games, deals, actions, shuffle logs and hints of both storages."""

    #: the column that orders a table's rows as they were written (``hints``)
    INSERTION_ORDER: ClassVar[str] = "rowid"

    async def start_game(self, table_id: int, first_dealer: int) -> None:
        """Set first_dealer and status 'playing' (creates the ``games`` row).
        Raises ValueError unless the table is in the lobby."""
        async def start(tx: Tx) -> None:
            if await tx.run("UPDATE tables SET status = 'playing' WHERE id = ?"
                            " AND status = 'lobby'", (table_id,)) == 0:
                raise ValueError(f"table {table_id} is not in the lobby")
            await tx.run("INSERT INTO games (table_id, first_dealer, started_at) VALUES (?, ?, ?)",
                         (table_id, first_dealer, utc_now()))
        await self._step_later(start)

    async def start_deal(
        self, table_id: int, number: int, dealer: int, deck: list[str], *,
        commitment: str | None = None, seed: str | None = None,
        cuts: list[str] | None = None, cut_by: int | None = None, attempt: int | None = None,
    ) -> DealKey:
        """Insert the table's open deal ``number``; returns its key (known at
        once: inside a unit the row is written at its commit). UNIQUE(table_id,
        number): a duplicate raises the driver's IntegrityError (PostgreSQL:
        UniqueViolationError). ``deck`` is 52 card codes, top first; raises
        ValueError otherwise. A deal dealt from the game's seed stores the
        ``attempt`` it was dealt from; a format 1 deal (docs/FAIRNESS.md) its
        ``commitment`` and ``seed`` (hex), ``cuts`` (hex strings) and ``cut_by`` (the
        member who cut; ``None``: the bot). None of them changes later."""
        if len(deck) != 52 or any(len(code) != 2 or not code.isalnum() for code in deck):
            raise ValueError("deck must be 52 two-character card codes")
        params = (table_id, number, dealer, " ".join(deck), utc_now(), commitment, seed,
                  None if cuts is None else json.dumps(cuts), cut_by, attempt)

        async def insert(tx: Tx) -> None:
            await tx.run("INSERT INTO deals (table_id, number, dealer, deck, status, started_at,"
                         " commitment, seed, cuts, cut_by, attempt)"
                         " VALUES (?, ?, ?, ?, 'open', ?, ?, ?, ?, ?, ?)", params)
        await self._step_later(insert)
        return DealKey(table_id, number)

    async def set_showdown_message(self, deal: DealKey, message_id: int) -> None:
        """Remember the message that announced the deal's showdown.
        Raises ValueError for an unknown deal."""
        async def update(tx: Tx) -> None:
            if await tx.run("UPDATE deals SET showdown_message_id = ? WHERE table_id = ?"
                            " AND number = ?", (message_id, *deal)) == 0:
                raise ValueError(f"no deal {deal}")
        await self._step_later(update)

    async def game_seed(self, table_id: int) -> str | None:
        """The game's secret seed (hex), if drawn. Only rebuilding the table reads
        it: it is in no row the other queries return."""
        async with self._read() as db:
            row = await self._loop_tx(db).one("SELECT game_seed FROM tables WHERE id = ?",
                                              (table_id,))
        return None if row is None else row[0]

    async def _add_shuffle_event(self, kind: str, column: str,
                                 values: tuple[int, int, int, str]) -> None:
        """Append one row of ``kind`` to the shuffle log: ``values`` are the table,
        the deal number, the value of ``column`` and the payload."""
        params = (*values, utc_now())

        async def insert(tx: Tx) -> None:
            await tx.run(f"INSERT INTO shuffle_events (table_id, kind, deal_number, {column},"
                         f" payload, created_at) VALUES (?, '{kind}', ?, ?, ?, ?)", params)
        await self._step_later(insert)

    async def add_cut(self, table_id: int, deal_number: int, member_id: int, text: str) -> None:
        """Append a member's cut for deal ``deal_number`` (from 1) to the table's
        shuffle log. One cut per member and deal: a second raises the driver's
        IntegrityError (PostgreSQL: UniqueViolationError; nothing written)."""
        await self._add_shuffle_event(
            "cut", "member_id", (table_id, deal_number, member_id, json.dumps({"text": text})))

    async def add_attempt(self, table_id: int, deal_number: int, attempt: int,
                          cuts: list[dict[str, Any]]) -> None:
        """Append attempt ``attempt`` (from 1) at deal ``deal_number`` with the
        ``cuts`` it uses (``[{"seat", "text"}]``) to the shuffle log; written and
        committed before the deal's deck is derived. A repeated attempt raises the
        driver's IntegrityError (PostgreSQL: UniqueViolationError; nothing written)."""
        await self._add_shuffle_event(
            "attempt", "attempt", (table_id, deal_number, attempt, json.dumps({"cuts": cuts})))

    async def shuffle_events(self, table_id: int) -> list[ShuffleEvent]:
        """The table's shuffle log, in order (docs/FAIRNESS.md "In the bot")."""
        async with self._read() as db:
            return shuffle_events(await self._loop_tx(db).all(SHUFFLE_EVENTS, (table_id,)))

    async def append_action(
        self, deal: DealKey, seq: int, payload: dict[str, Any], member_id: int | None,
        *, finish: tuple[str, list[LedgerEntry], list[HandResult]] | None = None,
    ) -> None:
        """Append one action to the deal (UNIQUE(deal_id, seq): a duplicate raises
        the driver's IntegrityError and changes nothing). With ``finish=(status,
        ledger, hands)`` the deal is closed in the same transaction: status set,
        ledger rows (guild, table, deal, seat, member, amount, reason) and hand
        results inserted. Appending to a closed deal raises the driver's
        IntegrityError (the triggers refuse), and so does appending to a deal that
        does not exist (its ``deal_id`` would be NULL; with ``finish``: ValueError);
        a bad ``finish`` raises ValueError (see ``finish_deal``); nothing is written
        on any error."""
        if finish is not None:
            _check_finish(finish[0])
        text = json.dumps(payload)

        if finish is None:  # most moves: the deal found in the statement that appends
            def append_rows(rows: list[Sequence[Any]]) -> Step[None]:
                async def append(tx: Tx) -> None:
                    await ledger.insert_rows(tx, _APPEND_TO_DEAL, rows)
                return append
            # the actions appended in a row (a move and the AI's answers): one statement
            await self._step_rows(("actions", deal), (*deal, seq, text, member_id, utc_now()),
                                  append_rows)
            return

        async def append(tx: Tx) -> None:
            deal_id = await ledger.deal_id(tx, deal)
            await tx.run(_APPEND + " VALUES (?, ?, ?, ?, ?)",
                         (deal_id, seq, text, member_id, utc_now()))
            await close_deal(tx, deal_id, *finish)
        await self._step_later(append)

    async def finish_deal(
        self, deal: DealKey, status: str, entries: list[LedgerEntry], hands: list[HandResult],
    ) -> None:
        """Close a deal without an action (void: status 'void', refund rows).
        ``status`` is ``finished`` or ``void``; raises ValueError for another
        status or a deal that is not open (nothing is written)."""
        _check_finish(status)

        async def close(tx: Tx) -> None:
            await close_deal(tx, await ledger.deal_id(tx, deal), status, entries, hands)
        await self._step_later(close)

    async def finish_game(self, table_id: int, winners: list[int], status: str) -> None:
        """Record the game's winning seats and set the table status (normally
        ``finished``; ``closed`` for an abandoned game). Raises ValueError if the
        game was never started or the status is unknown."""
        if status not in TABLE_STATUSES:
            raise ValueError(f"unknown table status {status!r}")

        async def finish(tx: Tx) -> None:
            if await tx.run("UPDATE games SET winners = ?, finished_at = ? WHERE table_id = ?",
                            (json.dumps(list(winners)), utc_now(), table_id)) == 0:
                raise ValueError(f"table {table_id} has no started game")
            await tx.run("UPDATE tables SET status = ? WHERE id = ?", (status, table_id))
        await self._step_later(finish)

    async def add_hint(self, deal: DealKey, seq: int, seat: int, member_id: int | None,
                       advice: str, reason: str) -> None:
        """Record a hint the coach gave ``seat`` of ``deal`` after ``seq``
        operations: its ``advice`` (an operation's wording) and ``reason``
        (one line). Append-only. Raises ValueError for an unknown deal."""
        now = utc_now()

        async def insert(tx: Tx) -> None:
            await tx.run(
                "INSERT INTO hints (deal_id, seq, seat, member_id, advice, reason, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (await ledger.deal_id(tx, deal), seq, seat, member_id, advice, reason, now))
        await self._step_later(insert)

    async def hints(self, table_id: int) -> dict[int, list[HintRow]]:
        """The hints given at the table: deal number -> hints in the order given
        (the table is append-only: ``INSERTION_ORDER`` is the order of insertion)."""
        async with self._read() as db:
            rows = await self._loop_tx(db).all(
                "SELECT d.number, h.seq, h.seat, h.member_id, h.advice, h.reason FROM hints h"
                " JOIN deals d ON d.id = h.deal_id WHERE d.table_id = ?"
                f" ORDER BY d.number, h.created_at, h.{self.INSERTION_ORDER}", (table_id,))
        out: dict[int, list[HintRow]] = {}
        for row in rows:
            out.setdefault(row["number"], []).append(HintRow(
                seq=row["seq"], seat=row["seat"], member_id=row["member_id"],
                advice=row["advice"], reason=row["reason"]))
        return out

    async def deals(self, table_id: int) -> list[DealRow]:
        """Every deal of the table, by number, with its actions in seq order."""
        async with self._read() as db:
            tx = self._loop_tx(db)
            deals = await tx.all("SELECT * FROM deals WHERE table_id = ? ORDER BY number",
                                 (table_id,))
            actions = await tx.all(
                "SELECT a.deal_id, a.seq, a.payload, a.member_id FROM actions a"
                " JOIN deals d ON d.id = a.deal_id WHERE d.table_id = ? ORDER BY a.deal_id, a.seq",
                (table_id,))
        return deal_rows(deals, actions)

    async def open_state(self, shards: tuple[Sequence[int], int] | None = None,
                         ) -> tuple[list[OpenTable], dict[int, int]]:
        """Everything needed to rebuild every open table, in one call (SQLite: on
        the database thread; PostgreSQL: one repeatable-read snapshot) and six
        set-based queries (whatever the number of tables): the open tables (by id)
        with their game seed, seats, deals, actions and shuffle logs; and, per guild
        with an open table, its ledger's drift (the sum of its rows plus the points
        in its open pools and pots: 0 when the books are right; docs/RELIABILITY.md,
        "Ledger"). ``shards``: ``(shard_ids, shard_count)``, only the tables of the
        guilds those shards own (``None``: every guild); ValueError for bad shards
        (``open_state_sql``)."""
        queries = open_state_sql(shards)

        async def read(tx: Tx) -> tuple[list[OpenTable], dict[int, int]]:
            return await open_state(tx, queries)
        return await self._step_read(read)
