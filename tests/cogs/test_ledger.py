"""The server ledger: a 12-player game, a paginated leaderboard and stats."""

from __future__ import annotations

from tests.cogs.helpers import message_text, open_table

NAMES = tuple(f"p{i:02d}" for i in range(12))


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
    balances = [int(line.rsplit(": ", 1)[1]) for line in first.description.splitlines()]
    assert balances == sorted(balances, reverse=True)
    # someone else cannot turn the pages; the owner can
    other = await actors[1].click(res.response, label="Next")
    assert other.ephemeral and "Only the member who asked" in other.response.content
    turned = await actors[0].click(res.response, label="Next")
    page2 = turned.response.embeds[0]
    assert page2.footer.text.startswith("Page 2 of 2") and len(page2.description.splitlines()) == 2
    rest = [int(line.rsplit(": ", 1)[1]) for line in page2.description.splitlines()]
    assert sum(balances) + sum(rest) == 0
    # stats agree with the engine's ledger and showdowns
    seat = table.live.seat_of(actors[3].id)
    res = await actors[0].slash(table.channel, "commerce stats", member=actors[3])
    text = message_text(res.response)
    assert f"{game.ledger[seat]:+d}" in text
    deals_won = sum(1 for d in game.deals if d.showdown.winner == seat)
    assert f"12 played, {deals_won} won" in text
    won_game = 1 if seat in game.winners else 0
    assert f"1 played, {won_game} won" in text
