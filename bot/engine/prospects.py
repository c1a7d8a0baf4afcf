"""What the rest of an oldway game is worth to a seat (docs/AI.md "Playing for
the game").

A deal's points are not the whole story in ``oldway`` (docs/RULES.md §2.6):
the game ends when one seat is left with lives, and that seat sweeps the pool.
A life is worth the future income of staying in, and another seat's lost life
is worth something too: one rival fewer for the sweep. ``oldway_value`` gives a
seat's expected income from the start of the next deal to the end of the game
(points), from the standing alone, by exact dynamic programming over a
**symmetric model** of the rest of the game:

- every deal, the best hand and the worst hand are two distinct seats drawn
  uniformly among those with lives (every ordered pair alike); the best takes
  ``best_takes`` from the pool (or what is left), the worst loses a life;
- the first seat to lose its last life while the horse is available is offered
  it: another seat always buys it (every policy of this project does), the seat
  being valued buys it only when that is worth more than sitting out;
- when one seat is left with lives it takes the pool (the sweep).

The model knows nothing of hands or skill: it is the value of the standing to
an average player, the same for every seat. ``scripts/game_values.py`` checks
it against whole games played by ``normal`` at every seat.

Everything here is pure and memoised: a standing of three seats is a few
hundred states, computed in a few milliseconds on first use.
"""

from __future__ import annotations

from functools import lru_cache

from .rules import Rules

__all__ = ["MAX_SEATS", "horse_gain", "oldway_value", "seat_value"]

#: the model is used while at most this many seats have lives (beyond, the
#: states of the game's future grow too many to compute within a decision)
MAX_SEATS = 4


def oldway_value(rules: Rules, lives: tuple[int, ...], seat: int, pool: int,
                 horse: bool) -> float:
    """The expected points ``seat`` takes from the start of the next deal to the
    end of the game (the sweep included), in the symmetric model above.

    Args:
        rules: oldway rules (``best_takes``, ``horse_price``).
        lives: lives per seat as the next deal starts (0: out of the game).
        seat: the seat valued.
        pool: points in the pool as the next deal starts.
        horse: the horse has not been offered yet.

    Returns:
        0.0 for a seat without lives, or once at most one seat has lives (the
        game is over: the sweep was paid in the deal that ended it).

    Raises:
        ValueError: more than ``MAX_SEATS`` seats with lives, or a negative pool.
    """
    value = _seat(rules.best_takes, rules.horse_price, lives, seat, pool, horse)
    if value is None:
        raise ValueError(f"the model covers at most {MAX_SEATS} seats with lives")
    return value


def seat_value(rules: Rules, lives: tuple[int, ...], seat: int, pool: int,
               horse: bool) -> float | None:
    """``oldway_value``, or ``None`` where the model does not apply (no lives in
    these rules, or more than ``MAX_SEATS`` seats with lives). Memoised by the
    standing (``strong`` asks it at the end of every playout)."""
    if not rules.lives:
        return None
    return _seat(rules.best_takes, rules.horse_price, lives, seat, pool, horse)


@lru_cache(maxsize=100_000)
def _seat(best_takes: int | None, price: int, lives: tuple[int, ...], seat: int, pool: int,
          horse: bool) -> float | None:
    if pool < 0:
        raise ValueError("the pool cannot be negative")
    mine = lives[seat]
    others = tuple(sorted((n for s, n in enumerate(lives) if s != seat and n > 0), reverse=True))
    if mine <= 0 or not others:
        return 0.0
    if 1 + len(others) > MAX_SEATS:
        return None
    return _value(mine, others, pool, horse, best_takes, price)


def horse_gain(rules: Rules, lives: tuple[int, ...], seat: int, pool: int) -> float | None:
    """What buying the horse is worth to ``seat`` (which has just lost its last
    life, ``lives[seat] == 0``) against sitting out: the value of one more life
    with ``horse_price`` in the pool, less the price. ``None`` where the model
    does not apply."""
    with_life = tuple(1 if s == seat else n for s, n in enumerate(lives))
    value = seat_value(rules, with_life, seat, pool + rules.horse_price, False)
    return None if value is None else value - rules.horse_price


@lru_cache(maxsize=100_000)
def _value(mine: int, others: tuple[int, ...], pool: int, horse: bool, best_takes: int | None,
           price: int) -> float:
    """``oldway_value`` of a canonical standing: the seat's lives, the others'
    (with lives, largest first), the pool, the horse."""
    lives = (mine, *others)
    k = len(lives)
    total = 0.0
    for best in range(k):
        take = pool if best_takes is None else min(best_takes, pool)
        for worst in range(k):
            if worst == best:
                continue
            income = float(take) if best == 0 else 0.0
            after = list(lives)
            after[worst] -= 1
            left = pool - take
            if after[worst] == 0 and horse:
                if worst == 0:  # the seat valued chooses: one more life, or sit out
                    stay = -price + _next(1, tuple(after[1:]), left + price, False, best_takes,
                                          price)
                    total += income + max(stay, 0.0)
                    continue
                after[worst] = 1  # another seat always buys it
                left += price
                total += income + _next(after[0], tuple(after[1:]), left, False, best_takes, price)
                continue
            total += income + _next(after[0], tuple(after[1:]), left, horse, best_takes, price)
    return total / (k * (k - 1))


def _next(mine: int, others: tuple[int, ...], pool: int, horse: bool, best_takes: int | None,
          price: int) -> float:
    """The seat's value after a deal: nothing once out, the pool when it is the
    last with lives (the sweep), else the value of the next deal's standing."""
    if mine <= 0:
        return 0.0
    rest = tuple(sorted((n for n in others if n > 0), reverse=True))
    if not rest:
        return float(pool)
    return _value(mine, rest, pool, horse, best_takes, price)
