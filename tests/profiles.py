"""Hypothesis profiles of the suite, chosen by ``HYPOTHESIS_PROFILE``.

tests/conftest.py loads one before any test module is imported.

- ``ci`` (the default under CI, ``CI`` set): the example counts the tests name, on a
  fixed (derandomized) set of examples, so a landing never depends on luck;
- ``dev`` (the default elsewhere): the same counts, new examples each run;
- ``thorough``: ten times the examples (or the count a test names for it), new ones
  each run (``scripts/thorough``).

A test names its count as ``examples(n)``: ``n`` under ``ci`` and ``dev``, ``10 n``
under ``thorough``; a test naming none gets the profile's own ``max_examples``. A slow
test may name its thorough count apart, ``examples(n, thorough=m)``: ``n`` in the suite
(enough for its invariant on every run), ``m`` under ``thorough``.
"""

from __future__ import annotations

import os

from hypothesis import settings

#: ``max_examples`` of a test that names no count, under ``ci`` and ``dev``;
#: ``examples(n)`` scales ``n`` by the loaded profile's ``max_examples`` over this
BASE = 100

settings.register_profile("ci", max_examples=BASE, derandomize=True, print_blob=True)
settings.register_profile("dev", max_examples=BASE)
settings.register_profile("thorough", max_examples=10 * BASE)


def load() -> str:
    """Load the profile ``HYPOTHESIS_PROFILE`` names (else ``ci`` under CI, ``dev``
    elsewhere) and return its name; an unknown name raises ``InvalidArgument``."""
    name = os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev")
    settings.load_profile(name)
    return name


def examples(n: int, thorough: int | None = None) -> int:
    """``n`` examples scaled to the loaded profile (at least 1); with ``thorough``,
    that many under the ``thorough`` profile instead of ``10 n``."""
    scale = settings.default.max_examples
    if thorough is not None and scale > BASE:
        return max(1, thorough * scale // (10 * BASE))
    return max(1, n * scale // BASE)
