"""Equilibrium strategies for the short trade presets (docs/AI.md "Equilibrium
tables (issue 25)").

A trade deal of ``foster``, ``parlett``, ``foster-more`` or ``hoyle`` is a few
decisions long: knock, trade or barter on a turn (hoyle: trade or barter and
knock at once), accept or refuse a barter. ``scripts/solve_equilibrium.py``
computes, offline, an approximate equilibrium of an abstraction of that game
by Monte Carlo counterfactual regret minimisation (external sampling, every
seat learning at once on the real ``TradeDeal``), and stores the average
strategy in ``equilibrium.json`` beside this module. The abstraction keys an
information set by:

- the table size and the seat's **role**: its place in the turn order
  (0 the eldest hand, ``n - 1`` the dealer);
- the **short history**: one letter per completed turn of the deal so far
  (``T`` a trade, ``B`` an accepted barter), and whether the seat is answering
  a barter (``a``) or on its turn (``t``);
- the hand's **strength**: its percentile (the share of all three-card hands
  of the preset's ranking it beats) in ``STRENGTH_BINS`` equal bins;
- its **potential**: the best mean percentile after giving up one card for an
  unseen one (every card not in the hand counted), in bins whose edges the
  solver stores with the table (quantiles over dealt hands).

An abstract action is made concrete as ``normal`` would: the card given in a
trade, barter or answer is the one whose two companions, with a card drawn
from those not in the hand, most often win (``best_card``). Nothing here
reads what the seat may not see: the key comes from the seat's ``SeatView``.

``choose(view, rng)`` returns the table's decision, or ``None`` where the
table does not cover the state (another preset or table size, a history past
``HISTORY_CAP`` turns, an information set the solver never reached): the
caller then decides by its own means. The engine's only state here is the
table, read once from the package.
"""

from __future__ import annotations

import json
import logging
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources

from .cards import Card
from .family import Decision, Observation
from .hands import Ranking, score_table
from .normal import percentile
from .rules import Rules
from .view import SeatView

__all__ = [
    "ANSWER_ACTIONS", "HISTORY_CAP", "PRESETS", "STRENGTH_BINS", "TURN_ACTIONS", "Table",
    "actions_for", "best_card", "choose", "concrete", "history_of", "info_key", "load",
    "parse", "potential", "role_of",
]

log = logging.getLogger(__name__)

#: the presets the solver covers (the trade family; docs/RULES.md §2.1–§2.4)
PRESETS = ("foster", "parlett", "foster-more", "hoyle")
#: equal-width bins of the hand's percentile
STRENGTH_BINS = 16
#: states after this many completed turns are not in the table
HISTORY_CAP = 6
#: abstract actions on a turn (``*_knock``: the hoyle exchange that ends with a knock)
TURN_ACTIONS = ("knock", "trade", "barter", "trade_knock", "barter_knock")
#: abstract actions answering a barter
ANSWER_ACTIONS = ("accept", "refuse")
#: the table's file inside the package
TABLE_FILE = "equilibrium.json"
#: play each strategy pure, its most likely action (purification: measured stronger
#: than sampling the mixed strategy against every baseline, docs/AI.md); ``False``
#: samples the mixed strategy with the caller's random source
PURE = True


@cache
def _by_mask(ranking: Ranking) -> dict[int, float]:
    """``{card mask: percentile}`` of every three-card hand of ``ranking``."""
    return {mask: percentile(value, ranking) for mask, value in score_table(ranking).items()}


def _mask(cards: Sequence[Card]) -> int:
    out = 0
    for c in cards:
        out |= 1 << c
    return out


def strength(hand: Sequence[Card], ranking: Ranking) -> float:
    """The percentile of a three-card hand (docs/AI.md "normal")."""
    return _by_mask(ranking)[_mask(hand)]


def potential(hand: Sequence[Card], ranking: Ranking) -> float:
    """The best mean percentile after giving up one card of ``hand`` (three
    cards) for one drawn uniformly from the 49 cards not in it."""
    table = _by_mask(ranking)
    rest = [c for c in range(52) if c not in hand]
    best = 0.0
    for out in hand:
        base = _mask([c for c in hand if c != out])
        mean = sum(table[base | (1 << c)] for c in rest) / len(rest)
        best = max(best, mean)
    return best


def best_card(hand: Sequence[Card], ranking: Ranking, opponents: int,
              unseen: Sequence[Card]) -> Card:
    """The card to give up: the one whose two companions, with a card drawn
    uniformly from ``unseen``, have the best expected chance to be the best of
    ``opponents + 1`` hands (percentile to the power ``opponents``); ties go
    to the lower card (``normal``'s choice)."""
    table = _by_mask(ranking)
    pool = [c for c in unseen if c not in hand] or [c for c in range(52) if c not in hand]
    best: tuple[float, int] | None = None
    for out in hand:
        base = _mask([c for c in hand if c != out])
        win = sum(table[base | (1 << c)] ** opponents for c in pool) / len(pool)
        if best is None or (win, -out) > (best[0], -best[1]):
            best = (win, out)
    assert best is not None
    return best[1]


def role_of(seat: int, dealer: int, n: int, step: int) -> int:
    """The seat's place in the turn order: 0 the eldest hand, ``n - 1`` the
    dealer (``step``: +1 clockwise, -1 anticlockwise)."""
    return ((seat - dealer) * step - 1) % n


def history_of(view: SeatView) -> str:
    """One letter per completed turn of the deal: ``T`` a trade, ``B`` an
    accepted barter (a knock or refusal ends the deal)."""
    out = []
    for seen in view.log:
        kind = seen.event.kind
        if kind == "trade":
            out.append("T")
        elif kind == "barter_accept":
            out.append("B")
    return "".join(out)


def actions_for(rules: Rules, answering: bool, stock: int) -> tuple[str, ...]:
    """The abstract actions of a seat under ``rules``: answering a barter
    (accept, and refuse where the rules allow it), or on its turn (knock,
    barter, trade while the stock lasts, the knocking exchanges under hoyle)."""
    if answering:
        return ANSWER_ACTIONS if rules.barter_refusal else ANSWER_ACTIONS[:1]
    out = ["knock"]
    if stock:
        out.append("trade")
    out.append("barter")
    if rules.knock_after_exchange:
        if stock:
            out.append("trade_knock")
        out.append("barter_knock")
    return tuple(out)


@dataclass(frozen=True)
class Table:
    """One preset's strategy table.

    Attributes:
        potential_edges: the potential bins' upper edges (the last bin is open).
        strategies: per information-set key (``info_key``), the probability of
            each of its actions (``actions_for``'s order).
    """

    potential_edges: tuple[float, ...]
    strategies: dict[str, tuple[float, ...]]

    def key(self, n: int, role: int, history: str, answering: bool, hand: Sequence[Card],
            ranking: Ranking) -> str:
        """``info_key`` with this table's potential bins."""
        return info_key(n, role, history, answering, hand, ranking, self.potential_edges)


def info_key(n: int, role: int, history: str, answering: bool, hand: Sequence[Card],
             ranking: Ranking, edges: Sequence[float]) -> str:
    """The information set of a seat: ``n|role|history|a-or-t|strength bin|potential bin``."""
    s = min(int(strength(hand, ranking) * STRENGTH_BINS), STRENGTH_BINS - 1)
    p = potential(hand, ranking)
    b = next((i for i, edge in enumerate(edges) if p <= edge), len(edges))
    return f"{n}|{role}|{history}|{'a' if answering else 't'}|{s}|{b}"


@cache
def load() -> dict[str, Table]:
    """The strategy tables by preset, read once from ``TABLE_FILE`` in the
    package. Empty when the file is missing, unreadable or not a valid table
    (``parse``; logged once): every state is then "not covered" and the
    caller decides by its own means, so a damaged file never stops the AI."""
    try:
        text = resources.files(__package__).joinpath(TABLE_FILE).read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as error:
        log.warning("%s unreadable (%s): strong searches every decision", TABLE_FILE, error)
        return {}
    try:
        return parse(text)
    except ValueError as error:
        log.warning("%s is not a valid table (%s): strong searches every decision",
                    TABLE_FILE, error)
        return {}


def parse(text: str) -> dict[str, Table]:
    """The strategy tables by preset from the text of ``TABLE_FILE``:
    ``{"presets": {name: {"potential_edges": [float], "strategies": {key: [float]}}}}``.

    Raises:
        ValueError: the text is not such a table (not JSON, a part missing or
            of the wrong type, a strategy not a finite probability distribution).
    """
    try:
        raw = json.loads(text)
        out: dict[str, Table] = {}
        for preset, body in raw["presets"].items():
            strategies = {str(k): tuple(float(x) for x in v)
                          for k, v in body["strategies"].items()}
            for key, probs in strategies.items():
                if not probs or not all(math.isfinite(p) and p >= 0 for p in probs) \
                        or abs(sum(probs) - 1.0) > 1e-3:
                    raise ValueError(f"{preset} {key}: not a probability distribution")
            edges = tuple(float(x) for x in body["potential_edges"])
            if not all(math.isfinite(x) for x in edges):
                raise ValueError(f"{preset}: a potential edge is not a number")
            out[str(preset)] = Table(edges, strategies)
    except (LookupError, TypeError, AttributeError) as error:  # the wrong shape
        raise ValueError(f"not a strategy table: {error!r}") from error
    return out  # json.JSONDecodeError is a ValueError


def concrete(action: str, obs: Observation) -> Decision:
    """The decision for an abstract ``action`` in ``obs`` (the seat to act):
    the card is ``best_card`` of the seat's hand."""
    if action in ("knock", "refuse"):
        return Decision(action)
    hand = tuple(obs.hand or ())
    seen = set(hand) | set(obs.shown_waste)
    unseen = [c for c in range(52) if c not in seen]
    card = best_card(hand, obs.rules.ranking, max(len(obs.active) - 1, 1), unseen)
    if action == "accept":
        return Decision("accept", card)
    kind, _, knock = action.partition("_")
    return Decision(kind, card, knock=bool(knock))


def pick(probs: Sequence[float], rng: random.Random) -> int:
    """The index of ``probs``' most likely action (the first of equals) when
    ``PURE``, else one drawn from ``probs``; one draw of ``rng`` either way."""
    draw = rng.random()
    top = max(range(len(probs)), key=lambda i: (probs[i], -i))
    if PURE:
        return top
    total = 0.0
    for i, p in enumerate(probs):
        total += p
        if draw < total:
            return i
    return top


def choose(view: SeatView, rng: random.Random, preset: str | None = None) -> Decision | None:
    """The table's decision for ``view.seat`` (the seat to act), or ``None``
    where the table does not cover the state.

    Args:
        view: what the seat knows.
        rng: the source of the mixed strategy's draw.
        preset: the preset's name (default: found from the rules).
    """
    obs = view.obs
    if obs.family != "trade" or obs.seat is None or obs.to_act != obs.seat or obs.hand is None:
        return None
    name = preset or _preset_of(obs.rules)
    table = load().get(name) if name is not None else None
    if table is None:
        return None
    history = history_of(view)
    if len(history) >= HISTORY_CAP:
        return None
    answering = obs.barter is not None
    actions = actions_for(obs.rules, answering, obs.stock_count)
    if len(actions) == 1:  # a barter that must be accepted (hoyle): only the card to give
        return concrete(actions[0], obs)
    key = table.key(obs.n_seats, role_of(obs.seat, obs.dealer, obs.n_seats, obs.rules.step),
                    history, answering, obs.hand, obs.rules.ranking)
    probs = table.strategies.get(key)
    if probs is None or len(probs) != len(actions):
        return None
    return concrete(actions[pick(probs, rng)], obs)


@cache
def _preset_of(rules: Rules) -> str | None:
    from .rules import get_preset

    for name in PRESETS:
        if get_preset(name) == rules:
            return name
    return None
