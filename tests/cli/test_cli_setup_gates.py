"""Issue 26 Deliver 1: `.ci/run` requires every set-up gate explicitly.

A test that needs set-up beyond README's test command skips on a developer's
machine (tests/setup_gate.py); CI does the set-up and names each gate in
``POR_REQUIRE_SETUP``, so a set-up that silently failed fails CI instead of
skipping.  A gate added to ``GATES`` but not to `.ci/run` fails here.
"""

from __future__ import annotations

import re
from pathlib import Path

from setup_gate import GATES

ROOT = Path(__file__).resolve().parents[2]


def test_ci_requires_every_gate() -> None:
    script = (ROOT / ".ci" / "run").read_text()
    required: set[str] = set()
    for value in re.findall(r"POR_REQUIRE_SETUP=(\S+)", script):
        required.update(re.findall(r"[a-z][a-z0-9-]*", value.split("}", 1)[-1]))
    assert set(GATES) <= required, sorted(set(GATES) - required)


def test_every_gate_names_its_command() -> None:
    for gate, command in GATES.items():
        assert command.strip() and "\n" not in command, gate
