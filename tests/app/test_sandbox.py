"""The offline sandbox starts, serves its page, and says plainly when its port is taken."""

from __future__ import annotations

import socket

from bot.process.sandbox import run_sandbox


async def test_the_sandbox_runs_and_stops(capsys, tmp_path):
    assert await run_sandbox(port=0, db_path=str(tmp_path / "s.db"), seconds=2) == 0
    out = capsys.readouterr().out
    assert "http://127.0.0.1:" in out


async def test_a_taken_port_is_one_clear_line(capsys, tmp_path):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        assert await run_sandbox(port=port, db_path=str(tmp_path / "s.db"), seconds=1) == 1
    lines = [line for line in capsys.readouterr().out.splitlines() if line]
    assert len(lines) == 1 and f"port {port}" in lines[0] and "--port" in lines[0]
