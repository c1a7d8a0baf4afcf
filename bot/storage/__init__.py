"""SQLite storage through aiosqlite: schema migrations, repositories and the
append-only action log and ledger. The only place in the project with SQL."""

from .database import (
    MIN_FREE_BYTES,
    CorruptDatabase,
    DatabaseInUse,
    DatabaseNotWritable,
    DatabaseUnavailable,
    Storage,
    TableClosed,
)
from .models import (
    ActionRow,
    DealKey,
    DealRow,
    GuildSettings,
    HandResult,
    LedgerEntry,
    MemberStats,
    OpenTable,
    PastGame,
    PresetStats,
    SeatRow,
    TableRow,
)

__all__ = [
    "MIN_FREE_BYTES", "ActionRow", "CorruptDatabase", "DealKey", "DatabaseInUse", "DatabaseNotWritable",
    "DatabaseUnavailable", "DealRow", "GuildSettings", "HandResult", "LedgerEntry",
    "MemberStats", "OpenTable", "PastGame", "PresetStats", "SeatRow", "Storage", "TableClosed", "TableRow",
]
