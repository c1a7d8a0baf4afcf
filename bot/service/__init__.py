"""The table service: the one path from an interaction to a state change.

Each public coroutine takes the table's lock, checks the request, steps the
engine, appends the operation to the action log (committed before it
returns), lets AI seats play, and returns a ``LiveTable`` for rendering.
Errors carry their short message (``ServiceError.text``): a request refused is a
``UserError`` (``TableGone``, ``NotSeated``, ``OutOfDate`` say which), a write
that failed a ``StorageFailure`` (the bot's failure, never a ``UserError``).

``TableService`` is the one entry; its parts live beside it:

Every coroutine that changes a table returns its ``Outcome`` (``outcome``):
the operations appended (the member's, then the AI's), a deal dealt or over,
an offer answered, a turn timed out, the table ended; ``bot.changes.after`` turns it
into messages, panels and timers.

- ``core``: open tables in memory, the unit of work, rebuilds from the action
  log, the engine step (append an operation, let AI seats play);
- ``lifecycle``: create, join, add an AI, leave, start, departures, idle
  lobbies, end;
- ``actions``: a member's move, the next deal, the turn timer's move, I'm back;
- ``shuffles``: the fair shuffle's requests: a member's cut, the fair-shuffle
  message posted, a seed for a lobby from before (docs/FAIRNESS.md);
- ``progress``: what a table owes without anyone clicking (``due``, ``resume``);
- ``players``: who decides for AI seats at their level, and the coach's hints
  (strong search in a worker process, off the event loop);
- ``queries``: settings, ledger pages, stats, ledger reset;
- ``preferences``: a member's own settings (the deck of their private pictures and texts);
- ``seasons`` and ``skill``: seasons, skill ratings (updated as a game finishes)
  and the rating board (docs/RATINGS.md);
- ``archive``: games that are over: records (with each deal's proof), the
  history, a finished deal rebuilt at any step (``TableService.archive``, a
  read-only service of its own over storage);
- ``slow``: turn timers of hours, whose deadline and reminder survive a restart;
- ``reviews``: the coach's review of a member's decisions in a game that is over;
- ``exports``: a server's own data as one file for its admins (rate-limited).
"""

from __future__ import annotations

import random

from ..storage import AnyStorage
from .actions import Actions
from .archive import Archive, Archived, record_of
from .core import CommitCounter
from .errors import (
    STORAGE_ERRORS,
    NotSeated,
    OutOfDate,
    ServiceError,
    StorageFailure,
    TableGone,
    UserError,
)
from .exports import (
    EXPORT_INTERVAL,
    EXPORT_MAX_BYTES,
    UPLOAD_MARGIN,
    ExportTooSoon,
    ServerExport,
    ServerExports,
    size_text,
)
from .lifecycle import AI_NAMES, DEFAULT_AI_LEVEL, LifeCycle
from .live import LiveTable
from .outcome import Answered, Moment, Outcome
from .posted import Posted, PostedMessage
from .preferences import Preferences
from .progress import Progress
from .queries import Queries
from .reviews import Review, Reviews
from .seasons import RatingBoard, Seasons
from .shuffles import Shuffles
from .slow import MAX_TURN_HOURS, SLOW_TURN, SlowTurns, turn_hours_seconds

__all__ = ["AI_NAMES", "MAX_TURN_HOURS", "SLOW_TURN", "turn_hours_seconds",
           "Answered", "Moment", "Outcome", "DEFAULT_AI_LEVEL", "EXPORT_INTERVAL",
           "EXPORT_MAX_BYTES", "STORAGE_ERRORS",
           "Archived", "ExportTooSoon", "LiveTable", "NotSeated", "OutOfDate", "ServerExport",
           "PostedMessage", "RatingBoard", "Review", "ServiceError", "StorageFailure", "TableGone",
           "TableService", "UPLOAD_MARGIN", "UserError", "record_of", "size_text"]


class TableService(LifeCycle, Shuffles, Actions, Progress, Queries, Posted, Seasons, SlowTurns,
                   Preferences):
    """Owns every open table; see the module docstring.

    Args:
        storage: the opened storage.
        rng: a seeded ``random.Random`` for tests only; ``None`` uses the OS CSPRNG.
        metrics: what counts the commits (the bot's ``bot.runtime.metrics.Metrics``);
            ``None``: nothing counts them.

    Attributes:
        archive: games that are over (``Archive``): records, the history, replays;
            read from storage only.
        exports: a server's own data as one zip for its admins (``ServerExports``).
        reviews: the coach's reviews of games that are over (``Reviews``).
    """

    def __init__(self, storage: AnyStorage, rng: random.Random | None = None,
                 metrics: CommitCounter | None = None) -> None:
        """A service with no table in memory yet; ``load`` rebuilds the open ones."""
        super().__init__(storage, rng, metrics)
        self.archive = Archive(storage, self.tables)
        self.exports = ServerExports(storage, self.lock, self._unit)
        self.reviews = Reviews(storage, self.archive, self.players)
