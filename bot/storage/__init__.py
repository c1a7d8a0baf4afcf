"""SQLite storage through aiosqlite: schema migrations, repositories and the
append-only action log and ledger. The only place in the project with SQL."""

from .database import CorruptDatabase, Storage
from .models import (
    ActionRow,
    DealRow,
    GuildSettings,
    HandResult,
    LedgerEntry,
    MemberStats,
    SeatRow,
    TableRow,
)

__all__ = [
    "ActionRow", "CorruptDatabase", "DealRow", "GuildSettings", "HandResult", "LedgerEntry",
    "MemberStats", "SeatRow", "Storage", "TableRow",
]
