"""A second verifier of game records, written from docs/FAIRNESS.md alone.

It imports nothing of ``bot``: only the standard library and the page. The tests run it
beside ``python -m bot.engine verify`` on records of games played through the simulated
Discord, in every preset, and on changed records, and compare what the two say
(``tests/engine/test_fairness.py``, ``tests/cogs/test_fair_deals.py``).

The one thing the page leaves to the rules of the game — whether the deals of a record end
the game — is passed in (``complete``, as ``python -m bot.engine replay`` prints it).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import sys
from collections.abc import Iterator
from typing import Any

RANKS, SUITS = "23456789TJQKA", "cdhs"
CHECKS = ("commitment", "random", "cuts", "complete", "chain", "published")


# ------------------------------------------------------------------ "The algorithm"
def u32(x: int) -> bytes:
    return x.to_bytes(4, "big")


def u64(x: int) -> bytes:
    return x.to_bytes(8, "big")


def lp(b: bytes) -> bytes:
    return u32(len(b)) + b


def encode_cuts(cuts: list[tuple[int, str]]) -> bytes:
    out = u32(len(cuts))
    for seat, text in cuts:
        out += u32(seat) + lp(text.encode("utf-8"))
    return out


def message(label: str, table: int, preset: str, deal: int, attempt: int, index: int,
            cuts: list[tuple[int, str]]) -> bytes:
    return (lp(b"commerce-v2") + lp(label.encode("utf-8")) + u64(table)
            + lp(preset.encode("utf-8")) + u64(deal) + u32(attempt) + u32(index)
            + encode_cuts(cuts))


def block(seed: bytes, msg: bytes, k: int) -> bytes:
    assert len(seed) == 32
    return hmac.new(seed, msg + u32(k), hashlib.sha256).digest()


def values(seed: bytes, msg: bytes) -> Iterator[int]:
    k = 0
    while True:
        b = block(seed, msg, k)
        for i in range(0, 32, 4):
            yield int.from_bytes(b[i:i + 4], "big")
        k += 1


def number_below(stream: Iterator[int], n: int) -> int:
    limit = (2**32 // n) * n
    v = next(stream)
    while v >= limit:
        v = next(stream)
    return v % n


def shuffle(stream: Iterator[int], items: list[Any]) -> list[Any]:
    items = list(items)
    for i in range(len(items) - 1, 0, -1):
        j = number_below(stream, i + 1)
        items[i], items[j] = items[j], items[i]
    return items


def code(card: int) -> str:
    return RANKS[card // 4] + SUITS[card % 4]


def number(card_code: str) -> int:
    return RANKS.index(card_code[0]) * 4 + SUITS.index(card_code[1])


def first_dealer(seed: bytes, table: int, preset: str, seats: int, attempt: int,
                 cuts: list[tuple[int, str]]) -> int:
    return number_below(values(seed, message("first-dealer", table, preset, 1, attempt, 0,
                                             cuts)), seats)


def deck(seed: bytes, table: int, preset: str, deal: int, attempt: int,
         cuts: list[tuple[int, str]]) -> list[str]:
    stream = values(seed, message("deck", table, preset, deal, attempt, 0, cuts))
    return [code(c) for c in shuffle(stream, list(range(52)))]


def reshuffle(seed: bytes, table: int, preset: str, deal: int, attempt: int, index: int,
              cuts: list[tuple[int, str]], cards: list[str]) -> list[str]:
    stream = values(seed, message("reshuffle", table, preset, deal, attempt, index, cuts))
    return [code(c) for c in shuffle(stream, sorted(number(c) for c in cards))]


def chain_key(seed: bytes, table: int) -> bytes:
    return block(seed, message("chain", table, "", 0, 0, 0, []), 0)


def canonical(entry: Any) -> bytes:
    return json.dumps(entry, sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False).encode("utf-8")


def heads(key: bytes, entries: list[dict[str, Any]]) -> list[str]:
    h = bytes(32)
    out = []
    for e in entries:
        h = hmac.new(key, h + canonical(e), hashlib.sha256).digest()
        out.append(h.hex())
    return out


def entries(record: dict[str, Any]) -> list[dict[str, Any]]:
    """The chain's entries of a format 2 record ("The chain")."""
    shuffle_part = record["shuffle"]
    out: list[dict[str, Any]] = [{
        "entry": "header", "format": 2, "table": record.get("table"),
        "rules": record.get("rules"), "options": record.get("options"),
        "players": record.get("players"), "ai_levels": record.get("ai_levels", {}),
        "first_dealer": record.get("first_dealer"),
        "commitment": shuffle_part.get("commitment"), "posted": shuffle_part.get("posted")}]
    burned = sorted(shuffle_part.get("burned", []), key=lambda b: (b["deal"], b["attempt"]))
    deals = record["deals"]

    def burned_entry(b: dict[str, Any]) -> dict[str, Any]:
        return {"entry": "burned", "deal": b["deal"], "attempt": b["attempt"],
                "cuts": b.get("cuts")}

    for n, d in enumerate(deals, 1):
        out += [burned_entry(b) for b in burned if b["deal"] == n]
        out.append({"entry": "deal", "deal": n, "attempt": d.get("attempt"),
                    "cuts": d.get("cuts"), "deck": d.get("deck"), "actions": d.get("actions")})
    out += [burned_entry(b) for b in burned if not 1 <= b["deal"] <= len(deals)]
    if "end" in shuffle_part:
        out.append({"entry": "end", "end": shuffle_part["end"], "deals": len(deals)})
    return out


# ------------------------------------------------------------------ "Verifying a record"
def verify(record: dict[str, Any], complete: bool, commitment_shown: str | None = None,
           head_shown: str | None = None) -> dict[str, Any]:
    """The six checks of a format 2 record, each ``proven``, ``not proven`` or
    ``failed``, and each deal's status; ``complete``: the deals end the game."""
    if record.get("format") != 2:
        return {"ok": False, "checks": {c: "not proven" for c in CHECKS}, "deals": []}
    part = record["shuffle"]
    seed = bytes.fromhex(part["seed"]) if "seed" in part else None
    checks: dict[str, str] = {}
    if seed is None:
        checks["commitment"] = "not proven"
    else:
        ok = hashlib.sha256(seed).hexdigest() == part["commitment"].lower()
        checks["commitment"] = "proven" if ok else "failed"
    statuses, wrong = _deals(record, seed)
    deals = record["deals"]
    if seed is None:
        checks["random"] = "not proven"
    elif wrong:
        checks["random"] = "failed"
    else:
        checks["random"] = "proven" if deals else "not proven"
    checks["cuts"] = "proven" if deals and "not cut" not in statuses else "not proven"
    checks["complete"] = _complete(part, deals, complete)
    head = None if seed is None else heads(chain_key(seed, record["table"]), entries(record))[-1]
    if head is None or "head" not in part:
        checks["chain"] = "not proven"
    else:
        checks["chain"] = "proven" if part["head"].lower() == head else "failed"
    checks["published"] = _published(part["commitment"].lower(), head, commitment_shown,
                                     head_shown)
    return {"ok": all(v == "proven" for v in checks.values()), "checks": checks,
            "deals": statuses, "head": head}


def _deals(record: dict[str, Any], seed: bytes | None) -> tuple[list[str], bool]:
    """Each deal's status, and whether a random choice is not what the seed gives."""
    table, preset, deals = record["table"], record["rules"], record["deals"]
    ai = {int(s) for s in record.get("ai_levels", {})}
    statuses, wrong = [], False
    for n, d in enumerate(deals, 1):
        cuts = [(c["seat"], c["text"]) for c in d.get("cuts", [])]
        members, seen = [], set()
        for seat, _text in cuts:
            if seat not in ai and seat not in seen:
                members.append(seat)
            seen.add(seat)
        derived = None
        if seed is not None:
            derived = "attempt" in d and deck(seed, table, preset, n, d["attempt"], cuts) == \
                [c[:1].upper() + c[1:].lower() for c in d["deck"]]
            k = 0
            for action in d["actions"]:
                if derived and action.get("action") == "draw" and "reshuffle" in action:
                    k += 1
                    derived = reshuffle(seed, table, preset, n, d["attempt"], k, cuts,
                                        action["reshuffle"]) == action["reshuffle"]
        if derived is False:
            wrong = True
            statuses.append("failed")
        elif not members:
            statuses.append("not cut")
        else:
            statuses.append("proven" if seed is not None else "not proven")
    if seed is not None and deals and "attempt" in deals[0]:
        cuts = [(c["seat"], c["text"]) for c in deals[0]["cuts"]]
        if first_dealer(seed, table, preset, len(record["players"]), deals[0]["attempt"],
                        cuts) != record["first_dealer"]:
            wrong = True
    return statuses, wrong


def _published(committed: str, head: str | None, commitment_shown: str | None,
               head_shown: str | None) -> str:
    if (commitment_shown is not None and not committed.startswith(commitment_shown.lower())) \
            or (head_shown is not None and (head is None
                                            or not head.startswith(head_shown.lower()))):
        return "failed"
    if commitment_shown is None or head_shown is None:
        return "not proven"
    return "proven"


def _complete(part: dict[str, Any], deals: list[dict[str, Any]], complete: bool) -> str:
    end = part.get("end")
    if end is None:
        return "not proven"
    if (end == "finished") != complete or not deals:
        return "failed"
    tried: dict[int, list[int]] = {}
    for b in part.get("burned", []):
        tried.setdefault(b["deal"], []).append(b["attempt"])
    for n, d in enumerate(deals, 1):
        if "attempt" in d:
            tried.setdefault(n, []).append(d["attempt"])
    for n, attempts in tried.items():
        if sorted(attempts) != list(range(1, len(attempts) + 1)):
            return "failed"
        if n <= len(deals) and "attempt" in deals[n - 1] and \
                deals[n - 1]["attempt"] != len(attempts):
            return "failed"
    if end == "finished" and len(deals) + 1 in tried:
        return "failed"
    return "proven"


if __name__ == "__main__":  # python tests/fairness_reference.py FILE COMPLETE [C H]
    data = json.load(open(sys.argv[1], encoding="utf-8"))
    args = sys.argv[3:5] + [None, None]
    print(json.dumps(verify(data, sys.argv[2] == "true", args[0], args[1])))
