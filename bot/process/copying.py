"""``python -m bot.storage copy SOURCE TARGET``: the whole database moved between
SQLite and PostgreSQL, then proven equal (README "Moving to PostgreSQL",
docs/SCALING.md "Moving a server's database").

- **SQLite to PostgreSQL** (``sqlite_to_postgres``): ``SOURCE`` an SQLite file,
  ``TARGET`` a ``postgresql://`` URL of an empty database (no table, or the
  Commerce schema without a row: ``copies.refuse_unless_empty``). Every row is
  copied in ONE transaction (``bot.storage.copies.fill_postgres``), the proof
  below runs inside it, and only a copy that passes is committed.
- **PostgreSQL to SQLite** (``postgres_to_sqlite``): ``SOURCE`` a URL, ``TARGET``
  a new SQLite file; the backup's copy (``bot.storage.backups.postgres_to_sqlite``),
  proven before the file gets its name.

Both ends are kept from every bot while the copy runs, and a bot running on
either refuses the copy: the SQLite file through its lock (``Storage.open``), the
PostgreSQL database through a claim on every guild (``PgStorage.claim_shards``),
so nothing is written to the source after it was read, nor to the target by
anyone else. Either database is first brought to this version's schema, as the
bot would (``open_storage``).

The proof (``prove``), which must hold for the copy to be kept:

1. every copied table has the same number of rows and the same rows (a hash of
   each row, summed: ``copies.figures``);
2. every table reads back the same (its row, seats, deals with their actions,
   hints), and every game's record (``bot.service.archive.record_of``) replays
   the same from either side (``bot.engine.replay``: each deal's operations,
   whether it finished, the game's ledger);
3. every guild's ledger sums the same, and so do the points in its open pots;
4. in the target, a new row of each table with ids gets an id after every
   copied one (``copies.next_ids``).

Exit codes (``copy_command``): 0 copied and proven; 1 not copied (one line on
standard error; nothing was kept at ``TARGET``); 2 the command line is wrong
(argparse's usage, or two databases of one kind).
"""

from __future__ import annotations

import asyncio
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..engine import RecordError, replay
from ..service import STORAGE_ERRORS
from ..service.archive import record_of
from ..storage import (
    ClaimRefused,
    DatabaseUnavailable,
    PgStorage,
    Storage,
    copies,
    is_postgres_url,
)
from ..storage.backups import BackupError
from ..storage.backups import postgres_to_sqlite as write_sqlite_copy
from ..storage.copies import Columns, CopyRefused
from ..storage.postgres import describe_url

AnyStore = Storage | PgStorage


class CopyFailed(RuntimeError):
    """The copy was not kept: one line saying why (nothing is left at the target)."""


@dataclass
class Proof:
    """What ``prove`` checked, for the summary.

    Attributes:
        rows: rows per copied table (the same on both sides).
        games: games whose records replayed the same from both sides.
        unplayable: games whose records do not replay on either side (the same
            error on both: a fault of the source, kept as it was).
        guilds: guilds whose ledger sums (and open pots) are the same.
        next_ids: per table with ids, the id a new row gets in the target.
    """

    rows: dict[str, int] = field(default_factory=dict)
    games: int = 0
    unplayable: list[int] = field(default_factory=list)
    guilds: int = 0
    next_ids: dict[str, int] = field(default_factory=dict)


def _outcome(record: dict[str, Any]) -> Any:
    """What a record's replay comes to: each deal's operations and whether it
    finished, and the game's ledger; or the replay's error."""
    try:
        game = replay(record)
    except RecordError as exc:
        return ("does not replay", str(exc))
    return ([(list(d.operations), d.finished) for d in game.deals], list(game.ledger))


async def _tables_equal(source: AnyStore, target: AnyStore, proof: Proof) -> list[str]:
    """Step 2 of the proof: every table read back the same from both, every game
    replaying the same; the problems found (at most a few)."""
    problems: list[str] = []
    ids = await copies.table_ids(source)
    if await copies.table_ids(target) != ids:
        return ["the tables' ids differ"]
    for table_id in ids:
        sides = []
        for store in (source, target):
            row = await store.get_table(table_id)
            assert row is not None
            sides.append((row, await store.seats(table_id), await store.deals(table_id),
                          await store.hints(table_id)))
        (row, seats, deals, hints), other = sides
        if sides[0] != other:
            problems.append(f"table {table_id} reads back otherwise")
        elif row.first_dealer is not None:
            outcomes = [_outcome(record_of(*side)) for side in sides]
            if outcomes[0] != outcomes[1]:
                problems.append(f"table {table_id}'s game replays otherwise")
            elif outcomes[0][0] == "does not replay":
                proof.unplayable.append(table_id)
            else:
                proof.games += 1
        if len(problems) >= 3:
            break
    return problems


async def prove(source: AnyStore, target: AnyStore, types: Columns) -> Proof:
    """Check that ``target`` holds a copy of ``source`` (the module's four steps).

    Raises:
        CopyFailed: a step failed; the line names the first problems.
    """
    proof = Proof()
    problems: list[str] = []
    mine, theirs = await copies.figures(source, types), await copies.figures(target, types)
    for table, figures in mine.items():
        if theirs[table] != figures:
            problems.append(f"{table}: {figures.rows} rows, {theirs[table].rows} copied"
                            if theirs[table].rows != figures.rows else f"{table}: rows differ")
        proof.rows[table] = figures.rows
    if not problems:
        problems += await _tables_equal(source, target, proof)
    guilds = await copies.guilds(source)
    if not problems and await copies.guilds(target) != guilds:
        problems.append("the guilds differ")
    for guild in guilds if not problems else []:
        sums = [(await s.guild_ledger_sum(guild), await s.points_in_pots(guild))
                for s in (source, target)]
        if sums[0] != sums[1]:
            problems.append(f"guild {guild}'s ledger sums to {sums[0][0]}, copied {sums[1][0]}")
            break
        proof.guilds += 1
    if not problems:
        before, after = await copies.top_ids(source), await copies.next_ids(target)
        for table, (top, new) in after.items():
            if top != before[table] or new <= top:
                problems.append(f"{table}: a new row gets id {new}, after copied ids up to "
                                f"{top} (the source's up to {before[table]})")
            proof.next_ids[table] = new
    if problems:
        raise CopyFailed("the copy is not equal to the source (" + "; ".join(problems[:3])
                         + ")")
    return proof


async def _open_claimed(url: str) -> PgStorage:
    """The PostgreSQL database ``url`` opened for a copy, every guild claimed so that
    no bot runs on it meanwhile.

    Raises:
        CopyFailed: a bot runs on it (nothing is left open).
        DatabaseUnavailable: the server cannot be reached or refuses the login.
    """
    store = await PgStorage.open(url, application="commerce-copy")
    try:
        await store.claim_shards((0,), 1)
    except BaseException as exc:
        await store.close()
        if isinstance(exc, ClaimRefused):
            raise CopyFailed(
                f"a Commerce process is running on {describe_url(url)} ({exc.holder}): stop "
                "every bot process on it first (a copy taken while one runs would miss what it "
                "writes afterwards)") from None
        raise
    return store


async def sqlite_to_postgres(path: Path, url: str) -> Proof:
    """Copy the SQLite file ``path`` into the empty PostgreSQL database ``url`` and
    prove it, in one transaction (see the module's docstring).

    Raises:
        CopyFailed: the source is missing, the proof failed; nothing was kept.
        CopyRefused: the target is not empty, or a value cannot be held.
        DatabaseUnavailable: either database cannot be opened (a bot holds the
            file, the server cannot be reached, …).
    """
    if not path.is_file():
        raise CopyFailed(f"{path} does not exist: name the SQLite file (COMMERCE_DB)")
    await copies.refuse_unless_empty(url)
    source = await Storage.open(path)
    try:
        target = await _open_claimed(url)
        try:
            types = await copies.columns(target)
            async with target.atomic():
                await copies.fill_postgres(source, target, types)
                return await prove(source, target, types)
        finally:
            await target.close()
    finally:
        await source.close()


async def postgres_to_sqlite(url: str, path: Path) -> Proof:
    """Copy the PostgreSQL database ``url`` into the new SQLite file ``path`` and
    prove it before the file gets its name (see the module's docstring).

    Raises:
        CopyFailed: the proof failed, or a bot runs on the source; nothing at ``path``.
        BackupError: ``path`` exists or cannot be written.
        DatabaseUnavailable: the server cannot be reached or refuses the login.
    """
    if path.exists():
        raise CopyFailed(f"{path} already exists: copy into a new file; nothing was written")
    source = await _open_claimed(url)
    try:
        types = await copies.columns(source)
        proven: list[Proof] = []

        async def check(part: Path) -> None:
            target = await Storage.open(part)
            try:
                proven.append(await prove(source, target, types))
            finally:
                await target.close()
        await write_sqlite_copy(url, path, prove=check)
        return proven[0]
    finally:
        await source.close()


def _summary(source: str, target: str, proof: Proof) -> str:
    rows = ", ".join(f"{table} {n:,}" for table, n in proof.rows.items())
    ids = ", ".join(f"{table} from {n:,}" for table, n in proof.next_ids.items())
    lines = [f"Copied {copies.where(source)} to {copies.where(target)}, and checked the copy:",
             f"  rows: {rows}; the same rows on both sides",
             f"  games: {proof.games:,} replay the same from either database",
             f"  ledgers: {proof.guilds:,} servers' ledgers (and open pots) sum the same",
             f"  new ids continue after the copied ones: {ids}"]
    if proof.unplayable:
        lines.append(f"  note: the records of tables {proof.unplayable[:10]} do not replay, on "
                     "either side (copied as they were)")
    if is_postgres_url(target):
        lines.append("Now set DATABASE_URL to it and start the bot (README \"Moving to "
                     "PostgreSQL\").")
    else:
        lines.append("Now unset DATABASE_URL, set COMMERCE_DB to it and start the bot.")
    return "\n".join(lines)


def copy_command(source: str, target: str) -> int:
    """``python -m bot.storage copy SOURCE TARGET``: copy, prove, print a summary
    (or one line on standard error); returns the exit code (module's docstring)."""
    if is_postgres_url(source) == is_postgres_url(target):
        kind = "PostgreSQL" if is_postgres_url(source) else "SQLite"
        hint = ("pg_dump and pg_restore" if kind == "PostgreSQL"
                else "python -m bot.storage backup")
        print(f"copy goes between SQLite and PostgreSQL; both are {kind} here: use {hint}",
              file=sys.stderr)
        return 2
    try:
        if is_postgres_url(target):
            proof = asyncio.run(sqlite_to_postgres(Path(source), target.strip()))
        else:
            proof = asyncio.run(postgres_to_sqlite(source.strip(), Path(target)))
    except (CopyFailed, CopyRefused, BackupError, DatabaseUnavailable) as exc:
        print(f"Not copied: {exc}", file=sys.stderr)
        return 1
    except STORAGE_ERRORS as exc:  # a row refused, a connection lost: rolled back
        detail = (str(exc).splitlines() or [""])[0]
        print(f"Not copied: the database failed ({type(exc).__name__}: {detail}); nothing was "
              "kept", file=sys.stderr)
        return 1
    print(_summary(source, target, proof))
    return 0
