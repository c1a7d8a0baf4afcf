"""Issue 24 §2: the daily deal, played in duplicate, through SimCord: every member
plays the same deal (same deck, same seat, same AI seats) privately and once;
the board compares results; the day's commitment is public before the day and
its seed is revealed after it, and verifies; a restart loses nothing."""

from __future__ import annotations

import datetime
import json
import logging
import re

import pytest

from bot.engine.daily import DailyGame, day_number, deck_of, verify_seed
from bot.engine.proof import verify_record
from bot.ui.words import signed
from tests.cogs.helpers import answer_text, emit_component, message_text, restart, rows

#: a card named in text (the outline suits members read)
CARD = re.compile(r"(?<![\w])(10|[2-9JQKA])[♣♦♥♠♧♢♡♤]")


def daily_buttons(message) -> list[tuple[str, str]]:
    """``(label, custom_id)`` of the daily game's buttons on ``message``."""
    return [(comp.get("label"), comp["custom_id"]) for row in message.components
            for comp in row.get("components", []) if comp.get("type") == 2
            and comp.get("custom_id", "").startswith("commerce:daily:")]


def hand_line(message) -> str:
    [line] = [line for line in message_text(message).splitlines()
              if line.startswith("**Your hand:**")]
    return line


async def play_through(member, message, pick=0):
    """Click the ``pick``-th button (modulo) until the game is over; returns the
    last message and the labels clicked."""
    clicked = []
    for _ in range(60):
        buttons = daily_buttons(message)
        if not buttons:
            return message, clicked
        label, custom = buttons[pick % len(buttons)]
        clicked.append(label)
        res = await member.click(message, custom_id=custom)
        assert res.response is not None and not res.followups, answer_text(res)
        message = res.response
    raise AssertionError("the daily game did not end")


@pytest.fixture
def setup(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    general = guild.create_text_channel("general")
    ann = guild.add_member(env.create_user("ann"))
    ben = guild.add_member(env.create_user("ben"))
    return env, guild, general, ann, ben


async def test_two_members_play_the_same_deal_once_each_and_the_board_compares(setup):
    env, guild, general, ann, ben = setup
    res = await ann.slash(general, "commerce daily")
    assert res.ephemeral, answer_text(res)
    first = res.response
    text = message_text(first)
    assert "Daily deal · 2026-01-01" in text
    # the day's commitment and tomorrow's are shown, never a seed
    [(day, seed, committed)] = await rows(env.bot, "SELECT day, seed, commitment FROM daily_seeds"
                                          " WHERE day = ?", (day_number(datetime.date(2026, 1, 1)),))
    assert committed in text and seed not in text
    [(tomorrow,)] = await rows(env.bot, "SELECT commitment FROM daily_seeds WHERE day = ?",
                               (day + 1,))
    assert tomorrow in text
    ann_hand = hand_line(first)
    assert daily_buttons(first), (text, first.components)
    # nothing of it reached the channel: the game is ephemeral, no channel was made
    assert list(general.history(viewer=ben)) == []
    assert set(guild.channels) == {"general"}

    ben_res = await ben.slash(general, "commerce daily")
    assert ben_res.ephemeral
    # the same cards in the same seat: Ben's hand is Ann's
    assert hand_line(ben_res.response) == ann_hand
    # Ben sees nothing of Ann's game: only his own private answer
    seen = list(general.history(viewer=ben))
    assert len(seen) == 1 and seen[0].flags.ephemeral and seen[0].id == ben_res.response.id

    last, _ = await play_through(ann, first, pick=0)
    assert "Your result" in message_text(last)
    assert not daily_buttons(last)
    last_ben, _ = await play_through(ben, ben_res.response, pick=1)
    assert "Your result" in message_text(last_ben)

    results = dict(await rows(env.bot, "SELECT member_id, result FROM daily_plays"))
    assert set(results) == {ann.id, ben.id}
    # each result is what the engine gives from the seed and the member's stored moves
    for member in (ann, ben):
        [(moves,)] = await rows(env.bot, "SELECT moves FROM daily_plays WHERE member_id = ?",
                                (member.id,))
        game = DailyGame.replay(bytes.fromhex(seed), datetime.date(2026, 1, 1), json.loads(moves))
        assert game.result == results[member.id]

    # a second try is refused with a friendly ephemeral, and changes nothing
    again = await ann.slash(general, "commerce daily")
    assert again.ephemeral
    assert "already" in answer_text(again) and "Traceback" not in answer_text(again)
    assert dict(await rows(env.bot, "SELECT member_id, result FROM daily_plays")) == results

    board = await ann.slash(general, "commerce daily", show="board")
    text = message_text(board.response)
    mean = sum(results.values()) / 2
    for member in (ann, ben):
        score = results[member.id] - mean
        assert f"{member.name}: {signed(results[member.id])} points, duplicate {score:+.1f}" in text
    assert env.errors == []


async def test_the_seed_is_hidden_until_the_day_ends_then_verifies(setup, caplog):
    env, guild, general, ann, ben = setup
    caplog.set_level(logging.DEBUG)
    res = await ann.slash(general, "commerce daily")
    await play_through(ann, res.response)
    await play_through(ben, (await ben.slash(general, "commerce daily")).response, pick=2)
    [(seed, committed)] = await rows(env.bot, "SELECT seed, commitment FROM daily_seeds"
                                     " WHERE day = ?", (day_number(datetime.date(2026, 1, 1)),))
    today = await ann.slash(general, "commerce daily", show="proof", day="2026-01-01")
    text = message_text(today.response)
    assert committed in text and seed not in text and "Secret until the day ends" in text
    assert today.response.attachments == []  # no record of a day that has not ended
    # before the day ends the seed is in no message anyone sees, no request, no log line
    for member in (ann, ben):
        assert not any(seed in message_text(m) for m in general.history(viewer=member))
    assert not any(seed in json.dumps(e.json or {}) for e in env.http_requests)
    assert seed not in caplog.text

    # the next UTC day: the day's seed is revealed and verifies against its commitment
    env.bot.daily.clock = lambda: datetime.datetime(2026, 1, 2, 0, 0, 1, tzinfo=datetime.UTC)
    after = await ann.slash(general, "commerce daily", show="proof")
    text = message_text(after.response)
    assert seed in text and committed in text and "✅" in text
    assert verify_seed(seed, committed)
    # Ann, who played that day, gets her game's record, which the engine's own check proves
    [att] = after.response.attachments
    record = json.loads(await att.read())
    assert record["shuffle"]["seed"] == seed and record["players"].count("ann") == 1
    _, summary = verify_record(record, commitment_shown=committed)
    checks = {c["check"]: c["status"] for c in summary["checks"]}
    assert checks["commitment"] == checks["random"] == checks["chain"] == "proven"
    assert [a["seat"] for a in record["deals"][0]["actions"]]  # her moves and the AI's
    # and anyone can recompute the day's deal from it: Ann's first hand came from it
    deck = deck_of(bytes.fromhex(seed), datetime.date(2026, 1, 1))
    assert len(deck) == 52
    # yesterday's board stays readable; today Ann may play the new day's deal
    board = await ann.slash(general, "commerce daily", show="board", day="2026-01-01")
    assert "ann" in message_text(board.response)
    new = await ann.slash(general, "commerce daily")
    assert "Daily deal · 2026-01-02" in message_text(new.response)
    assert env.errors == []


async def test_a_control_of_a_day_that_ended_is_refused(setup):
    env, guild, general, ann, ben = setup
    res = await ann.slash(general, "commerce daily")
    [(label, custom), *_] = daily_buttons(res.response)
    env.bot.daily.clock = lambda: datetime.datetime(2026, 1, 2, 0, 0, 1, tzinfo=datetime.UTC)
    late = await ann.click(res.response, custom_id=custom)
    assert "day is over" in answer_text(late)
    [(seq, result)] = await rows(env.bot, "SELECT seq, result FROM daily_plays")
    assert (seq, result) == (0, None)
    assert env.errors == []


async def test_a_restart_mid_game_resumes_it_and_allows_no_second_try(setup, make_bot):
    env, guild, general, ann, ben = setup
    res = await ann.slash(general, "commerce daily")
    [(label, custom), *_] = daily_buttons(res.response)
    clicked = await ann.click(res.response, custom_id=custom)
    mid = clicked.response or res.response
    [(seq_before, moves_before)] = await rows(env.bot, "SELECT seq, moves FROM daily_plays")
    assert seq_before == 1
    before_text = hand_line(mid) if daily_buttons(mid) else None

    await restart(env, make_bot())
    again = await ann.slash(general, "commerce daily")
    assert again.ephemeral
    text = message_text(again.response)
    if before_text is None:  # the deal ended with that one move: no second try
        assert "already" in text
    else:
        assert "where you left it" in text
        assert hand_line(again.response) == before_text
        await play_through(ann, again.response)
    [(seq_after, result)] = await rows(env.bot, "SELECT seq, result FROM daily_plays")
    assert seq_after >= seq_before and result is not None
    assert len(await rows(env.bot, "SELECT * FROM daily_plays")) == 1
    # an old button (made before the restart, one move ago, as a stale client still
    # shows it) is refused and changes nothing
    [old] = [m for m in general.history(viewer=ann) if m.id == res.response.id]
    stale = emit_component(env, ann, old, custom, shown=True)
    await env.settle()
    assert dict(await rows(env.bot, "SELECT seq, result FROM daily_plays")) == {seq_after: result}
    assert "out of date" in answer_text(stale) or "over" in answer_text(stale)
    assert env.errors == []


async def test_no_card_of_the_daily_game_reaches_a_public_message(setup):
    env, guild, general, ann, ben = setup
    res = await ann.slash(general, "commerce daily")
    await play_through(ann, res.response)
    board = await ben.slash(general, "commerce daily", show="board")
    assert board.ephemeral
    assert not CARD.search(message_text(board.response))
    cat = guild.add_member(env.create_user("cat"))
    assert list(general.history(viewer=cat)) == []
    assert env.errors == []


async def test_tomorrows_commitment_is_drawn_each_day_at_noon_without_anyone_asking(setup):
    env, guild, general, ann, ben = setup
    assert await rows(env.bot, "SELECT day FROM daily_seeds") == []
    # the draw runs daily at DRAW_AT (noon UTC); moved to 00:01 here, as hours of virtual
    # time would take minutes of the watch's ticks
    from cogs.daily import DRAW_AT
    draw = env.bot.get_cog("Daily").draw
    assert draw.time == [DRAW_AT] and draw.is_running()
    draw.change_interval(time=datetime.time(0, 1, tzinfo=datetime.UTC))
    draw.restart()
    await env.advance_time(30)
    assert await rows(env.bot, "SELECT day FROM daily_seeds") == []
    await env.advance_time(31)  # 2026-01-01 00:01:01 UTC
    today = day_number(datetime.date(2026, 1, 1))
    assert [d for (d,) in await rows(env.bot, "SELECT day FROM daily_seeds ORDER BY day")] == [
        today, today + 1]
    # tomorrow's commitment is public now, its seed is not
    [(seed, committed)] = await rows(env.bot, "SELECT seed, commitment FROM daily_seeds"
                                     " WHERE day = ?", (today + 1,))
    res = await ann.slash(general, "commerce daily", show="proof", day="2026-01-02")
    text = message_text(res.response)
    assert committed in text and seed not in text
    assert env.errors == []


async def test_a_forged_daily_button_acts_only_from_its_own_guild_and_a_private_message(setup):
    env, guild, general, ann, ben = setup
    res = await ann.slash(general, "commerce daily")
    [(label, custom), *_] = daily_buttons(res.response)
    [mine] = [m for m in general.history(viewer=ann) if m.id == res.response.id]
    # another guild's id in the button: refused, nothing played
    elsewhere = custom.replace(f"commerce:daily:{guild.id}:", "commerce:daily:42:")
    forged = emit_component(env, ann, mine, elsewhere, shown=True)
    await env.settle()
    assert "does not belong here" in answer_text(forged)
    # the button on a message everyone sees (a table's lobby): refused, nothing played
    await ann.slash(general, "commerce new")
    lobby = guild.channels["commerce-1"].history()[0]
    public = emit_component(env, ann, lobby, custom, shown=True)
    await env.settle()
    assert "private panel" in answer_text(public)
    assert await rows(env.bot, "SELECT seq FROM daily_plays") == [(0,)]
    # and Ben pressing Ann's button plays his own game, never hers
    ben_res = await ben.slash(general, "commerce daily")
    [(_, bens), *_] = daily_buttons(ben_res.response)
    assert bens == custom  # the same deal: the same first decisions
    [bens_message] = [m for m in general.history(viewer=ben) if m.id == ben_res.response.id]
    await ben.click(bens_message, custom_id=custom)
    assert dict(await rows(env.bot, "SELECT member_id, seq FROM daily_plays")) == {
        ann.id: 0, ben.id: 1}
    assert env.errors == []


async def test_two_clicks_at_once_make_one_move(setup):
    env, guild, general, ann, ben = setup
    res = await ann.slash(general, "commerce daily")
    [(label, custom), *_] = daily_buttons(res.response)
    [mine] = [m for m in general.history(viewer=ann) if m.id == res.response.id]
    first = emit_component(env, ann, mine, custom, shown=True)
    second = emit_component(env, ann, mine, custom, shown=True)
    await env.settle()
    assert await rows(env.bot, "SELECT seq FROM daily_plays") == [(1,)]
    answers = [answer_text(first), answer_text(second)]
    assert sum("out of date" in a for a in answers) == 1, answers
    assert env.errors == []


async def test_a_member_plays_the_day_once_whichever_server_they_play_it_in(setup):
    # the same deal in every server: a member who played it in one server knows every
    # hand of it, so a second game elsewhere would top that server's board unfairly
    env, guild, general, ann, ben = setup
    other = env.create_guild()
    lounge = other.create_text_channel("lounge")
    dee, eve = env.create_user("dee"), env.create_user("eve")
    dee_here, dee_there = guild.add_member(dee), other.add_member(dee)
    res = await dee_here.slash(general, "commerce daily")
    await play_through(dee_here, res.response)
    again = await dee_there.slash(lounge, "commerce daily")
    assert again.ephemeral
    assert "another server" in answer_text(again), answer_text(again)
    assert not daily_buttons(again.response)
    assert await rows(env.bot, "SELECT guild_id FROM daily_plays") == [(guild.id,)]
    # merely begun elsewhere counts too: its cards were seen
    eve_here, eve_there = guild.add_member(eve), other.add_member(eve)
    await eve_here.slash(general, "commerce daily")
    refused = await eve_there.slash(lounge, "commerce daily")
    assert "another server" in answer_text(refused)
    assert env.errors == []
