"""The ``normal`` AI level: a heuristic that counts the unseen cards (docs/AI.md).

Like ``easy.choose_easy`` it decides from the seat's observation alone. It rates
a hand by its *percentile*: the share of all 22,100 three-card hands of the
ranking that it beats (ties half). Against ``k`` opponents a hand of percentile
``p`` wins about ``p ** k`` of the time and is the worst about ``(1 - p) ** k``
of the time; each family turns those into what it pays:

- trade and barter: for each card it could give up, the exact distribution of
  the hand it would hold after a trade or a barter, over every card it has not
  seen (its chance to improve, ``improve_chance``, and its expected chance to
  win). It knocks when the hand it holds is worth more than an exchange, the
  exchange discounted for the opponents' next turns (``EXCHANGE_DISCOUNT``);
  it trades rather than barters when the better chance is worth the fee and
  the risk that the neighbour refuses by knocking; the dealer trades for
  free; it refuses a barter (by knocking) on the same test. Under hoyle it
  may knock after its exchange when the new hand is expected to be better.
- widow: the swap that leaves the best hand; with no improving swap, a hand
  below ``WEAK`` makes the swap that most raises its chance to improve when
  new cards reach the widow instead of knocking; the dealer takes the widow
  when it beats the best the hand could reach by one swap.
- oldway: the exchange (one to three cards) that leaves the best hand, else
  stand; the blind dealer takes the middle only when it is almost never the
  worst hand (``OLDWAY_TAKE``); always pounce and buy the horse.
- jaques: a knock costs a chip, so it never knocks before the deal runs long;
  it takes the discard when that beats the expected hand after a draw (every
  unseen card counted), keeps a drawn or offered card when it helps, and
  passes when its hand is safe (``JAQUES_PASS``) so that the deal can end. It
  makes no direct-trade offers.

Every deal ends: after ``LATE_CIRCUITS`` circuits it stops (knocks, stands or
passes). The constants were tuned in the arena against ``easy`` (docs/AI.md).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right

from .cards import Card
from .family import Decision, Observation
from .hands import Ranking, score, score_table
from .moves import best_swap, by_family, forced_widow, keep_or_throw

__all__ = ["LATE_CIRCUITS", "LIFE_VALUE", "choose", "improve_chance", "late", "patient",
           "percentile", "unseen"]

LATE_CIRCUITS = 8  # after this many circuits the normal level ends the deal

#: trade family: an exchange is worth this share of its expected chance to win
#: (the opponents move too before the deal ends)
EXCHANGE_DISCOUNT = 0.8
#: trade family: the chance a neighbour refuses a barter by knocking
BARTER_REFUSAL = 0.15
#: widow: knock once the chance to win against the opponents reaches this
WIDOW_KNOCK = 1.1
#: widow and oldway: a safe hand still swaps when that gains this share of the pool
SAFE_GAIN = 0.0
#: widow: a hand below this percentile, with no swap that improves it, makes the
#: swap that most raises its chance to improve instead of knocking
WEAK = 0.85
#: widow: such a swap may lower the hand's percentile by at most this
SETUP_LOSS = 0.3
#: widow: the same, once another seat has knocked (a knock would end play)
WEAK_AFTER_KNOCK = 0.85
#: oldway: stand once the chance of holding the worst hand is at most this
OLDWAY_STAND = 0.12
#: oldway: the blind dealer takes the middle when it is the worst this rarely
OLDWAY_TAKE = 0.02
#: oldway: a life is worth this many points (the stake it cost)
LIFE_VALUE = 3.0
#: jaques: pass once the chance of holding the lowest hand is at most this
JAQUES_PASS = 0.12
#: jaques, ``patient``: pass only holding a hand of at least this percentile (0.9
#: until issue 25's third session: a seat passing at 0.9 was behind the tuned
#: threshold player, one that passes at 0.99 level with it; docs/AI.md)
PATIENT_PASS = 0.99

_PERCENTILES: dict[str, dict[int, float]] = {}
_SORTED: dict[str, list[int]] = {}


def percentile(hand_score: int, ranking: Ranking) -> float:
    """The share of all three-card hands of ``ranking`` that a hand of
    ``hand_score`` beats, ties counting half (four of a kind: 1.0)."""
    table = _PERCENTILES.get(ranking)
    if table is None:
        table = _PERCENTILES[ranking] = {}
        _SORTED[ranking] = sorted(score_table(ranking).values())
    value = table.get(hand_score)
    if value is None:
        scores = _SORTED[ranking]
        lo, hi = bisect_left(scores, hand_score), bisect_right(scores, hand_score)
        value = table[hand_score] = (lo + (hi - lo) / 2) / len(scores)
    return value


_BY_MASK: dict[str, dict[int, float]] = {}


def _mask_table(ranking: Ranking) -> dict[int, float]:
    """``{card mask: percentile}`` for every three-card hand of ``ranking``."""
    table = _BY_MASK.get(ranking)
    if table is None:
        table = _BY_MASK[ranking] = {
            mask: percentile(value, ranking) for mask, value in score_table(ranking).items()
        }
    return table


def _pct(cards: tuple[Card, ...] | list[Card], ranking: Ranking) -> float:
    if len(cards) != 3:
        return percentile(score(cards, ranking), ranking)
    a, b, c = cards
    return _mask_table(ranking)[(1 << a) | (1 << b) | (1 << c)]


def unseen(obs: Observation, *extra: Card | None) -> list[Card]:
    """The cards ``obs.seat`` has not seen in this observation: not in its hand,
    not face up (widow, discard top, shown waste), not ``extra``."""
    seen = set(obs.hand or ()) | set(obs.widow or ()) | set(obs.shown_waste)
    if obs.discard_top is not None:
        seen.add(obs.discard_top)
    seen.update(c for c in extra if c is not None)
    return [c for c in range(52) if c not in seen]


def _circuits(obs: Observation) -> int:
    return obs.moves // max(len(obs.active) or obs.n_seats, 1)


def late(obs: Observation) -> bool:
    """Whether the deal has run long enough that this level stops (knocks,
    stands or passes): ``LATE_CIRCUITS`` circuits, twice that in the trade
    family. The flat player (``flat.choose``) plays this level's decision then."""
    return _circuits(obs) >= LATE_CIRCUITS * (2 if obs.family == "trade" else 1)


def _opponents(obs: Observation) -> int:
    return max(len(obs.active) - 1, 1)


def _win(p: float, k: int) -> float:
    return float(p**k)


#: ``_expected_after``'s answers by its arguments (``(kept, tuple(pool), ranking,
#: k)``): the strong AI's playouts ask the same questions again and again (a
#: seat's hand and the cards it has seen recur from world to world); emptied
#: whenever it reaches ``EXPECTED_CACHE_SIZE`` entries
_EXPECTED: dict[tuple[tuple[Card, ...], tuple[Card, ...], str, int], tuple[float, float]] = {}
#: per (two kept cards as a mask, ranking, k): for every third card, the hand's
#: percentile ``p`` (0.0 for a kept card) and ``p ** k``
_ROWS: dict[tuple[int, str, int], tuple[list[float], list[float]]] = {}
#: about 14 MB at the most (each key holds its pool's tuple of ~47 cards: 200,000 entries
#: took ~137 MB); most hits come within one decision's playouts, which add a few thousand
#: entries: 25 strong foster deals took the same CPU time at 20,000 as at 200,000
EXPECTED_CACHE_SIZE = 20_000
#: False: ``_expected_after`` computes every answer afresh, card by card (tests
#: check that both ways give the same floats, hence the same decisions)
CACHE_EXPECTED = True


def _expected_after(kept: tuple[Card, ...], pool: list[Card], ranking: Ranking, k: int,
                    ) -> tuple[float, float]:
    """(expected chance to win, mean percentile) of ``kept`` plus one card drawn
    uniformly from ``pool``. Remembered (``_EXPECTED``) and summed from a row
    of precomputed powers (``_ROWS``), in ``pool``'s order as the plain
    computation sums: the same floats."""
    if not CACHE_EXPECTED or len(kept) != 2 or not pool:
        return _expected_plain(kept, pool, ranking, k)
    key = (kept, tuple(pool), ranking, k)
    found = _EXPECTED.get(key)
    if found is not None:
        return found
    if len(_EXPECTED) >= EXPECTED_CACHE_SIZE:
        _EXPECTED.clear()
    base = (1 << kept[0]) | (1 << kept[1])
    row = _ROWS.get((base, ranking, k))
    if row is None:
        if len(_ROWS) >= EXPECTED_CACHE_SIZE // 50:
            _ROWS.clear()
        table = _mask_table(ranking)
        shares = [0.0 if base >> c & 1 else table[base | (1 << c)] for c in range(52)]
        row = _ROWS[(base, ranking, k)] = (shares, [p**k for p in shares])
    shares, wins = row
    total_win = total_p = 0.0
    for card in pool:
        total_win += wins[card]
        total_p += shares[card]
    found = _EXPECTED[key] = (total_win / len(pool), total_p / len(pool))
    return found


def _expected_plain(kept: tuple[Card, ...], pool: list[Card], ranking: Ranking, k: int,
                    ) -> tuple[float, float]:
    """``_expected_after`` computed card by card, nothing remembered."""
    if not pool:
        p = _pct(kept, ranking) if len(kept) == 3 else 0.0
        return _win(p, k), p
    table = _mask_table(ranking)
    base = 0
    for card in kept:
        base |= 1 << card
    total_win = total_p = 0.0
    for card in pool:
        p = table[base | (1 << card)]
        total_win += p**k
        total_p += p
    return total_win / len(pool), total_p / len(pool)


def improve_chance(hand: tuple[Card, ...], out: Card, pool: list[Card], ranking: Ranking) -> float:
    """The exact chance that giving up ``out`` for a card drawn uniformly from
    ``pool`` leaves a better hand than ``hand``."""
    if not pool:
        return 0.0
    now = score(hand, ranking)
    kept = tuple(c for c in hand if c != out)
    return sum(1 for c in pool if score((*kept, c), ranking) > now) / len(pool)


def choose(obs: Observation) -> Decision:
    """Decide for ``obs.seat``, which must be ``obs.to_act``.

    Raises:
        ValueError: the observation is public or not this seat's decision.
    """
    return by_family(obs, _choose_trade, _choose_widow, _choose_discard)


def patient(obs: Observation) -> Decision:
    """``choose``, but in jaques it passes only holding a hand of percentile
    ``PATIENT_PASS`` or better (before the late circuits), where ``choose``
    passes as soon as its hand is rarely the lowest: the rollout policy and the
    default of the strong level (docs/AI.md "How strong decides"). The same
    as ``choose`` in the other families.

    Raises:
        ValueError: as ``choose``.
    """
    return by_family(obs, _choose_trade, _choose_widow, _choose_patient)


def _choose_patient(obs: Observation, hand: tuple[Card, ...]) -> Decision:
    return _choose_discard(obs, hand, patient=True)


# ----------------------------------------------------------------- trade family
def _choose_trade(obs: Observation, hand: tuple[Card, ...]) -> Decision:
    rules = obs.rules
    ranking = rules.ranking
    k = _opponents(obs)
    pool = unseen(obs)
    now = _win(_pct(hand, ranking), k)
    options = []
    for out in hand:
        kept = tuple(c for c in hand if c != out)
        win, _ = _expected_after(kept, pool, ranking, k)
        options.append((win, out))
    best_win, best_out = max(options, key=lambda o: (o[0], -o[1]))
    if obs.barter is not None:
        if rules.barter_refusal and now >= EXCHANGE_DISCOUNT * best_win:
            return Decision("refuse")
        return Decision("accept", best_out)
    if late(obs):
        return Decision("knock")
    stake = max(obs.pool, 1)
    fee = 0 if obs.seat == obs.dealer else rules.trade_fee
    values: list[tuple[float, Decision]] = [(stake * now, Decision("knock"))]
    cont = EXCHANGE_DISCOUNT * best_win
    if "trade" in obs.legal:
        values.append((stake * cont - fee, Decision("trade", best_out)))
        if rules.knock_after_exchange:
            values.append((stake * best_win - fee, Decision("trade", best_out, knock=True)))
    refusal = BARTER_REFUSAL if rules.barter_refusal else 0.0
    values.append((stake * ((1 - refusal) * cont + refusal * now) - 0.01,
                   Decision("barter", best_out)))
    if rules.knock_after_exchange:
        values.append((stake * best_win - 0.01, Decision("barter", best_out, knock=True)))
    return max(values, key=lambda v: v[0])[1]


# ----------------------------------------------------------------- widow family
def _widow_value(p: float, obs: Observation) -> float:
    """What a hand of percentile ``p`` is worth at the showdown, in points."""
    k = _opponents(obs)
    if obs.rules.lives:
        return float(p**k) - LIFE_VALUE * float((1 - p) ** k)
    return max(obs.pool, 1) * float(p**k)


def _best_swap(hand: tuple[Card, ...], widow: tuple[Card, ...], obs: Observation,
               ) -> tuple[float, tuple[Card, ...], tuple[Card, ...]] | None:
    ranking = obs.rules.ranking
    return best_swap(hand, widow, obs.rules.swap_max, lambda after: _pct(after, ranking))


def _choose_widow(obs: Observation) -> Decision:
    legal = obs.legal
    widow = obs.widow or ()
    ranking = obs.rules.ranking
    k = _opponents(obs)
    forced = forced_widow(obs)
    if forced is not None:
        return forced
    if "take_widow" in legal:
        middle = _pct(widow, ranking)
        if obs.hand is None:  # oldway: blind, and the taker stands
            return Decision("take_widow" if (1 - middle) ** k <= OLDWAY_TAKE else "keep_hand")
        reach = _best_swap(obs.hand, widow, obs)
        keep = max(_pct(obs.hand, ranking), reach[0] if reach else 0.0)
        return Decision("take_widow" if middle > keep else "keep_hand")
    assert obs.hand is not None
    hand = obs.hand
    stop = "knock" if "knock" in legal else "stand"
    if late(obs):
        return Decision(stop)
    now = _pct(hand, ranking) if len(hand) == 3 else 1.0
    best = _best_swap(hand, widow, obs)
    if obs.rules.lives:
        safe = (1 - now) ** k <= OLDWAY_STAND
    else:
        safe = now**k >= WIDOW_KNOCK
    if best is not None and best[0] > now and not (
            safe and _widow_value(best[0], obs) - _widow_value(now, obs) < SAFE_GAIN * max(obs.pool, 1)):
        return Decision("swap", give=best[1], take=best[2])
    weak = WEAK if not obs.stood else WEAK_AFTER_KNOCK
    if not safe and now < weak and obs.rules.swap_max == 1:
        setup = _setup_swap(hand, widow, obs)
        if setup is not None:
            return setup
    return Decision(stop)


def _setup_swap(hand: tuple[Card, ...], widow: tuple[Card, ...], obs: Observation) -> Decision | None:
    """A swap that keeps the hand about as good and most raises its chance to
    improve when a new card reaches the widow (every unseen card counted)."""
    ranking = obs.rules.ranking
    table = _mask_table(ranking)
    now = _pct(hand, ranking)
    bits = [1 << c for c in unseen(obs)]
    if not bits:
        return None
    means: dict[int, float] = {}

    def mean(pair: int) -> float:  # the mean percentile of a kept pair plus an unseen card
        value = means.get(pair)
        if value is None:
            value = means[pair] = sum([table[pair | bit] for bit in bits]) / len(bits)
        return value

    best: tuple[float, Decision] | None = None
    for give in hand:
        for take in widow:
            after = [c for c in hand if c != give] + [take]
            if _pct(after, ranking) < now - SETUP_LOSS:
                continue
            a, b, c = (1 << x for x in after)
            potential = max(mean(b | c), mean(a | c), mean(a | b))
            if best is None or potential > best[0]:
                best = (potential, Decision("swap", give=(give,), take=(take,)))
    return None if best is None else best[1]


# --------------------------------------------------------------- discard family
def _best_with(hand: tuple[Card, ...], card: Card, ranking: Ranking) -> tuple[float, Card | None]:
    """The best percentile from putting ``card`` in place of one hand card, and
    the card to give up (``None`` when no exchange beats the hand)."""
    table = _mask_table(ranking)
    a, b, c = hand
    new = 1 << card
    best_p, best_out = table[(1 << a) | (1 << b) | (1 << c)], None
    for out, mask in ((a, (1 << b) | (1 << c)), (b, (1 << a) | (1 << c)), (c, (1 << a) | (1 << b))):
        p = table[mask | new]
        if p > best_p:
            best_p, best_out = p, out
    return best_p, best_out


def _draw_value(hand: tuple[Card, ...], pool: list[Card], ranking: Ranking) -> float:
    """The expected percentile after a draw from ``pool``, keeping the card when
    it helps (every card counted)."""
    table = _mask_table(ranking)
    a, b, c = hand
    now = table[(1 << a) | (1 << b) | (1 << c)]
    pairs = ((1 << b) | (1 << c), (1 << a) | (1 << c), (1 << a) | (1 << b))
    total = 0.0
    for card in pool:
        new = 1 << card
        total += max(now, table[pairs[0] | new], table[pairs[1] | new], table[pairs[2] | new])
    return total / len(pool)


def _choose_discard(obs: Observation, hand: tuple[Card, ...], patient: bool = False) -> Decision:
    legal = obs.legal
    ranking = obs.rules.ranking
    k = _opponents(obs)
    answer = keep_or_throw(obs, lambda card: _best_with(hand, card, ranking)[1])
    if answer is not None:
        return answer
    now = _pct(hand, ranking)
    if late(obs):
        return Decision("pass") if "pass" in legal else Decision("knock")
    if "pass" in legal and (now >= PATIENT_PASS if patient else (1 - now) ** k <= JAQUES_PASS):
        return Decision("pass")
    pool = unseen(obs, obs.discard_top)
    draw_value = _draw_value(hand, pool, ranking) if pool else now
    if obs.discard_top is not None:
        top_p, out = _best_with(hand, obs.discard_top, ranking)
        if out is not None and (top_p >= draw_value or "draw" not in legal):
            return Decision("take_discard", out)
    if "draw" in legal:
        return Decision("draw")
    return Decision("pass")
