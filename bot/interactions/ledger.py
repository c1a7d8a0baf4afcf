"""The handlers of the ledger's and the admins' controls: Previous / Next under a
leaderboard, Confirm / Cancel under a manager's question (reset the ledger, start a
season). A part of ``bot.interactions.handlers.Handlers``, which hands them the press.
"""

from __future__ import annotations

import discord

from .. import i18n
from ..runtime.sending import edit
from ..service import TableService, UserError
from ..ui import standings
from ..ui.components import BoardFilter, pager_view
from .guard import guarded, require_manager

#: leaderboard lines per page
PER_PAGE = 10


class LedgerHandlers:
    """The leaderboard's pages and the managers' confirmations.

    Args:
        service: the table service the ledger is read from and reset through.
    """

    def __init__(self, service: TableService) -> None:
        """Handlers reading and changing the ledger through ``service``."""
        self.service = service

    async def on_page(self, interaction: discord.Interaction, guild_id: int, page: int,
                      board: BoardFilter | None = None) -> None:
        """Previous / Next pressed under a leaderboard: show page ``page`` (0-based)
        of ``board``'s preset and period (default: the whole ledger) as the ledger
        stands now."""
        board = board or BoardFilter()

        async def work() -> None:
            rows, total = await self.service.leaderboard(
                guild_id, page, per_page=PER_PAGE, preset=board.preset, period=board.period,
                season=board.season)
            if not rows:
                raise UserError(i18n._("Page {page} of the leaderboard is empty now: the ledger "
                                  "has changed. Run /commerce leaderboard again.").format(page=page + 1))
            pages = -(-total // PER_PAGE)
            known = await self.service.member_names(guild_id, [m for m, _ in rows])
            embed = standings.leaderboard_embed(rows, page, total, PER_PAGE, preset=board.preset,
                                                period=board.period, known=known,
                                                season=board.season)
            await edit(interaction, embed=embed,
                       view=pager_view(guild_id, interaction.user.id, page, pages, board),
                       allowed_mentions=discord.AllowedMentions.none())
        await guarded(interaction, None, work)

    async def _confirmed(self, interaction: discord.Interaction, expires: int,
                         confirmed: bool) -> discord.Member | None:
        """The manager who pressed Confirm under a question in time (their
        permission checked again: they may have lost it meanwhile); ``None`` once
        the press is answered: the question expired (``expires``, unix seconds) or
        was cancelled.

        Raises:
            UserError: the member no longer has Manage Server.
        """
        if discord.utils.utcnow().timestamp() > expires:
            await edit(interaction, content=i18n._("This confirmation expired: run the command again."),
                       view=None)
            return None
        if not confirmed:
            await edit(interaction, content=i18n._("Cancelled: nothing changed."), view=None)
            return None
        return require_manager(interaction)

    async def on_confirm(self, interaction: discord.Interaction, question: str, expires: int,
                         confirmed: bool) -> None:
        """Confirm or Cancel pressed under a manager's question (by the member who
        asked, in the guild it was asked in: ``components.Placed`` checked that):
        ``reset`` zeroes every balance of the guild, ``season`` starts its next
        season. After ``expires`` (unix seconds) nothing happens and the buttons go."""
        async def work() -> None:
            assert interaction.guild is not None
            member = await self._confirmed(interaction, expires, confirmed)
            if member is None:
                return
            if question == "season":
                number = await self.service.start_season(interaction.guild.id, member.id)
                text = i18n._("Season {number} has begun: the leaderboards count it from now on. "
                              "Earlier seasons stay on `/commerce leaderboard season:`."
                              ).format(number=number)
            else:
                count = await self.service.reset_ledger(interaction.guild.id, member.id)
                text = i18n.ngettext("Done: {count} balance reset to zero.",
                                     "Done: {count} balances reset to zero.", count).format(count=count)
            await edit(interaction, content=text, view=None)
        await guarded(interaction, None, work)
