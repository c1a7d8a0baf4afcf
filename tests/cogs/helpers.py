"""Drive a Commerce table through SimCord like players would."""

from __future__ import annotations

import json
import os
import re
import weakref
from copy import deepcopy
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from simcord.backend.serializers import message_payload
from simcord.results import to_discord_message

from bot.runtime.sending import RETRY_DELAYS
from bot.storage import is_postgres_url
from tests.storage.backends import Backend

#: the settle timeout (real seconds) of tests whose Discord refuses requests: below the
#: bot's first retry wait (1 s, ``bot.runtime.sending.RETRY_DELAYS``), so a click's settle
#: leaves the retries to virtual time, with room for a click's real work on a loaded machine
RETRY_SETTLE = 0.9
assert RETRY_SETTLE < RETRY_DELAYS[0]

#: a card named in text: the outline suits members read (bot/ui/cards.py) or the engine's own
CARD_LABEL = re.compile(r"(?<![\w])(10|[2-9JQKA])[♣♦♥♠♧♢♡♤]")

#: a leaderboard's line: its rank, the member by name, the balance
BOARD_LINE = re.compile(r"(\d+)\. (.+): ([+−±]\d+)")


def board_lines(embed, people, unnamed=()) -> list[tuple[int, int, int]]:
    """(rank, member id, balance) of each line of a leaderboard ``embed``, whose
    members are among ``people`` (SimCord members: named as they sat) and
    ``unnamed`` (ids of members who sat at no table: ``Member <last 4 digits>``).
    A name the board could give two of them fails the test."""
    ids: dict[str, int] = {}
    for label, member in [*((p.name, p.id) for p in people),
                          *((f"Member {str(m)[-4:]}", m) for m in unnamed)]:
        assert ids.setdefault(label, member) == member, label
    out = []
    for line in embed.description.splitlines():
        found = BOARD_LINE.fullmatch(line)
        assert found and found[2] in ids, line
        out.append((int(found[1]), ids[found[2]],
                    int(found[3].replace("−", "-").replace("±", ""))))
    return out


#: per SimCord environment: the bot the messages were built for, and each message id's
#: payload and ``discord.Message`` (``history``)
_BUILT: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def history(env, channel) -> list:
    """``channel.history()``: every message of ``channel`` any of its members sees, oldest
    first, as ``discord.Message`` objects; a message is built again only once its payload
    changed (or the bot was restarted). The game drivers read the channel after every
    step; rebuilding each of its messages each time (a deep copy and a
    ``discord.Message`` apiece) was most of a long game's time."""
    bot, built = _BUILT.get(env, (None, {}))
    if bot is not env.bot:
        bot, built = env.bot, {}
        _BUILT[env] = (bot, built)
    out = []
    stored = env.backend.messages.get(channel.id, {})
    for message in sorted(stored.values(), key=lambda m: m.id):
        if not message.visible_to(None):
            continue
        payload = message_payload(env.backend, message)
        known = built.get(message.id)
        if known is None or known[0] != payload:
            known = built[message.id] = (deepcopy(payload), to_discord_message(env, message))
        out.append(known[1])
    return out


#: the backend the SimCord suite runs on: ``postgres`` with ``COMMERCE_TEST_BACKEND=postgres``
#: (tests/cogs/conftest.py), else ``sqlite``; for ``pytest.mark.skipif(BACKEND == …)``
BACKEND = ("postgres" if os.environ.get("COMMERCE_TEST_BACKEND", "sqlite").strip().lower()
           == "postgres" else "sqlite")


def database(bot_or_address: Any) -> Backend:
    """The database of a bot (``bot.database``) or at an address (the ``db_path``
    fixture: an SQLite file or a ``DATABASE_URL``), looked at behind the bot's back:
    each call of the returned ``Backend`` (tests/storage/backends.py) runs on a
    connection of its own, ``?`` placeholders on either backend. It works while the
    bot is down too (its storage closed)."""
    address = getattr(bot_or_address, "database", bot_or_address)
    if is_postgres_url(address):
        return Backend("postgres", str(address))
    return Backend("sqlite", Path(address))


async def rows(bot_or_address: Any, sql: str, params: tuple = ()) -> list[tuple]:
    """The rows of ``sql`` (``?`` placeholders) in the committed database of a bot
    or at an address (``database``), as tuples."""
    return await database(bot_or_address).rows(sql, params)


async def execute(bot_or_address: Any, sql: str, params: tuple = ()) -> None:
    """Run ``sql`` (``?`` placeholders) on the database of a bot or at an address
    (``database``), committed at once: another writer than the bot."""
    await database(bot_or_address).execute(sql, params)


def message_text(message) -> str:
    """Content plus every embed's visible text."""
    parts = [message.content or ""]
    for e in message.embeds:
        parts += [e.title or "", e.description or "", e.footer.text or ""]
        parts += [f"{f.name} {f.value}" for f in e.fields]
    return "\n".join(parts)


def has_select(result) -> bool:
    """Whether an interaction's response holds a select (a panel's menu)."""
    return result.response is not None and any(
        comp.get("type") == 3 for row in result.response.components
        for comp in row.get("components", []))


def button_ids(result) -> list[str]:
    """Custom ids of the buttons in an interaction's response (a panel's buttons)."""
    return [comp["custom_id"] for row in result.response.components
            for comp in row.get("components", []) if comp.get("type") == 2]


def first_select(result) -> str:
    """The custom id of the first select in an interaction's response: the menu of
    the move asked for, on top of a panel that may hold other menus."""
    for row in result.response.components:
        for comp in row.get("components", []):
            if comp.get("type") == 3:
                return comp["custom_id"]
    raise AssertionError("no select in the response")


def select_values(result) -> list[str]:
    """Option values of the first select in an interaction's response."""
    for row in result.response.components:
        for comp in row.get("components", []):
            if comp.get("type") == 3:
                return [o["value"] for o in comp["options"]]
    raise AssertionError("no select in the response")


def custom_ids(message) -> list[str]:
    return [c.custom_id for row in message.components for c in row.children]


async def restart(env, new_bot, old_bot=None) -> None:
    """Restart the bot as a crashed process would: the old one (``env.bot`` by
    default) loses its timers and its database lock, then ``new_bot`` starts.

    One process per database file: the old bot holds ``commerce.db.lock`` until
    its storage closes, and ``env.restart_bot`` only detaches it, so the new
    bot's ``Storage.open`` would be refused. A dead process has no timers and
    its lock is released by the kernel: settle what is in flight, unload the
    old bot's cogs (``cog_unload`` cancels the next-deal and turn timers, so
    nothing of the old bot ever reaches the closed storage), close its storage,
    then attach the new bot. Always pass a fresh bot object.
    """
    old_bot = env.bot if old_bot is None else old_bot
    assert new_bot is not old_bot, "restart needs a fresh bot object"
    await env.settle()
    for name in list(old_bot.extensions):
        await old_bot.unload_extension(name)
    await old_bot.close_storage()
    await env.restart_bot(new_bot)


@dataclass
class Table:
    env: object
    bot_ref: list
    channel: object
    members: dict[int, object]  # member id -> actor
    log: list[str] = field(default_factory=list)

    @property
    def bot(self):
        return self.bot_ref[-1]

    last: object = None

    @property
    def live(self):
        """The open table in the channel (or the last one seen, once it closed)."""
        live = self.bot.service.in_channel(self.channel.id)
        if live is not None:
            self.last = live
        return live or self.last

    def message(self, message_id: int):
        for m in history(self.env, self.channel):
            if m.id == message_id:
                return m
        raise AssertionError(f"message {message_id} not found")

    def table_message(self):
        return self.message(self.live.row.table_message_id)

    def actor_to_act(self):
        live = self.live
        seat = live.deal.to_act
        return self.members[live.member_of(seat)]

    async def trade(self, actor, card: str | None = None):
        res = await actor.click(self.table_message(), label="Trade")
        assert res.ephemeral, res.response.content
        values = select_values(res)
        code = card or values[0]
        sel = await actor.select(res.response, [code], custom_id=first_select(res))
        self.log.append(f"trade {code}")
        return sel

    async def barter(self, actor, card: str | None = None):
        res = await actor.click(self.table_message(), label="Barter")
        assert res.ephemeral
        code = card or select_values(res)[0]
        sel = await actor.select(res.response, [code], custom_id=first_select(res))
        self.log.append(f"barter {code}")
        return sel

    def offer_message(self, target):
        for m in reversed(history(self.env, self.channel)):
            if m.content.startswith(target.mention) and "offers you a card" in m.content:
                return m
        raise AssertionError("no barter offer message")

    async def accept(self, target, card: str | None = None):
        offer = self.offer_message(target)
        res = await target.click(offer, label="Accept")
        assert res.ephemeral
        code = card or select_values(res)[0]
        return await target.select(res.response, [code], custom_id=first_select(res))

    async def refuse(self, target):
        return await target.click(self.offer_message(target), label="Refuse (knock)")

    async def knock(self, actor):
        return await actor.click(self.table_message(), label="Knock")


async def open_table(env, bot_ref, names=("ann", "ben", "cat")):
    """A guild, a lobby channel, members; the first opens a table, the rest join,
    the first starts. Returns (guild, Table, actors)."""
    guild = env.create_guild()
    general = guild.create_text_channel("general")
    actors = [guild.add_member(env.create_user(n)) for n in names]
    res = await actors[0].slash(general, "commerce new")
    assert res.ephemeral
    channel = guild.channels["commerce-1"]
    lobby = channel.history()[0]
    for a in actors[1:]:
        await a.click(lobby, label="Join")
    table = Table(env, bot_ref, channel, {a.id: a for a in actors})
    return guild, table, actors, lobby


def emit_component(env, actor, message, custom_id: str, values: list[str] | None = None,
                   *, shown: bool = False):
    """Emit a component INTERACTION_CREATE without settling, so several can race
    (a true race needs both events emitted before the environment settles).
    ``shown``: the message as the member's client still shows it carries the
    component (a menu that has since been edited away: a stale client)."""
    from simcord import InteractionResult
    from simcord import interactions as _interactions
    from simcord.backend import serializers

    backend = env.backend
    stored = backend.get_message(message.channel.id, message.id)
    data = {"custom_id": custom_id, "component_type": 3 if values is not None else 2}
    if values is not None:
        data["values"] = values
    record, payload = _interactions.base_payload(
        backend, type=3, channel_id=message.channel.id, guild_id=actor.guild.id,
        user_id=actor.id, data=data)
    payload["message"] = dict(serializers.message_payload(backend, stored))
    if shown:
        component = ({"type": 2, "style": 2, "label": "Old", "custom_id": custom_id}
                     if values is None else
                     {"type": 3, "custom_id": custom_id, "min_values": 1, "max_values": 1,
                      "options": [{"label": v, "value": v} for v in values]})
        payload["message"]["components"] = [{"type": 1, "components": [component]}]
    record.source_message_id = stored.id
    env._notify_dispatch_observers(record)
    backend.emit("INTERACTION_CREATE", payload)
    return InteractionResult(env, record)


def emit_slash(env, actor, channel, name: str, **options):
    """Emit a slash command's INTERACTION_CREATE without settling (for races)."""
    from simcord import InteractionResult
    from simcord import actors as _actors
    from simcord import interactions as _interactions
    from simcord.enums import AppCommandType

    parts = name.split()
    root = _actors._resolve_visible_command(actor, channel.id, parts[0],
                                           AppCommandType.CHAT_INPUT)
    leaf, nesting = _interactions.walk_to_subcommand(root, parts[1:])
    leaf_options, resolved = _interactions.build_options(actor, name, leaf, options,
                                                         channel_id=channel.id)
    data = {"id": root["id"], "name": root["name"], "type": AppCommandType.CHAT_INPUT,
            "options": _interactions.nest_options(root, nesting, leaf_options)}
    if resolved:
        data["resolved"] = resolved
    record, payload = _interactions.base_payload(
        env.backend, type=2, channel_id=channel.id, guild_id=actor.guild.id,
        user_id=actor.id, data=data)
    env._notify_dispatch_observers(record)
    env.backend.emit("INTERACTION_CREATE", payload)
    return InteractionResult(env, record)


def private(result) -> bool:
    """The member's answer was ephemeral: the response (a new message, or the
    private panel edited in place), or the follow-up that came after the bot
    deferred the interaction before a wait."""
    if result.followups:
        return result.followups[-1].ephemeral
    return result.ephemeral or (result.response is not None and result.response.ephemeral)


def answer_text(result) -> str:
    """The text a member got back from an interaction (response or last followup)."""
    if result.followups:
        return result.followups[-1].content
    return result.response.content if result.response else ""


def public_leaks(table, watcher) -> list[str]:
    """Public messages (as an unseated member sees them) naming a card outside a showdown."""
    leaks = []
    for m in table.channel.history(viewer=watcher):
        title = m.embeds[0].title if m.embeds else ""
        if title and (title.startswith("Showdown") or title.startswith("Game over")):
            continue
        if CARD_LABEL.search(message_text(m)):
            leaks.append(message_text(m))
    return leaks


def rest_leaks(env, table) -> list[str]:
    """Channel-message REST payloads naming a card outside a showdown."""
    leaks = []
    for entry in env.http_requests:
        if not entry.path.startswith(f"/channels/{table.channel.id}/messages"):
            continue
        payload = json.dumps(entry.json or {}, ensure_ascii=False)
        if "Showdown" in payload or "Game over" in payload:
            continue
        if CARD_LABEL.search(payload):
            leaks.append(payload)
    return leaks


async def solo(env, bots, rules="foster", start=True):
    """Member ann at a table with two AI seats (started unless ``start`` is False)."""
    guild = env.create_guild()
    general = guild.create_text_channel("general")
    ann = guild.add_member(env.create_user("ann"))
    await ann.slash(general, "commerce new", rules=rules)
    channel = guild.channels["commerce-1"]
    lobby = channel.history()[0]
    await ann.click(lobby, label="Add AI")
    await ann.click(lobby, label="Add AI")
    table = Table(env, bots, channel, {ann.id: ann})
    if start:
        await ann.click(lobby, label="Start")
    return guild, table, ann, lobby


async def until_ann_acts(env, table):
    """Next deals until ann is to act in an unfinished deal."""
    ann = next(iter(table.members))
    for _ in range(20):
        live = table.live
        deal = live.deal
        if (not deal.finished and deal.to_act == live.seat_of(ann) and deal.pending is None
                and deal.stock):
            return live
        if live.game.complete:
            break
        await env.advance_time(live.row.next_deal_delay + 1)
    raise AssertionError("ann never got a turn")
