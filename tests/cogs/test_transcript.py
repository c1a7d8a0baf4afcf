"""Games against AI seats, audited: no public message or log line names a card
that is hidden at that moment; the ledger stays zero-sum."""

from __future__ import annotations

import logging
import random

from tests.cogs.helpers import CARD_LABEL, Table, public_leaks, rest_leaks


async def play_game_against_ai(env, bots, rng, *, use_timer: bool):
    guild = env.create_guild()
    general = guild.create_text_channel("general")
    ann = guild.add_member(env.create_user("ann"))
    watcher = guild.add_member(env.create_user("watcher"))
    await ann.slash(general, "commerce new")
    channel = guild.channels["commerce-1"]
    table = Table(env, bots, channel, {ann.id: ann})
    await ann.slash(channel, "commerce addbot")
    await ann.slash(channel, "commerce addbot")
    await ann.slash(channel, "commerce start")
    steps = 0
    while True:
        live = table.live
        assert not public_leaks(table, watcher)
        deal = live.deal
        if deal.finished:
            if live.game.complete:
                break
            if use_timer:
                await env.advance_time(live.row.next_deal_delay + 1)
            else:
                await ann.click(channel.history()[-1], label="Next deal")
            continue
        assert deal.to_act == live.seat_of(ann.id), "AI seats never keep the turn"
        for h in deal.hands:
            assert len(h) == 3
        assert sorted(deal.cards_in_play()) == list(range(52))
        if deal.pending is not None:
            if rng.random() < 0.7:
                await table.accept(ann)
            else:
                await table.refuse(ann)
        else:
            choice = rng.choice(["trade", "trade", "barter", "knock"] if steps % 5 else ["knock"])
            if choice == "trade" and deal.stock:
                await table.trade(ann)
            elif choice == "barter":
                await table.barter(ann)
            else:
                await table.knock(ann)
        steps += 1
        assert steps < 500
    game = table.live.game
    for d in game.deals:
        assert sum(d.delta) == 0
    assert sum(game.ledger) == 0
    assert not rest_leaks(env, table)
    assert channel.history()[-1].embeds[0].title.startswith("Game over")
    return table


async def test_games_against_ai_leak_no_card(simcord_env, bots, caplog):
    caplog.set_level(logging.DEBUG)
    rng = random.Random(2024)
    table = await play_game_against_ai(simcord_env, bots, rng, use_timer=False)
    assert table.live.game.complete
    for record in caplog.records:
        assert not CARD_LABEL.search(record.getMessage()), record.getMessage()


async def test_next_deal_starts_by_itself_after_the_delay(simcord_env, bots):
    rng = random.Random(7)
    table = await play_game_against_ai(simcord_env, bots, rng, use_timer=True)
    assert table.live.game.deals_played == 3
