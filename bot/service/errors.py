"""What the table service raises: a user's mistake or a write that failed."""

from __future__ import annotations

import sqlite3

import asyncpg


class UserError(Exception):
    """Something the user asked for cannot be done; ``str()`` is the ephemeral answer."""


class StorageFailure(UserError):
    """A write could not be committed (disk full, I/O error, database locked too
    long). Nothing of the request was applied: memory was rebuilt from storage."""

    def __init__(self, text: str = "I could not save that (a storage problem on the bot's "
                                   "side), so nothing changed. Try again in a moment.") -> None:
        """``text``: the ephemeral answer; by default it says nothing changed."""
        super().__init__(text)


#: errors of the storage layer (a failed write, on SQLite or PostgreSQL: asyncpg's
#: server errors, a connection lost or closed); anything else is a bug
STORAGE_ERRORS = (sqlite3.Error, asyncpg.PostgresError, asyncpg.InterfaceError, OSError)
