"""Seats, turn order and positional priority (RULES.md §1 "Turns", "Ties").

Seats are numbered clockwise from 0. ``step`` is +1 (clockwise, to the left)
or -1 (anticlockwise). Seat 0 is a seat like any other: "no seat" is ``None``.
"""

from __future__ import annotations


def next_seat(seat: int, n: int, step: int) -> int:
    """The seat after ``seat`` in play order (the left neighbour when clockwise)."""
    return (seat + step) % n


def turn_order(dealer: int, n: int, step: int) -> list[int]:
    """One circuit of turns: eldest hand first, the dealer last. Length ``n``."""
    return [(dealer + step * k) % n for k in range(1, n + 1)]


def priority_order(dealer: int, n: int, step: int) -> list[int]:
    """Tie priority: the dealer, then the eldest hand and onwards. Length ``n``."""
    return [(dealer + step * k) % n for k in range(n)]


def deal_target(index: int, dealer: int, n: int, step: int) -> int:
    """Seat that receives card ``index`` (0 = top) of the shuffled deck."""
    return (dealer + step * (1 + index)) % n


def best_seat(scores: list[int], dealer: int, step: int) -> int:
    """Seat with the best score; ties go to the seat earliest in ``priority_order``.

    Args:
        scores: one hand score per seat (higher is better).
        dealer: the dealer's seat (wins every tie it is part of).
        step: +1 clockwise, -1 anticlockwise (direction of priority after the dealer).
    """
    n = len(scores)
    best: int | None = None
    for seat in priority_order(dealer, n, step):
        if best is None or scores[seat] > scores[best]:
            best = seat
    assert best is not None
    return best
