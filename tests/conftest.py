"""Test-wide settings: under CI, hypothesis runs a fixed (derandomized) set of examples
so a landing never depends on luck; locally it keeps exploring new ones."""

from __future__ import annotations

import os

from hypothesis import settings

# PostgreSQL: a real server per session, a fresh database per test
from tests.postgres import pg_migrated_url, pg_server, pg_template, pg_url  # noqa: F401

settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")
