"""Read-only reports of a guild's books: the leaderboard (by preset and since a
moment), a member's figures, the games that are over, and the pages of a
server's export (its ledger rows, its open tables).

``Reports`` is a mixin of both storages (``Storage`` on SQLite, ``PgStorage`` on
PostgreSQL): it only reads, through the storage's ``_read()`` connection and its
``_one`` / ``_all`` helpers (``?`` placeholders; PgStorage translates them), so it
never takes part in the write path. The SQL is shared; the two statements that read
JSON (``_moves_sql``, ``_games_sql``) are written once per dialect. Only finished
deals count in the figures; the ledger counts every row.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from contextlib import AbstractAsyncContextManager
from datetime import UTC, datetime
from functools import cache
from typing import TYPE_CHECKING, Any, ClassVar

from .models import BestHand, LedgerRow, MemberStats, PastGame, PresetStats

#: the ledger rows a leaderboard reads: humans' rows, never a reset's offsets
_BOARD_FROM = (
    " FROM ledger l LEFT JOIN tables t ON t.id = l.table_id"
    " WHERE l.guild_id = ? AND l.member_id IS NOT NULL AND l.reason NOT IN ('reset', 'reset-pot')"
)

#: a member's final hands at the finished deals of a guild (``h``, ``d``, ``t``)
_HANDS_FROM = (
    " FROM deal_hands h JOIN deals d ON d.id = h.deal_id JOIN tables t ON t.id = d.table_id"
    " WHERE t.guild_id = ? AND h.member_id = ? AND d.status = 'finished'"
)

#: per preset, a member's best hand with its deal: highest score, then the earliest deal
_BEST_SQL = (
    "SELECT * FROM (SELECT t.preset, h.score, h.label, h.category, t.id AS table_id,"
    " t.number AS table_number, d.number AS deal_number, d.finished_at,"
    " ROW_NUMBER() OVER (PARTITION BY t.preset ORDER BY h.score DESC, h.deal_id ASC) AS pos"
    + _HANDS_FROM + ") AS ranked WHERE pos = 1"
)


def _field(dialect: str, column: str, key: str) -> str:
    """SQL for the value at ``key`` of the JSON object in ``column`` (SQL NULL for
    JSON null): an integer stays one on SQLite, text on PostgreSQL."""
    if dialect == "postgres":
        return f"({column}::json ->> '{key}')"
    return f"json_extract({column}, '$.{key}')"


@cache
def _moves_sql(dialect: str) -> str:
    """Per preset, a member's trades and barter offers (the seat of each logged
    operation is the member's seat at that table), and the offers the next
    operation accepted; ``dialect``: ``sqlite`` or ``postgres``."""
    kind, answer = _field(dialect, "a.payload", "kind"), _field(dialect, "b.payload", "kind")
    seat = _field(dialect, "a.payload", "seat")
    if dialect == "postgres":
        seat += "::int"
    return (
        "SELECT t.preset,"
        f" SUM(CASE WHEN {kind} = 'trade' THEN 1 ELSE 0 END) AS trades,"
        f" SUM(CASE WHEN {kind} = 'barter_offer' THEN 1 ELSE 0 END) AS barters,"
        f" SUM(CASE WHEN {kind} = 'barter_offer' AND {answer} = 'barter_answer'"
        f"     AND {_field(dialect, 'b.payload', 'card')} IS NOT NULL THEN 1 ELSE 0 END)"
        " AS accepted"
        " FROM actions a JOIN deals d ON d.id = a.deal_id JOIN tables t ON t.id = d.table_id"
        f" JOIN seats s ON s.table_id = d.table_id AND s.seat = {seat}"
        " LEFT JOIN actions b ON b.deal_id = a.deal_id AND b.seq = a.seq + 1"
        " WHERE t.guild_id = ? AND s.member_id = ? AND d.status = 'finished'"
        f" AND {kind} IN ('trade', 'barter_offer')"
        " GROUP BY t.preset"
    )


@cache
def _games_sql(dialect: str) -> str:
    """A member's finished games in a guild and those a seat of theirs won (one of
    the game's JSON list of winning seats); ``dialect``: ``sqlite`` or ``postgres``."""
    won = ("SELECT 1 FROM json_array_elements_text(g.winners::json) w"
           " WHERE w.value::int = s.seat" if dialect == "postgres"
           else "SELECT 1 FROM json_each(g.winners) w WHERE w.value = s.seat")
    return (
        "SELECT COUNT(DISTINCT t.id),"
        f" COUNT(DISTINCT CASE WHEN EXISTS ({won}) THEN t.id END)"
        " FROM tables t JOIN seats s ON s.table_id = t.id"
        " LEFT JOIN games g ON g.table_id = t.id"
        " WHERE t.guild_id = ? AND t.status = 'finished' AND s.member_id = ?"
    )


def _stamp(moment: datetime) -> str:
    """``moment`` as the ledger writes times (ISO 8601 UTC, whole seconds), so
    that text comparison is time comparison."""
    return moment.astimezone(UTC).isoformat(timespec="seconds")


def _best(row: Any) -> BestHand:
    return BestHand(preset=row["preset"], score=int(row["score"]), label=row["label"],
                    category=row["category"], table_id=int(row["table_id"]),
                    table_number=int(row["table_number"]),
                    deal_number=int(row["deal_number"]), finished_at=row["finished_at"])


class Reports:
    """The read-only reports of both storages (a mixin: ``class Storage(Reports)``,
    ``class PgStorage(Reports)``)."""

    #: the SQL dialect of the storage: ``sqlite`` or ``postgres``
    dialect: ClassVar[str] = "sqlite"

    if TYPE_CHECKING:  # provided by Storage and PgStorage; ``db`` is their connection
        def _read(self) -> AbstractAsyncContextManager[Any]: ...

        @staticmethod
        async def _one(db: Any, sql: str, params: Iterable[Any] = ()) -> Any: ...

        @staticmethod
        async def _all(db: Any, sql: str, params: Iterable[Any] = ()) -> list[Any]: ...

    # ------------------------------------------------------------------ ledger

    async def member_names(self, guild_id: int, member_ids: Iterable[int]) -> dict[int, str]:
        """The name each member had at their latest seat in the guild (as stored:
        raw text of their choosing); members never seated are left out."""
        ids = sorted(set(member_ids))
        if not ids:
            return {}
        marks = ", ".join("?" for _ in ids)
        async with self._read() as db:
            rows = await self._all(
                db, "SELECT s.member_id, s.name FROM seats s JOIN tables t ON t.id = s.table_id"
                f" WHERE t.guild_id = ? AND s.member_id IN ({marks})"
                " ORDER BY s.table_id, s.seat", (guild_id, *ids))
        return {int(row[0]): str(row[1]) for row in rows}  # the latest seat wins

    async def leaderboard(
        self, guild_id: int, offset: int, limit: int, *, preset: str | None = None,
        since: datetime | None = None, window: tuple[int, int | None] | None = None,
    ) -> tuple[list[tuple[int, int]], int]:
        """One page of the guild's ledger: ``([(member_id, balance)...], total)``,
        by balance (points) desc, then member id asc; ``total`` counts the members
        ranked. Humans only (ledger rows with a member id).

        ``preset`` keeps the rows of that preset's tables; ``since`` (an aware
        datetime) the rows written at or after it. A ledger reset (``reset_ledger``)
        starts every board again: a row written before the guild's last reset
        still ranks its member, at 0 (so unfiltered balances are the members'
        balances, as the reset left them). ``window``: a season's rows only, ids
        after its first and up to its second (``None``: no end); a reset after the
        window does not touch it (docs/RATINGS.md "Seasons").
        """
        where = _BOARD_FROM
        params: list[Any] = [guild_id]
        if preset is not None:
            where += " AND t.preset = ?"
            params.append(preset)
        if since is not None:
            where += " AND l.created_at >= ?"
            params.append(_stamp(since))
        resets: list[Any] = [guild_id]
        if window is not None:
            where += " AND l.id > ?"
            params.append(window[0])
            if window[1] is not None:
                where += " AND l.id <= ?"
                params.append(window[1])
                resets.append(window[1])
        async with self._read() as db:
            reset = await self._one(
                db, "SELECT COALESCE(MAX(id), 0) FROM ledger WHERE guild_id = ?"
                    " AND reason IN ('reset', 'reset-pot')" + (" AND id <= ?" if len(resets) > 1
                                                               else ""), resets)
            rows = await self._all(
                db,
                "SELECT l.member_id, SUM(CASE WHEN l.id > ? THEN l.amount ELSE 0 END) AS balance"
                + where + " GROUP BY l.member_id ORDER BY balance DESC, l.member_id ASC"
                " LIMIT ? OFFSET ?",
                (int(reset[0]), *params, limit, offset),
            )
            total = await self._one(db, "SELECT COUNT(DISTINCT l.member_id)" + where, params)
        return [(row["member_id"], row["balance"]) for row in rows], int(total[0])

    async def tables_served(self) -> tuple[int, int]:
        """Tables ever opened and games ever started in the whole database, every
        guild's (``/commerce about``)."""
        async with self._read() as db:
            row = await self._one(db, "SELECT (SELECT COUNT(*) FROM tables),"
                                      " (SELECT COUNT(*) FROM games)")
        return int(row[0]), int(row[1])

    async def presets_played(self, guild_id: int) -> list[str]:
        """The presets of the guild's tables whose game started, most played first
        (then by name)."""
        async with self._read() as db:
            rows = await self._all(
                db,
                "SELECT t.preset FROM tables t JOIN games g ON g.table_id = t.id"
                " WHERE t.guild_id = ? GROUP BY t.preset ORDER BY COUNT(*) DESC, t.preset",
                (guild_id,),
            )
        return [row["preset"] for row in rows]

    async def member_stats(self, guild_id: int, member_id: int) -> MemberStats:
        """The member's figures in the guild (see ``MemberStats``): balance
        (points), finished games played and won, finished deals played and won,
        best hand with its deal, deals won by category, and per preset played
        (by name) deals, trades, barters, knocks, categories and best hand."""
        async with self._read() as db:
            balance = await self._one(
                db,
                "SELECT COALESCE(SUM(amount), 0) FROM ledger WHERE guild_id = ? AND member_id = ?",
                (guild_id, member_id),
            )
            games = await self._one(db, _games_sql(self.dialect), (guild_id, member_id))
            presets = await self._presets(db, guild_id, member_id)
            best = await self._one(
                db,
                "SELECT t.preset, h.score, h.label, h.category, t.id AS table_id,"
                " t.number AS table_number, d.number AS deal_number, d.finished_at"
                + _HANDS_FROM + " ORDER BY h.score DESC, h.deal_id ASC LIMIT 1",
                (guild_id, member_id),
            )
        overall: dict[str, int] = {}
        for p in presets:
            for category, n in p.won_by_category.items():
                overall[category] = overall.get(category, 0) + n
        return MemberStats(
            member_id=member_id, balance=int(balance[0]), games=int(games[0]),
            games_won=int(games[1]), deals=sum(p.deals for p in presets),
            deals_won=sum(p.deals_won for p in presets),
            best_score=None if best is None else best["score"],
            best_label=None if best is None else best["label"],
            won_by_category=dict(sorted(overall.items(), key=lambda kv: (-kv[1], kv[0]))),
            presets=presets, best=None if best is None else _best(best),
        )

    async def _presets(self, db: Any, guild_id: int,
                       member_id: int) -> list[PresetStats]:
        """``member_stats``' figures per preset, by preset name."""
        deals = await self._all(
            db,
            "SELECT t.preset, COUNT(DISTINCT d.id) AS n FROM deals d"
            " JOIN tables t ON t.id = d.table_id JOIN seats s ON s.table_id = t.id"
            " WHERE t.guild_id = ? AND d.status = 'finished' AND s.member_id = ?"
            " GROUP BY t.preset",
            (guild_id, member_id),
        )
        hands = await self._all(
            db,
            "SELECT t.preset, SUM(h.won) AS won, SUM(h.knocked) AS knocks,"
            " SUM(h.knocked * h.won) AS knocks_won" + _HANDS_FROM + " GROUP BY t.preset",
            (guild_id, member_id),
        )
        categories = await self._all(
            db,
            "SELECT t.preset, h.category, COUNT(*) AS n" + _HANDS_FROM
            + " AND h.won = 1 AND h.category IS NOT NULL"
            " GROUP BY t.preset, h.category ORDER BY n DESC, h.category",
            (guild_id, member_id),
        )
        moves = await self._all(db, _moves_sql(self.dialect), (guild_id, member_id))
        bests = await self._all(db, _BEST_SQL, (guild_id, member_id))
        by_hand = {r["preset"]: r for r in hands}
        by_move = {r["preset"]: r for r in moves}
        by_best = {r["preset"]: _best(r) for r in bests}
        out = []
        for row in sorted(deals, key=lambda r: str(r["preset"])):
            name = row["preset"]
            hand, move = by_hand.get(name), by_move.get(name)
            out.append(PresetStats(
                preset=name,
                knocks=int(hand["knocks"]) if hand else 0,
                knocks_won=int(hand["knocks_won"]) if hand else 0,
                deals=int(row["n"]), deals_won=int(hand["won"]) if hand else 0,
                trades=int(move["trades"]) if move else 0,
                barters=int(move["barters"]) if move else 0,
                barters_accepted=int(move["accepted"]) if move else 0,
                won_by_category={r["category"]: int(r["n"]) for r in categories
                                 if r["preset"] == name},
                best=by_best.get(name)))
        return out

    # ------------------------------------------------------------------ history

    async def past_games(self, guild_id: int, offset: int, limit: int,
                         ) -> tuple[list[PastGame], int]:
        """The guild's games whose table is no longer open (``finished`` or
        ``closed`` after its start), newest first: one page and the total count."""
        where = ("t.guild_id = ? AND t.status IN ('finished', 'closed')")
        async with self._read() as db:
            total = await self._one(
                db, f"SELECT COUNT(*) FROM tables t JOIN games g ON g.table_id = t.id"
                    f" WHERE {where}", (guild_id,))
            games = await self._past(db, where + " ORDER BY t.id DESC LIMIT ? OFFSET ?",
                                     (guild_id, limit, offset))
        return games, int(total[0])

    async def past_game(self, guild_id: int, *, table_id: int | None = None,
                        number: int | None = None, channel_id: int | None = None,
                        ) -> PastGame | None:
        """One game of the guild whose table is no longer open, by table id, by
        table number, or the latest that played in ``channel_id``; ``None`` when
        there is none (or its table is still open)."""
        where = "t.guild_id = ? AND t.status IN ('finished', 'closed')"
        params: list[Any] = [guild_id]
        for column, value in (("t.id", table_id), ("t.number", number),
                              ("t.channel_id", channel_id)):
            if value is not None:
                where += f" AND {column} = ?"
                params.append(value)
        async with self._read() as db:
            found = await self._past(db, where + " ORDER BY t.id DESC LIMIT 1", params)
        return found[0] if found else None

    async def _past(self, db: Any, where: str, params: Iterable[Any],
                    ) -> list[PastGame]:
        rows = await self._all(
            db,
            "SELECT t.id, t.number, t.preset, t.status, g.winners, g.started_at,"
            " COALESCE(g.finished_at, (SELECT MAX(d.finished_at) FROM deals d"
            "   WHERE d.table_id = t.id)) AS finished_at,"
            " (SELECT COUNT(*) FROM deals d WHERE d.table_id = t.id) AS deals"
            " FROM tables t JOIN games g ON g.table_id = t.id WHERE " + where,
            params,
        )
        games = []
        for row in rows:
            seats = await self._all(
                db, "SELECT name, member_id FROM seats WHERE table_id = ? ORDER BY seat",
                (row["id"],))
            games.append(PastGame(
                table_id=row["id"], number=row["number"], preset=row["preset"],
                status=row["status"], players=[s["name"] for s in seats],
                members=[s["member_id"] for s in seats],
                winners=json.loads(row["winners"]) if row["winners"] else [],
                started_at=row["started_at"], finished_at=row["finished_at"],
                deals=int(row["deals"])))
        return games

    # ------------------------------------------------------------------ a server's export

    async def ledger_last_id(self, guild_id: int) -> int:
        """The id of the guild's newest ledger row (0 when it has none): where a
        reading of the ledger in pages (``ledger_rows``) stops, so that rows
        written meanwhile do not join it half-way."""
        async with self._read() as db:
            row = await self._one(
                db, "SELECT COALESCE(MAX(id), 0) FROM ledger WHERE guild_id = ?", (guild_id,))
        return int(row[0])

    async def ledger_rows(self, guild_id: int, after_id: int, up_to: int,
                          limit: int) -> list[LedgerRow]:
        """One page of the guild's ledger, oldest first: at most ``limit`` rows
        whose id is above ``after_id`` and at most ``up_to`` (the next page starts
        after the last row's ``id``), each with its table's and deal's numbers.
        One short read: the rows of one guild only, by the primary key."""
        async with self._read() as db:
            rows = await self._all(
                db,
                "SELECT l.id, t.number AS table_number, d.number AS deal_number, l.seat,"
                " l.member_id, l.amount, l.reason, l.created_at FROM ledger l"
                " LEFT JOIN tables t ON t.id = l.table_id LEFT JOIN deals d ON d.id = l.deal_id"
                " WHERE l.guild_id = ? AND l.id > ? AND l.id <= ? ORDER BY l.id LIMIT ?",
                (guild_id, after_id, up_to, limit),
            )
        return [LedgerRow(id=int(r["id"]), table_number=r["table_number"],
                          deal_number=r["deal_number"],
                          seat=r["seat"], member_id=r["member_id"], amount=int(r["amount"]),
                          reason=r["reason"], created_at=r["created_at"]) for r in rows]

    async def open_table_numbers(self, guild_id: int) -> list[tuple[int, str]]:
        """The guild's open tables as ``(number, status)`` (``lobby`` or
        ``playing``), by number: nothing else of them (their decks and seeds are
        secret while they play)."""
        async with self._read() as db:
            rows = await self._all(
                db, "SELECT number, status FROM tables WHERE guild_id = ?"
                    " AND status IN ('lobby', 'playing') ORDER BY number", (guild_id,))
        return [(int(r["number"]), r["status"]) for r in rows]
