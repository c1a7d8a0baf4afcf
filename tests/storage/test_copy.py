"""``python -m bot.storage copy SOURCE TARGET`` (bot/process/copying.py): a database that grew
on SQLite — games played through the table service to their end, a game left
mid-deal, a table closed with its deal voided, a lobby, coach hints, changed
settings, a reset ledger, two servers — moves to an empty PostgreSQL database in
one command, and back; the command proves the copy (same rows, every game
replaying the same, every ledger summing the same, new ids after the copied ones)
before keeping it; a database that holds rows, a bot still running on either
side, two databases of one kind are refused with one line and nothing kept."""

from __future__ import annotations

import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import asyncpg
import pytest

from bot.engine import easy as engine_easy
from bot.process.copying import CopyFailed, prove
from bot.service import TableService
from bot.storage import AnyStorage, PgStorage, Storage, copies, open_storage
from tests.postgres import child_environ

ROOT = Path(__file__).resolve().parents[2]
#: two servers, on different shards of 2
GUILD, OTHER = (5 << 22) | 1, (6 << 22) | 2
ANN, BEN = 11, 12


def run_copy(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bot.storage", "copy", *args], cwd=cwd,
                          env=child_environ(PYTHONPATH=str(ROOT)), capture_output=True,
                          text=True, timeout=120)


async def play(service: TableService, table_id: int, member: int, moves: int | None = None,
               hints: int = 0) -> None:
    """``member`` plays the easy AI's choices (asking the coach ``hints`` times first),
    the AI seats answer, each deal is followed by the next: until the game is over,
    or after ``moves`` of the member's moves."""
    made = 0
    while True:
        live = service.tables.get(table_id)
        if live is None or live.game.complete:  # over: no longer an open table
            return
        deal = live.deal
        assert deal is not None
        if deal.finished:
            await service.next_deal(table_id, live.deal_number)
            continue
        if moves is not None and made >= moves:
            return
        seat = live.seat_of(member)
        assert deal.to_act == seat, "the AI seats answer within the member's move"
        if hints:
            await service.hint(table_id, member, live.deal_number, len(deal.operations))
            hints -= 1
        await service.act(table_id, member, live.deal_number,
                          engine_easy.choose(deal.observation(seat)))
        made += 1


async def grow(store: AnyStorage) -> None:
    """What a server that grew leaves in its database (see the module's docstring)."""
    service = TableService(store, rng=random.Random(2026))
    try:
        await service.update_settings(GUILD, ANN, turn_timer=45, keep_days=3, max_tables=20)
        for channel, preset in ((500, "foster"), (501, "widow")):  # two games to their end
            table = await service.create(GUILD, channel, ANN, "Ann", preset, {"deals": 2})
            await service.add_ai(table.id, ANN, "easy")
            await service.add_ai(table.id, ANN, "normal")
            await service.commitment_posted(table.id, 9000 + table.id)  # the fair-shuffle message
            await service.start(table.id, ANN)
            await play(service, table.id, ANN, hints=2)
            await service.end_shown(table.id)
        closed = await service.create(GUILD, 502, BEN, "Ben", "foster", {"deals": 3})
        await service.add_ai(closed.id, BEN, "easy")
        await service.add_ai(closed.id, BEN, "easy")
        await service.commitment_posted(closed.id, 9000 + closed.id)  # the fair-shuffle message
        await service.start(closed.id, BEN)
        await play(service, closed.id, BEN, moves=1)
        await service.end(closed.id, BEN, is_manager=False)  # its open deal is voided
        await service.reset_ledger(GUILD, ANN)
        running = await service.create(GUILD, 503, ANN, "Ann", "foster", {"deals": 4})
        await service.add_ai(running.id, ANN, "strong")
        await service.add_ai(running.id, ANN, "easy")
        await service.commitment_posted(running.id, 9000 + running.id)  # the fair-shuffle message
        await service.start(running.id, ANN)
        await play(service, running.id, ANN, moves=2, hints=1)  # left mid-deal, points in play
        await service.create(GUILD, 504, BEN, "Ben")  # a lobby
        other = await service.create(OTHER, 600, BEN, "Ben", "foster", {"deals": 1})
        await service.add_ai(other.id, BEN, "easy")
        await service.add_ai(other.id, BEN, "normal")
        await service.commitment_posted(other.id, 9000 + other.id)  # the fair-shuffle message
        await service.start(other.id, BEN)
        await play(service, other.id, BEN)
    finally:
        service.players.close()


async def grown_sqlite(path: Path) -> None:
    store = await Storage.open(path)
    try:
        await grow(store)
    finally:
        await store.close()


def count(db: Path, sql: str) -> int:
    with sqlite3.connect(db) as conn:
        return conn.execute(sql).fetchone()[0]


async def pg_count(url: str, sql: str) -> int:
    conn = await asyncpg.connect(url)
    try:
        return await conn.fetchval(sql)
    finally:
        await conn.close()


async def test_a_grown_sqlite_database_moves_to_postgresql_and_back_in_one_command(
        tmp_path: Path, pg_url: str) -> None:
    source = tmp_path / "data" / "commerce.db"
    await grown_sqlite(source)
    assert count(source, "SELECT COUNT(*) FROM deals WHERE status = 'void'") == 1
    assert count(source, "SELECT COUNT(*) FROM hints") >= 3  # as the games gave the chance
    assert count(source, "SELECT COUNT(*) FROM shuffle_events") >= 5
    assert count(source, "SELECT COUNT(*) FROM ledger WHERE reason = 'reset'") >= 1
    done = run_copy(tmp_path, str(source), pg_url)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == (f"Copied {source} to {copies.where(pg_url)}, and checked the copy:")
    tables = count(source, "SELECT COUNT(*) FROM tables")
    actions = count(source, "SELECT COUNT(*) FROM actions")
    assert f"tables {tables}, " in lines[1] and f"actions {actions:,}, " in lines[1]
    assert lines[2] == "  games: 5 replay the same from either database"
    assert lines[3] == "  ledgers: 2 servers' ledgers (and open pots) sum the same"
    assert f"tables from {tables + 1}, shuffle_events from " in lines[4] and "deals from " in lines[4]
    assert done.stderr == ""

    # the bot runs on the copy as it ran on the file: everything reads the same
    sqlite, pg = await Storage.open(source), await PgStorage.open(pg_url)
    try:
        for guild in (GUILD, OTHER):
            assert await pg.leaderboard(guild, 0, 10) == await sqlite.leaderboard(guild, 0, 10)
            assert await pg.get_settings(guild) == await sqlite.get_settings(guild)
            assert await pg.past_games(guild, 0, 10) == await sqlite.past_games(guild, 0, 10)
            assert await pg.audit_entries(guild) == await sqlite.audit_entries(guild)
        assert await pg.open_state() == await sqlite.open_state()
        made = await pg.create_table(GUILD, 999, BEN, "foster", {}, 30)  # ids continue
        assert made.id == tables + 1 and made.number == 6
        await pg.audit(GUILD, BEN, "after", "the copy")
    finally:
        await sqlite.close()
        await pg.close()

    # and back: a new SQLite file, proven the same way
    back = tmp_path / "back" / "commerce.db"
    done = run_copy(tmp_path, pg_url, str(back))
    assert done.returncode == 0, done.stderr
    assert "  games: 5 replay the same from either database" in done.stdout
    assert sorted(p.name for p in back.parent.iterdir()) == ["commerce.db"]
    assert count(back, "PRAGMA journal_mode") == "delete"
    assert count(back, "SELECT COUNT(*) FROM tables") == tables + 1
    assert count(back, "SELECT COUNT(*) FROM audit WHERE action = 'after'") == 1
    again = await Storage.open(back)
    try:
        assert (await again.create_table(GUILD, 998, BEN, "foster", {}, 30)).id == made.id + 1
    finally:
        await again.close()


async def test_a_target_that_holds_rows_or_a_running_bot_is_refused_and_nothing_is_kept(
        tmp_path: Path, pg_migrated_url: str, pg_url: str) -> None:
    source = tmp_path / "commerce.db"
    await grown_sqlite(source)
    pg = await PgStorage.open(pg_migrated_url)
    try:
        await pg.audit(GUILD, ANN, "already", "here")
    finally:
        await pg.close()
    done = run_copy(tmp_path, str(source), pg_migrated_url)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr == (f"Not copied: {copies.where(pg_migrated_url)} is not empty (audit 1): "
                           "copy into an empty database only (create a new one: createdb); "
                           "nothing was written\n")
    assert await pg_count(pg_migrated_url, "SELECT COUNT(*) FROM tables") == 0

    # a bot still running on the SQLite file: its lock refuses the copy
    running = await Storage.open(source)
    try:
        done = run_copy(tmp_path, str(source), pg_url)
        assert done.returncode == 1
        assert done.stderr.startswith(f"Not copied: {source} is in use by another Commerce "
                                      "process (")
    finally:
        await running.close()
    assert await pg_count(pg_url, "SELECT COUNT(*) FROM pg_tables WHERE schemaname ="
                                  " current_schema()") == 0  # not even migrated
    # a bot running on the PostgreSQL source of a copy back: refused, no file made
    bot = await PgStorage.open(pg_migrated_url)
    try:
        await bot.claim_shards((1,), 2)
        done = run_copy(tmp_path, pg_migrated_url, str(tmp_path / "back.db"))
        assert done.returncode == 1 and not (tmp_path / "back.db").exists()
        assert done.stderr.startswith(f"Not copied: a Commerce process is running on "
                                      f"{copies.where(pg_migrated_url)} (commerce-bot pid ")
    finally:
        await bot.close()
    # two of one kind; a missing source; a target file that exists
    done = run_copy(tmp_path, str(source), str(tmp_path / "other.db"))
    assert done.returncode == 2 and done.stderr == (
        "copy goes between SQLite and PostgreSQL; both are SQLite here: use python -m "
        "bot.storage backup\n")
    done = run_copy(tmp_path, str(tmp_path / "none.db"), pg_migrated_url)
    assert done.returncode == 1 and "none.db does not exist" in done.stderr
    assert not (tmp_path / "none.db").exists()
    done = run_copy(tmp_path, pg_migrated_url, str(source))
    assert done.returncode == 1 and "already exists" in done.stderr


async def test_a_copy_that_does_not_prove_equal_is_rolled_back(
        tmp_path: Path, pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A copy that loses a row (here a deal's last action, as a faulty conversion
    would) fails its proof, and the target is left as empty as it was."""
    from bot.process import copying

    source = tmp_path / "commerce.db"
    await grown_sqlite(source)
    real = copies.fill_postgres

    async def lossy(src, target, types):
        copied = await real(src, target, types)

        async def drop(conn):
            await conn.execute("ALTER TABLE actions DISABLE TRIGGER actions_no_delete")
            await conn.execute("DELETE FROM actions WHERE id = (SELECT MAX(id) FROM actions)")
            await conn.execute("ALTER TABLE actions ENABLE TRIGGER actions_no_delete")
        await target._write_now(drop)
        return copied

    monkeypatch.setattr(copying.copies, "fill_postgres", lossy)
    with pytest.raises(CopyFailed, match=r"^the copy is not equal to the source \(actions: "):
        await copying.sqlite_to_postgres(source, pg_url)
    assert await pg_count(pg_url, "SELECT COUNT(*) FROM tables") == 0
    assert await pg_count(pg_url, "SELECT COUNT(*) FROM shard_claims") == 0


async def test_the_proof_finds_a_row_changed_though_the_counts_are_the_same(
        tmp_path: Path) -> None:
    """Same counts, one action's payload changed: the proof says the rows differ."""
    a, b = tmp_path / "a.db", tmp_path / "b.db"
    await grown_sqlite(a)
    with sqlite3.connect(a) as src, sqlite3.connect(b) as dst:
        src.backup(dst)
    with sqlite3.connect(b) as conn:
        conn.execute("DROP TRIGGER actions_no_update")
        conn.execute("UPDATE actions SET payload = json_set(payload, '$.note', 1)"
                     " WHERE id = (SELECT MIN(id) FROM actions)")
    first, second = await open_storage(a), await open_storage(b)
    try:
        with pytest.raises(CopyFailed, match=r"\(actions: rows differ\)"):
            await prove(first, second, await types_of(first))
    finally:
        await first.close()
        await second.close()


async def types_of(store: Storage) -> copies.Columns:
    """The column types the copy uses, read from the SQLite schema's declarations."""
    kinds = {"INTEGER": "bigint", "TEXT": "text", "REAL": "double precision"}
    out: copies.Columns = {}
    async with store._read() as db:
        for table in copies.COPY_ORDER:
            async with db.execute(f"PRAGMA table_info({table})") as cur:
                out[table] = [(r[1], kinds[r[2]]) for r in await cur.fetchall()]
    return out


def test_values_take_the_type_of_their_postgresql_column() -> None:
    convert = copies.convert
    assert convert("42", "bigint", "t", "c") == 42 and convert(7.0, "integer", "t", "c") == 7
    assert convert(5, "text", "t", "c") == "5" and convert(None, "integer", "t", "c") is None
    for bad, kind in (("x", "bigint"), (1.5, "integer"), (1 << 31, "integer"),
                      (b"\x00", "text"), ("a\x00b", "text")):
        with pytest.raises(copies.CopyRefused, match=r"^t\.c holds "):
            convert(bad, kind, "t", "c")


def test_help_says_what_it_copies_and_what_it_refuses(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "bot.storage", "copy", "--help"], cwd=tmp_path,
                          env=child_environ(PYTHONPATH=str(ROOT)), capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0
    text = " ".join(done.stdout.split())
    assert "usage: python -m bot.storage copy [-h] SOURCE TARGET" in text
    for words in ("SQLite and PostgreSQL", "EMPTY database", "every game replaying the same",
                  "new ids continuing", "Exit status: 0 copied and proven, 1 not copied"):
        assert words in text, words
