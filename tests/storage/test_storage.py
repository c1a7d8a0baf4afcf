"""Storage on both backends: a real SQLite file in ``tmp_path`` and a fresh database
of a real PostgreSQL server (``tests/storage/backends.py``). The tests about SQLite's
file, lock and pragmas run on SQLite only (their PostgreSQL counterparts follow them)."""

from __future__ import annotations

import asyncio
import fcntl
import inspect
import os
import shutil
import socket
import sqlite3
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit

import asyncpg
import pytest
import pytest_asyncio

from bot.storage import (
    MIN_FREE_BYTES,
    AnyStorage,
    CorruptDatabase,
    DatabaseInUse,
    DatabaseNotWritable,
    DatabaseUnavailable,
    GuildSettings,
    HandResult,
    LedgerEntry,
    MemberStats,
    PgStorage,
    Storage,
    is_postgres_url,
    open_storage,
    pg_migrate,
)
from bot.storage import database as database_module
from bot.storage import ledger as ledger_module
from bot.storage.backups import BackupError, backup_sqlite, postgres_to_sqlite
from bot.storage.pgserver import PgServer
from bot.storage.postgres import pg_sql
from tests.storage.backends import Backend
from tests.storage.faults import read_only

DECK = [rank + suit for suit in "cdhs" for rank in "23456789TJQKA"]
GUILD, OTHER_GUILD = 1001, 2002
#: the newest schema version shipped in bot/storage/migrations
LATEST = max(int(p.name[:4]) for p in database_module.MIGRATIONS_DIR.glob("*.sql"))
#: how many migrations there are (numbers may skip one kept for another branch)
APPLIED = len(list(database_module.MIGRATIONS_DIR.glob("*.sql")))
ANN, BEN, CAT, DAN = 11, 12, 13, 14


@pytest_asyncio.fixture
async def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "commerce.db"


@contextmanager
def raw(path: Path) -> Iterator[sqlite3.Connection]:
    """A plain sqlite3 connection to the same file, for checks behind Storage's back."""
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        yield conn
    finally:
        conn.close()


def count(path: Path, sql: str, params: tuple = ()) -> int:
    with raw(path) as conn:
        return conn.execute(sql, params).fetchone()[0]


async def new_table(store: AnyStorage, guild: int = GUILD, channel: int = 500, host: int = ANN):
    return await store.create_table(guild, channel, host, "foster", {"direction": "clockwise"}, 30)


async def playing_table(store: AnyStorage, members: list[int | None], guild: int = GUILD):
    """A started table with one seat per member (None = AI); returns (table, deal id)."""
    table = await new_table(store, guild=guild, host=members[0] or 1)
    for i, member in enumerate(members):
        await store.add_seat(table.id, member, f"P{i}")
    await store.start_game(table.id, first_dealer=0)
    deal_id = await store.start_deal(table.id, 0, 0, DECK)
    return table, deal_id


# ---------------------------------------------------------------- opening and migrations


async def test_migrations_from_empty_then_reopen_is_idempotent(db_path: Path) -> None:
    assert not db_path.parent.exists()
    store = await Storage.open(db_path)
    try:
        assert db_path.exists()
        assert count(db_path, "SELECT MAX(version) FROM schema_version") == LATEST
        table = await new_table(store)
    finally:
        await store.close()
    await store.close()  # idempotent

    with raw(db_path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"schema_version", "guild_settings", "tables", "seats", "games", "deals", "actions",
            "ledger", "deal_hands", "audit"} <= names

    again = await Storage.open(db_path)
    try:
        assert count(db_path, "SELECT MAX(version) FROM schema_version") == LATEST
        assert await again.get_table(table.id) == table
        async with again._read() as db, db.execute("PRAGMA foreign_keys") as cur:
            assert (await cur.fetchone())[0] == 1
    finally:
        await again.close()
    assert count(db_path, "SELECT COUNT(*) FROM schema_version") == APPLIED


async def test_failed_migration_rolls_back_whole_file(
    db_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    migrations = tmp_path / "migrations"
    shutil.copytree(database_module.MIGRATIONS_DIR, migrations)
    known = LATEST
    broken = migrations / f"{known + 1:04d}_broken.sql"
    broken.write_text(
        "CREATE TABLE half_done (x INTEGER);\nINSERT INTO no_such_table VALUES (1);\n"
    )
    monkeypatch.setattr(database_module, "MIGRATIONS_DIR", migrations)
    with pytest.raises(sqlite3.OperationalError):
        await Storage.open(db_path)
    # the known migrations committed on their own; the broken one left no trace.
    assert count(db_path, "SELECT MAX(version) FROM schema_version") == known
    assert count(db_path, "SELECT COUNT(*) FROM sqlite_master WHERE name = 'half_done'") == 0

    broken.write_text("CREATE TABLE half_done (x INTEGER);\n")
    store = await Storage.open(db_path)
    try:
        assert count(db_path, "SELECT MAX(version) FROM schema_version") == known + 1
    finally:
        await store.close()


async def _make_newer(path: Path) -> None:
    store = await Storage.open(path)
    await store.close()
    with raw(path) as conn:
        conn.execute("INSERT INTO schema_version VALUES (999, 'future', '2099-01-01T00:00:00')")


async def _make_foreign(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with raw(path) as conn:
        conn.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, name TEXT)")
        conn.execute("INSERT INTO photos (name) VALUES ('cat.jpg')")


async def _make_garbage(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"this is not a database at all\n" * 200)


async def _make_damaged(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"SQLite format 3\x00" + bytes(range(256)) * 40)


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (_make_garbage, "bad header"),
        (_make_damaged, "untouched"),
        (_make_foreign, "not a Commerce"),
        (_make_newer, "newer than this bot knows"),
    ],
)
async def test_unusable_file_raises_and_is_never_modified(db_path: Path, make, message) -> None:
    await make(db_path)
    before = db_path.read_bytes()
    assert not Path(f"{db_path}-wal").exists()
    with pytest.raises(CorruptDatabase, match=message):
        await Storage.open(db_path)
    assert db_path.read_bytes() == before
    assert not Path(f"{db_path}-wal").exists()
    assert not is_locked(db_path)  # a refused open keeps no lock


# ---------------------------------------------------------------- one writer per file


def is_locked(path: Path) -> bool:
    """Whether some open file description holds the database's flock (ours included)."""
    fd = os.open(database_module.lock_path(path), os.O_RDONLY | os.O_CREAT)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)  # also drops the lock if we just took it
    return False


async def test_a_second_storage_on_the_same_file_is_refused_until_close(
    db_path: Path, tmp_path: Path,
) -> None:
    first = await Storage.open(db_path)
    try:
        lock = db_path.with_name("commerce.db.lock")
        assert lock.read_text() == f"{os.getpid()}\n"
        assert is_locked(db_path)
        # the same file by another spelling of its path is the same file
        for other in (db_path, tmp_path / "data" / ".." / "data" / "commerce.db"):
            with pytest.raises(DatabaseInUse) as refused:
                await Storage.open(other)
            assert str(refused.value) == (
                f"{other} is already open in this process (pid {os.getpid()}); close it first")
        table = await new_table(first)  # the refusals left the first one working
        assert is_locked(db_path)
    finally:
        await first.close()
    assert not is_locked(db_path)
    await first.close()  # idempotent, and never releases a lock it no longer holds
    again = await Storage.open(db_path)
    try:
        assert await again.get_table(table.id) == table
        # a backup is another file: copying and opening it do not need this lock
        backup_sqlite(db_path, tmp_path / "backups" / "copy.db")
        copy = await Storage.open(tmp_path / "backups" / "copy.db")
        try:
            assert await copy.get_table(table.id) == table
        finally:
            await copy.close()
    finally:
        await again.close()


# ---------------------------------------------------------------- unwritable at start
# Which failures are real here: the read-only file and the two read-only folders are
# real (faults.read_only: ``chattr +i`` as root, which root cannot bypass; ``chmod``
# otherwise); a full disk is real in tests/app/test_main.py (a small tmpfs in a
# private mount namespace) and simulated here (shutil.disk_usage patched).


async def _latest(path: Path) -> bytes:
    """A closed, fully migrated database (no -wal, no -shm); returns its bytes."""
    store = await Storage.open(path)
    await new_table(store)
    await store.close()
    assert not Path(f"{path}-wal").exists()
    return path.read_bytes()


async def test_a_read_only_file_is_refused_at_open(db_path: Path) -> None:
    before = await _latest(db_path)
    with read_only(db_path):
        # nothing is left to migrate: only the probe write finds out
        with pytest.raises(DatabaseNotWritable) as refused:
            await Storage.open(db_path)
        assert db_path.read_bytes() == before
    assert str(refused.value) == f"{db_path} cannot be written (read-only file): fix its permissions"
    assert not is_locked(db_path)
    store = await Storage.open(db_path)  # writable again: it opens
    await store.close()
    assert count(db_path, "SELECT COUNT(*) FROM tables") == 1


@pytest.mark.parametrize("lock_file", [True, False], ids=["lock-file-kept", "no-lock-file"])
async def test_a_read_only_folder_is_refused_at_open(db_path: Path, lock_file: bool) -> None:
    before = await _latest(db_path)
    if not lock_file:
        database_module.lock_path(db_path).unlink()
    with read_only(db_path.parent):
        with pytest.raises(DatabaseNotWritable) as refused:
            await Storage.open(db_path)
        assert db_path.read_bytes() == before
    cause = ("read-only folder: SQLite cannot create its -wal and -shm files" if lock_file
             else "read-only folder: cannot create commerce.db.lock")
    assert str(refused.value) == (
        f"{db_path} cannot be written ({cause}): fix the permissions of {db_path.parent}")
    assert sorted(p.name for p in db_path.parent.iterdir()) == (
        ["commerce.db", "commerce.db.lock"] if lock_file else ["commerce.db"])


@pytest.mark.parametrize("existing", [True, False], ids=["existing", "new"])
async def test_too_little_free_space_is_refused_at_open(
    db_path: Path, monkeypatch: pytest.MonkeyPatch, existing: bool,
) -> None:
    before = await _latest(db_path) if existing else None
    real = shutil.disk_usage
    seen: list[Path] = []

    def nearly_full(where):  # simulated: a real full disk is in tests/app/test_main.py
        seen.append(Path(where))
        return real(where)._replace(free=MIN_FREE_BYTES - 1)

    monkeypatch.setattr(shutil, "disk_usage", nearly_full)
    db_path.parent.mkdir(exist_ok=True)
    with pytest.raises(DatabaseNotWritable) as refused:
        await Storage.open(db_path)
    assert seen == [db_path.parent]
    assert str(refused.value) == (
        f"{db_path} cannot be written (disk full: 1023 KiB free, at least 1024 KiB needed): "
        "free some space on that disk")
    if existing:
        assert db_path.read_bytes() == before
    else:
        assert not db_path.exists()
    assert not Path(f"{db_path}-wal").exists()
    monkeypatch.setattr(shutil, "disk_usage", real)
    store = await Storage.open(db_path)
    await store.close()


async def test_the_probe_write_really_writes(db_path: Path) -> None:
    """``PRAGMA user_version`` set to its own value is a real write: another
    connection sees ``data_version`` change, and the WAL gains a frame."""
    await _latest(db_path)
    with raw(db_path) as other:
        version = other.execute("PRAGMA data_version").fetchone()[0]
        store = await Storage.open(db_path)
        try:
            assert other.execute("PRAGMA data_version").fetchone()[0] != version
            assert Path(f"{db_path}-wal").stat().st_size > 0
            assert other.execute("PRAGMA user_version").fetchone()[0] == 0
        finally:
            await store.close()


def test_sqlite_write_failures_name_their_cause(tmp_path: Path) -> None:
    """Real SQLite errors (a full database through ``max_page_count``, a
    read-only connection) become the one-line refusal; other errors do not."""
    path = tmp_path / "x.db"
    with raw(path) as conn:
        conn.execute("CREATE TABLE t (x)")
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
        conn.execute(f"PRAGMA max_page_count = {pages}")
        with pytest.raises(sqlite3.OperationalError) as full:
            conn.execute("INSERT INTO t VALUES (zeroblob(100000))")
        with pytest.raises(sqlite3.OperationalError) as other:
            conn.execute("SELECT * FROM no_such_table")
    ro = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        with pytest.raises(sqlite3.OperationalError) as readonly:
            ro.execute("INSERT INTO t VALUES (1)")
    finally:
        ro.close()
    refusal = database_module._not_writable
    assert str(refusal(path, full.value)) == (
        f"{path} cannot be written (disk or database full): free some space on that disk")
    assert str(refusal(path, readonly.value)) == (
        f"{path} cannot be written (read-only file): fix its permissions")
    assert refusal(path, other.value) is None


# ---------------------------------------------------------------- settings and audit


async def test_settings_default_update_and_validation(store: AnyStorage) -> None:
    assert await store.get_settings(GUILD) == GuildSettings(GUILD)
    updated = await store.update_settings(GUILD, table_mode="thread", turn_timer=0)
    assert updated == GuildSettings(GUILD, table_mode="thread", turn_timer=0)
    updated = await store.update_settings(GUILD, next_deal_delay=5)
    assert updated == GuildSettings(GUILD, table_mode="thread", turn_timer=0, next_deal_delay=5)
    assert await store.get_settings(GUILD) == updated
    assert await store.get_settings(OTHER_GUILD) == GuildSettings(OTHER_GUILD)
    with pytest.raises(ValueError, match="unknown settings"):
        await store.update_settings(GUILD, colour="red")
    with pytest.raises(ValueError, match="table_mode"):
        await store.update_settings(GUILD, table_mode="dm")
    with pytest.raises(ValueError, match="negative"):
        await store.update_settings(GUILD, turn_timer=-1)
    assert await store.get_settings(GUILD) == updated


async def test_a_guild_s_language_is_kept_and_checked(store: AnyStorage) -> None:
    assert (await store.get_settings(GUILD)).language == ""  # its Discord locale
    assert (await store.update_settings(GUILD, language="de")).language == "de"
    assert (await store.get_settings(GUILD)).language == "de"
    with pytest.raises(ValueError, match="language"):
        await store.update_settings(GUILD, language="klingon")
    assert (await store.update_settings(GUILD, language="")).language == ""
    assert (await store.get_settings(OTHER_GUILD)).language == ""


async def test_audit_rows(store: AnyStorage, backend: Backend) -> None:
    await store.audit(GUILD, ANN, "settings", "table_mode=thread")
    await store.audit(GUILD, None, "close", "table 3 idle")
    rows = await backend.rows("SELECT guild_id, member_id, action, detail FROM audit ORDER BY id")
    assert rows == [(GUILD, ANN, "settings", "table_mode=thread"),
                    (GUILD, None, "close", "table 3 idle")]


# ---------------------------------------------------------------- tables and seats


async def test_table_numbers_channels_and_messages(store: AnyStorage) -> None:
    assert await store.next_table_number(GUILD) == 1
    first = await new_table(store, channel=500)
    second = await new_table(store, channel=501)
    elsewhere = await new_table(store, guild=OTHER_GUILD, channel=900)
    assert (first.number, second.number, elsewhere.number) == (1, 2, 1)
    assert await store.next_table_number(GUILD) == 3
    assert first.status == "lobby" and first.options == {"direction": "clockwise"}
    assert first.first_dealer is None and first.lobby_message_id is None
    assert first.created_at.endswith("+00:00")

    await store.set_messages(first.id, lobby_message_id=41)
    await store.set_messages(first.id, table_message_id=42)
    await store.set_messages(first.id)
    row = await store.get_table(first.id)
    assert (row.channel_id, row.lobby_message_id, row.table_message_id) == (500, 41, 42)
    assert await store.get_table(9999) is None
    with pytest.raises(ValueError):
        await store.set_messages(9999, lobby_message_id=1)

    assert [t.id for t in await store.open_tables()] == [first.id, second.id, elsewhere.id]
    await store.set_status(second.id, "closed")
    assert [t.id for t in await store.open_tables()] == [first.id, elsewhere.id]
    with pytest.raises(ValueError):
        await store.set_status(first.id, "exploded")
    # A closed table's number is still taken.
    assert (await new_table(store)).number == 3


async def test_seats_append_and_renumber_on_remove(store: AnyStorage) -> None:
    table = await new_table(store)
    for member, name in [(ANN, "Ann"), (None, "Bot A"), (BEN, "Ben"), (CAT, "Cat")]:
        await store.add_seat(table.id, member, name)
    assert [(s.seat, s.name) for s in await store.seats(table.id)] == [
        (0, "Ann"), (1, "Bot A"), (2, "Ben"), (3, "Cat")]
    assert (await store.seats(table.id))[1].is_ai

    await store.remove_seat(table.id, 1)
    assert [(s.seat, s.member_id) for s in await store.seats(table.id)] == [
        (0, ANN), (1, BEN), (2, CAT)]
    await store.remove_seat(table.id, 0)
    assert [(s.seat, s.member_id) for s in await store.seats(table.id)] == [(0, BEN), (1, CAT)]
    seat = await store.add_seat(table.id, DAN, "Dan")
    assert (seat.seat, seat.member_id, seat.name) == (2, DAN, "Dan")
    with pytest.raises(ValueError, match="no seat"):
        await store.remove_seat(table.id, 7)

    await store.start_game(table.id, first_dealer=1)
    with pytest.raises(ValueError, match="lobby"):
        await store.remove_seat(table.id, 0)
    assert len(await store.seats(table.id)) == 3


async def seated_at(store: AnyStorage, member: int, guild: int = GUILD) -> list[int]:
    """Open tables of the guild where the member holds a seat."""
    return [t.id for t in await store.open_tables() if t.guild_id == guild
            and any(s.member_id == member for s in await store.seats(t.id))]


async def test_one_open_table_per_member_per_guild(store: AnyStorage) -> None:
    first = await new_table(store)
    second = await new_table(store)
    await store.add_seat(first.id, ANN, "Ann")
    with pytest.raises(ValueError, match="already seated"):
        await store.add_seat(second.id, ANN, "Ann")
    with pytest.raises(ValueError, match="already seated"):
        await store.add_seat(first.id, ANN, "Ann again")
    assert [s.member_id for s in await store.seats(second.id)] == []
    assert await seated_at(store, ANN) == [first.id]
    assert await seated_at(store, BEN) == []

    # AI seats are never "already seated"; another guild is another world.
    await store.add_seat(first.id, None, "Bot")
    await store.add_seat(second.id, None, "Bot")
    other = await new_table(store, guild=OTHER_GUILD)
    await store.add_seat(other.id, ANN, "Ann")
    assert await seated_at(store, ANN, OTHER_GUILD) == [other.id]

    # Once the first table is over, Ann may sit elsewhere.
    await store.start_game(first.id, 0)
    await store.finish_game(first.id, [0], "finished")
    assert await seated_at(store, ANN) == []
    await store.add_seat(second.id, ANN, "Ann")
    assert await seated_at(store, ANN) == [second.id]


async def test_start_and_finish_game(store: AnyStorage, backend: Backend) -> None:
    table = await new_table(store)
    with pytest.raises(ValueError, match="no started game"):
        await store.finish_game(table.id, [0], "finished")
    await store.start_game(table.id, first_dealer=2)
    row = await store.get_table(table.id)
    assert (row.status, row.first_dealer) == ("playing", 2)
    with pytest.raises(ValueError, match="lobby"):
        await store.start_game(table.id, first_dealer=0)
    await store.finish_game(table.id, [0, 2], "finished")
    assert (await store.get_table(table.id)).status == "finished"
    [(winners, finished_at)] = await backend.rows(
        "SELECT winners, finished_at FROM games WHERE table_id = ?", (table.id,))
    assert winners == "[0, 2]" and finished_at is not None


# ---------------------------------------------------------------- deals and actions


async def test_deals_and_actions_round_trip_in_order(store: AnyStorage, backend: Backend) -> None:
    table, deal_id = await playing_table(store, [ANN, BEN, None])
    with pytest.raises(backend.integrity):
        await store.start_deal(table.id, 0, 1, DECK)
    with pytest.raises(ValueError, match="52"):
        await store.start_deal(table.id, 1, 1, DECK[:51])
    payloads = [
        {"seat": 1, "action": "trade", "card": "Kd"},
        {"seat": 2, "action": "barter_offer", "card": "4d"},
        {"seat": 0, "action": "barter_answer", "card": None},
    ]
    # Written out of order on purpose: the log is read back by seq.
    for seq in (1, 0, 2):
        await store.append_action(deal_id, seq, payloads[seq], [BEN, CAT, None][seq])
    second = await store.start_deal(table.id, 1, 1, list(reversed(DECK)))

    [deal0, deal1] = await store.deals(table.id)
    assert (deal0.number, deal0.dealer, deal0.status) == (deal_id.number, 0, "open")
    assert deal0.deck == DECK
    assert [(a.seq, a.payload, a.member_id) for a in deal0.actions] == [
        (0, payloads[0], BEN), (1, payloads[1], CAT), (2, payloads[2], None)]
    assert (deal1.number, deal1.deck, deal1.actions) == (second.number, list(reversed(DECK)), [])


async def test_duplicate_action_is_rejected_and_changes_nothing(
    store: AnyStorage, backend: Backend,
) -> None:
    table, deal_id = await playing_table(store, [ANN, BEN, None])
    await store.append_action(deal_id, 0, {"seat": 1, "action": "knock"}, BEN)
    finish = ("finished", [LedgerEntry(1, BEN, 3, "pool")], [HandResult(1, BEN, 9, "x", True)])
    with pytest.raises(backend.integrity):
        await store.append_action(deal_id, 0, {"seat": 2, "action": "trade"}, None, finish=finish)
    [deal] = await store.deals(table.id)
    assert deal.status == "open"
    assert [(a.seq, a.payload) for a in deal.actions] == [(0, {"seat": 1, "action": "knock"})]
    assert await backend.value("SELECT COUNT(*) FROM ledger") == 0
    assert await backend.value("SELECT COUNT(*) FROM deal_hands") == 0
    # The connection is usable afterwards (no transaction left open).
    await store.append_action(deal_id, 1, {"seat": 2, "action": "knock"}, None)
    assert [a.seq for a in (await store.deals(table.id))[0].actions] == [0, 1]


async def test_finish_with_action_commits_everything_together(
    store: AnyStorage, backend: Backend,
) -> None:
    table, deal_id = await playing_table(store, [ANN, BEN, None])
    # Worked check of docs/RULES.md §1: dealer -2, seat 1 +2, seat 2 0.
    ledger = [
        LedgerEntry(0, ANN, -1, "ante"), LedgerEntry(1, BEN, -1, "ante"),
        LedgerEntry(2, None, -1, "ante"), LedgerEntry(1, BEN, -1, "fee"),
        LedgerEntry(0, ANN, 1, "fee"), LedgerEntry(1, BEN, 3, "pool"),
        LedgerEntry(0, ANN, -2, "penalty"), LedgerEntry(1, BEN, 1, "penalty"),
        LedgerEntry(2, None, 1, "penalty"),
    ]
    hands = [HandResult(0, ANN, 300, "sequence to 5", False),
             HandResult(1, BEN, 301, "sequence to 8", True),
             HandResult(2, None, 121, "point 21", False)]
    await store.append_action(deal_id, 0, {"seat": 1, "action": "trade", "card": "Kd"}, BEN)
    await store.append_action(deal_id, 1, {"seat": 2, "action": "knock"}, None,
                              finish=("finished", ledger, hands))

    [deal] = await store.deals(table.id)
    assert deal.status == "finished" and len(deal.actions) == 2
    rows = await backend.rows(
        "SELECT guild_id, table_id, deal_id, seat, member_id, amount, reason FROM ledger"
        " ORDER BY id")
    stored_hands = await backend.rows(
        "SELECT seat, member_id, score, label, won FROM deal_hands ORDER BY seat")
    finished_at = await backend.value("SELECT finished_at FROM deals")
    [stored] = await store.deals(table.id)
    assert rows == [(GUILD, table.id, stored.id, e.seat, e.member_id, e.amount, e.reason)
                    for e in ledger]
    assert stored_hands == [(0, ANN, 300, "sequence to 5", 0), (1, BEN, 301, "sequence to 8", 1),
                            (2, None, 121, "point 21", 0)]
    assert finished_at is not None
    assert await store.guild_ledger_sum(GUILD) == 0
    assert await store.leaderboard(GUILD, 0, 10) == ([(BEN, 2), (ANN, -2)], 2)

    # A closed deal takes no more actions and cannot be closed again.
    with pytest.raises(backend.integrity, match="not open"):
        await store.append_action(deal_id, 2, {"seat": 0, "action": "knock"}, ANN)
    with pytest.raises(ValueError, match="not open"):
        await store.finish_deal(deal_id, "void", [], [])
    assert await backend.value("SELECT COUNT(*) FROM ledger") == len(ledger)


async def test_failed_finish_rolls_back_the_action_too(store: AnyStorage,
                                                      backend: Backend) -> None:
    table, deal_id = await playing_table(store, [ANN, BEN, None])
    twice = [HandResult(0, ANN, 5, "none", False), HandResult(0, ANN, 5, "none", False)]
    with pytest.raises(backend.integrity):
        await store.append_action(deal_id, 0, {"seat": 1, "action": "knock"}, BEN,
                                  finish=("finished", [LedgerEntry(0, ANN, 1, "pool")], twice))
    with pytest.raises(ValueError, match="finished"):
        await store.append_action(deal_id, 0, {"seat": 1, "action": "knock"}, BEN,
                                  finish=("open", [], []))
    [deal] = await store.deals(table.id)
    assert (deal.status, deal.actions) == ("open", [])
    assert await backend.value("SELECT COUNT(*) FROM ledger") == 0
    assert await backend.value("SELECT COUNT(*) FROM deal_hands") == 0


async def test_void_deal_with_refunds(store: AnyStorage) -> None:
    table, deal_id = await playing_table(store, [ANN, BEN])
    antes = [LedgerEntry(0, ANN, -1, "ante"), LedgerEntry(1, BEN, -1, "ante")]
    await store.append_action(deal_id, 0, {"seat": 1, "action": "trade", "card": "2c"}, BEN)
    refunds = [LedgerEntry(0, ANN, 1, "refund"), LedgerEntry(1, BEN, 1, "refund")]
    await store.finish_deal(deal_id, "void", antes + refunds, [])
    [deal] = await store.deals(table.id)
    assert deal.status == "void" and len(deal.actions) == 1
    assert await store.leaderboard(GUILD, 0, 10) == ([(ANN, 0), (BEN, 0)], 2)
    assert (await store.member_stats(GUILD, ANN)).deals == 0


# ---------------------------------------------------------------- append-only guarantees


@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE actions SET payload = '{}'",
        "DELETE FROM actions",
        "UPDATE ledger SET amount = 100",
        "DELETE FROM ledger",
        "UPDATE deals SET deck = 'Ac'",
        "UPDATE deals SET status = 'open'",
        "DELETE FROM deals",
    ],
)
async def test_logs_are_append_only(store: AnyStorage, backend: Backend, sql: str) -> None:
    table, deal_id = await playing_table(store, [ANN, BEN])
    await store.append_action(deal_id, 0, {"seat": 1, "action": "knock"}, BEN,
                              finish=("finished", [LedgerEntry(1, BEN, 1, "pool"),
                                                   LedgerEntry(0, ANN, -1, "pool")], []))
    before = await store.deals(table.id)
    with pytest.raises(backend.integrity):
        await backend.execute(sql)
    assert await store.deals(table.id) == before
    assert await store.leaderboard(GUILD, 0, 10) == ([(BEN, 1), (ANN, -1)], 2)


async def test_an_action_of_a_deal_that_does_not_exist_writes_nothing(
        store: AnyStorage, backend: Backend) -> None:
    """``append_action`` finds the deal in its one statement: an unknown deal leaves
    the action's ``deal_id`` NULL, which the schema refuses; nothing of the unit stays."""
    table, deal = await playing_table(store, [ANN, BEN])
    with pytest.raises(backend.integrity):
        async with store.atomic():
            await store.append_action(deal, 0, {"seat": 0, "action": "trade"}, ANN)
            await store.append_action(deal._replace(number=9), 0, {"seat": 1}, BEN)
    with pytest.raises(ValueError, match="no deal"):
        await store.append_action(deal._replace(number=9), 0, {"seat": 1}, BEN,
                                  finish=("finished", [], []))
    assert await backend.value("SELECT COUNT(*) FROM actions") == 0
    await store.append_action(deal, 0, {"seat": 0, "action": "trade"}, ANN)
    assert [a.payload for d in await store.deals(table.id) for a in d.actions] == [
        {"seat": 0, "action": "trade"}]


# ---------------------------------------------------------------- ledger and statistics


async def test_ledger_rows_go_in_multi_row_inserts_in_order(
        store: AnyStorage, backend: Backend, monkeypatch: pytest.MonkeyPatch) -> None:
    """A deal's ledger rows and hands are inserted a few rows a statement
    (``ledger.insert_rows``), chunk by chunk, every row kept in its order."""
    monkeypatch.setattr(ledger_module, "ROWS_AT_ONCE", 2)
    table, deal = await playing_table(store, [ANN, BEN, None])
    entries = [LedgerEntry(0, ANN, -3, "pool"), LedgerEntry(1, BEN, -2, "pool"),
               LedgerEntry(2, None, -1, "pool"), LedgerEntry(0, ANN, 4, "pool"),
               LedgerEntry(1, BEN, 2, "trick")]
    hands = [HandResult(s, m, 10 + s, f"hand {s}", s == 0, None, s == 1)
             for s, m in enumerate([ANN, BEN, None])]
    await store.append_action(deal, 0, {"seat": 1, "action": "knock"}, BEN,
                              finish=("finished", entries, hands))
    assert await backend.rows("SELECT seat, member_id, amount, reason FROM ledger"
                              " ORDER BY id") == [
        (e.seat, e.member_id, e.amount, e.reason) for e in entries]
    assert await backend.rows("SELECT seat, member_id, score, label, won, knocked"
                              " FROM deal_hands ORDER BY seat") == [
        (0, ANN, 10, "hand 0", 1, 0), (1, BEN, 11, "hand 1", 0, 1), (2, None, 12, "hand 2", 0, 0)]
    assert await store.guild_ledger_sum(GUILD) == 0


async def test_leaderboard_orders_paginates_and_skips_ai(store: AnyStorage) -> None:
    balances = {ANN: 5, BEN: -3, CAT: 5, DAN: 0, 15: 9}
    table, deal_id = await playing_table(store, [*balances, None])
    entries = [LedgerEntry(i, m, amount, "pool") for i, (m, amount) in enumerate(balances.items())]
    entries.append(LedgerEntry(len(balances), None, -sum(balances.values()), "pool"))
    await store.finish_deal(deal_id, "finished", entries, [])
    other, other_deal = await playing_table(store, [ANN], guild=OTHER_GUILD)
    await store.finish_deal(other_deal, "finished", [LedgerEntry(0, ANN, 100, "pool")], [])

    everyone, total = await store.leaderboard(GUILD, 0, 50)
    assert total == 5
    assert everyone == [(15, 9), (ANN, 5), (CAT, 5), (DAN, 0), (BEN, -3)]
    assert await store.leaderboard(GUILD, 0, 2) == ([(15, 9), (ANN, 5)], 5)
    assert await store.leaderboard(GUILD, 2, 2) == ([(CAT, 5), (DAN, 0)], 5)
    assert await store.leaderboard(GUILD, 4, 2) == ([(BEN, -3)], 5)
    assert await store.leaderboard(GUILD, 10, 2) == ([], 5)
    assert await store.leaderboard(OTHER_GUILD, 0, 10) == ([(ANN, 100)], 1)
    assert await store.leaderboard(3, 0, 10) == ([], 0)
    assert await store.guild_ledger_sum(GUILD) == 0


async def test_member_stats_figures(store: AnyStorage) -> None:
    assert await store.member_stats(GUILD, ANN) == MemberStats(ANN, 0, 0, 0, 0, 0, None, None)

    # Game 1 (finished): Ann wins deal 0 with a tricon, Ben deal 1; Ann wins the game.
    g1, d0 = await playing_table(store, [ANN, BEN, None])
    await store.finish_deal(d0, "finished",
                            [LedgerEntry(0, ANN, 2, "pool"), LedgerEntry(1, BEN, -1, "ante"),
                             LedgerEntry(2, None, -1, "ante")],
                            [HandResult(0, ANN, 900, "tricon of kings", True),
                             HandResult(1, BEN, 100, "point 20", False)])
    d1 = await store.start_deal(g1.id, 1, 1, DECK)
    await store.finish_deal(d1, "finished", [LedgerEntry(0, ANN, -1, "ante")],
                            [HandResult(0, ANN, 400, "sequence to 9", False),
                             HandResult(1, BEN, 500, "sequence to Q", True)])
    d2 = await store.start_deal(g1.id, 2, 2, DECK)
    await store.finish_deal(d2, "void", [], [HandResult(0, ANN, 999, "void hand", True)])
    await store.finish_game(g1.id, [0], "finished")

    # Game 2 (finished): Ann in seat 1 loses to an AI.
    g2, d3 = await playing_table(store, [None, ANN])
    await store.finish_deal(d3, "finished", [LedgerEntry(1, ANN, -4, "penalty")],
                            [HandResult(1, ANN, 50, "none", False)])
    await store.finish_game(g2.id, [0], "finished")

    # Game 3 (still playing): counts toward balance, not toward games.
    g3, d4 = await playing_table(store, [ANN, None])
    await store.finish_deal(d4, "finished", [LedgerEntry(0, ANN, 10, "pool")],
                            [HandResult(0, ANN, 700, "sequence to A", True)])

    # Another guild never leaks in.
    g4, d5 = await playing_table(store, [ANN], guild=OTHER_GUILD)
    await store.finish_deal(d5, "finished", [LedgerEntry(0, ANN, 50, "pool")],
                            [HandResult(0, ANN, 5000, "elsewhere", True)])
    await store.finish_game(g4.id, [0], "finished")

    stats = await store.member_stats(GUILD, ANN)
    assert stats.balance == 2 - 1 - 4 + 10
    assert (stats.games, stats.games_won) == (2, 1)
    assert (stats.deals, stats.deals_won) == (4, 2)  # d0, d1, d3, d4; wins d0, d4
    assert (stats.best_score, stats.best_label) == (900, "tricon of kings")

    ben = await store.member_stats(GUILD, BEN)
    assert (ben.balance, ben.games, ben.games_won, ben.deals, ben.deals_won) == (-1, 1, 0, 2, 1)
    assert (ben.best_score, ben.best_label) == (500, "sequence to Q")


# ---------------------------------------------------------------- backup


async def test_backup_is_a_readable_copy(store: AnyStorage, backend: Backend,
                                         tmp_path: Path) -> None:
    """The operator's copy (bot/storage/backups.py; its command line in
    tests/storage/test_backups.py), made beside a storage that stays open."""
    table, deal_id = await playing_table(store, [ANN, BEN])
    await store.append_action(deal_id, 0, {"seat": 1, "action": "knock"}, BEN,
                              finish=("finished", [LedgerEntry(1, BEN, 1, "pool"),
                                                   LedgerEntry(0, ANN, -1, "pool")], []))
    dest = tmp_path / "backups" / "copy.db"

    async def copy_to(target: Path) -> int:
        if backend.postgres:
            return await postgres_to_sqlite(backend.address, target)
        return backup_sqlite(backend.address, target)
    assert await copy_to(dest) == LATEST
    before = dest.read_bytes()
    with pytest.raises(BackupError, match="already exists"):
        await copy_to(dest)
    assert dest.read_bytes() == before

    copy = await Storage.open(dest)
    try:
        assert count(dest, "SELECT MAX(version) FROM schema_version") == LATEST
        assert await copy.get_table(table.id) == await store.get_table(table.id)
        assert await copy.deals(table.id) == await store.deals(table.id)
        assert await copy.leaderboard(GUILD, 0, 10) == ([(BEN, 1), (ANN, -1)], 2)
    finally:
        await copy.close()


async def test_concurrent_calls_do_not_interleave_transactions(store: AnyStorage) -> None:
    table, deal_id = await playing_table(store, [ANN, BEN])
    other = await new_table(store)
    members = list(range(100, 130))
    await asyncio.gather(
        *(store.append_action(deal_id, seq, {"seq": seq}, None) for seq in range(30)),
        *(store.add_seat(other.id, member, str(member)) for member in members),
        *(store.add_seat(other.id, ANN, "Ann") for _ in range(3)),
        return_exceptions=True,
    )
    assert [a.seq for a in (await store.deals(table.id))[0].actions] == list(range(30))
    seats = await store.seats(other.id)
    assert [s.seat for s in seats] == list(range(30))
    assert sorted(s.member_id for s in seats) == members


# ---------------------------------------------------------------- PostgreSQL: opening
# The counterparts of the SQLite-only tests above: a database that is not ours, or
# newer; one that cannot be reached or written; a second process on the same shard.


def _database_name(url: str) -> str:
    return urlsplit(url).path.lstrip("/")


async def test_postgres_open_migrates_an_empty_database_then_reopens(pg_url: str) -> None:
    latest = max(int(p.name[:4]) for p in pg_migrate.MIGRATIONS_DIR.glob("*.sql"))
    assert latest == LATEST  # both dialects have the same schema history
    store = await PgStorage.open(pg_url)
    try:
        table = await new_table(store)
    finally:
        await store.close()
    await store.close()  # idempotent
    db = Backend("postgres", pg_url)
    assert await db.value("SELECT MAX(version) FROM schema_version") == LATEST
    again = await PgStorage.open(pg_url)
    try:
        assert await again.get_table(table.id) == table
    finally:
        await again.close()
    assert await db.value("SELECT COUNT(*) FROM schema_version") == APPLIED


@pytest.mark.parametrize(("make", "message"), [
    ("CREATE TABLE photos (id INTEGER PRIMARY KEY, name TEXT)", "not a Commerce"),
    ("INSERT INTO schema_version VALUES (999, 'future', '2099-01-01T00:00:00')",
     "newer than this bot knows"),
])
async def test_postgres_refuses_a_database_that_is_not_ours(
        pg_url: str, pg_migrated_url: str, make: str, message: str) -> None:
    url = pg_migrated_url if make.startswith("INSERT") else pg_url
    db = Backend("postgres", url)
    await db.execute(make)
    tables = await db.rows("SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
                           " ORDER BY 1")
    with pytest.raises(CorruptDatabase, match=message):
        await PgStorage.open(url)
    assert await db.rows("SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
                         " ORDER BY 1") == tables


async def test_postgres_unreachable_or_missing_is_one_line_without_the_password(
        pg_server: PgServer) -> None:
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(DatabaseUnavailable) as refused:
        await open_storage(f"postgresql://bot:s3cret-pw@127.0.0.1:{port}/commerce")
    text = str(refused.value)
    assert text.startswith(f"the PostgreSQL database commerce on 127.0.0.1:{port} cannot be "
                           "reached (")
    assert "s3cret-pw" not in text and "bot" not in text and "\n" not in text
    missing = pg_server.url("no_such_database")
    with pytest.raises(DatabaseUnavailable,
                       match="database no_such_database on .* does not exist: create it first"):
        await open_storage(missing)


async def test_postgres_read_only_database_is_refused_at_open(pg_migrated_url: str) -> None:
    name = _database_name(pg_migrated_url)
    db = Backend("postgres", pg_migrated_url)
    await db.execute(f"ALTER DATABASE {name} SET default_transaction_read_only = on")
    with pytest.raises(DatabaseNotWritable, match="cannot be written"):
        await open_storage(pg_migrated_url)
    conn = await asyncpg.connect(pg_migrated_url,
                                 server_settings={"default_transaction_read_only": "off"})
    try:
        await conn.execute(f"ALTER DATABASE {name} RESET default_transaction_read_only")
    finally:
        await conn.close()
    store = await open_storage(pg_migrated_url)  # writable again: it opens
    await store.close()


async def test_postgres_truncate_is_refused_on_the_append_only_tables(
        store: AnyStorage, backend: Backend) -> None:
    if not backend.postgres:
        pytest.skip("PostgreSQL only: SQLite has no TRUNCATE")
    table, deal_id = await playing_table(store, [ANN, BEN])
    await store.append_action(deal_id, 0, {"seat": 1, "action": "knock"}, BEN,
                              finish=("finished", [LedgerEntry(1, BEN, 1, "pool"),
                                                   LedgerEntry(0, ANN, -1, "pool")], []))
    for name in ("actions", "ledger", "deals"):
        with pytest.raises(backend.integrity, match="never deleted|append-only"):
            await backend.execute(f"TRUNCATE {name} CASCADE")
    assert await backend.value("SELECT COUNT(*) FROM ledger") == 2


# ---------------------------------------------------------------- both: shards, one interface


async def test_open_state_loads_only_the_guilds_of_the_shards(store: AnyStorage) -> None:
    """Discord's rule: a guild belongs to shard ``(guild_id >> 22) % shard_count``."""
    by_shard = {shard: ((7 * 4 + shard) << 22) | 12345 for shard in range(4)}
    tables = {shard: await new_table(store, guild=guild) for shard, guild in by_shard.items()}
    closed = await new_table(store, guild=by_shard[1], channel=501)
    await store.set_status(closed.id, "closed")
    for shard, table in tables.items():
        await store.add_seat(table.id, ANN + shard, "P")
    opened, drift = await store.open_state(((1, 3), 4))
    assert [t.row.id for t in opened] == [tables[1].id, tables[3].id]
    assert [len(t.seats) for t in opened] == [1, 1]
    assert set(drift) <= {by_shard[1], by_shard[3]}
    everything, _ = await store.open_state()
    assert [t.row.id for t in everything] == [t.id for t in tables.values()]
    assert [t.row.id for t in (await store.open_state(((0,), 1)))[0]] == \
        [t.id for t in tables.values()]
    await store.claim_shards([1, 3], 4)
    for bad in (((), 4), ((4,), 4), ((0,), 0), ((-1,), 2)):
        with pytest.raises(ValueError, match="shard"):
            await store.open_state(bad)
        with pytest.raises(ValueError, match="shard"):
            await store.claim_shards(*bad)


async def test_ping_answers_and_the_shards_claimed_are_held_until_close(
        backend: Backend) -> None:
    """What the health check asks of either storage (bot/process/health.py): a trivial
    query, and the shards whose claim it holds now."""
    store = await backend.open()
    try:
        await store.ping()
        assert store.held_shards() == () and store.claims_made == 0
        await store.claim_shards([3, 1], 4)
        assert store.held_shards() == (1, 3)
        assert (store.claims_made, store.claims_lost) == (1, 0)
    finally:
        await store.close()
    assert store.held_shards() == ()
    with pytest.raises(RuntimeError, match="closed"):
        await store.ping()


def _public(cls: type) -> dict[str, inspect.Signature]:
    return {name: inspect.signature(member) for name, member in inspect.getmembers(cls)
            if not name.startswith("_") and callable(member)}


def test_both_storages_have_one_interface() -> None:
    """Every public method of ``Storage`` has the same signature on ``PgStorage``
    (``open`` takes a path there, a URL here): the service uses either."""
    sqlite, postgres = _public(Storage), _public(PgStorage)
    assert sorted(sqlite) == sorted(postgres)
    for name in sqlite:
        if name != "open":
            assert sqlite[name] == postgres[name], name


def test_pg_sql_numbers_the_placeholders_outside_quotes() -> None:
    assert pg_sql("SELECT ? FROM t WHERE a = ? AND b IN (?, ?)") == \
        "SELECT $1 FROM t WHERE a = $2 AND b IN ($3, $4)"
    assert pg_sql("SELECT '?' || ?, 'it''s ?' FROM t") == "SELECT '?' || $1, 'it''s ?' FROM t"
    assert is_postgres_url("postgresql://x@/db") and is_postgres_url("postgres://x/db")
    assert not is_postgres_url("data/commerce.db") and not is_postgres_url(Path("postgres://x"))


def test_python_m_bot_reads_database_url_and_refuses_a_served_shard(
        pg_migrated_url: str, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    """``DATABASE_URL`` wins over ``COMMERCE_DB``; a process whose guilds another
    live process serves stops before Discord with one line (exit code 1), naming
    the shards and never the password; an unreachable server too."""
    from bot.__main__ import database_from_env, run_bot
    from bot.storage.shards import Shards

    monkeypatch.setenv("COMMERCE_DB", "data/elsewhere.db")
    monkeypatch.setenv("DATABASE_URL", f" {pg_migrated_url} ")
    assert database_from_env() == pg_migrated_url
    monkeypatch.setenv("DATABASE_URL", "")
    assert database_from_env() == "data/elsewhere.db"
    monkeypatch.setenv("DISCORD_TOKEN", "")  # were the check passed, the token would stop it

    async def hold() -> PgStorage:
        store = await PgStorage.open(pg_migrated_url)
        await store.claim_shards([1], 2)
        return store

    with ThreadPoolExecutor(1) as pool:  # the holder lives on a loop of its own
        loop = asyncio.new_event_loop()
        try:
            holder = pool.submit(loop.run_until_complete, hold()).result()
            assert run_bot(pg_migrated_url, Shards(2, (1,))) == 1
            lines = [ln for ln in capsys.readouterr().err.splitlines() if ln.strip()]
            assert len(lines) == 1 and lines[0].startswith(
                "shard 1 of 2 would serve guilds another Commerce process already serves")
            # a process of another count whose guilds overlap: refused the same way
            assert run_bot(pg_migrated_url, Shards(4, (3,))) == 1
            lines = [ln for ln in capsys.readouterr().err.splitlines() if ln.strip()]
            assert len(lines) == 1 and lines[0].startswith("shard 3 of 4 would serve guilds")
            assert run_bot(pg_migrated_url, Shards(2, (0,))) == 1  # shard 0 is free:
            assert "DISCORD_TOKEN is not set" in capsys.readouterr().err  # the token stops it
        finally:
            pool.submit(loop.run_until_complete, holder.close()).result()
            loop.close()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    assert run_bot(f"postgresql://bot:s3cret-pw@127.0.0.1:{port}/commerce") == 1
    err = capsys.readouterr().err
    assert "cannot be reached" in err and "s3cret-pw" not in err


async def test_ai_levels_the_coach_switch_and_hints_round_trip(store: AnyStorage,
                                                               backend: Backend) -> None:
    """Migration 0007 on both backends: an AI seat's level, the table's coach switch,
    and the append-only hints, read back in the order given."""
    table = await store.create_table(GUILD, 500, ANN, "foster", {}, 30, coach=False)
    assert table.coach is False and (await store.get_table(table.id)).coach is False
    assert (await store.add_seat(table.id, ANN, "Ann")).ai_level is None
    assert (await store.add_seat(table.id, None, "Bot")).ai_level == "easy"
    assert (await store.add_seat(table.id, None, "Strong", "strong")).ai_level == "strong"
    with pytest.raises(ValueError, match="no AI level"):
        await store.add_seat(table.id, BEN, "Ben", "normal")
    assert [s.ai_level for s in await store.seats(table.id)] == [None, "easy", "strong"]
    await store.start_game(table.id, 0)
    deal = await store.start_deal(table.id, 1, 0, DECK)
    await store.add_hint(deal, 0, 0, ANN, "trade the 2c", "it breaks nothing")
    await store.add_hint(deal, 0, 0, ANN, "knock", "a sequence to K rarely loses")
    await store.add_hint(deal, 3, 0, ANN, "stand", "the pool is yours")
    with pytest.raises(ValueError, match="no deal"):
        await store.add_hint(deal._replace(number=9), 0, 0, ANN, "x", "y")
    hints = await store.hints(table.id)
    assert list(hints) == [1]
    assert [(h.seq, h.advice) for h in hints[1]] == [
        (0, "trade the 2c"), (0, "knock"), (3, "stand")]
    with pytest.raises(backend.integrity):
        await backend.execute("UPDATE hints SET advice = 'x'")
