"""Browsing finished games: what a ``/commerce history`` message shows for a
state (``HistoryState``: the list, a game, a deal, a replay step), and the
handler of its buttons and menu (``HistoryHandlers.on_history``, part of the
bot's ``Handlers``). ``cogs/history.py`` answers the slash commands with the
same messages.

Only games whose table is no longer open are ever shown (the service's
``archive`` part refuses the others), so no hidden card of an open deal can
appear here.
"""

from __future__ import annotations

import discord

from ..i18n import _
from ..runtime.sending import edit, reply
from ..service import TableService, UserError
from ..ui import history
from ..ui.components import HistoryState
from .guard import guarded


async def history_message(service: TableService, guild_id: int, state: HistoryState,
                          ) -> tuple[discord.Embed, discord.ui.View | None]:
    """The embed and controls of ``state`` in guild ``guild_id``'s history.

    Raises:
        UserError: a page, game, deal or step that is not there (any more).
    """
    if state.view == "list":
        games, total = await service.archive.history(guild_id, state.page, history.PER_PAGE)
        if not games and state.page:
            raise UserError(_("Page {page} of the history is empty now. "
                              "Run /commerce history again.").format(page=state.page + 1))
        return (history.list_embed(games, state.page, total),
                history.list_view(guild_id, games, state.page, total))
    arch = await service.archive.archived(guild_id, state.table)
    if state.view == "game":
        return history.game_embed(arch), history.game_view(guild_id, arch, state.page)
    if not 1 <= state.deal <= len(arch.deals):
        raise UserError(_("That deal is not part of this game."))
    if state.view == "deal":
        return (history.deal_embed(arch, state.deal),
                history.deal_view(guild_id, arch, state.page, state.deal))
    total = len(arch.deals[state.deal - 1].actions)
    if not 0 <= state.step <= total:
        raise UserError(_("That step is not part of this deal."))
    return (history.step_embed(arch, state.deal, state.step, total),
            history.step_view(guild_id, state.page, arch.live.id, state.deal, state.step, total))


async def send_export(interaction: discord.Interaction, service: TableService, guild_id: int,
                      table_id: int) -> None:
    """Send the record of the guild's game at ``table_id`` (a table no longer
    open) as a JSON file, only to the member who asked.

    Raises:
        UserError: no such game in the guild, or its table is still open.
    """
    arch = await service.archive.archived(guild_id, table_id)
    await reply(interaction, _(history.EXPORT_TEXT).format(number=arch.past.number,
                                                           preset=arch.past.preset),
                file=history.export_file(arch.past, arch.record))


class HistoryHandlers:
    """The handler of the history controls (a part of ``bot.interactions.handlers.Handlers``).

    Attributes:
        service: the table service the games are read from.
    """

    service: TableService

    async def on_history(self, interaction: discord.Interaction, guild_id: int,
                         state: HistoryState) -> None:
        """A history button or menu: show ``state`` in place, or (Export) send the
        game's record as a file."""
        async def work() -> None:
            if state.view == "export":
                await send_export(interaction, self.service, guild_id, state.table)
                return
            embed, view = await history_message(self.service, guild_id, state)
            await edit(interaction, content=None, embed=embed, view=view)
        await guarded(interaction, None, work)
