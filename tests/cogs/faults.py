"""Systematic fault injection through SimCord, in the spirit of SQLite's own I/O-error
tests: play a scripted game and make the N-th commit fail, for a chosen N.

After the fault, every step checks what a player and an admin would: the member who
acted got an answer (never silence, never a traceback), memory equals what storage
holds, and the table goes on — by itself (the watch), on the next click, or after a
restart. At the end the game is complete and equals the replay of its stored record,
and the server ledger sums to zero.

Used by tests/cogs/test_faults.py (a seeded sample) and scripts/faults.py (every N).
"""

from __future__ import annotations

import dataclasses
import random
import sqlite3
from collections import Counter
from dataclasses import dataclass, field

import asyncpg

from bot.engine import replay
from bot.service import TableService
from bot.storage import PgStorage
from bot.timers.clock import WATCH_EVERY
from tests.cogs.helpers import answer_text, custom_ids, history, restart

#: the scripted games: one preset of each rule family, short enough to repeat often
GAMES = {
    "trade": ("foster", {"deals_per_player": 1}),
    "widow": ("widow", {"deals_per_player": 1}),
    "discard": ("jaques", {"fixed_rounds": 2}),
}
#: exchange moves are chosen more often than the moves that end a turn for good
WEIGHTS = {"trade": 3, "barter": 2, "swap": 3, "take_discard": 2, "draw": 3, "offer": 1,
           "knock": 1, "stand": 1, "pass": 1, "keep_hand": 1, "take_widow": 1,
           "decline_horse": 1, "buy_horse": 1, "accept": 3, "refuse": 1, "decline": 1}
STEP_CAP = 400


class Injector:
    """Makes the ``fail_at``-th commit (counting across restarts) raise the error
    SQLite gives for a failed write; ``None`` only counts."""

    def __init__(self, fail_at: int | None) -> None:
        self.fail_at = fail_at
        self.commits = 0
        self.fired = False

    def install(self, storage) -> None:
        original = storage._commit

        def commit(conn):
            self.commits += 1
            if self.commits == self.fail_at:
                self.fired = True
                raise sqlite3.OperationalError("disk I/O error")
            original(conn)

        async def commit_pg(tx):  # PgStorage (COMMERCE_TEST_BACKEND=postgres): the same fault
            self.commits += 1
            if self.commits == self.fail_at:
                self.fired = True
                raise asyncpg.DiskFullError("could not extend file: No space left on device")
            await original(tx)

        storage._commit = commit_pg if isinstance(storage, PgStorage) else commit


@dataclass
class FaultOutcome:
    family: str
    fail_at: int | None
    commits: int = 0
    fired: bool = False
    #: how the fault showed: "told" (the member was told nothing changed),
    #: "silent" (a background or cosmetic write: logged, retried), "none"
    seen: str = "none"
    steps: int = 0
    watch_waits: int = 0
    restarts: int = 0
    answers: int = 0
    complete: bool = False
    problems: list[str] = field(default_factory=list)
    last_answers: list[str] = field(default_factory=list)


async def memory_matches_storage(bot, table_id: int) -> str | None:
    """``None`` when the bot's memory of the table equals a rebuild from storage."""
    service = bot.service
    row = await bot.storage.get_table(table_id)
    live = service.tables.get(table_id)
    if live is None:
        if row.status in ("lobby", "playing") and table_id not in service.stale:
            return f"table {table_id} is open in storage but not in memory"
        return None
    again = await TableService(bot.storage)._reload(table_id)
    if again.row.status != live.row.status:
        return f"status {live.row.status} in memory, {again.row.status} stored"
    if _durable(again.row) != _durable(live.row):  # message ids are cosmetic (kept in memory)
        return f"row {live.row} in memory, {again.row} stored"
    if shuffled(live) != shuffled(again):
        return "the game seed, the shuffle log or the burned attempts differ"
    seats = [(s.member_id, s.away, s.gone, s.timeouts) for s in live.seats]
    if seats != [(s.member_id, s.away, s.gone, s.timeouts) for s in again.seats]:
        return "seats differ"
    if (live.game is None) != (again.game is None):
        return "game differs"
    if live.game is not None:
        if live.deal_number != again.deal_number:
            return f"{live.deal_number} deals in memory, {again.deal_number} stored"
        if live.game.summary() != again.game.summary():
            return "game state differs"
        if live.deal is not None and live.deal.operations != again.deal.operations:
            return "operations differ"
    return None


def shuffled(live) -> tuple:
    """All a table keeps of its shuffle: the game seed, the shuffle log (without the
    storage's ids) and each deal's attempt and the burned ones."""
    log = None if live.game is None else live.game.shuffle_log
    return (live.game_seed,
            [(e.kind, e.deal_number, e.member_id, e.attempt, e.text, e.cuts) for e in live.events],
            None if log is None else (log.attempts, log.burned))


def _durable(row):
    return dataclasses.replace(row, lobby_message_id=None, table_message_id=None,
                               offer_key=None, offer_message_id=None)


def _options(result) -> list[str]:
    if result.response is None:
        return []
    return [o["value"] for row in result.response.components for c in row["components"]
            for o in c.get("options", [])]


async def faulty_game(env, bots, make_bot, family: str, fail_at: int | None, *,
                      seed: int = 1, restart_after_fault: bool = False) -> FaultOutcome:
    """Play one game of ``family`` (1 member, 2 AI seats) with the ``fail_at``-th
    commit failing; returns what happened (``problems`` empty when all held)."""
    run = FaultyRun(env, make_bot, family, fail_at, seed, restart_after_fault)
    if not await run.open_table():
        return run.out
    await run.fill_lobby()
    while run.out.steps < STEP_CAP:
        run.out.steps += 1
        if await run.step():
            break
    else:
        run.out.problems.append(f"stuck: no end after {STEP_CAP} steps")
    await run.check_end()
    return run.out


class FaultyRun:
    """One game of ``faulty_game``, step by step: member ann plays against two AI
    seats while the ``fail_at``-th commit fails."""

    def __init__(self, env, make_bot, family: str, fail_at: int | None, seed: int,
                 restart_after_fault: bool) -> None:
        self.env = env
        self.make_bot = make_bot
        self.seed = seed
        self.restart_after_fault = restart_after_fault
        self.rng = random.Random(seed)
        self.out = FaultOutcome(family, fail_at)
        self.faults = Injector(fail_at)
        self.faults.install(env.bot.storage)
        self.preset, self.options = GAMES[family]
        self.guild = env.create_guild()
        self.general = self.guild.create_text_channel("general")
        self.ann = self.guild.add_member(env.create_user("ann"))
        self.table_id = None
        self.channel = None

    async def interact(self, call):
        """One interaction by ann, checked: it is answered, without a traceback."""
        out = self.out
        before = self.faults.fired
        res = await call()
        out.answers += 1
        text = answer_text(res)
        self.env.errors  # noqa: B018 — a failure is answered and logged, read here
        if not res.acknowledged:
            out.problems.append(f"step {out.steps}: no answer")
        if "Traceback" in text or "Error" in text:
            out.problems.append(f"step {out.steps}: answer shows an error: {text!r}")
        if self.faults.fired and not before:
            out.seen = "told" if "nothing changed" in text else "silent"
        out.last_answers = [*out.last_answers[-4:], text]
        return res

    async def open_table(self) -> bool:
        """The lobby: a failed write here is answered and simply tried again.
        ``False`` (with a problem noted) when no table could be opened."""
        bot, ann = self.env.bot, self.ann
        for _ in range(3):
            await self.interact(lambda: ann.slash(self.general, "commerce new", rules=self.preset,
                                                  **self.options))
            live = bot.service.of_member(self.guild.id, ann.id)
            if live is not None:
                self.table_id = live.id
                break
        if self.table_id is None:
            self.out.problems.append("no table could be opened")
            return False
        channel = bot.get_channel(bot.service.tables[self.table_id].row.channel_id)
        self.channel = self.guild.channels[channel.name]
        return True

    async def fill_lobby(self) -> None:
        """Add AI, Add AI, Start: each pressed up to three times until it took."""
        bot, table_id = self.env.bot, self.table_id
        for label in ("Add AI", "Add AI", "Start"):
            for _ in range(3):
                lobby = next(m for m in history(self.env, self.channel) if m.embeds and m.components)
                before = len(bot.service.tables[table_id].seats)
                started = bot.service.tables[table_id].row.status == "playing"
                await self.interact(lambda lobby=lobby, label=label: self.ann.click(lobby, label=label))
                live = bot.service.tables[table_id]
                if (label == "Start" and live.row.status == "playing") or (
                        label == "Add AI" and len(live.seats) > before) or started:
                    break

    async def wait(self, seconds: float) -> None:
        """Let ``seconds`` of virtual time pass for the watch to act."""
        self.out.watch_waits += 1
        await self.env.advance_time(seconds)

    async def step(self) -> bool:
        """One step of play after the checks; ``True`` when the game is over or a
        problem stops it."""
        out = self.out
        bot = self.env.bot
        problem = await memory_matches_storage(bot, self.table_id)
        if problem:
            out.problems.append(f"step {out.steps}: {problem}")
            return True
        if self.restart_after_fault and self.faults.fired and out.restarts == 0:
            new = self.make_bot(seed=self.seed)
            await restart(self.env, new)
            self.faults.install(new.storage)
            out.restarts += 1
            return False
        live = bot.service.tables.get(self.table_id)
        if live is None:
            if self.table_id in bot.service.stale:
                await self.wait(WATCH_EVERY + 1)
                return False
            return True  # the game is over (or the table closed)
        deal = live.deal
        if deal is None:
            await self.wait(WATCH_EVERY + 1)
            return False
        if deal.finished:
            await self.after_showdown(live)
            return False
        if live.is_ai(deal.to_act):  # owed to an AI seat: the watch must take it
            await self.wait(WATCH_EVERY + 1)
            return False
        return await self.move(live)

    async def after_showdown(self, live) -> None:
        """Mostly press Next deal on the showdown; else wait for the timer."""
        showdown = next((m for m in reversed(history(self.env, self.channel))
                         if m.embeds and (m.embeds[0].title or "").startswith("Showdown")
                         and m.components), None)
        if showdown is not None and self.rng.random() < 0.7:
            await self.interact(lambda m=showdown: self.ann.click(m, label="Next deal"))
        else:
            await self.wait(live.row.next_deal_delay + WATCH_EVERY + 1)

    async def move(self, live) -> bool:
        """Ann's move: a weighted random control of the current deal, then the
        selects it opens; ``True`` when she has no control to act with."""
        out, rng, ann = self.out, self.rng, self.ann
        current = [m for m in history(self.env, self.channel) if any(
            f":{live.deal_number}:" in c for c in custom_ids(m) if c.startswith(
                ("commerce:play:", "commerce:answer:")))]
        # the table message first, as a player would; else the newest with controls
        message = next((m for m in current if m.id == live.row.table_message_id),
                       current[-1] if current else None)
        if message is None:
            await self.wait(WATCH_EVERY + 1)
            return False
        moves = [c for c in custom_ids(message)
                 if c.rsplit(":", 1)[-1] in WEIGHTS and f":{live.deal_number}:" in c]
        if not moves:
            out.problems.append(f"step {out.steps}: no control for the member to act")
            return True
        cid = rng.choices(moves, weights=[WEIGHTS[c.rsplit(":", 1)[-1]] for c in moves])[0]
        res = await self.interact(lambda m=message, c=cid: ann.click(m, custom_id=c))
        for _ in range(2):  # a card select, then (large tables) the player to offer to
            values = [v for v in _options(res) if v != "?"]
            if not values or not res.response.ephemeral:
                break
            res = await self.interact(lambda r=res, v=rng.choice(values): ann.select(r.response, [v]))
        return False

    async def check_end(self) -> None:
        """The game finished, and equals the replay of its stored record."""
        out, faults = self.out, self.faults
        out.commits, out.fired = faults.commits, faults.fired
        bot = self.env.bot
        row = await bot.storage.get_table(self.table_id)
        out.complete = row.status == "finished"
        if not out.complete and not out.problems:
            out.problems.append(f"the game did not finish (status {row.status})")
        if out.complete:
            live = bot.service.in_channel(self.channel.id)
            record = await bot.service.archive.record(self.table_id)
            finished = live or await TableService(bot.storage)._reload(self.table_id)
            problem = await differs_from_replay(finished, record, bot.storage, self.guild.id)
            if problem:
                out.problems.append(problem)


async def differs_from_replay(live, record, storage, guild_id: int) -> str | None:
    """``None`` when the live game equals the replay of its stored record, every
    seat's ledger (AI seats too) equals the replayed one, and the server ledger
    sums to zero."""
    replayed = replay(record)
    if replayed.summary() != live.game.summary() or not replayed.complete:
        return "the live game differs from the replay of its record"
    async with storage._read() as db:  # the storage's own connection: either backend
        rows = {r[0]: r[1] for r in await storage._all(
            db, "SELECT seat, SUM(amount) FROM ledger WHERE table_id = ?"
            " AND reason NOT IN ('reset', 'reset-pot') GROUP BY seat", (live.id,))}
    if [rows.get(s, 0) for s in range(len(live.seats))] != list(replayed.ledger):
        return f"stored ledger {rows} differs from the replayed {replayed.ledger}"
    total = await storage.guild_ledger_sum(guild_id)
    if total != 0:
        return f"the server ledger sums to {total}"
    return None


def tally(outcomes: list[FaultOutcome]) -> Counter[str]:
    """Counts for docs/RELIABILITY.md: faults fired, how they showed, problems."""
    c: Counter[str] = Counter()
    for o in outcomes:
        c["games"] += 1
        c["faults fired"] += o.fired
        c[f"seen: {'background' if o.seen == 'none' else o.seen}"] += o.fired
        c["restarts"] += o.restarts
        c["games complete"] += o.complete
        c["games with a problem"] += bool(o.problems)
    return c
