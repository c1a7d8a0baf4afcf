"""Class 6: SIGTERM / SIGINT to the real ``python -m bot sandbox`` process while a
move is under way (driven through the sandbox page's HTTP API)."""

from __future__ import annotations

import concurrent.futures
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tests.app.test_stop import ROOT, STARTS_WITHIN, STOPS_WITHIN
from tests.attack.sandbox_client import Client
from tests.postgres import child_environ


def start(tmp_path: Path, db: Path):
    env = child_environ(PYTHONPATH=str(ROOT), LOG_LEVEL="INFO")
    proc = subprocess.Popen([sys.executable, "-m", "bot", "sandbox", "--port", "0", "--db",
                             str(db)], cwd=tmp_path, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)

    def address():
        for line in proc.stdout:
            if line.strip().startswith("http://127.0.0.1:"):
                return line.strip()
        return None

    with concurrent.futures.ThreadPoolExecutor(1) as reader:
        url = reader.submit(address).result(timeout=STARTS_WITHIN)
    assert url, proc.stderr.read()
    return proc, url


def to_act(client) -> list[str]:
    labels = [comp.get("label") for _, comp in client.controls()]
    return labels


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
@pytest.mark.parametrize("delay", [0.0, 0.02, 0.3, 1.0, 2.5])
def test_a_signal_during_a_move_stops_cleanly_and_keeps_the_move(tmp_path, sig, delay):
    db = tmp_path / "sandbox.db"
    proc, url = start(tmp_path, db)
    try:
        client = Client(url)
        client.command("commerce new", rules="foster")
        client.click("Add AI")
        client.click("Add AI")
        client.click("Start")
        move = None
        for _ in range(60):  # until ann may knock (the AI moves are shown at their pace)
            move = next((m for m in ("Knock", "Refuse (knock)") if m in to_act(client)), None)
            if move:
                break
            time.sleep(0.5)
        assert move, to_act(client)
        result = {}

        def knock():
            try:
                result["r"] = client.click(move, timeout=30)
            except Exception as exc:  # the page may go away with the process
                result["e"] = exc

        clicker = threading.Thread(target=knock)
        clicker.start()
        time.sleep(delay)
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=STOPS_WITHIN)
        clicker.join(timeout=5)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 0, err[-3000:]
    assert "Traceback" not in err and " ERROR " not in err, err[-3000:]
    lines = [line for line in err.splitlines() if " bot.process.stopping: " in line]
    assert len(lines) == 2 and "stopped cleanly" in lines[1], err[-3000:]
    con = sqlite3.connect(db)
    try:
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        knocks = con.execute("SELECT COUNT(*) FROM actions WHERE payload LIKE '%knock%'"
                             " AND member_id IS NOT NULL").fetchone()[0]
    finally:
        con.close()
    answer = result.get("r", {})
    # RELIABILITY "A clean stop": from the first signal on a click is answered
    # ("The bot is restarting") or, begun before it, finishes: never left unanswered
    # (the member would see "This interaction failed")
    if answer.get("dispatched") and delay >= 0.1:
        assert answer.get("acknowledgement") == "acknowledged", (answer, knocks)
    # a knock the member was answered about (its panel) is committed; none is kept twice
    if answer.get("acknowledgement") == "acknowledged" and knocks == 0:
        kinds = [o.get("kind") for o in answer.get("outcomes", [])]
        assert kinds == ["response"], (answer, "acknowledged, answered, but not committed")
    assert knocks <= 1


def test_sigterm_while_ai_moves_are_shown_at_a_full_table_stops_cleanly(tmp_path):
    """'docker stop (SIGTERM) stops it cleanly: ... the ones in flight finish ... exit
    code 0'. Ann plays against eleven AI seats: her move's refresh shows the AI moves
    after it one every 1.5 s, longer than the 8 s grace, so the stop gives up."""
    db = tmp_path / "sandbox.db"
    proc, url = start(tmp_path, db)
    try:
        client = Client(url)
        client.command("commerce new", rules="foster")
        for i in range(11):
            if i == 8:
                time.sleep(10)  # the per-member cooldown (12 per 10 s)
            client.click("Add AI")
        client.click("Start")
        move = None
        for _ in range(120):
            move = next((m for m in ("Knock", "Refuse (knock)") if m in to_act(client)), None)
            if move:
                break
            time.sleep(0.5)
        assert move, to_act(client)
        client.click(move, timeout=30)  # answered; the AI moves after it are being shown
        time.sleep(0.2)
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=STOPS_WITHIN)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    lines = [line for line in err.splitlines() if " bot.process.stopping: " in line]
    assert proc.returncode == 0 and "stopped cleanly" in lines[-1], "\n".join(lines)
