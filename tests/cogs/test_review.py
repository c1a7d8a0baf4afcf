"""Issue 24 §3: the coach's review of a finished game through Discord. Each member
opens their own private review from the Review button under the final standings or
with /commerce review: their decisions only (the moves they chose themselves),
each with the coach's choice (``coach.advise`` of their view then) and its cost,
the game's accuracy and the trend; someone who did not play is refused; the review
is computed once and survives a restart."""

from __future__ import annotations

import re

from bot import create_bot
from bot.engine import coach, parse_card
from bot.engine import review as engine_review
from bot.service.players import TEST_REVIEW
from bot.service.reviews import decision_dict
from bot.ui.cards import card_label
from tests.cogs.helpers import CARD_LABEL, Table, answer_text, private, restart, rows

NAMES = ("ann", "ben", "cat")


async def play(env, guild, general, actors) -> Table:
    """A game of foster played to its end: at every turn the member to act trades
    twice in a deal, then knocks."""
    res = await actors[0].slash(general, "commerce new")
    assert res.ephemeral, answer_text(res)
    channel = guild.channels["commerce-1"]
    lobby = channel.history()[0]
    for a in actors[1:]:
        await a.click(lobby, label="Join")
    await actors[0].click(lobby, label="Start")
    table = Table(env, [env.bot], channel, {a.id: a for a in actors})
    turns: dict[tuple[int, int], int] = {}
    while True:
        live = table.live
        if live.deal.finished:
            if live.game.complete:
                return table
            await actors[0].click(channel.history()[-1], label="Next deal")
            continue
        actor = table.actor_to_act()
        key = (live.deal_number, actor.id)
        turns[key] = turns.get(key, 0) + 1
        if turns[key] <= 2 and "trade" in live.deal.legal_actions(live.deal.to_act):
            await table.trade(actor)
        else:
            await table.knock(actor)


def final_message(channel):
    [final] = [m for m in channel.history() if m.embeds and (m.embeds[0].title or "")
               .startswith("Game over")]
    return final


def review_id(message) -> str:
    ids = [c.custom_id for row in message.components for c in row.children]
    [found] = [i for i in ids if i.startswith("commerce:review:")]
    return found


def embed_of(res):
    answer = res.followups[-1] if res.followups else res.response
    [embed] = answer.embeds
    return embed


async def member_moves(bot, table_id: int, member_id: int) -> list[tuple[int, int]]:
    return [(d, s) for d, s in await rows(
        bot, "SELECT d.number, a.seq FROM actions a JOIN deals d ON d.id = a.deal_id"
             " WHERE d.table_id = ? AND a.member_id = ? ORDER BY d.number, a.seq",
        (table_id, member_id))]


async def test_each_member_reviews_their_own_decisions(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    general = guild.create_text_channel("general")
    actors = [guild.add_member(env.create_user(n)) for n in NAMES]
    dan = guild.add_member(env.create_user("dan"))  # in the server, never seated
    ann, ben, _ = actors
    table = await play(env, guild, general, actors)
    live = table.live
    bot = env.bot
    final = final_message(table.channel)
    custom_id = review_id(final)
    assert custom_id == f"commerce:review:{guild.id}:{live.id}:0:open"

    res = await ann.click(final, custom_id=custom_id)
    assert private(res)
    embed = embed_of(res)
    assert embed.title == "Your review · table 1 · foster"
    stored = await bot.storage.review(live.id, ann.id)
    assert stored is not None and stored.decisions >= 3

    # only Ann's own moves, each judged as the coach would have (the hint's search)
    seat = live.seat_of(ann.id)
    moves = await member_moves(bot, live.id, ann.id)
    assert [(line["deal"], line["move"]) for line in stored.lines] == moves
    arch = await bot.service.archive.archived(guild.id, live.id)
    moments = list(engine_review.moments(list(arch.live.game.deals), seat, set(moves)))
    assert len(moments) == len(stored.lines)
    budget = TEST_REVIEW  # the coach's search of a review when the tests decide in-process
    for moment, line in zip(moments, stored.lines, strict=True):
        assert moment.view.seat == seat
        assert line["did"] == decision_dict(moment.decision)
        assert line["coach"] == decision_dict(coach.advise(moment.view, budget=budget).decision)
        assert line["cost"] >= 0 and (line["did"] != line["coach"] or line["cost"] == 0)
    assert stored.agreed == sum(1 for line in stored.lines
                                if not line["forced"] and line["did"] == line["coach"])
    # the figures and the trend are shown
    accuracy = f"{round(100 * stored.accuracy)}%"
    assert f"Accuracy **{accuracy}**" in embed.description
    assert [f.name for f in embed.fields] == ["Your last reviewed games"]
    assert embed.fields[0].value.startswith(accuracy)
    # no card Ann never held: every card named is one of her hands' or her decisions'
    allowed = {card_label(parse_card(c)) for line in stored.lines for c in line["hand"] or []}
    text = embed.description
    named = {m.group(0) for m in CARD_LABEL.finditer(text)}
    assert named and named <= allowed, named - allowed

    # the command shows the same review, read back (computed once)
    res = await ann.slash(general, "commerce review")
    assert private(res) and embed_of(res).description == embed.description
    res = await ann.slash(general, "commerce review", table=1)
    assert embed_of(res).description == embed.description
    assert len(await rows(bot, "SELECT table_id FROM reviews WHERE member_id = ?",
                          (ann.id,))) == 1

    # Ben pressing the same button sees his own review, never Ann's
    res = await ben.click(final, custom_id=custom_id)
    assert private(res)
    theirs = await bot.storage.review(live.id, ben.id)
    assert [(line["deal"], line["move"]) for line in theirs.lines] == \
        await member_moves(bot, live.id, ben.id)
    assert embed_of(res).description != embed.description
    # someone who did not play is refused, and nothing is stored for them
    res = await dan.click(final, custom_id=custom_id)
    assert private(res) and "did not play in the game at table 1" in answer_text(res)
    res = await dan.slash(general, "commerce review")
    assert "no finished game in this server to review" in answer_text(res)
    assert await bot.storage.review(live.id, dan.id) is None

    # after a restart the button still opens the stored review
    await restart(env, create_bot(db_path=bot.storage.path, rng=bot.service.rng))
    res = await ben.click(final_message(table.channel), custom_id=custom_id)
    assert private(res) and embed_of(res).title == "Your review · table 1 · foster"


async def test_a_long_review_turns_its_pages(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    general = guild.create_text_channel("general")
    actors = [guild.add_member(env.create_user(n)) for n in NAMES]
    table = await play(env, guild, general, actors)
    ann = actors[0]
    res = await ann.slash(general, "commerce review")
    stored = await env.bot.storage.review(table.live.id, ann.id)
    answer = res.followups[-1] if res.followups else res.response
    pages = -(-len(stored.lines) // 8)
    ids = [c.custom_id for row in answer.components for c in row.children]
    if pages == 1:
        assert ids == []
        return
    assert embed_of(res).footer.text.startswith(f"Page 1 of {pages}")
    nxt = next(i for i in ids if i.endswith(":next"))
    turned = await ann.click(answer, custom_id=nxt)
    assert re.match(rf"Page 2 of {pages}", embed_of(turned).footer.text)
