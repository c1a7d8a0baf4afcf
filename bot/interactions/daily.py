"""What ``/commerce daily`` and the daily game's buttons do (docs/DAILY.md):
the service's answer shown to the member, always ephemerally (the game is
private; no channel is made for it).

One ``DailyHandlers`` per bot (``CommerceBot.daily_handlers``): the daily buttons
(``bot.ui.daily.DailyButton``) reach it through ``interaction.client``, the
``Daily`` cog through the bot. Errors are answered by ``guarded``.
"""

from __future__ import annotations

import discord

from ..runtime.sending import edit, reply, say
from ..service import OutOfDate
from ..service.daily import AlreadyPlayed, DailyService, DailyState, parse_day, record_of
from ..ui import daily as ui
from .guard import guarded
from .handlers import decide


def member_name(interaction: discord.Interaction) -> str:
    """The name the member plays under (their name in the server, as tables seat them)."""
    user = interaction.user
    return getattr(user, "display_name", None) or user.name


class DailyHandlers:
    """The daily deal's command and buttons."""

    def __init__(self, service: DailyService) -> None:
        """Over the bot's ``DailyService``."""
        self.service = service

    def _shown(self, state: DailyState, interaction: discord.Interaction, *,
               note: str = "") -> tuple[discord.Embed, discord.ui.View | None]:
        assert interaction.guild_id is not None
        live = ui.daily_table(state, interaction.guild_id, interaction.user.id,
                              member_name(interaction))
        return (ui.game_embed(state, live, note=note),
                ui.game_view(state, live, interaction.guild_id))

    async def play(self, interaction: discord.Interaction) -> None:
        """``/commerce daily``: begin or resume the member's game of today's deal,
        ephemerally; a member who finished it is told their result (nothing
        else changes)."""
        async def work() -> None:
            assert interaction.guild_id is not None
            try:
                state = await self.service.play(interaction.guild_id, interaction.user.id,
                                                member_name(interaction))
            except AlreadyPlayed as done:
                await reply(interaction, done.text + "\n" + ui.board_hint())
                return
            note = ui.resumed_note() if state.resumed else ""
            embed, view = self._shown(state, interaction, note=note)
            await say(interaction, embed=embed, view=view or discord.utils.MISSING,
                      ephemeral=True)
        await guarded(interaction, None, work)

    async def on_daily(self, interaction: discord.Interaction, guild_id: int, day: int,
                       seq: int, action: str, value: str | None) -> None:
        """A decision of the member's daily game: made, the AI seats answer, the
        game shown again in place (a stale control: a short answer instead)."""
        async def work() -> None:
            try:
                state = await self.service.act(guild_id, interaction.user.id, day, seq,
                                               decide(action, value))
            except OutOfDate as exc:
                await reply(interaction, exc.text)
                return
            embed, view = self._shown(state, interaction)
            await edit(interaction, embed=embed, view=view)
        await guarded(interaction, None, work)

    async def board(self, interaction: discord.Interaction, day: str | None) -> None:
        """``/commerce daily show:board``: the board of ``day`` (default today)."""
        async def work() -> None:
            assert interaction.guild_id is not None
            board = await self.service.board(interaction.guild_id,
                                             parse_day(day) if day else None)
            await say(interaction, embed=ui.board_embed(board, self.service.today()),
                      ephemeral=True, allowed_mentions=discord.AllowedMentions.none())
        await guarded(interaction, None, work)

    async def proof(self, interaction: discord.Interaction, day: str | None) -> None:
        """``/commerce daily show:proof``: a day's commitment, and its seed once over."""
        async def work() -> None:
            proof = await self.service.proof(parse_day(day) if day else None)
            embed = ui.proof_embed(proof)
            record = None
            if interaction.guild_id is not None and proof.seed is not None:
                record = await record_of(self.service, interaction.guild_id,
                                         interaction.user.id, proof.day)
            if record is None:
                await say(interaction, embed=embed, ephemeral=True)
                return
            await say(interaction, ui.record_text(proof.day), embed=embed, ephemeral=True,
                      file=ui.record_file(proof.day, record))
        await guarded(interaction, None, work)
