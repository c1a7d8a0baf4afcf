"""The errors both storages raise (``Storage`` on SQLite, ``PgStorage`` on
PostgreSQL): a database that cannot be used, and a table found closed."""

from __future__ import annotations


class DatabaseUnavailable(RuntimeError):
    """The database cannot be used; the message is one line naming the file and
    what to do. The file was left untouched."""


class CorruptDatabase(DatabaseUnavailable):
    """The database file is unreadable or not a Commerce database; never overwritten."""


class DatabaseInUse(DatabaseUnavailable):
    """Another ``Storage`` (another bot process, or another object in this one)
    has the database open: one writer per file."""


class DatabaseNotWritable(DatabaseUnavailable):
    """The database cannot be written (read-only file or folder, full disk, I/O
    error), found at start instead of in the middle of a game."""


class TableClosed(Exception):
    """``require_open``: the table is closed (or gone) in storage; nothing was written."""

    def __init__(self, table_id: int) -> None:
        """``table_id``: the table that was found closed."""
        super().__init__(f"table {table_id} is closed")
        self.table_id = table_id
