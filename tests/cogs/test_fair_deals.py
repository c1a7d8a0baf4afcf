"""Issue 19: one fair shuffle per game, checked through the simulated Discord
(docs/FAIRNESS.md "In the bot"). The commitment is posted once, before anything is dealt,
in a message the bot never edits; members cut with text they type (the Cut form, or
``/commerce cut``) and see their cut listed; a deal whose write fails is burned and listed;
the final standings show the seed and the record's head, never edited afterwards; and a
finished game of every preset exports as a record that ``verify`` and the verifier written
from the page alone (``tests/fairness_reference.py``) agree on — proven only when compared
with what the channel showed, and only when every deal was cut. No seed still secret
appears in any message, REST payload or log record (at DEBUG).

Games are driven only through the controls this issue owns — Start, Cut, Next deal, the
turn timer (the AI plays a slow member) — so every family plays to its end.
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
from bot.engine.fairness import Shuffler, chain_entries, chain_heads, chain_key
from bot.engine.proof import verify_record
from tests import fairness_reference as ref
from tests.app.test_logging import restore_logging, transport_logging  # noqa: F401 — fixtures
from tests.cogs.helpers import (
    BACKEND,
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
CUT_FIELD = "commerce:cutform:text"


#: seeds nobody may see now (hex): the game seed of every table still open, and the seed
#: of every open format 1 deal
SECRET_SEEDS = ("SELECT game_seed FROM tables WHERE status IN ('lobby', 'playing')"
                " UNION ALL SELECT seed FROM deals WHERE status = 'open'")


def secrets_now(db_path: Path) -> set[str]:
    """``SECRET_SEEDS`` read from the committed SQLite file at ``db_path``, at once
    (the log audit reads them inside a logging handler, on any thread)."""
    with sqlite3.connect(db_path) as db:
        return {s for (s,) in db.execute(SECRET_SEEDS).fetchall() if s}


def lobby_of(channel):
    return next(m for m in channel.history()
                if m.embeds and (m.embeds[0].title or "").startswith("Commerce table"))


def fair_message(channel):
    """The fair-shuffle message of the table playing in ``channel``."""
    [message] = [m for m in channel.history() if (m.content or "").startswith("🔒 **Fair shuffle")]
    return message


def shown_commitment(channel) -> str:
    return re.search(r"Commitment: `([0-9a-f]{64})`", fair_message(channel).content)[1]


async def open_with_ai(env, preset: str, options: dict, *, name: str = "ann"):
    """A guild where ``name`` opens a table of ``preset`` with two AI seats (lobby
    not started). Returns (guild, general, ann, channel, lobby, table)."""
    guild = env.create_guild()
    general = guild.create_text_channel("general")
    ann = guild.add_member(env.create_user(name))
    res = await ann.slash(general, "commerce new", rules=preset, **options)
    assert res.ephemeral and "ready" in answer_text(res), answer_text(res)
    channel = guild.channels["commerce-1"]
    await ann.click(lobby_of(channel), label="Add AI")
    await ann.click(lobby_of(channel), label="Add AI")
    return guild, general, ann, channel, lobby_of(channel), Table(env, [env.bot], channel,
                                                                  {ann.id: ann})


def last_showdown(channel):
    return next(m for m in reversed(channel.history())
                if m.embeds and (m.embeds[0].title or "").startswith("Showdown"))


def final_standings(channel):
    return next(m for m in reversed(channel.history())
                if m.embeds and (m.embeds[0].title or "").startswith("Game over"))


async def proof_of(actor, showdown) -> str:
    """What the showdown's Proof button answers ``actor`` (privately)."""
    [proof] = [c.custom_id for row in showdown.components for c in row.children
               if (c.custom_id or "").startswith("commerce:proof:")]
    return answer_text(await actor.click(showdown, custom_id=proof))


def field(message, name: str) -> str:
    return next(f.value for f in message.embeds[0].fields if f.name == name)


async def cut_with_form(actor, message, text: str):
    """Press Cut on ``message`` and send ``text`` in its form; the answer."""
    shown = await actor.click(message, label="Cut")
    assert shown.modal is not None, answer_text(shown)
    return await actor.submit_modal(shown, {CUT_FIELD: text})


async def play_out(env, table: Table, ann, rng: random.Random, on_step=None,
                   cut: float = 0.0) -> None:
    """Play the table's game to its end: the turn timer lets the AI move for ann (after
    two misses her seat is away); between deals ann cuts the next one with chance
    ``cut`` (the Cut form or ``/commerce cut``), and the next deal comes from a press of
    Next deal or from the timer."""
    cut_done: set[int] = set()
    for _ in range(2000):
        live = table.live
        if on_step is not None:
            await on_step(live)
        if live.game.complete:
            return
        deal = live.deal
        if not deal.finished:
            await env.advance_time(121)
            continue
        number = live.deal_number + 1
        if number not in cut_done and rng.random() < cut:
            cut_done.add(number)
            if rng.random() < 0.5:
                res = await cut_with_form(ann, last_showdown(table.channel), f"word {number}")
            else:
                res = await ann.slash(table.channel, "commerce cut", text=f"word {number}")
            assert f"Your cut for deal {number}: `word {number}`" in answer_text(res)
            continue
        if live.deal_number % 2 or rng.random() < 0.5:
            res = await ann.click(last_showdown(table.channel), label="Next deal")
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


def cli_verify(record: dict, *options: str) -> tuple[int, dict]:
    """``python -m bot.engine verify -`` on ``record``: exit code and its JSON."""
    done = subprocess.run([sys.executable, "-m", "bot.engine", "verify", "-", *options],
                          cwd=ROOT, input=json.dumps(record), capture_output=True, text=True,
                          timeout=60)
    return done.returncode, json.loads(done.stdout)


def statuses(summary: dict) -> dict[str, str]:
    return {c["check"]: c["status"] for c in summary["checks"]}


async def drop_trigger(db, name: str, table: str) -> None:
    """Take a trigger away behind the bot's back, to make the rows of an older version."""
    await execute(db, f"DROP TRIGGER {name}" + (f" ON {table}" if BACKEND == "postgres" else ""))


def edits_of(env, message) -> list:
    """The REST requests that edited (or deleted) ``message``."""
    return [e for e in env.http_requests if e.method in ("PATCH", "DELETE")
            and e.path.rstrip("/").endswith(f"/messages/{message.id}")]


@pytest.mark.parametrize(("preset", "options"), FAMILIES,
                         ids=[f"{p}-{'-'.join(o)}" for p, o in FAMILIES])
async def test_every_preset_exports_a_record_both_verifiers_prove_against_the_channel(
        simcord_env, preset, options):
    env = simcord_env
    rng = random.Random(f"{preset}{options}")
    guild, general, ann, channel, lobby, table = await open_with_ai(env, preset, options)
    committed = shown_commitment(channel)
    await cut_with_form(ann, lobby, "first word")
    await ann.click(lobby_of(channel), label="Start")
    table_id = table.live.id
    res = await ann.slash(general, "commerce export", table=1)
    assert res.ephemeral and "not over yet" in answer_text(res), answer_text(res)
    await play_out(env, table, ann, rng, cut=1.0)
    live = table.live
    record, text = await export(ann, general, table=1)
    assert "--commitment" in text and "--head" in text
    assert record["format"] == 2 and record["table"] == table_id
    assert replay(record).summary() == live.game.summary()
    final = final_standings(channel)
    head = re.search(r"Record head: `([0-9a-f]{64})`", field(final, "Fair shuffle"))[1]
    seed = re.search(r"Seed, now public: `([0-9a-f]{64})`", field(final, "Fair shuffle"))[1]
    assert head == record["shuffle"]["head"] and seed == record["shuffle"]["seed"]
    assert committed == record["shuffle"]["commitment"] == Shuffler(
        bytes.fromhex(seed), table_id, preset).commitment
    # every deal was cut by ann, the first with the form on the lobby
    assert record["deals"][0]["cuts"] == [{"seat": 0, "text": "first word"}]
    assert all(d["cuts"] == [{"seat": 0, "text": f"word {n}"}]
               for n, d in enumerate(record["deals"][1:], 2))
    # the command line proves it all once given what the channel showed; alone, it
    # says what is left to compare; the page's verifier agrees on both
    code, out = cli_verify(record, "--commitment", committed, "--head", head)
    assert code == 0 and out["ok"], out["checks"]
    theirs = ref.verify(record, replay(record).complete, committed, head)
    assert theirs["ok"] and theirs["checks"] == statuses(out)
    assert theirs["deals"] == [d["status"] for d in out["deals"]]
    code, out = cli_verify(record)
    assert code == 2 and statuses(out)["published"] == "not proven"
    assert ref.verify(record, replay(record).complete)["checks"] == statuses(out)
    # a swapped card of any deal, or a changed seed, fails
    broken = json.loads(json.dumps(record))
    broken["shuffle"]["seed"] = ("0" if seed[0] != "0" else "1") + seed[1:]
    code, out = cli_verify(broken, "--commitment", committed, "--head", head)
    assert code == 2 and {"commitment", "random", "chain", "published"} <= {
        c for c, s in statuses(out).items() if s == "failed"}
    # the messages that anchor the record were never edited
    assert edits_of(env, fair_message(channel)) == [] and edits_of(env, final) == []
    assert env.errors == []


async def test_a_game_nobody_cut_is_dealt_at_the_default_pace_and_never_proven(simcord_env):
    """AI seats and timers: the game flows without a cut; each deal says it was not cut
    by anyone on its table message and its showdown, and ``verify`` does not prove it."""
    env = simcord_env
    guild, general, ann, channel, lobby, table = await open_with_ai(
        env, "foster", {"deals_per_player": 1})
    await ann.click(lobby, label="Start")
    assert "Not cut by anyone" in message_text(table.table_message())
    await play_out(env, table, ann, random.Random(2))
    assert "Not cut by anyone" in await proof_of(ann, last_showdown(channel))
    assert "Deals cut by a player: 0 of 3 (not cut: 1, 2, 3)." in field(
        final_standings(channel), "Fair shuffle")
    record, _ = await export(ann, general, table=1)
    ok, out = verify_record(record, commitment_shown=shown_commitment(channel),
                            head_shown=record["shuffle"]["head"])
    assert not ok and statuses(out)["cuts"] == "not proven"
    assert "deals 1, 2, 3 were not cut by anyone" in next(
        c["detail"] for c in out["checks"] if c["check"] == "cuts")
    assert {d["status"] for d in out["deals"]} == {"not cut"}


async def test_the_commitment_is_posted_before_anything_and_the_heads_follow_the_record(
        simcord_env):
    """The fair-shuffle message comes with the lobby and is never edited; the lobby links
    to it and lists the cuts; each table message and showdown says who cut the deal, and
    each showdown's head is the head of the exported record after that deal."""
    env = simcord_env
    guild, general, ann, channel, lobby, table = await open_with_ai(
        env, "foster", {"deals_per_player": 2})
    message = fair_message(channel)
    [(committed, message_id)] = await rows(env.bot, "SELECT game_commitment,"
                                           " commitment_message_id FROM tables")
    assert HEX64.fullmatch(committed) and committed in message.content
    assert message_id == message.id and "never edits this message" in message.content
    shuffle = field(lobby_of(channel), "Fair shuffle")
    assert committed[:16] in shuffle and f"/{message.id})" in shuffle
    assert "No cut for deal 1 yet" in shuffle
    res = await cut_with_form(ann, lobby_of(channel), "  apple   pie ")
    assert private(res) and "Your cut for deal 1: `apple pie`" in answer_text(res)
    assert "Cuts for deal 1: ann `apple pie`." in field(lobby_of(channel), "Fair shuffle")
    again = await ann.slash(channel, "commerce cut", text="pear")
    assert "You already cut deal 1 with `apple pie`" in answer_text(again)
    await ann.click(lobby_of(channel), label="Start")
    assert "Shuffle cut by ann: apple pie" in table.table_message().embeds[0].footer.text
    shown: dict[int, str] = {}

    async def check(live) -> None:
        deal = live.deal
        if deal.finished and live.deal_number not in shown and deal.showdown is not None:
            text = await proof_of(ann, last_showdown(channel))
            shown[live.deal_number] = re.search(r"Record so far: `([0-9a-f]{16})`", text)[1]

    await play_out(env, table, ann, random.Random(5), on_step=check, cut=0.5)
    record, _ = await export(ann, general, table=1)
    key = chain_key(bytes.fromhex(record["shuffle"]["seed"]), record["table"])
    heads = dict(zip([w for w, _ in chain_entries(record)],
                     chain_heads(key, [e for _, e in chain_entries(record)]), strict=True))
    assert len(shown) == 6
    for number, head in shown.items():
        assert heads[f"deal {number}"].startswith(head)
    assert edits_of(env, message) == []
    assert verify_record(record)[1]["deals"][0]["cut_by"] == [
        {"seat": 0, "player": "ann", "text": "apple pie"}]


async def test_only_seated_members_cut_with_a_word_that_shows_as_it_is(simcord_env):
    env = simcord_env
    guild, general, ann, channel, lobby, table = await open_with_ai(env, "widow", {})
    ben = guild.add_member(env.create_user("ben"))
    res = await ben.click(lobby, label="Cut")
    assert private(res) and "Only players seated" in answer_text(res)
    res = await ben.slash(channel, "commerce cut", text="mine")
    assert "Only players seated" in answer_text(res)
    res = await ann.slash(general, "commerce cut", text="mine")
    assert "no open table in this channel" in answer_text(res)
    for bad in ("`tick`", "**bold**", "a\u202eb"):
        res = await ann.slash(channel, "commerce cut", text=bad)
        assert private(res) and "A cut may hold" in answer_text(res), answer_text(res)
    assert await rows(env.bot, "SELECT COUNT(*) FROM shuffle_events") == [(0,)]
    res = await ann.slash(channel, "commerce cut", text="日本 42")
    assert "`日本 42`" in answer_text(res)
    assert await rows(env.bot, "SELECT kind, deal_number, member_id FROM shuffle_events") == [
        ("cut", 1, ann.id)]
    assert env.errors == []


async def test_a_cut_form_sent_after_a_restart_still_counts(simcord_env, make_bot):
    env = simcord_env
    guild, general, ann, channel, lobby, table = await open_with_ai(env, "foster", {})
    shown = await ann.click(lobby, label="Cut")
    await restart(env, make_bot())
    table.bot_ref.append(env.bot)
    res = await ann.submit_modal(shown, {CUT_FIELD: "after"})
    assert "Your cut for deal 1: `after`" in answer_text(res)
    await ann.click(lobby_of(channel), label="Start")
    assert table.live.game.shuffle_log.attempts[0].cuts[0].text == "after"


async def test_a_deal_whose_write_fails_is_burned_and_the_record_lists_it(simcord_env,
                                                                         monkeypatch):
    """Issue 19, attack 2: a failed write used to leave the committed seed for a new
    press and a new deck, with no trace. Now the attempt is written first; the failed
    deal is burned, the next attempt deals another deck, the table message and the
    showdown say so, and the record lists the burned attempt with the deck it would
    have dealt."""
    env = simcord_env
    guild, general, ann, channel, lobby, table = await open_with_ai(
        env, "foster", {"deals_per_player": 1})
    await ann.click(lobby, label="Start")
    storage = env.bot.storage
    real = storage.start_deal
    failed = []

    async def failing(*args, **kwargs):
        if not failed:
            failed.append(args)
            raise sqlite3.OperationalError("disk I/O error")
        return await real(*args, **kwargs)

    while not table.live.deal.finished:
        await env.advance_time(121)
    monkeypatch.setattr(storage, "start_deal", failing)
    res = await ann.click(last_showdown(channel), label="Next deal")
    assert failed and "storage problem" in answer_text(res)
    assert table.live.deal_number == 1
    res = await ann.click(last_showdown(channel), label="Next deal")
    assert table.live.deal_number == 2
    assert "1 earlier attempt burned after a failed write" in \
        table.table_message().embeds[0].footer.text
    await play_out(env, table, ann, random.Random(3), cut=1.0)
    record, _ = await export(ann, general, table=1)
    assert record["shuffle"]["burned"] == [{"deal": 2, "attempt": 1, "cuts": []}]
    assert record["deals"][1]["attempt"] == 2
    ok, out = verify_record(record, commitment_shown=shown_commitment(channel),
                            head_shown=record["shuffle"]["head"])
    assert statuses(out)["complete"] == statuses(out)["random"] == "proven"
    shuffler = Shuffler(bytes.fromhex(record["shuffle"]["seed"]), record["table"], "foster")
    burned_deck = [("23456789TJQKA"[c // 4] + "cdhs"[c % 4])
                   for c in shuffler.deck(2, 1, ())]
    assert out["burned"] == [{"deal": 2, "attempt": 1, "cut_by": [], "deck": burned_deck}]
    assert burned_deck != record["deals"][1]["deck"]
    assert env.errors == []


async def test_ending_a_game_reveals_its_seed_and_exports_it(simcord_env):
    env = simcord_env
    guild, general, ann, channel, lobby, table = await open_with_ai(env, "jaques", {})
    await ann.click(lobby, label="Start")
    [(seed,)] = await rows(env.bot, "SELECT game_seed FROM tables")
    res = await ann.slash(channel, "commerce end")
    assert "voided" in answer_text(res) and f"The game's seed, now public: `{seed}`" in \
        answer_text(res)
    record, _ = await export(ann, channel)  # no table named: the channel's last game
    assert record["shuffle"]["seed"] == seed and record["shuffle"]["end"] == "closed"
    final = final_standings(channel)
    ok, out = verify_record(record, commitment_shown=shown_commitment(channel),
                            head_shown=re.search(r"Record head: `([0-9a-f]{64})`",
                                                 field(final, "Fair shuffle"))[1])
    assert statuses(out) == {"commitment": "proven", "random": "proven",
                             "cuts": "not proven", "complete": "proven", "chain": "proven",
                             "published": "proven"}


class SeedAudit(logging.Handler):
    """Every log record of every logger, checked against the seeds secret when it is
    made: the open tables' game seeds (the bot's memory and storage)."""

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
            if live.game_seed is not None:
                seeds.add(live.game_seed)
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


async def test_no_secret_seed_in_any_message_rest_payload_or_log_at_debug(
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
                assert secret, "the game's seed is secret until the game is over"
                for text in (rest_text(env), every_message_text(env)):
                    assert not [s for s in secret if s in text]
                checked += 1
                res = await watcher.slash(general, "commerce history")
                assert "No game has finished" in message_text(
                    res.followups[-1] if res.followups else res.response)
                refused = await watcher.slash(general, "commerce export", table=1)
                assert "not over yet" in answer_text(refused)

            await check(None)
            await cut_with_form(ann, lobby, "secretive")
            await ann.click(lobby_of(channel), label="Start")
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
                    await ann.slash(channel, "commerce cut", text=f"w{live.deal_number}")
                    await ann.click(last_showdown(channel), label="Next deal")
                else:
                    await env.advance_time(31)
            assert table.live.game.complete
            [(seed,)] = await rows(env.bot, "SELECT game_seed FROM tables")
            assert seed in every_message_text(env)  # shown once the game is over
            # a deal's proof asked once the game is over no longer says it is to come
            proof = await ann.click(last_showdown(channel), label="Proof")
            assert proof.ephemeral and "final standings show its seed." in answer_text(proof)
            assert "once the game is over" not in answer_text(proof), answer_text(proof)
            assert env.errors == []
    finally:
        for b in bots:
            await b.close_storage()
    assert checked >= 4
    assert audit.records > 100
    assert audit.leaks == [], "\n".join(audit.leaks[:5])


async def test_a_lobby_from_before_gets_its_seed_and_message_at_start(simcord_env, make_bot):
    """A lobby opened before one seed covered a game has no game seed: Start draws one,
    posts the fair-shuffle message, then deals from it."""
    env = simcord_env
    guild, general, ann, channel, lobby, table = await open_with_ai(
        env, "foster", {"deals_per_player": 1})
    db = env.bot.database
    fair_message(channel)  # posted with the lobby; a lobby from before had none
    await drop_trigger(db, "tables_game_seed_fixed", "tables")
    await drop_trigger(db, "tables_commitment_message_fixed", "tables")
    await execute(db, "UPDATE tables SET game_seed = NULL, game_commitment = NULL,"
                      " commitment_message_id = NULL")
    await restart(env, make_bot())
    table.bot_ref.append(env.bot)
    await ann.slash(channel, "commerce cut", text="old lobby")  # posts it, if still owed
    await ann.click(lobby_of(channel), label="Start")
    posted = [m for m in channel.history() if (m.content or "").startswith("🔒 **Fair shuffle")]
    assert len(posted) == 2
    [(committed, message_id)] = await rows(db, "SELECT game_commitment, commitment_message_id"
                                               " FROM tables")
    assert message_id == posted[-1].id and committed in posted[-1].content
    await play_out(env, table, ann, random.Random(4), cut=1.0)
    record, _ = await export(ann, general, table=1)
    assert record["shuffle"]["commitment"] == committed
    assert verify_record(record, commitment_shown=committed,
                         head_shown=record["shuffle"]["head"])[0]


async def test_a_game_begun_before_plays_on_as_format_1(simcord_env, make_bot):
    """A game started before this version (no game seed) deals its remaining deals as
    before, a seed of their own and the bot's cut: its record is format 1, which
    ``verify`` never calls proven, and nobody can cut it."""
    env = simcord_env
    guild, general, ann, channel, lobby, table = await open_with_ai(
        env, "foster", {"deals_per_player": 1})
    await ann.click(lobby, label="Start")
    db = env.bot.database
    await drop_trigger(db, "tables_game_seed_fixed", "tables")
    await drop_trigger(db, "deals_proof_fixed", "deals")
    await execute(db, "UPDATE tables SET game_seed = NULL, game_commitment = NULL")
    await execute(db, "UPDATE deals SET attempt = NULL, commitment = ?, seed = ?, cuts = '[]'",
                  ("00" * 32, "11" * 32))
    await restart(env, make_bot())
    table.bot_ref.append(env.bot)
    res = await ann.slash(channel, "commerce cut", text="late")
    assert "began before players could cut" in answer_text(res)
    await play_out(env, table, ann, random.Random(6))
    record, _ = await export(ann, general, table=1)
    assert "format" not in record and all("seed" in d for d in record["deals"][1:])
    ok, out = verify_record(record)
    assert not ok and out["format"] == 1
    assert [d["status"] for d in out["deals"][1:]] == ["verified"] * (len(record["deals"]) - 1)


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



async def test_twelve_long_names_and_cuts_stay_within_discords_limits(simcord_env):
    """Twelve members with 16-character names each cut with 32 characters: the lobby, the
    table message, the showdown, the final standings and the history (SimCord refuses a
    message over Discord's limits) all show it, or sum it up."""
    env = simcord_env
    guild = env.create_guild()
    general = guild.create_text_channel("general")
    members = [guild.add_member(env.create_user(f"{i:02d}" + "ẞ" * 14)) for i in range(12)]
    res = await members[0].slash(general, "commerce new", deals_per_player=1)
    assert res.ephemeral, answer_text(res)
    channel = guild.channels["commerce-1"]
    for member in members[1:]:
        await member.click(lobby_of(channel), label="Join")
    for i, member in enumerate(members):
        res = await member.slash(channel, "commerce cut", text=f"{i:02d}" + "W" * 30)
        assert "Your cut for deal 1" in answer_text(res)
    assert "12 players" in field(lobby_of(channel), "Fair shuffle")
    await members[0].click(lobby_of(channel), label="Start")
    table = Table(env, [env.bot], channel, {m.id: m for m in members})
    assert len(table.table_message().embeds[0].footer.text) <= 2048
    for _ in range(100):
        if table.live.deal.finished:
            break
        await env.advance_time(121)
    assert "Cut by 12 players" in await proof_of(members[0], last_showdown(channel))
    res = await members[0].slash(channel, "commerce end")
    assert "seed, now public" in answer_text(res)
    final = final_standings(channel)
    assert "Record head" in field(final, "Fair shuffle")
    history = await members[1].slash(general, "commerce history")
    assert history.response.embeds
    assert env.errors == []
