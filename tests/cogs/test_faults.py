"""Failed and waiting writes never strand a table (docs/RELIABILITY.md).

Fault injection (tests/cogs/faults.py): a seeded sample of failing commits in
scripted games of every rule family; scripts/faults.py makes every commit fail in
turn and prints the figures quoted in docs/RELIABILITY.md. Then single failures
met by hand (an AI seat's answer, a full disk, a start, a timer's move), and a
write lock another session holds: every interaction is answered before the bot
waits on the database."""

from __future__ import annotations

import asyncio
import re
import sqlite3

import asyncpg
import pytest

from bot.storage import database
from bot.timers.clock import WATCH_EVERY
from tests.cogs.faults import GAMES, Injector, faulty_game, memory_matches_storage
from tests.cogs.helpers import (
    BACKEND,
    Table,
    answer_text,
    execute,
    private,
    restart,
    select_values,
    solo,
    until_ann_acts,
)


@pytest.mark.parametrize("family", list(GAMES))
async def test_scripted_game_without_faults(simcord_env, bots, make_bot, family):
    out = await faulty_game(simcord_env, bots, make_bot, family, None)
    assert out.problems == []
    assert out.complete and not out.fired
    assert out.commits > 10


#: a seeded sample of (family, N, restart after the fault); scripts/faults.py tries every N
SAMPLE = [(family, n, n % 2 == 1) for family in GAMES for n in range(1, 26, 4)]


@pytest.mark.parametrize(("family", "fail_at", "restart"), SAMPLE)
async def test_nth_commit_fails(simcord_env, bots, make_bot, family, fail_at, restart):
    out = await faulty_game(simcord_env, bots, make_bot, family, fail_at,
                            restart_after_fault=restart)
    assert out.problems == []
    assert out.complete
    if fail_at <= out.commits - 1:
        assert out.fired
        assert out.restarts == int(restart)


# ------------------------------------------------------------------ failed writes
NOTHING_CHANGED = "nothing changed"


def fail_next_commit(bot) -> Injector:
    faults = Injector(None)
    faults.install(bot.storage)
    faults.fail_at = faults.commits + 1
    return faults


async def trade(env, table, ann):
    res = await ann.click(table.table_message(), label="Trade")
    assert private(res)
    return await ann.select(res.response, [select_values(res)[0]])


async def test_a_failed_ai_commit_rolls_back_the_whole_move(simcord_env, bots):
    """The person trades and the commit that holds the AI seats' answers fails:
    the person is told nothing changed, memory equals storage, and the same
    trade then goes through with the AI seats answering."""
    env = simcord_env
    guild, table, ann, _ = await solo(env, bots)
    live = await until_ann_acts(env, table)
    seat = live.seat_of(ann.id)
    ops, hand = len(live.deal.operations), list(live.deal.hands[seat])
    faults = fail_next_commit(table.bot)
    res = await trade(env, table, ann)
    assert faults.fired
    assert NOTHING_CHANGED in answer_text(res) and private(res)
    env.errors  # noqa: B018 — logged on purpose
    live = table.live
    assert len(live.deal.operations) == ops and live.deal.hands[seat] == hand
    assert live.deal.to_act == seat
    assert await memory_matches_storage(table.bot, live.id) is None
    res = await trade(env, table, ann)
    assert "You traded" in answer_text(res)
    live = table.live
    assert len(live.deal.operations) > ops + 1 or live.deal.finished  # the AI seats answered
    assert live.deal.finished or live.deal.to_act == seat
    assert await memory_matches_storage(table.bot, live.id) is None


async def fill_the_action_log(db) -> None:
    """Use up every free page and the room left in the action log's last page (with
    the log of a dummy open deal at a closed table of another guild), so that the
    next logged move needs a page the file may not grow by. Without it, whether a
    move or a background write meets the limit first depends on the decks."""
    await db.execute(
        "INSERT INTO tables (guild_id, channel_id, number, host_id, preset, status,"
        " next_deal_delay, created_at) VALUES (0, 0, 1, 0, 'foster', 'closed', 0, '')")
    await db.execute(
        "INSERT INTO deals (table_id, number, dealer, deck, status, started_at)"
        " VALUES (last_insert_rowid(), 1, 0, '', 'open', '')")
    async with db.execute("SELECT last_insert_rowid()") as cur:
        (deal_id,) = await cur.fetchone()
    seq = 0
    for size in (2000, 200, 20, 0):
        while True:
            try:
                await db.execute(
                    "INSERT INTO actions (deal_id, seq, payload, member_id, created_at)"
                    " VALUES (?, ?, ?, NULL, '')", (deal_id, seq, '"' + "x" * size + '"'))
            except sqlite3.OperationalError as exc:
                assert "full" in str(exc), exc
                break
            seq += 1


@pytest.mark.skipif(BACKEND == "postgres", reason="PRAGMA max_page_count is SQLite's; "
                    "PostgreSQL's refused commit is the next test")
async def test_a_real_full_disk_then_space_freed(simcord_env, bots):
    """PRAGMA max_page_count at the current size: a move that needs a new page is
    refused with nothing changed; once space is freed play resumes."""
    env = simcord_env
    guild, table, ann, _ = await solo(env, bots)
    db = table.bot.storage._db
    await until_ann_acts(env, table)
    async with db.execute("PRAGMA page_count") as cur:
        (pages,) = await cur.fetchone()
    await db.execute(f"PRAGMA max_page_count = {pages}")
    await fill_the_action_log(db)
    told = None
    for _ in range(120):
        live = await until_ann_acts(env, table)
        ops = len(live.deal.operations)
        res = await trade(env, table, ann)
        env.errors  # noqa: B018
        if NOTHING_CHANGED in answer_text(res):
            told = (table.live, ops)
            break
    assert told is not None, "the full database never refused a write"
    live, ops = told
    assert len(live.deal.operations) == ops
    assert await memory_matches_storage(table.bot, live.id) is None
    await db.execute("PRAGMA max_page_count = 1073741823")
    res = await trade(env, table, ann)
    assert NOTHING_CHANGED not in answer_text(res)
    assert len(table.live.deal.operations) > ops or table.live.deal.finished


#: a constraint trigger checked at COMMIT that refuses any transaction logging a move
#: with the error a full disk gives (SQLSTATE 53100, ``disk_full``)
DISK_FULL_AT_COMMIT = """
CREATE FUNCTION refuse_as_full() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'could not extend file: No space left on device' USING ERRCODE = 'disk_full';
END $$;
CREATE CONSTRAINT TRIGGER actions_disk_full AFTER INSERT ON actions
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION refuse_as_full();
"""


@pytest.mark.skipif(BACKEND != "postgres", reason="PostgreSQL's equivalent of the full disk "
                    "test before (SQLite's page limit does not exist here)")
async def test_a_commit_the_server_refuses_then_accepts_again(simcord_env, bots, caplog):
    """The server itself refuses the COMMIT that logs a move (a deferred trigger,
    raising disk_full): the move is refused with nothing changed, memory equals
    storage; once the trigger is gone (space freed) play resumes."""
    env = simcord_env
    guild, table, ann, _ = await solo(env, bots)
    live = await until_ann_acts(env, table)
    ops, seat = len(live.deal.operations), live.seat_of(ann.id)
    await execute(table.bot, DISK_FULL_AT_COMMIT)
    res = await trade(env, table, ann)
    assert NOTHING_CHANGED in answer_text(res) and private(res)
    env.errors  # noqa: B018 — logged on purpose
    assert "a write failed (DiskFullError)" in caplog.text  # the server's refusal, logged
    live = table.live
    assert len(live.deal.operations) == ops and live.deal.to_act == seat
    assert await memory_matches_storage(table.bot, live.id) is None
    await execute(table.bot, "DROP TRIGGER actions_disk_full ON actions")
    res = await trade(env, table, ann)
    assert "You traded" in answer_text(res)
    assert len(table.live.deal.operations) > ops or table.live.deal.finished
    assert await memory_matches_storage(table.bot, table.live.id) is None


@pytest.mark.parametrize("restart_after", [False, True])
async def test_a_failed_start_leaves_the_lobby_startable(simcord_env, bots, make_bot,
                                                         restart_after):
    env = simcord_env
    guild, table, ann, lobby = await solo(env, bots, start=False)
    fail_next_commit(table.bot)
    res = await ann.click(lobby, label="Start")
    assert NOTHING_CHANGED in answer_text(res)
    env.errors  # noqa: B018
    live = table.live
    assert live.row.status == "lobby" and live.game is None
    assert await memory_matches_storage(table.bot, live.id) is None
    if restart_after:
        await restart(env, make_bot())
        assert table.live.row.status == "lobby"
    lobby = table.channel.history()[0]
    await ann.click(lobby, label="Start")
    assert table.live.row.status == "playing" and table.live.deal is not None
    res = await ann.click(table.table_message(), label="My hand")
    assert "Your hand" in answer_text(res)


async def test_start_up_resumes_a_table_owed_to_the_ai(simcord_env, bots, make_bot):
    """A table whose next move belongs to an AI seat when the bot starts (here:
    the member to act left while the bot was down) is played on by itself."""
    env = simcord_env
    guild, table, ann, _ = await solo(env, bots)
    live = await until_ann_acts(env, table)
    table_id, ops = live.id, len(live.deal.operations)
    old = table.bot
    new = make_bot()
    await env.settle()
    for name in list(old.extensions):
        await old.unload_extension(name)
    await old.close_storage()
    # the member is gone while the bot is down
    await execute(old, "UPDATE seats SET gone = 1 WHERE table_id = ? AND member_id = ?",
                  (table_id, ann.id))
    await env.restart_bot(new)
    await env.advance_time(WATCH_EVERY + 1)
    live = table.bot.service.tables.get(table_id) or table.live
    assert len(live.deal.operations) > ops or live.deal_number > 1 or live.game.complete


async def test_a_failed_timer_move_is_tried_again(simcord_env, bots):
    """The turn timer's AI move cannot be stored: the timer is armed again by the
    watch and the move is made later."""
    env = simcord_env
    guild, table, ann, _ = await solo(env, bots)
    live = await until_ann_acts(env, table)
    ops = len(live.deal.operations)
    faults = Injector(None)
    faults.install(table.bot.storage)
    faults.fail_at = faults.commits + 1
    settings = await table.bot.service.settings(guild.id)
    await env.advance_time(settings.turn_timer + 1)
    assert faults.fired
    env.errors  # noqa: B018
    assert len(table.live.deal.operations) == ops
    await env.advance_time(WATCH_EVERY + settings.turn_timer + 2)
    live = table.live
    assert len(live.deal.operations) > ops or live.deal_number > 1


# ------------------------------------------------------------------ held write lock
class HeldLock:
    """Another session holding the database's write lock until ``release``: on
    SQLite a second connection in ``BEGIN IMMEDIATE`` (the file's one write lock);
    on PostgreSQL a second connection whose open transaction holds every table of
    the schema ``IN EXCLUSIVE MODE`` (reads go on, every write waits: the same)."""

    def __init__(self, conn) -> None:
        self.conn = conn

    @classmethod
    async def take(cls, bot) -> HeldLock:
        if BACKEND != "postgres":
            conn = sqlite3.connect(bot.database, timeout=0, isolation_level=None)
            conn.execute("BEGIN IMMEDIATE")
            return cls(conn)
        conn = await asyncpg.connect(bot.database)
        names = await conn.fetch("SELECT quote_ident(tablename) FROM pg_tables"
                                 " WHERE schemaname = current_schema()")
        await conn.execute("BEGIN")
        await conn.execute(f"LOCK TABLE {', '.join(n[0] for n in names)} IN EXCLUSIVE MODE")
        return cls(conn)

    async def release(self) -> None:
        if isinstance(self.conn, sqlite3.Connection):
            self.conn.execute("ROLLBACK")
            self.conn.close()
            return
        await self.conn.execute("ROLLBACK")
        await self.conn.close()


#: interaction response types that acknowledge without answering yet (deferrals)
DEFERRALS = (5, 6)


def responses(env) -> list[int]:
    """The type of each interaction response the bot has sent so far, in order."""
    return [(e.json or {}).get("type") for e in env.http_requests
            if re.fullmatch(r"/interactions/\d+/.+/callback", e.path)]


async def locked(env, bot, act, *, release: bool = True):
    """Run ``act`` while another session holds the write lock (``HeldLock``): the
    interaction must be acknowledged before the bot waits; then the lock is
    released (or held past the bot's patience) and virtual time moves on.

    On SQLite the bot waits in a retry loop on the event loop (virtual time: ``act``
    returns while it waits). On PostgreSQL it waits on the server, in real time, so
    ``act`` cannot settle before the lock goes: it runs as a task while the test
    watches for the interaction's response (the deferral), with the lock still held,
    and only then releases it (or lets the bot's patience, ``BUSY_WAIT``, run out)."""
    held = await HeldLock.take(bot)
    patience = env.settle_timeout
    try:
        if BACKEND == "postgres":
            env.settle_timeout = database.BUSY_WAIT + 10  # real seconds the bot may wait
            before = len(responses(env))
            acting = asyncio.ensure_future(act())
            async with asyncio.timeout(database.BUSY_WAIT):
                while len(responses(env)) == before and not acting.done():
                    await asyncio.sleep(0.01)
            assert not acting.done(), "the bot did not wait for the held lock"
            [first] = responses(env)[before:before + 1]
            assert first in DEFERRALS, f"answered {first} before waiting on the database"
            if release:
                await held.release()
                held = None
            res = await acting
            assert res.acknowledged
            await env.advance_time(1)
            return res
        env.settle_timeout = 1.0  # the bot is waiting on purpose
        res = await act()
        for _ in range(5):  # a loaded machine may need more than one settle to get there
            if res.acknowledged:
                break
            await env.settle()
        assert res.acknowledged, "answered (deferred) before waiting on the database"
        assert res.deferred
        if release:
            await held.release()
            held = None
        await env.advance_time(database.BUSY_WAIT + 1 if not release else 1)
    finally:
        env.settle_timeout = patience
        if held is not None:
            await held.release()
    return res


async def test_every_state_change_is_acknowledged_before_a_held_lock(simcord_env, bots):
    env = simcord_env
    guild = env.create_guild()
    general = guild.create_text_channel("general")
    ann, ben = (guild.add_member(env.create_user(n)) for n in ("ann", "ben"))
    await ann.slash(general, "commerce new")  # defers at once by itself
    channel = guild.channels["commerce-1"]
    table = Table(env, bots, channel, {ann.id: ann, ben.id: ben})
    lobby = channel.history()[0]
    bot = table.bot
    await locked(env, bot, lambda: ben.click(lobby, label="Join"))
    assert table.live.seat_of(ben.id) is not None
    await locked(env, bot, lambda: ben.slash(channel, "commerce leave"))
    assert table.live.seat_of(ben.id) is None
    await locked(env, bot, lambda: ben.slash(channel, "commerce join"))
    await locked(env, bot, lambda: ann.click(lobby, label="Add AI"))
    await locked(env, bot, lambda: ann.slash(channel, "commerce addbot"))
    assert len(table.live.seats) == 4
    await locked(env, bot, lambda: ann.click(lobby, label="Start"))
    assert table.live.deal is not None
    res = await locked(env, bot, lambda: ann.slash(channel, "commerce delay", seconds=0))
    assert "waits for the Next deal button" in answer_text(res) and not private(res)
    done: set[str] = set()
    for _ in range(40):  # play on, each kind of move under a held lock at least once
        live = table.live
        if live.deal.finished:
            number = live.deal_number
            showdown = next(m for m in reversed(channel.history()) if m.components
                            and (m.embeds[0].title or "").startswith("Showdown"))
            await locked(env, bot, lambda s=showdown: ann.click(s, label="Next deal"))
            assert table.live.deal_number == number + 1
            break
        actor = table.actor_to_act()
        ops = len(live.deal.operations)
        if live.deal.pending is not None:
            kind = "accept"
            res = await actor.click(table.offer_message(actor), label="Accept")
        elif "trade" not in done or ops % 3:
            kind = "trade"
            res = await actor.click(table.table_message(), label="Trade")
        else:
            kind, res = "knock", None

        async def move(res=res, actor=actor):
            if res is None:
                return await actor.click(table.table_message(), label="Knock")
            return await actor.select(res.response, [select_values(res)[0]])

        if kind in done:  # once under a held lock is enough: the rest plays plainly
            await move()
        else:
            await locked(env, bot, move)
            done.add(kind)
        assert len(table.live.deal.operations) > ops
    res = await locked(env, bot, lambda: ann.slash(channel, "commerce end"))
    assert "closed" in answer_text(res)
    assert table.bot.service.in_channel(channel.id) is None


async def test_a_lock_held_too_long_is_a_clear_failure(simcord_env, bots):
    env = simcord_env
    guild, table, ann, _ = await solo(env, bots)
    live = await until_ann_acts(env, table)
    ops = len(live.deal.operations)
    res = await locked(env, table.bot, lambda: table.knock(ann), release=False)
    env.errors  # noqa: B018
    assert NOTHING_CHANGED in answer_text(res) and private(res)
    assert len(table.live.deal.operations) == ops
    res = await table.knock(ann)
    assert "You knocked" in answer_text(res)
