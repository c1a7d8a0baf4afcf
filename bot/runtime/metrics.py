"""What the bot counts and times as it works, in Prometheus's terms
(``prometheus_client``): interactions, commits, Discord's 429 answers and the
bot's own retries. docs/SCALING.md ("Operating it") says what each one means.

One ``Metrics`` per bot (``CommerceBot.metrics``), each with its own registry:
tests build many bots in one process, and the process-wide default registry
would mix them. The bot's state (open tables, the watch, shard claims) is read
when the metrics are served, not counted here (``bot.process.health``).

Labels take a few known values only: the kind of an interaction is its
command's name or its control's family, never a table, a member, a card or a
whole ``custom_id``; a hidden card can never reach a label.
"""

from __future__ import annotations

import collections
import re
import time
from types import SimpleNamespace
from typing import Any

import aiohttp
import discord
from prometheus_client import CollectorRegistry, Counter, Histogram
from prometheus_client.platform_collector import PlatformCollector
from prometheus_client.process_collector import ProcessCollector

#: seconds: the buckets of an interaction's time (Discord fails one left unanswered for 3 s)
INTERACTION_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
#: seconds: the buckets of a commit's time
COMMIT_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
#: what ends an interaction (``bot.interactions.guard.guarded``), the values of its ``outcome`` label
OUTCOMES = ("ok", "refused", "cooldown", "restarting", "expired", "discord_error", "failed")
#: the ``seen_by`` label of ``commerce_discord_429_total``: where a 429 answer was seen
SEEN_BY = ("http", "retrying", "interaction")

#: seconds over which ``Metrics.request_rate`` counts the bot's requests
RATE_WINDOW = 10.0
#: Discord's global limit on requests of one bot token, per second, shared by every
#: process (interaction responses and follow-ups do not count against it)
GLOBAL_LIMIT = 50

#: the family of one of the bot's own controls: ``commerce:<family>:…`` (bot/ui/components.py)
_FAMILY = re.compile(r"commerce:([a-z]{1,16}):")


def interaction_kind(interaction: discord.Interaction[Any]) -> str:
    """The ``kind`` label of an interaction: ``/`` and its command's full name
    (``/commerce new``) for a slash command, the family of a control of the bot
    (``lobby``, ``play``, ``pick``: the second part of its ``custom_id``), or
    ``view`` / ``modal`` for the items of short-lived views and for modals.
    Never a table, a member or a card."""
    if interaction.type is discord.InteractionType.application_command:
        command = interaction.command
        return f"/{command.qualified_name}" if command is not None else "/?"
    data = interaction.data
    custom_id = data.get("custom_id") if isinstance(data, dict) else None
    if isinstance(custom_id, str) and (match := _FAMILY.match(custom_id)):
        return match[1]
    return "modal" if interaction.type is discord.InteractionType.modal_submit else "view"


class Metrics:
    """The bot's counters and timings, in a registry of their own.

    Attributes:
        registry: every metric of this bot (``prometheus_client.CollectorRegistry``),
            with the process's own (``process_*``: CPU, memory, open files) and
            Python's version (``python_info``); ``bot.process.health`` serves it and adds
            the bot's state to it.
        interactions: ``commerce_interactions_total{kind, outcome}``.
        interaction_seconds: ``commerce_interaction_seconds{kind}``, seconds.
        commits: ``commerce_commits_total{outcome}`` (``committed``, ``failed``).
        commit_seconds: ``commerce_commit_seconds``, seconds.
        discord_429: ``commerce_discord_429_total{seen_by}`` (``SEEN_BY``).
        discord_retries: ``commerce_discord_retries_total{status}`` (``429``, ``5xx``).
        requests: ``commerce_discord_requests_total{route}``: the requests the bot's
            token makes (``CommerceBot`` counts them; every one counts against
            Discord's global limit), by route (``POST /channels/{channel_id}/messages``).
        http_trace: an ``aiohttp.TraceConfig`` for discord.py's ``http_trace``
            option: it counts every 429 answer on the wire (``seen_by="http"``).
    """

    def __init__(self) -> None:
        """Every metric at zero, each label value of a closed set already shown."""
        self.registry = CollectorRegistry()
        r = self.registry
        ProcessCollector(registry=r)
        PlatformCollector(registry=r)
        self.interactions = Counter(
            "commerce_interactions", "Interactions (slash commands, controls) the bot "
            "handled, by kind and by how they ended.", ["kind", "outcome"], registry=r)
        self.interaction_seconds = Histogram(
            "commerce_interaction_seconds", "Seconds from the start of an interaction's "
            "handling to its end: its answer, its commit and the public messages brought up "
            "to date (AI moves shown at the bot's pace included).", ["kind"],
            buckets=INTERACTION_BUCKETS, registry=r)
        self.commits = Counter(
            "commerce_commits", "Units of work (one transaction each) that reached "
            "the database: committed, or failed with nothing written.", ["outcome"], registry=r)
        self.commit_seconds = Histogram(
            "commerce_commit_seconds", "Seconds a unit of work took to commit once its "
            "work was done: the transaction's last round trip.", buckets=COMMIT_BUCKETS,
            registry=r)
        self.discord_429 = Counter(
            "commerce_discord_429", "Rate-limit answers (HTTP 429) from Discord, by where "
            "they were seen: http (on the wire, discord.py waits and tries again "
            "itself), retrying (an error the bot's retrying caught), interaction (an "
            "error that ended an interaction).", ["seen_by"], registry=r)
        self.discord_retries = Counter(
            "commerce_discord_retries", "Discord calls the bot tried again itself after "
            "a 429 or a 5xx answer (bot.runtime.sending.retrying).", ["status"], registry=r)
        for outcome in ("committed", "failed"):
            self.commits.labels(outcome)
        for seen in SEEN_BY:
            self.discord_429.labels(seen)
        for status in ("429", "5xx"):
            self.discord_retries.labels(status)
        self.requests = Counter(
            "commerce_discord_requests", "Requests made with the bot's token (they count "
            "against Discord's global limit of about 50 a second, shared by every process; "
            "answers to interactions do not), by route.", ["route"], registry=r)
        self.http_trace = aiohttp.TraceConfig()
        self.http_trace.on_request_end.append(self._answered)
        self._recent: collections.deque[float] = collections.deque(maxlen=4096)

    def request(self, route: str) -> None:
        """One request of the bot's token on ``route`` (a route template)."""
        self.requests.labels(route).inc()
        self._recent.append(time.monotonic())

    def request_rate(self) -> float:
        """Requests a second the bot's token made over the last ``RATE_WINDOW``
        seconds (this process's own)."""
        now = time.monotonic()
        recent = self._recent
        while recent and now - recent[0] > RATE_WINDOW:
            recent.popleft()
        return len(recent) / RATE_WINDOW

    async def _answered(self, session: aiohttp.ClientSession, context: SimpleNamespace,
                        params: aiohttp.TraceRequestEndParams) -> None:
        """Count a 429 answer to any request discord.py makes (the bot's own calls
        and the answers to interactions alike), from aiohttp's trace."""
        if params.response.status == 429:
            self.discord_429.labels("http").inc()

    def interaction(self, kind: str, outcome: str, seconds: float) -> None:
        """One interaction of ``kind`` ended with ``outcome`` (``OUTCOMES``) after
        ``seconds``."""
        self.interactions.labels(kind, outcome).inc()
        self.interaction_seconds.labels(kind).observe(seconds)

    def committed(self, seconds: float) -> None:
        """A unit of work committed; its commit took ``seconds``."""
        self.commits.labels("committed").inc()
        self.commit_seconds.observe(seconds)

    def commit_failed(self) -> None:
        """A unit of work failed on a storage error: nothing of it was written."""
        self.commits.labels("failed").inc()

    def rate_limited(self, seen_by: str) -> None:
        """Discord answered 429, seen by ``seen_by`` (``SEEN_BY``)."""
        self.discord_429.labels(seen_by).inc()

    def retried(self, status: int) -> None:
        """The bot tries a Discord call again after an answer of ``status`` (429 or 5xx)."""
        self.discord_retries.labels("429" if status == 429 else "5xx").inc()

