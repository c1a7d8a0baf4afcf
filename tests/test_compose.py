"""compose.yaml runs N bot processes on one PostgreSQL: every shard is served by
exactly one process, every service restarts by itself, the database is checked
healthy before the bots start and keeps its data on a volume, each bot is checked
healthy through its own /health endpoint, backups land on a volume of their own (a
pg_dump is one ``docker compose run`` away), and no secret is written in the file
(they come from .env, as .env.example documents). The image and CI install every
dependency at the version constraints.txt pins."""

from __future__ import annotations

import http.server
import importlib.metadata
import os
import re
import socket
import subprocess
import sys
import threading
import tomllib
from pathlib import Path

import yaml
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from bot.storage.shards import parse_shards

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
#: the flags of the documented restore (compose.yaml's comments, README "Backups");
#: tests/storage/test_backups.py restores a dump with them
RESTORE_FLAGS = "--clean --if-exists --single-transaction"


def test_backups_land_on_a_volume_and_a_pg_dump_is_one_run_away():
    """``docker compose run --rm pg-backup`` writes a pg_dump of the database into the
    ``backups`` volume (never started by ``up``: a profile), with the server's own
    image, so its own version of pg_dump; the bots' SQLite copies land in the same
    volume."""
    assert "backups" in COMPOSE["volumes"]
    backup = SERVICES["pg-backup"]
    assert backup["image"] == SERVICES["postgres"]["image"]
    assert backup["profiles"] == ["backup"]
    assert backup["depends_on"]["postgres"]["condition"] == "service_healthy"
    assert backup["environment"]["PGPASSWORD"].startswith("${POSTGRES_PASSWORD:?")
    assert "backups:/backups" in backup["volumes"]
    shell, flag, script = backup["command"]
    assert (shell, flag) == ("sh", "-c")
    assert "pg_dump --host=postgres --username=commerce --format=custom" in script
    assert "dump=/backups/commerce-$$(date -u +%Y%m%dT%H%M%SZ).dump" in script
    for service in BOTS.values():
        assert "backups:/app/data/backups" in service["volumes"]
    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    assert "mkdir -p /app/data/backups && chown -R commerce:commerce /app/data" in dockerfile
    text = (ROOT / "compose.yaml").read_text(encoding="utf-8")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "docker compose run --rm pg-backup" in text and "docker compose run --rm pg-backup" in readme
    assert RESTORE_FLAGS in text and RESTORE_FLAGS in " ".join(readme.split())


def _pins() -> dict[str, str]:
    pins = {}
    for line in (ROOT / "constraints.txt").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            name, version = line.split("==")
            pins[canonicalize_name(name)] = version
    return pins


def test_every_dependency_is_pinned_and_the_image_and_ci_install_with_the_pins():
    """constraints.txt pins every package the project needs, its test and sandbox
    extras and what they need in turn (the installed distributions' own
    requirements, followed from pyproject.toml), each at a version pyproject.toml
    allows; the Dockerfile and scripts/test (which .ci/run runs) install with it."""
    pins = _pins()
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    direct = [Requirement(r) for r in project["dependencies"]]
    for extra in ("test", "sandbox"):
        direct += [Requirement(r) for r in project["optional-dependencies"][extra]]
    for req in direct:
        if req.marker is None or req.marker.evaluate():
            name = canonicalize_name(req.name)
            assert name in pins, f"{req.name} is not pinned"
            assert req.specifier.contains(pins[name], prereleases=True), (req, pins[name])
    # and everything they need, as installed here
    seen: set[str] = set()
    todo = [r for r in direct if r.marker is None or r.marker.evaluate()]
    while todo:
        req = todo.pop()
        name = canonicalize_name(req.name)
        if name in seen:
            continue
        seen.add(name)
        assert name in pins, f"{req.name} (needed by the project) is not pinned"
        for extra in sorted(req.extras) or [""]:
            for raw in importlib.metadata.requires(req.name) or []:
                sub = Requirement(raw)
                if sub.marker is None or sub.marker.evaluate({"extra": extra}):
                    todo.append(sub)
    assert len(seen) >= 40
    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    assert "COPY pyproject.toml README.md constraints.txt ./" in dockerfile
    assert "pip install --no-cache-dir --constraint constraints.txt ." in dockerfile
    script = (ROOT / "scripts" / "test").read_text(encoding="utf-8")
    assert re.search(r"pip install .*--constraint constraints\.txt \\\n\s+-e \"\.\[test\]\"",
                     script), script
    assert "./scripts/test" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")
