"""How the CLI and stand-in tests run por (one module for tests/cli and tests/llm_standins).

* :func:`por_env` -- the environment of a child ``python -m por`` (this checkout first);
* :data:`HEAVY` -- the modules a light command (``por verify``, ``--help``) must not import;
* :data:`needs_litellm` -- the set-up gate of a test that drives litellm (``.ci/run``
  requires it: ``pip install '.[llm]'``);
* :func:`scenario_bundles` -- the first scenario markets built into bundle files;
* :func:`open_case` -- ``por dispute open`` on a bundle: the case file a court rules on;
* :func:`run_cli` -- ``por ARGV`` in this process: (exit code, stdout, stderr).
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pytest
from setup_gate import needs

from por.bundle import build_bundle
from por.cli.app import main
from por.scenarios import list_scenarios, load_scenario

ROOT = Path(__file__).resolve().parents[1]
#: Imported only by the commands that need them (pydantic, codecs, key stacks).
HEAVY = ("pydantic", "cbor2", "cryptography", "coincurve", "Crypto")
needs_litellm = needs("llm", "litellm is not installed"
                      if importlib.util.find_spec("litellm") is None else None)


def por_env(**extra: str) -> dict[str, str]:
    """This process's environment with this checkout on ``PYTHONPATH``, plus ``extra``."""
    return {**os.environ, "PYTHONPATH": str(ROOT), **extra}


def scenario_bundles(folder: Path, count: int) -> list[str]:
    """The first ``count`` scenario markets built into ``folder/<name>.cbor``."""
    paths = []
    for name in list_scenarios()[:count]:
        scenario = load_scenario(name)
        path = folder / f"{name}.cbor"
        path.write_bytes(build_bundle(scenario.prompt_spec, scenario.evidence))
        paths.append(str(path))
    return paths


def open_case(folder: Path, bundle: bytes, claim: str, *options: str) -> str:
    """``por dispute open`` on ``bundle``'s first evidence leaf: the case file's path."""
    path = folder / "bundle.cbor"
    path.write_bytes(bundle)
    out = str(folder / "case.cbor")
    assert main(["dispute", "open", str(path), "--leaf", "evidence_leaf:0", "--claim", claim,
                 *options, "-o", out]) == 0
    return out


__all__ = ["HEAVY", "ROOT", "needs_litellm", "open_case", "por_env", "run_cli", "scenario_bundles"]


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``por ARGV`` run in this process: its exit code and what it printed."""
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err
