"""The offline sandbox starts, serves its page, and says plainly when its port is taken."""

from __future__ import annotations

import signal
import socket

from bot.process.sandbox import run_sandbox
from tests.app.test_stop import STOPS_WITHIN
from tests.attack.test_stop_real import start


async def test_the_sandbox_runs_and_stops(capsys, tmp_path):
    assert await run_sandbox(port=0, db_path=str(tmp_path / "s.db"), seconds=2) == 0
    out = capsys.readouterr().out
    assert "http://127.0.0.1:" in out


def test_the_sandbox_logs_nothing_that_reads_as_if_it_talked_to_discord(tmp_path):
    proc, _ = start(tmp_path, tmp_path / "s.db")  # python -m bot sandbox, LOG_LEVEL=INFO
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=STOPS_WITHIN)
    assert proc.returncode == 0, err
    assert "stopped" in err.lower() or "stopping" in err.lower(), err  # it does log
    for said in ("static token", "discord.com", "intent", "Traceback"):
        assert said not in err, err


async def test_a_taken_port_is_one_clear_line(capsys, tmp_path):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        assert await run_sandbox(port=port, db_path=str(tmp_path / "s.db"), seconds=1) == 1
    lines = [line for line in capsys.readouterr().out.splitlines() if line]
    assert len(lines) == 1 and f"port {port}" in lines[0] and "--port" in lines[0]
