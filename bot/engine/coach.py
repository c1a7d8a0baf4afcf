"""The coach (docs/AI.md "Coach"): the strong AI's choice for a member's own
decision, with the figure that explains it — how often the member's hand, as it
is now, would win a showdown against the hands the others may hold.

Like the strong AI it sees only the member's view (``view.seat_view``): the other
hands are sampled from the worlds consistent with it, never read from the deal.

The same position gives the same hint: the search and the showdown figure draw
their worlds from a seed made of the member's view alone (``hint_seed``), and
the search has a fixed number of playouts (``BUDGET``; its clock is only a
safety net) in which every candidate is played in the same worlds.
"""

from __future__ import annotations

import dataclasses
import hashlib
import random
from dataclasses import dataclass

from . import strong
from .family import Decision, Observation
from .hands import describe, score
from .strong import Budget
from .view import SeatView

#: sampled worlds behind the showdown figure
WORLDS = 200
#: the coach's search: a fixed number of playouts, so that the hint is a function of
#: the position; the deadline is a safety net on a very slow machine only (past it
#: the search stops early and the hint may differ)
BUDGET = Budget(playouts=600, seconds=0.6)


@dataclass(frozen=True)
class Advice:
    """What the coach suggests.

    Attributes:
        decision: the strong AI's choice for the seat's decision now.
        wins: the share (0..1) of sampled worlds in which the seat's hand, as it is
            now, beats every other hand still in play (a tie counts as a share).
        worlds: how many worlds ``wins`` was measured on.
    """

    decision: Decision
    wins: float
    worlds: int


def showdown_share(view: SeatView, rng: random.Random, worlds: int = WORLDS) -> float:
    """The share (0..1) of ``worlds`` sampled worlds, consistent with ``view``, in
    which the seat's hand now beats every other active hand at a showdown
    (ranked as the preset ranks hands, docs/RULES.md §1); a tie of k hands counts
    1/k. ``0.0`` when the seat holds no hand yet."""
    me = view.seat
    if not view.obs.hand:
        return 0.0
    ranking = view.obs.rules.ranking
    total = 0.0
    for _ in range(worlds):
        deal = strong.world(view, rng)
        scores = {s: score(deal.hands[s], ranking) for s in deal.active if deal.hands[s]}
        mine = scores.get(me)
        if mine is None:
            continue
        best = max(scores.values())
        if mine == best:
            total += 1 / sum(1 for v in scores.values() if v == best)
    return total / worlds


#: decisions that end the player's exchanging: the hand as it is goes to the showdown
STOPS = frozenset({"knock", "stand", "keep_hand", "pass", "refuse", "pounce"})


#: the reasons ``explain`` gives, as templates (the UI words them in each language)
REASONS = ("it is the choice that does best for the hands you could hold",
           "your {hand} wins about {share}% of showdowns here",
           "your {hand} would win only about {share}% of showdowns as it is")


def reason(advice: Advice, obs: Observation) -> tuple[str, dict[str, object]]:
    """The reason for ``advice`` as one of ``REASONS`` and its fields: ``hand``
    (the seat's hand as ``describe`` names it) and ``share`` (whole percent)."""
    if not obs.hand:  # a dealer who has not looked yet: no figure to give
        return REASONS[0], {}
    fields: dict[str, object] = {"hand": describe(obs.hand, obs.rules.ranking),
                                 "share": round(advice.wins * 100)}
    if advice.decision.kind in STOPS or advice.decision.knock:
        return REASONS[1], fields
    return REASONS[2], fields


def explain(advice: Advice, obs: Observation) -> str:
    """One line of reason for ``advice``, given to the seat that asked (its own
    hand is named), e.g. "your sequence to 8 wins about 83% of showdowns here"
    (``reason``, in English: the words the game record keeps)."""
    template, fields = reason(advice, obs)
    return template.format(**fields)


def _canonical(value: object) -> str:
    """A text of ``value`` that is the same in every process (sets and mappings
    in sorted order, so ``PYTHONHASHSEED`` plays no part)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        inner = ",".join(f"{f.name}={_canonical(getattr(value, f.name))}"
                         for f in dataclasses.fields(value))
        return f"{type(value).__name__}({inner})"
    if isinstance(value, tuple | list):
        return "[" + ",".join(_canonical(v) for v in value) + "]"
    if isinstance(value, set | frozenset):
        return "{" + ",".join(sorted(_canonical(v) for v in value)) + "}"
    if isinstance(value, dict):
        return "{" + ",".join(sorted(f"{_canonical(k)}:{_canonical(v)}"
                                     for k, v in value.items())) + "}"
    return repr(value)


def hint_seed(view: SeatView) -> int:
    """The seed (0 <= seed < 2**64) of the hint's sampling: a hash (BLAKE2b) of
    everything in ``view`` — the seat's own observation and memory of the deal,
    never a card it has not seen — so two positions the seat cannot tell apart
    get the same seed, in any process."""
    digest = hashlib.blake2b(_canonical(view).encode(), digest_size=8,
                             person=b"commerce-hint").digest()
    return int.from_bytes(digest, "big")


def advise(view: SeatView, rng: random.Random | None = None,
           budget: Budget | None = None, worlds: int = WORLDS) -> Advice:
    """The coach's advice for ``view.seat``, which must be the seat to act: a
    function of ``view`` (and ``budget``) alone when ``rng`` is not given.

    Args:
        view: what the seat knows (``view.seat_view(deal, seat)``).
        rng: tests only: the random source of the sampled worlds instead of
            the ones seeded by ``hint_seed(view)``.
        budget: the strong AI's budget (default ``BUDGET``).
        worlds: worlds sampled for ``Advice.wins``.

    Raises:
        ValueError: not this seat's decision.
    """
    if rng is None:
        decision = hint(view, budget)
        sampling = random.Random(f"{hint_seed(view)}:showdown")
    else:
        decision = strong.choose(view, rng, budget or BUDGET)
        sampling = rng
    return Advice(decision, showdown_share(view, sampling, worlds), worlds)


def hint(view: SeatView, budget: Budget | None = None) -> Decision:
    """The decision ``advise`` suggests for ``view.seat`` (without the showdown
    figure): the strong AI's search with ``budget`` (default ``BUDGET``), its
    worlds drawn from ``hint_seed(view)``. The arena's ``coached`` seat plays it.

    Raises:
        ValueError: not this seat's decision.
    """
    return strong.choose(view, random.Random(f"{hint_seed(view)}:search"), budget or BUDGET)
