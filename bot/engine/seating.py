"""Seats, turn order and positional priority (docs/RULES.md §1.2, §1.5).

Seats are numbered clockwise from 0. ``step`` is +1 (clockwise, to the left)
or -1 (anticlockwise). Seat 0 is a seat like any other: "no seat" is ``None``.

Every family shares these helpers. ``seats`` (where accepted) keeps only the
seats still in play — seats sitting out (oldway, no lives) or eliminated
(jaques, no chips) are skipped by the deal, the turn order and every priority.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from functools import cache


def next_seat(seat: int, n: int, step: int) -> int:
    """The seat after ``seat`` in play order (the left neighbour when clockwise)."""
    return (seat + step) % n


def play_order(start: int, n: int, step: int, seats: Collection[int] | None = None) -> list[int]:
    """The seats after ``start`` in play order, ``start`` itself last, keeping only
    ``seats`` (all seats when ``None``). A new list each call (remembered by its
    arguments when ``seats`` is hashable: a tuple or a frozenset)."""
    try:
        key = (start, n, step, seats)
        return list(_ORDERS[key])
    except KeyError:
        pass
    except TypeError:  # seats given as a list or a set: not remembered
        key = None
    order = [(start + step * k) % n for k in range(1, n + 1)]
    if seats is not None:
        order = [s for s in order if s in seats]
    if key is not None and len(_ORDERS) < 65_536:
        _ORDERS[key] = tuple(order)
    return order


#: play orders already worked out, by the arguments of ``play_order``
_ORDERS: dict[tuple[int, int, int, Collection[int] | None], tuple[int, ...]] = {}


def next_in(seat: int, n: int, step: int, seats: Collection[int]) -> int | None:
    """The first seat of ``seats`` after ``seat`` in play order (``seat`` itself if it
    is the only one), or ``None`` when ``seats`` is empty."""
    order = play_order(seat, n, step, seats)
    return order[0] if order else None


def turn_order(dealer: int, n: int, step: int, seats: Collection[int] | None = None) -> list[int]:
    """One circuit of turns: eldest hand first, the dealer last (when in ``seats``)."""
    return play_order(dealer, n, step, seats)


def priority_order(dealer: int, n: int, step: int, seats: Collection[int] | None = None) -> list[int]:
    """Tie priority: the dealer, then the eldest hand and onwards."""
    order = [(dealer + step * k) % n for k in range(n)]
    return order if seats is None else [s for s in order if s in seats]


def deal_target(index: int, dealer: int, n: int, step: int) -> int:
    """Seat that receives card ``index`` (0 = top) of the shuffled deck."""
    return (dealer + step * (1 + index)) % n


def best_seat(scores: Sequence[int | None], dealer: int, step: int) -> int:
    """Seat with the best score; ties go to the seat earliest in ``priority_order``.

    Args:
        scores: one hand score per seat (higher is better); ``None`` for a seat
            that is not in the deal.
        dealer: the dealer's seat (wins every tie it is part of).
        step: +1 clockwise, -1 anticlockwise (direction of priority after the dealer).
    """
    best, top = None, None
    for seat in _priority(dealer, len(scores), step):  # the first of the best
        value = scores[seat]
        if value is not None and (top is None or value > top):
            best, top = seat, value
    if best is None:
        raise ValueError("no seat is in the deal")
    return best


@cache
def _priority(dealer: int, n: int, step: int) -> tuple[int, ...]:
    """``priority_order(dealer, n, step)`` as a tuple, worked out once."""
    return tuple(priority_order(dealer, n, step))


def worst_seat(scores: Sequence[int | None], dealer: int, step: int) -> int:
    """Seat with the worst score; on a tie the seat furthest from the dealer's left
    in turn order (the latest to play; the dealer when tied) — docs/RULES.md §1.5."""
    dealt = _dealt(scores, reversed(turn_order(dealer, len(scores), step)))
    return min(dealt, key=dealt.__getitem__)  # the first of the worst, the latest to play


def _dealt(scores: Sequence[int | None], order: Iterable[int]) -> dict[int, int]:
    """``{seat: score}`` of the seats in the deal, in ``order``."""
    return {seat: value for seat in order if (value := scores[seat]) is not None}


def split(amount: int, seats: Sequence[int]) -> list[tuple[int, int]]:
    """Share ``amount`` equally among ``seats`` (given earliest first); the
    remainder stays with the first seat (docs/RULES.md §2.7).
    Returns ``[(seat, share)]`` with non-zero shares only."""
    if not seats:
        return []
    share, rest = divmod(amount, len(seats))
    out = [(s, share + (rest if i == 0 else 0)) for i, s in enumerate(seats)]
    return [(s, v) for s, v in out if v]
