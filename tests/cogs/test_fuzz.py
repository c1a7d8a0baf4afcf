"""Issue 3 proof: random members, commands and clicks never break an invariant."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.cogs.fuzz import FuzzReport, fuzz_run
from tests.profiles import examples


@settings(max_examples=examples(4, thorough=80), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
async def test_random_members_and_clicks_keep_every_invariant(tmp_path, seed):
    report = FuzzReport()
    await fuzz_run(tmp_path, random.Random(seed), steps=60, report=report)
    assert report.interactions > 0
    assert not report.errors
