"""Answering interactions: the helpers every command and control handler uses.

``guarded`` is the one frame of every handler: the refusal while the bot stops
(``RESTARTING``), the member's cooldown, the acknowledgement before any wait
(``defer_hook``), and any error answered by ``answer_error``: the words of
``error_reply``, the one place an error becomes a reply (a service error's own
text, Discord's refusal said plainly, a logged apology), never a traceback.
It counts what it sees in the bot's metrics (``bot.runtime.metrics``); the
answers themselves are sent by ``bot.runtime.sending``.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Awaitable, Callable

import discord
from discord import app_commands

from .. import i18n
from ..i18n import N_, _, deck
from ..runtime.language import server_language
from ..runtime.metrics import Metrics, interaction_kind
from ..runtime.sending import reply
from ..service import ServiceError, StorageFailure, UserError
from ..service.locks import InFlight
from ..storage import waiting

log = logging.getLogger(__name__)

#: the answer to an interaction arriving once the bot has begun to stop (``bot.process.stopping``)
RESTARTING = N_("The bot is restarting: try again in a moment.")


def defer_hook(interaction: discord.Interaction, public: bool = False,
               ) -> Callable[[], Awaitable[None]]:
    """What ``bot.storage.waiting`` calls before a wait: acknowledge the interaction so
    Discord does not fail it after 3 seconds (a component: a silent deferred
    update; a command: "thinking…", ephemeral unless ``public``)."""
    async def defer() -> None:
        if interaction.response.is_done():
            return
        with contextlib.suppress(discord.HTTPException):
            if interaction.type is discord.InteractionType.component:
                await interaction.response.defer()
            else:
                await interaction.response.defer(ephemeral=not public, thinking=True)
    return defer


async def guarded(interaction: discord.Interaction, table_id: int | None,
                  work: Callable[[], Awaitable[None]], *, public: bool = False) -> None:
    """Run ``work``; any error it raises is answered ephemerally by
    ``answer_error`` (``error_reply``'s words). A member clicking or commanding faster than
    the bot's cooldown allows gets a short answer and nothing runs. Before any
    wait (a busy table or database) the interaction is acknowledged first
    (``defer_hook``; ``public``: a command whose answer everyone sees).

    The client's ``in_flight`` (an ``InFlight``, ``CommerceBot.in_flight``) counts
    the interaction while it runs; once it is closed (the bot is stopping:
    ``bot.process.stopping``) an interaction is answered ``RESTARTING`` and nothing runs.
    The client's ``metrics`` (``bot.runtime.metrics.Metrics``) count the interaction by
    its kind (``interaction_kind``) and how it ended (``OUTCOMES``), with the
    seconds it took."""
    client = interaction.client
    metrics = getattr(client, "metrics", None)
    began = time.perf_counter()
    outcome = "failed"  # unless it ends as one of the ways below
    language = i18n.enter(interaction.locale)  # private answers in the member's language
    cards = deck.enter(deck.TWO)  # and in their deck, once it is read (``_guarded``)
    try:
        in_flight = getattr(client, "in_flight", None)
        if not isinstance(in_flight, InFlight):
            outcome = await _guarded(interaction, table_id, work, public)
            return
        with in_flight.track():  # the refusal too: it is sent before the connection closes
            if in_flight.closed:
                outcome = "restarting"
                with contextlib.suppress(discord.HTTPException):
                    await reply(interaction, _(RESTARTING))
                return
            outcome = await _guarded(interaction, table_id, work, public)
    finally:
        deck.leave(cards)
        i18n.leave(language)
        if isinstance(metrics, Metrics):
            metrics.interaction(interaction_kind(interaction), outcome,
                                time.perf_counter() - began)


async def _guarded(interaction: discord.Interaction, table_id: int | None,
                   work: Callable[[], Awaitable[None]], public: bool) -> str:
    """``guarded`` once the interaction may run; returns how it ended (``OUTCOMES``)."""
    client = interaction.client
    cooldown = getattr(client, "cooldown", None)
    if cooldown is not None:
        retry = cooldown.get_bucket(interaction).update_rate_limit()
        if retry:
            with contextlib.suppress(discord.HTTPException):
                await reply(interaction, _("Slow down a little: try again in {seconds} s.").format(
                    seconds=f"{retry:.0f}"))
            return "cooldown"
    if public:  # an answer everyone sees: in the server's language
        i18n.enter(await server_language(client, interaction.guild_id))
    try:
        with waiting.hook(defer_hook(interaction, public)):
            service = getattr(client, "service", None)
            if service is not None and interaction.guild_id is not None and not public:
                deck.enter(await service.deck(interaction.guild_id, interaction.user.id))
            if service is not None and table_id is not None:
                await service.settled(table_id)  # never read a move still being committed
            await work()
        return "ok"
    except Exception as exc:
        return await answer_error(interaction, exc, table_id)


#: the answer to a bug (any error not foreseen), from a command or a control alike
APOLOGY = N_("Something went wrong on our side. Nothing was lost: press My hand to see where "
             "things stand.")


def error_reply(exc: BaseException, table_id: int | None) -> tuple[str | None, str]:
    """The one place an error becomes a reply, for app commands and components
    alike: the short ephemeral answer (``None``: none can be given, the
    interaction expired) and how the interaction ended (``OUTCOMES``:
    ``refused``, ``failed``, ``discord_error``, ``expired``). What is the bot's
    fault (a storage failure, Discord's refusal, a bug) is logged, with the table
    id (``None``: no table); a member's refused request is not. Never a traceback
    in the answer."""
    if isinstance(exc, app_commands.CommandInvokeError):
        exc = exc.original
    if isinstance(exc, StorageFailure):  # the bot's failure, logged where it failed
        log.warning("table %s: a request could not be saved", table_id)
        return exc.text, "failed"
    if isinstance(exc, ServiceError):
        return exc.text, "refused"
    if isinstance(exc, app_commands.NoPrivateMessage):
        return _("Commerce is played in servers, not in direct messages."), "refused"
    if isinstance(exc, app_commands.MissingPermissions | app_commands.CheckFailure):
        return _("You do not have permission to do that."), "refused"
    if isinstance(exc, discord.NotFound) and exc.code in (10062, 10015):
        log.warning("table %s: the interaction expired before it was answered", table_id)
        return None, "expired"
    if isinstance(exc, discord.HTTPException):  # Discord refused something: say what, plainly
        log.warning("table %s: Discord answered %s %s", table_id, exc.status, exc.code)
        return discord_error_text(exc), "discord_error"
    log.error("table %s: interaction failed", table_id, exc_info=exc)
    return _(APOLOGY), "failed"


async def answer_error(interaction: discord.Interaction, exc: BaseException,
                       table_id: int | None) -> str:
    """Answer ``interaction`` with ``error_reply``'s words for ``exc``, ephemerally
    (a failed answer is ignored); returns how it ended (``OUTCOMES``). A 429 is
    counted in the client's metrics."""
    with i18n.use(interaction.locale):
        text, outcome = error_reply(exc, table_id)
    original = exc.original if isinstance(exc, app_commands.CommandInvokeError) else exc
    metrics = getattr(interaction.client, "metrics", None)
    if (isinstance(original, discord.HTTPException) and original.status == 429
            and isinstance(metrics, Metrics)):
        metrics.rate_limited("interaction")
    if text is not None:
        with contextlib.suppress(discord.HTTPException):
            await reply(interaction, text)
    return outcome


#: what the bot needs where a table plays (README "Inviting the bot")
PERMISSIONS = N_("**View Channels**, **Send Messages**, **Embed Links**, **Attach Files** and "
               "**Read Message History** here, and **Manage Channels** and **Manage Roles** "
               "(or **Create Public Threads**, **Send Messages in Threads** and **Manage "
               "Threads**) to open tables")


def discord_error_text(exc: discord.HTTPException) -> str:
    """A short answer naming what stood in the way when Discord refused a request
    of the bot's (a missing permission or access, a channel limit, a channel
    gone, a rate limit, Discord's own trouble), never a traceback. A move that
    was already saved stays saved; the words say nothing was lost."""
    code, status = exc.code, exc.status
    if code == 50013 or (status == 403 and code != 50001):
        return _("I am missing a permission for that here. I need {permissions}.").format(
            permissions=_(PERMISSIONS))
    if code == 50001:
        return _("I cannot see this channel: give me **View Channels** and **Read Message History**.")
    if code in (10003, 10008):
        return _("That channel or message no longer exists: nothing else changed.")
    if code == 30013:
        return _("This server has Discord's maximum of 500 channels: remove some, then try again.")
    if code == 50035 and "category" in (exc.text or "").lower():
        return _("The **Commerce** category has Discord's maximum of 50 channels: remove old "
                "table channels, then try again.")
    if status == 429:
        return _("Discord is asking me to slow down: try again in a few seconds. Nothing was lost.")
    if status >= 500:
        return _("Discord is having trouble right now: try again in a moment. Nothing was lost.")
    return _("Discord refused that (error {code}). Nothing was lost: press My hand "
             "to see where things stand.").format(code=code or status)


def require_manager(interaction: discord.Interaction) -> discord.Member:
    """The caller, if they have Manage Server (checked at run time).

    Raises:
        UserError: they do not.
    """
    member = interaction.user
    if not (isinstance(member, discord.Member) and member.guild_permissions.manage_guild):
        raise UserError(_("You need the **Manage Server** permission for that."))
    return member
