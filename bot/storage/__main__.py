"""``python -m bot.storage``: the operator's commands for the whole database, on the
host.

``copy SOURCE TARGET`` moves it between SQLite and PostgreSQL, every bot on either
stopped, and proves the copy before keeping it (``bot/process/copying.py``; exit codes
there: 0 copied and proven, 1 not copied, 2 a wrong command line).

``backup [DEST]`` is a copy of the whole database, made while the bot may be
running (it is not disturbed):

The database is the one ``python -m bot`` uses (``.env`` is read the same way):
``DATABASE_URL`` when it is a ``postgresql://`` URL, else the SQLite file
``COMMERCE_DB`` (default ``data/commerce.db``).

- SQLite: the copy goes to ``DEST`` (a file name, or a folder to put it in),
  by default ``backups/commerce-<UTC stamp>.db`` beside the database file; an
  existing file is never written over. Exit code 0 once the copy is written
  and checked (``bot/storage/backups.py``), 1 when it could not be made.
- PostgreSQL: ``pg_dump`` is the tool; the command prints the exact ``pg_dump``
  line for the configured database (without its password) and exits with 2,
  writing nothing. With ``--sqlite-copy`` it writes an SQLite file of the same
  schema instead (default ``data/backups/commerce-<UTC stamp>.db``), which the bot
  can run on with ``DATABASE_URL`` unset and ``COMMERCE_DB`` naming it.

A schedule is the operator's (cron, a systemd timer): each run writes one new file.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from datetime import UTC, datetime
from pathlib import Path

from dotenv import load_dotenv

from ..__main__ import database_from_env
from . import DatabaseUnavailable, is_postgres_url
from .backups import (
    BackupError,
    backup_sqlite,
    default_destination,
    pg_dump_command,
    postgres_to_sqlite,
)
from .postgres import describe_url

DESCRIPTION = ("Copy the whole Commerce database (the one python -m bot uses: DATABASE_URL, "
               "else COMMERCE_DB) while the bot runs. SQLite: the online backup API, into "
               "backups/ beside the database file by default. PostgreSQL: prints the pg_dump "
               "command to use, or with --sqlite-copy writes an SQLite file of the same schema.")


COPY_DESCRIPTION = (
    "Copy the whole Commerce database between SQLite and PostgreSQL: every table, deal, "
    "action, ledger row, game history, hint and setting. SQLite to PostgreSQL: SOURCE is "
    "the SQLite file (e.g. data/commerce.db), TARGET a postgresql:// URL of an EMPTY "
    "database (a database that holds rows is refused). PostgreSQL to SQLite: SOURCE the "
    "URL, TARGET a new file. Stop every bot process on either first (one that runs "
    "refuses the copy). The copy is then proven before it is kept: the same rows in "
    "every table, every game replaying the same, every server's ledger summing the "
    "same, new ids continuing after the copied ones; otherwise nothing is kept. "
    "Exit status: 0 copied and proven, 1 not copied (one line says why), 2 a wrong "
    "command line.")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m bot.storage",
        description="The operator's commands for the whole Commerce database, on the host: "
                    "copy moves it between SQLite and PostgreSQL, backup copies it while the "
                    "bot runs. COMMAND --help says more.")
    sub = parser.add_subparsers(dest="command", required=True)
    copy = sub.add_parser("copy", help="move the whole database between SQLite and "
                          "PostgreSQL, and prove the copy", description=COPY_DESCRIPTION)
    copy.add_argument("source", metavar="SOURCE",
                      help="the database to copy: an SQLite file or a postgresql:// URL")
    copy.add_argument("target", metavar="TARGET",
                      help="where to: an empty PostgreSQL database's postgresql:// URL, or "
                           "a new SQLite file")
    backup = sub.add_parser(
        "backup", help="copy the whole database to a new file", description=DESCRIPTION)
    backup.add_argument(
        "dest", nargs="?", type=Path, metavar="DEST",
        help="the new file, or a folder for it (default: backups/commerce-<UTC stamp>.db "
             "beside the SQLite file; with --sqlite-copy, data/backups/); never written over")
    backup.add_argument(
        "--sqlite-copy", action="store_true",
        help="PostgreSQL only: write an SQLite file of the same schema (from one snapshot) "
             "instead of printing the pg_dump command")
    return parser


def _destination(dest: Path | None, folder: Path, now: datetime, suffix: str = ".db") -> Path:
    """``dest`` as given, ``dest/<default name>`` when it is a folder, or the default
    file in ``folder``."""
    if dest is None:
        return default_destination(folder, now, suffix)
    if dest.is_dir():
        return default_destination(dest, now, suffix)
    return dest


def backup(database: str, dest: Path | None, *, sqlite_copy: bool = False,
           now: datetime | None = None) -> int:
    """Copy ``database`` (an SQLite file or a ``postgresql://`` URL) to ``dest``;
    print what was done (standard output) or why not (standard error). Returns the
    exit code: 0 written, 1 failed (nothing written), 2 PostgreSQL without
    ``sqlite_copy`` (the ``pg_dump`` command printed)."""
    now = now or datetime.now(UTC)
    if is_postgres_url(database):
        url = database.strip()
        if not sqlite_copy:
            target = _destination(dest, Path("backups"), now, ".dump")
            print(f"The database is {describe_url(url)}: back it up with pg_dump (the "
                  "password comes from PGPASSWORD or ~/.pgpass), for example:\n\n"
                  f"    {pg_dump_command(url, target)}\n\n"
                  "pg_restore reads the file. Or run this command again with --sqlite-copy "
                  "for an SQLite file of the same schema. Nothing was written.")
            return 2
        target = _destination(dest, Path("data") / "backups", now)
        try:
            version = asyncio.run(postgres_to_sqlite(url, target))
        except (BackupError, DatabaseUnavailable) as exc:
            print(f"No backup: {exc}", file=sys.stderr)
            return 1
        print(f"Backup written: {target.absolute()} ({target.stat().st_size} bytes, an SQLite "
              "copy of "
              f"{describe_url(url)} at schema version {version}).")
        return 0
    source = Path(database)
    target = _destination(dest, source.parent / "backups", now)
    try:
        version = backup_sqlite(source, target)
    except BackupError as exc:
        print(f"No backup: {exc}", file=sys.stderr)
        return 1
    print(f"Backup written: {target.absolute()} ({target.stat().st_size} bytes, schema version "
          f"{version}).")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``python -m bot.storage``; returns the exit code (argparse's
    own 2 for a bad command line)."""
    load_dotenv()
    args = _parser().parse_args(argv)
    if args.command == "copy":
        from ..process.copying import copy_command

        return copy_command(args.source, args.target)
    return backup(database_from_env(), args.dest, sqlite_copy=args.sqlite_copy)


if __name__ == "__main__":
    sys.exit(main())
