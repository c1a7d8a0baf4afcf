"""Test-wide settings: the Hypothesis profile (tests/profiles.py; ``HYPOTHESIS_PROFILE``
chooses: under CI a fixed, derandomized set of examples so a landing never depends on
luck, locally new ones each run, ``thorough`` ten times as many for scripts/thorough).

``DATABASE_URL=postgresql://…`` when pytest starts means "run on THAT PostgreSQL
server" (tests/postgres.py): the fixtures make their databases there, the SimCord
suite runs on PostgreSQL (``COMMERCE_TEST_BACKEND=postgres``, tests/cogs/conftest.py),
and the variable is then removed from this process's environment, so that no bot,
script or ``python -m bot`` a test starts is silently pointed at it.
"""

from __future__ import annotations

import os
import shutil

import pytest

# PostgreSQL: a real server per session (DATABASE_URL's, else a throw-away one),
# a fresh database per test
from tests.postgres import (  # noqa: F401
    GIVEN_URL,
    SERVER_URL,
    pg_migrated_url,
    pg_server,
    pg_template,
    pg_throwaway_server,
    pg_url,
)

if SERVER_URL is not None:
    os.environ["COMMERCE_TEST_BACKEND"] = "postgres"
    del os.environ["DATABASE_URL"]

from tests import profiles

PROFILE = profiles.load()


def pytest_report_header(config: pytest.Config) -> str:
    return f"hypothesis profile: {PROFILE} (HYPOTHESIS_PROFILE)"


#: a RAM disk for the tests' ``tmp_path`` folders (their SQLite files): see ``pytest_configure``
RAM_DISK = "/dev/shm"
#: bytes free it must have (three runs' folders take about 170 MB; a container's default
#: /dev/shm is 64 MB, too small: the disk is used then)
RAM_DISK_NEEDS = 1 << 30


def pytest_configure(config: pytest.Config) -> None:
    if GIVEN_URL and SERVER_URL is None:
        raise pytest.UsageError("DATABASE_URL must name a PostgreSQL server for the tests "
                                "(postgresql://USER@HOST:PORT/DB), or be unset")
    # The tests' folders (``tmp_path``: pytest-of-USER/pytest-N, the last three kept) go
    # on the machine's RAM disk when it has one, unless TMPDIR or --basetemp says where:
    # each SQLite commit waited for the disk (fsync) otherwise, about a tenth of a
    # simulated game's time. No test looks at durability after a power cut.
    if (config.option.basetemp is None and not os.environ.get("TMPDIR")
            and not os.environ.get("PYTEST_DEBUG_TEMPROOT")
            and os.path.isdir(RAM_DISK) and os.access(RAM_DISK, os.W_OK | os.X_OK)
            and shutil.disk_usage(RAM_DISK).free >= RAM_DISK_NEEDS):
        os.environ["PYTEST_DEBUG_TEMPROOT"] = RAM_DISK
