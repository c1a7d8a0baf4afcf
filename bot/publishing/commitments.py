"""The fair-shuffle message of a lobby (docs/FAIRNESS.md "In the bot"): the game's
commitment, posted once in the table's channel before anything is dealt, and never
edited. Start and Cut post it first when it is missing; the watch posts one that a
failure kept back.
"""

from __future__ import annotations

import logging
from typing import Protocol

import discord

from ..runtime.language import in_server_language
from ..runtime.sending import NO_PINGS, retrying
from ..service import LiveTable, TableService
from ..ui import proofs

log = logging.getLogger(__name__)


class Publishing(Protocol):
    """What ``Commitments`` asks of the publisher (``bot.publishing.publisher.Publisher``)."""

    service: TableService

    def channel(self, live: LiveTable) -> discord.PartialMessageable:
        """Where the table plays."""

    async def refresh_lobby(self, live: LiveTable, note: str | None = None, *,
                            strict: bool = False) -> None:
        """Edit the lobby message after a change."""


class Commitments:
    """Posts each lobby's fair-shuffle message (one per ``Publisher``).

    Attributes:
        refused: lobbies whose channel refused the message (a missing permission):
            the watch stops trying, a member's Start or Cut tries again.
    """

    def __init__(self, publisher: Publishing) -> None:
        """Nothing refused yet."""
        self.publisher = publisher
        self.refused: set[int] = set()

    def owed(self, live: LiveTable) -> bool:
        """Whether the watch is to post the lobby's fair-shuffle message: a failure
        kept it back (or the lobby is from before it had one), and its channel has
        not refused it."""
        return (live.row.status == "lobby" and live.row.commitment_message_id is None
                and live.id not in self.refused)

    async def post_owed(self, live: LiveTable) -> None:
        """``post`` for the watch: Discord's refusal is logged (the next round of the
        watch tries again, unless the channel refused it for good: ``refused``)."""
        try:
            await self.post(live)
        except discord.HTTPException:
            log.warning("table %s: the fair-shuffle message is still not posted", live.id)

    @in_server_language
    async def post(self, live: LiveTable) -> LiveTable:
        """Post the table's fair-shuffle message (``proofs.commitment_text``) once,
        and remember it (a lobby opened before one seed covered a whole game gets
        its seed first); the lobby then links to it. A table whose message is
        known, or that is no lobby, is left as it is.

        Raises:
            discord.HTTPException: Discord refused the message (nothing remembered).
            StorageFailure: it was posted, but could not be remembered (it is
                posted again next time; both show the same commitment).
        """
        service = self.publisher.service
        if live.row.commitment_message_id is not None or live.row.status != "lobby":
            return live
        live = await service.ensure_seed(live.id)
        if live.row.game_commitment is None:
            return live
        text = proofs.commitment_text(live)
        channel = self.publisher.channel(live)
        try:
            msg = await retrying(lambda: channel.send(text, allowed_mentions=NO_PINGS))
        except discord.Forbidden:
            self.refused.add(live.id)
            raise
        self.refused.discard(live.id)
        live = await service.commitment_posted(live.id, msg.id)
        await self.publisher.refresh_lobby(live)
        return live
