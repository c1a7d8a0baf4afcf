"""Files and folders that really cannot be written, for whoever runs the tests.

Root ignores permission bits (``chmod 0o444`` stops nobody running as root, and
the tests run as root here), so as root ``read_only`` sets the immutable flag
(``chattr +i``), which binds root too (it needs CAP_LINUX_IMMUTABLE and a
filesystem with the flag, such as ext4; verified on this machine's ext4). As
another user it clears the write bits instead, which binds that user the same
way. Either way it first proves the target refuses a write, and skips the test
where neither works.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest


def _refuses_writes(target: Path) -> bool:
    try:
        if target.is_dir():
            probe = target / f".probe-{uuid.uuid4().hex}"
            probe.touch()
            probe.unlink()
        else:
            os.close(os.open(target, os.O_WRONLY))
    except PermissionError:
        return True
    return False


@contextlib.contextmanager
def read_only(target: Path) -> Iterator[str]:
    """Make ``target`` (a file or a folder) really read-only inside the block;
    yields how (``"chattr +i"`` or ``"chmod"``). Restored afterwards."""
    if os.geteuid() == 0:
        if shutil.which("chattr") is None:
            pytest.skip("running as root without chattr: cannot make a file read-only")
        done = subprocess.run(["chattr", "+i", str(target)], capture_output=True, text=True)
        if done.returncode != 0:
            pytest.skip(f"chattr +i refused here: {done.stderr.strip()}")

        def undo() -> None:
            subprocess.run(["chattr", "-i", str(target)], check=True)

        how = "chattr +i"
    else:
        mode = target.stat().st_mode & 0o7777
        target.chmod(mode & ~0o222)

        def undo() -> None:
            target.chmod(mode)

        how = "chmod"
    try:
        if not _refuses_writes(target):
            pytest.skip(f"{how} does not stop writes to {target} here")
        yield how
    finally:
        undo()
