"""What a game record proves about its shuffle (docs/FAIRNESS.md "Verifying a
record"), as ``python -m bot.engine verify`` prints it.

Six checks, each ``proven``, ``not proven`` (nothing is wrong, but the claim does
not stand: a deal nobody cut, a record from before format 2, values still to
compare with Discord) or ``failed`` (the record contradicts itself or the values
given), always in this order:

- ``commitment``: SHA-256 of the revealed seed is the commitment;
- ``random``: the first dealer, every deck and every reshuffle are what the seed
  and the cuts give;
- ``cuts``: every deal was cut by at least one seated member;
- ``complete``: the record says how the game ended, that end matches its deals,
  and every attempt at a deal is accounted for;
- ``chain``: the chain over the record gives the head the record carries;
- ``published``: the commitment and the head are those the table channel showed
  (given by whoever checks, from the fair-shuffle message and the final standings).

The record is ``ok`` only when all six are proven.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .cards import Card, card_code
from .discard import DiscardDeal
from .fairness import Attempt, Cut, Shuffler, chain_entries, chain_heads
from .fairness_v1 import failed_checks
from .game import Game, replay
from .record import PROOF_KEYS, RecordError, record_format

#: the checks, in the order they are listed
CHECKS = ("commitment", "random", "cuts", "complete", "chain", "published")
PROVEN, NOT_PROVEN, FAILED = "proven", "not proven", "failed"
#: hex digits of a value given to compare with at least (a shorter one proves little)
MIN_GIVEN = 16

__all__ = ["CHECKS", "FAILED", "MIN_GIVEN", "NOT_PROVEN", "PROVEN", "RecordError",
           "verify_record"]


def verify_record(record: Any, *, commitment_shown: str | None = None,
                  head_shown: str | None = None) -> tuple[bool, dict[str, Any]]:
    """Check a game record's shuffle (docs/FAIRNESS.md "Verifying a record").

    Args:
        record: a decoded record (docs/RECORDS.md).
        commitment_shown: the commitment as the table channel's fair-shuffle
            message shows it (hex; at least ``MIN_GIVEN`` digits), or ``None``.
        head_shown: the record's head as the final standings show it (hex; at
            least ``MIN_GIVEN`` digits), or ``None``.

    Returns:
        ``(ok, summary)``: ``ok`` when every check is proven; ``summary`` has
        ``ok``, ``format``, ``table``, ``checks`` (``{"check", "status",
        "detail"}`` in ``CHECKS`` order), ``deals`` (each deal: who cut and how,
        and whether it derives) and, in format 2, ``commitment``, ``head`` (as
        computed), ``posted`` (a link to the fair-shuffle message) and ``burned``.

    Raises:
        RecordError: the record does not replay (``replay``), or a value given
            to compare with is not hex.
    """
    given = [_given(commitment_shown, "the commitment"), _given(head_shown, "the head")]
    game = replay(record)
    if record_format(record) == 1:
        return _format_1(record, game)
    return _format_2(record, game, given[0], given[1])


def _given(value: str | None, what: str) -> str | None:
    if value is None:
        return None
    text = value.strip().lower()
    if len(text) < MIN_GIVEN or any(c not in "0123456789abcdef" for c in text):
        raise RecordError(f"{what} to compare with must be at least {MIN_GIVEN} hex digits")
    return text


def _check(name: str, status: str, detail: str) -> dict[str, str]:
    return {"check": name, "status": status, "detail": detail}


def _numbers(numbers: Sequence[int]) -> str:
    text = ", ".join(str(n) for n in numbers[:10])
    return text + (f" and {len(numbers) - 10} more" if len(numbers) > 10 else "")


def _summary(fmt: int, game: Game, checks: list[dict[str, str]],
             **rest: Any) -> tuple[bool, dict[str, Any]]:
    ok = [c["check"] for c in checks] == list(CHECKS) and all(
        c["status"] == PROVEN for c in checks)
    return ok, {"ok": ok, "format": fmt, "table": game.table, **rest, "checks": checks}


# ------------------------------------------------------------------ format 2
def _cut_by(record: dict[str, Any], cuts: Sequence[Cut]) -> list[dict[str, Any]]:
    players = record["players"]
    return [{"seat": c.seat, "player": players[c.seat], "text": c.text} for c in cuts]


def _member_cuts(record: dict[str, Any], cuts: Sequence[Cut]) -> list[Cut]:
    """The cuts of seated members: not an AI seat's, and each seat's first only."""
    ai = {int(seat) for seat in (record.get("ai_levels") or {})}
    seen: set[int] = set()
    out = []
    for cut in cuts:
        if cut.seat not in ai and cut.seat not in seen:
            out.append(cut)
        seen.add(cut.seat)
    return out


def _first_difference(played: Sequence[Card], expected: Sequence[Card]) -> str:
    if len(played) != len(expected):
        return f"it has {len(played)} cards, the seed gives {len(expected)}"
    k = next(i for i, (a, b) in enumerate(zip(played, expected, strict=True)) if a != b)
    return f"card {k} is {card_code(played[k])}, the seed gives {card_code(expected[k])}"


def _derivation(game: Game, shuffler: Shuffler, index: int,
                attempt: Attempt | None) -> str | None:
    """Why deal ``index`` (from 0) does not derive from the seed, or ``None``: its
    deck, and each of its reshuffles in order."""
    number = index + 1
    if attempt is None:
        return f"deal {number} was not dealt from the seed (it has no attempt)"
    deal = game.deals[index]
    deck = shuffler.deck(number, attempt.attempt, attempt.cuts)
    if list(deal.deck) != deck:
        return f"deal {number}'s deck: {_first_difference(list(deal.deck), deck)}"
    if isinstance(deal, DiscardDeal):
        count = 0
        for op in deal.operations:
            order = getattr(op, "reshuffle", None)
            if op.kind != "draw" or order is None:
                continue
            count += 1
            expected = shuffler.reshuffle(number, attempt.attempt, attempt.cuts, count, order)
            if list(order) != expected:
                return (f"deal {number}'s reshuffle {count}: "
                        f"{_first_difference(list(order), expected)}")
    return None


def _complete(record: dict[str, Any], game: Game) -> tuple[str, str]:
    """The ``complete`` check: how the game ended, and every attempt accounted for."""
    log = game.shuffle_log
    assert log is not None
    end = record["shuffle"].get("end")
    if end is None:
        return NOT_PROVEN, "the record does not say how the game ended: it is not over"
    if end == "finished" and not game.complete:
        return FAILED, "the record says the game finished, but its deals do not end it"
    if end == "closed" and game.complete:
        return FAILED, "the record says the game was closed, but its deals end it"
    if not game.deals:
        return FAILED, "the record has no deal"
    tried: dict[int, list[int]] = {}
    for b in log.burned:
        tried.setdefault(b.deal, []).append(b.attempt)
    for number, attempt in enumerate(log.attempts, 1):
        if attempt is not None:
            tried.setdefault(number, []).append(attempt.attempt)
    for number, attempts in sorted(tried.items()):
        if sorted(attempts) != list(range(1, len(attempts) + 1)):
            return FAILED, f"the attempts at deal {number} are {attempts}, not 1, 2, … in turn"
        dealt = log.attempts[number - 1] if number <= len(log.attempts) else None
        if dealt is not None and dealt.attempt != len(attempts):
            return FAILED, f"deal {number} was dealt from an attempt before a burned one"
    if end == "finished" and len(game.deals) + 1 in tried:
        return FAILED, "the game finished, but an attempt at a deal after its last is burned"
    words = "finished" if end == "finished" else "was closed before its end"
    count = len(game.deals)
    return PROVEN, (f"the game {words} after {count} deal{'s' * (count != 1)}, every "
                    "attempt listed")


def _format_2(record: dict[str, Any], game: Game, commitment_shown: str | None,
              head_shown: str | None) -> tuple[bool, dict[str, Any]]:
    log, shuffler = game.shuffle_log, game.shuffler
    assert log is not None
    if shuffler is None:
        first = _check("commitment", NOT_PROVEN, "the seed is not revealed yet: the game is "
                                                 "not over")
    elif shuffler.commitment != log.commitment:
        first = _check("commitment", FAILED, f"SHA-256 of the seed is {shuffler.commitment}, "
                                             f"the commitment is {log.commitment}")
    else:
        first = _check("commitment", PROVEN, "SHA-256 of the seed is the commitment")
    deals, random_check, cuts_check = _deals(record, game)
    head = None
    if shuffler is not None:
        head = chain_heads(shuffler.chain_key(), [e for _, e in chain_entries(record)])[-1]
    posted = log.posted
    link = (None if posted is None else
            f"https://discord.com/channels/{posted['guild']}/{posted['channel']}/"
            f"{posted['message']}")
    checks = [first, random_check, cuts_check, _check("complete", *_complete(record, game)),
              _check("chain", *_chain(head, record["shuffle"].get("head"))),
              _check("published", *_published(log.commitment, head, link, commitment_shown,
                                              head_shown))]
    burned = [{"deal": b.deal, "attempt": b.attempt,
               "cut_by": _cut_by(record, _member_cuts(record, b.cuts)),
               "deck": None if shuffler is None else
               [card_code(c) for c in shuffler.deck(b.deal, b.attempt, b.cuts)]}
              for b in log.burned]
    return _summary(2, game, checks, commitment=log.commitment, head=head, posted=link,
                    deals=deals, burned=burned)


def _deals(record: dict[str, Any], game: Game,
           ) -> tuple[list[dict[str, Any]], dict[str, str], dict[str, str]]:
    """Each deal as ``verify`` lists it (its attempt, who cut it, whether it
    derives), and the ``random`` and ``cuts`` checks."""
    log, shuffler = game.shuffle_log, game.shuffler
    assert log is not None
    failures: list[str] = []
    uncut: list[int] = []
    deals: list[dict[str, Any]] = []
    for index, attempt in enumerate(log.attempts):
        item: dict[str, Any] = {"deal": index, "number": index + 1,
                                "attempt": None if attempt is None else attempt.attempt,
                                "cut_by": [] if attempt is None else
                                _cut_by(record, _member_cuts(record, attempt.cuts))}
        why = None if shuffler is None else _derivation(game, shuffler, index, attempt)
        if why is not None:
            failures.append(why)
            item.update(status=FAILED, detail=why)
        elif not item["cut_by"]:
            uncut.append(index + 1)
            item.update(status="not cut", detail="not cut by anyone: its shuffle is the "
                                                  "bot's alone")
        else:
            item.update(status=PROVEN if shuffler else NOT_PROVEN)
        deals.append(item)
    if shuffler is not None and log.attempts and log.attempts[0] is not None:
        first = log.attempts[0]
        expected = shuffler.first_dealer(game.n, first.attempt, first.cuts)
        if expected != game.first_dealer:
            failures.insert(0, f"the first dealer is seat {game.first_dealer}, the seed "
                               f"gives seat {expected}")
    if shuffler is None:
        random_check = _check("random", NOT_PROVEN, "the seed is not revealed yet")
    elif failures:
        random_check = _check("random", FAILED, "; ".join(failures[:5]))
    elif not game.deals:
        random_check = _check("random", NOT_PROVEN, "no deal was dealt")
    else:
        random_check = _check("random", PROVEN, "the first dealer, every deck and every "
                                                "reshuffle are what the seed and the cuts give")
    if uncut:
        were = "were" if len(uncut) > 1 else "was"
        cuts_check = _check("cuts", NOT_PROVEN, f"deal{'s' * (len(uncut) > 1)} "
                            f"{_numbers(uncut)} {were} not cut by anyone: the bot alone chose "
                            f"{'those shuffles' if len(uncut) > 1 else 'that shuffle'}")
    elif not game.deals:
        cuts_check = _check("cuts", NOT_PROVEN, "no deal was dealt")
    else:
        cuts_check = _check("cuts", PROVEN, "every deal was cut by a seated member")
    return deals, random_check, cuts_check


def _chain(head: str | None, claimed: str | None) -> tuple[str, str]:
    if head is None:
        return NOT_PROVEN, "the seed, the chain's key, is not revealed"
    if claimed is None:
        return NOT_PROVEN, "the record carries no head"
    if claimed.lower() != head:
        return FAILED, (f"the record's entries give the head {head}, the record says "
                        f"{claimed.lower()}: it was changed")
    return PROVEN, "the chain over the record gives its head"


def _published(committed: str, head: str | None, link: str | None,
               commitment_shown: str | None, head_shown: str | None) -> tuple[str, str]:
    wrong = []
    if commitment_shown is not None and not committed.startswith(commitment_shown):
        wrong.append(f"the commitment shown ({commitment_shown}) is not the record's "
                     f"({committed})")
    if head_shown is not None and (head is None or not head.startswith(head_shown)):
        wrong.append(f"the head shown ({head_shown}) is not the record's ({head})")
    if wrong:
        return FAILED, "; ".join(wrong)
    missing = []
    if commitment_shown is None:
        where = f"the fair-shuffle message ({link})" if link else "the fair-shuffle message"
        missing.append(f"the commitment {committed} with {where} (--commitment)")
    if head_shown is None:
        missing.append(f"the head {head or '(not known yet)'} with the final standings "
                       "(--head)")
    if missing:
        return NOT_PROVEN, "compare " + " and ".join(missing)
    return PROVEN, "the commitment and the head are those the table channel showed"


# ------------------------------------------------------------------ format 1
def _format_1(record: dict[str, Any], game: Game) -> tuple[bool, dict[str, Any]]:
    deals: list[dict[str, Any]] = []
    commitments: list[str] = []
    decks: list[str] = []
    missing = 0
    seeds: dict[bytes, int] = {}
    for index, (deal, proof) in enumerate(zip(game.deals, game.proofs, strict=True)):
        number = index + 1
        item: dict[str, Any] = {"deal": index, "number": number}
        lacking = [key for key in PROOF_KEYS if proof is None or getattr(proof, key) is None]
        if lacking or game.table is None:
            missing += 1
            item.update(status="unverifiable", detail=f"the deal has no {', '.join(lacking)}"
                        if lacking else "the record has no table")
            deals.append(item)
            continue
        assert proof is not None and proof.seed is not None and proof.cuts is not None
        assert proof.commitment is not None
        found = failed_checks(proof.commitment, proof.seed, proof.cuts, game.table, number,
                              game.rules.name, deal.deck)
        if proof.seed in seeds:
            found.append(("seed", f"it is deal {seeds[proof.seed]}'s seed again"))
        seeds.setdefault(proof.seed, number)
        for check, why in found:
            (commitments if check == "commitment" else decks).append(f"deal {number}: {why}")
        item["status"] = "failed" if found else "verified"
        if found:
            item["failed"] = [{"check": c, "reason": r} for c, r in found]
        deals.append(item)
    old = "a format 1 record"
    checks = [
        _check("commitment", FAILED, "; ".join(commitments[:5])) if commitments else
        _check("commitment", NOT_PROVEN, f"{missing} deals lack their proof") if missing or
        not deals else _check("commitment", PROVEN, "each deal's seed hashes to its commitment"),
        _check("random", FAILED, "; ".join(decks[:5])) if decks else
        _check("random", NOT_PROVEN, f"{old}: only the decks derive from seeds; the first "
                                     "dealer and the reshuffles do not"),
        _check("cuts", NOT_PROVEN, f"{old}: its cuts are the ids of presses, which no member "
                                   "can see, or the bot's own bytes"),
        _check("complete", NOT_PROVEN, f"{old} does not say how the game ended"),
        _check("chain", NOT_PROVEN, f"{old} has no chain: edits cannot be detected"),
        _check("published", NOT_PROVEN, f"{old}'s commitments were shown on messages the bot "
                                        "edits afterwards"),
    ]
    return _summary(1, game, checks, deals=deals)
