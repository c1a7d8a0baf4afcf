"""Benchmark the Discord layer: the real bot against SimCord with 100 open tables.

Run from the repository root (about 70 s on 2 cores)::

    .venv/bin/python scripts/bench_bot.py
    .venv/bin/python scripts/bench_bot.py --tables 20 --interactions 400   # quicker

It prints figures and asserts nothing; its last line, ``BENCH-JSON {"bot": {...}}``,
holds the headline figures for ``scripts/bench``. Everything happens in ONE SimCord run
(``async with simcord.run(bot)``), in-process, with a throw-away SQLite file.

1. Guilds of 10 tables (the default limit) with ``table_mode="here"``, ``next_deal_delay=0`` and
   ``turn_timer=0`` (no timers: nothing moves unless a member clicks; an armed
   turn timer is also a sleeping task SimCord rescans at every settle step), N text
   channels and N members. In each channel a member runs ``/commerce new``,
   presses **Add AI** twice and **Start**: 1 human + 2 AI seats. Memory per
   table = tracemalloc difference around this phase / N (two warm-up tables,
   closed again, absorb the one-time costs; the card sprites drawn in the
   background at start, ``bot.ui.media.warm_up``, are awaited first).
2. The script (never the project) registers a no-op ``DynamicItem`` button
   whose callback only does ``await interaction.response.defer()``; the bot
   posts one message carrying it in every channel.
3. A first round as the bot runs today (see "select views"): at a few tables
   under tracemalloc, for the memory a live select view holds, then at the
   others for throughput while the views pile up.
4. The measured rounds: at every table **My hand**, then **Trade** + card
   select (twice a deal), **Knock**, barter answers (**Accept** + select) and
   **Next deal**, through the real buttons and selects. After each table's
   turn the no-op button is clicked as many times, in the same conditions.
   The last deal of each game is not played out, so every table stays open.

Bot's own work: the script wraps (in this process only) the public
``TableService`` methods, every function of ``bot.ui.render`` and
``bot.ui.media`` (the card pictures and their attachments), ``bot.ui.panel.build``
(a player's panel: hand picture, text and buttons) and the view/component
builders the control handlers and the publisher use with a timer that counts
only the outermost call. Their sum during one click is the bot's work for that
interaction: lock, engine step, AI turns, SQLite commit (aiosqlite thread round
trip included) and rendering (embeds, texts, views and pictures). The pictures
and panels are also summed on their own ("pictures" column). Until issue 9 the
pictures and panels were not timed: figures from before then leave them out.
Not included: discord.py's parsing
and dispatch (the no-op pays it too) and the simulated Discord. The control
handlers (``bot.interactions.handlers``) are timed too ("handler": includes their calls to
the simulated Discord API).

Database calls and the exact figures (section 1b): the script counts, per click,
the bot's calls to aiosqlite's thread and the COMMITs, and prints the work of the
state changes twice: as above ("old": a database call charged its whole wait) and
"exact": less the event loop's time on the harness's callbacks (SimCord's settle
polls and task inspection, the driver) while the bot's work waited for a database
call (``count_database``). The thread's work, the fsync, the hand-offs and the
bot's own tasks stay in both.

The cyclic garbage collector (``gc.callbacks``): its time per click, and the part
that fell in the bot's work, and every full collection of the measured rounds, in
section 1b. As in ``python -m bot``, the start freezes what it loaded
(``freeze_loaded``: ``gc.freeze``); the tables the script opens come later.

Throughput = interactions / summed SimCord round trips of the clicks (the
driver's own bookkeeping between clicks is left out), bot and no-op alike.

SimCord settings and why:
- settle poll 1 ms instead of 50: SimCord's actors settle with ``idle=0.05``
  and, after a light handler, sleep that whole poll before returning, so any
  light click costs >= 50 ms (~20/s, bot or no-op alike). The script lowers
  the poll (same knob as ``env.settle(idle=...)``); a short sample with the
  stock poll is reported too.
- select views: discord.py gives a ``timeout=None`` view sent in an
  ephemeral response a 15-minute timeout, so every Trade/Barter/Accept select
  stays a live timed view for 15 minutes, and SimCord rescans each live timed
  view at every settle step (a known SimCord performance trap). The measured
  rounds move virtual time 15 minutes after a table's turn that left such a
  view alive, so it expires (since the panels send their controls in stopped
  views, none is left and time does not move); the first round shows the cost
  when they do not expire.
- settle timeout 60 s instead of 5: on a loaded machine a click such as Start
  could outlast SimCord's 5 s and stop the run; every figure is per click.
- ``create_bot(cooldown=None)``: the per-member limit (12 clicks per 10 real
  seconds) would answer the benchmark's rapid clicks with "Slow down".
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import inspect
import io
import json
import os
import random
import re
import statistics
import sys
import tempfile
import time
import tracemalloc
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import discord  # noqa: E402
import simcord  # noqa: E402

from bot import create_bot  # noqa: E402
from bot.ui import media, panel, render  # noqa: E402

COMMAND = ".venv/bin/python scripts/bench_bot.py"


# ---------------------------------------------------------------- timing
#: the clocks of the bot's work and of a click: wall time (``--clock wall``, the
#: default), or CPU time (``--clock cpu``: the event loop thread's CPU time for the
#: work, the whole process's, aiosqlite's thread included, for a click), which
#: other processes on a shared machine disturb far less
CLOCKS: dict[str, Any] = {"work": time.perf_counter, "click": time.perf_counter}


class Meter:
    """Sums the wall time of the outermost timed call (nested calls are not re-counted)."""

    def __init__(self) -> None:
        self.depth = 0
        self.total = 0.0
        self.started = 0.0  # when the outermost call running now began
        self.ended = 0.0    # when the latest outermost call ended

    def so_far(self) -> float:
        """``total`` plus the part of the outermost call running now."""
        return self.total + (CLOCKS["work"]() - self.started if self.depth else 0.0)

    def wrap(self, fn: Any) -> Any:
        meter = self
        if inspect.iscoroutinefunction(fn):
            async def timed_async(*args: Any, **kwargs: Any) -> Any:
                if meter.depth:
                    return await fn(*args, **kwargs)
                meter.depth += 1
                start = meter.started = CLOCKS["work"]()
                try:
                    return await fn(*args, **kwargs)
                finally:
                    meter.ended = CLOCKS["work"]()
                    meter.total += meter.ended - start
                    meter.depth -= 1
            return timed_async

        def timed(*args: Any, **kwargs: Any) -> Any:
            if meter.depth:
                return fn(*args, **kwargs)
            meter.depth += 1
            start = meter.started = CLOCKS["work"]()
            try:
                return fn(*args, **kwargs)
            finally:
                meter.ended = CLOCKS["work"]()
                meter.total += meter.ended - start
                meter.depth -= 1
        return timed


WORK = Meter()      # service + render + pictures + view building
PICTURES = Meter()  # the card pictures and panels alone (also in WORK)
HANDLER = Meter()   # the control handler coroutines (includes simulated Discord API calls)

SERVICE_METHODS = ("act", "verify", "observation", "next_deal", "start", "add_ai", "join",
                   "create", "leave", "end", "posted", "get", "in_channel", "of_member",
                   "settings")
PLAY_BUILDERS = ("table_view", "lobby_view", "view_of", "CardSelect", "AnswerButton",
                 "answer_buttons", "NextDealButton")
PLAY_HANDLERS = ("on_lobby", "on_play", "on_answer", "on_card", "on_next")

#: ``--profile``: where the cProfile of the measured rounds goes (``None``: not profiled)
PROFILE: dict[str, str | None] = {"file": None}

#: the click being measured: when it started, and the bot's work (``WORK``) and
#: the wall time since the start when the bot first answered its interaction
ANSWER: dict[str, float | None] = {"start": 0.0, "work": None, "wall": None, "exact": None}


def watch_answers() -> None:
    """Note, at the first answer to each interaction (``InteractionResponse``'s
    send_message, edit_message, defer or send_modal), the bot's work so far: what
    the clicking member waits for. What follows the answer (the public table
    message and its picture, other players' panels) is the rest of the work."""
    for name in ("send_message", "edit_message", "defer", "send_modal"):
        original = getattr(discord.InteractionResponse, name)

        async def answered(self: Any, *args: Any, __original: Any = original,
                           **kwargs: Any) -> Any:
            if ANSWER["work"] is None:
                ANSWER["work"] = so_far = WORK.so_far()
                ANSWER["exact"] = so_far - DATABASE["lag"]
                ANSWER["wall"] = CLOCKS["click"]() - (ANSWER["start"] or 0.0)
            return await __original(self, *args, **kwargs)
        setattr(discord.InteractionResponse, name, answered)


#: the click being measured, as ``count_database`` sees it: its calls to the database
#: thread (round trips), the commits made there, and (wall clock) ``lag``: the event
#: loop's time on the harness's callbacks (SimCord, the driver) while the bot's work
#: awaited a database call, taken out of the exact figures
DATABASE: dict[str, float] = {"calls": 0, "commits": 0, "lag": 0.0, "wait": 0.0, "thread": 0.0}
#: database calls awaited now while ``WORK`` runs, and how many such awaits ended
AWAITING = {"calls": 0, "resumed": 0}
#: callbacks that are the database call's own hand-off back to the loop (its result
#: set from the thread, the loop woken up): real, so never counted as ``lag``
HAND_OFF = frozenset({"set_result", "set_exception", "_read_from_self"})


def count_database(storage: Any) -> None:
    """Count the database calls and commits of each click, and meter their waits.

    A database call is one hand-off to aiosqlite's thread (``Storage._on_thread``):
    the bot's coroutine waits, and the event loop runs whatever else is ready (here
    SimCord's settle polls and task inspection, the benchmark's driver, and the
    bot's own drawing handed over by ``Storage.while_committing``) until it gets back
    to the bot. While the loop runs those, it also holds the GIL that the database
    thread needs between two statements, so they delay the call itself.

    - ``--clock wall``: the old figures keep the whole wait. The *exact* ones take
      out the loop's time on callbacks that are not the bot's (SimCord marks the
      bot's: ``__simcord_original_callback__``) nor the call's own hand-off
      (``HAND_OFF``), run while the bot's work awaited a database call: the wait as
      it would be with nothing else on the loop. The thread's work, the fsync, the
      hand-offs and the bot's own tasks meanwhile all stay.
    - ``--clock cpu``: the other tasks' CPU time is not the bot's; the call's own CPU
      time is, on that other thread. So every running meter is charged the thread's
      CPU time for the call instead of the loop thread's time meanwhile, keeping the
      loop time ``PICTURES`` counted during the call (the bot's own drawing). The
      exact figures are then the same as the others (``lag`` stays 0).
    """
    cls = type(storage)
    original = getattr(cls, "_on_thread", None)
    if original is None:
        return
    commit = getattr(cls, "_commit", None)
    if commit is not None:
        def counted_commit(self: Any, conn: Any) -> None:
            commit(self, conn)
            DATABASE["commits"] += 1
        cls._commit = counted_commit
    cpu = CLOCKS["work"] is time.thread_time
    if not cpu:
        meter_loop_lag()

    async def on_thread(self: Any, fn: Any) -> Any:
        spent, ran = [0.0], [0.0]

        def timed(conn: Any) -> Any:
            start, began = time.thread_time(), time.perf_counter()
            try:
                return fn(conn)
            finally:
                spent[0] = time.thread_time() - start
                ran[0] = time.perf_counter() - began
        DATABASE["calls"] += 1
        start, drawn, began = CLOCKS["work"](), PICTURES.so_far(), time.perf_counter()
        awaited = WORK.depth > 0
        if awaited:
            AWAITING["calls"] += 1
        try:
            return await original(self, timed)
        finally:
            if awaited:
                AWAITING["calls"] -= 1
                AWAITING["resumed"] += 1
                DATABASE["wait"] += time.perf_counter() - began  # wall time, either clock
                DATABASE["thread"] += ran[0]
            if cpu:
                own = PICTURES.so_far() - drawn  # the bot's drawing done meanwhile
                correction = spent[0] - (time.thread_time() - start - own)
                for meter in (WORK, PICTURES, HANDLER):
                    if meter.depth:
                        meter.total += correction
    cls._on_thread = on_thread


def meter_loop_lag() -> None:
    """Sum in ``DATABASE["lag"]`` the wall time of every event loop callback that is
    neither the bot's nor a database hand-off, run from start to end while the bot's
    work awaited a database call (``count_database``). Costs one check per callback."""
    original = asyncio.events.Handle._run
    if getattr(original, "metered", False):
        return

    def run(self: Any) -> None:
        callback = self._callback
        if (not AWAITING["calls"] or hasattr(callback, "__simcord_original_callback__")
                or getattr(callback, "__name__", "") in HAND_OFF):
            original(self)
            return
        resumed, start = AWAITING["resumed"], time.perf_counter()
        try:
            original(self)
        finally:
            if AWAITING["calls"] and AWAITING["resumed"] == resumed:  # waiting throughout
                DATABASE["lag"] += time.perf_counter() - start
    run.metered = True  # type: ignore[attr-defined]
    asyncio.events.Handle._run = run  # type: ignore[method-assign]


#: the cyclic garbage collector during the click being measured (``meter_collector``):
#: its time in all, and the part while the bot's work (``WORK``) ran; and, over the
#: measured rounds (``on``), every full collection's time
COLLECTOR: dict[str, Any] = {"time": 0.0, "work": 0.0, "started": 0.0, "on": False,
                             "full": []}


def meter_collector() -> None:
    """Time every collection of the cyclic garbage collector (``gc.callbacks``), in
    the work's clock: per click, in all and while the bot's work ran (a collection
    runs when allocations call for it, so it lands in whatever runs then); and
    every full collection (generation 2) of the measured rounds."""
    def timed(phase: str, info: dict[str, int]) -> None:
        now = CLOCKS["work"]()
        if phase == "start":
            COLLECTOR["started"] = now
            return
        spent = now - COLLECTOR["started"]
        COLLECTOR["time"] += spent
        if WORK.depth:
            COLLECTOR["work"] += spent
        if info["generation"] == 2 and COLLECTOR["on"]:
            COLLECTOR["full"].append(spent)
    gc.callbacks.append(timed)


def instrument(bot: Any) -> None:
    """Monkeypatch timers onto this process's bot (the project code is unchanged)."""
    service = bot.service
    count_database(service.storage)
    for name in SERVICE_METHODS:
        setattr(service, name, WORK.wrap(getattr(service, name)))
    for name, fn in list(vars(render).items()):
        if inspect.isfunction(fn) and fn.__module__ == render.__name__:
            setattr(render, name, WORK.wrap(fn))
    # the pictures (media: table, showdown, hand attachments) and the panels
    # (panel.build: hand picture, text and buttons), looked up through their modules
    for module, names in ((media, [n for n, f in vars(media).items()
                                   if inspect.isfunction(f) and f.__module__ == media.__name__]),
                          (panel, ["build"])):
        for name in names:
            setattr(module, name, WORK.wrap(PICTURES.wrap(getattr(module, name))))
    handlers = bot.handlers
    # the builders are looked up in the modules that call them: patch them there
    for obj in (handlers, bot.publisher):
        module = sys.modules[type(obj).__module__]
        for name in PLAY_BUILDERS:
            if callable(getattr(module, name, None)):  # the modules' imports may change
                setattr(module, name, WORK.wrap(getattr(module, name)))
    for name in PLAY_HANDLERS:
        setattr(handlers, name, HANDLER.wrap(getattr(handlers, name)))
    watch_answers()
    meter_collector()


def pct(values: list[float], q: float) -> float:
    """The q-quantile (0..1) by nearest rank."""
    s = sorted(values)
    return s[min(len(s) - 1, max(0, round(q * (len(s) - 1))))]


# ---------------------------------------------------------------- no-op control
class NoopButton(discord.ui.DynamicItem[discord.ui.Button], template=r"bench:noop:(?P<n>\d+)"):  # type: ignore[call-arg]
    """Benchmark baseline: a persistent button that only defers."""

    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label="No-op", custom_id=f"bench:noop:{n}"))
        self.n = n

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: Any,
                             match: re.Match[str]) -> NoopButton:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()


#: what the comparable baseline sends, drawn once from a real table (``predraw``):
#: texts, embed, views and PNG bytes; ``tables``: per channel, its stand-in table message
PREDRAWN: dict[str, Any] = {"tables": {}}


def predraw(bot: Any, live: Any) -> None:
    """Draw once, from one real table, everything a move's messages carry: the
    player's panel (text, hand picture, buttons) and the table message (text,
    embed, picture, buttons). The comparable baseline sends these, never redrawn."""
    from bot.ui.components import table_controls
    seat = live.seat_of(live.member_of(0)) if live.member_of(0) is not None else 0
    rendered = panel.build(live, seat)
    PREDRAWN.update(
        panel_text=rendered.content, panel_view=rendered.view, hand=rendered.picture,
        table_text=render.ping_text(live), table_view=table_controls(live),
        embed=media.attach(render.table_embed(live), media.TABLE_FILE),
        table=media.table_png(live))


class ComparableButton(discord.ui.DynamicItem[discord.ui.Button],
                       template=r"bench:same:(?P<n>\d+)"):  # type: ignore[call-arg]
    """Benchmark baseline doing a move's Discord work without any game logic:
    its answer edits the message it is on into a panel (text, hand picture,
    buttons), as a move's answer edits the player's panel, then it edits the
    channel's stand-in table message (text, embed, picture, buttons), as the
    publisher edits the table message. Everything it sends is pre-drawn once."""

    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label="Comparable", custom_id=f"bench:same:{n}"))
        self.n = n

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: Any,
                             match: re.Match[str]) -> ComparableButton:
        return cls(int(match["n"]))

    @staticmethod
    def panel_view(n: int) -> discord.ui.View:
        """The panel's buttons as the real panel shows them (same labels, styles,
        emoji; inert ids), and this baseline's own button to press again; stopped,
        as the bot's panel view is (``bot.ui.components.dynamic_view``), so that
        discord.py keeps no view for it (dispatched by id, as the bot's)."""
        view = discord.ui.View(timeout=None)
        # read from what the panel sends (its view may hold payloads, not items:
        # ``bot.ui.components.PanelControls``)
        sent = [(row, c) for row, r in enumerate(PREDRAWN["panel_view"].to_components())
                for c in r["components"]]
        for j, (row, c) in enumerate(sent):
            if c["type"] == 2 and len(view.children) < 24:
                emoji = c.get("emoji")
                view.add_item(discord.ui.Button(
                    label=c.get("label"), style=discord.ButtonStyle(c["style"]),
                    emoji=discord.PartialEmoji.from_dict(emoji) if emoji else None, row=row,
                    custom_id=f"bench:panel:{n}:{j}"))
        view.add_item(ComparableButton(n))
        view.stop()
        return view

    async def callback(self, interaction: discord.Interaction) -> None:
        art = PREDRAWN
        hand = discord.File(io.BytesIO(art["hand"]), filename=media.HAND_FILE)
        await interaction.response.edit_message(content=art["panel_text"], attachments=[hand],
                                                view=art["panel_views"][self.n])
        channel = interaction.channel
        assert channel is not None
        table = channel.get_partial_message(art["tables"][self.n])  # type: ignore[union-attr]
        await table.edit(content=art["table_text"], embed=art["embed"], view=art["table_view"],
                         attachments=[media.picture_file(art["table"])])


# ---------------------------------------------------------------- driving
def find_message(channel: Any, prefix: str) -> Any:
    """The newest message in ``channel`` with a component whose custom_id starts with ``prefix``."""
    for m in reversed(channel.history()):
        for row in m.components:
            for c in getattr(row, "children", ()):
                if (getattr(c, "custom_id", None) or "").startswith(prefix):
                    return m
    return None


def first_option(result: Any) -> str:
    for row in result.response.components:
        for comp in row.get("components", []):
            if comp.get("type") == 3:
                return comp["options"][0]["value"]
    raise RuntimeError(f"no select in the response: {result.response.content!r}")


class Seat:
    """One benchmark table: its channel, human actor and table id."""

    def __init__(self, channel: Any, actor: Any) -> None:
        self.channel = channel
        self.actor = actor
        self.table_id: int | None = None
        self.trades = 0          # trades in the current deal
        self.deal_seen = 0


#: the SimCord environment of the run, whose request log ``Recorder.run`` reads
ENV: dict[str, Any] = {}


class Recorder:
    def __init__(self) -> None:
        self.work: dict[str, list[float]] = defaultdict(list)      # kind -> seconds
        self.pictures: dict[str, list[float]] = defaultdict(list)  # part of work
        self.handler: dict[str, list[float]] = defaultdict(list)
        self.wall: dict[str, list[float]] = defaultdict(list)
        self.answer: dict[str, list[float]] = defaultdict(list)  # work before the answer
        self.requests: dict[str, list[int]] = defaultdict(list)  # Discord requests per click
        # the exact figures (``count_database``): work, and work before the answer
        self.exact: dict[str, list[float]] = defaultdict(list)
        self.answer_exact: dict[str, list[float]] = defaultdict(list)
        self.lag: dict[str, list[float]] = defaultdict(list)  # work - exact
        self.calls: dict[str, list[float]] = defaultdict(list)  # database calls per click
        self.commits: dict[str, list[float]] = defaultdict(list)  # commits per click
        # (wall clock) the bot's waits for database calls, and the thread's time on them
        self.db_wait: dict[str, list[float]] = defaultdict(list)
        self.db_thread: dict[str, list[float]] = defaultdict(list)
        # the cyclic garbage collector's time per click, and the part in the work
        self.collector: dict[str, list[float]] = defaultdict(list)
        self.collector_work: dict[str, list[float]] = defaultdict(list)

    async def run(self, kind: str, operation: Any) -> Any:
        """Await one actor operation (a coroutine not yet started) and time it, and
        count the Discord requests it made (SimCord's request log)."""
        WORK.total = HANDLER.total = PICTURES.total = 0.0
        DATABASE.update(calls=0, commits=0, lag=0.0, wait=0.0, thread=0.0)
        COLLECTOR.update(time=0.0, work=0.0)
        sent = len(ENV["env"].http_requests) if ENV else 0
        start = CLOCKS["click"]()
        ANSWER.update(start=start, work=None, wall=None, exact=None)
        result = await operation
        self.wall[kind].append(CLOCKS["click"]() - start)
        if ENV:
            self.requests[kind].append(len(ENV["env"].http_requests) - sent)
        answered, exact = ANSWER["work"], ANSWER["exact"]
        self.answer[kind].append(WORK.total if answered is None else answered)
        self.work[kind].append(WORK.total)
        lag = DATABASE["lag"]
        self.exact[kind].append(WORK.total - lag)
        self.answer_exact[kind].append(WORK.total - lag if exact is None else exact)
        self.lag[kind].append(lag)
        self.calls[kind].append(DATABASE["calls"])
        self.commits[kind].append(DATABASE["commits"])
        self.db_wait[kind].append(DATABASE["wait"])
        self.db_thread[kind].append(DATABASE["thread"])
        self.pictures[kind].append(PICTURES.total)
        self.handler[kind].append(HANDLER.total)
        self.collector[kind].append(COLLECTOR["time"])
        self.collector_work[kind].append(COLLECTOR["work"])
        return result

    def all(self, table: dict[str, list[float]],
            exclude: tuple[str, ...] = ("noop", "comparable")) -> list[float]:
        return [v for k, vs in table.items() if k not in exclude for v in vs]


async def play_step(rec: Recorder, bot: Any, seat: Seat) -> int:
    """One round at one table; returns the number of interactions made."""
    service = bot.service
    live = service.tables.get(seat.table_id)
    if live is None:
        return 0
    actor, ch, tid = seat.actor, seat.channel, seat.table_id
    deal = live.deal
    n = live.deal_number
    if n != seat.deal_seen:
        seat.deal_seen, seat.trades = n, 0
    last_deal = n >= live.game.deals_total
    count = 0
    table_msg = find_message(ch, f"commerce:play:{tid}:{n}:")
    if table_msg is not None:
        res = await rec.run("hand", actor.click(table_msg, label="My hand"))
        assert res.ephemeral, res
        count += 1
    if deal.finished:
        if not last_deal:
            msg = find_message(ch, f"commerce:next:{tid}:{n}")
            await rec.run("next", actor.click(msg, label="Next deal"))
            count += 1
        return count
    me = live.seat_of(actor.id)
    if deal.to_act != me or last_deal:
        return count  # the last deal is not played out: the table stays open
    if deal.pending is not None:
        seq = len(deal.operations)
        offer = find_message(ch, f"commerce:answer:{tid}:{n}:{seq}:")
        res = await rec.run("accept", actor.click(offer, label="Accept"))
        code = first_option(res)
        await rec.run("accept_select", actor.select(res.response, [code]))
        return count + 2
    if seat.trades < 2 and deal.stock:
        res = await rec.run("trade", actor.click(table_msg, label="Trade"))
        code = first_option(res)
        await rec.run("trade_select", actor.select(res.response, [code]))
        seat.trades += 1
        return count + 2
    await rec.run("knock", actor.click(table_msg, label="Knock"))
    return count + 1


# interactions that step the engine and commit (the others only read and render)
STATE_CHANGES = ("trade_select", "accept_select", "knock", "next")
SIMCORD = "simulated Discord (simcord)"
# tracemalloc frames kept per allocation: deep enough to find the owning package
FRAMES = int(os.environ.get("BENCH_FRAMES", "12"))


def classify(frames: Any) -> str:
    """Who owns an allocation: the innermost frame from a known package wins
    (tracemalloc lists frames oldest first)."""
    for frame in reversed(list(frames)):
        f = frame.filename
        if "/simcord/" in f:
            return SIMCORD
        if "/discord/" in f:
            return "discord.py (cache, views, parsing)"
        if f.startswith(str(ROOT / "bot")) or f.startswith(str(ROOT / "cogs")):
            return "bot code (service, engine, render)"
        if "aiosqlite" in f or "sqlite3" in f:
            return "aiosqlite"
    return "other (stdlib, asyncio)"


# ---------------------------------------------------------------- settle poll
def set_settle_poll(env: Any, idle: float | None) -> None:
    """Lower the polling interval SimCord's actors settle with (``None`` restores it).

    Every actor operation ends with ``env._settle_internal(dispatch=...)`` and its
    default ``idle=0.05``: when the only outstanding work is the done-callback of a
    bot task that has just finished (a light handler, such as a no-op defer or
    My hand), SimCord 3.2.1 sleeps that whole 50 ms before it looks again, so a
    light interaction costs >= 50 ms of wall time whatever the bot does. This is
    the same knob as the public ``env.settle(idle=...)``; the settle logic and the
    actors' checks are unchanged, only the poll gets finer.
    """
    if idle is None:
        env.__dict__.pop("_settle_internal", None)
        return
    original = type(env)._settle_internal.__get__(env)

    async def settle(*args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("idle", idle)
        await original(*args, **kwargs)
    env._settle_internal = settle


# ---------------------------------------------------------------- main
async def open_tables(bot: Any, seats: list[Seat]) -> int:
    """/commerce new, Add AI, Add AI, Start in every channel; returns the interactions."""
    for s in seats:
        res = await s.actor.slash(s.channel, "commerce new")
        assert res.ephemeral and "ready" in res.response.content, res
        lobby = find_message(s.channel, "commerce:lobby:")  # the fair-shuffle message follows
        for label in ("Add AI", "Add AI", "Start"):
            await s.actor.click(lobby, label=label)
        live = bot.service.in_channel(s.channel.id)
        assert live is not None and live.game is not None and len(live.seats) == 3
        s.table_id = live.id
    return 4 * len(seats)


#: tables a guild holds in the benchmark: the default limit of open tables at once
#: (``GuildSettings.max_tables``); the warm-up tables are closed before the others open
PER_GUILD = 10
VIEW_LIFETIME = 15 * 60 + 1  # discord.py gives ephemeral views a 15-minute timeout


def timed_views() -> int:
    """Live discord.py views with a timeout (each has a sleeping timeout task)."""
    return sum(1 for t in asyncio.all_tasks()
               if t.get_coro().__qualname__.endswith("__timeout_task_impl"))


async def play_rounds(rec: Recorder, env: Any, bot: Any, seats: list[Seat],
                      noop_msgs: list[Any], target: int, *, expire: bool,
                      max_rounds: int = 1000,
                      same_msgs: list[Any] | None = None) -> tuple[int, int, int]:
    """Rounds over every table. After each table's step the no-op button is clicked
    as many times as that step made interactions, and (``same_msgs``) the
    comparable baseline as many times as it made state changes; with ``expire``,
    if live timed views are left, virtual time then moves 15 minutes so they time
    out (see BENCHMARKS.md). Returns (bot interactions, rounds, most live timed views seen)."""
    done = rounds = peak = 0
    while done < target and rounds < max_rounds:
        rounds += 1
        made_round = 0
        for s in seats:
            changes = sum(len(rec.work.get(k, ())) for k in STATE_CHANGES)
            made = await play_step(rec, bot, s)
            for k in range(made):
                i = (done + made_round + k) % len(seats)
                await rec.run("noop", seats[i].actor.click(noop_msgs[i],
                                                                       label="No-op"))
            moved = sum(len(rec.work.get(k, ())) for k in STATE_CHANGES) - changes
            for k in range(moved if same_msgs is not None else 0):
                i = (done + made_round + k) % len(seats)
                await rec.run("comparable", seats[i].actor.click(same_msgs[i],
                                                                 label="Comparable"))
            made_round += made
            live = timed_views()
            peak = max(peak, live)
            if expire and made and live:
                await env.advance_time(VIEW_LIFETIME)
            if done + made_round >= target:
                break
        if made_round == 0:
            break
        done += made_round
    return done, rounds, peak


async def bench(n_tables: int, target: int, seed: int, idle: float, stock_sample: int,
                as_is_target: int) -> None:
    tmp = tempfile.TemporaryDirectory(prefix="commerce-bench-")
    # cooldown=None: the per-member click limit (12 per 10 real seconds) would turn a
    # benchmark's rapid clicks into "Slow down" answers; nothing else changes.
    bot = create_bot(Path(tmp.name) / "bench.db", rng=random.Random(seed), cooldown=None,
                     ai_pace=0)
    bot.add_dynamic_items(NoopButton, ComparableButton)  # script-only baseline controls
    # as ``python -m bot`` runs it (``bot.__main__.build_bot``): what is alive once the
    # start has loaded the open tables is moved out of the cyclic collector's way
    bot.freeze_loaded = True
    t_run = time.perf_counter()
    try:
        async with simcord.run(bot) as env:
            ENV["env"] = env
            instrument(bot)
            set_settle_poll(env, idle)
            # a loaded machine (other processes on its cores) can keep a click past
            # SimCord's 5 s settle timeout; the figures are per click either way
            env.settle_timeout = 60.0
            # turn_timer=0: an armed turn timer is a sleeping bot task that SimCord
            # rescans at every settle step (and the +15 min steps below would fire them).
            # PER_GUILD tables a guild: the default limit of open tables at once
            guilds = []
            for g in range(-(-n_tables // PER_GUILD)):
                guild = env.create_guild(name=f"bench-{g}")
                admin = guild.add_member(env.create_user(f"admin{g}"))
                await bot.service.update_settings(guild.id, admin.id, table_mode="here",
                                                  next_deal_delay=0, turn_timer=0)
                guilds.append(guild)
            seats = [Seat(guilds[i // PER_GUILD].create_text_channel(f"table-{i}"),
                          guilds[i // PER_GUILD].add_member(env.create_user(f"player{i}")))
                     for i in range(n_tables)]
            guild = guilds[0]

            # ---- 1. open and start N tables under tracemalloc (after two warm-up
            # tables, closed again, so one-time costs are not charged to the tables)
            warm = [Seat(guild.create_text_channel(f"warm-up-{i}"),
                         guild.add_member(env.create_user(f"warm{i}"))) for i in range(2)]
            await open_tables(bot, warm)
            for s in warm:
                res = await s.actor.slash(s.channel, "commerce end")
                assert s.table_id not in bot.service.tables, res.response.content
            # the card sprites drawn once per process in the background: a one-time
            # cost, not the tables' (older bots have no such thread)
            warming = getattr(media, "warm_up", None)
            if warming is not None:
                warming().join()
            gc.collect()
            tracemalloc.start(FRAMES)
            before = tracemalloc.take_snapshot()
            t0 = time.perf_counter()
            setup_clicks = await open_tables(bot, seats)
            t_open = time.perf_counter() - t0
            gc.collect()
            after = tracemalloc.take_snapshot()
            tracemalloc.stop()
            owners: dict[str, int] = defaultdict(int)
            for stat in after.compare_to(before, "traceback"):
                owners[classify(stat.traceback)] += stat.size_diff
            del before, after, stat
            gc.collect()

            # ---- 2. a no-op button in every channel, posted by the bot
            for i, s in enumerate(seats):
                view = discord.ui.View(timeout=None)
                view.add_item(NoopButton(i))
                await bot.get_channel(s.channel.id).send("benchmark baseline", view=view)
            await env.settle()
            noop_msgs = [find_message(s.channel, "bench:noop:") for s in seats]
            # ... and the comparable baseline: its stand-in table message and its button
            predraw(bot, bot.service.tables[seats[0].table_id])
            for i, s in enumerate(seats):
                channel = bot.get_channel(s.channel.id)
                stand_in = await channel.send(
                    PREDRAWN["table_text"], embed=PREDRAWN["embed"], view=PREDRAWN["table_view"],
                    file=media.picture_file(PREDRAWN["table"]))
                PREDRAWN["tables"][i] = stand_in.id
                PREDRAWN.setdefault("panel_views", {})[i] = ComparableButton.panel_view(i)
                await channel.send("comparable baseline", view=PREDRAWN["panel_views"][i])
            await env.settle()
            same_msgs = [find_message(s.channel, "bench:same:") for s in seats]

            # ---- 3. a first round as the bot runs today: the ephemeral select views
            # stay alive 15 minutes (discord.py's default), SimCord rescans them
            # 3a. memory held by a live select view: a few tables under tracemalloc
            k = max(1, min(20, n_tables // 4))
            tracemalloc.start(1)
            await play_rounds(Recorder(), env, bot, seats[:k], noop_msgs[:k], 10 * k,
                              expire=False, max_rounds=1)
            views = timed_views()
            gc.collect()
            held = tracemalloc.get_traced_memory()[0]
            await env.advance_time(VIEW_LIFETIME)  # the select views time out
            gc.collect()
            per_view = (held - tracemalloc.get_traced_memory()[0]) / max(views, 1)
            tracemalloc.stop()
            # 3b. throughput at the other tables while their views pile up
            as_is = Recorder()
            _, _, as_is_peak = await play_rounds(as_is, env, bot, seats[k:], noop_msgs[k:],
                                                 as_is_target, expire=False, max_rounds=1)
            await env.advance_time(VIEW_LIFETIME)

            # ---- 4. the measured play: rounds over all tables, no-op clicks interleaved,
            # select views expired after each table's turn
            rec = Recorder()
            t0 = time.perf_counter()
            profiler, profile_file = None, PROFILE["file"]
            if profile_file:
                import cProfile
                profiler = cProfile.Profile()
                profiler.enable()
            COLLECTOR["on"] = True
            done, rounds, peak = await play_rounds(rec, env, bot, seats, noop_msgs, target,
                                                   expire=True, same_msgs=same_msgs)
            COLLECTOR["on"] = False
            if profiler is not None and profile_file:
                profiler.disable()
                profiler.dump_stats(profile_file)
            t_play = time.perf_counter() - t0
            open_after = sum(1 for s in seats if s.table_id in bot.service.tables)

            # ---- 5. a small sample with SimCord's stock settle poll (50 ms)
            set_settle_poll(env, None)
            stock = Recorder()
            for k in range(stock_sample):
                s = seats[k % n_tables]
                if s.table_id not in bot.service.tables:
                    continue
                n = bot.service.tables[s.table_id].deal_number
                msg = find_message(s.channel, f"commerce:play:{s.table_id}:{n}:")
                if msg is None:
                    continue
                await stock.run("hand", s.actor.click(msg, label="My hand"))
                await stock.run("noop", s.actor.click(noop_msgs[k % n_tables],
                                                              label="No-op"))
            errors = list(env.errors)
    finally:
        await bot.close_storage()
        tmp.cleanup()
    t_total = time.perf_counter() - t_run
    report(n_tables, target, idle, rec, stock, as_is, owners, setup_clicks, t_open, t_play,
           t_total, rounds, open_after, errors, peak, as_is_peak, per_view, views)


def ceiling_ratio(rec: Recorder) -> float:
    """The throughput ratio with the bot's own work taken out of every click:
    what sending these very messages through SimCord and discord.py costs,
    against the no-op. Bot work above zero can only lower the ratio below it."""
    clicks, work = rec.all(rec.wall), rec.all(rec.work)
    left = (sum(clicks) - sum(work)) / len(clicks)
    return statistics.mean(rec.wall["noop"]) / left if left > 0 else float("nan")


def comparable_ceiling(rec: Recorder) -> float:
    """The moves' throughput against the comparable baseline with the bot's own
    work taken out of every move: what a move's own Discord traffic (its answer,
    the table message, a showdown or an offer posted, old buttons taken off) costs
    through SimCord, against the baseline's two edits."""
    clicks = moves(rec)
    work = [v for k in STATE_CHANGES for v in rec.work.get(k, [])]
    left = (sum(clicks) - sum(work)) / len(clicks)
    return statistics.mean(rec.wall["comparable"]) / left if left > 0 else float("nan")


def rate(samples: list[float]) -> float:
    return len(samples) / sum(samples) if samples else float("nan")


def table_rows(rec: Recorder) -> list[str]:
    ms = 1000.0
    out = [f"   {'interaction':<15}{'n':>6}{'median':>9}{'p99':>9}{'pictures':>10}"
           f"{'answered':>10}   {'handler p50':>11}{'click p50':>11}"]
    baselines = ("noop", "comparable")
    kinds = [k for k in rec.work if k not in baselines]
    changes = tuple(k for k in kinds if k not in STATE_CHANGES)
    groups = {k: (k,) for k in kinds}
    groups["state changes"] = (*baselines, *changes)  # excluded kinds
    groups["ALL"] = baselines
    for k, sel in groups.items():
        w, p, a, h, c = ((table[k] if k in kinds else rec.all(table, exclude=sel))
                         for table in (rec.work, rec.pictures, rec.answer, rec.handler,
                                       rec.wall))
        out.append(f"   {k:<15}{len(w):>6}{statistics.median(w) * ms:>9.2f}"
                   f"{pct(w, .99) * ms:>9.2f}{statistics.median(p) * ms:>10.2f}"
                   f"{statistics.median(a) * ms:>10.2f}"
                   f"   {statistics.median(h) * ms:>11.2f}{statistics.median(c) * ms:>11.2f}")
    for name, kind in (("no-op defer", "noop"), ("comparable", "comparable")):
        clicks = rec.wall[kind]
        if clicks:
            out.append(f"   {name:<15}{len(clicks):>6}{'-':>9}{'-':>9}{'-':>10}{'-':>10}   "
                       f"{'-':>11}{statistics.median(clicks) * ms:>11.2f}")
    return out


def exact_rows(rec: Recorder) -> list[str]:
    """Section 1b: the database calls and commits per click, and the work of the state
    changes as above (old) and exact (``count_database``)."""
    ms = 1000.0
    cpu = CLOCKS["work"] is time.thread_time
    out = ["1b. Database per click, and the bot's work metered exactly (ms, medians)",
           "   calls = hand-offs to the database thread (aiosqlite round trips), commits =",
           "   COMMITs (each an fsync), both means per click. old = the figures above: a",
           "   database call charged its whole wait, until the bot resumed; exact = less the",
           "   event loop's time on the harness's callbacks meanwhile (SimCord's settle polls",
           "   and task inspection, the driver): the thread's work, the fsync, the hand-offs",
           "   and the bot's own tasks stay; loop lag = old - exact" +
           (" (0 with --clock cpu: the CPU figures already leave it out)" if cpu else "") + ";",
           "   db wait = the work's waits for database calls (wall time, either clock), of it",
           "   db thread = the thread's time running them (statements, COMMIT and fsync, and",
           "   its waits for the GIL)"]
    out.append(f"   {'interaction':<15}{'calls':>7}{'commits':>8}{'work old':>10}{'exact':>8}"
               f"{'answered old':>14}{'exact':>8}{'loop lag':>10}{'db wait':>9}"
               f"{'db thread':>11}")
    kinds = [k for k in STATE_CHANGES if rec.work.get(k)]
    for k, sel in [*((k, (k,)) for k in kinds), ("state changes", tuple(kinds))]:
        calls, commits, work, exact, answer, answer_exact, lag, wait, thread = (
            [v for kind in sel for v in table[kind]]
            for table in (rec.calls, rec.commits, rec.work, rec.exact, rec.answer,
                          rec.answer_exact, rec.lag, rec.db_wait, rec.db_thread))
        out.append(f"   {k:<15}{statistics.mean(calls):>7.2f}{statistics.mean(commits):>8.2f}"
                   f"{statistics.median(work) * ms:>10.2f}{statistics.median(exact) * ms:>8.2f}"
                   f"{statistics.median(answer) * ms:>14.2f}"
                   f"{statistics.median(answer_exact) * ms:>8.2f}"
                   f"{statistics.median(lag) * ms:>10.2f}{statistics.median(wait) * ms:>9.2f}"
                   f"{statistics.median(thread) * ms:>11.2f}")
    out.extend(collector_rows(rec))
    return out


def collector_rows(rec: Recorder) -> list[str]:
    """The cyclic garbage collector's time (``meter_collector``): per state change
    and per click of any kind, and the full collections of the measured rounds."""
    kinds = [k for k in STATE_CHANGES if rec.work.get(k)]
    spent = [v for k in kinds for v in rec.collector[k]]
    in_work = [v for k in kinds for v in rec.collector_work[k]]
    every = [v for vs in rec.collector.values() for v in vs]
    full = COLLECTOR["full"]
    return [f"   cyclic garbage collector, mean per click (us): state changes "
            f"{statistics.mean(spent) * 1e6:.0f}, of it in the work "
            f"{statistics.mean(in_work) * 1e6:.0f}; every click {statistics.mean(every) * 1e6:.0f}",
            f"   full collections in the measured rounds: {len(full)}"
            + (f", longest {max(full) * 1000:.1f} ms" if full else "")]


def moves(rec: Recorder) -> list[float]:
    """The click times of the state changes (moves) alone."""
    return [v for k in STATE_CHANGES for v in rec.wall.get(k, [])]


def report(n_tables: int, target: int, idle: float, rec: Recorder, stock: Recorder,
           as_is: Recorder, owners: dict[str, int], setup_clicks: int, t_open: float,
           t_play: float, t_total: float, rounds: int, open_after: int, errors: list[Any],
           peak: int, as_is_peak: int, per_view: float, views: int) -> None:
    wall, noop_wall = rec.all(rec.wall), rec.wall["noop"]
    print(f"Commerce bot benchmark · SimCord {simcord.__version__} · discord.py "
          f"{discord.__version__} · Python {sys.version.split()[0]} · {os.cpu_count()} CPU")
    print(f"{n_tables} tables opened and started (1 human + 2 AI seats each): {setup_clicks} "
          f"interactions in {t_open:.1f} s under tracemalloc.")
    print(f"Play: {len(wall)} bot interactions + {len(noop_wall)} no-op clicks in {rounds} "
          f"rounds over all tables ({t_play:.1f} s); SimCord settle poll {idle * 1000:g} ms;")
    print(f"virtual time +15 min after a table's turn that left live timed views, so they "
          f"expire (at most {peak} live).")
    print(f"{open_after}/{n_tables} tables open at the end; {len(errors)} bot errors.")
    print("Clock: " + ("CPU time (work: the event loop thread's, a database call's on its "
                       "thread; clicks: the process's)"
                       if CLOCKS["work"] is time.thread_time else "wall time") + ".\n")

    print("1. Bot's own work per interaction, ms = timed TableService calls + rendering")
    print("   (lock, engine step, AI turns, SQLite commit, embeds/texts/views/pictures);")
    print("   pictures = median of the part spent on card pictures and panels (in the work);")
    print("   answered = median of the work done before the interaction was answered (what the")
    print("   clicking member waits for; the public table message and its picture follow)")
    print("\n".join(table_rows(rec)))
    print("   handler = control handler coroutine incl. its calls to the simulated Discord API;")
    print("   click = whole SimCord round trip (gateway event, discord.py dispatch, handler,")
    print("   simulated HTTP, settle)")
    print("   Discord requests per click (SimCord's request log, mean): " + ", ".join(
        f"{k} {statistics.mean(v):.2f}" for k, v in rec.requests.items() if v) + "\n")
    print("\n".join(exact_rows(rec)) + "\n")

    bot_tput, noop_tput = rate(wall), rate(noop_wall)
    print("2. Throughput through SimCord, tables open (interactions / summed click time)")
    print(f"   bot interactions  {bot_tput:8.0f} /s")
    print(f"   no-op defer       {noop_tput:8.0f} /s")
    print(f"   ratio bot/no-op   {bot_tput / noop_tput:8.2f}     (context: the no-op sends "
          "nothing)")
    move_tput, same_tput = rate(moves(rec)), rate(rec.wall["comparable"])
    print(f"   moves (state changes) {move_tput:4.0f} /s; comparable baseline {same_tput:.0f} /s "
          "(the same panel and table message edits, pictures pre-drawn, no game logic)")
    print(f"   ratio bot/comparable  {move_tput / same_tput:4.2f}     (goal >= 0.8)")
    print(f"   ceiling               {comparable_ceiling(rec):4.2f}     (bot/comparable if the "
          "bot's own work took no time: a move sends more\n                               than "
          "the two edits, e.g. a showdown or an offer)")
    ceiling = ceiling_ratio(rec)
    print(f"   ceiling           {ceiling:8.2f}     (the ratio if the bot's own work took no "
          "time: the\n                               same clicks, messages and simulated "
          "Discord, minus the work)")
    if as_is.wall:
        a_bot, a_noop = rate(as_is.all(as_is.wall)), rate(as_is.wall["noop"])
        a_work = as_is.all(as_is.work)
        print(f"   first round, select views left alive as today ({as_is_peak} live at the end, "
              f"{len(as_is.all(as_is.wall))} interactions):")
        print(f"     bot {a_bot:.0f} /s, no-op {a_noop:.0f} /s, ratio {a_bot / a_noop:.2f}; "
              f"no-op click p50 {statistics.median(as_is.wall['noop']) * 1000:.1f} ms, "
              f"bot work p99 {pct(a_work, .99) * 1000:.1f} ms")
        print("     (work is wall time: it includes SimCord's rescans run while the bot "
              "awaits SQLite)")
    if stock.wall:
        hand, noop = rate(stock.wall["hand"]), rate(stock.wall["noop"])
        print(f"   with SimCord's stock 50 ms settle poll ({len(stock.wall['hand'])} each): "
              f"My hand {hand:.0f} /s, no-op {noop:.0f} /s, ratio {hand / noop:.2f}")
    print()

    total = sum(owners.values())
    print(f"3. Memory per open table, KiB (tracemalloc after - before opening and starting "
          f"{n_tables} tables, / {n_tables})")
    for owner, size in sorted(owners.items(), key=lambda kv: -kv[1]):
        print(f"   {owner:<46}{size / n_tables / 1024:8.1f}")
    print(f"   {'TOTAL (whole process)':<46}{total / n_tables / 1024:8.1f}")
    bot_side = total - owners.get(SIMCORD, 0)
    print(f"   {'bot process (TOTAL minus simulated Discord)':<46}"
          f"{bot_side / n_tables / 1024:8.1f}")
    print("   (SQLite's page cache is C memory, invisible to tracemalloc)")
    print(f"   plus, for 15 minutes after each Trade/Barter/Accept click, its live select view: "
          f"{per_view / 1024:.1f} KiB\n   (tracemalloc: memory freed when {views} such views "
          f"timed out, per view)\n")
    print(f"Total run {t_total:.1f} s. Reproduce: {COMMAND}"
          + (f" --tables {n_tables} --interactions {target}"
             if (n_tables, target) != (100, 2000) else ""))
    for e in errors[:5]:
        print("bot error:", repr(e))
    changes = [v for k in STATE_CHANGES for v in rec.work.get(k, [])]
    drawn = [v for k in STATE_CHANGES for v in rec.pictures.get(k, [])]
    before = [v for k in STATE_CHANGES for v in rec.answer.get(k, [])]
    exact = [v for k in STATE_CHANGES for v in rec.exact.get(k, [])]
    before_exact = [v for k in STATE_CHANGES for v in rec.answer_exact.get(k, [])]
    figures = {
        "tables": n_tables, "interactions": len(wall), "errors": len(errors),
        "state_change_median_ms": statistics.median(changes) * 1000,
        "state_change_p99_ms": pct(changes, .99) * 1000,
        "state_change_pictures_median_ms": statistics.median(drawn) * 1000,
        "state_change_pictures_p99_ms": pct(drawn, .99) * 1000,
        "state_change_answered_median_ms": statistics.median(before) * 1000,
        "state_change_answered_p99_ms": pct(before, .99) * 1000,
        "state_change_exact_median_ms": statistics.median(exact) * 1000,
        "state_change_exact_p99_ms": pct(exact, .99) * 1000,
        "state_change_answered_exact_median_ms": statistics.median(before_exact) * 1000,
        "state_change_answered_exact_p99_ms": pct(before_exact, .99) * 1000,
        "state_change_database_calls_mean": statistics.mean(
            [v for k in STATE_CHANGES for v in rec.calls.get(k, [])]),
        "state_change_commits_mean": statistics.mean(
            [v for k in STATE_CHANGES for v in rec.commits.get(k, [])]),
        "state_change_collector_work_us_mean": statistics.mean(
            [v for k in STATE_CHANGES for v in rec.collector_work.get(k, [])]) * 1e6,
        "collector_full_collections": len(COLLECTOR["full"]),
        "collector_full_max_ms": max(COLLECTOR["full"], default=0.0) * 1000,
        "all_median_ms": statistics.median(rec.all(rec.work)) * 1000,
        "all_p99_ms": pct(rec.all(rec.work), .99) * 1000,
        "throughput_bot_per_s": bot_tput, "throughput_noop_per_s": noop_tput,
        "throughput_ratio": bot_tput / noop_tput,
        "throughput_ratio_ceiling": ceiling_ratio(rec),
        "throughput_moves_per_s": move_tput,
        "throughput_comparable_per_s": same_tput,
        "throughput_ratio_comparable": move_tput / same_tput,
        "throughput_ratio_comparable_ceiling": comparable_ceiling(rec),
        "memory_bot_kib_per_table": bot_side / n_tables / 1024,
        "memory_total_kib_per_table": total / n_tables / 1024,
    }
    print("BENCH-JSON " + json.dumps({"bot": figures}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--interactions", type=int, default=2000,
                        help="bot interactions to drive (the no-op gets as many)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--poll-ms", type=float, default=1.0,
                        help="SimCord settle poll during the run (SimCord's default is 50)")
    parser.add_argument("--as-is", type=int, default=300,
                        help="bot interactions of the final round where select views stay alive")
    parser.add_argument("--stock-sample", type=int, default=50,
                        help="My hand + no-op clicks measured with the stock 50 ms poll")
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                        help="wall time (default), or CPU time: the event loop thread's for "
                             "the work, the process's for a click (steadier on a shared "
                             "machine; not comparable with wall-time figures)")
    parser.add_argument("--profile", metavar="FILE",
                        help="write a cProfile of the measured rounds (4.) to FILE")
    args = parser.parse_args()
    if args.clock == "cpu":
        CLOCKS.update(work=time.thread_time, click=time.process_time)
    PROFILE["file"] = args.profile
    asyncio.run(bench(args.tables, args.interactions, args.seed, args.poll_ms / 1000.0,
                      args.stock_sample, args.as_is))


if __name__ == "__main__":
    main()
