"""Every control either works or is visibly gone, and acts only where it was posted.

1. Every button and select the bot can send is enumerated (``DYNAMIC_ITEMS`` and any
   ``discord.ui.View`` subclass in ``bot/ui/components.py``), put on screen in a real
   SimCord session, and pressed after its timeout, after a restart, and after both:
   each press is answered, or the control is no longer on the message.
2. Forged custom ids naming a table of another guild or another channel are refused
   with one short ephemeral answer and change nothing, for every kind of control.
"""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import discord
import pytest
from simcord.components import walk_components

from bot.engine import card_code
from bot.ui import components
from bot.ui.components import DYNAMIC_ITEMS, NOT_HERE
from tests.cogs.helpers import Table, answer_text, board_lines, restart, solo, until_ann_acts

ROOT = Path(__file__).resolve().parents[2]
APOLOGY = "Something went wrong"
#: ``discord.ui.View`` subclasses of ``bot/ui/components.py`` this test knows how to put
#: on screen (every control is a ``DynamicItem`` in a ``timeout=None`` view): the panel's
#: controls, sent as the payloads of ``PickButton`` and ``CardSelect`` items, are put on
#: screen by ``every_control_on_screen`` (a member's panel) and never kept
HANDLED_VIEWS: dict[type, str] = {
    components.PanelControls: "a player's panel (timeout=None, finished at once)"}


# ---------------------------------------------------------------- helpers
def kind_of(custom_id: str) -> type:
    """The ``DYNAMIC_ITEMS`` class whose template matches ``custom_id``."""
    kinds = [c for c in DYNAMIC_ITEMS if c.__discord_ui_compiled_template__.fullmatch(custom_id)]
    assert len(kinds) == 1, (custom_id, kinds)
    return kinds[0]


def where(message) -> tuple[int, int]:
    channel_id = getattr(message, "channel_id", None) or message.channel.id
    return channel_id, message.id


def controls(env, message) -> list[dict]:
    """The interactive components on ``message`` as stored now ([] once deleted)."""
    channel_id, message_id = where(message)
    stored = env.backend.messages.get(channel_id, {}).get(message_id)
    if stored is None:
        return []
    return [c for c in walk_components(stored.components)
            if c.get("type") in (2, 3, 5, 6, 7, 8) and c.get("custom_id")]


async def press(actor, message, component):
    cid = component["custom_id"]
    if component["type"] == 2:
        return await actor.click(message, custom_id=cid)
    return await actor.select(message, [component["options"][0]["value"]], custom_id=cid)


def forge(env, actor, carrier, custom_id: str, values: list[str] | None = None):
    """A component INTERACTION_CREATE from ``actor`` on ``carrier`` (a bot message in
    the actor's guild) whose button or select carries ``custom_id``: what a modified
    client can send. Settle afterwards."""
    from simcord import InteractionResult
    from simcord import interactions as _interactions
    from simcord.backend import serializers

    backend = env.backend
    channel_id, message_id = where(carrier)
    stored = backend.get_message(channel_id, message_id)
    if values is None:
        component = {"type": 2, "style": 2, "label": "Forged", "custom_id": custom_id}
        data = {"custom_id": custom_id, "component_type": 2}
    else:
        component = {"type": 3, "custom_id": custom_id, "min_values": 1, "max_values": 1,
                     "options": [{"label": v, "value": v} for v in values]}
        data = {"custom_id": custom_id, "component_type": 3, "values": values}
    record, payload = _interactions.base_payload(
        backend, type=3, channel_id=channel_id, guild_id=actor.guild.id, user_id=actor.id,
        data=data)
    message = dict(serializers.message_payload(backend, stored))
    message["components"] = [{"type": 1, "components": [component]}]
    payload["message"] = message
    record.source_message_id = stored.id
    env._notify_dispatch_observers(record)
    backend.emit("INTERACTION_CREATE", payload)
    return InteractionResult(env, record)


async def table_of(env, guild, opener, joiners, general):
    """``opener`` opens a table from ``general`` and ``joiners`` join it; returns the
    (channel, lobby message)."""
    before = set(guild.channels)
    res = await opener.slash(general, "commerce new")
    assert res.ephemeral, answer_text(res)
    made = {n for n in set(guild.channels) - before if n.startswith("commerce-")}
    assert len(made) == 1, answer_text(res)
    [name] = made
    channel = guild.channels[name]
    lobby = channel.history()[0]
    for member in joiners:
        await member.click(lobby, label="Join")
    return channel, lobby


# ---------------------------------------------------------- enumeration
def test_every_control_class_is_registered_and_no_view_can_time_out():
    """Every ``DynamicItem`` of components.py is registered (so it is dispatched after a
    restart); a ``View`` subclass would time out unless this test learns to handle it;
    every ``View(...)`` the bot builds passes ``timeout=None``."""
    members = [obj for _, obj in inspect.getmembers(components, inspect.isclass)
               if obj.__module__ == components.__name__]
    dynamic = {c for c in members if issubclass(c, discord.ui.DynamicItem)}
    assert dynamic == set(DYNAMIC_ITEMS)
    views = [c for c in members if issubclass(c, discord.ui.View | discord.ui.Modal)]
    unhandled = [c.__name__ for c in views if c not in HANDLED_VIEWS]
    assert not unhandled, f"views with a timeout this test does not exercise: {unhandled}"
    offenders = []
    for path in [*ROOT.joinpath("bot").rglob("*.py"), *ROOT.joinpath("cogs").glob("*.py")]:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                bases = {getattr(b, "attr", getattr(b, "id", "")) for b in node.bases}
                if bases & {"View", "LayoutView", "Modal"} and path.name != "components.py":
                    offenders.append(f"{path.name}: class {node.name}")
            if isinstance(node, ast.Call) and getattr(node.func, "attr", None) in (
                    "View", "LayoutView"):
                timeout = next((k.value for k in node.keywords if k.arg == "timeout"), None)
                if not (isinstance(timeout, ast.Constant) and timeout.value is None):
                    offenders.append(f"{path.name}:{node.lineno}: View without timeout=None")
    assert not offenders, offenders


async def every_control_on_screen(env):
    """A guild where every kind of control the bot sends is on screen. Returns
    ``[(actor, message)]``: who presses the controls of which message."""
    guild = env.create_guild()
    general = guild.create_text_channel("general")
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    mod = guild.add_member(env.create_user("mod"), roles=[mods])
    ann, ben, cat, dan, eve = (guild.add_member(env.create_user(n))
                               for n in ("ann", "ben", "cat", "dan", "eve"))
    twelve = [guild.add_member(env.create_user(f"p{i:02d}")) for i in range(12)]
    res = await mod.slash(general, "commerce-admin settings", next_deal_delay=0, turn_timer=0)
    assert "button only" in res.response.content and "turn timer **off**" in res.response.content
    shown = []
    # a game: a barter offer waiting (the offer carries Accept / Refuse, pressed by the
    # offerer: refused, nothing changes; the table message My hand), and its target's
    # panel with a button per card to give back and Refuse (knock). The actor's
    # trade panel was replaced (deleted) by the barter's: one panel per player.
    channel, lobby = await table_of(env, guild, ann, (ben, cat), general)
    await ann.click(lobby, label="Start")
    table = Table(env, [env.bot], channel, {a.id: a for a in (ann, ben, cat)})
    actor = table.actor_to_act()
    trade = await actor.click(table.table_message(), label="Trade")
    await table.barter(actor)
    assert trade.response is None  # one panel per player: the older one is gone
    target = table.actor_to_act()
    answer = await target.click(table.table_message(), label="My hand")
    assert any(":pick:" in c["custom_id"] for c in controls(env, answer.response))
    shown += [(actor, table.table_message()), (actor, table.offer_message(target)),
              (target, answer.response)]
    # a player's panel opened by Trade: the trade menu on top, Barter / Knock buttons
    channel, lobby = await table_of(env, guild, eve, (), general)
    await eve.click(lobby, label="Add AI")
    await eve.click(lobby, label="Add AI")
    await eve.click(lobby, label="Start")
    solo = Table(env, [env.bot], channel, {eve.id: eve})
    assert solo.actor_to_act() is eve
    mine = await eve.click(solo.table_message(), label="Trade")
    assert controls(env, mine.response)[0]["type"] == 3
    shown.append((eve, mine.response))
    # twelve players: a showdown waiting for Next deal, and two pages of ledger
    channel, lobby = await table_of(env, guild, twelve[0], twelve[1:], general)
    await twelve[0].click(lobby, label="Start")
    big = Table(env, [env.bot], channel, {a.id: a for a in twelve})
    await big.knock(big.actor_to_act())
    showdown = channel.history()[-1]
    assert showdown.embeds[0].title.startswith("Showdown")
    shown.append((twelve[0], showdown))
    board = await ann.slash(general, "commerce leaderboard")
    assert board.response.embeds[0].footer.text.startswith("Page 1 of 2")
    shown.append((ann, board.response))
    # the history of a game (started, then ended at once): its list (a menu) and the
    # game (its buttons, then its menu of deals)
    channel, _ = await table_of(env, guild, dan, (), general)
    for label in ("Add AI", "Add AI", "Start"):
        await dan.click(channel.history()[0], label=label)
    await dan.slash(channel, "commerce end")
    listing = await dan.slash(general, "commerce history")
    game = await dan.slash(general, "commerce history", table=int(channel.name.split("-")[1]))
    assert listing.ephemeral and game.ephemeral
    shown += [(dan, listing.response), (dan, game.response)]
    # its final standings, with Review (issue 24 §3)
    [final] = [m for m in channel.history() if m.embeds
               and (m.embeds[0].title or "").startswith("Game over")]
    shown.append((dan, final))
    # a lobby, and the reset question
    channel, lobby = await table_of(env, guild, dan, (), general)
    shown.append((mod, lobby))
    reset = await mod.slash(general, "commerce-admin reset-ledger")
    assert reset.ephemeral
    shown.append((mod, reset.response))
    return shown


@pytest.mark.parametrize("when", ["timeout", "restart", "timeout+restart"])
async def test_every_control_answers_after_its_timeout_and_a_restart(simcord_env, make_bot,
                                                                    when):
    env = simcord_env
    shown = await every_control_on_screen(env)
    # every component the bot has sent anywhere is one of ours, and all kinds are here
    sent = [c["custom_id"] for channel in env.backend.messages.values()
            for m in channel.values() for c in walk_components(m.components) if c.get("custom_id")]
    assert {kind_of(cid) for cid in sent} == set(DYNAMIC_ITEMS)
    on_screen = {kind_of(c["custom_id"]) for _, m in shown for c in controls(env, m)}
    assert on_screen == set(DYNAMIC_ITEMS)
    if "timeout" in when:
        await env.advance_time(181)  # past every timeout there was (Confirm 60 s, pager 120 s)
    if "restart" in when:
        await restart(env, make_bot())
    pressed, gone = [], []
    for actor, message in shown:
        for original in controls(env, message):
            now = {c["custom_id"]: c for c in controls(env, message)}
            component = now.get(original["custom_id"])
            if component is None or component.get("disabled"):
                gone.append(original["custom_id"])  # visibly removed or disabled
                continue
            res = await press(actor, message, component)
            text = answer_text(res)
            assert res.acknowledged, f"{original['custom_id']} got no answer ({when})"
            assert APOLOGY not in text, (original["custom_id"], text)
            pressed.append(kind_of(original["custom_id"]))
    assert set(pressed) == set(DYNAMIC_ITEMS), (pressed, gone)  # each kind really pressed
    assert env.errors == []


# ------------------------------------------------------------- the pager
async def twelve_on_the_ledger(env):
    guild = env.create_guild()
    general = guild.create_text_channel("general")
    twelve = [guild.add_member(env.create_user(f"p{i:02d}")) for i in range(12)]
    channel, lobby = await table_of(env, guild, twelve[0], twelve[1:], general)
    await twelve[0].click(lobby, label="Start")
    big = Table(env, [env.bot], channel, {a.id: a for a in twelve})
    await big.knock(big.actor_to_act())
    return guild, general, twelve


async def test_leaderboard_pages_are_queried_on_each_click_even_after_a_restart(
        simcord_env, make_bot):
    env = simcord_env
    guild, general, twelve = await twelve_on_the_ledger(env)
    owner, other = twelve[3], twelve[4]
    res = await owner.slash(general, "commerce leaderboard")
    assert not res.ephemeral
    board, total = await env.bot.storage.leaderboard(guild.id, 0, 100)
    assert total == 12
    first = res.response.embeds[0]
    assert first.footer.text == "Page 1 of 2 · 12 players"
    assert board_lines(first, twelve) == [(i + 1, m, b) for i, (m, b) in enumerate(board[:10])]
    await env.advance_time(600)
    await restart(env, make_bot())
    refused = await other.click(res.response, label="Next")
    assert refused.ephemeral and "not for you" in refused.response.content
    assert res.response.embeds[0].footer.text.startswith("Page 1 of 2")  # unchanged
    turned = await owner.click(res.response, label="Next")
    assert turned.acknowledged and not turned.ephemeral
    page2 = res.response.embeds[0]
    assert page2.footer.text == "Page 2 of 2 · 12 players"
    assert board_lines(page2, twelve) == [(i + 11, m, b) for i, (m, b) in enumerate(board[10:])]
    buttons = {c["label"]: c for c in controls(env, res.response)}
    assert buttons["Next"].get("disabled") and not buttons["Previous"].get("disabled")
    await owner.click(res.response, label="Previous")
    assert res.response.embeds[0].footer.text.startswith("Page 1 of 2")
    # a page that no longer exists (the ledger shrank): said so, message kept
    gone = forge(env, owner, res.response, f"commerce:board:{guild.id}:{owner.id}:4:next")
    await env.settle()
    assert gone.ephemeral and "Page 5 of the leaderboard is empty now" in answer_text(gone)
    assert res.response.embeds[0].footer.text.startswith("Page 1 of 2")


# -------------------------------------------------- the reset question
async def ledger_with_balances(env):
    guild = env.create_guild()
    general = guild.create_text_channel("general")
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    mod = guild.add_member(env.create_user("mod"), roles=[mods])
    other_mod = guild.add_member(env.create_user("mod2"), roles=[mods])
    players = [guild.add_member(env.create_user(n)) for n in ("ann", "ben", "cat")]
    channel, lobby = await table_of(env, guild, players[0], players[1:], general)
    await players[0].click(lobby, label="Start")
    table = Table(env, [env.bot], channel, {a.id: a for a in players})
    await table.knock(table.actor_to_act())
    board, _ = await env.bot.storage.leaderboard(guild.id, 0, 100)
    assert any(balance for _, balance in board)
    return guild, general, mod, other_mod


def buttons_of(env, message) -> list[str]:
    return [c.get("label") for c in controls(env, message)]


async def test_an_expired_reset_question_says_so_removes_its_buttons_and_changes_nothing(
        simcord_env):
    env = simcord_env
    guild, general, mod, _ = await ledger_with_balances(env)
    before = await env.bot.storage.leaderboard(guild.id, 0, 100)
    res = await mod.slash(general, "commerce-admin reset-ledger")
    assert res.ephemeral and buttons_of(env, res.response) == ["Confirm", "Cancel"]
    await env.advance_time(61)
    late = await mod.click(res.response, label="Confirm")
    assert late.acknowledged
    assert res.response.content == "This confirmation expired: run the command again."
    assert buttons_of(env, res.response) == []
    assert await env.bot.storage.leaderboard(guild.id, 0, 100) == before


async def test_the_reset_question_survives_a_restart_and_is_only_for_its_owner(
        simcord_env, make_bot):
    env = simcord_env
    guild, general, mod, other_mod = await ledger_with_balances(env)
    before = await env.bot.storage.leaderboard(guild.id, 0, 100)
    res = await mod.slash(general, "commerce-admin reset-ledger")
    confirm = next(c["custom_id"] for c in controls(env, res.response) if c["label"] == "Confirm")
    await restart(env, make_bot())
    stolen = forge(env, other_mod, guild.channels["commerce-1"].history()[0], confirm)
    await env.settle()
    assert stolen.ephemeral and answer_text(stolen) == "This question is not for you."
    assert await env.bot.storage.leaderboard(guild.id, 0, 100) == before
    await env.advance_time(30)  # still within the minute
    done = await mod.click(res.response, label="Confirm")
    assert done.acknowledged
    nonzero = sum(1 for _, balance in before[0] if balance)
    assert res.response.content == f"Done: {nonzero} balance{'s' if nonzero != 1 else ''} " \
        "reset to zero."
    assert buttons_of(env, res.response) == []
    board, _ = await env.bot.storage.leaderboard(guild.id, 0, 100)
    assert board and all(balance == 0 for _, balance in board)


async def test_cancel_removes_the_question_and_changes_nothing(simcord_env):
    env = simcord_env
    guild, general, mod, _ = await ledger_with_balances(env)
    before = await env.bot.storage.leaderboard(guild.id, 0, 100)
    res = await mod.slash(general, "commerce-admin reset-ledger")
    await mod.click(res.response, label="Cancel")
    assert res.response.content == "Cancelled: nothing changed."
    assert buttons_of(env, res.response) == []
    assert await env.bot.storage.leaderboard(guild.id, 0, 100) == before


# ---------------------------------------------------------- forgeries
def snapshot(live):
    deal = live.deal
    return (live.row.status, [(s.member_id, s.name) for s in live.seats], live.deal_number,
            None if deal is None else (len(deal.operations), deal.finished))


@pytest.mark.parametrize("origin", ["another guild", "another channel of the guild"])
async def test_forged_controls_of_a_table_elsewhere_are_refused_and_change_nothing(
        simcord_env, origin):
    env = simcord_env
    home = env.create_guild(name="home")
    general = home.create_text_channel("general")
    users = {n: env.create_user(n) for n in ("ann", "ben", "cat", "eve", "dan")}
    mods = home.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    mod = home.add_member(env.create_user("mod"), roles=[mods])
    here = {n: home.add_member(u) for n, u in users.items()}
    await mod.slash(general, "commerce-admin settings", next_deal_delay=0, turn_timer=0)
    channel, lobby = await table_of(env, home, here["ann"], (here["ben"], here["cat"]), general)
    live = env.bot.service.in_channel(channel.id)
    if origin == "another guild":  # the same people in a server of their own
        away = env.create_guild(name="away")
        away_general = away.create_text_channel("general")
        there = {n: away.add_member(u) for n, u in users.items()}
        _, carrier = await table_of(env, away, there["dan"], (), away_general)
    else:  # another table's lobby in the same guild
        there = here
        _, carrier = await table_of(env, home, here["dan"], (), general)
    tid = live.id

    def current():
        return env.bot.service.get(tid)

    async def refused(member: str, custom_id: str, values: list[str] | None = None) -> None:
        before = snapshot(current())
        res = forge(env, there[member], carrier, custom_id, values)
        await env.settle()
        assert res.ephemeral and answer_text(res) == NOT_HERE, (custom_id, answer_text(res))
        assert snapshot(current()) == before, custom_id

    # lobby: a forged Join must not seat eve, nor Leave / Add AI / Start act
    await refused("eve", f"commerce:lobby:{tid}:join")
    await refused("ben", f"commerce:lobby:{tid}:leave")
    await refused("ann", f"commerce:lobby:{tid}:ai")
    await refused("ann", f"commerce:lobby:{tid}:start")
    live = current()
    assert live.seat_of(users["eve"].id) is None and live.row.status == "lobby"
    await here["ann"].click(lobby, label="Start")
    table = Table(env, [env.bot], channel, {a.id: a for a in here.values()})
    # play: My hand, the moves, a trade's card select
    live = current()
    deal = live.deal_number
    seat = live.deal.to_act
    name = next(n for n, u in users.items() if u.id == live.member_of(seat))
    seq = len(live.deal.operations)
    for action in ("hand", "trade", "barter", "knock"):
        await refused(name, f"commerce:play:{tid}:{deal}:{action}")
    card = card_code(live.deal.hands[seat][0])
    await refused(name, f"commerce:card:{tid}:{deal}:{seq}:trade", [card])
    # an offer waiting: the answer buttons and the accept select
    await table.barter(table.actor_to_act())
    live = current()
    target = live.deal.to_act
    target_name = next(n for n, u in users.items() if u.id == live.member_of(target))
    seq = len(live.deal.operations)
    for action in ("accept", "refuse"):
        await refused(target_name, f"commerce:answer:{tid}:{deal}:{seq}:{action}")
    card = card_code(live.deal.hands[target][0])
    await refused(target_name, f"commerce:card:{tid}:{deal}:{seq}:accept", [card])
    # a showdown: Next deal
    await table.refuse(table.actor_to_act())
    live = current()
    assert live.deal.finished
    await refused("ann", f"commerce:next:{tid}:{deal}")
    await refused("eve", f"commerce:proof:{tid}:{deal}")  # an open table's proof, elsewhere
    assert current().deal_number == deal
    assert env.errors == []


async def test_forged_pager_and_reset_question_of_another_guild_are_refused(simcord_env):
    env = simcord_env
    guild, general, twelve = await twelve_on_the_ledger(env)
    mod_user = env.create_user("mod")
    away = env.create_guild(name="away")
    away_general = away.create_text_channel("general")
    mods = away.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    mod_away = away.add_member(mod_user, roles=[mods])
    owner_away = away.add_member(env.create_user("zed"))
    res = await owner_away.slash(away_general, "commerce new")
    carrier = away.channels["commerce-1"].history()[0]
    before = await env.bot.storage.leaderboard(guild.id, 0, 100)
    # the ids name the home guild and the member who clicks: only the guild is wrong
    page = forge(env, owner_away, carrier, f"commerce:board:{guild.id}:{owner_away.id}:1:next")
    await env.settle()
    assert page.ephemeral and answer_text(page) == NOT_HERE
    expires = int(env.now().timestamp()) + 60
    reset = forge(env, mod_away, carrier, f"commerce:reset:{guild.id}:{mod_away.id}:{expires}:confirm")
    await env.settle()
    assert reset.ephemeral and answer_text(reset) == NOT_HERE
    assert await env.bot.storage.leaderboard(guild.id, 0, 100) == before
    assert res.ephemeral


#: a number no database column holds (past 2**63 - 1)
HUGE = "9" * 40


async def test_forged_ids_that_match_no_control_or_name_huge_numbers_are_refused(
        simcord_env, bots, caplog):
    """A ``commerce:`` id that matches no control's template (an action no control has,
    a part missing, a value too long: a control of an older version, or a forged or
    cut id) was answered by nothing, so Discord showed "This interaction failed"; an id
    carrying a number past 2**63 - 1 reached the database driver and was answered
    "Something went wrong on our side" with an error logged. Each is now refused with
    the one short ephemeral answer, changes nothing and logs no error."""
    env = simcord_env
    guild, table, ann, _ = await solo(env, bots)
    live = await until_ann_acts(env, table)
    tid, deal, seq, gid = live.id, live.deal_number, len(live.deal.operations), guild.id
    carrier = next(m for m in table.channel.history() if m.id == live.row.table_message_id)
    unmatched = [f"commerce:play:{tid}:{deal}:bogus", f"commerce:play:{tid}:{deal}",
                 f"commerce:pick:{tid}:{deal}:{seq}:knock:" + "A" * 61, "commerce:",
                 f"commerce:lobby:{tid}:join:extra", f"commerce:board:{gid}:{ann.id}:{HUGE}:x"]
    huge = [f"commerce:play:{HUGE}:{deal}:hand", f"commerce:play:{tid}:{HUGE}:hand",
            f"commerce:pick:{tid}:{deal}:{HUGE}:knock", f"commerce:answer:{tid}:{deal}:{HUGE}:accept",
            f"commerce:next:{tid}:{HUGE}", f"commerce:proof:{HUGE}:1", f"commerce:proof:{tid}:{HUGE}",
            f"commerce:cut:{HUGE}", f"commerce:lobby:{HUGE}:join",
            f"commerce:review:{gid}:{HUGE}:0:open", f"commerce:hist:{gid}:deal:0:{HUGE}:1:0:x",
            f"commerce:hist:{gid}:game:{HUGE}:{tid}:1:0:x"]
    before = snapshot(table.live)
    caplog.set_level("ERROR")
    for custom_id in unmatched:
        res = forge(env, ann, carrier, custom_id)
        await env.settle()
        assert res.acknowledged and res.ephemeral, custom_id
        assert answer_text(res) == NOT_HERE, (custom_id, answer_text(res))
    for custom_id in huge:  # refused as such, or by the control's own check before it
        res = forge(env, ann, carrier, custom_id)
        await env.settle()
        assert res.acknowledged and res.ephemeral, custom_id
        assert "went wrong" not in answer_text(res), (custom_id, answer_text(res))
    # a history menu's chosen value past 2**63 - 1 names no game
    res = forge(env, ann, carrier, f"commerce:histsel:{gid}:0:0", [HUGE])
    await env.settle()
    assert res.ephemeral and "went wrong" not in answer_text(res), answer_text(res)
    assert snapshot(table.live) == before
    assert [r.getMessage() for r in caplog.records if r.levelname == "ERROR"] == []
    assert env.errors == []
