"""Storage against a real SQLite file in ``tmp_path``."""

from __future__ import annotations

import asyncio
import fcntl
import os
import shutil
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import pytest_asyncio

from bot.storage import (
    MIN_FREE_BYTES,
    CorruptDatabase,
    DatabaseInUse,
    DatabaseNotWritable,
    GuildSettings,
    HandResult,
    LedgerEntry,
    MemberStats,
    Storage,
)
from bot.storage import database as database_module
from tests.storage.faults import read_only

DECK = [rank + suit for suit in "cdhs" for rank in "23456789TJQKA"]
GUILD, OTHER_GUILD = 1001, 2002
#: the newest schema version shipped in bot/storage/migrations
LATEST = max(int(p.name[:4]) for p in database_module.MIGRATIONS_DIR.glob("*.sql"))
ANN, BEN, CAT, DAN = 11, 12, 13, 14


@pytest_asyncio.fixture
async def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "commerce.db"


@pytest_asyncio.fixture
async def store(db_path: Path):
    storage = await Storage.open(db_path)
    yield storage
    await storage.close()


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


async def new_table(store: Storage, guild: int = GUILD, channel: int = 500, host: int = ANN):
    return await store.create_table(guild, channel, host, "foster", {"direction": "clockwise"}, 30)


async def playing_table(store: Storage, members: list[int | None], guild: int = GUILD):
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
    assert count(db_path, "SELECT COUNT(*) FROM schema_version") == LATEST


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
        await again.backup(tmp_path / "backups" / "copy.db")
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


async def test_settings_default_update_and_validation(store: Storage) -> None:
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


async def test_audit_rows(store: Storage, db_path: Path) -> None:
    await store.audit(GUILD, ANN, "settings", "table_mode=thread")
    await store.audit(GUILD, None, "close", "table 3 idle")
    with raw(db_path) as conn:
        rows = conn.execute(
            "SELECT guild_id, member_id, action, detail FROM audit ORDER BY id"
        ).fetchall()
    assert rows == [(GUILD, ANN, "settings", "table_mode=thread"),
                    (GUILD, None, "close", "table 3 idle")]


# ---------------------------------------------------------------- tables and seats


async def test_table_numbers_channels_and_messages(store: Storage) -> None:
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


async def test_seats_append_and_renumber_on_remove(store: Storage) -> None:
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


async def seated_at(store: Storage, member: int, guild: int = GUILD) -> list[int]:
    """Open tables of the guild where the member holds a seat."""
    return [t.id for t in await store.open_tables() if t.guild_id == guild
            and any(s.member_id == member for s in await store.seats(t.id))]


async def test_one_open_table_per_member_per_guild(store: Storage) -> None:
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


async def test_start_and_finish_game(store: Storage, db_path: Path) -> None:
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
    with raw(db_path) as conn:
        winners, finished_at = conn.execute(
            "SELECT winners, finished_at FROM games WHERE table_id = ?", (table.id,)
        ).fetchone()
    assert winners == "[0, 2]" and finished_at is not None


# ---------------------------------------------------------------- deals and actions


async def test_deals_and_actions_round_trip_in_order(store: Storage) -> None:
    table, deal_id = await playing_table(store, [ANN, BEN, None])
    with pytest.raises(sqlite3.IntegrityError):
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
    store: Storage, db_path: Path,
) -> None:
    table, deal_id = await playing_table(store, [ANN, BEN, None])
    await store.append_action(deal_id, 0, {"seat": 1, "action": "knock"}, BEN)
    finish = ("finished", [LedgerEntry(1, BEN, 3, "pool")], [HandResult(1, BEN, 9, "x", True)])
    with pytest.raises(sqlite3.IntegrityError):
        await store.append_action(deal_id, 0, {"seat": 2, "action": "trade"}, None, finish=finish)
    [deal] = await store.deals(table.id)
    assert deal.status == "open"
    assert [(a.seq, a.payload) for a in deal.actions] == [(0, {"seat": 1, "action": "knock"})]
    assert count(db_path, "SELECT COUNT(*) FROM ledger") == 0
    assert count(db_path, "SELECT COUNT(*) FROM deal_hands") == 0
    # The connection is usable afterwards (no transaction left open).
    await store.append_action(deal_id, 1, {"seat": 2, "action": "knock"}, None)
    assert [a.seq for a in (await store.deals(table.id))[0].actions] == [0, 1]


async def test_finish_with_action_commits_everything_together(
    store: Storage, db_path: Path,
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
    with raw(db_path) as conn:
        rows = conn.execute(
            "SELECT guild_id, table_id, deal_id, seat, member_id, amount, reason FROM ledger"
            " ORDER BY id"
        ).fetchall()
        stored_hands = conn.execute(
            "SELECT seat, member_id, score, label, won FROM deal_hands ORDER BY seat"
        ).fetchall()
        finished_at = conn.execute("SELECT finished_at FROM deals").fetchone()[0]
    [stored] = await store.deals(table.id)
    assert rows == [(GUILD, table.id, stored.id, e.seat, e.member_id, e.amount, e.reason)
                    for e in ledger]
    assert stored_hands == [(0, ANN, 300, "sequence to 5", 0), (1, BEN, 301, "sequence to 8", 1),
                            (2, None, 121, "point 21", 0)]
    assert finished_at is not None
    assert await store.guild_ledger_sum(GUILD) == 0
    assert await store.leaderboard(GUILD, 0, 10) == ([(BEN, 2), (ANN, -2)], 2)

    # A closed deal takes no more actions and cannot be closed again.
    with pytest.raises(sqlite3.IntegrityError, match="not open"):
        await store.append_action(deal_id, 2, {"seat": 0, "action": "knock"}, ANN)
    with pytest.raises(ValueError, match="not open"):
        await store.finish_deal(deal_id, "void", [], [])
    assert count(db_path, "SELECT COUNT(*) FROM ledger") == len(ledger)


async def test_failed_finish_rolls_back_the_action_too(store: Storage, db_path: Path) -> None:
    table, deal_id = await playing_table(store, [ANN, BEN, None])
    twice = [HandResult(0, ANN, 5, "none", False), HandResult(0, ANN, 5, "none", False)]
    with pytest.raises(sqlite3.IntegrityError):
        await store.append_action(deal_id, 0, {"seat": 1, "action": "knock"}, BEN,
                                  finish=("finished", [LedgerEntry(0, ANN, 1, "pool")], twice))
    with pytest.raises(ValueError, match="finished"):
        await store.append_action(deal_id, 0, {"seat": 1, "action": "knock"}, BEN,
                                  finish=("open", [], []))
    [deal] = await store.deals(table.id)
    assert (deal.status, deal.actions) == ("open", [])
    assert count(db_path, "SELECT COUNT(*) FROM ledger") == 0
    assert count(db_path, "SELECT COUNT(*) FROM deal_hands") == 0


async def test_void_deal_with_refunds(store: Storage) -> None:
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
async def test_logs_are_append_only(store: Storage, db_path: Path, sql: str) -> None:
    table, deal_id = await playing_table(store, [ANN, BEN])
    await store.append_action(deal_id, 0, {"seat": 1, "action": "knock"}, BEN,
                              finish=("finished", [LedgerEntry(1, BEN, 1, "pool"),
                                                   LedgerEntry(0, ANN, -1, "pool")], []))
    before = await store.deals(table.id)
    with raw(db_path) as conn, pytest.raises(sqlite3.IntegrityError):
        conn.execute(sql)
    assert await store.deals(table.id) == before
    assert await store.leaderboard(GUILD, 0, 10) == ([(BEN, 1), (ANN, -1)], 2)


# ---------------------------------------------------------------- ledger and statistics


async def test_leaderboard_orders_paginates_and_skips_ai(store: Storage) -> None:
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


async def test_member_stats_figures(store: Storage) -> None:
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


async def test_backup_is_a_readable_copy(store: Storage, tmp_path: Path) -> None:
    table, deal_id = await playing_table(store, [ANN, BEN])
    await store.append_action(deal_id, 0, {"seat": 1, "action": "knock"}, BEN,
                              finish=("finished", [LedgerEntry(1, BEN, 1, "pool"),
                                                   LedgerEntry(0, ANN, -1, "pool")], []))
    dest = tmp_path / "backups" / "copy.db"
    await store.backup(dest)
    with pytest.raises(FileExistsError):
        await store.backup(dest)

    copy = await Storage.open(dest)
    try:
        assert count(dest, "SELECT MAX(version) FROM schema_version") == LATEST
        assert await copy.get_table(table.id) == await store.get_table(table.id)
        assert await copy.deals(table.id) == await store.deals(table.id)
        assert await copy.leaderboard(GUILD, 0, 10) == ([(BEN, 1), (ANN, -1)], 2)
    finally:
        await copy.close()


async def test_concurrent_calls_do_not_interleave_transactions(store: Storage) -> None:
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
