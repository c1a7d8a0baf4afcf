"""Issue 4: every preset plays a full game through the simulated Discord, with the
right money, and replay of the stored record agrees with live play."""

from __future__ import annotations

import random

import pytest

from bot.engine import replay
from bot.ui.cards import card_label
from tests.cogs.helpers import Table, first_select, has_select, message_text, select_values


def hidden_leaks(table: Table, watcher) -> list[str]:
    """Public messages of the current deal naming a card that is concealed now and
    has never lain face up in this deal (in a hand or the stock)."""
    live = table.live
    deal = live.deal
    if deal is None or deal.finished:
        return []
    concealed = {c for h in deal.hands for c in h} | set(getattr(deal, "stock", ()))
    hidden = {card_label(c) for c in concealed - deal.exposed}
    history = table.channel.history(viewer=watcher)
    start = next(i for i, m in enumerate(history) if m.id == live.row.table_message_id)
    leaks = []
    for m in history[start:]:
        if m.embeds and m.embeds[0].title and m.embeds[0].title.startswith("Showdown"):
            continue
        text = message_text(m)
        leaks += [label for label in hidden if label in text]
    return leaks

PRESETS = [
    ("foster", {}),
    ("hoyle", {}),
    ("parlett", {}),
    ("foster-more", {}),
    ("widow", {}),
    ("oldway", {"pounce": True}),
    ("jaques", {"chips": 3}),
    ("jaques", {"chips": 3, "direct_trading": True, "dead_knock": True}),
    ("jaques", {"chips": 4, "three_stake": True, "fixed_rounds": 3}),
]

LABELS = {
    "trade": "Trade", "barter": "Barter", "knock": "Knock", "swap": "Swap", "stand": "Stand",
    "take_widow": "Take the widow", "keep_hand": "Keep my hand", "buy_horse": "Buy a horse (1 point)",
    "decline_horse": "No horse", "take_discard": "Take discard", "draw": "Draw",
    "pass": "Pass", "offer": "Offer a trade",
}


async def human_move(table: Table, actor, rng: random.Random) -> str:
    """The member makes a random legal move through the real controls."""
    live = table.live
    seat = live.seat_of(actor.id)
    obs = live.deal.observation(seat)
    legal = list(obs.legal)
    assert legal, "the member to act has something to do"
    if "accept" in legal:  # answered on the offer's own message (the table's has My hand)
        offer = next(m for m in reversed(table.channel.history())
                     if m.content.startswith(actor.mention) and "offers you" in m.content)
        if "refuse" in legal and rng.random() < 0.3:
            no = "Refuse (knock)" if live.rules.family == "trade" else "Decline"
            await actor.click(offer, label=no)
            return "refuse"
        res = await actor.click(offer, label="Accept")
        await actor.select(res.response, [rng.choice(select_values(res))])
        return "accept"
    if "pounce" in legal:
        res = await actor.click(table.table_message(), label="My hand")
        await actor.click(res.response, label="Pounce!")
        return "pounce"
    if "draw_keep" in legal:
        res = await actor.click(table.table_message(), label="Draw")
        await actor.select(res.response, [rng.choice(select_values(res))])
        return "draw_keep"
    weights = {"knock": 1, "stand": 2, "pass": 1}
    action = rng.choices(legal, weights=[weights.get(a, 3) for a in legal])[0]
    res = await actor.click(table.table_message(), label=LABELS[action])
    if action == "draw" or (has_select(res) and res.ephemeral):
        # the menu of the move asked for, on top (the panel may hold other menus)
        first = next(c["custom_id"] for row in res.response.components
                     for c in row.get("components", []) if c.get("type") == 3)
        await actor.select(res.response, [rng.choice(select_values(res))], custom_id=first)
    return action


@pytest.mark.parametrize(("preset", "options"), PRESETS,
                         ids=[f"{p}-{'-'.join(o)}" if o else p for p, o in PRESETS])
async def test_preset_plays_a_full_game(simcord_env, bots, preset, options):
    env = simcord_env
    rng = random.Random(hash(preset) & 0xFFFF)
    guild = env.create_guild()
    general = guild.create_text_channel("general")
    ann = guild.add_member(env.create_user("ann"))
    watcher = guild.add_member(env.create_user("watcher"))
    res = await ann.slash(general, "commerce new", rules=preset, **options)
    assert res.ephemeral and "ready" in res.response.content, res.response.content
    channel = guild.channels["commerce-1"]
    table = Table(env, bots, channel, {ann.id: ann})
    lobby = channel.history()[0]
    assert preset in message_text(lobby)
    await ann.click(lobby, label="Add AI")
    await ann.click(channel.history()[0], label="Add AI")
    await ann.click(channel.history()[0], label="Start")
    moves = set()
    for _ in range(400):
        live = table.live
        game = live.game
        assert game.conserved_total() == 0
        deal = live.deal
        if not deal.finished:
            assert sorted(deal.cards_in_play()) == list(range(52))
        if game.complete:
            break
        if deal.finished:
            await env.advance_time(live.row.next_deal_delay + 1)
            continue
        to_act = deal.to_act
        assert to_act == live.seat_of(ann.id), "AI seats never keep the turn"
        moves.add(await human_move(table, ann, rng))
        assert not hidden_leaks(table, watcher)
    game = table.live.game
    assert game.complete, f"{preset}: the game ended"
    assert game.conserved_total() == 0
    assert channel.history()[-1].embeds[0].title.startswith("Game over")
    record = await table.bot.service.archive.record(table.live.id)
    replayed = replay(record)
    assert replayed.summary() == game.summary()
    # the server ledger agrees with the game's balances, seat by seat
    seats = await table.bot.storage.seats(table.live.id)
    stats = await table.bot.storage.member_stats(guild.id, ann.id)
    assert stats.balance == game.ledger[next(s.seat for s in seats if s.member_id == ann.id)]
    assert moves, "the member made moves through the controls"


class FirstDealer(random.Random):
    """A seeded test RNG whose first dealer is ``dealer`` (see ``first_dealer``)."""

    def __init__(self, dealer: int) -> None:
        super().__init__(5)
        self.dealer = dealer

    def randrange(self, *args, **kwargs) -> int:
        return self.dealer


def arrange(service, top: list[str], dealer: int) -> None:
    """The next deal lays out ``top`` (then the rest in order; a test-only arranged
    deck), and the first dealer is ``dealer``; later deals are fair, seeded ones."""
    from bot.engine import parse_card

    cards = [parse_card(c) for c in top]
    first_dealer(service, dealer)
    service.arranged_decks.append(cards + [c for c in range(52) if c not in cards])


def first_dealer(service, dealer: int) -> None:
    """The next game started deals first from ``dealer`` (test only: not the dealer its
    seed gives), and the service draws its seeds from a seeded RNG."""
    service.rng = FirstDealer(dealer)
    service.arranged_dealer = dealer


async def test_oldway_pounce_button_appears_only_to_the_player_who_can(simcord_env, bots):
    env = simcord_env
    guild = env.create_guild()
    general = guild.create_text_channel("general")
    ann = guild.add_member(env.create_user("ann"))
    await ann.slash(general, "commerce new", rules="oldway", pounce=True)
    channel = guild.channels["commerce-1"]
    table = Table(env, bots, channel, {ann.id: ann})
    await ann.click(channel.history()[0], label="Add AI")
    await ann.click(channel.history()[0], label="Add AI")
    # seat 2 (an AI) deals; ann (seat 0) holds three 7s and the fourth lies in the middle
    arrange(table.bot.service,
            ["7c", "Kd", "Ac", "7d", "9s", "Ad", "7h", "4c", "Ah", "7s", "2c", "3d"], dealer=2)
    await ann.click(channel.history()[0], label="Start")
    deal = table.live.deal
    seat = table.live.seat_of(ann.id)
    assert "pounce" in deal.legal_actions(seat)
    res = await ann.click(table.table_message(), label="My hand")
    assert res.ephemeral and any(":pounce" in c for row in res.response.components
                                 for c in [x["custom_id"] for x in row["components"]])
    # the table message itself offers no Pounce button to anyone
    assert not any("pounce" in (c.custom_id or "") for row in table.table_message().components
                   for c in row.children)
    await ann.click(res.response, label="Pounce!")
    assert len(table.live.deal.hands[seat]) == 4
    assert "pounced on 7♤" in message_text(table.table_message())


async def test_jaques_direct_trade_between_two_members(simcord_env, bots):
    env = simcord_env
    guild = env.create_guild()
    general = guild.create_text_channel("general")
    ann, ben = (guild.add_member(env.create_user(n)) for n in ("ann", "ben"))
    await ann.slash(general, "commerce new", rules="jaques", direct_trading=True)
    channel = guild.channels["commerce-1"]
    table = Table(env, bots, channel, {ann.id: ann, ben.id: ben})
    await ben.click(channel.history()[0], label="Join")
    await ann.click(channel.history()[0], label="Add AI")
    await ann.click(channel.history()[0], label="Start")
    for _ in range(20):
        deal = table.live.deal
        actor = table.actor_to_act()
        other = ben if actor is ann else ann
        if "offer" in deal.legal_actions(table.live.seat_of(actor.id)):
            break
        await actor.click(table.table_message(), label="Pass")
    res = await actor.click(table.table_message(), label="Offer a trade")
    target_seat = table.live.seat_of(other.id)
    value = next(v for v in select_values(res) if v.endswith(f"@{target_seat}"))
    await actor.select(res.response, [value])
    assert table.live.deal.to_act == target_seat
    offer = table.offer_message(other)
    hand = await other.click(table.table_message(), label="My hand")
    assert "You are offered" in hand.response.content
    res = await other.click(offer, label="Accept")
    await other.select(res.response, [select_values(res)[0]])
    assert table.live.deal.last_event.kind == "offer_accept"
    assert sorted(table.live.deal.cards_in_play()) == list(range(52))


async def start_humans(env, bots, preset, **options):
    guild = env.create_guild()
    general = guild.create_text_channel("general")
    ann, ben, cat = (guild.add_member(env.create_user(n)) for n in ("ann", "ben", "cat"))
    await ann.slash(general, "commerce new", rules=preset, **options)
    channel = guild.channels["commerce-1"]
    for m in (ben, cat):
        await m.slash(channel, "commerce join")
    await ann.slash(channel, "commerce start")
    return guild, Table(env, bots, channel, {m.id: m for m in (ann, ben, cat)}), (ann, ben, cat)


async def test_ending_a_jaques_table_shares_the_pot_and_loses_no_chip(simcord_env, bots):
    env = simcord_env
    rng = random.Random(3)
    guild, table, (ann, ben, cat) = await start_humans(env, bots, "jaques", chips=5)
    while table.live.deal_number < 2:
        deal = table.live.deal
        if deal.finished:
            await env.advance_time(31)
            continue
        await human_move(table, table.actor_to_act(), rng)
    await human_move(table, table.actor_to_act(), rng)
    pot = -sum(table.live.game.ledger)
    assert pot > 0
    res = await ann.slash(table.channel, "commerce end")
    assert "shared by the players still in" in res.response.content
    said = res.response.content
    assert f"{pot} chips left in the pot" in said or "The 1 chip left in the pot" in said, said
    assert "points left" not in said, said  # jaques is played with chips
    assert await table.bot.storage.guild_ledger_sum(guild.id) == 0


async def test_jaques_turn_timer_plays_a_whole_turn_once(simcord_env, bots):
    env = simcord_env
    guild, table, members = await start_humans(env, bots, "jaques")
    seat = table.live.deal.to_act
    ops = len(table.live.deal.operations)
    await env.advance_time(121)
    deal = table.live.deal
    assert deal.to_act != seat and getattr(deal, "drawn", None) is None
    assert len(deal.operations) > ops
    assert table.live.seats[seat].timeouts == 1 and not table.live.seats[seat].away


async def test_open_trading_brings_direct_trading_with_it(simcord_env, bots):
    env = simcord_env
    guild, table, members = await start_humans(env, bots, "jaques", open_trading=True)
    assert table.live.rules.direct_trading and table.live.rules.open_trading


async def test_offer_at_a_ten_seat_table_picks_card_then_player(simcord_env, bots):
    env = simcord_env
    guild = env.create_guild()
    general = guild.create_text_channel("general")
    ann = guild.add_member(env.create_user("ann"))
    await ann.slash(general, "commerce new", rules="jaques", direct_trading=True)
    channel = guild.channels["commerce-1"]
    table = Table(env, bots, channel, {ann.id: ann})
    for _ in range(9):
        await ann.click(channel.history()[0], label="Add AI")
    arrange(table.bot.service, [], dealer=9)  # ann (seat 0) plays first
    await ann.click(channel.history()[0], label="Start")
    assert table.live.deal.to_act == 0
    res = await ann.click(table.table_message(), label="Offer a trade")
    cards = select_values(res)
    assert len(cards) == 3 and all(v.endswith("?") for v in cards)
    step2 = await ann.select(res.response, [cards[0]])
    targets = select_values(step2)
    assert len(targets) == 9 and all(v.startswith(cards[0][:2] + "@") for v in targets)
    await ann.select(step2.response, [targets[-1]])
    events = [e.kind for e in table.live.deal.events]
    assert "offer" in events


async def test_hoyle_offers_knock_after_exchange_and_no_refusal(simcord_env, bots):
    env = simcord_env
    guild = env.create_guild()
    general = guild.create_text_channel("general")
    ann, ben, cat = (guild.add_member(env.create_user(n)) for n in ("ann", "ben", "cat"))
    await ann.slash(general, "commerce new", rules="hoyle")
    channel = guild.channels["commerce-1"]
    for m in (ben, cat):
        await m.slash(channel, "commerce join")
    await ann.slash(channel, "commerce start")
    table = Table(env, bots, channel, {m.id: m for m in (ann, ben, cat)})
    actor = table.actor_to_act()
    res = await actor.click(table.table_message(), label="Barter")
    values = select_values(res)
    assert any(v.endswith("!") for v in values) and len(values) == 6
    await actor.select(res.response, [values[0]], custom_id=first_select(res))
    target = table.actor_to_act()
    offer = table.offer_message(target)
    assert "you must accept" in offer.content
    labels = [c.label for row in offer.components for c in row.children]
    assert labels == ["Accept"]
    await table.accept(target)
    actor = table.actor_to_act()
    res = await actor.click(table.table_message(), label="Trade")
    knock_value = next(v for v in select_values(res) if v.endswith("!"))
    sel = await actor.select(res.response, [knock_value], custom_id=first_select(res))
    assert "You knocked" in sel.response.content
    deal = table.live.deal
    assert deal.showdown is not None and deal.showdown.knocker == table.live.seat_of(actor.id)
