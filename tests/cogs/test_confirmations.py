"""Issue 10: every family confirms the player's own move first. For each decision
kind of each family (trade and barter, widow and oldway, jaques), through the real
controls, the player's private answer starts with one line in the second person
naming the cards they gave and got; the cards only they may see never appear in a
public message.
"""

from __future__ import annotations

import json
import types

from bot.ui.cards import card_label, hand_label
from tests.cogs.helpers import Table, answer_text, message_text, private, select_values
from tests.cogs.test_presets import arrange, first_dealer


# ------------------------------------------------------------------ set-up
async def start(env, bots, preset: str, *, dealer: int, humans=("ann", "ben", "cat"),
                ai: int = 0, top: list[str] | None = None, turn_timer: int | None = None,
                **options):
    """A table of ``humans`` (seats in that order) and ``ai`` AI seats, started
    with ``dealer`` dealing first (and ``top`` on the first deck, when given;
    ``turn_timer``: the guild's, set before the start). Returns the table, the
    actors and an unseated member watching the channel."""
    guild = env.create_guild()
    general = guild.create_text_channel("general")
    actors = [guild.add_member(env.create_user(n)) for n in humans]
    watcher = guild.add_member(env.create_user("watcher"))
    res = await actors[0].slash(general, "commerce new", rules=preset, **options)
    assert res.ephemeral, res.response.content
    channel = guild.channels["commerce-1"]
    lobby = channel.history()[0]
    for a in actors[1:]:
        await a.click(lobby, label="Join")
    for _ in range(ai):
        await actors[0].click(lobby, label="Add AI")
    table = Table(env, bots, channel, {a.id: a for a in actors})
    if turn_timer is not None:
        await table.bot.service.update_settings(guild.id, actors[0].id, turn_timer=turn_timer)
    if top is not None:
        arrange(table.bot.service, top, dealer)
    else:
        first_dealer(table.bot.service, dealer)
    await actors[0].click(lobby, label="Start")
    return table, actors, watcher


def seat(table, actor) -> int:
    return table.live.seat_of(actor.id)


def hand(table, actor) -> list[int]:
    return list(table.live.deal.hands[seat(table, actor)])


def name(table, s: int) -> str:
    row = table.live.seats[s]
    return row.name if row.member_id is not None else f"🤖 {row.name}"


def components(result) -> list[dict]:
    return [c for row in result.response.components for c in row.get("components", [])]


async def choose(table, actor, action: str, value: str | None = None):
    """Make ``action`` from the player's panel: its button (the first, or the one
    of ``value``), else its menu (the first option, or ``value``)."""
    panel = await actor.click(table.table_message(), label="My hand")
    for c in components(panel):
        parts = c.get("custom_id", "").split(":")
        if c.get("type") == 2 and parts[1] == "pick" and parts[5] == action and (
                value is None or parts[6:] == [value]):
            return await actor.click(panel.response, custom_id=c["custom_id"])
    for c in components(panel):
        if c.get("type") == 3 and c["custom_id"].endswith(f":{action}"):
            options = [o["value"] for o in c["options"]]
            pick = value if value is not None else options[0]
            assert pick in options, (pick, options)
            return await actor.select(panel.response, [pick], custom_id=c["custom_id"])
    raise AssertionError(f"no {action} control on the panel: {components(panel)}")


async def press(table, actor, action: str):
    """A table-message button (a move without a card). Returns what the member
    got back: the click's result when it brought a new panel, else (the press's
    answer edited the table message, and the member's open panel was edited in
    place) that panel, as ``private`` and ``answer_text`` read a result."""
    live = table.live
    res = await actor.click(table.table_message(),
                            custom_id=f"commerce:play:{live.id}:{live.deal_number}:{action}")
    if res.followups or res.ephemeral:
        return res
    [panel] = [m for m in table.channel.history(viewer=actor) if m.flags.ephemeral
               and table.bot.publisher.panels.open[(live.id, actor.id)].message_id == m.id]
    return types.SimpleNamespace(followups=[], ephemeral=True, response=panel)


def confirmed(result) -> str:
    """The first line of the player's private answer (it must be private)."""
    assert private(result), answer_text(result)
    return answer_text(result).splitlines()[0]


def public_texts(table, watcher) -> str:
    """Everything an unseated member sees, and every public post or edit sent to
    the channel, outside the showdowns and the final standings."""
    texts = []
    for m in table.channel.history(viewer=watcher):
        title = m.embeds[0].title if m.embeds else ""
        if title and (title.startswith("Showdown") or title.startswith("Game over")):
            continue
        texts.append(message_text(m))
        texts += [a.description or "" for a in m.attachments]
    for entry in table.env.http_requests:
        if entry.path.startswith(f"/channels/{table.channel.id}/messages"):
            payload = json.dumps(entry.json or {}, ensure_ascii=False)
            if "Showdown" not in payload and "Game over" not in payload:
                texts.append(payload)
    return "\n".join(texts)


def assert_hidden(table, watcher, cards) -> None:
    """None of ``cards`` (named in a confirmation) appears in public."""
    shown = public_texts(table, watcher)
    for card in cards:
        assert card_label(card) not in shown, (card_label(card), shown)


def deck(dealer: int, hands: dict[int, list[str]], rest: list[str]) -> list[str]:
    """The top of a deck dealing ``hands`` (seat -> three codes, clockwise from the
    eldest hand, one card at a time) and then ``rest``."""
    n = len(hands)
    order = [(dealer + 1 + k) % n for k in range(n)]
    return [hands[s][i] for i in range(3) for s in order] + rest


# ------------------------------------------------------- trade and barter
async def test_trade_names_the_card_given_the_card_drawn_and_the_fee(simcord_env, bots):
    table, (ann, ben, cat), watcher = await start(simcord_env, bots, "foster", dealer=2)
    before = hand(table, ann)
    res = await choose(table, ann, "trade")
    after = hand(table, ann)
    [gave] = [c for c in before if c not in after]
    [got] = [c for c in after if c not in before]
    assert confirmed(res) == (f"You traded {card_label(gave)} and drew {card_label(got)} "
                              "(1 point to cat, the dealer).")
    assert_hidden(table, watcher, [gave, got])  # traded face down, drawn unseen


async def test_trade_then_knock_says_both(simcord_env, bots):
    table, (ann, ben, cat), watcher = await start(simcord_env, bots, "hoyle", dealer=2)
    before = hand(table, ann)
    card = sorted(before, reverse=True)[0]
    from bot.engine import card_code
    res = await choose(table, ann, "trade", card_code(card) + "!")
    after = table.live.deal.showdown.hands[seat(table, ann)]
    [got] = [c for c in after if c not in before]
    assert confirmed(res) == (f"You traded {card_label(card)} and drew {card_label(got)} "
                              "(1 point to cat, the dealer). You knocked.")
    assert table.live.deal.finished


async def test_barter_offer_accept_and_refuse(simcord_env, bots):
    table, (ann, ben, cat), watcher = await start(simcord_env, bots, "foster", dealer=2)
    offered_from = hand(table, ann)
    res = await choose(table, ann, "barter")
    [offered] = [c for c in offered_from if c not in hand(table, ann)] or \
        [table.live.deal.pending.card]
    assert confirmed(res) == (f"You offered {card_label(offered)} face down to ben: "
                              "waiting for their answer.")
    assert_hidden(table, watcher, [offered])
    # cat, not the one asked, is told so alike by Accept and by Refuse, and nothing moves
    offer = table.offer_message(ben)
    operations = len(table.live.deal.operations)
    for label in ("Accept", "Refuse (knock)"):
        res = await cat.click(offer, label=label)
        assert res.ephemeral and answer_text(res) == "No barter is waiting for your answer.", (
            label, answer_text(res))
    assert len(table.live.deal.operations) == operations
    # ben accepts from the offer message, giving a card back
    ben_before = hand(table, ben)
    res = await ben.click(offer, label="Accept")
    back = select_values(res)[0]
    res = await ben.select(res.response, [back])
    [gave] = [c for c in ben_before if c not in hand(table, ben)]
    assert confirmed(res) == (f"You gave {card_label(gave)} to ann and got "
                              f"{card_label(offered)} in the barter.")
    assert_hidden(table, watcher, [gave, offered])
    # now ben barters with cat, who refuses by knocking from the offer message
    await choose(table, ben, "barter")
    res = await cat.click(table.offer_message(cat), label="Refuse (knock)")
    assert confirmed(res) == "You refused ben's barter by knocking: the deal goes to the showdown."


async def test_barter_answered_at_once_by_an_ai(simcord_env, bots):
    table, (ann,), watcher = await start(simcord_env, bots, "foster", dealer=2, humans=("ann",),
                                         ai=2)
    before = hand(table, ann)
    res = await choose(table, ann, "barter")
    sd = table.live.deal.showdown
    after = sd.hands[0] if sd is not None else hand(table, ann)
    neighbour = name(table, 1)
    got = [c for c in after if c not in before]
    gave = [c for c in before if c not in after]
    if got:
        assert confirmed(res) == (f"You bartered {hand_label(gave)} with {neighbour} and got "
                                  f"{hand_label(got)}.")
    else:
        assert confirmed(res).startswith("You offered ") and \
            confirmed(res).endswith(f"to {neighbour}, who refused by knocking: you keep it.")


async def test_knock_from_the_table_message(simcord_env, bots):
    table, (ann, ben, cat), watcher = await start(simcord_env, bots, "foster", dealer=2)
    res = await press(table, ann, "knock")
    assert confirmed(res) == "You knocked: the deal goes to the showdown."
    assert "**Your result:**" in answer_text(res)


# ------------------------------------------------------------ widow family
async def test_widow_take_keep_swap_and_knock(simcord_env, bots):
    top = deck(0, {0: ["2c", "3d", "5h"], 1: ["Kc", "9d", "4s"], 2: ["Qh", "7c", "6d"]},
               ["As", "Ks", "Qs"])
    table, (ann, ben, cat), watcher = await start(simcord_env, bots, "widow", dealer=0, top=top)
    res = await press(table, ann, "take_widow")
    assert confirmed(res) == ("You took the widow, A♤ K♤ Q♤; your old hand, 5♡ 3♢ 2♧, "
                              "lies face up in the middle.")
    res = await choose(table, ben, "swap")
    event = table.live.deal.events[-1]
    assert event.kind == "swap" and event.seat == seat(table, ben)
    assert confirmed(res) == (f"You put {hand_label(event.given)} into the middle and took "
                              f"{hand_label(event.taken)}.")
    res = await press(table, cat, "knock")
    assert confirmed(res) == (f"You knocked with {hand_label(hand(table, cat))}: no more turns "
                              "for you this deal.")


async def test_widow_dealer_keeps_the_hand(simcord_env, bots):
    table, (ann, ben, cat), watcher = await start(simcord_env, bots, "widow", dealer=0)
    res = await choose(table, ann, "keep_hand")
    assert confirmed(res) == f"You kept your hand: {hand_label(hand(table, ann))}."


async def test_oldway_blind_dealer_takes_the_middle_and_stands(simcord_env, bots):
    top = deck(0, {0: ["2c", "3d", "5h"], 1: ["Kc", "9d", "4s"], 2: ["Qh", "7c", "6d"]},
               ["As", "Ks", "Qs"])
    table, (ann, ben, cat), watcher = await start(simcord_env, bots, "oldway", dealer=0, top=top)
    res = await press(table, ann, "take_widow")
    assert confirmed(res) == ("You took the widow, A♤ K♤ Q♤; your old hand, 5♡ 3♢ 2♧, "
                              "lies face up in the middle. You stand: no more changes for you "
                              "this deal.")
    res = await press(table, ben, "stand")
    assert confirmed(res) == (f"You stand with {hand_label(hand(table, ben))}: no more changes "
                              "for you this deal.")
    before = hand(table, cat)
    res = await choose(table, cat, "swap")
    after = hand(table, cat)
    assert confirmed(res) == (f"You put {hand_label([c for c in before if c not in after])} into "
                              f"the middle and took {hand_label([c for c in after if c not in before])}.")


async def test_oldway_blind_dealer_keeps_and_sees_the_hand(simcord_env, bots):
    table, (ann, ben, cat), watcher = await start(simcord_env, bots, "oldway", dealer=0)
    res = await press(table, ann, "keep_hand")
    assert confirmed(res) == f"You kept your hand: {hand_label(hand(table, ann))}."


async def test_oldway_pounce(simcord_env, bots):
    top = ["7c", "Kd", "Ac", "7d", "9s", "Ad", "7h", "4c", "Ah", "7s", "2c", "3d"]
    table, (ann,), watcher = await start(simcord_env, bots, "oldway", dealer=2, humans=("ann",),
                                         ai=2, top=top, pounce=True)
    res = await choose(table, ann, "pounce")
    assert confirmed(res) == "Pounce! You took 7♤ from the middle: four of a kind, and you stand."


async def lose_every_life(env, table, ann) -> None:
    """Play oldway deals in which ann always holds the weakest hand, until she has
    lost her last life and is offered the horse."""
    for _ in range(60):
        live = table.live
        deal = live.deal
        if "buy_horse" in deal.legal_actions(seat(table, ann)):
            return
        if deal.finished:
            dealer = (deal.dealer + 1) % 3
            arrange(table.bot.service, deck(dealer, {
                0: ["2c", "3d", "5h"], 1: ["Ac", "Ad", "Ah"], 2: ["Kc", "Kd", "Kh"]},
                ["6c", "8d", "Ts"]), dealer)
            await env.advance_time(live.row.next_deal_delay + 1)
            continue
        legal = deal.legal_actions(seat(table, ann))
        await press(table, ann, "keep_hand" if "keep_hand" in legal else "stand")
    raise AssertionError("the horse was never offered")


async def test_oldway_horse_bought(simcord_env, bots):
    top = deck(2, {0: ["2c", "3d", "5h"], 1: ["Ac", "Ad", "Ah"], 2: ["Kc", "Kd", "Kh"]},
               ["6c", "8d", "Ts"])
    table, (ann,), watcher = await start(simcord_env, bots, "oldway", dealer=2, humans=("ann",),
                                         ai=2, top=top)
    await lose_every_life(simcord_env, table, ann)
    res = await choose(table, ann, "buy_horse")
    assert confirmed(res) == "You bought a horse: 1 point into the pool for one more life."
    # the panel itemises the deal: the horse's point, the life lost and the life bought
    assert answer_text(res).splitlines()[-1] == (
        "**Your result:** −1 point (horse −1) · ±0 lives (weakest hand −1, horse 1)")


async def test_oldway_horse_declined(simcord_env, bots):
    top = deck(2, {0: ["2c", "3d", "5h"], 1: ["Ac", "Ad", "Ah"], 2: ["Kc", "Kd", "Kh"]},
               ["6c", "8d", "Ts"])
    table, (ann,), watcher = await start(simcord_env, bots, "oldway", dealer=2, humans=("ann",),
                                         ai=2, top=top)
    await lose_every_life(simcord_env, table, ann)
    res = await press(table, ann, "decline_horse")
    assert confirmed(res) == "You declined the horse: you sit out from now on."


# ---------------------------------------------------------- discard family
async def test_jaques_take_discard_pass_and_knock(simcord_env, bots):
    table, (ann, ben, cat), watcher = await start(simcord_env, bots, "jaques", dealer=2)
    top = table.live.deal.observation(None).discard_top
    before = hand(table, ann)
    res = await choose(table, ann, "take_discard")
    [laid] = [c for c in before if c not in hand(table, ann)]
    assert confirmed(res) == f"You laid {card_label(laid)} on the pile and took {card_label(top)}."
    assert card_label(laid) in public_texts(table, watcher)  # face up: the check sees it
    res = await press(table, ben, "pass")
    assert confirmed(res) == "You passed."
    res = await press(table, cat, "knock")
    assert confirmed(res) == ("You knocked and paid 1 chip into the pot: everyone else has one "
                              "more turn.")


async def test_jaques_draw_then_keep(simcord_env, bots):
    table, (ann, ben, cat), watcher = await start(simcord_env, bots, "jaques", dealer=2)
    res = await press(table, ann, "draw")
    drawn = table.live.deal.observation(seat(table, ann)).drawn
    assert confirmed(res) == (f"You drew {card_label(drawn)} from the stock: keep it or throw "
                              "it away.")
    assert_hidden(table, watcher, [drawn])
    before = hand(table, ann)
    res = await choose(table, ann, "draw_keep", next(
        v for v in select_values(res) if v != "drawn"))
    [laid] = [c for c in before if c not in hand(table, ann)]
    assert confirmed(res) == f"You kept {card_label(drawn)} and laid {card_label(laid)} on the pile."
    assert_hidden(table, watcher, [drawn])


async def test_jaques_draw_then_throw(simcord_env, bots):
    table, (ann, ben, cat), watcher = await start(simcord_env, bots, "jaques", dealer=2)
    await press(table, ann, "draw")
    drawn = table.live.deal.observation(seat(table, ann)).drawn
    res = await choose(table, ann, "draw_keep", "drawn")
    assert confirmed(res) == f"You threw the drawn card, {card_label(drawn)}, on the pile."


async def test_jaques_offer_accept_and_decline(simcord_env, bots):
    table, (ann, ben, cat), watcher = await start(simcord_env, bots, "jaques", dealer=2,
                                                  direct_trading=True)
    before = hand(table, ann)
    from bot.engine import card_code
    card = before[0]
    res = await choose(table, ann, "offer", f"{card_code(card)}@{seat(table, ben)}")
    assert confirmed(res) == f"You offered {card_label(card)} to ben: waiting for their answer."
    assert_hidden(table, watcher, [card])
    ben_before = hand(table, ben)
    res = await ben.click(table.offer_message(ben), label="Accept")
    res = await ben.select(res.response, [select_values(res)[0]])
    [gave] = [c for c in ben_before if c not in hand(table, ben)]
    assert confirmed(res) == f"You gave {card_label(gave)} to ann and got {card_label(card)}."
    assert_hidden(table, watcher, [gave, card])
    # ben's turn: he offers cat a card, which cat declines from the offer message
    await choose(table, ben, "offer", f"{card_code(hand(table, ben)[0])}@{seat(table, cat)}")
    res = await cat.click(table.offer_message(cat), label="Decline")
    assert confirmed(res) == "You declined ben's trade."


async def test_jaques_offer_answered_at_once_by_an_ai(simcord_env, bots):
    table, (ann,), watcher = await start(simcord_env, bots, "jaques", dealer=2, humans=("ann",),
                                         ai=2, direct_trading=True)
    from bot.engine import card_code
    before = hand(table, ann)
    card = before[0]
    res = await choose(table, ann, "offer", f"{card_code(card)}@1")
    after = hand(table, ann)
    got = [c for c in after if c not in before]
    if got:
        assert confirmed(res) == (f"You traded {card_label(card)} with {name(table, 1)} and got "
                                  f"{hand_label(got)}.")
        assert_hidden(table, watcher, got)  # (the AI may since have laid ann's card face up)
    else:
        assert confirmed(res) == (f"You offered {card_label(card)} to {name(table, 1)}, who "
                                  "declined: you keep it.")
