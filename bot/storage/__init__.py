"""Storage: schema migrations, repositories and the append-only action log and
ledger, on SQLite through aiosqlite (``Storage``, the default) or on PostgreSQL
through asyncpg (``PgStorage``), one interface; ``open_storage`` picks by the
address. The only place in the project with SQL."""

from __future__ import annotations

from pathlib import Path
from typing import TypeAlias

from .claims import ClaimRefused, ShardsLost
from .database import MIN_FREE_BYTES, Storage
from .errors import (
    CorruptDatabase,
    DatabaseInUse,
    DatabaseNotWritable,
    DatabaseUnavailable,
    TableClosed,
)
from .models import (
    ActionRow,
    DealKey,
    DealRow,
    GuildSettings,
    HandResult,
    HintRow,
    LedgerEntry,
    LedgerRow,
    MemberStats,
    OpenTable,
    PastGame,
    PresetStats,
    SeatRow,
    ShuffleEvent,
    TableRow,
)
from .postgres import PgStorage
from .reviews import ReviewRow, TurnMoment
from .shared import OPEN_STATUSES, utc_now
from .units import Meanwhile

#: either storage: the two classes have the same public interface
AnyStorage: TypeAlias = Storage | PgStorage

#: the address schemes that mean PostgreSQL (``DATABASE_URL``)
POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def is_postgres_url(address: str | Path) -> bool:
    """Whether ``address`` is a PostgreSQL URL (``postgresql://`` or ``postgres://``)."""
    return isinstance(address, str) and address.strip().lower().startswith(POSTGRES_SCHEMES)


async def open_storage(address: str | Path) -> AnyStorage:
    """The storage at ``address``: a ``postgresql://`` or ``postgres://`` URL opens
    ``PgStorage`` (``PgStorage.open``); anything else is the path of an SQLite file
    (``Storage.open``, created with its folder when missing).

    Raises:
        DatabaseUnavailable: as ``Storage.open`` / ``PgStorage.open`` (a one-line
            reason; a URL's password never appears in it).
    """
    if is_postgres_url(address):
        return await PgStorage.open(str(address).strip())
    return await Storage.open(address)


__all__ = [
    "MIN_FREE_BYTES", "Meanwhile", "POSTGRES_SCHEMES", "ActionRow", "AnyStorage", "PgStorage",
    "is_postgres_url",
    "open_storage", "CorruptDatabase", "DealKey", "DatabaseInUse", "DatabaseNotWritable",
    "DatabaseUnavailable", "DealRow", "GuildSettings", "HandResult", "HintRow", "LedgerEntry",
    "LedgerRow", "MemberStats", "OPEN_STATUSES", "OpenTable", "PastGame", "PresetStats", "SeatRow",
    "ShuffleEvent", "Storage", "TableClosed", "TableRow", "utc_now", "ClaimRefused", "ShardsLost",
    "ReviewRow", "TurnMoment",
]
