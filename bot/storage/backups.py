"""Copies of the whole database: the bot's operator's, made on the host with
``python -m bot.storage backup`` (``bot/storage/__main__.py``), never by a
Discord command (a server's admins get their own server's data only:
``/commerce-admin export``).

- SQLite (``backup_sqlite``): SQLite's online backup API, through a read-only
  connection of its own. It neither takes the bot's one-writer lock file
  (``<name>.lock``) nor waits for the bot's writes: in WAL mode a reader never
  blocks the writer, and the copy is the database as one read transaction saw
  it. The copy is a single self-contained file (rollback journal, not WAL),
  checked with ``PRAGMA quick_check`` before it gets its name, and never
  written over an existing file.
- PostgreSQL: ``pg_dump`` is the tool (``pg_dump_command`` prints the exact
  command). ``postgres_to_sqlite`` makes an SQLite file of the same schema
  from one repeatable-read snapshot, which the bot can run on (``COMMERCE_DB``)
  when ``DATABASE_URL`` is unset.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
import shlex
import sqlite3
import tempfile
from collections.abc import Awaitable, Callable
from datetime import datetime
from pathlib import Path
from urllib.parse import parse_qsl, quote, urlencode, urlsplit, urlunsplit

import asyncpg

from .database import _SQLITE_HEADER, Storage, _migrations, lock_path
from .postgres import connect, describe_url

#: the tables a copy from PostgreSQL fills, parents first (any table not named here
#: follows, by name)
COPY_ORDER = ("guild_settings", "tables", "seats", "games", "shuffle_events", "deals",
              "actions", "ledger", "deal_hands", "hints", "audit", "seasons", "ratings",
              "rated_games", "reviews", "turn_moments", "daily_seeds", "daily_plays",
              "member_settings")
#: the tables no copy carries: the schema's own history (the copy's migrations write
#: it) and the claims of the running processes (bot/storage/claims.py), not data
NOT_COPIED = ("schema_version", "shard_claims")
#: the order a copy from PostgreSQL reads a table's rows in: its key, and for the hints,
#: which have none, the order they were given (as ``PgStorage.hints`` reads them;
#: by the deal alone, PostgreSQL's sort would mix up the hints of one deal)
READ_ORDER = {"seats": "table_id, seat", "deal_hands": "deal_id, seat",
              "hints": "deal_id, created_at, ctid"}
#: seconds the read-only connection waits for a lock SQLite takes briefly (WAL
#: recovery, a checkpoint's end)
READ_WAIT = 10.0


class BackupError(RuntimeError):
    """The copy could not be made; the message is one line naming the file and what
    to do. Nothing was written at the destination."""


def stamp(moment: datetime) -> str:
    """``moment`` (aware) as a file name's UTC stamp: ``20261201T221334Z``."""
    return moment.strftime("%Y%m%dT%H%M%SZ")


def default_destination(folder: Path, moment: datetime, suffix: str = ".db") -> Path:
    """``folder/commerce-<UTC stamp><suffix>``, with ``-2``, ``-3``… added when that
    name is taken (two copies in one second)."""
    dest = folder / f"commerce-{stamp(moment)}{suffix}"
    n = 1
    while dest.exists():
        n += 1
        dest = folder / f"commerce-{stamp(moment)}-{n}{suffix}"
    return dest


def _claim_name(part: Path, dest: Path) -> None:
    """Give the finished ``part`` file the name ``dest``, never over an existing
    file (a hard link fails if ``dest`` exists), then drop ``part``.

    Raises:
        BackupError: ``dest`` appeared meanwhile.
    """
    try:
        os.link(part, dest)
    except FileExistsError:
        raise BackupError(f"{dest} already exists: choose another name; nothing was "
                          "written there") from None
    except OSError:  # a file system without hard links
        if dest.exists():
            raise BackupError(f"{dest} already exists: choose another name; nothing was "
                              "written there") from None
        os.rename(part, dest)
        return
    part.unlink()
    with contextlib.suppress(OSError):  # the new name reaches the disk (best effort)
        fd = os.open(dest.parent, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _prepare(dest: Path) -> Path:
    """Check ``dest`` is free, create its folder; returns a fresh temporary file
    beside it (``<dest>.<random>.part``) to write into.

    Raises:
        BackupError: ``dest`` exists, or its folder cannot be made or written.
    """
    if dest.exists():
        raise BackupError(f"{dest} already exists: choose another name; nothing was "
                          "written there")
    try:
        dest.parent.mkdir(parents=True, exist_ok=True)
        fd, name = tempfile.mkstemp(prefix=dest.name + ".", suffix=".part", dir=dest.parent)
    except OSError as exc:
        raise BackupError(f"cannot write into {dest.parent} ({exc.strerror}): choose "
                          "another folder") from None
    os.close(fd)
    return Path(name)


def backup_sqlite(source: Path, dest: Path) -> int:
    """Copy the SQLite database ``source`` to ``dest`` while the bot may be
    running (see the module's docstring); returns the copy's schema version.

    Raises:
        BackupError: ``source`` is missing or not an SQLite file, ``dest`` exists,
            the folder cannot be written, or the copy fails its check (one line;
            nothing left at ``dest``).
    """
    try:
        with source.open("rb") as handle:
            header = handle.read(len(_SQLITE_HEADER))
    except OSError as exc:
        raise BackupError(f"cannot read {source} ({exc.strerror}): is COMMERCE_DB "
                          "right?") from None
    if header != _SQLITE_HEADER:
        raise BackupError(f"{source} is not an SQLite database: nothing to copy")
    # reading a WAL database makes its -wal and -shm files when no one has it open
    made = [f for f in (source.with_name(source.name + "-wal"),
                        source.with_name(source.name + "-shm")) if not f.exists()]
    try:
        return _read_and_copy(source, dest)
    finally:
        _tidy(source, [f for f in made if f.exists()])


def _read_and_copy(source: Path, dest: Path) -> int:
    """``backup_sqlite`` once ``source`` is known to be an SQLite file."""
    try:
        src = sqlite3.connect(f"file:{quote(str(source.resolve()))}?mode=ro", uri=True,
                              timeout=READ_WAIT)
    except sqlite3.Error as exc:
        raise BackupError(f"cannot read {source} ({exc}): check its permissions") from None
    try:
        try:
            known = src.execute("SELECT 1 FROM sqlite_master WHERE type = 'table'"
                                " AND name = 'schema_version'").fetchone()
        except sqlite3.Error as exc:
            raise BackupError(f"cannot read {source} ({exc}): nothing was copied") from None
        if known is None:
            raise BackupError(f"{source} is not a Commerce database (no schema_version): "
                              "nothing was copied")
        part = _prepare(dest)
        try:
            version = _copy(src, part)
            _claim_name(part, dest)
        except sqlite3.Error as exc:
            raise BackupError(f"cannot copy {source} ({exc}): nothing was written at "
                              f"{dest}") from None
        finally:
            part.unlink(missing_ok=True)
    finally:
        src.close()
    return version


def _tidy(source: Path, made: list[Path]) -> None:
    """Remove the ``-wal`` / ``-shm`` files the copy's reading made beside
    ``source`` (they would belong to whoever ran the copy, which may not be the
    bot's user), if no bot has the database open: its lock file (``<name>.lock``)
    is taken for the while, so none starts meanwhile. A bot that has it open
    keeps them (it uses them); a WAL that is not empty is left to SQLite."""
    if not made:
        return
    try:
        fd = os.open(lock_path(source), os.O_RDONLY | os.O_CLOEXEC)
    except OSError:  # no bot ever ran on it here: leave them (harmless)
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:  # a bot has it open now
        os.close(fd)
        return
    try:
        wal = source.with_name(source.name + "-wal")
        if wal in made and wal.stat().st_size > 0:
            return
        for path in made:
            path.unlink(missing_ok=True)
    except OSError:
        pass
    finally:
        os.close(fd)


def _copy(src: sqlite3.Connection, part: Path) -> int:
    """Copy every page of ``src`` into the file ``part`` in one step (one read
    transaction), make it a file of its own (rollback journal) and check it;
    returns its schema version.

    Raises:
        BackupError: the copy fails ``PRAGMA quick_check``.
        sqlite3.Error: the copy could not be made.
    """
    copy = sqlite3.connect(part)
    try:
        src.backup(copy)
        copy.execute("PRAGMA journal_mode=DELETE")
        check = [row[0] for row in copy.execute("PRAGMA quick_check")]
        if check != ["ok"]:
            raise BackupError(f"the copy failed PRAGMA quick_check ({'; '.join(check[:3])}): "
                              "check the database")
        (version,) = copy.execute("SELECT COALESCE(MAX(version), 0) FROM schema_version"
                                  ).fetchone()
        return int(version)
    finally:
        copy.close()


def url_without_password(url: str) -> str:
    """``url`` with its password left out (from the address and from a
    ``password=`` parameter); the user name stays."""
    parts = urlsplit(url)
    netloc = parts.netloc.rsplit("@", 1)
    if len(netloc) == 2:
        user = netloc[0].split(":", 1)[0]
        netloc = [f"{user}@{netloc[1]}" if user else netloc[1]]
    query = urlencode([(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True)
                       if k.lower() != "password"])
    return urlunsplit((parts.scheme, netloc[0], parts.path, query, parts.fragment))


def pg_dump_command(url: str, dest: Path) -> str:
    """The shell command that dumps the database at ``url`` into ``dest``
    (PostgreSQL's custom format, which ``pg_restore`` reads), without the password:
    ``pg_dump`` takes it from ``PGPASSWORD`` or ``~/.pgpass``."""
    return shlex.join(["pg_dump", "--format=custom", f"--file={dest}",
                       f"--dbname={url_without_password(url)}"])


async def postgres_to_sqlite(url: str, dest: Path, *,
                             prove: Callable[[Path], Awaitable[None]] | None = None) -> int:
    """Copy the PostgreSQL database at ``url`` into a new SQLite file ``dest`` of
    the same schema (``Storage.open`` reads it), from one repeatable-read,
    read-only snapshot on a connection of its own (the bots' connections and
    their claims are not touched); returns the schema version. Every row is held
    in memory while the file is written. ``prove``, when given, is awaited with
    the finished file before it gets its name: whatever it raises leaves nothing
    at ``dest`` (``python -m bot.storage copy`` proves the copy there).

    Raises:
        BackupError: ``dest`` exists or cannot be written, or the database's
            schema is not this code's (upgrade whichever is older first).
        DatabaseUnavailable: the server cannot be reached or refuses the login.
    """
    known = _migrations()[-1][0]
    conn = await connect(url, application="commerce-backup")
    try:
        async with conn.transaction(isolation="repeatable_read", readonly=True):
            version = await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version")
            if version != known:
                raise BackupError(
                    f"{describe_url(url)} has schema version {version}, this code "
                    f"{known}: run the same version of the bot as the database (or use "
                    "pg_dump)")
            names = [r[0] for r in await conn.fetch(
                "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
                " AND tablename <> ALL($1::text[]) ORDER BY tablename", list(NOT_COPIED))]
            order = [n for n in COPY_ORDER if n in names] + [
                n for n in names if n not in COPY_ORDER]
            rows = {name: await conn.fetch(
                        f'SELECT * FROM "{name}" ORDER BY {READ_ORDER.get(name, "1")}')
                    for name in order}
    finally:
        await conn.close()
    part = _prepare(dest)
    part.unlink()  # Storage.open makes the file itself
    try:
        copy = await Storage.open(part)
        try:
            async def fill(db: sqlite3.Connection) -> None:
                _fill_sqlite(db, rows)
            await copy._write_now(fill)
        finally:
            await copy.close()
            lock_path(part).unlink(missing_ok=True)
        if prove is not None:
            try:
                await prove(part)
            finally:
                lock_path(part).unlink(missing_ok=True)
        with contextlib.closing(sqlite3.connect(part)) as db:
            db.execute("PRAGMA journal_mode=DELETE")  # one file of its own, no -wal beside it
        _claim_name(part, dest)
    finally:
        part.unlink(missing_ok=True)
        for extra in ("-wal", "-shm"):
            part.with_name(part.name + extra).unlink(missing_ok=True)
    return int(version)


def _fill_sqlite(conn: sqlite3.Connection, rows: dict[str, list[asyncpg.Record]]) -> None:
    """Copy ``rows`` (per table, parents first) into a migrated, empty SQLite
    database, inside its open transaction. A closed deal is written open, then
    its actions and everything else, then closed: the triggers accept only that
    order.

    Raises:
        ValueError: a table or column name that is not a plain word.
    """
    for name, records in rows.items():
        if not records:
            continue
        columns = list(records[0].keys())
        values = [tuple(r.values()) for r in records]
        if name == "deals":
            status = columns.index("status")
            values = [(*v[:status], "open", *v[status + 1:]) for v in values]
        if not re.fullmatch(r"\w+", name) or not all(re.fullmatch(r"\w+", c) for c in columns):
            raise ValueError(f"unexpected name in table {name!r}")
        conn.executemany(
            f"INSERT INTO {name} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})",
            values)
    conn.executemany("UPDATE deals SET status = ? WHERE id = ?",
                     [(r["status"], r["id"]) for r in rows.get("deals", [])
                      if r["status"] != "open"])

