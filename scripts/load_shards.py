"""Load test of the sharded bot: several bot processes on one PostgreSQL server.

Run from the repository root (about 30 s on 2 cores with the defaults)::

    .venv/bin/python scripts/load_shards.py                       # 2 processes
    .venv/bin/python scripts/load_shards.py --processes 4 --tables 6
    .venv/bin/python scripts/load_shards.py --no-baselines --interactions 60   # quick

What it does, in ONE run (docs/SCALING.md explains the figures):

1. Starts one throw-away PostgreSQL server (``bot/storage/pgserver.py``) and
   migrates a fresh database of it once.
2. Baselines, one after the other, with the same load as ONE shard process:
   1 bot process on SQLite (``create_bot(db_path)``, no shards) and 1 bot process
   on PostgreSQL (``SHARD_COUNT=1 SHARD_IDS=0``, a database of its own).
3. The sharded run: P bot processes at once (``--processes``, 2 to 4), each a
   separate OS process (``python scripts/load_shards.py worker …``) started with
   ``SHARD_COUNT=P``, ``SHARD_IDS=i`` and ``DATABASE_URL`` naming the shared
   database. Each runs the real bot (``create_bot(shards=shards_from_env())``)
   against its own in-process SimCord that holds only guilds of its shard
   (``env.create_guild(shard_id=i)``: Discord's ``(guild_id >> 22) % P``). In
   each, ``--tables`` human members each open a table with two AI seats in one
   of ``--guilds`` guilds and play it through the real buttons and selects, as
   ``scripts/bench_bot.py`` does (its driving code is imported, not copied):
   My hand, Trade + card, Knock, Accept + card, Next deal. Each process makes
   ``--interactions`` interactions; they all start together.
4. Faults: process 0 plays on, announces a moment where one of its tables is
   mid-deal, and is killed with SIGKILL right then (it is still clicking). A
   misconfigured process for shard 1, which process 1 still serves, must be
   refused (``DatabaseInUse``: its claim overlaps a live one,
   ``bot/storage/claims.py``). A replacement for shard 0 starts (same
   ``SHARD_IDS``): it must get the shard (the dead one's claim died with its
   connection) and load exactly the open tables of its
   shard. Its simulated Discord is a NEW one: the guilds, channels and members
   are re-created with the same ids (SimCord's ids come from a virtual clock, so
   building the same world in the same order gives the same ids; checked), but
   the old messages are gone, as they would not be on real Discord, so the
   script posts each resumed table's message through the bot's own
   ``Publisher.post_table_message`` (or a Next deal button after a showdown),
   standing in for the messages Discord keeps. Every resumed table must equal
   the replay of its stored record, and play then goes on through the buttons.
5. Checks, exit status 1 on any failure: every game in the database replays
   from its stored record (``TableService.record`` → ``bot.engine.replay``) and
   each seat's ledger rows equal the replay's; every table in each process's
   memory equals the replay of its record; every guild's ledger sums to minus
   the points in open pots (docs/RELIABILITY.md, "Ledger"); no table was served
   by two processes (each worker logs, per interaction, its pid and the table
   served; each table's interactions come from the incarnations of its own
   shard only, the killed one's before the kill and the replacement's after,
   and the refused process served nothing); no bot errors.

Throughput = interactions / wall seconds of a process's play (SimCord round
trips, the bot's work, PostgreSQL or SQLite, the driver's bookkeeping); the
total of the sharded run = all its interactions / the wall time from the first
process's start of play to the last one's end. Ratios are to the baselines of
the same run. PostgreSQL's committed transactions during the sharded play
(``pg_stat_database.xact_commit``) give commits per interaction; a last probe
(``--probe-seconds``) measures how many small write transactions per second the
server commits with P writers. The script prints a last line
``BENCH-JSON {"scaling": {...}}``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

COMMAND = ".venv/bin/python scripts/load_shards.py"
#: exit code of a worker refused because another process serves its guilds
REFUSED = 3
#: virtual seconds each process's world is moved forward per shard, so the
#: members and channels of different processes never share an id
ID_SPREAD = 1000.0
#: virtual seconds a replacement's clock jumps after it has re-built the world,
#: so its new messages never take an id an old message of the shard had
FRESH_IDS = 30 * 86400.0


# ================================================================ the worker
@dataclass
class World:
    """What one worker builds in its simulated Discord, in a fixed order."""

    guilds: list[Any]
    admins: list[Any]
    seats: list[Any]          # bench_bot.Seat, one per table
    ids: dict[str, list[int]] = field(default_factory=dict)


def build_world(env: Any, slot: int, shard: int | None, n_guilds: int, n_tables: int) -> World:
    """Guilds of this process's shard, their admins, one channel and one member per
    table. Deterministic: the same calls on a fresh SimCord give the same ids."""
    from bench_bot import Seat

    env.backend.advance_clock(slot * ID_SPREAD)
    guilds, admins, seats = [], [], []
    for g in range(n_guilds):
        guild = env.create_guild(name=f"load-{slot}-{g}", shard_id=shard)
        guilds.append(guild)
        admins.append(guild.add_member(env.create_user(f"admin-{slot}-{g}")))
    for t in range(n_tables):
        guild = guilds[t % n_guilds]
        seats.append(Seat(guild.create_text_channel(f"table-{t}"),
                          guild.add_member(env.create_user(f"player-{slot}-{t}"))))
    ids = {"guilds": [g.id for g in guilds], "channels": [s.channel.id for s in seats],
           "members": [s.actor.id for s in seats]}
    return World(guilds, admins, seats, ids)


class Served:
    """Appends one line per interaction to a file: pid, table, count, time. Written
    and flushed at once, so the lines of a killed process survive it."""

    def __init__(self, path: Path, role: str) -> None:
        self.file = open(path, "a", buffering=1)  # closed when the process ends
        self.role = role
        self.count = 0

    def add(self, table_id: int, made: int) -> None:
        self.count += made
        self.file.write(f"{os.getpid()} {self.role} {table_id} {made} {time.time():.6f}\n")


def mid_deal(bot: Any, seats: list[Any]) -> bool:
    """One of the tables has a deal under way with at least one move made."""
    for s in seats:
        live = bot.service.tables.get(s.table_id)
        if live is not None and live.deal is not None and not live.deal.finished \
                and live.deal.operations:
            return True
    return False


async def play(env: Any, bot: Any, seats: list[Any], served: Served, target: int,
               *, seconds: float | None = None, mark: Any = None) -> tuple[int, float]:
    """Rounds over the tables with ``bench_bot.play_step`` until ``target``
    interactions (or ``seconds``) are made or no table can move; virtual time then
    moves 15 minutes after each round so the ephemeral select views expire
    (bench_bot's ``expire``, once per round rather than per table: each move of
    the clock runs the watch's loop, which costs more than the views' rescans at
    a dozen tables; ``LOAD_EXPIRE=turn`` restores bench_bot's way). ``mark``:
    called after each table's turn (the victim's mid-deal signal). Returns the
    interactions and the bot's own work in seconds (bench_bot's ``WORK`` meter:
    service, rendering, pictures)."""
    from bench_bot import VIEW_LIFETIME, Recorder, play_step

    rec = Recorder()
    per_turn = os.environ.get("LOAD_EXPIRE") == "turn"
    done = 0
    stop = None if seconds is None else time.perf_counter() + seconds
    while done < target:
        made_round = 0
        for s in seats:
            made = await play_step(rec, bot, s)
            if made:
                served.add(s.table_id, made)
                if per_turn:
                    await env.advance_time(VIEW_LIFETIME)
            made_round += made
            done += made
            if mark is not None:
                mark()
            if done >= target or (stop is not None and time.perf_counter() >= stop):
                return done, sum(rec.all(rec.work))
        if made_round == 0:
            break
        if not per_turn:
            await env.advance_time(VIEW_LIFETIME)
    return done, sum(rec.all(rec.work))


def same_as_replay(live: Any, record: dict[str, Any]) -> str | None:
    """``None`` when the table in memory equals the replay of its stored record,
    else what differs."""
    from bot.engine import replay

    game = replay(record)
    mine = live.game
    if mine is None:
        return "no game in memory"
    if len(game.deals) != len(mine.deals):
        return f"{len(mine.deals)} deals in memory, {len(game.deals)} replayed"
    for i, (a, b) in enumerate(zip(mine.deals, game.deals, strict=True)):
        if list(a.operations) != list(b.operations) or a.finished != b.finished:
            return f"deal {i + 1} differs ({len(a.operations)} vs {len(b.operations)} moves)"
    if list(mine.ledger) != list(game.ledger):
        return f"ledger {mine.ledger} vs replayed {game.ledger}"
    return None


async def check_memory(bot: Any) -> list[str]:
    """Every open table in this process's memory against its stored record."""
    problems = []
    for tid, live in list(bot.service.tables.items()):
        if live.game is None:
            continue
        await bot.service.settled(tid)
        why = same_as_replay(live, await bot.service.archive.record(tid))
        if why:
            problems.append(f"table {tid}: {why}")
    return problems


async def repost(env: Any, bot: Any, seats: list[Any]) -> int:
    """A resumed table's controls in the new simulated Discord: the table message
    (the bot's own ``post_table_message``) and a pending offer's own message with
    its answers (``after_deal_change``), or after a showdown a Next deal button.
    Returns the messages posted."""
    from bench_bot import find_message

    from bot.ui.components import NextDealButton, view_of

    posted = 0
    for s in seats:
        live = bot.service.tables.get(s.table_id)
        if live is None or live.deal is None:
            continue
        n = live.deal_number
        if not live.deal.finished:
            if find_message(s.channel, f"commerce:play:{live.id}:{n}:") is None:
                await bot.publisher.post_table_message(live)
                posted += 1
            if (live.deal.pending is not None
                    and find_message(s.channel, f"commerce:answer:{live.id}:{n}:") is None):
                bot.publisher.offers.pop((live.id, n, len(live.deal.operations)), None)
                await bot.publisher.after_deal_change(live)
                posted += 1
        elif not live.game.complete and find_message(s.channel, f"commerce:next:{live.id}:{n}") is None:
            await bot.get_channel(s.channel.id).send("Next deal", view=view_of(NextDealButton(live.id, n)))
            posted += 1
    await env.settle()
    return posted


def emit(kind: str, **data: Any) -> None:
    print(f"{kind} {json.dumps(data)}", flush=True)


async def command() -> list[str]:
    line = await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    return line.split()


def requests_made(bot: Any) -> int:
    """Requests the bot's token made so far (``commerce_discord_requests_total``:
    every one counts against Discord's global limit; answers to interactions
    do not)."""
    return int(sum(sample.value for metric in bot.metrics.requests.collect()
                   for sample in metric.samples if sample.name.endswith("_total")))


async def worker(args: argparse.Namespace) -> int:
    """One bot process (see the module docstring); talks to the parent over
    stdin/stdout: READY → GO → DONE → (MORE k → MIDDEAL …) | STOP → RESULT."""
    import simcord

    from bot import create_bot
    from bot.storage import DatabaseUnavailable
    from bot.storage.shards import shards_from_env

    shards = shards_from_env()
    url = os.environ.get("DATABASE_URL", "").strip() or None
    shard = shards.ids[0] if shards is not None and shards.ids and shards.count > 1 else None
    bot = create_bot(url or args.sqlite, rng=random.Random(args.seed * 1000 + args.slot
                                                           + 100 * args.incarnation),
                     cooldown=None, shards=shards, ai_pace=0)
    env = simcord.Env(bot)
    world = build_world(env, args.slot, shard, args.guilds, args.tables)
    if args.resume:
        env.backend.advance_clock(FRESH_IDS)
    served = Served(Path(args.served), args.role)
    t0 = time.perf_counter()
    try:
        await env.start()
    except DatabaseUnavailable as exc:
        emit("REFUSED", message=str(exc))
        await bot.close_storage()
        return REFUSED
    with env.time_context():
        try:
            return await _serve(env, bot, world, served, args, t0)
        finally:
            with contextlib.suppress(Exception):
                await env.shutdown()
            await bot.close_storage()


async def _serve(env: Any, bot: Any, world: World, served: Served, args: argparse.Namespace,
                 t0: float) -> int:
    from bench_bot import instrument, open_tables, set_settle_poll

    set_settle_poll(env, 0.001)
    instrument(bot)
    seats = world.seats
    facts: dict[str, Any] = {"pid": os.getpid(), "ids": world.ids,
                             "storage": type(bot.storage).__name__}
    if args.resume:
        await env.settle()
        loaded = sorted(bot.service.tables)
        for s in seats:
            live = bot.service.in_channel(s.channel.id)
            s.table_id = None if live is None else live.id
        facts["loaded"] = loaded
        facts["start_s"] = time.perf_counter() - t0
        facts["unequal"] = await check_memory(bot)
        facts["reposted"] = await repost(env, bot, seats)
    else:
        for guild, admin in zip(world.guilds, world.admins, strict=True):
            await bot.service.update_settings(guild.id, admin.id, table_mode="here",
                                              next_deal_delay=0, turn_timer=0)
        await open_tables(bot, seats)
        facts["start_s"] = time.perf_counter() - t0
    facts["tables"] = {str(s.channel.id): s.table_id for s in seats}
    emit("READY", **facts)
    await command()  # GO
    start = time.perf_counter()
    asked = requests_made(bot)
    made, work = await play(env, bot, seats, served, args.interactions)
    spent = time.perf_counter() - start
    emit("DONE", interactions=made, seconds=spent, work_s=work,
         requests=requests_made(bot) - asked)
    while True:
        words = await command()
        if not words or words[0] == "STOP":
            break
        if words[0] == "MORE":  # play on; say when a table is mid-deal after k interactions
            after = served.count + int(words[1])
            said = False

            def mark(after: int = after) -> None:
                nonlocal said
                if not said and served.count >= after and mid_deal(bot, seats):
                    said = True
                    emit("MIDDEAL", interactions=served.count)
            await play(env, bot, seats, served, 10 ** 9, seconds=float(words[2]), mark=mark)
            emit("PLAYED", interactions=served.count)
    problems = await check_memory(bot)
    errors = [repr(e) for e in env.errors]
    emit("RESULT", problems=problems, errors=errors[:5], n_errors=len(errors),
         tables=sorted(bot.service.tables), interactions=served.count)
    return 0


# ================================================================ the parent
@dataclass
class Proc:
    """One worker process as the parent sees it."""

    name: str
    slot: int
    process: asyncio.subprocess.Process
    served: Path
    facts: dict[str, Any] = field(default_factory=dict)
    done: dict[str, Any] = field(default_factory=dict)
    result: dict[str, Any] = field(default_factory=dict)
    killed_at: float | None = None

    async def expect(self, kind: str, timeout: float = 300.0) -> dict[str, Any]:
        """The next protocol line of ``kind`` (other lines are skipped)."""
        assert self.process.stdout is not None
        while True:
            raw = await asyncio.wait_for(self.process.stdout.readline(), timeout)
            if not raw:
                code = await self.process.wait()
                raise RuntimeError(f"{self.name} ended (exit {code}) before {kind}")
            head, _, body = raw.decode().rstrip("\n").partition(" ")
            if head == kind:
                data: dict[str, Any] = json.loads(body)
                return data
            if head == "REFUSED" and kind != "REFUSED":
                raise RuntimeError(f"{self.name} was refused: {json.loads(body)['message']}")

    async def say(self, text: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write((text + "\n").encode())
        await self.process.stdin.drain()


class Run:
    """Starts workers and keeps their logs."""

    def __init__(self, args: argparse.Namespace, logs: Path) -> None:
        self.args = args
        self.logs = logs

    async def start(self, name: str, slot: int, *, url: str | None, count: int | None,
                    sqlite: Path | None = None, resume: bool = False, incarnation: int = 0,
                    tables: int | None = None) -> Proc:
        env = {k: v for k, v in os.environ.items()
               if k not in ("DATABASE_URL", "SHARD_COUNT", "SHARD_IDS")}
        if url:
            env["DATABASE_URL"] = url
        if count is not None:
            env["SHARD_COUNT"], env["SHARD_IDS"] = str(count), str(slot)
        env["LOG_LEVEL"] = env.get("LOG_LEVEL", "WARNING")
        served = self.logs / f"served-{name}.log"
        a = self.args
        cmd = [sys.executable, str(Path(__file__).resolve()), "worker", "--slot", str(slot),
               "--role", name, "--served", str(served), "--seed", str(a.seed),
               "--guilds", str(a.guilds), "--tables", str(tables or a.tables),
               "--interactions", str(a.interactions), "--incarnation", str(incarnation),
               "--sqlite", str(sqlite or self.logs / "unused.db")]
        if resume:
            cmd.append("--resume")
        stderr = open(self.logs / f"{name}.stderr", "wb")  # the child keeps its own copy
        process = await asyncio.create_subprocess_exec(
            *cmd, cwd=ROOT, env=env, stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE, stderr=stderr)
        stderr.close()
        return Proc(name, slot, process, served)


async def single(run: Run, name: str, *, url: str | None, count: int | None,
                 sqlite: Path | None) -> dict[str, Any]:
    """One process alone with the load of one shard process: its DONE figures."""
    proc = await run.start(name, 0, url=url, count=count, sqlite=sqlite)
    proc.facts = await proc.expect("READY")
    await proc.say("GO")
    done = await proc.expect("DONE")
    await proc.say("STOP")
    proc.result = await proc.expect("RESULT")
    await proc.process.wait()
    done["errors"] = proc.result["n_errors"] + len(proc.result["problems"])
    done["storage"] = proc.facts["storage"]
    return done


def read_served(path: Path) -> list[tuple[int, str, int, int, float]]:
    out = []
    if path.exists():
        for line in path.read_text().splitlines():
            parts = line.split()
            if len(parts) == 5:  # a killed process may leave half a line
                out.append((int(parts[0]), parts[1], int(parts[2]), int(parts[3]),
                            float(parts[4])))
    return out


async def database_checks(url: str) -> tuple[list[str], dict[str, Any]]:
    """Every stored game against the replay of its record (each seat's ledger
    rows too); every guild's ledger sum against the points in its open pots."""
    import asyncpg

    from bot.engine import replay
    from bot.service import TableService
    from bot.storage import open_storage

    problems: list[str] = []
    storage = await open_storage(url)
    service = TableService(storage)
    conn = await asyncpg.connect(url)
    try:
        games = [r[0] for r in await conn.fetch("SELECT table_id FROM games ORDER BY table_id")]
        for tid in games:
            try:
                game = replay(await service.archive.record(tid))
            except Exception as exc:  # a record that does not replay is a finding
                problems.append(f"table {tid}: its record does not replay ({exc})")
                continue
            stored = dict(await conn.fetch(
                "SELECT seat, SUM(amount) FROM ledger WHERE table_id = $1 AND deal_id IS NOT NULL"
                " AND reason NOT IN ('reset', 'reset-pot', 'share') GROUP BY seat", tid))
            if [stored.get(s, 0) for s in range(len(game.ledger))] != list(game.ledger):
                problems.append(f"table {tid}: ledger rows {stored} vs replay {game.ledger}")
        guilds = [r[0] for r in await conn.fetch("SELECT DISTINCT guild_id FROM tables")]
        sums = {}
        for g in guilds:
            total, pots = await storage.guild_ledger_sum(g), await storage.points_in_pots(g)
            sums[g] = (total, pots)
            if total != -pots:
                problems.append(f"guild {g}: ledger sums to {total}, open pots hold {pots}")
        counts = dict(await conn.fetch("SELECT status, COUNT(*) FROM tables GROUP BY status"))
        actions = await conn.fetchval("SELECT COUNT(*) FROM actions")
        ledger_rows = await conn.fetchval("SELECT COUNT(*) FROM ledger")
    finally:
        await conn.close()
        service.players.close()
        await storage.close()
    return problems, {"games": len(games), "guilds": len(guilds), "tables_by_status": counts,
                      "actions": actions, "ledger_rows": ledger_rows,
                      "ledger_sums": {str(g): v for g, v in sums.items()}}


async def make_database(server: Any, name: str, *, migrate: bool = True) -> str:
    """A new database of ``server``, migrated (by opening it once) unless told not."""
    import asyncpg

    from bot.storage import open_storage

    conn = await asyncpg.connect(server.url())
    try:
        await conn.execute(f"CREATE DATABASE {name}")
    finally:
        await conn.close()
    url = server.url(name)
    if migrate:
        storage = await open_storage(url)  # migrates once, before any worker
        await storage.close()
    return url


def ownership(procs: list[Proc], shard_count: int, refused: Proc | None,
              victim: Proc, replacement: Proc) -> tuple[list[str], dict[str, Any]]:
    """No table served by two processes: per table, the pids whose interactions
    it got; each table's guild is of the serving process's shard; the killed
    process served nothing after its kill, the replacement only its shard."""
    problems: list[str] = []
    by_table: dict[int, set[str]] = defaultdict(set)
    for p in procs:
        for pid, role, tid, _made, when in read_served(p.served):
            by_table[tid].add(role)
            if pid != p.facts["pid"] or role != p.name:
                problems.append(f"{p.name}'s log holds another process's line ({pid} {role})")
            if p is victim and victim.killed_at is not None and when > victim.killed_at:
                problems.append(f"table {tid}: served by the killed process after its kill")
            if p is replacement and victim.killed_at is not None and when < victim.killed_at:
                problems.append(f"table {tid}: served by the replacement before the kill")
    slot_of = {p.name: p.slot for p in procs}
    for tid, roles in by_table.items():
        if len({slot_of[r] for r in roles}) > 1 or len(roles - {victim.name, replacement.name}) > 1:
            problems.append(f"table {tid} served by {sorted(roles)}")
    problems += held_apart(procs, shard_count)
    if refused is not None and read_served(refused.served):
        problems.append("the refused process served interactions")
    return problems, {"tables_served": len(by_table)}


def held_apart(procs: list[Proc], shard_count: int) -> list[str]:
    """The tables the live processes held in memory at the end are disjoint, and
    each process's guilds are of its own shard."""
    from bot.storage.shards import Shards

    problems: list[str] = []
    held: dict[int, str] = {}
    for p in procs:
        for tid in p.result.get("tables", []):
            if tid in held:
                problems.append(f"table {tid} in the memory of {held[tid]} and {p.name}")
            held[tid] = p.name
        shards = Shards(shard_count, (p.slot,))
        for g in p.facts.get("ids", {}).get("guilds", []):
            if not shards.owns(g):
                problems.append(f"{p.name} holds guild {g} of another shard")
    return problems


def rate(n: int, seconds: float) -> float:
    return n / seconds if seconds > 0 else float("nan")


async def commits(url: str) -> int:
    """Transactions committed so far in the database (``pg_stat_database``)."""
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        await conn.execute("SELECT pg_stat_clear_snapshot()")
        return int(await conn.fetchval(
            "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()"))
    finally:
        await conn.close()


async def commit_capacity(server: Any, writers: int, seconds: float) -> float:
    """Small write transactions per second the server commits with ``writers``
    connections at once (one INSERT of an action-sized row each, in a scratch
    database): what limits one PostgreSQL server."""
    import asyncpg

    url = await make_database(server, "probe", migrate=False)
    setup = await asyncpg.connect(url)
    await setup.execute("CREATE TABLE probe (id bigserial PRIMARY KEY, payload text)")
    await setup.close()
    stop = time.perf_counter() + seconds

    async def write() -> int:
        conn = await asyncpg.connect(url)
        n = 0
        try:
            while time.perf_counter() < stop:
                async with conn.transaction():
                    await conn.execute("INSERT INTO probe (payload) VALUES ($1)", "x" * 120)
                n += 1
        finally:
            await conn.close()
        return n

    start = time.perf_counter()
    done = await asyncio.gather(*(write() for _ in range(writers)))
    return sum(done) / (time.perf_counter() - start)


async def sharded_play(run: Run, url: str, out: dict[str, Any]) -> list[Proc]:
    """Start the P shard processes, let them play together; throughput figures."""
    P = run.args.processes
    procs = [await run.start(f"shard-{i}", i, url=url, count=P) for i in range(P)]
    for p in procs:
        p.facts = await p.expect("READY")
    before = await commits(url)
    for p in procs:
        await p.say("GO")
    for p in procs:
        p.done = await p.expect("DONE")
    out["commits"] = await commits(url) - before
    starts, ends = [], []
    for p in procs:
        lines = read_served(p.served)
        if lines:
            ends.append(lines[-1][4])
            starts.append(lines[-1][4] - p.done["seconds"])
    out["window_s"] = (max(ends) - min(starts)) if ends else float("nan")
    out["total_interactions"] = sum(p.done["interactions"] for p in procs)
    out["storage"] = "+".join(sorted({p.facts["storage"] for p in procs}))
    out["per_process_per_s"] = {p.name: rate(p.done["interactions"], p.done["seconds"])
                                for p in procs}
    out["work_ms_per_interaction"] = 1000 * sum(p.done["work_s"] for p in procs) / max(
        out["total_interactions"], 1)
    out["requests_per_interaction"] = sum(p.done["requests"] for p in procs) / max(
        out["total_interactions"], 1)
    return procs


async def faults(run: Run, url: str, procs: list[Proc], out: dict[str, Any],
                 failures: list[str]) -> tuple[Proc | None, Proc]:
    """Kill shard 0 mid-deal, refuse a second process for shard 1, start shard 0's
    replacement and check what it resumed. Returns (refused, replacement)."""
    args, P = run.args, run.args.processes
    victim = procs[0]
    for p in procs:
        await p.say(f"MORE {args.kill_after} {args.fault_seconds}")
    mid = await victim.expect("MIDDEAL")
    victim.process.send_signal(signal.SIGKILL)
    victim.killed_at = time.time()
    await victim.process.wait()
    out["killed_after_interactions"] = mid["interactions"]

    refused = await run.start("misconfigured-shard-1", 1, url=url, count=P)
    out["refusal"] = (await refused.expect("REFUSED", timeout=120))["message"]
    code = await refused.process.wait()
    if code != REFUSED:
        failures.append(f"the second process for shard 1 exited {code}, not refused")

    t_claim = time.perf_counter()
    replacement = None
    for attempt in range(1, 21):  # the server sees a dead client's socket close at once;
        candidate = await run.start(f"replacement-{attempt}", 0, url=url, count=P,
                                    resume=True, incarnation=attempt)  # retried anyway
        try:
            candidate.facts = await candidate.expect("READY")
        except RuntimeError as exc:
            await candidate.process.wait()
            out.setdefault("claim_retries", []).append(str(exc))
            await asyncio.sleep(0.5)
            continue
        replacement = candidate
        out["replacement_attempts"] = attempt
        break
    if replacement is None:
        raise RuntimeError("no replacement could claim shard 0")
    out["replacement_ready_s"] = time.perf_counter() - t_claim
    facts = replacement.facts
    if facts["ids"] != victim.facts["ids"]:
        failures.append("the replacement's simulated Discord has other ids than the original's")
    expected = await open_tables_of_shard(url, P, 0)
    if facts["loaded"] != expected:
        failures.append(f"replacement loaded {facts['loaded']}, the shard's open tables are "
                        f"{expected}")
    failures += [f"resumed {u}" for u in facts["unequal"]]
    # a channel's table as the replacement found it: the same as the original's, or
    # none when that table's game ended while the original played on (it is closed)
    other = {channel: (was, now) for channel, was in victim.facts["tables"].items()
             if (now := facts["tables"].get(channel)) != was and (now is not None
                                                                 or was in expected)}
    if other:
        failures.append(f"the replacement found other tables in the channels: {other}")
    out["resumed_tables"] = len(expected)
    await replacement.say("GO")
    replacement.done = await replacement.expect("DONE")
    out["replacement_interactions"] = replacement.done["interactions"]
    if replacement.done["interactions"] == 0 and expected:
        failures.append("play did not continue after the resume")
    return refused, replacement


async def finish(procs: list[Proc], replacement: Proc, failures: list[str],
                 timeout: float) -> None:
    """Stop the live processes; collect their own checks."""
    for p in procs[1:]:
        await p.expect("PLAYED", timeout=timeout)
    for p in [*procs[1:], replacement]:
        await p.say("STOP")
        p.result = await p.expect("RESULT")
        await p.process.wait()
        failures += [f"{p.name}: {x}" for x in p.result["problems"]]
        if p.result["n_errors"]:
            failures.append(f"{p.name}: {p.result['n_errors']} bot errors, e.g. "
                            f"{p.result['errors'][:2]}")


async def parent(args: argparse.Namespace) -> int:
    from bot.storage.pgserver import start_server

    logs = Path(args.logs) if args.logs else Path(tempfile.mkdtemp(prefix="commerce-load-"))
    logs.mkdir(parents=True, exist_ok=True)
    run = Run(args, logs)
    failures: list[str] = []
    out: dict[str, Any] = {"processes": args.processes, "tables_per_process": args.tables,
                           "guilds_per_process": args.guilds,
                           "interactions_per_process": args.interactions,
                           "durable": not args.fast_pg}
    t_run = time.perf_counter()
    server = start_server(durable=not args.fast_pg)
    try:
        base: dict[str, dict[str, Any]] = {}
        if not args.no_baselines:
            base["sqlite"] = await single(run, "single-sqlite", url=None, count=None,
                                          sqlite=logs / "single.db")
            base["postgres"] = await single(run, "single-postgres",
                                            url=await make_database(server, "single"), count=1,
                                            sqlite=None)
            failures += [f"baseline {k}: {v['errors']} errors or unequal tables"
                         for k, v in base.items() if v["errors"]]
        url = await make_database(server, "sharded")
        procs = await sharded_play(run, url, out)
        refused, replacement = await faults(run, url, procs, out, failures)
        await finish(procs, replacement, failures, args.fault_seconds + 300)
        owned, facts = ownership([*procs, replacement], args.processes, refused, procs[0],
                                 replacement)
        failures += owned
        problems, out["stored"] = await database_checks(url)
        failures += problems
        out.update(facts)
        if args.probe_seconds > 0:
            out["pg_commits_per_s"] = await commit_capacity(server, args.processes,
                                                            args.probe_seconds)
    finally:
        server.stop()
    figures(out, base)
    out["failures"] = len(failures)
    out["run_s"] = time.perf_counter() - t_run
    report(out, failures, logs)
    return 1 if failures else 0


def figures(out: dict[str, Any], base: dict[str, dict[str, Any]]) -> None:
    """Rates and ratios from the counts (same run)."""
    per = out["per_process_per_s"]
    out["per_process_median_per_s"] = statistics.median(per.values())
    out["total_per_s"] = rate(out["total_interactions"], out["window_s"])
    out["commits_per_interaction"] = out["commits"] / max(out["total_interactions"], 1)
    out["commits_per_s"] = rate(out["commits"], out["window_s"])
    for k, v in base.items():
        out[f"single_{k}_per_s"] = rate(v["interactions"], v["seconds"])
        out[f"single_{k}_work_ms_per_interaction"] = 1000 * v["work_s"] / max(v["interactions"], 1)
        out[f"total_vs_single_{k}"] = out["total_per_s"] / out[f"single_{k}_per_s"]
        out[f"per_process_vs_single_{k}"] = (out["per_process_median_per_s"]
                                             / out[f"single_{k}_per_s"])


async def open_tables_of_shard(url: str, count: int, shard: int) -> list[int]:
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        rows = await conn.fetch("SELECT id, guild_id FROM tables WHERE status IN ('lobby',"
                                " 'playing') ORDER BY id")
    finally:
        await conn.close()
    return [r[0] for r in rows if (r[1] >> 22) % count == shard]


def report(out: dict[str, Any], failures: list[str], logs: Path) -> None:
    import discord
    import simcord

    P = out["processes"]
    print(f"Commerce sharded load · {P} bot processes on one PostgreSQL "
          f"({'durable' if out['durable'] else 'fsync off'}) · SimCord {simcord.__version__} · "
          f"discord.py {discord.__version__} · Python {sys.version.split()[0]} · "
          f"{os.cpu_count()} CPU")
    print(f"Each process: {out['tables_per_process']} tables (1 human + 2 AI seats) in "
          f"{out['guilds_per_process']} guilds of its shard, {out['interactions_per_process']} "
          f"interactions; storage {out['storage']}.")
    print("\n1. Throughput (interactions / wall second of play, simulated Discord included)")
    for name, r in out["per_process_per_s"].items():
        print(f"   {name:<24}{r:8.1f} /s")
    print(f"   {'all ' + str(P) + ' together':<24}{out['total_per_s']:8.1f} /s   "
          f"({out['total_interactions']} in {out['window_s']:.1f} s)")
    for k in ("sqlite", "postgres"):
        if f"single_{k}_per_s" in out:
            print(f"   1 process on {k:<11}{out[f'single_{k}_per_s']:8.1f} /s   "
                  f"all together / this {out[f'total_vs_single_{k}']:.2f}, one shard process / "
                  f"this {out[f'per_process_vs_single_{k}']:.2f}")
    print(f"   bot's own work per interaction (service, engine, database, rendering, pictures): "
          f"{out['work_ms_per_interaction']:.1f} ms sharded"
          + "".join(f", {out[f'single_{k}_work_ms_per_interaction']:.1f} ms on 1 {k} process"
                    for k in ("sqlite", "postgres") if f"single_{k}_per_s" in out))
    print(f"   Discord requests of the bot's token (its global limit: about 50 a second for "
          f"every process together): {out['requests_per_interaction']:.2f} per interaction")
    print(f"   PostgreSQL: {out['commits']} transactions committed in the sharded play, "
          f"{out['commits_per_interaction']:.2f} per interaction, {out['commits_per_s']:.0f}/s"
          + (f"; the server's capacity, {P} writers of small transactions: "
             f"{out['pg_commits_per_s']:.0f} commits/s" if "pg_commits_per_s" in out else ""))
    print("\n2. Faults")
    print(f"   shard 0 killed (SIGKILL) mid-deal after {out['killed_after_interactions']} "
          f"interactions")
    print(f"   a second process for shard 1 was refused: {out['refusal']}")
    print(f"   the replacement claimed shard 0 and was ready in {out['replacement_ready_s']:.1f} s "
          f"(attempt {out['replacement_attempts']}), resumed {out['resumed_tables']} open "
          f"tables (each equal to the replay of its record), then made "
          f"{out['replacement_interactions']} interactions")
    s = out["stored"]
    print(f"\n3. Checks: {s['games']} games replayed against their records, {s['guilds']} guild "
          f"ledgers, {out['tables_served']} tables' servers; {s['actions']} actions, "
          f"{s['ledger_rows']} ledger rows stored")
    if failures:
        print(f"   FAILED ({len(failures)}):")
        for f in failures[:20]:
            print(f"   - {f}")
    else:
        print("   all passed: every game equals the replay of its record, every ledger sums to "
              "minus its open pots, no table served by two processes")
    print(f"\nTotal run {out['run_s']:.1f} s; worker logs in {logs}. Reproduce: {COMMAND} "
          f"--processes {P} --tables {out['tables_per_process']} --guilds "
          f"{out['guilds_per_process']} --interactions {out['interactions_per_process']}")
    figures = {k: v for k, v in out.items()
               if isinstance(v, int | float) and not isinstance(v, bool)}
    for name, r in out["per_process_per_s"].items():
        figures[f"{name.replace('-', '_')}_per_s"] = r
    print("BENCH-JSON " + json.dumps({"scaling": figures}))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="mode")
    w = sub.add_parser("worker", help="(internal) one bot process")
    w.add_argument("--slot", type=int, required=True)
    w.add_argument("--role", required=True)
    w.add_argument("--served", required=True)
    w.add_argument("--sqlite", required=True)
    w.add_argument("--resume", action="store_true")
    w.add_argument("--incarnation", type=int, default=0)
    for p in (parser, w):
        p.add_argument("--tables", type=int, default=12, help="tables per process")
        p.add_argument("--guilds", type=int, default=3, help="guilds per process")
        p.add_argument("--interactions", type=int, default=400,
                       help="interactions each process makes in the measured phase")
        p.add_argument("--seed", type=int, default=1)
    parser.add_argument("--processes", type=int, default=2, choices=(2, 3, 4))
    parser.add_argument("--kill-after", type=int, default=10,
                        help="interactions the victim makes after the measured phase before "
                             "it is killed at the next mid-deal moment")
    parser.add_argument("--fault-seconds", type=float, default=5.0,
                        help="seconds the other processes keep playing during the faults")
    parser.add_argument("--probe-seconds", type=float, default=3.0,
                        help="seconds of the PostgreSQL commit-rate probe (0: none)")
    parser.add_argument("--fast-pg", action="store_true",
                        help="run PostgreSQL without fsync (default: durable, as in production)")
    parser.add_argument("--no-baselines", action="store_true",
                        help="skip the 1-process SQLite and PostgreSQL runs")
    parser.add_argument("--logs", help="folder for the workers' logs (default: a new temp one)")
    args = parser.parse_args()
    if args.mode == "worker":
        return asyncio.run(worker(args))
    return asyncio.run(parent(args))


if __name__ == "__main__":
    sys.exit(main())
