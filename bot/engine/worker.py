"""What the AI worker process runs (``bot.service.players.AiPlayers`` sends it
there): the strong AI's decisions, the coach's advice and a review's judgements
(docs/AI.md "At a table").

Kept in the engine, apart from the service, so that the worker — a fresh
interpreter (multiprocessing's ``spawn``) — imports the engine alone and not the
service's Discord-facing modules: it starts sooner and uses less memory.
"""

from __future__ import annotations

import signal

from . import coach, levels
from . import review as engine_review
from .family import Decision
from .strong import Budget
from .view import SeatView


def ready() -> bool:
    """Nothing; the worker's start-up (a fresh interpreter importing the engine)
    is what ``AiPlayers.warm`` pays in advance. Returns True."""
    return True


def strong(view: SeatView, budget: Budget) -> Decision:
    """The strong AI's decision for the seat of ``view`` within ``budget``."""
    return levels.choose(view, "strong", budget=budget)


def advise(view: SeatView, budget: Budget) -> coach.Advice:
    """The coach's advice for ``view`` (seeded by the member's view alone)."""
    return coach.advise(view, budget=budget)


def judge(moment: engine_review.Moment) -> engine_review.Judged:
    """One decision of a review (``bot.engine.review.judge``)."""
    return engine_review.judge(moment)


def ignore_interrupts() -> None:
    """First thing in the worker: Ctrl+C in a terminal reaches the whole process
    group, the worker included. Interrupted, a search would send back a
    ``KeyboardInterrupt``, which no ``except Exception`` stops and which ends the
    bot's event loop; so the worker ignores SIGINT, and the bot stops it itself
    (``AiPlayers.close``) once the searches in flight are done."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
