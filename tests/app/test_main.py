"""``python -m bot`` as a person runs it: no token, a corrupt database, a database
another bot process serves, a database that cannot be written."""

from __future__ import annotations

import asyncio
import re
import shutil
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from bot.storage import MIN_FREE_BYTES, Storage
from tests.postgres import child_environ
from tests.storage.faults import read_only

ROOT = Path(__file__).resolve().parents[2]
NO_TOKEN = "DISCORD_TOKEN is not set"


def run_bot(tmp_path, db: Path, token: str = ""):
    env = child_environ(COMMERCE_DB=str(db), DISCORD_TOKEN=token, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=60)


def stderr_lines(proc) -> list[str]:
    return [ln for ln in proc.stderr.splitlines() if ln.strip()]


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


# ---------------------------------------------------------------- one writer per file

HOLDER = """
import asyncio, sys
from bot.storage import Storage

async def main():
    storage = await Storage.open(sys.argv[1])
    print("ready", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)

asyncio.run(main())
"""


def test_a_second_bot_process_is_refused_until_the_first_is_gone(tmp_path):
    """Two processes on one file: the second stops with one line naming the file and
    the first one's pid, before Discord; once the first dies (SIGKILL: no clean-up
    at all) the kernel has released its lock and a new start gets past the check."""
    db = Path("data/commerce.db")  # relative, as in .env: the line names it so
    env = child_environ(PYTHONPATH=str(ROOT))
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(db)], cwd=tmp_path, env=env,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "ready"
        proc = run_bot(tmp_path, db, token="not-a-real-token")
        assert proc.returncode == 1
        assert stderr_lines(proc) == [
            f"data/commerce.db is in use by another Commerce process (pid {holder.pid}); "
            "stop it first"]
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait(timeout=30)
        holder.stdout.close()
        holder.stdin.close()
    proc = run_bot(tmp_path, db)  # past the database check: the token is what stops it
    assert proc.returncode == 1
    assert len(stderr_lines(proc)) == 1 and NO_TOKEN in proc.stderr


# ---------------------------------------------------------------- unwritable at start
# Real here: the read-only file and folder (chattr +i as root, see tests/storage/faults.py)
# and the full disk (a tmpfs filled to the last byte, in a private mount namespace).
# Simulated: "little free space" (shutil.disk_usage patched), the quick in-process check.


def _prepare(path: Path) -> bytes:
    async def make() -> None:
        store = await Storage.open(path)
        await store.create_table(1, 2, 3, "foster", {}, 30)
        await store.close()

    asyncio.run(make())
    return path.read_bytes()


@pytest.mark.parametrize("case", ["read-only file", "read-only folder", "little free space"])
def test_an_unwritable_database_stops_the_bot_before_discord(tmp_path, monkeypatch, capsys,
                                                             case):
    from bot.__main__ import run_bot as run

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "")  # were the check passed, the token would stop it
    db = Path("data/commerce.db")
    before = _prepare(db)
    target = {"read-only file": db, "read-only folder": db.parent}.get(case)
    if target is None:
        real = shutil.disk_usage
        monkeypatch.setattr(shutil, "disk_usage",
                            lambda where: real(where)._replace(free=MIN_FREE_BYTES // 2))
        code = run(str(db))
    else:
        with read_only(target):
            code = run(str(db))
    err = capsys.readouterr().err
    expected = {
        "read-only file": "data/commerce.db cannot be written (read-only file): "
                          "fix its permissions",
        "read-only folder": "data/commerce.db cannot be written (read-only folder: SQLite "
                            "cannot create its -wal and -shm files): fix the permissions of data",
        "little free space": "data/commerce.db cannot be written (disk full: 512 KiB free, "
                             "at least 1024 KiB needed): free some space on that disk",
    }[case]
    assert code == 1
    assert err.splitlines() == [expected]
    assert db.read_bytes() == before


FULL_DISK = """
set -u
mount -t tmpfs -o size=4m commerce-full "$MNT" || exit 97
cp "$SRC" "$MNT/commerce.db"
dd if=/dev/zero of="$MNT/filler" bs=4k 2>/dev/null   # until ENOSPC: the disk is full
"$PY" -m bot 2>"$OUT/stderr"
echo $? >"$OUT/rc"
cmp -s "$SRC" "$MNT/commerce.db" && echo same >"$OUT/same"
df -B1 --output=avail "$MNT" | tail -1 >"$OUT/avail"
exit 0
"""


def test_a_full_disk_stops_the_bot_before_discord(tmp_path):
    """A real full disk: a 4 MiB tmpfs, mounted in a private mount namespace (nothing
    outside the test sees it), holding the database and a filler up to the last byte."""
    unshare = shutil.which("unshare")
    if unshare is None:
        pytest.skip("no unshare(1) here")
    src, mnt, out = tmp_path / "commerce.db", tmp_path / "mnt", tmp_path / "out"
    mnt.mkdir()
    out.mkdir()
    _prepare(src)
    env = child_environ(PYTHONPATH=str(ROOT), PYTHONDONTWRITEBYTECODE="1",
               DISCORD_TOKEN="not-a-real-token", COMMERCE_DB=str(mnt / "commerce.db"),
               MNT=str(mnt), SRC=str(src), OUT=str(out), PY=sys.executable)
    done = subprocess.run([unshare, "--mount", "--propagation", "private", "sh", "-c",
                           textwrap.dedent(FULL_DISK)], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a private tmpfs here ({done.returncode}): "
                    f"{done.stderr.strip()[:200]}")
    assert int((out / "avail").read_text()) == 0
    assert (out / "rc").read_text().strip() == "1"
    lines = (out / "stderr").read_text().splitlines()
    assert len(lines) == 1, lines
    assert re.fullmatch(
        rf"{re.escape(str(mnt / 'commerce.db'))} cannot be written \(disk full: 0 KiB free, "
        r"at least 1024 KiB needed\): free some space on that disk", lines[0]), lines[0]
    assert (out / "same").exists()  # the database was left untouched
    assert not list(mnt.iterdir())  # and the mount never existed outside the namespace
