"""SHARD_COUNT and SHARD_IDS (bot/shards.py): what they mean, and a bad value stops
``python -m bot`` at once with one line and exit code 2."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bot.shards import ShardConfigError, Shards, parse_shards, shards_from_env
from tests.postgres import child_environ

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("count, ids, expected", [
    (None, None, None),
    ("", "  ", None),
    ("4", None, Shards(4, None)),
    ("4", "", Shards(4, None)),
    ("4", "0-1", Shards(4, (0, 1))),
    ("4", "3", Shards(4, (3,))),
    (" 8 ", "6-7, 0,2", Shards(8, (0, 2, 6, 7))),
    ("1", "0", Shards(1, (0,))),
])
def test_valid_settings(count, ids, expected):
    assert parse_shards(count, ids) == expected


@pytest.mark.parametrize("count, ids, message", [
    ("abc", None, "SHARD_COUNT=abc is not a number of shards"),
    ("0", None, "SHARD_COUNT=0 is not a number of shards"),
    ("-2", "0", "SHARD_COUNT=-2 is not a number of shards"),
    (None, "0-1", "SHARD_IDS=0-1 needs SHARD_COUNT"),
    ("4", "0-4", "there is no shard 4; SHARD_COUNT=4 means shards 0 to 3"),
    ("4", "1,x", "'x' is not a shard number or a range like 0-3"),
    ("4", "0,,1", "'' is not a shard number"),
    ("4", "3-1", "the range 3-1 is empty"),
    ("4", "0-2,1", "names shard 1 twice"),
])
def test_bad_settings_are_one_line_saying_what_is_wrong(count, ids, message):
    with pytest.raises(ShardConfigError, match=message) as err:
        parse_shards(count, ids)
    assert "\n" not in str(err.value)


def test_the_environment_is_read():
    assert shards_from_env({"SHARD_COUNT": "2", "SHARD_IDS": "1"}) == Shards(2, (1,))
    assert shards_from_env({}) is None


def test_a_guild_belongs_to_the_shard_discord_sends_it_to():
    shards = Shards(4, (0, 1))
    assert shards.shard_of(7 << 22) == 3 and not shards.owns(7 << 22)
    assert shards.shard_of(5 << 22) == 1 and shards.owns(5 << 22)
    assert Shards(4).owns(7 << 22)
    assert Shards(8, (0, 1, 2, 5)).describe() == "shards 0-2,5 of 8"
    assert Shards(8, (4,)).describe() == "shard 4 of 8"
    assert Shards(3).describe() == "all 3 shards"


@pytest.mark.parametrize("env, message", [
    ({"SHARD_COUNT": "four"}, "SHARD_COUNT=four"),
    ({"SHARD_COUNT": "4", "SHARD_IDS": "4"}, "there is no shard 4"),
    ({"SHARD_IDS": "0"}, "needs SHARD_COUNT"),
])
def test_python_m_bot_stops_at_start_with_exit_code_2(tmp_path, env, message):
    full = {k: v for k, v in child_environ().items() if k not in ("SHARD_COUNT", "SHARD_IDS")}
    full.update(env, COMMERCE_DB=str(tmp_path / "data" / "commerce.db"),
                DISCORD_TOKEN="not-a-real-token", PYTHONPATH=str(ROOT))
    proc = subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path, env=full,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    lines = [ln for ln in proc.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and message in lines[0], proc.stderr
    assert not (tmp_path / "data").exists()  # stopped before anything else
