"""What the table service raises. Every error carries the words a member is told
(``ServiceError.text``); its type says whose it is: a request refused
(``UserError``, and its kinds ``TableGone`` and ``OutOfDate``) or a write that
failed on the bot's side (``StorageFailure``, never a ``UserError``).
``bot.interactions.guard.error_reply`` is the one place that turns them into a reply.
"""

from __future__ import annotations

import sqlite3

import asyncpg

from ..i18n import _


class ServiceError(Exception):
    """An error of the table service that a member is told of plainly.

    Attributes:
        text: the short answer (also ``str()``), at most a few lines, never a
            traceback.
    """

    def __init__(self, text: str) -> None:
        """``text``: what the member is told."""
        super().__init__(text)
        self.text = text


class UserError(ServiceError):
    """Something the member asked for cannot be done; nothing changed."""


class TableGone(UserError):
    """The table is not open (closed, or set aside while it is rebuilt after a
    storage problem): nothing of it can be shown as it stands."""


class NotSeated(UserError):
    """The member is not seated at the table they act on."""

    def __init__(self, text: str | None = None) -> None:
        """``text``: what the member is told (default: that they do not play at
        this table, in the current language)."""
        super().__init__(_("You are not playing at this table.") if text is None else text)


class OutOfDate(UserError):
    """A control made for a moment that has passed (an earlier deal, an operation
    count behind the deal's); ``earlier_deal``: it is of an earlier deal."""

    def __init__(self, text: str, *, earlier_deal: bool = False) -> None:
        """``text``: what the member is told."""
        super().__init__(text)
        self.earlier_deal = earlier_deal


class StorageFailure(ServiceError):
    """A write could not be committed (disk full, I/O error, database locked too
    long). Nothing of the request was applied: memory was rebuilt from storage
    (``rebuilt``; ``False``: the table waits aside for the watch to rebuild it).
    The bot's failure, not the member's: it is logged."""

    def __init__(self, text: str = "", *, rebuilt: bool = True) -> None:
        """``text``: the ephemeral answer; by default it says nothing changed."""
        super().__init__(text or _("I could not save that (a storage problem on the bot's "
                                   "side), so nothing changed. Try again in a moment."))
        self.rebuilt = rebuilt


#: errors of the storage layer (a failed write, on SQLite or PostgreSQL: asyncpg's
#: server errors, a connection lost or closed); anything else is a bug
STORAGE_ERRORS = (sqlite3.Error, asyncpg.PostgresError, asyncpg.InterfaceError, OSError)
