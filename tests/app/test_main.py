"""``python -m bot`` as a person runs it: no token, a corrupt database."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_bot(tmp_path, db: Path, token: str = ""):
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env.update(COMMERCE_DB=str(db), DISCORD_TOKEN=token, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=60)


def test_without_a_token_it_says_so_in_one_line(tmp_path):
    proc = run_bot(tmp_path, tmp_path / "data" / "commerce.db")
    assert proc.returncode == 1
    lines = [ln for ln in proc.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and "DISCORD_TOKEN" in lines[0] and "sandbox" in lines[0]
    assert "Traceback" not in proc.stderr
    assert (tmp_path / "data" / "commerce.db").exists()  # the embedded default was created


def test_a_corrupt_database_stops_the_bot_and_is_left_untouched(tmp_path):
    db = tmp_path / "commerce.db"
    garbage = b"this is not a database" * 100
    db.write_bytes(garbage)
    proc = run_bot(tmp_path, db, token="not-a-real-token")
    assert proc.returncode == 1
    assert "Cannot open the database" in proc.stderr and "Traceback" not in proc.stderr
    assert db.read_bytes() == garbage


def test_debug_logging_never_includes_http_bodies(monkeypatch):
    import logging

    from bot.__main__ import _setup_logging

    monkeypatch.setenv("LOG_LEVEL", "DEBUG")
    _setup_logging()
    assert not logging.getLogger("discord.http").isEnabledFor(logging.DEBUG)
    assert logging.getLogger("bot").isEnabledFor(logging.DEBUG)
