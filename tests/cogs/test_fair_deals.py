"""Issue 11: every deal is dealt from a committed seed and a cut (docs/FAIRNESS.md "In
the bot"), a finished game exports as a record that ``verify`` proves fair, and the
seed of a deal that is not over appears nowhere: no message, no REST payload, no log
record (at DEBUG, with the bot's real logging set-up).

Games are driven only through the controls whose shape this issue owns — Start, Next
deal, the turn timer (the AI plays a slow member, and after two misses the seat is
away) — so every family plays to its end whatever its move buttons look like.
"""

from __future__ import annotations

import json
import logging
import random
import re
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest
import simcord

from bot import create_bot
from bot.__main__ import _setup_logging
from bot.engine import replay
from bot.engine.fairness import deck_order
from bot.engine.game import verify_record
from tests.app.test_logging import restore_logging, transport_logging  # noqa: F401 — fixtures
from tests.cogs.helpers import (
    Table,
    answer_text,
    execute,
    message_text,
    private,
    restart,
    rows,
)

ROOT = Path(__file__).resolve().parents[2]
#: one preset of each family, and the options that change a family's game
FAMILIES = [
    ("foster", {"deals_per_player": 1}),
    ("hoyle", {"deals_per_player": 1}),
    ("parlett", {"deals_per_player": 1}),
    ("foster-more", {"deals_per_player": 1}),
    ("widow", {"deals_per_player": 1}),
    ("oldway", {"pounce": True}),
    ("jaques", {"chips": 3}),
    ("jaques", {"chips": 4, "three_stake": True, "fixed_rounds": 2, "direct_trading": True}),
]
HEX64 = re.compile(r"[0-9a-f]{64}")


def interaction_ids(env) -> set[int]:
    """The ids of every interaction the bot answered (its callback URLs name them)."""
    return {int(m.group(1)) for e in env.http_requests
            if (m := re.match(r"/interactions/(\d+)/", e.path))}


#: seeds nobody may see now (hex): those of open deals, and every table's seed drawn
#: for its next deal
SECRET_SEEDS = ("SELECT seed FROM deals WHERE status = 'open'"
                " UNION ALL SELECT next_seed FROM tables")


def secrets_now(db_path: Path) -> set[str]:
    """``SECRET_SEEDS`` read from the committed SQLite file at ``db_path``, at once
    (the log audit reads them inside a logging handler, on any thread)."""
    with sqlite3.connect(db_path) as db:
        return {s for (s,) in db.execute(SECRET_SEEDS).fetchall() if s}


async def open_with_ai(env, preset: str, options: dict, *, name: str = "ann"):
    """A guild where ``name`` opens a table of ``preset`` with two AI seats (lobby
    not started). Returns (guild, general, ann, channel, lobby, table)."""
    guild = env.create_guild()
    general = guild.create_text_channel("general")
    ann = guild.add_member(env.create_user(name))
    res = await ann.slash(general, "commerce new", rules=preset, **options)
    assert res.ephemeral and "ready" in answer_text(res), answer_text(res)
    channel = guild.channels["commerce-1"]
    lobby = channel.history()[0]
    await ann.click(lobby, label="Add AI")
    await ann.click(channel.history()[0], label="Add AI")
    return guild, general, ann, channel, channel.history()[0], Table(env, [env.bot], channel,
                                                                     {ann.id: ann})


def last_showdown(channel):
    return next(m for m in reversed(channel.history())
                if m.embeds and (m.embeds[0].title or "").startswith("Showdown"))


async def play_out(env, table: Table, ann, rng: random.Random, on_step=None) -> None:
    """Play the table's game to its end: the turn timer lets the AI move for ann (after
    two misses her seat is away), and each next deal comes from a press of Next deal
    (a member's cut: always after an odd deal) or from the timer (the bot's cut: at
    random after an even deal)."""
    for _ in range(2000):
        live = table.live
        if on_step is not None:
            await on_step(live)
        if live.game.complete:
            return
        deal = live.deal
        if not deal.finished:
            await env.advance_time(121)
        elif live.deal_number % 2 or rng.random() < 0.5:
            showdown = last_showdown(table.channel)
            res = await ann.click(showdown, label="Next deal")
            assert res.acknowledged
        else:
            await env.advance_time(live.row.next_deal_delay + 1)
    raise AssertionError("the game did not end")


async def export(ann, channel, **options) -> tuple[dict, str]:
    """``/commerce export``: the JSON record it attached and the text it said."""
    res = await ann.slash(channel, "commerce export", **options)
    assert private(res), answer_text(res)
    message = res.followups[-1] if res.followups else res.response
    [attachment] = message.attachments
    assert attachment.filename.endswith(".json")
    return json.loads(await attachment.read()), message.content


def cli_verify(record: dict) -> tuple[int, dict]:
    """``python -m bot.engine verify -`` on ``record``: exit code and its JSON."""
    done = subprocess.run([sys.executable, "-m", "bot.engine", "verify", "-"], cwd=ROOT,
                          input=json.dumps(record), capture_output=True, text=True, timeout=60)
    return done.returncode, json.loads(done.stdout)


def tampered_deck(record: dict) -> tuple[dict, int]:
    """A copy of ``record`` with two cards of one deal's deck swapped where the replay
    still works (the bottom of the stock, never dealt), and that deal's index."""
    for index in range(len(record["deals"])):
        copy = json.loads(json.dumps(record))
        deck = copy["deals"][index]["deck"]
        deck[-1], deck[-2] = deck[-2], deck[-1]
        try:
            replay(copy)
        except ValueError:
            continue
        return copy, index
    raise AssertionError("no deal whose stock bottom stayed unplayed")


@pytest.mark.parametrize(("preset", "options"), FAMILIES,
                         ids=[f"{p}-{'-'.join(o)}" for p, o in FAMILIES])
async def test_a_full_game_exports_a_record_that_verify_proves_fair(simcord_env, preset, options):
    env = simcord_env
    rng = random.Random(f"{preset}{options}")
    guild, general, ann, channel, lobby, table = await open_with_ai(env, preset, options)
    await ann.click(lobby, label="Start")
    table_id = table.live.id
    # a running game is never exported: its decks and seeds are secret
    res = await ann.slash(general, "commerce export", table=1)
    assert res.ephemeral and "not over yet" in answer_text(res), answer_text(res)
    await play_out(env, table, ann, rng)
    live = table.live
    record, text = await export(ann, general, table=1)
    assert "verify" in text
    # the record replays to the game that was played, and every deal is proven
    assert record["table"] == table_id
    assert replay(record).summary() == live.game.summary()
    ok, summary = verify_record(record)
    assert ok, summary
    assert summary["verified"] == len(record["deals"]) == len(live.game.deals)
    # each cut is a member's press (the id of an interaction the bot answered) or the bot's
    # 16 random bytes, and the stored cutter says which
    pressed = interaction_ids(env)
    stored = await rows(env.bot, "SELECT number, cut_by, cuts, seed, commitment, deck"
                                 " FROM deals WHERE table_id = ? ORDER BY number", (table_id,))
    kinds = set()
    for (number, cut_by, cuts, seed, commitment, deck), deal in zip(stored, record["deals"],
                                                                     strict=True):
        [cut] = json.loads(cuts)
        assert deal["cuts"] == [cut] and deal["seed"] == seed
        assert deal["commitment"] == commitment
        assert deck.split() == deal["deck"]
        if cut_by is None:
            assert len(cut) == 32
            kinds.add("bot")
        else:
            assert cut_by == ann.id and int(cut, 16) in pressed
            kinds.add("member")
        assert deal["deck"] == [
            "23456789TJQKA"[c // 4] + "cdhs"[c % 4]
            for c in deck_order(bytes.fromhex(seed), [bytes.fromhex(cut)], table_id, number,
                                preset)]
    assert stored[0][1] == ann.id, "the first deal is cut by the Start press"
    if len(stored) > 2 and preset != "oldway":
        assert "member" in kinds and ("bot" in kinds or len(stored) < 5)
    # the command line agrees: 0 for the record, 2 for one swapped card or one seed byte
    code, out = cli_verify(record)
    assert code == 0 and out["ok"], out
    swapped, index = tampered_deck(record)
    code, out = cli_verify(swapped)
    assert code == 2 and not out["ok"]
    assert out["deals"][index]["status"] == "failed"
    assert [f["check"] for f in out["deals"][index]["failed"]] == ["deck"]
    broken = json.loads(json.dumps(record))
    seed = broken["deals"][0]["seed"]
    broken["deals"][0]["seed"] = ("0" if seed[0] != "0" else "1") + seed[1:]
    code, out = cli_verify(broken)
    assert code == 2 and out["deals"][0]["status"] == "failed"
    assert {f["check"] for f in out["deals"][0]["failed"]} == {"commitment", "deck"}
    assert env.errors == []


async def test_the_commitment_is_public_before_the_cut_and_the_seed_only_after(
        simcord_env):
    """The lobby shows deal 1's commitment before Start; each showdown shows the next
    deal's commitment before Next deal, and this deal's seed; the table message shows
    the current commitment in short; the seeds match what was committed."""
    env = simcord_env
    guild, general, ann, channel, lobby, table = await open_with_ai(
        env, "foster", {"deals_per_player": 2})
    db = env.bot
    [(committed,)] = await rows(db, "SELECT next_commitment FROM tables")
    assert HEX64.fullmatch(committed) and committed in message_text(lobby)
    await ann.click(lobby, label="Start")
    shown: dict[int, str] = {1: committed}

    async def check(live) -> None:
        deal_rows = await rows(db, "SELECT number, commitment, seed, status FROM deals ORDER BY number")
        for number, commitment, _seed, _status in deal_rows:
            assert shown[number] == commitment, f"deal {number} was committed before its cut"
        number, commitment, seed, status = deal_rows[-1]
        if status == "open":
            assert commitment[:16] in message_text(table.table_message())
            return
        showdown = last_showdown(channel)
        text = message_text(showdown)
        assert f"Showdown · deal {number}" in text and seed in text
        if not live.game.complete:
            [(following,)] = await rows(db, "SELECT next_commitment FROM tables")
            assert f"**Next deal commitment** `{following}`" in text
            shown[number + 1] = following

    await play_out(env, table, ann, random.Random(5), on_step=check)
    assert len(shown) == 6
    final = channel.history()[-1]
    assert "/commerce export table:1" in message_text(final)


async def test_a_seed_is_drawn_from_the_test_rng_so_games_repeat(tmp_path):
    """With a seeded RNG (tests only) the seeds repeat, and so do the decks."""
    decks = []
    for run in range(2):
        bot = create_bot(db_path=tmp_path / f"run{run}.db", rng=random.Random(11), cooldown=None,
                         ai_pace=0)
        try:
            async with simcord.run(bot) as env:
                _, _, ann, _, lobby, table = await open_with_ai(env, "widow", {})
                await ann.click(lobby, label="Start")
                decks.append([list(d.deck) for d in table.live.game.deals])
        finally:
            await bot.close_storage()
    assert decks[0] == decks[1]


async def test_ending_a_game_reveals_the_voided_deals_seed_and_exports_it(simcord_env):
    env = simcord_env
    guild, general, ann, channel, lobby, table = await open_with_ai(env, "jaques", {})
    await ann.click(lobby, label="Start")
    [(seed,)] = await rows(env.bot, "SELECT seed FROM deals")
    res = await ann.slash(channel, "commerce end")
    assert "voided" in answer_text(res) and seed in answer_text(res)
    record, _ = await export(ann, channel)  # no table named: the channel's last game
    assert record["deals"][0]["seed"] == seed
    ok, summary = verify_record(record)
    assert ok, summary


class SeedAudit(logging.Handler):
    """Every log record of every logger, checked against the seeds secret when it is
    made: the open deals' (the bot's memory) and every table's next seed (storage)."""

    def __init__(self, db_path: Path) -> None:
        super().__init__(logging.NOTSET)
        self.db_path = db_path
        self.bots: list = []
        self.records = 0
        self.leaks: list[str] = []
        self.guard = threading.Lock()

    def secret(self) -> set[str]:
        seeds: set[str] = set()
        service = getattr(self.bots[-1], "service", None) if self.bots else None
        for live in list(service.tables.values()) if service is not None else []:
            game = live.game
            for deal, proof in zip(list(game.deals) if game else [], list(game.proofs) if game
                                   else [], strict=False):
                if proof is not None and proof.seed is not None and not deal.finished:
                    seeds.add(proof.seed.hex())
        if self.db_path.exists():
            try:
                seeds |= secrets_now(self.db_path)
            except sqlite3.Error:
                pass
        return seeds

    def emit(self, record: logging.LogRecord) -> None:
        text = record.getMessage()
        if record.exc_info:
            text += logging.Formatter().formatException(record.exc_info)
        for _ in range(5):  # aiosqlite logs from its own thread: retry a torn read
            try:
                secret = self.secret()
                break
            except RuntimeError:
                continue
        else:
            secret = set()
        leaked = [s for s in secret if s in text.lower()]
        with self.guard:
            self.records += 1
            if leaked:
                self.leaks.append(f"{record.name} {record.levelname}: {text[:200]}")


def rest_text(env) -> str:
    return "\n".join(f"{e.path} {json.dumps(e.json)}" for e in env.http_requests).lower()


def every_message_text(env) -> str:
    return "\n".join(json.dumps([m.content, m.embeds], default=str)
                     for channel in env.backend.messages.values()
                     for m in channel.values()).lower()


async def test_no_open_deals_seed_in_any_message_rest_payload_or_log_at_debug(
        tmp_path, monkeypatch, restore_logging, transport_logging):  # noqa: F811
    monkeypatch.setenv("LOG_LEVEL", "DEBUG")
    _setup_logging()
    # stricter than the bot's set-up, which holds discord.py at INFO: its payload lines too
    logging.getLogger("discord").setLevel(logging.DEBUG)
    db_path = tmp_path / "commerce.db"
    audit = SeedAudit(db_path)
    logging.getLogger().addHandler(audit)
    bots: list = []

    def make_bot():  # a fresh seed each start: a repeated test RNG would repeat seeds
        bot = create_bot(db_path=db_path, rng=random.Random(len(bots)), cooldown=None,
                         ai_pace=0)
        bots.append(bot)
        audit.bots.append(bot)
        return bot

    first = make_bot()
    checked = 0
    try:
        async with simcord.run(first) as env:
            guild, general, ann, channel, lobby, table = await open_with_ai(
                env, "foster", {"deals_per_player": 1})
            watcher = guild.add_member(env.create_user("watcher"))

            async def check(live) -> None:
                nonlocal checked
                secret = secrets_now(db_path)
                assert secret, "a seed is always secret until the game's last deal ends"
                for text in (rest_text(env), every_message_text(env)):
                    assert not [s for s in secret if s in text]
                checked += 1
                # nobody outside sees the running game in the history, nor its record
                res = await watcher.slash(general, "commerce history")
                assert "No game has finished" in message_text(
                    res.followups[-1] if res.followups else res.response)
                refused = await watcher.slash(general, "commerce export", table=1)
                assert "not over yet" in answer_text(refused)

            await check(None)
            await ann.click(lobby, label="Start")
            await check(table.live)
            await ann.click(table.table_message(), label="My hand")
            await restart(env, make_bot())
            table.bot_ref.append(env.bot)
            rng = random.Random(1)
            for _ in range(200):
                live = table.live
                if live.game.complete:
                    break
                await check(live)
                if not live.deal.finished:
                    await env.advance_time(121)
                elif rng.random() < 0.5:
                    await ann.click(last_showdown(channel), label="Next deal")
                else:
                    await env.advance_time(31)
            assert table.live.game.complete
            assert env.errors == []
    finally:
        for b in bots:
            await b.close_storage()
    assert checked >= 4
    assert audit.records > 100
    assert audit.leaks == [], "\n".join(audit.leaks[:5])


async def test_a_table_without_a_committed_seed_gets_a_fresh_one_and_the_bots_cut(
        simcord_env, make_bot):
    """A lobby opened before fair deals has no committed seed: its first deal is dealt
    from a fresh seed with the bot's cut (verifiable, but no proof against the bot), and
    every later deal follows the protocol again."""
    env = simcord_env
    guild, general, ann, channel, lobby, table = await open_with_ai(
        env, "foster", {"deals_per_player": 1})
    db = env.bot.database  # the same database after the restart
    await execute(db, "UPDATE tables SET next_seed = NULL, next_commitment = NULL")
    await restart(env, make_bot())
    table.bot_ref.append(env.bot)
    await ann.click(channel.history()[0], label="Start")
    [(cut_by, cuts)] = await rows(db, "SELECT cut_by, cuts FROM deals")
    assert cut_by is None and len(json.loads(cuts)[0]) == 32
    await play_out(env, table, ann, random.Random(4))
    record, _ = await export(ann, general, table=1)
    assert verify_record(record)[0]
    assert await rows(db, "SELECT cut_by FROM deals WHERE number = 2") == [(ann.id,)]
