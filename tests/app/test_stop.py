"""A clean stop of a real process: ``python -m bot sandbox`` (the real bot against
SimCord's simulated Discord; ``python -m bot`` itself needs Discord) gets SIGTERM
(``docker stop``) or SIGINT (Ctrl+C), exits 0 within a few seconds, says in its log
that it stopped cleanly, and leaves its database free for the next process at once.
What the stop does with work in flight: tests/cogs/test_stop.py."""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from bot import create_bot
from bot.process.stopping import StopSignals, serve
from bot.storage import Storage
from tests.postgres import child_environ

ROOT = Path(__file__).resolve().parents[2]
#: seconds a process may take to start (imports, migrations, the page) or to stop:
#: generous, for a loaded machine (a stop takes well under a second here)
STARTS_WITHIN = 60
STOPS_WITHIN = 20


def start_sandbox(tmp_path: Path, db: Path) -> subprocess.Popen[str]:
    """``python -m bot sandbox --port 0 --db db``, returned once it printed its page's
    address (which it flushes as soon as the page serves)."""
    env = child_environ(PYTHONPATH=str(ROOT), LOG_LEVEL="INFO")
    proc = subprocess.Popen([sys.executable, "-m", "bot", "sandbox", "--port", "0",
                             "--db", str(db)], cwd=tmp_path, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out = proc.stdout
    assert out is not None

    def address() -> str | None:
        for line in out:
            if line.strip().startswith("http://127.0.0.1:"):
                return line.strip()
        return None  # it ended without serving

    with concurrent.futures.ThreadPoolExecutor(1) as reader:
        try:
            url = reader.submit(address).result(timeout=STARTS_WITHIN)
        except concurrent.futures.TimeoutError:
            proc.kill()
            raise
    if url is None:
        _, err = proc.communicate(timeout=STOPS_WITHIN)
        pytest.fail(f"the sandbox did not start:\n{err}")
    return proc


async def free(db: Path) -> None:
    """A new storage opens the file at once: its lock (``<db>.lock``) is free."""
    storage = await Storage.open(db)
    await storage.close()


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_the_sandbox_stops_cleanly_on_a_signal(tmp_path, sig):
    db = tmp_path / "sandbox.db"
    proc = start_sandbox(tmp_path, db)
    assert Path(f"{db}.lock").exists()
    proc.send_signal(sig)
    try:
        _, err = proc.communicate(timeout=STOPS_WITHIN)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        raise
    assert proc.returncode == 0, err
    assert "Traceback" not in err, err
    lines = [line for line in err.splitlines() if " bot.process.stopping: " in line]
    assert len(lines) == 2, err  # one when the stop begins, one when it is done
    assert f"INFO bot.process.stopping: stopping ({sig.name})" in lines[0]
    assert "INFO bot.process.stopping: stopped cleanly" in lines[1]
    asyncio.run(free(db))


async def test_a_second_signal_hurries_the_stop_and_the_old_handlers_come_back():
    before = signal.getsignal(signal.SIGTERM)
    with StopSignals() as signals:
        if signal.SIGTERM not in signals.installed:
            pytest.skip("this event loop takes no signal handlers")
        os.kill(os.getpid(), signal.SIGTERM)
        await asyncio.wait_for(signals.requested.wait(), STOPS_WITHIN)
        assert not signals.hurry.is_set() and signals.reason == "SIGTERM"
        os.kill(os.getpid(), signal.SIGTERM)
        await asyncio.wait_for(signals.hurry.wait(), STOPS_WITHIN)
    assert signal.getsignal(signal.SIGTERM) == before


async def test_python_m_bot_serves_until_a_signal_then_stops_cleanly(tmp_path, caplog):
    """``serve``, what ``python -m bot`` runs, with the connection to Discord (out of
    reach here) replaced: the real ``setup_hook`` (storage, cogs, timers), then a
    connection that lasts until the bot is closed, as discord.py's does."""
    db = tmp_path / "commerce.db"
    bot = create_bot(db, ai_pace=0)
    bot.sync_commands = False
    before = signal.getsignal(signal.SIGTERM)

    async def connect(token: str, *, reconnect: bool = True) -> None:
        await bot.setup_hook()
        # the loop's handler is in place (else the signal would end the test run)
        assert signal.getsignal(signal.SIGTERM) not in (before, signal.SIG_DFL, signal.SIG_IGN)
        os.kill(os.getpid(), signal.SIGTERM)  # docker stop
        while not bot.is_closed():
            await asyncio.sleep(0.01)

    bot.start = connect  # type: ignore[method-assign]
    caplog.set_level(logging.INFO, logger="bot")
    assert await asyncio.wait_for(serve(bot, "a token"), STOPS_WITHIN) == 0
    said = [r.getMessage() for r in caplog.records if r.name == "bot.process.stopping"]
    assert said[0].startswith("stopping (SIGTERM)") and said[-1].startswith("stopped cleanly")
    await free(db)
    assert signal.getsignal(signal.SIGTERM) == before  # put back
