"""The coach's review of a finished game: ``/commerce review`` (``open_review``,
called by ``cogs/history.py``) and the Review, Previous and Next buttons
(``ReviewHandlers.on_review``, part of the bot's ``Handlers``).

A review is private (ephemeral) and shows the member who asked their own
decisions only, whoever posted the button they pressed. Its first computation
takes seconds (the coach thinks in the worker process, ``bot.service.reviews``):
the interaction is acknowledged first ("thinking…") and the review follows.
"""

from __future__ import annotations

import contextlib

import discord

from ..runtime.sending import edit, say
from ..service import TableService
from ..ui import review as ui_review
from .guard import guarded


async def _thinking(interaction: discord.Interaction) -> None:
    """Acknowledge now with a private "thinking…": the answer is a follow-up."""
    if not interaction.response.is_done():
        with contextlib.suppress(discord.HTTPException):
            await interaction.response.defer(ephemeral=True, thinking=True)


async def open_review(interaction: discord.Interaction, service: TableService,
                      number: int | None = None, table_id: int | None = None) -> None:
    """Send the member who asked their review of the guild's game at table
    ``number`` (or ``table_id``; neither: their latest game that is over), first
    page, privately.

    Raises:
        UserError: no such game, still running, not theirs, or the coach failed.
    """
    assert interaction.guild_id is not None
    guild_id, member_id = interaction.guild_id, interaction.user.id
    past = await service.reviews.find(guild_id, member_id, number=number, table_id=table_id)
    if member_id in past.members:
        await _thinking(interaction)  # the first computation takes seconds
    review = await service.reviews.review(guild_id, member_id, past)
    view = ui_review.review_view(guild_id, review, 0)
    await say(interaction, embed=ui_review.review_embed(review, 0),
              view=view or discord.utils.MISSING, ephemeral=True)


class ReviewHandlers:
    """The handler of the review buttons (a part of ``bot.interactions.handlers.Handlers``).

    Attributes:
        service: the table service the reviews are read from.
    """

    service: TableService

    async def on_review(self, interaction: discord.Interaction, guild_id: int, table_id: int,
                        page: int, opens: bool) -> None:
        """Review under the final standings (``opens``): the presser's own review in
        a new private message; Previous / Next under a review: that page in place."""
        async def work() -> None:
            if opens:
                await open_review(interaction, self.service, table_id=table_id)
                return
            member_id = interaction.user.id
            past = await self.service.reviews.find(guild_id, member_id, table_id=table_id)
            review = await self.service.reviews.review(guild_id, member_id, past)
            await edit(interaction, embed=ui_review.review_embed(review, page),
                       view=ui_review.review_view(guild_id, review, page))
        await guarded(interaction, None, work)
