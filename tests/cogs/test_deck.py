"""The four-colour deck through the real bot (issue 23 §2; bot/i18n/deck.py): a member
chooses it with ``/commerce settings``, it is kept across a restart (a new bot on the same
database), and from then on their own hand picture has blue diamonds and green clubs and
their own panel, buttons and menus name cards with the coloured suits, while another
member's panel and every public message and picture stay in two colours."""

from __future__ import annotations

import io

from PIL import Image

from bot.i18n import deck
from bot.ui import media, pictures
from tests.cogs.helpers import Table, answer_text, message_text, restart, rows
from tests.cogs.test_table_pictures import pick

#: the coloured suits of text in four colours, and the outline ones of two
FOUR_SUITS = ("☘️", "🔷", "❤️")
OUTLINE_SUITS = ("♧", "♢", "♡")


def colours(png: bytes) -> set[tuple[int, int, int]]:
    """Every colour of a picture's pixels."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    return {colour for _count, colour in image.getcolors(1 << 16) or []}


def labels(result) -> str:
    """A panel's text with every button label and menu option of it."""
    out = [result.response.content]
    for row in result.response.components:
        for item in row.get("components", []):
            out.append(item.get("label") or "")
            out += [o["label"] for o in item.get("options", [])]
    return "\n".join(out)


async def test_a_member_s_four_colours_are_kept_and_shown_to_them_alone(simcord_env, bots,
                                                                         make_bot):
    env = simcord_env
    guild = env.create_guild()
    general = guild.create_text_channel("general")
    ann, ben, cat = (guild.add_member(env.create_user(n)) for n in ("ann", "ben", "cat"))
    shown = answer_text(await ann.slash(general, "commerce settings"))
    assert "two colours" in shown and "♢" in shown and not any(s in shown for s in FOUR_SUITS)
    chosen = await ann.slash(general, "commerce settings", deck="four")
    assert chosen.ephemeral
    assert "four colours" in answer_text(chosen)
    assert "A♤ K❤️ Q🔷 J☘️" in answer_text(chosen)
    assert await rows(bots[-1], "SELECT deck FROM member_settings WHERE member_id = ?",
                      (ann.id,)) == [("four",)]

    # a new bot on the same database still knows it
    await restart(env, make_bot())
    assert "A♤ K❤️ Q🔷 J☘️" in answer_text(await ann.slash(general, "commerce settings"))

    # a table: 2♣ 2♦ 2♥ 2♠ 3♣... dealt, so every hand holds a club or a diamond
    bots[-1].service.arranged_decks.append(list(range(52)))
    await ann.slash(general, "commerce new")
    channel = guild.channels["commerce-1"]
    table = Table(env, bots, channel, {a.id: a for a in (ann, ben, cat)})
    lobby = channel.history()[0]
    for member in (ben, cat):
        await member.click(lobby, label="Join")
    await ann.click(lobby, label="Start")
    live = table.live

    mine = await ann.click(table.table_message(), label="My hand")
    theirs = await ben.click(table.table_message(), label="My hand")
    [ann_picture], [ben_picture] = mine.response.attachments, theirs.response.attachments
    ann_png, ben_png = await ann_picture.read(), await ben_picture.read()
    ann_obs = live.deal.observation(live.seat_of(ann.id))
    ben_obs = live.deal.observation(live.seat_of(ben.id))
    # ann's picture is her hand in four colours: blue diamonds, green clubs, as she holds them
    assert ann_png == pictures.hand_png(ann_obs, pictures.FOUR_COLOUR_INK)
    assert ann_png != pictures.hand_png(ann_obs)
    suits = {card % 4 for card in ann_obs.hand}
    assert suits & {0, 1}
    assert (pictures.GREEN in colours(ann_png)) == (0 in suits)
    assert (pictures.BLUE in colours(ann_png)) == (1 in suits)
    assert pictures.RED not in colours(ann_png) or 2 in suits
    # ben's is the two-colour deck: no blue, no green ink at all
    assert ben_png == media.hand_png(ben_obs) == pictures.hand_png(ben_obs)
    assert not colours(ben_png) & {pictures.BLUE, pictures.GREEN}
    # its description keeps the outline suits (a screen reader names the suit)
    assert ann_picture.description == pictures.hand_alt(ann_obs)
    assert not any(s in ann_picture.description for s in FOUR_SUITS)

    # texts: ann's panel names her cards with the coloured suits, ben's with the outline ones
    assert any(s in labels(mine) for s in FOUR_SUITS[:2])
    assert not any(s in labels(mine) for s in OUTLINE_SUITS)
    assert any(s in labels(theirs) for s in OUTLINE_SUITS)
    assert not any(s in labels(theirs) for s in FOUR_SUITS)

    # another seat's move refreshes ann's panel: still in her four colours
    actor = table.actor_to_act()
    if actor is ann:
        await ann.click(mine.response, custom_id=pick(mine, "trade"))
    else:
        await table.trade(actor)
    assert any(s in labels(mine) for s in FOUR_SUITS)
    assert not any(s in labels(mine) for s in OUTLINE_SUITS)

    # nothing public ever shows the coloured suits or draws in four colours
    for message in channel.history():
        if message.flags.ephemeral:
            continue
        assert not any(s in message_text(message) for s in FOUR_SUITS), message_text(message)
        for attachment in message.attachments:
            assert not colours(await attachment.read()) & {pictures.BLUE, pictures.GREEN}
    assert deck.current() == deck.TWO  # the member's deck never outlives their interaction


async def test_the_deck_setting_is_per_guild_and_its_values_are_checked(simcord_env, bots):
    env = simcord_env
    one, two = env.create_guild(), env.create_guild()
    user = env.create_user("ann")
    ann_one, ann_two = one.add_member(user), two.add_member(user)
    await ann_one.slash(one.create_text_channel("general"), "commerce settings", deck="four")
    said = answer_text(await ann_two.slash(two.create_text_channel("general"),
                                           "commerce settings"))
    assert "two colours" in said
    service = bots[-1].service
    assert await service.deck(one.id, user.id) == deck.FOUR
    assert await service.deck(two.id, user.id) == deck.TWO
    try:
        await service.set_deck(one.id, user.id, "five")
    except Exception as exc:  # a UserError: nothing kept
        assert "five" in str(exc.args[0])
    else:
        raise AssertionError("an unknown deck was accepted")
    assert await service.deck(one.id, user.id) == deck.FOUR


async def test_a_showdown_after_a_four_colour_member_s_knock_is_in_two_colours(simcord_env,
                                                                              bots):
    from tests.cogs.helpers import solo, until_ann_acts
    env = simcord_env
    guild, table, ann, _lobby = await solo(env, bots)
    await ann.slash(guild.channels["general"], "commerce settings", deck="four")
    await until_ann_acts(env, table)
    number = table.live.deal_number
    knocked = await ann.click(table.table_message(), label="Knock")  # the deal ends after the AI
    assert knocked.acknowledged
    for _ in range(10):
        if table.live.deal_number != number or table.live.deal.finished:
            break
        await env.advance_time(5)
    showdowns = [m for m in table.channel.history() if not m.flags.ephemeral and m.embeds
                 and (m.embeds[0].title or "").startswith("Showdown")]
    assert showdowns, [message_text(m) for m in table.channel.history()]
    public = [m for m in table.channel.history() if not m.flags.ephemeral]
    said = [message_text(m) + "\n".join(a.description or "" for a in m.attachments)
            for m in public]
    assert any(s in said[public.index(showdowns[-1])] for s in OUTLINE_SUITS)  # hands named
    for message, text in zip(public, said, strict=True):
        assert not any(s in text for s in FOUR_SUITS), text
        for attachment in message.attachments:
            assert not colours(await attachment.read()) & {pictures.BLUE, pictures.GREEN}
