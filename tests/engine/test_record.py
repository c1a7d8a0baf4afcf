"""The one record format (``bot.engine.record``): the record's action objects
are the fold of the action log, ``operations_of`` parses them back into the very
operations of the log, and records of every format written so far (1 and 2,
stored under ``records/`` as the bot wrote them) still replay and verify to the
same output (docs/RECORDS.md, docs/FAIRNESS.md)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine.cards import shuffled_deck
from bot.engine.game import Game, replay
from bot.engine.operations import operation_from_dict, operation_to_dict
from bot.engine.proof import verify_record
from bot.engine.record import (
    FORMAT,
    FORMATS,
    RecordError,
    fold_row,
    operations_of,
    record_actions,
    record_format,
)
from bot.engine.rules import get_preset
from tests.profiles import examples

from .families import play, random_move
from .test_choices import TABLES

RECORDS = Path(__file__).parent / "records"
STORED = sorted(p.name.removesuffix(".json") for p in RECORDS.glob("*.json")
                if p.name.count(".") == 1)


def played(preset: str, opts: dict[str, Any], seed: int, deals: int, moves: int) -> Game:
    """``deals`` whole deals of random legal moves (out of turn too), then a deal
    stopped after at most ``moves`` more (its answers still awaited, say)."""
    rules = get_preset(preset, opts)
    rng = random.Random(seed)
    n = rng.randint(rules.min_players, min(rules.max_players, 6))
    game = play(rules, n, rng.randrange(n), rng, choose=random_move, max_deals=deals)
    if not game.complete:
        last = game.start_deal(shuffled_deck(rng), rng=rng)
        for _ in range(moves):
            if last.finished:
                break
            last.act(*random_move(last, rng))
    return game


@settings(max_examples=examples(80), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=st.sampled_from(TABLES), seed=st.integers(0, 2**32 - 1), deals=st.integers(0, 3),
       moves=st.integers(0, 40))
def test_the_record_of_the_log_parses_back_to_the_same_game(table, seed, deals, moves):
    game = played(*table, seed, deals, moves)
    for deal in game.deals:
        rows = [operation_to_dict(op) for op in deal.operations]
        folded: list[dict[str, Any]] = []
        for row in rows:
            folded = fold_row(folded, row)
        assert record_actions(deal.operations) == folded
        assert [operation_from_dict(r) for r in rows] == deal.operations
    record = json.loads(json.dumps(game.to_record([f"p{i}" for i in range(game.n)])))
    again = replay(record)
    assert [d.operations for d in again.deals] == [d.operations for d in game.deals]
    assert again.summary() == game.summary()
    assert again.to_record([f"p{i}" for i in range(game.n)]) == record
    first = game.deals[0]  # parsed on its own: the same deal, dealt afresh
    twin = Game(game.rules, game.n, first.dealer).start_deal(first.deck)
    parsed = [twin.apply(op) for action in record["deals"][0]["actions"]
              for op in operations_of(twin, action)]
    assert parsed == first.operations


def test_a_follow_up_with_nothing_before_it_is_refused():
    with pytest.raises(ValueError, match="follows nothing"):
        fold_row([], {"kind": "barter_answer", "seat": 1, "card": None})


def test_the_formats():
    assert FORMAT == max(FORMATS) == 2
    assert record_format({}) == 1 and record_format({"format": 2}) == 2
    for wrong in (0, 3, True, "2", None):
        with pytest.raises(RecordError, match="format must be one of 1, 2"):
            record_format({"format": wrong})


@pytest.mark.parametrize("name", STORED)
def test_a_stored_record_of_every_format_replays_and_verifies_as_before(name):
    record = json.loads((RECORDS / f"{name}.json").read_text())
    assert record_format(record) == int(name[len("format")])
    expected = json.loads((RECORDS / f"{name}.replay.json").read_text())
    assert json.loads(json.dumps(replay(record).summary())) == expected
    _, verified = verify_record(record)
    assert json.loads(json.dumps(verified)) == json.loads(
        (RECORDS / f"{name}.verify.json").read_text())
    game = replay(record)
    assert json.loads(json.dumps(game.to_record(record["players"], record["options"]))) == record


def test_records_of_both_formats_are_stored():
    assert {name[:len("format1")] for name in STORED} == {"format1", "format2"}
