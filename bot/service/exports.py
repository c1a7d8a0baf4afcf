"""A server's own data for its admins (``/commerce-admin export``): one zip file
of JSON documents, read without holding the database for long, at most once per
``EXPORT_INTERVAL`` per server.

What the file holds (and nothing of any other server):

- ``server.json``: the format and version, the server's id, when it was made,
  its settings, its open tables by number and status only (their decks and
  seeds are secret while they play), and how many of its finished games are in
  the file and how many older ones were left out to stay under the upload limit;
- ``games.json``: the index of the games in the file, newest first (number,
  preset, status, players, winning seats, start and end, deals, file);
- ``ledger.json``: every row of its ledger, oldest first (``n`` counts from 1
  within the server; table and deal by their numbers);
- ``balances.json``: each member's balance, the sum of their rows in
  ``ledger.json``;
- ``games/commerce-table-<n>.json``: the record of each finished (or closed)
  game, byte for byte what ``/commerce export`` sends for it, so ``python -m
  bot.engine verify`` and ``replay`` read each file as it is;
- ``README.txt``: the same, in short.

Member and server ids are strings (Discord snowflakes do not fit a JavaScript
number); names are as the members wrote them (records keep names raw).

Reading: the ledger in pages of ``LEDGER_PAGE`` rows up to the row that was the
newest when the export began, then the games newest first, one short storage
call each (a finished game never changes), so the bot's connection is held for
one page at a time and every other table's moves go between the pages; at most
``EXPORTS_AT_ONCE`` exports run in the process at a time.
"""

from __future__ import annotations

import asyncio
import dataclasses
import io
import json
import logging
import re
import zipfile
import zlib
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from datetime import datetime, timedelta
from typing import Any

from ..i18n import _
from ..storage import AnyStorage, LedgerRow, PastGame
from ..storage.waiting import acknowledge
from .archive import record_of
from .errors import STORAGE_ERRORS, StorageFailure, UserError
from .locks import KeyedLock

log = logging.getLogger(__name__)

#: servers' exports (``/commerce-admin export``) made at the same time in this process;
#: more wait their turn
EXPORTS_AT_ONCE = 2

#: one export per server within this time, whoever asks (kept in memory: a
#: restart of the bot forgets it)
EXPORT_INTERVAL = timedelta(minutes=10)
#: room left in an upload for the rest of the request (the message, the form's parts):
#: an upload limit may count the whole request, not the file alone
UPLOAD_MARGIN = 64 * 1024
#: the largest file made (bytes): under 8 MiB, the upload limit of a server without
#: boosts, by ``UPLOAD_MARGIN``; where an interaction's ``attachment_size_limit`` is
#: lower, the command takes that less the margin
EXPORT_MAX_BYTES = 8 * 1024 * 1024 - UPLOAD_MARGIN
#: ledger rows per storage read
LEDGER_PAGE = 2000
#: games per page of the history read
GAMES_PAGE = 25
#: what ``server.json`` says it is
FORMAT, FORMAT_VERSION = "commerce-server-export", 1
#: deflate level of the zip's entries
LEVEL = 6
#: bytes of a zip entry beyond its data and twice its name: the local header (30)
#: and the central directory's entry (46)
_ENTRY_BYTES = 30 + 46
#: the zip's end record (22 bytes) and a margin
_END_BYTES = 22 + 64

README = """\
Commerce: the data of one Discord server, as /commerce-admin export made it.

server.json    settings, open tables (number and status), how many games are here
games.json     the finished games in this file, newest first
ledger.json    every ledger row of the server, oldest first
balances.json  each member's balance (the sum of their rows in ledger.json)
games/         one record per finished game, as /commerce export gives it

Check a game's fair deals:  python -m bot.engine verify games/commerce-table-3.json
Replay it:                  python -m bot.engine replay games/commerce-table-3.json
Ids are strings; names are as the members wrote them.
"""


class ExportTooSoon(UserError):
    """The server's data was exported less than ``EXPORT_INTERVAL`` ago: nothing
    was read.

    Attributes:
        last: when the last export began (aware UTC).
        next_at: the first moment the next one may begin (aware UTC).
    """

    def __init__(self, last: datetime, next_at: datetime) -> None:
        """``last``: the last export's start; ``next_at``: when the next may begin."""
        super().__init__(f"This server's data was exported less than "
                         f"{EXPORT_INTERVAL.seconds // 60} minutes ago: the next export is "
                         f"possible at {next_at:%H:%M} UTC.")
        self.last = last
        self.next_at = next_at


@dataclasses.dataclass(frozen=True)
class ServerExport:
    """A made export.

    Attributes:
        filename: ``commerce-server-<guild id>-<UTC stamp>.zip``.
        data: the zip file (at most the ``max_bytes`` it was made for).
        games: finished games in it; ``games_left_out`` older ones that did not fit.
        ledger_rows: rows in ``ledger.json``; ``members`` in ``balances.json``.
        open_tables: open tables listed (by number and status only).
        next_at: when the server's next export may begin (aware UTC).
    """

    filename: str
    data: bytes = dataclasses.field(repr=False)
    games: int
    games_left_out: int
    ledger_rows: int
    members: int
    open_tables: int
    next_at: datetime


class _Packer:
    """A zip file in memory that never grows past ``limit`` bytes: each entry is
    added only if it fits with ``reserve`` bytes left over (its compressed size is
    worked out first, exactly as the zip will store it)."""

    def __init__(self, limit: int, moment: datetime) -> None:
        """``limit``: the file's largest size (bytes); ``moment``: the entries' time."""
        self.limit = limit
        self._stamp = moment.timetuple()[:6]
        self._buffer = io.BytesIO()
        self._zip = zipfile.ZipFile(self._buffer, "w", zipfile.ZIP_DEFLATED)
        self._directory = _END_BYTES  # bytes the central directory will take

    def add(self, name: str, data: bytes, reserve: int = 0) -> bool:
        """Add ``data`` as ``name`` if the file stays within its limit with
        ``reserve`` bytes to spare; whether it was added."""
        squeeze = zlib.compressobj(LEVEL, zlib.DEFLATED, -15)
        packed = len(squeeze.compress(data)) + len(squeeze.flush())
        width = len(name.encode())
        if self._buffer.tell() + self._directory + packed + 2 * width + _ENTRY_BYTES + reserve \
                > self.limit:
            return False
        info = zipfile.ZipInfo(name, date_time=self._stamp)
        info.compress_type = zipfile.ZIP_DEFLATED
        self._zip.writestr(info, data, compresslevel=LEVEL)
        self._directory += 46 + width
        return True

    def close(self) -> bytes:
        """The finished file."""
        self._zip.close()
        return self._buffer.getvalue()

    def discard(self) -> None:
        """Drop an unfinished file (an export that failed): the zip is closed
        with the buffer, so nothing is left to finish when it is collected."""
        self._zip.close()
        self._buffer.close()


def size_text(size: int) -> str:
    """``size`` (bytes) for people: ``8 MiB``, ``40 KiB``, ``600 bytes``."""
    if size >= 2**20:
        return f"{size / 2**20:.0f} MiB"
    return f"{size // 1024} KiB" if size >= 1024 else f"{size} bytes"


def _json(value: Any, indent: int | None = None) -> bytes:
    return json.dumps(value, indent=indent, ensure_ascii=False).encode()


def _ledger_item(n: int, row: LedgerRow) -> dict[str, Any]:
    return {"n": n, "at": row.created_at, "table": row.table_number, "deal": row.deal_number,
            "seat": row.seat, "member_id": None if row.member_id is None else str(row.member_id),
            "amount": row.amount, "reason": row.reason}


def _game_item(past: PastGame, file: str) -> dict[str, Any]:
    return {"number": past.number, "preset": past.preset, "status": past.status,
            "players": past.players, "winners": past.winners, "started_at": past.started_at,
            "finished_at": past.finished_at, "deals": past.deals, "file": file}


class _Index:
    """``games.json``: one item per game added, newest first, with a running
    upper bound of its deflated size (each item is compressed as it comes, with a
    sync flush: what the stream has emitted so far bounds the whole, give or take
    the 1 % and the bytes ``bound`` adds)."""

    def __init__(self) -> None:
        """An empty index."""
        self._items: list[bytes] = []
        self._squeeze = zlib.compressobj(LEVEL, zlib.DEFLATED, -15)
        self._packed = 0

    @property
    def count(self) -> int:
        """Games in the index."""
        return len(self._items)

    @staticmethod
    def _piece(item: dict[str, Any], first: bool) -> bytes:
        text = json.dumps(item, indent=1, ensure_ascii=False).replace("\n", "\n ")
        return ("[\n " if first else ",\n ").encode() + text.encode()

    def bound(self, item: dict[str, Any]) -> int:
        """Bytes the whole ``games.json`` entry may take once ``item`` is added."""
        piece = self._piece(item, not self._items)
        return _bound(self._packed + self._packed // 100 + len(piece) + 256)

    def add(self, item: dict[str, Any]) -> None:
        """Add ``item`` (after ``bound`` said it fits)."""
        piece = self._piece(item, not self._items)
        self._items.append(piece)
        self._packed += len(self._squeeze.compress(piece))
        self._packed += len(self._squeeze.flush(zlib.Z_SYNC_FLUSH))

    def text(self) -> bytes:
        """The file: a JSON list."""
        return b"".join(self._items) + b"\n]\n" if self._items else b"[]\n"


def _bound(raw: int) -> int:
    """The most a deflated entry of ``raw`` bytes can take (stored blocks: 5 bytes per
    16 KiB), plus the entry's headers for a name of up to 64 bytes."""
    return raw + 5 * (raw // 16384 + 1) + _ENTRY_BYTES + 2 * 64


class ServerExports:
    """A server's exports: a small service of its own beside the tables'
    (``TableService.exports``), reading storage in pages and writing one audit row.

    Args:
        storage: the opened storage.
        lock: the service's keyed lock (two presses at once make one export).
        unit: the service's unit of work, which the audit row is written in
            (``TableService._unit``: a storage error becomes ``StorageFailure``).
    """

    def __init__(self, storage: AnyStorage, lock: KeyedLock,
                 unit: Callable[[int | None], AbstractAsyncContextManager[None]]) -> None:
        """No export made yet in this process."""
        self.storage = storage
        self.lock = lock
        self._unit = unit
        #: guild id -> when its last export began (aware UTC)
        self.last_exports: dict[int, datetime] = {}
        self.export_slots = asyncio.Semaphore(EXPORTS_AT_ONCE)

    async def export_server(self, guild_id: int, member_id: int, *, now: datetime,
                            max_bytes: int = EXPORT_MAX_BYTES) -> ServerExport:
        """The guild's own data as a zip file of at most ``max_bytes`` bytes (see
        the module's docstring), audited as ``export``. A press within
        ``EXPORT_INTERVAL`` of the guild's last export (by anyone) is refused
        before anything is read; the interaction is acknowledged before the
        reading starts. When the games do not all fit, the most recent that fit
        are in it and ``games_left_out`` counts the rest.

        Args:
            guild_id: the server.
            member_id: who asked (for the audit trail).
            now: the present moment (aware UTC; the rate limit's clock).
            max_bytes: the file's largest size (bytes).

        Raises:
            ExportTooSoon: within the interval; nothing was read or written.
            UserError: the server's ledger alone is larger than ``max_bytes``.
            StorageFailure: the storage could not be read or the audit row not
                written; the export does not count against the interval.
        """
        async with self.lock(("export", guild_id)):  # two presses at once: one export
            last = self.last_exports.get(guild_id) or await self._last_export(guild_id)
            if last is not None and now < last + EXPORT_INTERVAL:
                raise ExportTooSoon(last, last + EXPORT_INTERVAL)
            self.last_exports[guild_id] = now  # before any wait: a second press is refused
        try:
            await acknowledge()  # the reading may take a while: "thinking…" first
            async with self.export_slots:
                try:
                    export = await self._export(guild_id, now, max_bytes)
                except STORAGE_ERRORS as exc:
                    log.error("guild %s: the export could not be read (%s)", guild_id,
                              type(exc).__name__)
                    raise StorageFailure("The export could not be read (a storage problem "
                                         "on the bot's side). Try again in a moment.") from exc
            async with self._unit(None):
                await self.storage.audit(
                    guild_id, member_id, "export",
                    f"at {now.isoformat()}: {export.games} games ({export.games_left_out} left out), "
                    f"{export.ledger_rows} ledger rows, {len(export.data)} bytes")
        except BaseException:
            if self.last_exports.get(guild_id) is now:  # it does not count
                if last is None:
                    del self.last_exports[guild_id]
                else:
                    self.last_exports[guild_id] = last
            raise
        return export

    async def _last_export(self, guild_id: int) -> datetime | None:
        """When the guild's last export began, as its audit row says (``at
        <ISO time>: …``), so that the limit holds across a restart; ``None`` when
        there is none (or storage cannot say now)."""
        try:
            detail = await self.storage.last_audit_detail(guild_id, "export")
        except STORAGE_ERRORS:
            return None
        found = re.match(r"at (\S+):", detail or "")
        if found is None:
            return None
        try:
            return datetime.fromisoformat(found[1])
        except ValueError:
            return None

    async def _export(self, guild_id: int, now: datetime, max_bytes: int) -> ServerExport:
        """Read and pack (see ``export_server``)."""
        settings = dataclasses.asdict(await self.storage.get_settings(guild_id))
        del settings["guild_id"]
        up_to = await self.storage.ledger_last_id(guild_id)
        rows: list[LedgerRow] = []
        while True:
            page = await self.storage.ledger_rows(guild_id, rows[-1].id if rows else 0,
                                                  up_to, LEDGER_PAGE)
            rows += page
            if len(page) < LEDGER_PAGE:
                break
        balances: dict[int, int] = {}
        for row in rows:
            if row.member_id is not None:
                balances[row.member_id] = balances.get(row.member_id, 0) + row.amount
        ranked = sorted(balances.items(), key=lambda kv: (-kv[1], kv[0]))
        open_tables = [{"number": n, "status": s}
                       for n, s in await self.storage.open_table_numbers(guild_id)]

        packer = _Packer(max_bytes, now)
        ledger = [_ledger_item(n, row) for n, row in enumerate(rows, 1)]
        members = [{"member_id": str(m), "balance": b} for m, b in ranked]
        head: dict[str, Any] = {
            "format": FORMAT, "version": FORMAT_VERSION, "guild_id": str(guild_id),
            "exported_at": now.isoformat(timespec="seconds"), "settings": settings,
            "open_tables": open_tables,
            "ledger": {"file": "ledger.json", "rows": len(rows)},
            "balances": {"file": "balances.json", "members": len(members)},
            "games": {"file": "games.json", "included": 0, "left_out": 0}}
        # server.json goes last (it counts the games): room is kept for it, its numbers
        # given up to 12 digits more
        reserve = _bound(len(_json(head, 1)) + 24)
        try:
            for name, data in (("README.txt", README.encode()), ("ledger.json", _json(ledger, 1)),
                               ("balances.json", _json(members, 1))):
                if not await asyncio.to_thread(packer.add, name, data, reserve):
                    raise UserError(
                        _("This server's ledger alone is larger than the {size} "
                          "the bot may upload here: ask the bot's operator for a copy.").format(
                              size=size_text(max_bytes)))
            included, left_out = await self._pack_games(guild_id, packer, reserve)
            head["games"].update(included=included, left_out=left_out)
            if not await asyncio.to_thread(packer.add, "server.json", _json(head, 1)):
                raise AssertionError("server.json did not fit the room kept for it")
            data = await asyncio.to_thread(packer.close)
        except BaseException:
            packer.discard()
            raise
        return ServerExport(
            filename=f"commerce-server-{guild_id}-{now:%Y%m%d-%H%M%S}.zip", data=data,
            games=included, games_left_out=left_out, ledger_rows=len(rows),
            members=len(members), open_tables=len(open_tables),
            next_at=now + EXPORT_INTERVAL)

    async def _pack_games(self, guild_id: int, packer: _Packer,
                          reserve: int) -> tuple[int, int]:
        """Add the guild's finished games, newest first, while they fit with
        ``reserve`` bytes to spare and room for ``games.json`` (their index, one
        item each, added after them); returns how many were added and how many
        were left out."""
        index = _Index()
        seen: set[int] = set()
        offset, total, full = 0, 0, False
        while not full:
            page, count = await self.storage.past_games(guild_id, offset, GAMES_PAGE)
            total = max(total, count)
            for past in page:
                if past.table_id in seen:  # a game that ended meanwhile shifted the pages
                    continue
                seen.add(past.table_id)
                record = await self._finished_record(past.table_id)
                if record is None:
                    continue
                name = f"games/commerce-table-{past.number}.json"
                item = _game_item(past, name)
                data = json.dumps(record, indent=1).encode()  # as /commerce export sends it
                if not await asyncio.to_thread(packer.add, name, data,
                                               reserve + index.bound(item)):
                    full = True
                    break
                index.add(item)
            if len(page) < GAMES_PAGE:
                break
            offset += GAMES_PAGE
        if not await asyncio.to_thread(packer.add, "games.json", index.text(), reserve):
            raise AssertionError("games.json did not fit the room kept for it")
        return index.count, max(0, total - index.count) if full else 0

    async def _finished_record(self, table_id: int) -> dict[str, Any] | None:
        """The record of a game that is over, or ``None`` (logged) if one of its
        deals is still open: its deck must stay secret."""
        row = await self.storage.get_table(table_id)
        if row is None or row.status not in ("finished", "closed") or row.first_dealer is None:
            return None
        deals = await self.storage.deals(table_id)
        if any(d.status == "open" for d in deals):
            log.error("table %s is %s with a deal still open: left out of the export",
                      table_id, row.status)
            return None
        return record_of(row, await self.storage.seats(table_id), deals,
                         await self.storage.hints(table_id),
                         await self.storage.shuffle_events(table_id),
                         await self.storage.game_seed(table_id))
