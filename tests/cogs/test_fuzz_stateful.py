"""Issue 3 proof, as a hypothesis state machine through SimCord: members do random
commands, clicks (stale ones included), selects, double clicks and concurrent events,
and time passes; the invariants are checked after every step."""

from __future__ import annotations

import asyncio
import random
import shutil
import tempfile
from pathlib import Path

import simcord
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from bot import create_bot
from tests.cogs.fuzz import FuzzReport, _step, check_invariants
from tests.profiles import examples

ROLLS = {"click": 0.2, "select": 0.5, "race": 0.7, "command": 0.8, "wait": 0.95}


class TableFuzz(RuleBasedStateMachine):
    """One table of three members (and an outsider) in a fresh simulated Discord."""

    def __init__(self) -> None:
        super().__init__()
        self.loop = asyncio.new_event_loop()
        self.folder = Path(tempfile.mkdtemp(prefix="commerce-stateful-"))
        self.bot = create_bot(db_path=self.folder / "commerce.db", rng=random.Random(1),
                              cooldown=None, ai_pace=0)
        self.queue: asyncio.Queue = asyncio.Queue()
        self.report = FuzzReport()
        self.selects: list = []
        # SimCord keeps per-run state in context variables: every step runs inside one
        # long-lived driver task that holds the simulated Discord open.
        ready = self.loop.create_future()
        self.driver = self.loop.create_task(self._drive(ready))
        self.loop.run_until_complete(ready)
        self.run(self._setup)

    async def _drive(self, ready: asyncio.Future) -> None:
        async with simcord.run(self.bot) as env:
            self.env = env
            ready.set_result(None)
            while True:
                work, done = await self.queue.get()
                if work is None:
                    break
                try:
                    done.set_result(await work())
                except BaseException as exc:  # handed to the calling step
                    done.set_exception(exc)
        await self.bot.close_storage()

    def run(self, work):
        done = self.loop.create_future()
        self.queue.put_nowait((work, done))
        return self.loop.run_until_complete(done)

    async def _setup(self) -> None:
        env = self.env
        guild = env.create_guild()
        general = guild.create_text_channel("general")
        self.members = [guild.add_member(env.create_user(n)) for n in ("ann", "ben", "cat", "dan")]
        await self.members[0].slash(general, "commerce new")
        self.table = guild.channels["commerce-1"]
        for m in self.members[1:3]:
            await m.slash(self.table, "commerce join")
        await self.members[0].slash(self.table, "commerce start")

    def _do(self, kind: str, who: int, seed: int) -> None:
        rng = random.Random(seed)
        member = self.members[who]

        async def step() -> list:
            try:
                return await _step(self.env, self.bot, self.table, member, self.members,
                                   ROLLS[kind], rng, self.selects, self.report)
            except simcord.SetupError:
                return []  # that control is not there for this member

        for res in self.run(step):
            self.report.interactions += 1
            assert res.acknowledged, "every interaction is acknowledged"

    @rule(who=st.integers(0, 3), seed=st.integers(0, 2**16))
    def click(self, who: int, seed: int) -> None:
        self._do("click", who, seed)

    @rule(who=st.integers(0, 3), seed=st.integers(0, 2**16))
    def choose_card(self, who: int, seed: int) -> None:
        self._do("select", who, seed)

    @rule(who=st.integers(0, 3), seed=st.integers(0, 2**16))
    def race(self, who: int, seed: int) -> None:
        self._do("race", who, seed)

    @rule(who=st.integers(0, 3), seed=st.integers(0, 2**16))
    def command(self, who: int, seed: int) -> None:
        self._do("command", who, seed)

    @rule(seed=st.integers(0, 2**16))
    def time_passes(self, seed: int) -> None:
        self._do("wait", 0, seed)

    @invariant()
    def nothing_breaks(self) -> None:
        errors = self.env.errors
        assert not errors, errors
        check_invariants(self.bot, self.report)

    def teardown(self) -> None:
        self.queue.put_nowait((None, None))
        try:
            self.loop.run_until_complete(self.driver)
        finally:
            self.loop.close()
            shutil.rmtree(self.folder, ignore_errors=True)


TableFuzz.TestCase.settings = settings(
    max_examples=examples(5, thorough=100), stateful_step_count=30, deadline=None,
    suppress_health_check=[HealthCheck.too_slow])
test_table_fuzz_state_machine = TableFuzz.TestCase
