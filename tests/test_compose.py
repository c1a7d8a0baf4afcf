"""compose.yaml runs N bot processes on one PostgreSQL: every shard is served by
exactly one process, every service restarts by itself, the database is checked
healthy before the bots start and keeps its data on a volume, each bot is checked
healthy through its own /health endpoint, and no secret is written in the file
(they come from .env, as .env.example documents)."""

from __future__ import annotations

import http.server
import os
import re
import socket
import subprocess
import sys
import threading
from pathlib import Path

import yaml

from bot.shards import parse_shards

ROOT = Path(__file__).resolve().parent.parent
COMPOSE = yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))
SERVICES = COMPOSE["services"]
BOTS = {name: s for name, s in SERVICES.items() if name.startswith("bot")}


def test_every_shard_is_served_by_exactly_one_bot_process():
    assert len(BOTS) >= 2
    counts = {s["environment"]["SHARD_COUNT"] for s in BOTS.values()}
    assert len(counts) == 1
    served = []
    for service in BOTS.values():
        env = service["environment"]
        shards = parse_shards(env["SHARD_COUNT"], env["SHARD_IDS"])
        assert shards is not None and shards.ids is not None
        served += shards.ids
    assert sorted(served) == list(range(int(counts.pop())))


def test_the_bots_wait_for_a_healthy_database_and_restart_by_themselves():
    db = SERVICES["postgres"]
    assert "pg_isready" in " ".join(db["healthcheck"]["test"])
    assert any(v.endswith(":/var/lib/postgresql/data") and v.split(":")[0] in COMPOSE["volumes"]
               for v in db["volumes"])
    for service in (db, *BOTS.values()):
        assert service["restart"] in ("unless-stopped", "always")
    for service in BOTS.values():
        assert service["build"] == "."
        assert service["depends_on"]["postgres"]["condition"] == "service_healthy"
        assert service["env_file"] == ".env"
        assert service["environment"]["DATABASE_URL"].startswith("postgresql://")
        assert "@postgres:5432/" in service["environment"]["DATABASE_URL"]


def test_secrets_come_from_dot_env():
    text = (ROOT / "compose.yaml").read_text(encoding="utf-8")
    assert "DISCORD_TOKEN" not in re.sub(r"#.*", "", text)  # the bots read it from .env
    assert SERVICES["postgres"]["environment"]["POSTGRES_PASSWORD"].startswith(
        "${POSTGRES_PASSWORD:?")
    for service in BOTS.values():
        assert ":${POSTGRES_PASSWORD:?" in service["environment"]["DATABASE_URL"]
    example = (ROOT / ".env.example").read_text(encoding="utf-8")
    for name in ("DISCORD_TOKEN", "POSTGRES_PASSWORD", "SHARD_COUNT", "SHARD_IDS"):
        assert re.search(rf"^{name}=$", example, re.MULTILINE), name


def _serve_health(status: int) -> tuple[http.server.HTTPServer, threading.Thread]:
    """A loopback server answering ``/health`` with ``status`` (anything else: 404)."""
    class Health(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(status if self.path == "/health" else 404)
            self.end_headers()

        def log_message(self, *args) -> None:
            pass

    server = http.server.HTTPServer(("127.0.0.1", 0), Health)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    return server, thread


def _run_check(test: list[str], port: int) -> int:
    assert test[:2] == ["CMD", "python"]  # the image has Python, not curl
    env = {**os.environ, "METRICS_PORT": str(port)}
    return subprocess.run([sys.executable, *test[2:]], env=env, capture_output=True,
                          timeout=30).returncode


def test_every_bot_is_checked_healthy_through_its_own_health_endpoint():
    """Each bot sets METRICS_PORT (the endpoint is off without it) and no METRICS_HOST
    (loopback: the check runs inside the container); its health check asks
    ``/health`` on that port and passes on 200 only. The command is run here against
    a stand-in answering 200, then 503, then against nothing at all."""
    for name, service in BOTS.items():
        env = service["environment"]
        assert 0 < int(env["METRICS_PORT"]) < 65536, name
        assert "METRICS_HOST" not in env, name
        check = service["healthcheck"]
        assert "/health" in check["test"][-1] and "METRICS_PORT" in check["test"][-1]
        for key in ("interval", "timeout", "start_period"):
            assert re.fullmatch(r"\d+s", check[key]), (name, key)
        assert check["retries"] >= 2
        # the check gives up before compose does (the endpoint's own wait is 2 s)
        assert int(check["timeout"][:-1]) > float(re.search(
            r"timeout=(\d+)", check["test"][-1])[1]) > 2
    test = next(iter(BOTS.values()))["healthcheck"]["test"]
    for status, passes in ((200, True), (503, False)):
        server, thread = _serve_health(status)
        try:
            assert (_run_check(test, server.server_address[1]) == 0) == passes, status
        finally:
            server.shutdown()
            thread.join()
            server.server_close()
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    assert _run_check(test, port) != 0
