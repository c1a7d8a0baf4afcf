"""The metrics endpoint as an operator meets it (bot/process/health.py): off unless
``METRICS_PORT`` is set, on loopback unless ``METRICS_HOST`` says otherwise, a bad
port stops ``python -m bot`` with one line; a real ``python -m bot sandbox``
process serves ``/metrics`` and ``/health`` (which compose's health check reads)
and stops serving them when it stops; discord.py's own handling of Discord's 429s
is counted; on PostgreSQL, a lost shard claim shows in the metrics and the
health check. What the metrics count as the bot plays: tests/cogs/test_metrics.py."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import os
import signal
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import aiohttp
import discord
import pytest
import yaml
from aiohttp import web

from bot import create_bot
from bot.__main__ import METRICS_HOST, MetricsConfigError, main, metrics_from_env
from bot.process.health import EndpointError, problems
from bot.process.sandbox import run_sandbox
from tests.postgres import child_environ

ROOT = Path(__file__).resolve().parents[2]
#: seconds a process may take to start or to stop (generous, for a loaded machine)
STARTS_WITHIN = 60
STOPS_WITHIN = 20


@pytest.mark.parametrize("env, expected", [
    ({}, None),
    ({"METRICS_PORT": " "}, None),
    ({"METRICS_HOST": "0.0.0.0"}, None),  # the host alone turns nothing on
    ({"METRICS_PORT": "9180"}, (METRICS_HOST, 9180)),
    ({"METRICS_PORT": " 0 "}, ("127.0.0.1", 0)),
    ({"METRICS_PORT": "9180", "METRICS_HOST": "0.0.0.0"}, ("0.0.0.0", 9180)),
    ({"METRICS_PORT": "9180", "METRICS_HOST": ""}, ("127.0.0.1", 9180)),
])
def test_one_variable_turns_the_endpoint_on_and_it_stays_on_loopback(env, expected):
    assert METRICS_HOST == "127.0.0.1"
    assert metrics_from_env(env) == expected


@pytest.mark.parametrize("port", ["nine", "-1", "65536", "80.5"])
def test_a_bad_port_is_one_line(port):
    with pytest.raises(MetricsConfigError, match=f"METRICS_PORT='{port}' is not a port") as err:
        metrics_from_env({"METRICS_PORT": port})
    assert "\n" not in str(err.value)


def test_python_m_bot_stops_at_start_with_exit_code_2_on_a_bad_port(tmp_path):
    env = child_environ(METRICS_PORT="http", COMMERCE_DB=str(tmp_path / "data" / "c.db"),
                        DISCORD_TOKEN="not-a-real-token", PYTHONPATH=str(ROOT))
    proc = subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    lines = [ln for ln in proc.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and "METRICS_PORT='http'" in lines[0], proc.stderr
    assert not (tmp_path / "data").exists()  # stopped before anything else


async def test_a_taken_port_is_one_line_and_exit_code_1(tmp_path, monkeypatch, capsys):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        with pytest.raises(EndpointError, match=f"127.0.0.1:{port}"):
            await run_sandbox(port=0, db_path=str(tmp_path / "s.db"), seconds=1,
                              endpoint=("127.0.0.1", port))
        monkeypatch.setenv("METRICS_PORT", str(port))
        # main() runs its own event loop: in a thread, off this test's loop
        code = await asyncio.to_thread(main, ["sandbox", "--port", "0", "--db",
                                              str(tmp_path / "t.db")])
    assert code == 1
    err = [ln for ln in capsys.readouterr().err.splitlines() if ln.startswith("Cannot serve")]
    assert len(err) == 1 and f"127.0.0.1:{port}" in err[0] and "METRICS_PORT" in err[0]


# ------------------------------------------------------------------ a real process


def listening_ports(pid: int) -> set[int]:
    """The TCP ports process ``pid`` listens on (Linux: its sockets in /proc)."""
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[len("socket:["):-1])
    ports = set()
    for table in ("tcp", "tcp6"):
        for line in Path(f"/proc/{pid}/net/{table}").read_text().splitlines()[1:]:
            fields = line.split()
            if fields[3] == "0A" and fields[9] in inodes:  # 0A: LISTEN
                ports.add(int(fields[1].rsplit(":", 1)[1], 16))
    return ports


def start_sandbox(tmp_path: Path, **env: str) -> tuple[subprocess.Popen[str], list[str]]:
    """``python -m bot sandbox --port 0`` with ``env``, returned once it printed its
    page's address, with the lines it printed until then."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot", "sandbox", "--port", "0", "--db", str(tmp_path / "s.db")],
        cwd=tmp_path, env=child_environ(PYTHONPATH=str(ROOT), LOG_LEVEL="INFO", **env),
        text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None
    lines: list[str] = []

    def until_the_page() -> bool:
        for line in proc.stdout:
            lines.append(line.strip())
            if line.strip().startswith("http://127.0.0.1:"):
                return True
        return False

    with concurrent.futures.ThreadPoolExecutor(1) as reader:
        try:
            served = reader.submit(until_the_page).result(timeout=STARTS_WITHIN)
        except concurrent.futures.TimeoutError:
            proc.kill()
            raise
    if not served:
        _, err = proc.communicate(timeout=STOPS_WITHIN)
        pytest.fail(f"the sandbox did not start:\n{err}")
    return proc, lines


def stop(proc: subprocess.Popen[str]) -> str:
    proc.send_signal(signal.SIGTERM)
    try:
        _, err = proc.communicate(timeout=STOPS_WITHIN)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        raise
    assert proc.returncode == 0, err
    return err


def get(url: str) -> tuple[int, str, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as res:
            return res.status, res.headers.get("Content-Type", ""), res.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.headers.get("Content-Type", ""), exc.read().decode()


def compose_health_check(port: int) -> subprocess.CompletedProcess[str]:
    """Run compose.yaml's health check of the bot services, as Docker runs it in the
    container, with ``METRICS_PORT=port``."""
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))
    test = compose["services"]["bot-0"]["healthcheck"]["test"]
    assert test[:2] == ["CMD", "python"]
    return subprocess.run([sys.executable, *test[2:]], env=child_environ(METRICS_PORT=str(port)),
                          capture_output=True, text=True, timeout=30)


@pytest.mark.skipif(not Path("/proc/self/net/tcp").exists(), reason="reads /proc (Linux)")
def test_the_sandbox_serves_metrics_and_health_on_loopback_then_stops_serving(tmp_path):
    proc, lines = start_sandbox(tmp_path, METRICS_PORT="0")
    try:
        [said] = [ln for ln in lines if ln.startswith("Metrics: ")]
        metrics_url = said.split()[1]
        assert metrics_url.startswith("http://127.0.0.1:") and metrics_url.endswith("/metrics")
        port = int(metrics_url.split(":")[2].split("/")[0])
        page = int(lines[-1].split(":")[2].split("/")[0])
        assert listening_ports(proc.pid) == {page, port}

        status, kind, text = get(metrics_url)
        assert status == 200 and kind.startswith("text/plain")
        for name in ("commerce_open_tables", "commerce_interactions_in_flight",
                     "commerce_watch_lag_seconds", "commerce_shard_claimed",
                     "commerce_discord_429_total", "process_resident_memory_bytes"):
            assert f"\n{name}" in text, name
        status, kind, text = get(metrics_url.replace("/metrics", "/health"))
        assert (status, json.loads(text)) == (200, {"status": "ok"})
        assert kind.startswith("application/json")
        assert compose_health_check(port).returncode == 0
    except BaseException:
        proc.kill()
        proc.communicate()
        raise
    err = stop(proc)
    assert "Traceback" not in err, err
    assert compose_health_check(port).returncode != 0  # nothing answers any more


@pytest.mark.skipif(not Path("/proc/self/net/tcp").exists(), reason="reads /proc (Linux)")
def test_without_metrics_port_the_sandbox_listens_on_its_page_only(tmp_path):
    env = {k: "" for k in ("METRICS_PORT", "METRICS_HOST")}
    proc, lines = start_sandbox(tmp_path, **env)
    try:
        page = int(lines[-1].split(":")[2].split("/")[0])
        assert not any(ln.startswith("Metrics") for ln in lines)
        assert listening_ports(proc.pid) == {page}
    except BaseException:
        proc.kill()
        proc.communicate()
        raise
    stop(proc)


# ------------------------------------------------------------------ discord.py's own 429s


async def test_the_429s_discord_py_waits_out_itself_are_counted(tmp_path, monkeypatch):
    """discord.py's HTTP client meets a 429, waits Discord's ``retry_after`` and tries
    again by itself: the bot never sees an error, and the metrics count the 429
    (through discord.py's ``http_trace``). Its real client, against a local server
    speaking Discord's rate-limit answer."""
    answers = [429, 200]

    def answer(data: dict, status: int = 200, **headers: str) -> web.Response:
        # Discord's JSON answers say exactly "application/json" (discord.py relies on it)
        return web.Response(body=json.dumps(data).encode(), status=status,
                            headers={"Content-Type": "application/json", **headers})

    async def users_me(request: web.Request) -> web.Response:
        return answer({"id": "1", "username": "bot", "discriminator": "0", "avatar": None})

    async def gateway(request: web.Request) -> web.Response:
        if answers.pop(0) == 429:
            return answer(
                {"message": "You are being rate limited.", "retry_after": 0.01, "global": False},
                429, Via="1.1 google")
        return answer({"url": "wss://gateway.invalid"})

    app = web.Application()
    app.router.add_get("/api/v10/users/@me", users_me)
    app.router.add_get("/api/v10/gateway", gateway)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    monkeypatch.setattr(discord.http.Route, "BASE", f"http://127.0.0.1:{port}/api/v10")
    bot = create_bot(tmp_path / "c.db")
    try:
        await bot.http.static_login("not-a-real-token")
        assert await bot.http.request(discord.http.Route("GET", "/gateway")) == {
            "url": "wss://gateway.invalid"}
        assert answers == []  # asked twice: the 429, then the answer
        assert bot.metrics.registry.get_sample_value(
            "commerce_discord_429_total", {"seen_by": "http"}) == 1
        assert bot.metrics.registry.get_sample_value(
            "commerce_discord_429_total", {"seen_by": "retrying"}) == 0
    finally:
        await bot.http.close()
        await runner.cleanup()


# ------------------------------------------------------------------ PostgreSQL: shard claims


async def _terminate_claims(url: str) -> int:
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        rows = await conn.fetch(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE application_name LIKE 'commerce-bot shards%' AND pid <> pg_backend_pid()")
        return len(rows)
    finally:
        await conn.close()


async def test_postgres_a_lost_shard_claim_shows_in_the_metrics_and_the_health_check(
        pg_migrated_url, tmp_path, monkeypatch):
    from bot.storage import PgStorage
    from bot.storage.shards import Shards

    monkeypatch.chdir(tmp_path)
    bot = create_bot(pg_migrated_url, shards=Shards(2, (1,)), ai_pace=0,
                     endpoint=("127.0.0.1", 0))
    bot.sync_commands = False
    other = await PgStorage.open(pg_migrated_url)
    try:
        await bot._async_setup_hook()  # what login does first (the client's loop)
        await bot.setup_hook()  # storage, claims, cogs, the endpoint
        bot._ready.set()  # as discord.py does at its first READY (no Discord here)

        def sample(name: str, **labels: str) -> float | None:
            return bot.metrics.registry.get_sample_value(name, labels)

        assert sample("commerce_shard_claimed", shard="1") == 1
        assert sample("commerce_shard_claims_total", outcome="made") == 1
        assert await problems(bot) == []

        # the session holding the claim is killed (a server restart): taken back at once
        assert await _terminate_claims(pg_migrated_url) == 1
        for _ in range(100):
            await asyncio.sleep(0.05)
            if bot.storage.held_shards() == (1,):
                break
        assert sample("commerce_shard_claims_total", outcome="lost") == 1
        assert sample("commerce_shard_claims_total", outcome="made") == 2
        assert sample("commerce_shard_claimed", shard="1") == 1

        # this time another process takes the shard before it is taken back
        claim = bot.storage._claim
        conn = claim.connection
        conn.remove_termination_listener(claim._dropped)  # no quick retake this time
        await conn.close()
        await other.claim_shards([1], 2)
        assert sample("commerce_shard_claimed", shard="1") == 0
        assert "the claim of shard 1 is lost" in await problems(bot)
        async with aiohttp.ClientSession() as session, session.get(
                bot.endpoint.url + "health") as res:
            assert res.status == 503
            assert "the claim of shard 1 is lost" in (await res.json())["reason"]
    finally:
        await bot.close()
        await other.close()
