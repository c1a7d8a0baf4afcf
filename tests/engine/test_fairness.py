"""One fair shuffle per game (docs/FAIRNESS.md, issue 19): the page's test vectors checked
against the engine and against the verifier written from the page alone
(``tests/fairness_reference.py``), the two agreeing on any input, the uniformity of every
derived choice, cuts, records of format 2, and ``verify``: what it proves, and each attack
the issue measured refused or flagged with its reason."""

from __future__ import annotations

import copy
import hashlib
import io
import itertools
import json
import os
import random
import re
import subprocess
import sys
from collections.abc import Callable
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.__main__ import main
from bot.engine.cards import card_code, parse_card
from bot.engine.discard import DiscardDeal
from bot.engine.fairness import (
    Attempt,
    Cut,
    CutError,
    ShuffleLog,
    Shuffler,
    below,
    canonical,
    chain_entries,
    chain_heads,
    chain_key,
    commitment,
    cut_text,
    message,
    new_seed,
    shuffle,
)
from bot.engine.fairness_v1 import DealProof
from bot.engine.family import Observation
from bot.engine.game import Game, GameError, RecordError, replay
from bot.engine.proof import CHECKS, verify_record
from bot.engine.rules import PRESETS, get_preset
from tests import fairness_reference as ref
from tests.profiles import examples

from .families import all_moves, random_move

ROOT = Path(__file__).resolve().parents[2]
PAGE = (ROOT / "docs" / "FAIRNESS.md").read_text(encoding="utf-8")
S, F = bytes(range(32)), b"\xff" * 32
SEEDS = {"S": S, "F": F}
POSTED = {"guild": 1, "channel": 2, "message": 3}


def flat(text: str) -> str:
    return " ".join(text.split())


def codes(cards) -> list[str]:
    return [card_code(c) for c in cards]


def cuts_of(pairs) -> tuple[Cut, ...]:
    return tuple(Cut(seat, text) for seat, text in pairs)


# ------------------------------------------------------------------ the page's vectors
COMMITMENTS = {"S": "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd",
               "F": "af9613760f72635fbdb44a5a0a63c39f12af30f950a6ee5c971be188e89c4051"}
MESSAGE = ("0000000b636f6d6d657263652d7632000000046465636b000000000000000100000006666f73746572"
           "0000000000000001000000010000000000000001000000000000000662616e616e61")
BLOCK = "cbe79141e99af6e8d1ba86f25b09e969dd409c82298066884ca5507074e1fadf"
VALUES = [3420950849, 3919247080, 3518662386]
DECKS = [  # seed, table, preset, deal, attempt, cuts, first ten cards
    ("S", 1, "foster", 1, 1, [], "7d 6d Kd 9d Tc 2s 5c Ah 8h 4s"),
    ("S", 1, "foster", 1, 2, [], "Kh Kc As Th Ad 6d 2d 3h 6c Td"),
    ("S", 1, "foster", 1, 1, [(0, "banana")], "As Jh 7d 8s Kc 7s 4d 6h 8c 4h"),
    ("S", 1, "foster", 1, 1, [(1, "banana")], "7d Jd Kc 8s 7c 9s Th 4h 8c Js"),
    ("S", 1, "foster", 2, 1, [(0, "banana")], "3h 3s As 8s 2c Ah Th 9d 6s 7h"),
    ("F", 2**64 - 1, "jaques", 12, 3, [(2, "cut by Anne"), (0, "é 42")],
     "Kc 8s Jh 5s 4s 6c 7h 9d 7s 4h"),
]
WHOLE_DECK = ("7d 6d Kd 9d Tc 2s 5c Ah 8h 4s 8d 3c Jc Qh 7c 3h 7h As 2d 5s Kh 3s 5h 5d 6c Ts "
              "Ad Qd Kc 9s 4c 8c 8s 2h Jh 6h 3d 6s Jd 7s 2c 4d 9c Qs Ac Th Qc 9h 4h Ks Js Td")
FIRST_DEALERS = [  # seed, table, preset, seats, attempt, cuts, first dealer
    ("S", 1, "foster", 4, 1, [], 2),
    ("S", 1, "foster", 4, 1, [(0, "banana")], 3),
    ("S", 7, "widow", 3, 2, [(0, "banana"), (1, "42")], 2),
    ("F", 7, "oldway", 6, 1, [(5, "日本")], 0),
]
PILE = "9h 2c As Td 3d Kc 7s"
RESHUFFLES = [(1, "7s Kc 9h 2c Td 3d As"), (2, "As 2c 3d 7s Td Kc 9h")]
REJECTION = ("Kh 9d Th Tc Qh Jh Ac Qc Td 8s 9h Jc 8h 9s Kc 9c Ah Ts Jd Js Qd Qs Kd Ks Ad As "
             "8d 8c 7s 7h 7d 7c 6s 6h 6d 6c 5s 5h 5d 5c 4s 4h 4d 4c 3s 3h 3d 3c 2s 2h 2d 2c")
CHAIN_KEYS = {1: "ee08e0d5c5d34427cfb7e956c99468c4511f8ae4952a5cd8b453a12e9b6a4caf",
              7: "f780e6b303b9aedab4f51c9713ce4d34214e5a109ff9193b8af1a1a2d3044c61"}
ENTRIES = [{"entry": "header", "format": 2, "table": 1, "rules": "foster", "options": {},
            "players": ["Zoë", 'Ben "B"'], "ai_levels": {}, "first_dealer": 0,
            "commitment": COMMITMENTS["S"], "posted": None},
           {"entry": "end", "end": "closed", "deals": 0}]
ENTRY_HEADS = ["2b514b91b71891d8530f126666e778e00c6556ea69da4c14ae39d4a429fa1c33",
               "f18ee92d894136ec5d97486258bfe323d33292466c1fdbdd340c0223f5a44c35"]
WORKED_HEADS = {
    "header": "fa30e13a9ccdb4e2c0b40b92957bd2dd055d0bec82039c47380a3e39c4ae3249",
    "burned 1.1": "c414f5ccb3053eeb092791608e5d4d70f2b95b4f91739077271b92bb2488d98c",
    "deal 1": "9eba7799b32ba0842d362aa412530475d40767fa738330017e7a5d483552fe63",
    "end": "f5f2dced20d41b7e9f002d09a2cebf3836d1ede8a92bf5c95fd67798961dda7c"}
WORKED_BURNED = "Qh Qc 4d Kh 3c Td 8d Ks 4h Qd"


def page_record() -> dict[str, Any]:
    """The page's "whole record" (the one JSON block of its test vectors)."""
    vectors = PAGE[PAGE.index("## Test vectors"):PAGE.index("## Format 1 records")]
    [block] = re.findall(r"```json\n(.*?)\n```", vectors, re.S)
    return json.loads(block)


def test_the_vectors_are_on_the_page():
    page = flat(PAGE)
    for name, value in COMMITMENTS.items():
        assert f"| `{name}` | `{value}` |" in page
    for text in (MESSAGE, BLOCK, ", ".join(map(str, VALUES)), WHOLE_DECK, PILE,
                 *CHAIN_KEYS.values(), *ENTRY_HEADS, *WORKED_HEADS.values(), WORKED_BURNED,
                 flat(REJECTION), canonical(ENTRIES[0]).decode()):
        assert flat(text) in page, text
    for seed, table, preset, deal, attempt, cuts, first in DECKS:
        shown = ", ".join(f"`{s}:{t}`" for s, t in cuts) or "none"
        assert f"| `{seed}` | {table} | `{preset}` | {deal} | {attempt} | {shown} | `{first}` |" \
            in page
    for seed, table, preset, seats, attempt, cuts, dealer in FIRST_DEALERS:
        shown = ", ".join(f"`{s}:{t}`" for s, t in cuts) or "none"
        assert (f"| `{seed}` | {table} | `{preset}` | {seats} | {attempt} | {shown} | "
                f"seat {dealer} |") in page
    for index, order in RESHUFFLES:
        assert f"| {index} | `{order}` |" in page


def test_commitments_and_one_message_step_by_step():
    for name, value in COMMITMENTS.items():
        assert commitment(SEEDS[name]) == value == hashlib.sha256(SEEDS[name]).hexdigest()
    msg = message("deck", 1, "foster", 1, 1, 0, [Cut(0, "banana")])
    assert msg.hex() == MESSAGE == ref.message("deck", 1, "foster", 1, 1, 0, [(0, "banana")]).hex()
    assert ref.block(S, msg, 0).hex() == BLOCK
    assert list(itertools.islice(ref.values(S, msg), 3)) == VALUES


@pytest.mark.parametrize("vector", DECKS, ids=[str(i) for i in range(1, len(DECKS) + 1)])
def test_the_deck_vectors(vector):
    seed, table, preset, deal, attempt, cuts, first = vector
    engine = codes(Shuffler(SEEDS[seed], table, preset).deck(deal, attempt, cuts_of(cuts)))
    assert engine == ref.deck(SEEDS[seed], table, preset, deal, attempt, cuts)
    assert engine[:10] == first.split()
    if vector is DECKS[0]:
        assert engine == WHOLE_DECK.split()


@pytest.mark.parametrize("vector", FIRST_DEALERS)
def test_the_first_dealer_vectors(vector):
    seed, table, preset, seats, attempt, cuts, dealer = vector
    shuffler = Shuffler(SEEDS[seed], table, preset)
    assert shuffler.first_dealer(seats, attempt, cuts_of(cuts)) == dealer
    assert ref.first_dealer(SEEDS[seed], table, preset, seats, attempt, cuts) == dealer


def test_the_reshuffle_vectors():
    pile = [parse_card(c) for c in PILE.split()]
    shuffler = Shuffler(S, 9, "jaques")
    for index, order in RESHUFFLES:
        assert codes(shuffler.reshuffle(2, 1, [Cut(0, "x")], index, pile)) == order.split()
        assert ref.reshuffle(S, 9, "jaques", 2, 1, index, [(0, "x")], PILE.split()) == \
            order.split()


def test_the_rejection_vector():
    def stream():
        return itertools.chain([2**32 - 1, 4294967248], itertools.count(0))

    assert codes(shuffle(stream(), range(52))) == REJECTION.split()
    assert [ref.code(c) for c in ref.shuffle(stream(), list(range(52)))] == REJECTION.split()
    assert below(iter([2**32 - 1, 7]), 3) == 1  # 2**32 - 1 is the limit for 3: thrown away


def test_the_chain_vectors():
    for table, key in CHAIN_KEYS.items():
        assert chain_key(S, table).hex() == key == ref.chain_key(S, table).hex()
    key = chain_key(S, 1)
    assert chain_heads(key, ENTRIES) == ENTRY_HEADS == ref.heads(key, ENTRIES)
    assert canonical(ENTRIES[0]) == ref.canonical(ENTRIES[0])
    assert 'Zoë' in canonical(ENTRIES[0]).decode("utf-8")  # as itself, not \u escaped


def test_the_whole_record_of_the_page():
    record = page_record()
    game = replay(record)
    assert game.chain_heads(record["players"], record["options"], record["ai_levels"]) == \
        WORKED_HEADS
    ok, out = verify_record(record)
    assert not ok and statuses(out) == dict.fromkeys(CHECKS[:5], "proven") | {
        "published": "not proven"}
    assert " ".join(out["burned"][0]["deck"][:10]) == WORKED_BURNED
    ok, out = verify_record(record, commitment_shown="630dcd2966c43366",
                            head_shown="f5f2dced20d41b7e")
    assert ok
    assert ref.verify(record, replay(record).complete, "630dcd2966c43366",
                      "f5f2dced20d41b7e")["ok"]
    assert ref.entries(record) == [e for _, e in chain_entries(record)]


# ------------------------------------------------------------------ the page's algorithm, any input
TABLES = st.integers(0, 2**64 - 1)
SMALL = st.integers(0, 2**32 - 1)
CUTS = st.lists(st.tuples(st.integers(0, 9), st.text(max_size=8)), max_size=4)
PRESET_NAMES = st.sampled_from(sorted(PRESETS)) | st.text(max_size=12)


@settings(max_examples=examples(80), deadline=None)
@given(st.binary(min_size=32, max_size=32), TABLES, PRESET_NAMES, TABLES, SMALL, CUTS,
       st.integers(1, 10), st.integers(1, 5), st.sets(st.integers(0, 51), max_size=30))
def test_the_engine_and_the_page_agree_on_any_input(seed, table, preset, deal, attempt, cuts,
                                                    seats, index, pile):
    shuffler = Shuffler(seed, table, preset)
    deck = shuffler.deck(deal, attempt, cuts_of(cuts))
    assert codes(deck) == ref.deck(seed, table, preset, deal, attempt, cuts)
    assert sorted(deck) == list(range(52))
    assert shuffler.first_dealer(seats, attempt, cuts_of(cuts)) == ref.first_dealer(
        seed, table, preset, seats, attempt, cuts)
    order = shuffler.reshuffle(deal, attempt, cuts_of(cuts), index, sorted(pile, reverse=True))
    assert sorted(order) == sorted(pile)
    assert codes(order) == ref.reshuffle(seed, table, preset, deal, attempt, index, cuts,
                                         [card_code(c) for c in pile])
    assert shuffler.chain_key() == ref.chain_key(seed, table)


@settings(max_examples=examples(60), deadline=None)
@given(st.binary(min_size=32, max_size=32), st.recursive(
    st.none() | st.booleans() | st.integers(-2**63, 2**63) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner,
                                                                max_size=3), max_leaves=10))
def test_the_chain_agrees_on_any_entry(seed, value):
    entries = [{"entry": "x", "value": value}, {"entry": "y"}]
    key = chain_key(seed, 5)
    assert chain_heads(key, entries) == ref.heads(key, entries)


def _mutations(table: int, deal: int, attempt: int, cuts: list[tuple[int, str]]):
    yield "table", (table ^ 1, deal, attempt, cuts)
    yield "deal", (table, deal ^ 1, attempt, cuts)
    yield "attempt", (table, deal, attempt ^ 1, cuts)
    yield "one more cut", (table, deal, attempt, [*cuts, (0, "")])
    if cuts:
        seat, text = cuts[0]
        yield "the seat of a cut", (table, deal, attempt, [(seat ^ 1, text), *cuts[1:]])
        yield "the text of a cut", (table, deal, attempt, [(seat, text + "x"), *cuts[1:]])
        yield "one cut fewer", (table, deal, attempt, cuts[:-1])
        if len(text) > 1:  # the same characters, cut in two
            yield "a cut split", (table, deal, attempt, [(seat, text[:1]), (seat, text[1:]),
                                                         *cuts[1:]])
    if len(cuts) > 1 and cuts[0] != cuts[1]:
        yield "the order of the cuts", (table, deal, attempt, [cuts[1], cuts[0], *cuts[2:]])


@settings(max_examples=examples(60), deadline=None)
@given(st.binary(min_size=32, max_size=32), st.integers(0, 2**63), st.integers(1, 2**63),
       st.integers(1, 2**31), CUTS)
def test_changing_any_input_changes_the_deck(seed, table, deal, attempt, cuts):
    base = Shuffler(seed, table, "foster").deck(deal, attempt, cuts_of(cuts))
    for what, (t, d, a, c) in _mutations(table, deal, attempt, cuts):
        assert Shuffler(seed, t, "foster").deck(d, a, cuts_of(c)) != base, what
    assert Shuffler(seed, table, "foster-more").deck(deal, attempt, cuts_of(cuts)) != base
    other = bytes([seed[0] ^ 1]) + seed[1:]
    assert Shuffler(other, table, "foster").deck(deal, attempt, cuts_of(cuts)) != base


def chi_square(counts: list[int]) -> float:
    expected = sum(counts) / len(counts)
    return sum((c - expected) ** 2 / expected for c in counts)


def test_every_derived_choice_is_uniform():
    """Chi-square over fixed seeds (so the result never changes): the top and bottom
    card of 5,200 decks (51 degrees of freedom: about 51 ± 10; 100 is a p-value near
    1e-4), the first dealer of 6 seats over 3,000 games (5: 100 would be absurd; 25 is
    near 1e-4), and the top of a reshuffled pile of 7 over 2,800 reshuffles."""
    top, bottom, dealers, piles = [0] * 52, [0] * 52, [0] * 6, [0] * 7
    pile = [parse_card(c) for c in PILE.split()]
    for k in range(5200):
        shuffler = Shuffler(hashlib.sha256(k.to_bytes(4, "big")).digest(), 9, "foster")
        deck = shuffler.deck(1, 1, ())
        top[deck[0]] += 1
        bottom[deck[51]] += 1
        if k < 3000:
            dealers[shuffler.first_dealer(6, 1, ())] += 1
        if k < 2800:
            piles[sorted(pile).index(shuffler.reshuffle(1, 1, (), 1, pile)[0])] += 1
    assert chi_square(top) < 100 and chi_square(bottom) < 100
    assert chi_square(dealers) < 25 and chi_square(piles) < 27
    assert chi_square([5200] + [0] * 51) > 1000  # a shuffle that never moved a card fails


@pytest.mark.parametrize(("seed", "table", "deal", "attempt"), [
    (b"", 1, 1, 1), (b"x" * 31, 1, 1, 1), (b"x" * 33, 1, 1, 1), (b"x" * 32, -1, 1, 1),
    (b"x" * 32, 2**64, 1, 1), (b"x" * 32, 1, -1, 1), (b"x" * 32, True, 1, 1),
    (b"x" * 32, 1, 1, 2**32)])
def test_derivations_reject_bad_inputs(seed, table, deal, attempt):
    with pytest.raises(ValueError):
        Shuffler(seed, table, "foster").deck(deal, attempt, ())


def test_new_seeds_are_32_fresh_bytes():
    seeds = {new_seed() for _ in range(50)}
    assert len(seeds) == 50 and all(len(s) == 32 for s in seeds)


# ------------------------------------------------------------------ cuts
@pytest.mark.parametrize(("raw", "used"), [
    ("banana", "banana"), ("  banana   42 ", "banana 42"), ("e\u0301", "é"), ("日本", "日本"),
    ("नमस्ते", "नमस्ते"), ("x" * 32, "x" * 32), ("-_.,!?'#+:/()&%=", "-_.,!?'#+:/()&%=")])
def test_a_cut_is_used_as_typed_once_tidied(raw, used):
    assert cut_text(raw) == used


@pytest.mark.parametrize("raw", ["", "   ", "x" * 33, "a`b", "*bold*", "<@1>", "a\u202eb",
                                 "a\u200bb", "\u0301x", "x\u0301\u0302\u0303", "a\nb", "~~"])
def test_a_cut_that_cannot_be_shown_as_it_is_is_refused(raw):
    with pytest.raises(CutError):
        cut_text(raw)


@settings(max_examples=examples(200), deadline=None)
@given(st.text(max_size=40))
def test_a_cut_once_tidied_stays_the_same_and_shows_as_it_is(raw):
    try:
        text = cut_text(raw)
    except CutError:
        return
    assert cut_text(text) == text and 1 <= len(text) <= 32
    assert "`" not in text and "\n" not in text and text == text.strip()


# ------------------------------------------------------------------ games and records
def fair_game(preset: str = "foster", options: dict[str, Any] | None = None, n: int = 4,
              table: int = 7, seed: bytes = S, *, cut: Callable[[int], list[tuple[int, str]]] =
              lambda number: [(0, f"cut {number}")], burn: tuple[int, ...] = (),
              choose: Callable[[Any, random.Random], Any] = random_move,
              close_after: int | None = None, rng_seed: int = 1) -> Game:
    """A game dealt from one seed, each deal cut by ``cut(number)``, the attempts
    ``burn`` names (deal numbers) burned once, played by ``choose`` to its end (or
    closed after ``close_after`` deals)."""
    rng = random.Random(rng_seed)
    shuffler = Shuffler(seed, table, preset)
    burned = [Attempt(1, 1, cuts_of(cut(1)))] if 1 in burn else []
    first = shuffler.first_dealer(n, 2 if 1 in burn else 1, cuts_of(cut(1)))
    game = Game(get_preset(preset, options or {}), n, first, table=table, shuffler=shuffler,
                shuffle_log=ShuffleLog(shuffler.commitment, POSTED, [], burned))
    while not game.complete:
        number = len(game.deals) + 1
        if close_after is not None and number > close_after:
            break
        if number in burn and number > 1:
            game.burn(Attempt(number, 1, cuts_of(cut(number))))
        deal = game.deal_attempt(Attempt(number, 2 if number in burn else 1,
                                         cuts_of(cut(number))))
        while not deal.finished:
            deal.act(*choose(deal, rng))
    if not game.complete:
        game.close()
    return game


def names(n: int) -> list[str]:
    return [f"p{i}" for i in range(n)]


def as_json(value: Any) -> Any:
    return json.loads(json.dumps(value))


def record_of(game: Game, ai_levels: dict[str, str] | None = None) -> dict[str, Any]:
    return as_json(game.to_record(names(game.n), ai_levels=ai_levels))


def statuses(summary: dict[str, Any]) -> dict[str, str]:
    return {c["check"]: c["status"] for c in summary["checks"]}


def detail(summary: dict[str, Any], check: str) -> str:
    return next(c["detail"] for c in summary["checks"] if c["check"] == check)


def shown(record: dict[str, Any]) -> dict[str, str]:
    """What the table channel shows of a genuine record: its commitment and head."""
    return {"commitment_shown": record["shuffle"]["commitment"],
            "head_shown": record["shuffle"]["head"]}


def check(record: dict[str, Any], **given: str) -> tuple[bool, dict[str, Any]]:
    """``verify_record``, after checking that the page's verifier says the same."""
    ok, out = verify_record(record, **given)
    theirs = ref.verify(record, replay(record).complete, given.get("commitment_shown"),
                        given.get("head_shown"))
    assert theirs["checks"] == statuses(out), (theirs["checks"], out["checks"])
    assert theirs["deals"] == [d["status"] for d in out["deals"]]
    assert theirs["ok"] == ok and theirs["head"] == out["head"]
    return ok, out


def draw_moves(deal, rng: random.Random):
    """Jaques: draw and throw the drawn card away until the stock has run out once in
    the deal (and been rebuilt from the pile), then random legal moves."""
    moves = all_moves(deal)
    if not deal.reshuffles or deal.drawn is not None:
        for kind in ("draw_discard", "draw"):
            mine = [m for m in moves if m[1].kind == kind]
            if mine:
                return mine[0]
    return random_move(deal, rng)


FAMILIES = [("foster", {}), ("hoyle", {"direction": "anticlockwise"}), ("parlett", {}),
            ("foster-more", {}), ("widow", {}), ("oldway", {"pounce": True}),
            ("jaques", {"chips": 3}), ("jaques", {"three_stake": True, "direct_trading": True})]


@pytest.mark.parametrize(("preset", "options"), FAMILIES)
def test_a_fair_game_of_every_preset_is_proven_once_compared_with_the_channel(preset, options):
    game = fair_game(preset, options)
    record = record_of(game)
    assert record["format"] == 2 and record["shuffle"]["end"] == "finished"
    again = replay(record)
    assert again.summary() == game.summary()
    assert again.to_record(names(game.n)) == record
    assert again.chain_heads(names(game.n)) == game.chain_heads(names(game.n))
    ok, out = check(record)
    assert not ok and statuses(out) == dict.fromkeys(CHECKS[:5], "proven") | {
        "published": "not proven"}
    assert all(d["status"] == "proven" and d["cut_by"] == [
        {"seat": 0, "player": "p0", "text": f"cut {d['number']}"}] for d in out["deals"])
    ok, out = check(record, **shown(record))
    assert ok and out["ok"] is True and out["head"] == record["shuffle"]["head"]


def test_reshuffles_derive_from_the_seed_and_a_reordered_one_fails():
    """Issue 19, attack 5: a record whose reshuffle was re-ordered (the aces on top)
    still verified; now every reshuffle derives from the seed, and one re-ordered fails
    the ``random`` check, naming the deal and the reshuffle."""
    game = fair_game("jaques", {"chips": 2}, choose=draw_moves)
    deals = [d for d in game.deals if isinstance(d, DiscardDeal) and d.reshuffles]
    assert deals, "the stock never ran out"
    record = record_of(game)
    ok, out = check(record, **shown(record))
    assert ok
    number, action = next((n, a) for n, d in enumerate(record["deals"], 1)
                          for a in d["actions"] if "reshuffle" in a)
    attempt = record["deals"][number - 1]
    cuts = cuts_of((c["seat"], c["text"]) for c in attempt["cuts"])
    expected = Shuffler(S, 7, "jaques").reshuffle(number, 1, cuts, 1,
                                                  [parse_card(c) for c in action["reshuffle"]])
    assert codes(expected) == action["reshuffle"]
    forged = copy.deepcopy(record)
    stock = next(a for a in forged["deals"][number - 1]["actions"] if "reshuffle" in a)
    stock["reshuffle"].sort(key=lambda c: (c[0] != "A", c))  # the aces on top
    index = forged["deals"][number - 1]["actions"].index(stock)
    del forged["deals"][number - 1]["actions"][index + 1:], stock["discard"]
    del forged["deals"][number:]  # play stops there: the rest no longer fits the cards
    replay(forged)
    ok, out = check(forged, **shown(record))
    assert not ok and statuses(out)["random"] == "failed"
    assert f"deal {number}'s reshuffle 1" in detail(out, "random")
    assert statuses(out)["chain"] == "failed"


def test_a_live_reshuffle_comes_from_the_seed_and_the_deals_cuts():
    game = fair_game("jaques", {"chips": 2}, choose=draw_moves, close_after=1)
    deal = game.deals[0]
    assert isinstance(deal, DiscardDeal) and deal.reshuffles
    draws = [op for op in deal.operations if op.kind == "draw" and op.reshuffle]
    attempt = game.shuffle_log.attempts[0]
    for index, op in enumerate(draws, 1):
        assert list(op.reshuffle) == Shuffler(S, 7, "jaques").reshuffle(
            1, attempt.attempt, attempt.cuts, index, op.reshuffle)


# ------------------------------------------------------------------ the attacks of issue 19
def finished_record(preset: str = "foster", **kwargs: Any) -> dict[str, Any]:
    return record_of(fair_game(preset, **kwargs))


def resealed(record: dict[str, Any]) -> dict[str, Any]:
    """``record`` with its head recomputed, as an editor who knows the seed would."""
    out = copy.deepcopy(record)
    key = chain_key(bytes.fromhex(out["shuffle"]["seed"]), out["table"])
    out["shuffle"]["head"] = chain_heads(key, [e for _, e in chain_entries(out)])[-1]
    return out


def test_attack_1_a_deal_only_the_bot_contributed_to_is_never_proven():
    """The bot chose the cut (the press's id nobody sees). Now a deal's cuts are text
    members type; a deal with none — the bot's contribution alone — and a "cut" of an
    AI seat are listed as not cut by anyone, and the record is not proven."""
    record = finished_record(cut=lambda number: [] if number == 2 else [(0, "mine")])
    ok, out = check(record, **shown(record))
    assert not ok and statuses(out)["cuts"] == "not proven"
    assert detail(out, "cuts").startswith("deal 2 was not cut by anyone")
    assert out["deals"][1]["status"] == "not cut" and out["deals"][1]["cut_by"] == []
    ai_cut = record_of(fair_game(cut=lambda number: [(3, "the AI")]), ai_levels={"3": "easy"})
    ok, out = check(ai_cut, **shown(ai_cut))
    assert not ok and {d["status"] for d in out["deals"]} == {"not cut"}


def test_attack_2_a_failed_deal_is_burned_listed_and_cannot_be_hidden():
    """A failed write re-dealt under the same commitment left no trace. Now the
    attempt is burned: the record lists it (with the deck it would have dealt), the
    next attempt derives another deck, and hiding the burned attempt is detected."""
    record = finished_record(burn=(1, 3))
    ok, out = check(record, **shown(record))
    assert ok
    assert [(b["deal"], b["attempt"]) for b in out["burned"]] == [(1, 1), (3, 1)]
    assert out["burned"][1]["deck"] != record["deals"][2]["deck"]
    assert [d["attempt"] for d in out["deals"]] == [2, 1, 2, 1]
    hidden = copy.deepcopy(record)
    hidden["shuffle"]["burned"] = hidden["shuffle"]["burned"][:1]
    ok, out = check(resealed(hidden), **shown(record))
    assert statuses(out)["complete"] == "failed"
    assert "attempts at deal 3 are [2]" in detail(out, "complete")
    assert statuses(out)["published"] == "failed"  # the head is not the channel's
    renumbered = copy.deepcopy(hidden)
    renumbered["deals"][2]["attempt"] = 1
    ok, out = check(resealed(renumbered), **shown(record))
    assert statuses(out)["random"] == "failed" and "deal 3's deck" in detail(out, "random")


def test_attack_3_the_first_dealer_comes_from_the_seed():
    """The first dealer was drawn at Start, outside the proof. Now it derives from the
    seed and deal 1's attempt and cuts; a record with another first dealer fails."""
    record = finished_record()
    assert record["first_dealer"] == Shuffler(S, 7, "foster").first_dealer(
        4, 1, cuts_of([(0, "cut 1")]))
    shuffler = Shuffler(S, 7, "foster")
    cut = (Cut(1, "pear"),)
    first = shuffler.first_dealer(4, 1, cut)
    game = Game(get_preset("foster"), 4, first, table=7, shuffler=shuffler,
                shuffle_log=ShuffleLog(shuffler.commitment, POSTED))
    game.deal_attempt(Attempt(1, 1, cut))
    game.close()  # no action yet: any first dealer replays
    honest = record_of(game)
    assert check(honest, **shown(honest))[0]
    changed = copy.deepcopy(honest)
    changed["first_dealer"] = (first + 1) % 4
    ok, out = check(resealed(changed), **shown(honest))
    assert statuses(out)["random"] == "failed"
    assert detail(out, "random").startswith(f"the first dealer is seat {(first + 1) % 4}, "
                                            f"the seed gives seat {first}")
    assert statuses(out)["published"] == "failed"


def test_attack_4_the_commitment_is_compared_with_the_message_that_showed_it():
    """Deal 1's commitment disappeared at Start, later ones were on edited showdowns.
    Now one commitment is in a message the bot never edits; the record says which
    (``posted``, covered by the chain), and ``published`` compares it."""
    record = finished_record()
    ok, out = check(record, **shown(record))
    assert ok and out["posted"] == "https://discord.com/channels/1/2/3"
    assert "https://discord.com/channels/1/2/3" in detail(check(record)[1], "published")
    other = new_seed()
    forged = record_of(fair_game(seed=other))  # a whole game made up with another seed
    ok, out = check(forged, **shown(record))
    assert statuses(out) == dict.fromkeys(CHECKS[:5], "proven") | {"published": "failed"}
    assert "is not the record's" in detail(out, "published")
    moved = copy.deepcopy(record)
    moved["shuffle"]["posted"]["message"] = 4
    ok, out = check(moved, **shown(record))
    assert statuses(out)["chain"] == "failed"


def _winner_changed(record: dict[str, Any]) -> dict[str, Any] | None:
    """Deal 1's actions rewritten (legally) so that its winner changes, if possible."""
    base = replay(record).deals[0].showdown
    for k in range(40):
        rng = random.Random(k)
        game = replay(copy.deepcopy({**record, "deals": []}))
        deck = [parse_card(c) for c in record["deals"][0]["deck"]]
        deal = game.start_deal(deck)
        while not deal.finished:
            deal.act(*random_move(deal, rng))
        if deal.showdown is not None and deal.showdown.winner != base.winner:
            changed = copy.deepcopy(record)
            changed["deals"][0]["actions"] = game.to_record(names(game.n))["deals"][0]["actions"]
            try:
                replay(changed)
            except RecordError:
                continue
            return changed
    return None


@pytest.mark.parametrize("edit", [
    "last deal dropped", "winner changed", "last actions removed", "cuts emptied",
    "seed reused", "table changed", "players swapped", "options changed"])
def test_attack_6_every_edit_of_a_record_is_detected(edit):
    """Each edit the issue measured (``verify`` accepted them all with exit 0) is now
    flagged, by the chain first (an editor without the seed cannot recompute the
    head) and, when the editor recomputes the head too, by ``published``: the head the
    final standings showed is no longer the record's."""
    record = finished_record(n=3)
    changed = copy.deepcopy(record)
    if edit == "last deal dropped":
        changed["deals"].pop()
    elif edit == "winner changed":
        found = _winner_changed(record)
        assert found is not None
        changed = found
    elif edit == "last actions removed":
        changed["deals"][-1]["actions"] = changed["deals"][-1]["actions"][:-1]
    elif edit == "cuts emptied":
        changed["deals"][0]["cuts"] = []
    elif edit == "seed reused":  # another game's seed, with its commitment
        changed["shuffle"]["seed"] = F.hex()
        changed["shuffle"]["commitment"] = commitment(F)
    elif edit == "table changed":
        changed["table"] = 8
    elif edit == "players swapped":
        changed["players"][0], changed["players"][1] = changed["players"][1], changed["players"][0]
    else:
        changed["options"] = {"direction": "anticlockwise"}
    try:
        replay(changed)
    except RecordError:
        assert edit in ("options changed",)  # refused outright: the actions no longer fit
        return
    ok, out = check(changed, **shown(record))
    assert not ok and statuses(out)["chain"] == "failed", out["checks"]
    assert "it was changed" in detail(out, "chain")
    ok, out = check(resealed(changed), **shown(record))
    assert not ok and statuses(out)["published"] == "failed", out["checks"]
    expected = {"last deal dropped": "complete", "last actions removed": "complete",
                "cuts emptied": "random", "seed reused": "random", "table changed": "random"}
    if edit in expected:
        assert statuses(out)[expected[edit]] == "failed", out["checks"]


def test_a_record_with_cuts_emptied_lists_the_deal_as_not_cut():
    record = finished_record()
    record["deals"][1]["cuts"] = []
    ok, out = check(record)
    assert statuses(out)["random"] == "failed" and "deal 2's deck" in detail(out, "random")
    assert out["deals"][1]["status"] == "failed"


def test_a_game_not_over_proves_nothing_yet():
    game = fair_game(close_after=1)
    game.closed = False  # as while it runs: no seed, no end, no head
    record = record_of(game)
    assert "seed" not in record["shuffle"] and "head" not in record["shuffle"]
    ok, out = check(record)
    assert not ok and statuses(out) == {"commitment": "not proven", "random": "not proven",
                                        "cuts": "proven", "complete": "not proven",
                                        "chain": "not proven", "published": "not proven"}
    assert {d["status"] for d in out["deals"]} == {"not proven"}


def test_a_closed_game_is_complete_and_a_finished_claim_is_checked():
    record = record_of(fair_game(close_after=2))
    assert record["shuffle"]["end"] == "closed"
    ok, out = check(record, **shown(record))
    assert ok
    claimed = resealed({**copy.deepcopy(record), "shuffle": {**record["shuffle"],
                                                             "end": "finished"}})
    ok, out = check(claimed)
    assert statuses(out)["complete"] == "failed"
    assert "its deals do not end it" in detail(out, "complete")


def test_a_deal_not_dealt_from_the_seed_fails():
    game = fair_game(close_after=1)
    record = record_of(game)
    del record["deals"][0]["attempt"], record["deals"][0]["cuts"]
    ok, out = check(record)
    assert statuses(out)["random"] == "failed"
    assert "deal 1 was not dealt from the seed" in detail(out, "random")


@pytest.mark.parametrize(("change", "reason"), [
    (lambda r: r.update(format=3), "format"),
    (lambda r: r.pop("shuffle"), "shuffle"),
    (lambda r: r.pop("table"), "table"),
    (lambda r: r["shuffle"].update(extra=1), "unknown fields"),
    (lambda r: r["shuffle"].update(commitment="ab"), "commitment"),
    (lambda r: r["shuffle"].update(seed="00" * 31), "seed"),
    (lambda r: r["shuffle"].update(end="won"), "end"),
    (lambda r: r["shuffle"].update(head="x"), "head"),
    (lambda r: r["shuffle"].update(posted={"guild": 1}), "posted"),
    (lambda r: r["shuffle"].update(burned=[{"deal": 0, "attempt": 1, "cuts": []}]), "burned"),
    (lambda r: r["shuffle"].update(burned=[{"deal": 9, "attempt": 1, "cuts": []}]), "after"),
    (lambda r: r["deals"][0].update(cuts=[{"seat": 9, "text": "x"}]), "seat"),
    (lambda r: r["deals"][0].update(cuts=[{"seat": 0, "text": 5}]), "text"),
    (lambda r: r["deals"][0].update(cuts="x"), "cuts"),
    (lambda r: r["deals"][0].update(attempt=0), "attempt"),
    (lambda r: r["deals"][0].update(commitment="00" * 32), "commitment or seed of its own"),
])
def test_malformed_format_2_fields_are_record_errors(change, reason):
    record = record_of(fair_game(close_after=1))
    change(record)
    with pytest.raises(RecordError) as info:
        replay(record)
    assert reason in info.value.reason


def test_a_fair_deal_needs_its_shuffle():
    game = Game(get_preset("foster"), 3, 0, table=1)
    with pytest.raises(GameError):
        game.deal_attempt(Attempt(1, 1))
    shuffler = Shuffler(S, 1, "foster")
    game = Game(get_preset("foster"), 3, 0, table=1, shuffler=shuffler,
                shuffle_log=ShuffleLog(shuffler.commitment))
    with pytest.raises(GameError):
        game.deal_attempt(Attempt(2, 1))
    assert game.revealed_seed() is None
    game.deal_attempt(Attempt(1, 1))
    game.close()
    assert game.revealed_seed() == S


# ------------------------------------------------------------------ nothing leaks
def _leaks(value: Any, secrets: list[bytes], seen: set[int]) -> bool:
    """``value`` holds a proof or a shuffler, or bytes/str containing one of ``secrets``
    (functions are looked into: what their closures hold)."""
    if id(value) in seen:
        return False
    seen.add(id(value))
    if isinstance(value, DealProof | Shuffler):
        return True
    if isinstance(value, bytes | bytearray):
        return any(s in value for s in secrets)
    if isinstance(value, str):
        return any(s.hex() in value for s in secrets)
    if isinstance(value, dict):
        return any(_leaks(k, secrets, seen) or _leaks(v, secrets, seen) for k, v in value.items())
    if isinstance(value, list | tuple | set | frozenset):
        return any(_leaks(v, secrets, seen) for v in value)
    if callable(value) and getattr(value, "__closure__", None):
        return any(_leaks(c.cell_contents, secrets, seen) for c in value.__closure__)
    if hasattr(value, "__dict__"):
        return _leaks(vars(value), secrets, seen)
    if hasattr(value, "__dataclass_fields__"):
        return any(_leaks(getattr(value, f.name), secrets, seen) for f in fields(value))
    return False


def test_the_leak_scanner_finds_a_seed():
    seed = b"\x13" * 32
    assert _leaks({"x": [seed.hex()]}, [seed], set())
    assert _leaks(Shuffler(seed, 1, "x"), [], set())
    assert _leaks(lambda: Shuffler(seed, 1, "x"), [], set()) is False  # made when called
    keep = Shuffler(seed, 1, "x")
    assert _leaks(lambda: keep, [], set())
    assert not _leaks({"x": [1, "2c"]}, [seed], set())


@pytest.mark.parametrize("preset", ["foster", "widow", "oldway", "jaques"])
def test_no_observation_summary_or_unfinished_record_holds_the_seed(preset):
    rng = random.Random(preset)
    seed = new_seed()
    shuffler = Shuffler(seed, 11, preset)
    game = Game(get_preset(preset), 4, 0, table=11, shuffler=shuffler,
                shuffle_log=ShuffleLog(shuffler.commitment))
    for number in range(1, 4):
        if game.complete:
            break
        deal = game.deal_attempt(Attempt(number, 1, (Cut(0, "x"),)))
        while not deal.finished:
            for viewer in (None, *range(4)):
                assert not _leaks(deal.observation(viewer), [seed], set())
            data = {k: v for k, v in vars(deal).items() if k != "reshuffler"}
            assert not _leaks(data, [seed], set())  # only the reshuffler may derive
            record = game.to_record(names(4))
            assert not _leaks(record, [seed], set()) and "seed" not in record["shuffle"]
            assert not _leaks(game.chain_heads(names(4)), [seed], set())
            deal.act(*random_move(deal, rng))
        assert not _leaks(deal.observation(None), [seed], set())
    assert not _leaks(game.summary(), [seed], set())
    assert not {"seed", "cuts", "commitment", "reshuffler"} & {f.name for f in fields(Observation)}
    game.close()
    assert game.to_record(names(4))["shuffle"]["seed"] == seed.hex()


def test_a_format_1_deal_is_revealed_once_over_or_voided():
    game = Game(get_preset("foster"), 3, 0, table=2)
    seed = new_seed()
    game.start_fair_deal(seed, [b"c"])
    assert game.reveal(0) is not None and game.reveal(0).seed is None
    assert "seed" not in game.to_record(names(3))["deals"][0]
    game.close()
    assert game.reveal(0) == DealProof(commitment(seed), seed, (b"c",))


def test_a_rewound_game_shows_the_cuts_but_cannot_shuffle():
    game = fair_game("jaques", close_after=1)
    game.closed = False
    copy_ = game.rewound(0)
    assert copy_.shuffler is None and copy_.shuffle_log.attempts == game.shuffle_log.attempts
    assert game.shuffle_log.attempts[0].cuts == (Cut(0, "cut 1"),)


# ------------------------------------------------------------------ the command
def run_verify(capsys, monkeypatch, record: Any, *options: str) -> tuple[int, Any]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(record)))
    code = main(["verify", "-", *options])
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 1
    return code, json.loads(out[0])


def test_verify_exits_0_only_when_everything_is_proven(capsys, monkeypatch):
    record = finished_record()
    head, committed = record["shuffle"]["head"], record["shuffle"]["commitment"]
    code, out = run_verify(capsys, monkeypatch, record)
    assert code == 2 and not out["ok"] and [c["check"] for c in out["checks"]] == list(CHECKS)
    code, out = run_verify(capsys, monkeypatch, record, "--head", head[:16],
                           "--commitment", committed[:16])
    assert code == 0 and out["ok"]
    code, out = run_verify(capsys, monkeypatch, record, "--commitment", committed)
    assert code == 2 and "--head" in detail(out, "published")
    code, out = run_verify(capsys, monkeypatch, record, "--commitment", committed,
                           "--head", "0" * 64)
    assert code == 2 and statuses(out)["published"] == "failed"
    code, out = run_verify(capsys, monkeypatch, record, "--head", "abc")
    assert code == 2 and set(out) == {"error"} and "16 hex digits" in out["error"]["reason"]


def test_verify_reports_a_record_that_does_not_replay(capsys, monkeypatch):
    record = finished_record()
    record["deals"][0]["actions"].insert(0, {"seat": 9, "action": "knock"})
    code, out = run_verify(capsys, monkeypatch, record)
    assert code == 2 and set(out) == {"error"}
    assert (out["error"]["deal"], out["error"]["action"]) == (0, 0)


def test_verify_as_a_process(tmp_path):
    record = finished_record()
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    good = ["--commitment", record["shuffle"]["commitment"], "--head", record["shuffle"]["head"]]
    for args, code in ((["verify", str(path), *good], 0), (["verify", str(path)], 2),
                       (["verify", str(tmp_path / "nope")], 2), (["verify"], 2),
                       (["verify", str(path), "--head"], 2),
                       (["verify", str(path), "--colour", "x"], 2)):
        proc = subprocess.run([sys.executable, "-m", "bot.engine", *args], capture_output=True,
                              cwd=ROOT, env=env, timeout=60, check=False)
        assert proc.returncode == code, proc
        assert b"Traceback" not in proc.stderr
        if proc.stdout:
            assert len(proc.stdout.splitlines()) == 1
        else:
            assert b"verify FILE" in proc.stderr
    # the page's verifier agrees as a process too
    proc = subprocess.run([sys.executable, str(ROOT / "tests" / "fairness_reference.py"),
                           str(path), "true", *good[1::2]], capture_output=True, timeout=60,
                          check=True, env={k: v for k, v in os.environ.items()
                                           if k != "PYTHONPATH"})
    assert json.loads(proc.stdout)["ok"] is True
