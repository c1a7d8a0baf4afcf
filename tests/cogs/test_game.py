"""Complete 3-player foster games through the real slash commands and buttons."""

from __future__ import annotations

import json

from bot.engine import replay
from tests.cogs.helpers import CARD_LABEL, board_lines, custom_ids, message_text, open_table


async def test_full_game_three_players(simcord_env, bots):
    env = simcord_env
    guild, table, (ann, ben, cat), lobby = await open_table(env, bots)
    res = await ann.click(lobby, label="Start")
    assert res.acknowledged
    live = table.live
    assert live.game is not None and live.game.deals_total == 3
    seen = {"trade": 0, "accept": 0, "refuse": 0, "knock": 0}
    dealers = []
    for deal_no in range(1, 4):
        assert table.live.deal_number == deal_no
        deal = table.live.deal
        dealers.append(deal.dealer)
        # every seated member sees their own hand, ephemerally
        for a in (ann, ben, cat):
            hand = await a.click(table.table_message(), label="My hand")
            assert hand.ephemeral and "Your hand" in hand.response.content
            seat = table.live.seat_of(a.id)
            assert len(CARD_LABEL.findall(hand.response.content)) >= 3
            mine = table.live.deal.hands[seat]
            from bot.ui.cards import card_label
            for c in mine:
                assert card_label(c) in hand.response.content
        if deal_no == 1:
            # trade, barter accepted, then knock
            a = table.actor_to_act()
            pool_before = table.live.deal.pool
            stock_before = table.live.deal.observation(None).stock_count
            r = await table.trade(a)
            assert "You traded" in r.response.content
            assert table.live.deal.observation(None).stock_count == stock_before - 1
            assert table.live.deal.pool == pool_before
            seen["trade"] += 1
            b = table.actor_to_act()
            await table.barter(b)
            target = table.actor_to_act()
            assert target is not b
            r = await table.accept(target)
            assert "You gave" in r.response.content
            seen["accept"] += 1
            assert "accepted" in message_text(table.table_message())
            await table.knock(table.actor_to_act())
            seen["knock"] += 1
        elif deal_no == 2:
            b = table.actor_to_act()
            await table.barter(b)
            target = table.actor_to_act()
            await table.refuse(target)
            seen["refuse"] += 1
            sd = table.live.deal.showdown
            assert sd.knocker == table.live.seat_of(target.id)
        else:
            await table.knock(table.actor_to_act())
            seen["knock"] += 1
        showdown = table.channel.history()[-1] if deal_no < 3 else table.channel.history()[-2]
        assert showdown.embeds and showdown.embeds[0].title == f"Showdown · deal {deal_no}"
        sd_text = message_text(showdown)
        deal = table.live.deal
        assert f"wins the pool of {deal.showdown.pool_won}" in sd_text
        if deal_no < 3:
            assert "commerce:next:" in " ".join(custom_ids(showdown))
            await ann.click(showdown, label="Next deal")
    assert seen == {"trade": 1, "accept": 1, "refuse": 1, "knock": 2}
    # the deal passes one seat to the left each time
    assert dealers[1] == (dealers[0] + 1) % 3 and dealers[2] == (dealers[1] + 1) % 3
    final = table.channel.history()[-1]
    assert final.embeds[0].title.startswith("Game over")
    # every player's panel of the last deal shows how it ended for them
    for a in (ann, ben, cat):
        panel = [m for m in table.channel.history(viewer=a) if m.flags.ephemeral][-1]
        assert "**Your result:**" in panel.content, panel.content
    # leaderboard: the three humans' balances sum to zero and match a replay
    res = await ann.slash(table.channel, "commerce leaderboard")
    balances = {m: v for _rank, m, v in board_lines(res.response.embeds[0], (ann, ben, cat))}
    assert len(balances) == 3
    assert sum(balances.values()) == 0
    deals = await table.bot.storage.deals(_finished(table).id)
    seats = await table.bot.storage.seats(_finished(table).id)
    record = {"rules": "foster", "options": {}, "players": [s.name for s in seats],
              "first_dealer": _finished(table).game.first_dealer,
              "deals": [{"deck": d.deck, "actions": _actions(d)} for d in deals]}
    game = replay(json.loads(json.dumps(record)))
    assert game.complete
    assert {s.member_id: game.ledger[s.seat] for s in seats} == balances
    # the channel is read-only now
    assert final.embeds[0].footer.text.startswith("This channel is now read-only")


def _finished(table):
    return table.live


def _actions(deal_row):
    from bot.engine import operation_from_dict, record_actions
    return record_actions([operation_from_dict(a.payload) for a in deal_row.actions])
