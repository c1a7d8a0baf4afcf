"""``python -m bot.storage backup``: the operator's copy of the whole database, made on
the host while the bot runs, as a real process. On SQLite through the online backup API
on a connection of its own: it needs neither the bot's one-writer lock nor its write
lock, and never writes over a file. On PostgreSQL it prints the ``pg_dump`` command
(without the password), which works as printed, or with ``--sqlite-copy`` writes an
SQLite file of the same schema."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

import pytest

from bot.storage import LedgerEntry, Storage
from bot.storage.backups import url_without_password
from tests.postgres import child_environ
from tests.storage.test_storage import ANN, BEN, GUILD, count, is_locked, playing_table

ROOT = Path(__file__).resolve().parents[2]
WRITTEN = re.compile(r"^Backup written: (.+) \((\d+) bytes, ")


def run_backup(cwd: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bot.storage", "backup", *args], cwd=cwd,
                          env=child_environ(PYTHONPATH=str(ROOT), **env), capture_output=True,
                          text=True, timeout=60)


def written(proc: subprocess.CompletedProcess[str]) -> Path:
    assert proc.returncode == 0, proc.stderr
    match = WRITTEN.match(proc.stdout)
    assert match, proc.stdout
    path = Path(match[1])
    assert path.stat().st_size == int(match[2])
    return path


async def filled(store: Storage):
    table, deal = await playing_table(store, [ANN, BEN])
    await store.append_action(deal, 0, {"seat": 1, "action": "knock"}, BEN,
                              finish=("finished", [LedgerEntry(1, BEN, 1, "pool"),
                                                   LedgerEntry(0, ANN, -1, "pool")], []))
    return table


async def test_a_backup_while_the_bot_runs_and_holds_a_write(tmp_path: Path) -> None:
    db = tmp_path / "data" / "commerce.db"
    bot = await Storage.open(db)  # the bot: it holds the one-writer lock
    try:
        table = await filled(bot)
        assert is_locked(db)
        # another writer holds the write lock with a row not committed yet
        writer = sqlite3.connect(db, isolation_level=None)
        writer.execute("BEGIN IMMEDIATE")
        writer.execute("INSERT INTO audit (guild_id, member_id, action, detail, created_at)"
                       " VALUES (1, 1, 'uncommitted', '', '')")
        try:
            proc = run_backup(tmp_path, COMMERCE_DB=str(db))
        finally:
            writer.execute("ROLLBACK")
            writer.close()
        copy = written(proc)
        assert copy.parent == db.parent / "backups"
        assert re.fullmatch(r"commerce-\d{8}T\d{6}Z\.db", copy.name)
        assert proc.stdout.rstrip().endswith("schema version "
                                             f"{count(db, 'SELECT MAX(version) FROM schema_version')}).")
        assert is_locked(db)  # still the bot's; and the bot goes on writing
        await bot.audit(GUILD, ANN, "after", "")
        # the copy: one self-contained file, the committed state, nothing else
        assert sorted(p.name for p in copy.parent.iterdir()) == [copy.name]
        assert count(copy, "PRAGMA journal_mode") == "delete"
        assert count(copy, "SELECT COUNT(*) FROM audit WHERE action = 'uncommitted'") == 0
        again = await Storage.open(copy)
        try:
            assert await again.get_table(table.id) == await bot.get_table(table.id)
            assert await again.deals(table.id) == await bot.deals(table.id)
            assert await again.leaderboard(GUILD, 0, 10) == ([(BEN, 1), (ANN, -1)], 2)
        finally:
            await again.close()
        # a second copy in the same second gets a name of its own; a named one is never
        # written over
        second = written(run_backup(tmp_path, COMMERCE_DB=str(db)))
        assert second != copy and second.parent == copy.parent
        before = copy.read_bytes()
        refused = run_backup(tmp_path, str(copy), COMMERCE_DB=str(db))
        assert refused.returncode == 1 and refused.stdout == ""
        assert refused.stderr == (f"No backup: {copy} already exists: choose another name; "
                                  "nothing was written there\n")
        assert copy.read_bytes() == before
        # DEST a folder: the file goes in it
        folder = tmp_path / "elsewhere"
        folder.mkdir()
        assert written(run_backup(tmp_path, str(folder), COMMERCE_DB=str(db))).parent == folder
        assert not list(folder.glob("*.part")) and not list(copy.parent.glob("*.part"))
    finally:
        await bot.close()


async def test_a_backup_of_a_database_no_bot_has_open_leaves_nothing_beside_it(
        tmp_path: Path) -> None:
    """Reading a WAL database that no one has open makes its -wal and -shm files; the
    copy removes them again (made by whoever ran it, maybe not the bot's user)."""
    db = tmp_path / "commerce.db"
    store = await Storage.open(db)
    await filled(store)
    await store.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["commerce.db", "commerce.db.lock"]
    copy = written(run_backup(tmp_path, "copy.db", COMMERCE_DB=str(db)))
    assert copy == tmp_path / "copy.db"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["commerce.db", "commerce.db.lock",
                                                          "copy.db"]
    assert count(copy, "SELECT COUNT(*) FROM ledger") == 2


def test_no_database_or_not_one_is_refused_and_nothing_is_written(tmp_path: Path) -> None:
    missing = run_backup(tmp_path, COMMERCE_DB=str(tmp_path / "none.db"))
    assert missing.returncode == 1
    assert missing.stderr == (f"No backup: cannot read {tmp_path / 'none.db'} (No such file or "
                              "directory): is COMMERCE_DB right?\n")
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"not a database" * 100)
    proc = run_backup(tmp_path, COMMERCE_DB=str(junk))
    assert proc.returncode == 1 and "is not an SQLite database" in proc.stderr
    foreign = tmp_path / "photos.db"
    with sqlite3.connect(foreign) as conn:
        conn.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY)")
    proc = run_backup(tmp_path, COMMERCE_DB=str(foreign))
    assert proc.returncode == 1 and "not a Commerce database" in proc.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["junk.db", "photos.db"]


def test_help_says_what_it_does(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "bot.storage", "backup", "--help"], cwd=tmp_path,
                          env=child_environ(PYTHONPATH=str(ROOT)), capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 0
    assert "usage: python -m bot.storage backup [-h] [--sqlite-copy] [DEST]" in proc.stdout
    assert "pg_dump" in proc.stdout and "online backup API" in proc.stdout


def test_the_url_loses_its_password_only() -> None:
    assert url_without_password("postgresql://bot:s3cr%40t@db:5432/commerce?sslmode=require"
                                "&password=x") == "postgresql://bot@db:5432/commerce?sslmode=require"
    assert url_without_password("postgresql://bot@/commerce?host=%2Frun%2Fpg&port=5433") == (
        "postgresql://bot@/commerce?host=%2Frun%2Fpg&port=5433")
    assert url_without_password("postgres://db/commerce") == "postgres://db/commerce"


async def test_postgres_prints_the_pg_dump_command_or_writes_an_sqlite_copy(
        tmp_path: Path, pg_migrated_url: str) -> None:
    from bot.storage import PgStorage

    store = await PgStorage.open(pg_migrated_url)
    try:
        table = await filled(store)
        await store.claim_shards([0], 1)  # a running bot's claims do not stand in the way
        proc = run_backup(tmp_path, DATABASE_URL=pg_migrated_url)
        assert proc.returncode == 2 and proc.stderr == ""
        password = unquote(urlsplit(pg_migrated_url).password or "")
        if password:
            assert password not in proc.stdout
        [command] = [line.strip() for line in proc.stdout.splitlines()
                     if line.strip().startswith("pg_dump ")]
        assert "Nothing was written" in proc.stdout and not (tmp_path / "backups").exists()
        # the command works as printed (the password given as pg_dump takes it)
        (tmp_path / "backups").mkdir()
        dump = subprocess.run(shlex.split(command), cwd=tmp_path, capture_output=True,
                              text=True, timeout=120,
                              env={**os.environ, "PGPASSWORD": password} if password
                              else dict(os.environ))
        if dump.returncode != 0 and "server version" in dump.stderr:
            pytest.skip(f"this machine's pg_dump does not match the server: {dump.stderr}")
        assert dump.returncode == 0, dump.stderr
        [made] = (tmp_path / "backups").glob("commerce-*.dump")
        assert made.read_bytes()[:5] == b"PGDMP"
        # --sqlite-copy: an SQLite file of the same schema, from one snapshot
        copy = written(run_backup(tmp_path, "--sqlite-copy", DATABASE_URL=pg_migrated_url))
        assert copy.parent == tmp_path / "data" / "backups"
        assert sorted(p.name for p in copy.parent.iterdir()) == [copy.name]
        again = await Storage.open(copy)
        try:
            assert await again.get_table(table.id) == await store.get_table(table.id)
            assert await again.deals(table.id) == await store.deals(table.id)
            assert await again.leaderboard(GUILD, 0, 10) == ([(BEN, 1), (ANN, -1)], 2)
        finally:
            await again.close()
    finally:
        await store.close()


def _login(url: str) -> tuple[list[str], str, str]:
    """pg_dump's connection options for ``url`` (host, port, user), its password and
    its database."""
    parts = urlsplit(url)
    query = parse_qs(parts.query)
    host = parts.hostname or query.get("host", [""])[0]
    port = str(parts.port or query.get("port", ["5432"])[0])
    user = unquote(parts.username or "") or query.get("user", ["postgres"])[0]
    return ([f"--host={host}", f"--port={port}", f"--username={user}"],
            unquote(parts.password or ""), unquote(parts.path.lstrip("/")))


async def test_the_compose_backup_routine_dumps_what_pg_restore_restores_equal(
        tmp_path: Path, pg_server, pg_template) -> None:
    """compose.yaml's ``pg-backup`` command, run here against the test server (its
    host, login and folder put in), writes one whole dump; the documented restore
    (tests/test_compose.py ``RESTORE_FLAGS``) over a database holding other rows
    leaves a copy that passes the proof of ``python -m bot.storage copy``."""
    from bot.process.copying import prove
    from bot.storage import PgStorage, copies
    from tests.postgres import fresh_database
    from tests.storage.test_copy import grow
    from tests.test_compose import RESTORE_FLAGS, SERVICES

    if shutil.which("pg_dump") is None or shutil.which("pg_restore") is None:
        pytest.skip("no pg_dump / pg_restore on this machine")
    async with fresh_database(pg_server, pg_template) as url, \
            fresh_database(pg_server, pg_template) as restored_url:
        source = await PgStorage.open(url)
        await grow(source)
        options, password, name = _login(url)
        env = {**os.environ, "PGPASSWORD": password} if password else dict(os.environ)
        script = (SERVICES["pg-backup"]["command"][2].replace("$$", "$")
                  .replace("--host=postgres --username=commerce", " ".join(options))
                  .replace(" commerce &&", f" {shlex.quote(name)} &&")
                  .replace("/backups/", f"{tmp_path}/"))
        dumped = subprocess.run(["sh", "-c", script], capture_output=True, text=True, env=env,
                                timeout=120)
        if dumped.returncode != 0 and "server version" in dumped.stderr:
            await source.close()
            pytest.skip(f"this machine's pg_dump does not match the server: {dumped.stderr}")
        assert dumped.returncode == 0, dumped.stderr
        [dump] = list(tmp_path.iterdir())  # one file, whole (no .part left)
        assert re.fullmatch(r"commerce-\d{8}T\d{6}Z\.dump", dump.name)
        assert dump.read_bytes()[:5] == b"PGDMP"
        other = await PgStorage.open(restored_url)
        await other.audit(GUILD, ANN, "before the restore", "")
        await other.close()
        restore_options, _, restored_name = _login(restored_url)
        restored = subprocess.run(
            ["pg_restore", *restore_options, f"--dbname={restored_name}",
             *RESTORE_FLAGS.split(), str(dump)], capture_output=True, text=True, env=env,
            timeout=120)
        assert restored.returncode == 0, restored.stderr
        target = await PgStorage.open(restored_url)
        try:
            proof = await prove(source, target, await copies.columns(source))
            assert proof.games == 5 and proof.rows["actions"] > 0
            assert all(entry[1] != "before the restore" for entry in
                       await target.audit_entries(GUILD))
        finally:
            await target.close()
            await source.close()


async def test_an_sqlite_copy_keeps_the_hints_in_the_order_given(tmp_path: Path,
                                                                 pg_migrated_url: str) -> None:
    """Hints have no id: their order is the order they were given (their time, then
    their place in the table). The copy reads them in that order; sorted by deal
    alone, PostgreSQL's sort would mix up those of one deal."""
    from bot.storage import PgStorage
    from bot.storage.backups import postgres_to_sqlite

    store = await PgStorage.open(pg_migrated_url)
    try:
        (first, deal_a), (second, deal_b) = [await playing_table(store, [ANN, BEN], guild=g)
                                             for g in (GUILD, GUILD + 1)]
        async with store.atomic():  # one second: the same time for all
            for i in range(400):
                await store.add_hint(deal_a if i % 2 else deal_b, i, 0, ANN, f"hint {i}", "")
        copy = tmp_path / "copy.db"
        await postgres_to_sqlite(pg_migrated_url, copy)
        again = await Storage.open(copy)
        try:
            for table in (first, second):
                assert await again.hints(table.id) == await store.hints(table.id)
        finally:
            await again.close()
    finally:
        await store.close()
