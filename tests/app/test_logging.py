"""Logs never carry hidden cards, at any documented ``LOG_LEVEL``.

Each level gets the bot's real logging set-up (``bot.__main__._setup_logging``), a
real game through SimCord, and an audit of every log record any logger emits: none
may name a card that is hidden at the moment it is logged (a hand, the stock, the
waste), neither as a label (K♥) nor as a code inside payload-looking text ("Kh").

SimCord replaces discord.py's transport — the websocket's ``received_message`` and
``HTTPClient.request`` — and with it the two places where discord.py logs payloads
at DEBUG (every gateway event, INTERACTION_CREATE included, and every HTTP request
and response body). The audit puts those log statements back, word for word, on
discord.py's own loggers, so it sees what a real process would log.
"""

from __future__ import annotations

import logging
import random
import re
import threading

import discord.gateway
import discord.http
import pytest
import simcord
from simcord.gateway import FakeGateway
from simcord.http.client import FakeHTTPClient

from bot import create_bot
from bot.__main__ import _setup_logging
from bot.engine import card_code, card_label
from bot.ui.cards import outline_suits
from tests.cogs.helpers import CARD_LABEL, Table, restart

LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")
CODE = r"[2-9TJQKA][cdhs]"
#: between two quote characters: a select value ("Kh", "Kh!", "Kh@2", "KhQd-As") or a deck
QUOTED = re.compile(r"""(?<=['"])([^'"\n]{2,400})(?=['"])""")
CODE_TEXT = re.compile(rf"(?:{CODE})+(?:[!?]|@\d+|-(?:{CODE})+)?|{CODE}(?:[\s,]+{CODE})+")
CARDS_BY_NAME = {**{card_label(c): c for c in range(52)},
                 **{outline_suits(card_label(c)): c for c in range(52)},
                 **{card_code(c): c for c in range(52)}}


def cards_named(text: str) -> set[int]:
    """Cards a log line names: labels anywhere, codes only as quoted payload values."""
    named = {CARDS_BY_NAME[m.group(0)] for m in CARD_LABEL.finditer(text)}
    for quoted in QUOTED.findall(text):
        if CODE_TEXT.fullmatch(quoted.strip()):
            named |= {CARDS_BY_NAME[c] for c in re.findall(CODE, quoted)}
    return named


def hidden_now(bot) -> set[int]:
    """Cards nobody may see right now: every open deal's hands (until its showdown),
    stock and waste, less the waste cards shown face up."""
    hidden: set[int] = set()
    service = getattr(bot, "service", None)  # None until the bot's setup_hook
    for live in list(service.tables.values()) if service is not None else []:
        deal = live.deal
        if deal is None:
            continue
        cards = set(deal.stock) | set(deal.waste)
        if not deal.finished:
            cards |= {c for hand in list(deal.hands) for c in hand}
        hidden |= cards - set(deal.observation(None).shown_waste)
    return hidden


class Audit(logging.Handler):
    """Every record of every logger, checked against the cards hidden when it is made."""

    def __init__(self) -> None:
        super().__init__(logging.NOTSET)
        self.bots: list = []
        self.records = 0
        self.leaks: list[str] = []
        self.hidden: set[int] = set()
        self.guard = threading.Lock()

    def emit(self, record: logging.LogRecord) -> None:
        text = record.getMessage()
        if record.exc_info:
            text += logging.Formatter().formatException(record.exc_info)
        hidden = self.hidden  # the last set seen, should every read below be torn
        for _ in range(5):  # aiosqlite logs from its own thread: retry a torn read
            try:
                hidden = self.hidden = hidden_now(self.bots[-1]) if self.bots else set()
                break
            except RuntimeError:
                continue
        leaked = cards_named(text) & hidden
        with self.guard:
            self.records += 1
            if leaked:
                shown = " ".join(card_label(c) for c in sorted(leaked))
                self.leaks.append(f"{record.name} {record.levelname} [{shown}]: {text[:300]}")


@pytest.fixture
def restore_logging():
    """Put the logging configuration back as it was (levels of every logger, root handlers)."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    levels = {name: lg.level for name, lg in logging.Logger.manager.loggerDict.items()
              if isinstance(lg, logging.Logger)}
    yield
    for handler in root.handlers:
        if handler not in handlers:
            handler.close()
    root.handlers[:] = handlers
    root.setLevel(level)
    for name, lg in list(logging.Logger.manager.loggerDict.items()):
        if isinstance(lg, logging.Logger):
            lg.setLevel(levels.get(name, logging.NOTSET))


@pytest.fixture
def transport_logging(monkeypatch):
    """discord.py's payload log lines where SimCord skips its transport."""
    feed = FakeGateway.feed

    def logged_feed(self, event, payload):
        discord.gateway._log.debug("For Shard ID %s: WebSocket Event: %s", None,
                                   {"t": event, "op": 0, "d": dict(payload)})
        return feed(self, event, payload)

    request = FakeHTTPClient.request

    async def logged_request(self, route, **kwargs):
        body = kwargs.get("json")
        data = await request(self, route, **kwargs)
        sent = discord.utils._to_json(body) if body is not None else None
        discord.http._log.debug("%s %s with %s has returned %s", route.method, route.url, sent, 200)
        discord.http._log.debug("%s %s has received %s", route.method, route.url, data)
        return data

    monkeypatch.setattr(FakeGateway, "feed", logged_feed)
    monkeypatch.setattr(FakeHTTPClient, "request", logged_request)


async def play_a_game(env, bots, make_bot) -> Table:
    """Two deals of foster with every kind of move, a look at the hand and a restart."""
    guild = env.create_guild()
    general = guild.create_text_channel("general")
    actors = [guild.add_member(env.create_user(n)) for n in ("ann", "ben", "cat")]
    await actors[0].slash(general, "commerce new", deals_per_player=1)
    channel = guild.channels["commerce-1"]
    lobby = channel.history()[0]
    for actor in actors[1:]:
        await actor.click(lobby, label="Join")
    await actors[0].click(lobby, label="Start")
    table = Table(env, bots, channel, {a.id: a for a in actors})
    for _ in range(2):
        await table.actor_to_act().click(table.table_message(), label="My hand")
        await table.trade(table.actor_to_act())
        await table.barter(table.actor_to_act())
        await table.accept(table.actor_to_act())
        await actors[1].slash(channel, "commerce hand")
        await table.knock(table.actor_to_act())
        assert table.live.deal.finished
        await env.advance_time(31)  # the next deal starts by itself
    await restart(env, make_bot())
    await table.trade(table.actor_to_act())
    return table


@pytest.mark.parametrize("level", LEVELS)
async def test_no_log_record_names_a_hidden_card(tmp_path, monkeypatch, restore_logging,
                                                 transport_logging, level):
    monkeypatch.setenv("LOG_LEVEL", level)
    _setup_logging()
    audit = Audit()
    logging.getLogger().addHandler(audit)
    bots: list = []

    def make_bot():
        bot = create_bot(db_path=tmp_path / "commerce.db", rng=random.Random(3), cooldown=None,
                         ai_pace=0)
        bots.append(bot)
        audit.bots.append(bot)
        return bot

    first = make_bot()
    try:
        async with simcord.run(first) as env:
            table = await play_a_game(env, bots, make_bot)
            assert len(table.live.deal.operations) >= 1
            assert env.errors == []
    finally:
        for b in bots:
            await b.close_storage()
    assert audit.leaks == [], "\n".join(audit.leaks[:5])
    # the levels themselves: ours follow LOG_LEVEL, discord.py's never go below INFO
    number = logging.getLevelName(level)
    for name in ("bot", "bot.service", "cogs.play", "cogs.admin"):
        logger = logging.getLogger(name)
        assert logger.isEnabledFor(number) and not logger.isEnabledFor(number - 1), name
    for name in ("discord", "discord.gateway", "discord.http", "discord.state",
                 "discord.client", "discord.webhook.async_", "discord.ui.view", "aiosqlite"):
        assert not logging.getLogger(name).isEnabledFor(logging.DEBUG), name
        assert logging.getLogger(name).getEffectiveLevel() >= max(logging.INFO, number), name


def test_the_audit_sees_codes_in_payloads_but_not_in_words():
    assert cards_named("""{'values': ['Kh']}""") == {CARDS_BY_NAME["Kh"]}
    assert cards_named('{"kind": "trade", "card": "Td!"}') == {CARDS_BY_NAME["Td"]}
    assert cards_named("(1, 2, 'Kh 2c 9d', '2026')") == {CARDS_BY_NAME[c] for c in ("Kh", "2c", "9d")}
    assert cards_named("Your hand: K♥ 10♦") == {CARDS_BY_NAME["K♥"], CARDS_BY_NAME["10♦"]}
    assert cards_named("As the table closed, 'Ace' and \"The rest\" (Kh)") == set()


def test_an_unknown_log_level_falls_back_to_info_in_one_line(monkeypatch, restore_logging,
                                                            capsys):
    monkeypatch.setenv("LOG_LEVEL", "verbose")
    _setup_logging()
    err = capsys.readouterr().err
    assert err.strip() == "LOG_LEVEL=VERBOSE is not DEBUG, INFO, WARNING or ERROR: using INFO."
    assert logging.getLogger("bot").getEffectiveLevel() == logging.INFO
    assert not logging.getLogger("discord.gateway").isEnabledFor(logging.DEBUG)
