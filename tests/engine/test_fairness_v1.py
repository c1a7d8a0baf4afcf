"""Format 1 records (docs/FAIRNESS.md "Format 1 records"): each deal with a seed of its own
and one cut. Their algorithm still matches the page's vectors and an implementation written
from it; ``verify`` still checks each deal, and never calls such a record proven."""

from __future__ import annotations

import copy
import hashlib
import hmac
import itertools
import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine import fairness_v1
from bot.engine.cards import card_code, parse_card
from bot.engine.fairness import new_seed, shuffle
from bot.engine.fairness_v1 import commitment, deck_order, failed_checks
from bot.engine.game import Game, GameError, RecordError, replay
from bot.engine.proof import verify_record
from bot.engine.rules import PRESETS, get_preset
from tests.profiles import examples

from .families import random_move
from .support import worked_record

ROOT = Path(__file__).resolve().parents[2]


# ------------------------------------------- written from docs/FAIRNESS.md alone
def ref_deck(seed: bytes, cuts: list[bytes], table: int, deal: int, preset: str) -> list[str]:
    """docs/FAIRNESS.md "The algorithm", re-implemented without bot.engine.fairness."""
    def lp(b: bytes) -> bytes:
        return len(b).to_bytes(4, "big") + b

    msg = (lp(b"commerce-deck-v1") + table.to_bytes(8, "big") + deal.to_bytes(8, "big")
           + lp(preset.encode("utf-8")) + len(cuts).to_bytes(4, "big")
           + b"".join(lp(c) for c in cuts))

    def stream():
        for k in itertools.count():
            block = hmac.new(seed, msg + k.to_bytes(4, "big"), hashlib.sha256).digest()
            for o in range(0, 32, 4):
                yield int.from_bytes(block[o:o + 4], "big")

    return ref_shuffle(stream())


def ref_shuffle(values) -> list[str]:
    deck = list(range(52))
    for i in range(51, 0, -1):
        n = i + 1
        limit = (2**32 // n) * n
        v = next(values)
        while v >= limit:
            v = next(values)
        j = v % n
        deck[i], deck[j] = deck[j], deck[i]
    return ["23456789TJQKA"[c // 4] + "cdhs"[c % 4] for c in deck]


# ------------------------------------------------------------ the test vectors
SEED_1 = bytes(range(32)).hex()
VECTORS = [  # seed, cuts, table, deal, preset, commitment, first 10 cards
    (SEED_1, [], 1, 1, "foster",
     "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd",
     "8c 8s 9c 9d 6d Th 3s 4d 2d Qd"),
    ("cfb240efa8670bfe5c76d860adc3e87d3555dff0b987cef02bbcc44a9f80e62f", ["c0ffee"], 42, 3,
     "hoyle", "dd4ade24d5ec2fdcab0e545ba62cd3b50e9528d313d35b84016a98e46c21c4aa",
     "3d As 8s Ac 9c Td 8c Js 2s 6c"),
    ("ff" * 32, ["63757420627920416e6e65", "112210f47de98115"], 2**64 - 1, 12, "jaques",
     "af9613760f72635fbdb44a5a0a63c39f12af30f950a6ee5c971be188e89c4051",
     "Tc 3d 2s 8c 4s 6s 5s 9c 2c Ks"),
    (SEED_1, [""], 1, 1, "foster",
     "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd",
     "Ad Jd 5d 2d 5h Jh 9d 3c 8c 7c"),
]
DECK_1 = ("8c 8s 9c 9d 6d Th 3s 4d 2d Qd 3d 5d 2c 2h 7h Ac 9s Kc 6h 2s Jh Td Qh Jd 9h 7d Kh Tc "
          "Ad 8d 4c 5c Js 4s Jc Ah 8h 6s Kd 7c 3h 3c Qs Qc 7s 5s As 4h 6c Ts Ks 5h")
MESSAGE_1 = ("00000010636f6d6d657263652d6465636b2d7631000000000000000100000000000000010000"
             "0006666f7374657200000000")
BLOCK_1 = "e02e7ada23d5d75e5c2cb625767822fa9885300adbf2a1fc85d213e3bf3ae9ba"
REJECTION_DECK = ("Kh 9d Th Tc Qh Jh Ac Qc Td 8s 9h Jc 8h 9s Kc 9c Ah Ts Jd Js Qd Qs Kd Ks Ad As "
                  "8d 8c 7s 7h 7d 7c 6s 6h 6d 6c 5s 5h 5d 5c 4s 4h 4d 4c 3s 3h 3d 3c 2s 2h 2d 2c")


def codes(deck) -> list[str]:
    return [card_code(c) for c in deck]


@pytest.mark.parametrize("vector", VECTORS, ids=["1", "2", "3", "4"])
def test_the_documented_vectors(vector):
    seed_hex, cuts_hex, table, deal, preset, committed, first = vector
    seed, cuts = bytes.fromhex(seed_hex), [bytes.fromhex(c) for c in cuts_hex]
    assert commitment(seed) == committed
    assert codes(deck_order(seed, cuts, table, deal, preset))[:10] == first.split()
    assert ref_deck(seed, cuts, table, deal, preset)[:10] == first.split()
    deck = deck_order(seed, cuts, table, deal, preset)
    assert failed_checks(committed, seed, cuts, table, deal, preset, deck) == []


def test_the_vectors_are_the_ones_on_the_page():
    page = (ROOT / "docs" / "FAIRNESS.md").read_text(encoding="utf-8")
    old = page[page.index("## Format 1 records"):]
    named = {SEED_1: "`S`", "ff" * 32: "`F`"}
    for seed_hex, cuts_hex, table, _deal, preset, _committed, first in VECTORS:
        for text in (named.get(seed_hex, seed_hex), f"`{first}`", f"`{preset}`", str(table),
                     *cuts_hex):
            assert text in old
    assert VECTORS[1][5] in old
    for text in (MESSAGE_1, BLOCK_1, *DECK_1.split("Kh Tc ")):
        assert " ".join(text.split()) in " ".join(old.split())
    assert " ".join(REJECTION_DECK.split()) in " ".join(page.split())


def test_vector_1_intermediate_values():
    seed = bytes.fromhex(SEED_1)
    msg = fairness_v1.message([], 1, 1, "foster")
    assert msg.hex() == MESSAGE_1
    assert hmac.new(seed, msg + bytes(4), hashlib.sha256).hexdigest() == BLOCK_1
    assert codes(deck_order(seed, [], 1, 1, "foster")) == DECK_1.split()


def test_rejection_throws_values_away():
    def values():
        return itertools.chain([2**32 - 1, 4294967248], itertools.count(0))

    assert codes(shuffle(values(), range(52))) == REJECTION_DECK.split()
    assert ref_shuffle(values()) == REJECTION_DECK.split()
    # the largest value kept at n = 52 is limit - 1, and it picks j = 51
    kept = shuffle(itertools.chain([4294967247], itertools.repeat(0)), range(52))
    assert kept[51] == parse_card("As") and kept[0] == parse_card("2d")


def test_a_str_cut_is_its_utf8_bytes():
    seed = bytes(range(32))
    assert deck_order(seed, ["cut by Anne"], 5, 2, "widow") == deck_order(
        seed, [b"cut by Anne"], 5, 2, "widow"
    )
    assert deck_order(seed, ["é"], 5, 2, "widow") == deck_order(seed, ["é".encode()], 5, 2, "widow")


# ------------------------------------------ the engine agrees with the page
SEEDS = st.binary(min_size=32, max_size=32)
CUTS = st.lists(st.binary(max_size=24), max_size=4)
TABLES = st.integers(0, 2**64 - 1)
NUMBERS = st.integers(0, 2**64 - 1)
PRESET_NAMES = st.sampled_from(sorted(PRESETS)) | st.text(max_size=12)


@settings(max_examples=examples(150), deadline=None)
@given(SEEDS, CUTS, TABLES, NUMBERS, PRESET_NAMES)
def test_an_implementation_from_the_page_agrees(seed, cuts, table, deal, preset):
    deck = deck_order(seed, cuts, table, deal, preset)
    assert codes(deck) == ref_deck(seed, cuts, table, deal, preset)
    assert sorted(deck) == list(range(52))
    assert deck == deck_order(seed, list(cuts), table, deal, preset)  # deterministic


def _mutations(seed: bytes, cuts: list[bytes], table: int, deal: int, preset: str):
    yield "seed: one bit", (bytes([seed[0] ^ 1]) + seed[1:], cuts, table, deal, preset)
    yield "seed: last bit", (seed[:-1] + bytes([seed[-1] ^ 1]), cuts, table, deal, preset)
    yield "cuts: one more", (seed, [*cuts, b""], table, deal, preset)
    if cuts:
        yield "cuts: one fewer", (seed, cuts[:-1], table, deal, preset)
        yield "cuts: a byte more", (seed, [*cuts[:-1], cuts[-1] + b"\0"], table, deal, preset)
        if cuts[0]:
            flipped = bytes([cuts[0][0] ^ 0x80]) + cuts[0][1:]
            yield "cuts: one bit", (seed, [flipped, *cuts[1:]], table, deal, preset)
            # the same bytes split differently are a different message
            yield "cuts: moved", (seed, [cuts[0][:-1], cuts[0][-1:], *cuts[1:]], table, deal, preset)
    if len(cuts) > 1 and cuts[0] != cuts[1]:
        yield "cuts: order", (seed, [cuts[1], cuts[0], *cuts[2:]], table, deal, preset)
    yield "table", (seed, cuts, table ^ 1, deal, preset)
    yield "deal", (seed, cuts, table, deal ^ 1, preset)
    yield "table and deal swapped", (seed, cuts, deal, table, preset) if table != deal else (
        seed, cuts, table + 1, deal, preset)
    yield "preset", (seed, cuts, table, deal, preset + "x")


@settings(max_examples=examples(60), deadline=None)
@given(SEEDS, CUTS, st.integers(0, 2**63), st.integers(0, 2**63), PRESET_NAMES)
def test_changing_any_input_changes_the_deck(seed, cuts, table, deal, preset):
    base = deck_order(seed, cuts, table, deal, preset)
    for what, args in _mutations(seed, cuts, table, deal, preset):
        assert deck_order(*args) != base, what


def test_the_first_card_is_uniform_over_many_seeds():
    """Chi-square over 52 cells of the top card for 5,200 fixed seeds (100 expected
    each): 51 degrees of freedom, so the statistic is about 51 ± 10; 100 would be
    a p-value near 1e-4. The seeds are fixed, so the result never changes."""
    trials = 5200
    counts = [0] * 52
    bottom = [0] * 52
    for k in range(trials):
        deck = deck_order(hashlib.sha256(k.to_bytes(4, "big")).digest(), [], 9, 1, "foster")
        counts[deck[0]] += 1
        bottom[deck[51]] += 1
    expected = trials / 52
    for cells in (counts, bottom):
        chi2 = sum((c - expected) ** 2 / expected for c in cells)
        assert chi2 < 100, chi2
    # a shuffle that never moved a card would fail at once
    assert sum((c - expected) ** 2 / expected for c in [trials] + [0] * 51) > 1000


def test_commitment_is_the_sha256_hex():
    seed = b"\x01" * 32
    assert commitment(seed) == hashlib.sha256(seed).hexdigest()
    assert len(commitment(seed)) == 64 and commitment(seed) == commitment(seed).lower()


def test_failed_checks_names_what_fails():
    seed, cuts = bytes(range(32)), [b"\x07"]
    deck = deck_order(seed, cuts, 3, 2, "parlett")
    good = commitment(seed)
    assert failed_checks(good, seed, cuts, 3, 2, "parlett", deck) == []
    assert failed_checks(good.upper(), seed, cuts, 3, 2, "parlett", deck) == []
    other = commitment(b"other")
    assert [c for c, _ in failed_checks(other, seed, cuts, 3, 2, "parlett", deck)] == ["commitment"]
    for args in ((seed, [b"\x08"], 3, 2, "parlett"), (seed, cuts, 3, 3, "parlett"),
                 (seed, cuts, 4, 2, "parlett"), (seed, cuts, 3, 2, "foster")):
        [(check, reason)] = failed_checks(commitment(args[0]), *args, deck)
        assert check == "deck" and reason.startswith("card ")
    both = failed_checks(other, seed, cuts, 3, 2, "parlett", list(reversed(deck)))
    assert [c for c, _ in both] == ["commitment", "deck"]
    assert [c for c, _ in failed_checks(good, seed, cuts, -1, 2, "parlett", deck)] == ["deck"]


@pytest.mark.parametrize(
    ("seed", "table", "deal"),
    [(b"", 1, 1), (b"x" * 31, 1, 1), (b"x" * 33, 1, 1), (b"x" * 32, -1, 1),
     (b"x" * 32, 2**64, 1), (b"x" * 32, 1, -1), (b"x" * 32, True, 1)],
)
def test_deck_order_rejects_bad_inputs(seed, table, deal):
    with pytest.raises(ValueError):
        deck_order(seed, [], table, deal, "foster")


# ----------------------------------------------------------- games and records
def fair_game(preset: str = "foster", options: dict[str, Any] | None = None, n: int = 4,
              table: int = 7, seed: int = 1, max_deals: int | None = None) -> Game:
    """A game dealt with fair deals, played by random legal moves."""
    rng = random.Random(seed)
    game = Game(get_preset(preset, options or {}), n, 1, table=table)
    while not game.complete and (max_deals is None or len(game.deals) < max_deals):
        k = len(game.deals)
        deal = game.start_fair_deal(hashlib.sha256(bytes([seed, k])).digest(), [bytes([k]) * 3])
        while not deal.finished:
            s, decision = random_move(deal, rng)
            deal.act(s, decision)
    return game


def test_start_fair_deal_deals_deck_order():
    game = fair_game(max_deals=2)
    for number, (deal, proof) in enumerate(zip(game.deals, game.proofs, strict=True), 1):
        assert proof is not None and proof.seed is not None and proof.cuts is not None
        assert proof.commitment == commitment(proof.seed)
        assert list(deal.deck) == deck_order(proof.seed, proof.cuts, 7, number, "foster")


def test_a_fair_deal_needs_the_table_id():
    game = Game(get_preset("foster"), 3, 0)
    with pytest.raises(GameError):
        game.start_fair_deal(new_seed(), [])


@pytest.mark.parametrize(
    ("preset", "options"),
    [("foster", {}), ("hoyle", {"direction": "anticlockwise"}), ("widow", {}),
     ("oldway", {"pounce": True}), ("jaques", {"chips": 3})],
)
def test_fair_records_round_trip_and_verify(preset, options):
    game = fair_game(preset, options, max_deals=6)
    record = json.loads(json.dumps(game.to_record(["a", "b", "c", "d"])))
    assert record["table"] == 7
    for item, proof in zip(record["deals"], game.proofs, strict=True):
        assert proof is not None
        assert item["commitment"] == proof.commitment
        assert item["seed"] == proof.seed.hex() and len(item["seed"]) == 64
        assert item["cuts"] == [c.hex() for c in proof.cuts]
    again = replay(record)
    assert again.to_record(["a", "b", "c", "d"]) == record
    assert again.summary() == game.summary()
    ok, summary = verify_record(record)
    assert not ok and summary["format"] == 1  # format 1 never proves a game fair
    assert [d["status"] for d in summary["deals"]] == ["verified"] * len(record["deals"])
    statuses = {c["check"]: c["status"] for c in summary["checks"]}
    assert statuses == {"commitment": "proven", "random": "not proven", "cuts": "not proven",
                        "complete": "not proven", "chain": "not proven",
                        "published": "not proven"}


def test_fairness_fields_change_nothing_in_the_replay():
    record = json.loads(json.dumps(fair_game(max_deals=3).to_record(["a", "b", "c", "d"])))
    bare = copy.deepcopy(record)
    del bare["table"]
    for item in bare["deals"]:
        for key in ("commitment", "seed", "cuts"):
            del item[key]
    assert json.dumps(replay(bare).summary()) == json.dumps(replay(record).summary())
    assert list(replay(bare).to_record(["a", "b", "c", "d"])) == [
        "rules", "options", "players", "first_dealer", "deals"]
    assert all(set(d) == {"deck", "actions"} for d in replay(bare).to_record(list("abcd"))["deals"])


def test_a_record_without_fairness_data_keeps_its_shape():
    record = worked_record()
    game = replay(record)
    assert game.proofs == [None] and game.table is None
    assert game.to_record(record["players"]) == record


@pytest.mark.parametrize(
    ("change", "deal", "reason"),
    [
        (lambda r: r.update(table=-1), None, "table"),
        (lambda r: r.update(table=True), None, "table"),
        (lambda r: r.update(table="7"), None, "table"),
        (lambda r: r["deals"][1].update(commitment="ab"), 1, "commitment"),
        (lambda r: r["deals"][1].update(commitment="zz" * 32), 1, "commitment"),
        (lambda r: r["deals"][0].update(seed=""), 0, "seed"),
        (lambda r: r["deals"][0].update(seed="00" * 31), 0, "seed"),
        (lambda r: r["deals"][0].update(seed="abc"), 0, "seed"),
        (lambda r: r["deals"][0].update(seed=" ab"), 0, "seed"),
        (lambda r: r["deals"][0].update(seed=5), 0, "seed"),
        (lambda r: r["deals"][1].update(cuts="00"), 1, "cuts"),
        (lambda r: r["deals"][1].update(cuts=["0g"]), 1, "cut"),
    ],
)
def test_malformed_fairness_fields_are_record_errors(change, deal, reason):
    record = json.loads(json.dumps(fair_game(max_deals=2).to_record(["a", "b", "c", "d"])))
    change(record)
    with pytest.raises(RecordError) as info:
        replay(record)
    assert info.value.deal == deal and info.value.action is None
    assert reason in info.value.reason


def test_upper_case_hex_is_read_and_written_lower_case():
    record = json.loads(json.dumps(fair_game(max_deals=1).to_record(["a", "b", "c", "d"])))
    shouting = copy.deepcopy(record)
    for key in ("commitment", "seed"):
        shouting["deals"][0][key] = shouting["deals"][0][key].upper()
    shouting["deals"][0]["cuts"] = [c.upper() for c in shouting["deals"][0]["cuts"]]
    assert replay(shouting).to_record(["a", "b", "c", "d"]) == record
    assert [d["status"] for d in verify_record(shouting)[1]["deals"]] == ["verified"]


# --------------------------------------------------------------- verify command
def fair_record(max_deals: int = 3) -> dict[str, Any]:
    return json.loads(json.dumps(fair_game(max_deals=max_deals).to_record(["a", "b", "c", "d"])))


def statuses(summary: dict[str, Any]) -> dict[str, str]:
    return {c["check"]: c["status"] for c in summary["checks"]}


def test_a_format_1_record_says_why_it_proves_nothing_against_the_bot():
    ok, out = verify_record(fair_record())
    assert not ok and out["ok"] is False and out["format"] == 1 and out["table"] == 7
    assert [d["status"] for d in out["deals"]] == ["verified"] * 3
    details = {c["check"]: c["detail"] for c in out["checks"]}
    assert "ids of presses" in details["cuts"] and "bot's own bytes" in details["cuts"]
    assert "first dealer and the reshuffles" in details["random"]
    assert "no chain" in details["chain"]
    assert "does not say how the game ended" in details["complete"]
    assert "edits" in details["published"]


def test_verify_names_the_failed_deal_and_check():
    record = fair_record()
    record["deals"][1]["cuts"] = ["ff"]  # another cut: another deck
    record["deals"][2]["commitment"] = commitment(b"not the seed")
    ok, out = verify_record(record)
    assert not ok
    assert [d["status"] for d in out["deals"]] == ["verified", "failed", "failed"]
    assert [f["check"] for f in out["deals"][1]["failed"]] == ["deck"]
    assert out["deals"][1]["failed"][0]["reason"].startswith("card ")
    assert [f["check"] for f in out["deals"][2]["failed"]] == ["commitment"]
    assert statuses(out)["commitment"] == statuses(out)["random"] == "failed"


def test_a_seed_serving_two_deals_fails():
    """Issue 19, attack 6 ("a seed reused"): deal 2 dealt again from deal 1's seed, its
    deck and commitment made to match, was accepted; now it fails, with the reason."""
    record = fair_record(2)
    seed = bytes.fromhex(record["deals"][0]["seed"])
    cuts = [bytes.fromhex(c) for c in record["deals"][1]["cuts"]]
    deck = [card_code(c) for c in deck_order(seed, cuts, 7, 2, "foster")]
    record["deals"][1].update(seed=seed.hex(), commitment=commitment(seed), deck=deck,
                              actions=[])
    ok, out = verify_record(record)
    assert not ok and out["deals"][1]["status"] == "failed"
    assert out["deals"][1]["failed"] == [{"check": "seed", "reason": "it is deal 1's seed again"}]
    assert statuses(out)["random"] == "failed" and "deal 1's seed again" in next(
        c["detail"] for c in out["checks"] if c["check"] == "random")


def test_a_different_table_or_preset_fails_the_deck_check():
    record = fair_record(1)
    record["table"] = 8
    assert verify_record(record)[1]["deals"][0]["failed"][0]["check"] == "deck"
    record = fair_record(1)
    record["rules"] = "foster-more"  # plays the same deck, but it was not dealt for it
    out = verify_record(record)[1]
    assert out["deals"][0]["failed"][0]["check"] == "deck"


def test_deals_without_fairness_data_are_unverifiable():
    record = fair_record()
    del record["deals"][0]["seed"]
    for key in ("commitment", "seed", "cuts"):
        del record["deals"][2][key]
    out = verify_record(record)[1]
    assert out["deals"][0] == {"deal": 0, "number": 1, "status": "unverifiable",
                               "detail": "the deal has no seed"}
    assert out["deals"][2]["detail"] == "the deal has no commitment, seed, cuts"
    assert statuses(out)["commitment"] == "not proven"
    record = fair_record(1)
    del record["table"]
    assert verify_record(record)[1]["deals"][0]["detail"] == "the record has no table"


def test_an_old_record_and_an_empty_one_do_not_verify():
    ok, out = verify_record(worked_record())
    assert not ok and out["deals"][0]["status"] == "unverifiable" and out["table"] is None
    record = fair_record(1)
    record["deals"] = []
    ok, out = verify_record(record)
    assert not ok and out["deals"] == []
