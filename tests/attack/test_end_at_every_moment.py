# ruff: noqa: C901
"""Class 1: ``/commerce end``, ``/commerce-admin cancel`` and a deleted channel at
every moment of a game at production defaults: lobby, a member to act, AI moves
being shown, between two deals, an offer to a member waiting, the very moment the
next deal starts by itself, the move that ends a deal."""

from __future__ import annotations

import pytest

from tests.attack.common import SETTLE, moderator
from tests.attack.prod import check_end, drive, finish, setup_game, start_game
from tests.cogs.golden import title
from tests.cogs.helpers import emit_component, emit_slash

pytestmark = [pytest.mark.prod, pytest.mark.simcord(settle_timeout=SETTLE)]

MOMENTS = ["lobby", "member_to_act", "ai_shown", "between_deals", "offer_waiting",
           "next_deal_fires", "last_move"]


def ann_to_act(env, table_id, ann):
    live = env.bot.service.tables.get(table_id)
    return (live is not None and live.deal is not None and not live.deal.finished
            and live.deal.to_act == live.seat_of(ann.id)
            and table_id not in env.bot.publisher.showing._running
            and live.deal.pending is None)


async def reach(env, moment, channel, ann, ben, table_id):
    """Play until ``moment``; returns a callable that fires the closing event at
    the same instant as the table's own step (for the racing moments) or None."""
    bot = env.bot
    service = bot.service
    if moment == "member_to_act":
        await drive(env, channel, [ann, ben], table_id, seed=1,
                    until=lambda: ann_to_act(env, table_id, ann) and
                    len(service.tables[table_id].deal.operations) > 2)
    elif moment == "ai_shown":
        await drive(env, channel, [ann, ben], table_id, seed=2,
                    until=lambda: table_id in bot.publisher.showing._running)
    elif moment in ("between_deals", "next_deal_fires"):
        def between():
            live = service.tables.get(table_id)
            return (live is not None and live.deal is not None and live.deal.finished
                    and live.deal_number in live.announced and live.deal_number >= 1
                    and bot.timers.waiting(table_id))
        await drive(env, channel, [ann, ben], table_id, seed=3, until=between)
        if moment == "next_deal_fires":
            at = bot.timers.next_deal_at(table_id)
            import discord
            left = (at - discord.utils.utcnow()).total_seconds()
            await env.advance_time(max(0.0, left - 0.25))
    elif moment == "offer_waiting":
        from tests.cogs.test_confirmations import components

        def offered():
            live = service.tables.get(table_id)
            return (live is not None and live.deal is not None and live.deal.pending is not None
                    and live.member_of(live.deal.to_act) == ben.id)
        for _ in range(40):
            await drive(env, channel, [ann, ben], table_id, seed=4,
                        until=lambda: ann_to_act(env, table_id, ann))
            live = service.tables[table_id]
            message = next(m for m in channel.history() if m.id == live.row.table_message_id)
            panel = await ann.click(message, label="My hand")
            buttons = [c for c in components(panel) if c.get("type") == 2
                       and (":barter:" in c["custom_id"] or ":offer:" in c["custom_id"])]
            menus = [c for c in components(panel) if c.get("type") == 3
                     and (c["custom_id"].endswith(":barter") or c["custom_id"].endswith(":offer"))]
            if buttons:
                await ann.click(panel.response, custom_id=buttons[0]["custom_id"])
            elif menus:
                res = await ann.select(panel.response, [menus[0]["options"][0]["value"]],
                                       custom_id=menus[0]["custom_id"])
                follow = [c for c in components(res) if c.get("type") == 3]
                if follow:
                    values = [o["value"] for o in follow[0]["options"]]
                    await ann.select(res.response, [values[0]], custom_id=follow[0]["custom_id"])
            else:
                await drive(env, channel, [ann, ben], table_id, seed=4,
                            until=lambda: not ann_to_act(env, table_id, ann))
            if buttons or menus:
                await env.advance_time(1)
                if offered():
                    break
            await env.advance_time(2)
        assert offered(), "no offer to ben was ever made"
        await env.advance_time(3)
    elif moment == "last_move":
        await drive(env, channel, [ann, ben], table_id, seed=5, until=ann_to_act_knock(
            env, table_id, ann))


def ann_to_act_knock(env, table_id, ann):
    def check():
        if not ann_to_act(env, table_id, ann):
            return False
        live = env.bot.service.tables[table_id]
        message = live.row.table_message_id
        return message is not None
    return check


@pytest.mark.parametrize("how", ["end", "cancel", "delete"])
@pytest.mark.parametrize("moment", MOMENTS)
@pytest.mark.parametrize("preset,options", [("foster", {"deals_per_player": 2}),
                                            ("jaques", {"chips": 5, "direct_trading": True})],
                         ids=["foster", "jaques"])
async def test_closing_at_any_moment_ends_the_table_cleanly(simcord_env, preset, options,
                                                           moment, how):
    env = simcord_env
    guild, general, channel, (ann, ben), table_id = await setup_game(
        env, preset, humans=("ann", "ben"), ai=1, **options)
    mod = moderator(env, guild)
    if moment != "lobby":
        await start_game(env, channel, ann)
        await reach(env, moment, channel, ann, ben, table_id)
    racing = moment in ("next_deal_fires", "last_move")
    if how == "delete":
        await env.bot.get_channel(channel.id).delete()
        await env.advance_time(1)
    elif racing:
        if moment == "last_move":
            live = env.bot.service.tables[table_id]
            message = next(m for m in channel.history() if m.id == live.row.table_message_id)
            emit_component(env, ann, message,
                           f"commerce:play:{table_id}:{live.deal_number}:knock")
        if how == "end":
            emit_slash(env, ann, channel, "commerce end")
        else:
            emit_slash(env, mod, general, "commerce-admin cancel",
                       table=env.bot.service.tables[table_id].row.number)
        await env.advance_time(1)
    elif how == "end":
        await ann.slash(channel, "commerce end")
    else:
        number = env.bot.service.tables[table_id].row.number
        await mod.slash(general, "commerce-admin cancel", table=number)
    await finish(env, table_id, 120)
    await env.advance_time(60)  # anything still to show never comes back
    problems = await check_end(env, guild, channel, table_id)
    if how != "delete" and moment != "lobby":
        finals = [title(m) for m in channel.history() if title(m).startswith("Game over")]
        if len(finals) > 1:
            problems.append(f"{len(finals)} final standings")
    assert problems == []
    env.errors  # noqa: B018
