"""Test-wide settings: under CI, hypothesis runs a fixed (derandomized) set of examples
so a landing never depends on luck; locally it keeps exploring new ones."""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")
