"""The language of what the bot shows in public: a guild's own setting, else its
Discord locale (``bot.i18n.server``). ``in_server_language`` wraps the methods
that show a table publicly (the publisher's, the ending's, the step after a
change) so that their words are those of the table's guild; private answers are
worded in the member's locale by ``bot.interactions.guard.guarded``.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import functools
from collections.abc import Callable, Coroutine
from typing import Any, ParamSpec, TypeVar

import discord

from .. import i18n
from ..i18n import deck
from ..service import STORAGE_ERRORS, LiveTable, ServiceError

P = ParamSpec("P")
R = TypeVar("R")

#: the task, guild, language and deck that ``in_server_language`` set last in this
#: context: a method it wraps, called inside another one of the same guild in the
#: same task and still in that language, does not look the language up again
_speaking: contextvars.ContextVar[tuple[object, int, str, str] | None] = contextvars.ContextVar(
    "speaking", default=None)


async def server_language(client: discord.Client, guild_id: int | None) -> str:
    """The language of the public messages of guild ``guild_id`` (``i18n.server``:
    the guild's setting, else its Discord locale; English when neither is known or
    the settings cannot be read)."""
    guild = client.get_guild(guild_id) if guild_id else None
    service = getattr(client, "service", None)
    setting = ""
    if service is not None and guild_id:
        with contextlib.suppress(ServiceError, *STORAGE_ERRORS):
            setting = (await service.settings(guild_id)).language
    return i18n.server(setting, guild.preferred_locale if guild is not None else None)


def known_server_language(client: discord.Client, guild_id: int) -> str | None:
    """``server_language`` without waiting: ``None`` when the guild's settings
    have not been read yet (``TableService.known_settings``)."""
    service = getattr(client, "service", None)
    settings = service.known_settings(guild_id) if service is not None else None
    if settings is None:
        return None
    guild = client.get_guild(guild_id)
    return i18n.server(settings.language, guild.preferred_locale if guild is not None else None)


def in_server_language(method: Callable[P, Coroutine[Any, Any, R]],
                       ) -> Callable[P, Coroutine[Any, Any, R]]:
    """Run a method that shows a table publicly (the publisher's, the ending's...)
    in the language of the table's guild (``server_language``): the first
    argument that is a ``LiveTable``, or an ``Outcome`` of one, names the table;
    the client is the object's ``client``, or its ``publisher``'s. Cards are
    drawn and named in the two-colour deck there, whoever's click it follows
    (``deck``: a member's four colours are for their own eyes)."""
    @functools.wraps(method)
    async def speaking(*args: P.args, **kwargs: P.kwargs) -> R:
        owner = args[0] if args else None
        client = getattr(owner, "client", None) or getattr(getattr(owner, "publisher", None),
                                                           "client", None)
        live = next((getattr(a, "live", a) for a in (*args[1:], *kwargs.values())
                     if isinstance(getattr(a, "live", a), LiveTable)), None)
        if not isinstance(client, discord.Client) or not isinstance(live, LiveTable):
            return await method(*args, **kwargs)
        guild_id = live.row.guild_id
        if _speaking.get() == (asyncio.current_task(), guild_id, i18n.current(), deck.current()):
            return await method(*args, **kwargs)  # in its server's language already
        with (i18n.use(await server_language(client, guild_id)) as language,
              deck.use(deck.TWO)):
            token = _speaking.set((asyncio.current_task(), guild_id, language, deck.TWO))
            try:
                return await method(*args, **kwargs)
            finally:
                _speaking.reset(token)
    return speaking
