"""``/commerce-admin export``: a server's admin gets THAT server's own data as one zip
file, only they see it — settings, ledger, balances, and each finished game's record as
``/commerce export`` gives it (each proven fair by ``verify``) — and nothing of another
server nor of a game still running; once per ten minutes per server, whoever presses
(a press inside the window is told when, and reads and writes nothing). It replaces
``/commerce-admin backup``, which wrote a whole-database copy on the host at every press."""

from __future__ import annotations

import io
import json
import random
import re
import sqlite3
import sys
import zipfile

import discord
import pytest

from bot.engine.proof import verify_record
from bot.service import EXPORT_INTERVAL
from tests.cogs.helpers import Table, answer_text, emit_slash, private, rows
from tests.cogs.test_fair_deals import export, open_with_ai, play_out


def manager(env, guild, name: str):
    role = guild.create_role(f"Mods of {guild.id}",
                             permissions=discord.Permissions(manage_guild=True))
    return guild.add_member(env.create_user(name), roles=[role])


async def finished_game(env, guild, general, ann, number: int, seed: int) -> Table:
    """Table ``number`` of ``guild``: ``ann`` and two AI seats play foster to its end."""
    if number > 1:
        res = await ann.slash(general, "commerce new", rules="foster", deals_per_player=1)
        assert "ready" in answer_text(res), answer_text(res)
        channel = guild.channels[f"commerce-{number}"]
        await ann.click(channel.history()[0], label="Add AI")
        await ann.click(channel.history()[0], label="Add AI")
        table = Table(env, [env.bot], channel, {ann.id: ann})
    else:
        table = Table(env, [env.bot], guild.channels["commerce-1"], {ann.id: ann})
    await ann.click(table.channel.history()[0], label="Start")
    await play_out(env, table, ann, random.Random(seed))
    assert table.live.row.status == "finished"
    return table


async def two_servers(env):
    """Server A: two finished games (ann), a closed one and a running table (ben);
    server B: one finished game (zed). Returns (a, b) as dicts of what the tests use."""
    a_guild, a_general, ann, *_ = await open_with_ai(env, "foster", {"deals_per_player": 1})
    await finished_game(env, a_guild, a_general, ann, 1, 1)
    await finished_game(env, a_guild, a_general, ann, 2, 2)
    # a game closed before its end (its voided deal's seed is public then)
    res = await ann.slash(a_general, "commerce new", rules="jaques")
    channel = a_guild.channels["commerce-3"]
    await ann.click(channel.history()[0], label="Add AI")
    await ann.click(channel.history()[0], label="Add AI")
    await ann.click(channel.history()[0], label="Start")
    res = await ann.slash(channel, "commerce end")
    assert "voided" in answer_text(res), answer_text(res)
    # a table still running: its decks and seeds are secret
    ben = a_guild.add_member(env.create_user("ben"))
    await ben.slash(a_general, "commerce new", rules="foster")
    running = a_guild.channels["commerce-4"]
    await ben.click(running.history()[0], label="Add AI")
    await ben.click(running.history()[0], label="Add AI")
    await ben.click(running.history()[0], label="Start")
    b_guild, b_general, zed, *_ = await open_with_ai(env, "foster", {"deals_per_player": 1},
                                                     name="zed")
    await finished_game(env, b_guild, b_general, zed, 1, 3)
    return ({"guild": a_guild, "general": a_general, "ann": ann, "ben": ben,
             "running": running, "mod": manager(env, a_guild, "mod")},
            {"guild": b_guild, "general": b_general, "zed": zed,
             "mod": manager(env, b_guild, "bmod")})


def attachment(res):
    message = res.followups[-1] if res.followups else res.response
    return message, message.attachments


async def unzip(res) -> dict[str, bytes]:
    _, [file] = attachment(res)
    assert re.fullmatch(r"commerce-server-\d+-\d{8}-\d{6}\.zip", file.filename), file.filename
    with zipfile.ZipFile(io.BytesIO(await file.read())) as z:
        return {name: z.read(name) for name in z.namelist()}


async def test_the_export_of_a_server_holds_its_own_data_only_and_every_record_verifies(
        simcord_env):
    env = simcord_env
    a, b = await two_servers(env)
    res = await a["mod"].slash(a["general"], "commerce-admin export")
    assert private(res), answer_text(res)
    text = answer_text(res)
    assert "3 finished games" in text and "Next export possible <t:" in text, text
    files = await unzip(res)
    assert sorted(files) == ["README.txt", "balances.json", "games.json",
                             "games/commerce-table-1.json", "games/commerce-table-2.json",
                             "games/commerce-table-3.json", "ledger.json", "server.json"]
    server = json.loads(files["server.json"])
    guild = a["guild"]
    assert server["format"] == "commerce-server-export" and server["version"] == 1
    assert server["guild_id"] == str(guild.id)
    assert server["settings"] == {"table_mode": "channel", "turn_timer": 120,
                                  "default_preset": "foster", "next_deal_delay": 30,
                                  "keep_days": 7, "max_tables": 10, "language": ""}
    assert server["open_tables"] == [{"number": 4, "status": "playing"}]
    assert server["games"] == {"file": "games.json", "included": 3, "left_out": 0}
    index = json.loads(files["games.json"])
    assert [g["number"] for g in index] == [3, 2, 1]  # newest first
    assert [g["status"] for g in index] == ["closed", "finished", "finished"]
    assert index[1]["players"] == ["ann", "AI Ada", "AI Babbage"]  # names as stored
    assert index[1]["file"] == "games/commerce-table-2.json"
    # each game: byte for byte what /commerce export sends, and its shuffle checks out
    # (every check but the cuts, which nobody made, and what only the channel shows)
    for number in (1, 2, 3):
        data = files[f"games/commerce-table-{number}.json"]
        record = json.loads(data)
        ok, summary = verify_record(record, commitment_shown=record["shuffle"]["commitment"],
                                    head_shown=record["shuffle"]["head"])
        assert {c["check"]: c["status"] for c in summary["checks"]} == {
            "commitment": "proven", "random": "proven", "cuts": "not proven",
            "complete": "proven", "chain": "proven", "published": "proven"}, (number, summary)
        same, _ = await export(a["ann"], a["general"], table=number)
        assert record == same
        assert record["players"][0] == "ann"
    # the ledger and the balances are A's books, and agree with the bot's
    ledger = json.loads(files["ledger.json"])
    assert [r["n"] for r in ledger] == list(range(1, len(ledger) + 1))
    assert {r["table"] for r in ledger} <= {1, 2, 3, 4}
    stored = await rows(env.bot, "SELECT COUNT(*), SUM(amount) FROM ledger WHERE guild_id = ?",
                        (guild.id,))
    assert (len(ledger), sum(r["amount"] for r in ledger)) == stored[0]
    balances = json.loads(files["balances.json"])
    # ann's games, and ben's running one (its deals the AI played for him while he was away)
    assert {m["member_id"] for m in balances} <= {str(a["ann"].id), str(a["ben"].id)}
    for entry in balances:
        stats = await env.bot.storage.member_stats(guild.id, int(entry["member_id"]))
        assert entry["balance"] == stats.balance
    # nothing of server B, nothing secret of the running table
    blob = b"".join(files.values())
    b_tables = await rows(env.bot, "SELECT id FROM tables WHERE guild_id = ?", (b["guild"].id,))
    for secret in (str(b["guild"].id), str(b["zed"].id), "zed", str(b["mod"].id)):
        assert secret.encode() not in blob, secret
    assert {json.loads(files[f"games/commerce-table-{n}.json"])["table"] for n in (1, 2, 3)} \
        .isdisjoint({t for (t,) in b_tables})
    running = await rows(env.bot, "SELECT t.game_seed, d.deck FROM deals d JOIN tables t"
                                  " ON t.id = d.table_id WHERE t.guild_id = ? AND t.number = 4",
                         (guild.id,))
    assert running
    for seed, deck in running:
        assert seed.encode() not in blob
        assert json.dumps(deck.split()).encode() not in blob.replace(b"\n", b"").replace(b" ", b"")
    assert b'"ben"' not in blob  # the running table's host appears nowhere
    # only the admin saw it
    message, _ = attachment(res)
    assert any(m.id == message.id for m in a["general"].history(viewer=a["mod"]))
    for viewer in (a["ann"], a["ben"]):
        seen = a["general"].history(viewer=viewer)
        assert all(m.id != message.id for m in seen)
        assert not [f for m in seen for f in m.attachments if f.filename.endswith(".zip")]
    # audited on A only
    assert [a for _, a, _ in await env.bot.storage.audit_entries(guild.id)].count("export") == 1
    assert "export" not in [a for _, a, _ in await env.bot.storage.audit_entries(b["guild"].id)]

    # server B's admin gets B's game, never A's
    res = await b["mod"].slash(b["general"], "commerce-admin export")
    files = await unzip(res)
    assert sorted(n for n in files if n.startswith("games/")) == ["games/commerce-table-1.json"]
    assert json.loads(files["server.json"])["guild_id"] == str(b["guild"].id)
    blob = b"".join(files.values())
    assert str(a["ann"].id).encode() not in blob and b'"ann"' not in blob
    assert b'"players": [\n  "zed"' in files["games/commerce-table-1.json"]


async def test_presses_within_ten_minutes_are_refused_whoever_presses_and_do_nothing(
        simcord_env, monkeypatch: pytest.MonkeyPatch):
    env = simcord_env
    guild, general, ann, *_ = await open_with_ai(env, "foster", {"deals_per_player": 1})
    await finished_game(env, guild, general, ann, 1, 4)
    mod, mod2 = manager(env, guild, "mod"), manager(env, guild, "mod2")
    reads = []
    for name in ("ledger_rows", "past_games", "get_settings", "deals", "ledger_last_id"):
        real = getattr(env.bot.storage, name)

        async def counted(*args, _real=real, _name=name, **kwargs):
            reads.append(_name)
            return await _real(*args, **kwargs)
        monkeypatch.setattr(env.bot.storage, name, counted)

    first = await mod.slash(general, "commerce-admin export")
    assert len(attachment(first)[1]) == 1 and reads
    audit = await env.bot.storage.audit_entries(guild.id)
    files_before = sorted(p.name for p in env.bot.storage.path.parent.rglob("*"))
    for presser, wait in ((mod, 1), (mod2, 60), (mod, 60 * 8), (mod2, 60 - 2)):
        await env.advance_time(wait)
        reads.clear()
        res = await presser.slash(general, "commerce-admin export")
        assert private(res)
        text = answer_text(res)
        assert re.fullmatch(r"This server's data was exported <t:\d+:R>: the next export is "
                            r"possible <t:\d+:R>\.", text), text
        stamps = [int(s) for s in re.findall(r"<t:(\d+):R>", text)]
        assert stamps[1] - stamps[0] == EXPORT_INTERVAL.total_seconds()
        assert attachment(res)[1] == [] and reads == []
    assert await env.bot.storage.audit_entries(guild.id) == audit  # nothing written
    assert sorted(p.name for p in env.bot.storage.path.parent.rglob("*")) == files_before
    # another server is not held back by this one
    other, other_general, zed, *_ = await open_with_ai(env, "foster", {}, name="zed")
    res = await manager(env, other, "omod").slash(other_general, "commerce-admin export")
    assert len(attachment(res)[1]) == 1, answer_text(res)
    # ten minutes after the first, the next is made
    await env.advance_time(2)
    res = await mod2.slash(general, "commerce-admin export")
    assert len(attachment(res)[1]) == 1, answer_text(res)


async def test_a_member_without_manage_server_gets_no_file(simcord_env):
    env = simcord_env
    guild, general, ann, *_ = await open_with_ai(env, "foster", {"deals_per_player": 1})
    await finished_game(env, guild, general, ann, 1, 5)
    admin = env.backend.find_command("commerce-admin", guild.id)
    guild.set_command_permissions(int(admin["id"]), {ann: True})  # let in by an override
    res = await ann.slash(general, "commerce-admin export")
    assert private(res)
    assert answer_text(res) == "You need the **Manage Server** permission for that."
    assert attachment(res)[1] == []
    assert "export" not in [a for _, a, _ in await env.bot.storage.audit_entries(guild.id)]
    # and the refusal did not use the server's export: an admin gets one at once
    res = await manager(env, guild, "mod").slash(general, "commerce-admin export")
    assert len(attachment(res)[1]) == 1, answer_text(res)


async def test_over_the_upload_limit_the_most_recent_games_that_fit_are_sent(
        simcord_env, monkeypatch: pytest.MonkeyPatch):
    env = simcord_env
    guild, general, ann, *_ = await open_with_ai(env, "foster", {"deals_per_player": 1})
    for number in (1, 2, 3):
        await finished_game(env, guild, general, ann, number, 10 + number)
    mod = manager(env, guild, "mod")
    first = await mod.slash(general, "commerce-admin export")
    whole = await unzip(first)
    # one byte short of everything: the oldest games are left out, the newest kept
    limit = len(await attachment(first)[1][0].read()) - 1
    monkeypatch.setattr(sys.modules["cogs.admin"], "EXPORT_MAX_BYTES", limit)
    await env.advance_time(11 * 60)  # past the limit (kept in the audit across restarts)
    res = await mod.slash(general, "commerce-admin export")
    text = answer_text(res)
    _, [file] = attachment(res)
    assert len(await file.read()) <= limit
    files = await unzip(res)
    index = json.loads(files["server.json"])["games"]
    kept, left = index["included"], index["left_out"]
    assert kept >= 1 and left >= 1 and kept + left == 3, index
    assert sorted(n for n in files if n.startswith("games/")) == [
        f"games/commerce-table-{n}.json" for n in range(3 - kept + 1, 4)]
    assert [g["number"] for g in json.loads(files["games.json"])] == list(range(3, 3 - kept, -1))
    assert f"more than the {limit // 1024} KiB" in text, text
    assert f"the most recent {kept} finished game" in text, text
    assert ("1 older one was left out" if left == 1 else f"{left} older ones were left out") \
        in text, text
    for name in files:
        if name.startswith("games/") or name in ("ledger.json", "balances.json"):
            assert files[name] == whole[name], name


async def test_an_export_that_fails_does_not_count_against_the_ten_minutes(
        simcord_env, monkeypatch: pytest.MonkeyPatch):
    env = simcord_env
    guild, general, ann, *_ = await open_with_ai(env, "foster", {"deals_per_player": 1})
    await finished_game(env, guild, general, ann, 1, 6)
    mod = manager(env, guild, "mod")
    real = env.bot.storage.ledger_rows

    async def broken(*args, **kwargs):
        raise sqlite3.OperationalError("disk I/O error")
    monkeypatch.setattr(env.bot.storage, "ledger_rows", broken)
    res = await mod.slash(general, "commerce-admin export")
    assert answer_text(res) == ("The export could not be read (a storage problem on the bot's "
                                "side). Try again in a moment.")
    assert attachment(res)[1] == []
    # a ledger too large for the upload limit is said so, and does not count either
    monkeypatch.setattr(env.bot.storage, "ledger_rows", real)
    monkeypatch.setattr(sys.modules["cogs.admin"], "EXPORT_MAX_BYTES", 600)
    res = await mod.slash(general, "commerce-admin export")
    assert answer_text(res).startswith("This server's ledger alone is larger than the 600 bytes the bot may")
    assert "export" not in [a for _, a, _ in await env.bot.storage.audit_entries(guild.id)]
    monkeypatch.undo()
    res = await mod.slash(general, "commerce-admin export")
    assert len(attachment(res)[1]) == 1, answer_text(res)


async def test_two_admins_pressing_at_the_same_moment_get_one_export(simcord_env):
    """Discord runs two presses at once: the server's export is claimed before any wait,
    so the second press is refused even while the first is still being read."""
    env = simcord_env
    guild, general, ann, *_ = await open_with_ai(env, "foster", {"deals_per_player": 1})
    await finished_game(env, guild, general, ann, 1, 7)
    mods = [manager(env, guild, "mod"), manager(env, guild, "mod2")]
    results = [emit_slash(env, m, general, "commerce-admin export") for m in mods]
    await env.settle()
    files = [len(attachment(r)[1]) for r in results]
    assert sorted(files) == [0, 1], [answer_text(r) for r in results]
    refused = results[files.index(0)]
    assert private(refused) and "the next export is possible <t:" in answer_text(refused)
    audit = [a for _, a, _ in await env.bot.storage.audit_entries(guild.id)]
    assert audit.count("export") == 1


async def test_the_export_reads_in_short_pages_and_lets_other_work_in_between(
        simcord_env, monkeypatch: pytest.MonkeyPatch):
    """Each page is one short storage call; between them the bot's one connection is
    free, so the moves of every other table go in between (a whole-database copy held it
    for its whole run)."""
    env = simcord_env
    guild, general, ann, *_ = await open_with_ai(env, "foster", {"deals_per_player": 1})
    await finished_game(env, guild, general, ann, 1, 8)
    await finished_game(env, guild, general, ann, 2, 9)
    monkeypatch.setattr(sys.modules["bot.service.exports"], "LEDGER_PAGE", 10)
    monkeypatch.setattr(sys.modules["bot.service.exports"], "GAMES_PAGE", 1)
    storage = env.bot.storage
    calls: list[tuple[str, bool]] = []
    for name in ("ledger_rows", "past_games", "get_table", "deals", "seats", "hints"):
        real = getattr(storage, name)

        async def watched(*args, _real=real, _name=name, **kwargs):
            calls.append((_name, storage._lock.locked()))  # the connection is free here
            return await _real(*args, **kwargs)
        monkeypatch.setattr(storage, name, watched)
    rows_in_ledger = (await rows(env.bot, "SELECT COUNT(*) FROM ledger WHERE guild_id = ?",
                                 (guild.id,)))[0][0]
    res = await manager(env, guild, "mod").slash(general, "commerce-admin export")
    assert len(attachment(res)[1]) == 1, answer_text(res)
    pages = [c for c in calls if c[0] == "ledger_rows"]
    assert len(pages) == rows_in_ledger // 10 + 1  # the last page is short or empty
    assert [c for c in calls if c[0] == "past_games"] == [("past_games", False)] * 3
    assert all(not held for _, held in calls)
