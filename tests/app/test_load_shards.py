"""scripts/load_shards.py (docs/SCALING.md): a seeded small run — 2 bot processes on one
PostgreSQL, a few tables each, one killed mid-deal and replaced, a second process for a
served shard refused — ends with every check passed; and its "served twice" check
finds a table that two processes served."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

import load_shards  # noqa: E402

from tests.postgres import child_environ  # noqa: E402


def figures(stdout: str) -> dict:
    [line] = [x for x in stdout.splitlines() if x.startswith("BENCH-JSON ")]
    return json.loads(line.removeprefix("BENCH-JSON "))["scaling"]


def test_two_processes_one_killed_and_replaced_play_on_with_every_check_passed(tmp_path):
    done = subprocess.run(
        [sys.executable, "scripts/load_shards.py", "--processes", "2", "--tables", "3",
         "--guilds", "1", "--interactions", "30", "--kill-after", "4", "--fault-seconds", "1",
         "--seed", "3", "--no-baselines", "--probe-seconds", "0", "--fast-pg",
         "--logs", str(tmp_path)],
        cwd=ROOT, env=child_environ(), capture_output=True, text=True, timeout=230, check=False)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    got = figures(done.stdout)
    assert got["failures"] == 0
    # 30 per process, both played (a table's turn is a few clicks, so a process may
    # finish its last turn a click or two past its target)
    assert 60 <= got["total_interactions"] <= 60 + 2 * 4
    # the replacement took the dead process's shard, resumed its open tables, played on
    assert got["replacement_attempts"] >= 1 and got["resumed_tables"] == 3
    assert got["replacement_interactions"] > 0
    assert ("shard 1 of 2 would serve guilds another Commerce process already serves "
            "(shard 1 of 2: commerce-bot pid ") in done.stdout
    assert got["tables_served"] == 6 and got["commits"] > 0
    # the replacement's own log shows only its shard's tables, after the kill
    lines = load_shards.read_served(tmp_path / "served-replacement-1.log")
    assert lines and {line[1] for line in lines} == {"replacement-1"}


def _proc(tmp_path: Path, name: str, slot: int, pid: int, tables: list[int],
          at: float = 100.0) -> load_shards.Proc:
    """A worker as the parent sees it, whose served log holds one line per table
    (times from ``at`` on)."""
    served = tmp_path / f"served-{name}.log"
    served.write_text("".join(f"{pid} {name} {t} 1 {at + i}\n" for i, t in enumerate(tables)))
    proc = load_shards.Proc(name, slot, process=None, served=served)  # type: ignore[arg-type]
    proc.facts = {"pid": pid, "ids": {"guilds": []}}
    proc.result = {"tables": tables}
    return proc


def test_the_check_finds_a_table_served_by_two_processes(tmp_path):
    victim = _proc(tmp_path, "shard-0", 0, 10, [1, 2])
    other = _proc(tmp_path, "shard-1", 1, 11, [3, 2])  # table 2 is shard 0's
    replacement = _proc(tmp_path, "replacement-1", 0, 12, [1])
    victim.killed_at = 1000.0
    problems, _ = load_shards.ownership([victim, other, replacement], 2, None, victim,
                                        replacement)
    assert any("table 2 served by" in p for p in problems)
    assert any("table 1: served by the replacement before the kill" in p for p in problems)
    assert any("table 2 in the memory of" in p for p in problems)
    victim.result = {}  # killed: it never reports
    late = _proc(tmp_path, "replacement-1", 0, 12, [1, 2], at=2000.0)
    clean, facts = load_shards.ownership(
        [victim, _proc(tmp_path, "shard-1", 1, 11, [3]), late], 2, None, victim, late)
    assert clean == [] and facts == {"tables_served": 3}
