"""The server ledger: a 12-player game, a paginated leaderboard and stats; issue 11:
stats per preset (trades, barters, best hands with their deal) and the leaderboard
filtered by preset and period, through its pager."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

from bot.engine import PRESETS, describe
from bot.ui.components import NOT_HERE, BoardFilter, LeaderboardButton
from bot.ui.words import signed
from tests.cogs.helpers import Table, answer_text, board_lines, database, message_text, open_table
from tests.cogs.test_controls import controls, forge

NAMES = tuple(f"p{i:02d}" for i in range(12))


def figure(text: str) -> int:
    """A balance as the bot prints it (``+3``, ``−2`` with a true minus sign, ``±0``)."""
    return int(text.replace("−", "-").replace("±", ""))


async def test_twelve_players_leaderboard_pages_and_stats(simcord_env, bots):
    env = simcord_env
    guild, table, actors, lobby = await open_table(env, bots, NAMES)
    await actors[0].click(lobby, label="Start")
    while True:
        live = table.live
        if live.deal.finished:
            if live.game.complete:
                break
            await actors[0].click(table.channel.history()[-1], label="Next deal")
            continue
        await table.knock(table.actor_to_act())
    game = table.live.game
    assert game.deals_played == 12 and sum(game.ledger) == 0
    res = await actors[0].slash(table.channel, "commerce leaderboard")
    first = res.response.embeds[0]
    assert first.footer.text.startswith("Page 1 of 2") and len(first.description.splitlines()) == 10
    balances = [figure(line.rsplit(": ", 1)[1]) for line in first.description.splitlines()]
    assert balances == sorted(balances, reverse=True)
    # someone else cannot turn the pages; the owner can
    other = await actors[1].click(res.response, label="Next")
    assert other.ephemeral and "Only the member who asked" in other.response.content
    turned = await actors[0].click(res.response, label="Next")
    page2 = turned.response.embeds[0]
    assert page2.footer.text.startswith("Page 2 of 2") and len(page2.description.splitlines()) == 2
    rest = [figure(line.rsplit(": ", 1)[1]) for line in page2.description.splitlines()]
    assert sum(balances) + sum(rest) == 0
    # stats agree with the engine's ledger and showdowns
    seat = table.live.seat_of(actors[3].id)
    res = await actors[0].slash(table.channel, "commerce stats", member=actors[3])
    text = message_text(res.response)
    assert signed(game.ledger[seat]) in text
    deals_won = sum(1 for d in game.deals if d.showdown.winner == seat)
    assert f"12 played, {deals_won} won" in text
    won_game = 1 if seat in game.winners else 0
    assert f"1 played, {won_game} won" in text


# ---------------------------------------------------------------- issue 11: stats and filters
async def open_game(env, guild, general, number: int, preset: str, actors):
    """``actors[0]`` opens table ``number`` of ``preset``, the others join, the
    first starts. Returns the ``Table``."""
    res = await actors[0].slash(general, "commerce new", rules=preset)
    assert res.ephemeral, answer_text(res)
    channel = guild.channels[f"commerce-{number}"]
    lobby = channel.history()[0]
    for a in actors[1:]:
        await a.click(lobby, label="Join")
    await actors[0].click(lobby, label="Start")
    return Table(env, [env.bot], channel, {a.id: a for a in actors})


async def play_deal(table, rng: random.Random, moves: int = 6) -> None:
    """Play the open deal to its end through the table's buttons: trades, barters
    (accepted or refused) and, after ``moves`` moves or at random, a knock."""
    deal = table.live.deal
    made = 0
    while not deal.finished:
        seat = deal.to_act
        actor = table.members[table.live.member_of(seat)]
        legal = deal.legal_actions(seat)
        if "accept" in legal:
            if "refuse" in legal and rng.random() < 0.3:
                await table.refuse(actor)
            else:
                await table.accept(actor)
        else:
            made += 1
            choice = "knock" if made > moves else rng.choice(
                [a for a in legal if a in ("trade", "barter")] + ["knock"] * (made > 2))
            await getattr(table, choice)(actor)
        deal = table.live.deal


def moves_of(game, seat: int) -> tuple[int, int, int]:
    """(trades, barters offered, barters accepted) of ``seat`` in the engine's record."""
    trades = barters = accepted = 0
    for deal in game.deals:
        ops = list(deal.operations)
        for i, op in enumerate(ops):
            if op.seat != seat:
                continue
            if op.kind == "trade":
                trades += 1
            elif op.kind == "barter_offer":
                barters += 1
                answer = ops[i + 1] if i + 1 < len(ops) else None
                accepted += bool(answer is not None and answer.kind == "barter_answer"
                                 and answer.card is not None)
    return trades, barters, accepted


def best_of(game, seat: int, ranking: str) -> tuple[int, str, int]:
    """(score, label, deal number from 1) of the seat's best final hand, earliest first."""
    best = None
    for n, deal in enumerate(game.deals, start=1):
        sd = deal.showdown
        if sd is None or sd.scores[seat] is None:
            continue
        if best is None or sd.scores[seat] > best[0]:
            best = (sd.scores[seat], describe(sd.hands[seat], ranking), n)
    assert best is not None
    return best


def field_value(embed, name: str) -> str:
    return next(f.value for f in embed.fields if f.name == name)


def ranked(balances: dict[int, int]) -> list[tuple[int, int, int]]:
    order = sorted(balances.items(), key=lambda kv: (-kv[1], kv[0]))
    return [(i + 1, m, b) for i, (m, b) in enumerate(order)]


def balances_of(table) -> dict[int, int]:
    """Each member's points at the table, from the engine's ledger."""
    live = table.live
    return {live.member_of(s): live.game.ledger[s] for s in range(len(live.seats))}


async def test_stats_count_trades_barters_and_best_hands_per_preset_from_played_games(
        simcord_env):
    env = simcord_env
    guild = env.create_guild()
    general = guild.create_text_channel("general")
    ann, ben, cat = (guild.add_member(env.create_user(n)) for n in ("ann", "ben", "cat"))
    rng = random.Random(11)
    games = {}
    for number, preset in ((1, "foster"), (2, "foster-more")):
        table = await open_game(env, guild, general, number, preset, [ann, ben, cat])
        while True:
            await play_deal(table, rng)
            if table.live.game.complete:
                break
            await ann.click(table.channel.history()[-1], label="Next deal")
        games[preset] = (table.live, table.live.game)
    today = datetime.now(UTC).strftime("%Y-%m-%d")
    for member in (ann, ben, cat):
        res = await ann.slash(general, "commerce stats", member=member)
        assert res.ephemeral
        embed = res.response.embeds[0]
        trades_line, best_line, won_line = [], [], []
        overall = None
        for preset, (live, game) in games.items():
            seat = live.seat_of(member.id)
            trades, barters, accepted = moves_of(game, seat)
            if trades or barters:
                trades_line.append(f"{preset}: {trades} trade{'s' * (trades != 1)} · "
                                   f"{barters} barter{'s' * (barters != 1)} offered, "
                                   f"{accepted} accepted")
            score, label, deal = best_of(game, seat, live.rules.ranking)
            best_line.append(f"{preset}: {label} — table {live.row.number}, deal {deal}, {today}")
            if overall is None or score > overall[0]:
                overall = (score, f"{label} — {preset}, table {live.row.number}, deal {deal}, "
                                  f"{today}")
            won = sum(d.showdown.winner == seat for d in game.deals)
            won_line.append(f"{preset}: {won} of {len(game.deals)}")
        assert field_value(embed, "Best hand") == overall[1]
        assert field_value(embed, "Best hand, by preset").splitlines() == best_line
        assert [line.split(" (")[0] for line in
                field_value(embed, "Deals won, by preset").splitlines()] == won_line
        if trades_line:
            assert field_value(embed, "Trades and barters").splitlines() == trades_line
    assert sum(sum(moves_of(g, s)[:2]) for _, g in games.values() for s in range(3)) > 0
    assert env.errors == []


async def test_leaderboard_filters_by_preset_and_period_through_the_pager(simcord_env, db_path):
    env = simcord_env
    guild = env.create_guild()
    general = guild.create_text_channel("general")
    people = [guild.add_member(env.create_user(f"p{i:02d}")) for i in range(12)]
    ann = people[0]
    rng = random.Random(5)
    # a whole foster game for three of them, then one deal of foster-more for all twelve
    small = await open_game(env, guild, general, 1, "foster", people[:3])
    while True:
        await play_deal(small, rng)
        if small.live.game.complete:
            break
        await ann.click(small.channel.history()[-1], label="Next deal")
    foster = balances_of(small)
    big = await open_game(env, guild, general, 2, "foster-more", people)
    await play_deal(big, rng, moves=3)
    more = balances_of(big)
    # a foster-more row dated 40 days ago: always before this month and this week
    zed, stamp = 4242, (datetime.now(UTC) - timedelta(days=40)).isoformat(timespec="seconds")
    await database(db_path).executemany(
        "INSERT INTO ledger (guild_id, table_id, deal_id, seat, member_id, amount, reason,"
        " created_at) VALUES (?, ?, NULL, NULL, ?, ?, 'pool', ?)",
        [(guild.id, big.live.id, zed, 50, stamp), (guild.id, big.live.id, ann.id, -50, stamp)])

    async def board(**options):
        res = await ann.slash(general, "commerce leaderboard", **options)
        assert not res.ephemeral, answer_text(res)
        return res, res.response.embeds[0]

    # one preset, all time: the old row counts
    res, embed = await board(preset="foster")
    assert embed.title == "Commerce leaderboard · foster"
    assert board_lines(embed, people, [zed]) == ranked(foster) and not controls(env, res.response)
    # foster-more this week: twelve members on two pages, the filter carried by Next
    res, embed = await board(preset="foster-more", period="week")
    assert embed.title == "Commerce leaderboard · foster-more, this week"
    assert embed.footer.text.startswith("Page 1 of 2 · 12 players · this week: since Monday")
    expected = ranked(more)
    assert board_lines(embed, people, [zed]) == expected[:10]
    ids = [c["custom_id"] for c in controls(env, res.response)]
    assert all(i.endswith(":week:foster-more") and len(i) <= 100 for i in ids), ids
    await ann.click(res.response, label="Next")
    page2 = res.response.embeds[0]
    assert page2.title == embed.title and page2.footer.text.startswith("Page 2 of 2 · 12 players")
    assert board_lines(page2, people, [zed]) == expected[10:]
    await ann.click(res.response, label="Previous")
    assert board_lines(res.response.embeds[0], people, [zed]) == expected[:10]
    # this month: the same twelve (the row of 40 days ago is out); all time: zed too
    _, embed = await board(preset="foster-more", period="month")
    assert embed.footer.text.startswith("Page 1 of 2 · 12 players · this month: since the 1st")
    _, embed = await board(preset="foster-more", period="all")
    with_old = dict(more)
    with_old[zed] = 50
    with_old[ann.id] -= 50
    assert embed.footer.text == "Page 1 of 2 · 13 players"
    assert board_lines(embed, people, [zed]) == ranked(with_old)[:10]
    # every preset, this week: both games, not the old row
    this_week = dict(more)
    for member, points in foster.items():
        this_week[member] += points
    res, embed = await board(period="week")
    assert embed.title == "Commerce leaderboard · this week"
    await ann.click(res.response, label="Next")
    assert board_lines(res.response.embeds[0], people, [zed]) == ranked(this_week)[10:]
    # a preset nobody played is empty (a short private answer); an unknown one is refused
    res = await ann.slash(general, "commerce leaderboard", preset="widow", period="week")
    assert res.ephemeral and answer_text(res) == (
        "Nobody is on this server's leaderboard for widow, this week yet.")
    res = await ann.slash(general, "commerce leaderboard", preset="poker")
    assert res.ephemeral and "no preset by that name" in answer_text(res)
    # the preset menu offers what this server played; a new server gets every preset
    offered = await ann.autocomplete(general, "commerce leaderboard", "preset", "")
    assert [c["value"] for c in offered] == ["foster", "foster-more"]
    offered = await ann.autocomplete(general, "commerce leaderboard", "preset", "MORE")
    assert [c["value"] for c in offered] == ["foster-more"]
    elsewhere = env.create_guild(name="elsewhere")
    eve = elsewhere.add_member(env.create_user("eve"))
    offered = await eve.autocomplete(elsewhere.create_text_channel("general"),
                                     "commerce leaderboard", "preset", "")
    assert [c["value"] for c in offered] == list(PRESETS)
    assert env.errors == []


async def test_forged_and_garbled_pager_ids_are_refused_and_old_ids_still_turn(
        simcord_env, db_path):
    env = simcord_env
    guild = env.create_guild()
    general = guild.create_text_channel("general")
    people = [guild.add_member(env.create_user(f"p{i:02d}")) for i in range(12)]
    owner = people[0]
    big = await open_game(env, guild, general, 1, "foster", people)
    await big.knock(big.actor_to_act())
    res = await owner.slash(general, "commerce leaderboard", preset="foster", period="week")
    before = res.response.embeds[0].description
    base = f"commerce:board:{guild.id}:{owner.id}"
    for garbled in (f"{base}:1:next:fortnight:", f"{base}:1:next:week:poker",
                    f"{base}:1:next:week:foster:x", f"{base}:1:next:", f"{base}:1:next:week",
                    f"{base}:99999999999999999999:next:week:foster"):
        forged = forge(env, owner, res.response, garbled)
        await env.settle()
        assert forged.ephemeral and "not one of ours" in answer_text(forged), garbled
    assert res.response.embeds[0].description == before
    # another member's click, and the filtered id of another guild
    other = forge(env, people[1], res.response, f"{base}:1:next:week:foster")
    await env.settle()
    assert other.ephemeral and "not for you" in answer_text(other)
    away = env.create_guild(name="away")
    zed = away.add_member(env.create_user("zed"))
    await zed.slash(away.create_text_channel("general"), "commerce new")
    carrier = away.channels["commerce-1"].history()[0]
    stolen = forge(env, zed, carrier, f"commerce:board:{guild.id}:{zed.id}:1:next:week:foster")
    await env.settle()
    assert stolen.ephemeral and answer_text(stolen) == NOT_HERE
    # a pager of an older bot (no filter in its id) shows the whole ledger's page
    old = forge(env, owner, res.response, f"{base}:1:next")
    await env.settle()
    assert old.acknowledged and not old.ephemeral
    whole, _ = await env.bot.storage.leaderboard(guild.id, 10, 10)
    assert board_lines(res.response.embeds[0], people) == [(11 + i, m, b) for i, (m, b) in enumerate(whole)]
    assert res.response.embeds[0].title == "Commerce leaderboard"
    assert env.errors == []


def test_the_longest_pager_id_fits_discords_limit():
    longest = max(PRESETS, key=len)
    for period in ("week", "month", "all"):
        button = LeaderboardButton(2**63 - 1, 2**63 - 1, 99_999, "next",
                                   board=BoardFilter(period, longest))
        assert len(button.item.custom_id) <= 100
        match = LeaderboardButton.__discord_ui_compiled_template__.fullmatch(button.item.custom_id)
        assert BoardFilter.parse(match["filters"]) == BoardFilter(period, longest)
