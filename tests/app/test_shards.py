"""SHARD_COUNT and SHARD_IDS (bot/storage/shards.py): what they mean, and a bad value stops
``python -m bot`` at once with one line and exit code 2."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.storage.shards import ShardConfigError, Shards, parse_shards, shards_from_env
from tests.postgres import child_environ
from tests.profiles import examples

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


# ------------------------------------------------------------- two processes' guilds

#: the topologies the claim tests use: not sharded, and every shard of 2, 3 and 4 alone,
#: and both shards of 2 in one process
TOPOLOGIES = [Shards(1, (0,)), Shards(2, (0,)), Shards(2, (1,)), Shards(3, (0,)),
              Shards(3, (1,)), Shards(3, (2,)), Shards(4, (0,)), Shards(4, (1,)),
              Shards(4, (2,)), Shards(4, (3,)), Shards(2, (0, 1))]


def served_by_both(a: Shards, b: Shards) -> set[int]:
    """Every residue r of (guild_id >> 22) modulo lcm(a.count, b.count) whose guilds
    both serve, by trying each one (what ``Shards.overlap`` finds without trying)."""
    m = math.lcm(a.count, b.count)
    return {r for r in range(m) if a.owns(r << 22) and b.owns(r << 22)}


def test_the_issue_s_pairs_overlap_and_disjoint_shards_do_not():
    assert Shards(3, (2,)).overlap(Shards(2, (0,))) == (2, 6)  # guild 2 << 22: shard 2 of 3, 0 of 2
    assert Shards(1, (0,)).overlap(Shards(2, (1,))) == (1, 2)  # an unsharded process: every guild
    assert Shards(2, (0,)).overlap(Shards(4, (1,))) is None
    assert Shards(2, (0,)).overlap(Shards(4, (3,))) is None
    assert Shards(4, (0,)).overlap(Shards(4, (1,))) is None
    assert Shards(4).overlap(Shards(1, (0,))) == (0, 4)  # every shard of 4, ids None


@pytest.mark.parametrize("a", TOPOLOGIES, ids=str)
def test_overlap_is_the_guilds_both_serve_for_every_pair(a):
    for b in TOPOLOGIES:
        found = a.overlap(b)
        both = served_by_both(a, b)
        assert (found is not None) == bool(both), (a, b)
        assert (b.overlap(a) is not None) == bool(both)
        if found is not None:
            r, m = found
            assert m == math.lcm(a.count, b.count) and r in both


@settings(max_examples=examples(300), deadline=None)
@given(st.integers(1, 12), st.integers(1, 12), st.data())
def test_overlap_agrees_with_trying_every_guild(ca, cb, data):
    a = Shards(ca, tuple(sorted(data.draw(st.sets(st.integers(0, ca - 1), min_size=1)))))
    b = Shards(cb, tuple(sorted(data.draw(st.sets(st.integers(0, cb - 1), min_size=1)))))
    found = a.overlap(b)
    both = served_by_both(a, b)
    assert (found is not None) == bool(both)
    if found is not None:
        assert found[0] in both


def test_the_shards_of_a_process_are_described_for_a_refusal():
    assert Shards(1, (0,)).describe() == "every guild (not sharded)"
    assert Shards(2, (0, 1)).describe() == "all 2 shards"
    assert Shards(4, (1,)).served == (1,) and Shards(3).served == (0, 1, 2)
