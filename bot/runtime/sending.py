"""Sending to Discord: the mentions a message may ping (``NO_PINGS``, ``ping``),
``retrying`` a call on Discord's 429 and 5xx answers, and ``reply`` / ``say`` /
``edit``, which answer an interaction whether or not it was acknowledged already.
Used by whatever talks to Discord: the interactions' handlers and the publishing.
``retrying`` counts what it sees in the bot's metrics (``bot.runtime.metrics``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from .metrics import Metrics

log = logging.getLogger(__name__)

#: the bot's default (``CommerceBot``): a message pings nobody unless it says so
NO_PINGS = discord.AllowedMentions.none()


def ping(member_id: int | None) -> discord.AllowedMentions:
    """The mentions a message may ping: ``member_id`` alone (``None``: nobody),
    never @everyone, @here, a role or anyone else named in its text."""
    if member_id is None:
        return NO_PINGS
    return discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                   users=[discord.Object(member_id)])


#: seconds ``retrying`` waits before each new try
RETRY_DELAYS = (1.0, 2.0, 4.0)

async def retrying(call: Callable[[], Awaitable[Any]], metrics: Metrics | None = None) -> Any:
    """Run a Discord call, retrying on 429 and 5xx answers after each of
    ``RETRY_DELAYS`` (the state it shows is already committed, so waiting is
    safe); returns what the call returned. ``metrics``: the bot's, which counts
    each 429 caught and each retry.

    Raises:
        discord.HTTPException: any other answer, or a 429 / 5xx still there after
            the last retry.
    """
    for delay in (*RETRY_DELAYS, None):
        try:
            return await call()
        except discord.HTTPException as exc:
            retry = exc.status == 429 or exc.status >= 500
            if metrics is not None and exc.status == 429:
                metrics.rate_limited("retrying")
            if delay is None or not retry:
                raise
            if metrics is not None:
                metrics.retried(exc.status)
            log.info("Discord answered %s; retrying in %.0f s", exc.status, delay)
            await asyncio.sleep(delay)


async def reply(interaction: discord.Interaction, text: str, **kwargs: Any) -> None:
    """Answer ephemerally, whether or not the interaction was answered already
    (text beyond Discord's 2,000 characters is cut)."""
    await say(interaction, text, ephemeral=True, **kwargs)


async def say(interaction: discord.Interaction, text: str | None = None, *,
              ephemeral: bool = False, **kwargs: Any) -> None:
    """Answer with a message, as the first response or (once the interaction was
    acknowledged, e.g. deferred before a wait) as a follow-up."""
    if text is not None and len(text) > 1900:
        text = text[:1900] + "…"
    if interaction.response.is_done():
        await interaction.followup.send(text or discord.utils.MISSING, ephemeral=ephemeral,
                                        **kwargs)
    else:
        await interaction.response.send_message(text, ephemeral=ephemeral, **kwargs)


async def edit(interaction: discord.Interaction, **kwargs: Any) -> None:
    """Edit the message a component is on, as the first response or (once the
    interaction was deferred) through the original response."""
    if interaction.response.is_done():
        await interaction.edit_original_response(**kwargs)
    else:
        await interaction.response.edit_message(**kwargs)
