"""Test-wide configuration: hypothesis profiles, and the set-up gates (setup_gate.py).

``ci`` is derandomized (same examples every run, SPEC §12 determinism rules for
the test suite itself); ``dev`` explores.  CI sets HYPOTHESIS_PROFILE=ci.
"""

from __future__ import annotations

import os

import pytest
import setup_gate
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    derandomize=True,
    max_examples=60,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
)
settings.register_profile("dev", max_examples=100, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def pytest_runtest_setup(item: pytest.Item) -> None:
    setup_gate.apply(item)
