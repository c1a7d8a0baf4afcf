"""``python -m bot.engine replay FILE|-`` (docs/RULES.md §3), run as a real process."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.engine.rules import get_preset

from .support import play_game, worked_record

ROOT = Path(__file__).resolve().parents[2]


def run_replay(arg: str, stdin: bytes | None = None) -> tuple[int, Any, str]:
    """Exit code, parsed stdout and stderr of the replay command."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(
        [sys.executable, "-m", "bot.engine", "replay", arg],
        input=stdin if stdin is not None else b"",
        capture_output=True,
        cwd=ROOT,
        env=env,
        timeout=60,
        check=False,
    )
    stderr = proc.stderr.decode("utf-8", "replace")
    assert "Traceback" not in stderr
    lines = proc.stdout.decode("utf-8").splitlines()
    assert len(lines) == 1, proc.stdout  # one JSON object
    return proc.returncode, json.loads(lines[0]), stderr


DEAL_KEYS = {"dealer", "hands", "categories", "winner", "ended_by", "knocker", "ledger_delta"}


def test_worked_check_file(tmp_path):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(worked_record()), encoding="utf-8")
    code, out, stderr = run_replay(str(path))
    assert code == 0
    assert stderr == ""
    assert out == {
        "deals": [
            {
                "dealer": 0,
                "hands": [["3c", "4c", "5c"], ["6s", "7s", "8s"], ["Ah", "Kh", "4d"]],
                "categories": ["sequence", "sequence", "point"],
                "winner": 1,
                "ended_by": "knock",
                "knocker": 2,
                "ledger_delta": [-2, 2, 0],
            }
        ],
        "ledger": [-2, 2, 0],
        "complete": False,
        "winners": None,
    }


def test_complete_game_from_stdin():
    rng = random.Random(11)
    options = {"direction": "anticlockwise"}
    game = play_game(get_preset("hoyle", options), 5, 2, rng)
    record = game.to_record(["a", "b", "c", "d", "e"], options)
    code, out, stderr = run_replay("-", json.dumps(record).encode("utf-8"))
    assert code == 0 and stderr == ""
    assert set(out) == {"deals", "ledger", "complete", "winners"}
    assert all(set(d) == DEAL_KEYS for d in out["deals"])
    assert out == json.loads(json.dumps(game.summary()))
    assert out["complete"] is True
    assert out["winners"] == [s for s, v in enumerate(out["ledger"]) if v == max(out["ledger"])]
    assert {d["ended_by"] for d in out["deals"]} <= {"knock", "stock"}


def _error(out: Any) -> dict[str, Any]:
    assert set(out) == {"error"}
    assert set(out["error"]) == {"deal", "action", "reason"}
    assert isinstance(out["error"]["reason"], str) and out["error"]["reason"]
    return dict(out["error"])


def test_illegal_action_exits_2_with_indexes(tmp_path):
    record = worked_record()
    record["deals"][0]["actions"].insert(1, {"seat": 0, "action": "knock"})
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    code, out, stderr = run_replay(str(path))
    assert code == 2 and stderr == ""
    assert _error(out) == {"deal": 0, "action": 1, "reason": "It is not your turn."}


def test_invalid_record_from_stdin():
    code, out, _ = run_replay("-", b'{"rules": "foster", "players": ["a", "b", "c"]}')
    assert code == 2
    error = _error(out)
    assert (error["deal"], error["action"]) == (None, None)
    assert "first_dealer" in error["reason"]


@pytest.mark.parametrize(
    "payload",
    [b"", b"{not json", b"[1, 2", b"\xff\xfe{}", b"[" * 100_000, b"42"],
    ids=["empty", "broken", "unterminated", "not utf-8", "deep nesting", "not an object"],
)
def test_invalid_input_exits_2_without_traceback(payload, tmp_path):
    path = tmp_path / "in.json"
    path.write_bytes(payload)
    for arg, stdin in ((str(path), None), ("-", payload)):
        code, out, _ = run_replay(arg, stdin)
        assert code == 2
        error = _error(out)
        assert (error["deal"], error["action"]) == (None, None)


def test_missing_file(tmp_path):
    code, out, _ = run_replay(str(tmp_path / "nope.json"))
    assert code == 2
    assert "cannot read" in _error(out)["reason"]


def test_usage_error_exits_2():
    proc = subprocess.run(
        [sys.executable, "-m", "bot.engine"],
        capture_output=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=60,
        check=False,
    )
    assert proc.returncode == 2
    assert b"usage" in proc.stderr and b"Traceback" not in proc.stderr


# --------------------------------------------------- widow and discard families
FAMILY_DEAL_KEYS = {
    "widow": DEAL_KEYS | {"widow"},
    "oldway": DEAL_KEYS | {"widow", "lives", "loser", "horse", "pool"},
    "jaques": DEAL_KEYS | {"chips", "pots", "lowest", "reshuffles"},
}


@pytest.mark.parametrize(
    ("preset", "options", "top"),
    [
        ("widow", {}, set()),
        ("oldway", {"pounce": True}, {"lives", "pool"}),
        ("jaques", {"chips": 3, "open_trading": True}, {"chips", "pots"}),
        ("jaques", {"chips": 5, "three_stake": True}, {"chips", "pots"}),
    ],
)
def test_every_family_replays_from_the_command_line(preset, options, top, tmp_path):
    from .families import play, random_move

    rng = random.Random(preset)
    rules = get_preset(preset, options)
    game = play(rules, 4, 1, rng, choose=random_move)
    record = game.to_record(["a", "b", "c", "d"])
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    code, out, stderr = run_replay(str(path))
    assert code == 0 and stderr == ""
    assert out == json.loads(json.dumps(game.summary()))
    assert set(out) == {"deals", "ledger", "complete", "winners"} | top
    keys = FAMILY_DEAL_KEYS[preset] | ({"pot_winners"} if rules.three_stake else set())
    assert all(set(d) == keys for d in out["deals"])
    assert out["complete"] is True and out["winners"]
    # a broken action in the last deal is reported with its indexes
    last = record["deals"][-1]["actions"]
    last.insert(0, {"seat": 0, "action": "trade", "card": "2c"})
    path.write_text(json.dumps(record), encoding="utf-8")
    code, out, _ = run_replay(str(path))
    assert code == 2
    error = _error(out)
    assert (error["deal"], error["action"]) == (len(record["deals"]) - 1, 0)


def test_a_record_without_its_reshuffle_exits_2_and_always_says_the_same(tmp_path):
    from .families import reshuffled_game

    game, index = reshuffled_game()
    record = game.to_record(["a", "b", "c"])
    del record["deals"][0]["actions"][index]["reshuffle"]
    path = tmp_path / "gap.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    first = run_replay(str(path))
    second = run_replay("-", json.dumps(record).encode("utf-8"))
    assert first == second  # the same record, the same output: no fresh shuffle
    code, out, stderr = first
    assert code == 2 and stderr == ""
    error = _error(out)
    assert (error["deal"], error["action"]) == (0, index)
    assert "reshuffle" in error["reason"]
