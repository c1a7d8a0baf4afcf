"""Issue 11: ``/commerce history`` lists the server's finished games, opens a game, its
deals (hands, payments, how each ended, the proof of its shuffle) and replays a deal
step by step with every hand as it was; its controls keep their state in their ids,
so they work after any wait and a restart. A game that is not over never appears."""

from __future__ import annotations

import json
import random

from bot.engine import replay
from bot.engine.proof import verify_record
from bot.service import lifecycle
from bot.ui.cards import hand_label
from bot.ui.components import NOT_HERE
from bot.ui.words import signed
from tests.cogs.helpers import answer_text, message_text, restart
from tests.cogs.test_controls import controls, forge
from tests.cogs.test_fair_deals import open_with_ai, play_out


def labels(env, message) -> dict[str, dict]:
    """The message's buttons by label, and its menu as ``"menu"``."""
    out = {}
    for c in controls(env, message):
        out["menu" if c["type"] == 3 else c["label"]] = c
    return out


async def choose(env, actor, message, value: str):
    menu = labels(env, message)["menu"]
    assert value in [o["value"] for o in menu["options"]], (value, menu["options"])
    res = await actor.select(message, [value], custom_id=menu["custom_id"])
    assert res.acknowledged, answer_text(res)
    return res


async def press(env, actor, message, label: str):
    button = labels(env, message)[label]
    assert not button.get("disabled"), label
    res = await actor.click(message, custom_id=button["custom_id"])
    assert res.acknowledged and "Something went wrong" not in answer_text(res)
    return res


def field(embed, name: str) -> str:
    return next(f.value for f in embed.fields if f.name.startswith(name))


async def test_history_opens_a_finished_game_its_deals_and_a_replay_even_after_a_restart(
        simcord_env, make_bot):
    env = simcord_env
    guild, general, ann, channel, lobby, table = await open_with_ai(
        env, "foster", {"deals_per_player": 1})
    await ann.slash(channel, "commerce cut", text="word 1")
    await ann.click(lobby, label="Start")
    await play_out(env, table, ann, random.Random(2), cut=1.0)
    live = table.live
    game = live.game
    record = await env.bot.service.archive.record(live.id)
    # another table still running: never in the history
    ben = guild.add_member(env.create_user("ben"))
    await ben.slash(general, "commerce new")
    await ben.click(guild.channels["commerce-2"].history()[0], label="Add AI")
    await ben.click(guild.channels["commerce-2"].history()[0], label="Add AI")
    await ben.click(guild.channels["commerce-2"].history()[0], label="Start")

    res = await ben.slash(general, "commerce history")
    assert res.ephemeral
    message = res.response
    listing = message.embeds[0]
    assert listing.title == "Commerce history"
    assert "Table 1" in listing.description and "Table 2" not in listing.description
    assert "ann, 🤖 AI Ada, 🤖 AI Babbage" in listing.description
    assert listing.footer.text.startswith("Page 1 of 1 · 1 game ")
    # the game: its standing, one line per deal, what the bot's own check proves, and how
    # to check without trusting it
    await choose(env, ben, message, str(live.id))
    overview = message.embeds[0]
    assert overview.title.startswith("Table 1 · foster")
    assert len(field(overview, "Deals").splitlines()) == len(game.deals) == 3
    assert overview.footer.text.startswith("Deals cut by a player: 3 of 3")
    checks = field(overview, "Fair shuffle (checked by the bot)").splitlines()
    assert [line.split("**")[1] for line in checks[:5]] == [
        "Commitment", "Every random choice", "Cuts", "Complete", "Record chain"]
    assert all(line.startswith("✅") for line in checks[:5])
    assert "--commitment" in checks[5] and "--head" in checks[5]
    # a deal: its hands at the end, payments and proof
    await choose(env, ben, message, "2")
    deal = game.deals[1]
    shown = message.embeds[0]
    assert shown.title == "Table 1 · foster · deal 2 of 3"
    hands = field(shown, "Hands at the end").splitlines()
    for seat, hand in enumerate(deal.showdown.hands):
        assert hand_label(hand) in hands[seat]
    names = ["ann", "🤖 AI Ada", "🤖 AI Babbage"]
    payments = field(shown, "Payments").splitlines()  # itemised by reason (bot/ui/payments.py)
    assert [line.split(" (")[0] for line in payments] == [
        f"{n}: {signed(d)} point{'' if abs(d) == 1 else 's'}"
        for n, d in zip(names, deal.delta, strict=True)]
    assert all("ante −1" in line for line in payments)  # foster: every seat antes 1
    proof = field(shown, "Proof of the shuffle")
    assert proof.startswith("Attempt 1 · cut by ann `word 2`") and "Proven" in proof
    # the replay: step 0 is the deal as dealt, the last step the hands at the showdown
    await press(env, ben, message, "Replay")
    steps = len(deal.operations)
    dealt = replay({**record, "deals": [*record["deals"][:1],
                                        {**record["deals"][1], "actions": []}]}).deals[1]
    for step in range(steps + 1):
        embed = message.embeds[0]
        assert embed.title == f"Table 1 · deal 2 · step {step} of {steps}"
        lines = field(embed, "Hands").splitlines()
        expected = dealt.hands if step == 0 else None
        if step == steps:
            expected = deal.hands
        if expected is not None:
            for seat, hand in enumerate(expected):
                assert hand_label(hand) in lines[seat], (step, lines)
        if step < steps:
            await press(env, ben, message, "Next")
    assert labels(env, message)["Next"].get("disabled")
    assert "The deal is over" in message.embeds[0].description
    # after a restart (and long after), the controls still work
    await env.advance_time(3600)
    await restart(env, make_bot())
    await press(env, ben, message, "Previous")
    assert message.embeds[0].title == f"Table 1 · deal 2 · step {steps - 1} of {steps}"
    await press(env, ben, message, "Back to the deal")
    await press(env, ben, message, "Next deal")
    assert message.embeds[0].title == "Table 1 · foster · deal 3 of 3"
    await press(env, ben, message, "Back to the game")
    exported = await press(env, ben, message, "Export")
    sent = exported.followups[-1] if exported.followups else exported.response
    [attachment] = sent.attachments
    assert json.loads(await attachment.read()) == record
    assert not verify_record(record)[0]  # until compared with what the channel showed
    assert verify_record(record, commitment_shown=record["shuffle"]["commitment"],
                         head_shown=record["shuffle"]["head"])[0]
    await press(env, ben, message, "Back to the list")
    assert message.embeds[0].title == "Commerce history"
    assert env.errors == []


async def closed_games(env, guild, general, ann, count: int) -> None:
    """``count`` games started and ended at once (each closed with its deal voided)."""
    for number in range(1, count + 1):
        await ann.slash(general, "commerce new")
        channel = guild.channels[f"commerce-{number}"]
        for label in ("Add AI", "Add AI", "Start"):
            await ann.click(channel.history()[0], label=label)
        res = await ann.slash(channel, "commerce end")
        assert "voided" in answer_text(res)


async def test_history_pages_and_never_shows_a_game_that_is_not_over(simcord_env, monkeypatch):
    env = simcord_env
    # twelve games ended at once by one member: past the limit on games not played to
    # their end (bot/service/lifecycle.py OPEN_BURST), which is not what this test is about
    monkeypatch.setattr(lifecycle, "OPEN_BURST", 100)
    guild = env.create_guild()
    general = guild.create_text_channel("general")
    ann = guild.add_member(env.create_user("ann"))
    await closed_games(env, guild, general, ann, 12)
    await ann.slash(general, "commerce new")
    running = guild.channels["commerce-13"]
    for label in ("Add AI", "Add AI", "Start"):
        await ann.click(running.history()[0], label=label)
    running_id = env.bot.service.in_channel(running.id).id
    res = await ann.slash(general, "commerce history")
    message = res.response
    assert message.embeds[0].footer.text.startswith("Page 1 of 2 · 12 games")
    assert message_text(message).count("closed before its end") == 10
    assert "Table 13" not in message_text(message)
    assert labels(env, message)["Previous"].get("disabled")
    await press(env, ann, message, "Next")
    assert message.embeds[0].footer.text.startswith("Page 2 of 2")
    assert "Table 2" in message_text(message) and "Table 1" in message_text(message)
    table_1 = (await env.bot.storage.past_game(guild.id, number=1)).table_id
    await choose(env, ann, message, str(table_1))
    # a voided deal is over: shown with its proof (nobody cut it), in the words of its
    # table message and its showdown's Proof (issue 23 §3)
    await choose(env, ann, message, "1")
    assert "voided when the table closed" in message.embeds[0].description
    assert "**Not cut by anyone: the bot alone shuffled this deal.**" in field(
        message.embeds[0], "Proof of the shuffle")
    await press(env, ann, message, "Replay")
    while not labels(env, message)["Next"].get("disabled"):
        await press(env, ann, message, "Next")
    assert "voided when the table closed" in message.embeds[0].description
    # the running table is refused however it is asked for
    direct = await ann.slash(general, "commerce history", table=13)
    assert direct.ephemeral and "not over yet" in answer_text(direct)
    gid = guild.id
    for custom_id, values in (
            (f"commerce:histsel:{gid}:0:0", [str(running_id)]),
            (f"commerce:histsel:{gid}:0:{running_id}", ["1"]),
            (f"commerce:hist:{gid}:step:0:{running_id}:1:0:next", None),
            (f"commerce:hist:{gid}:export:0:{running_id}:0:0:export", None)):
        forged = forge(env, ann, message, custom_id, values)
        await env.settle()
        assert forged.ephemeral and "not in this server's history" in answer_text(forged), (
            custom_id, answer_text(forged))
    # a control of this guild's history pressed in another guild does nothing
    away = env.create_guild(name="away")
    away_general = away.create_text_channel("general")
    zed = away.add_member(env.create_user("zed"))
    await zed.slash(away_general, "commerce new")
    carrier = away.channels["commerce-1"].history()[0]
    forged = forge(env, zed, carrier, f"commerce:hist:{gid}:game:0:1:0:0:back")
    await env.settle()
    assert forged.ephemeral and answer_text(forged) == NOT_HERE
    assert env.errors == []


async def test_stats_count_deals_won_by_hand_and_knocks_per_preset(simcord_env):
    env = simcord_env
    guild, general, ann, channel, lobby, table = await open_with_ai(
        env, "foster", {"deals_per_player": 2})
    await ann.click(lobby, label="Start")
    await play_out(env, table, ann, random.Random(8))
    game = table.live.game
    seat = table.live.seat_of(ann.id)
    won = [d for d in game.deals if d.showdown.winner == seat]
    knocked = [d for d in game.deals if d.showdown.knocker == seat]
    assert won and knocked, "the seed gives ann a won deal and a knock"
    stats = await env.bot.storage.member_stats(guild.id, ann.id)
    assert sum(stats.won_by_category.values()) == len(won) == stats.deals_won
    assert [(k.preset, k.knocks, k.knocks_won) for k in stats.knocks] == (
        [("foster", len(knocked), sum(d.showdown.winner == seat for d in knocked))]
        if knocked else [])
    res = await ann.slash(general, "commerce stats")
    embed = res.response.embeds[0]
    text = message_text(res.response)
    if won:
        assert field(embed, "Deals won, by hand")
    if knocked:
        assert f"foster: {len(knocked)} / " in text
    assert env.errors == []
