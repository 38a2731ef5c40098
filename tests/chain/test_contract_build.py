"""The committed contract artifacts are what the pinned compiler makes of the
committed sources (SPEC §14.1), as fixtures/bundles/generate.py is for bundles.

Recompiles ``contracts/src`` with ``node contracts/compile.mjs`` (npm solc at
the exact version package-lock.json pins; the compiler ships inside the
package, nothing is downloaded) into a temporary directory and requires every
file of ``contracts/build`` byte for byte.  Skipped, with the command, when node
or ``npm ci`` in contracts/ is missing; .ci/run does the set-up and requires it
(POR_REQUIRE_SETUP, tests/setup_gate.py).
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from chain_support import ROOT, artifact
from setup_gate import needs

CONTRACTS = ROOT / "contracts"
NODE = shutil.which("node")
INSTALLED = CONTRACTS / "node_modules" / "solc" / "package.json"


def _missing() -> str | None:
    if NODE is None:
        return "node is not installed: cannot run the pinned solc-js"
    if not INSTALLED.is_file():
        return "the pinned solc is not installed in contracts/node_modules"
    return None


def pinned_solc() -> str:
    version: str = json.loads((CONTRACTS / "package.json").read_text())["dependencies"]["solc"]
    return version


def test_the_compiler_is_pinned_exactly() -> None:
    version = pinned_solc()
    assert version.count(".") == 2 and version.replace(".", "").isdigit(), version
    lock = json.loads((CONTRACTS / "package-lock.json").read_text())
    assert lock["packages"]["node_modules/solc"]["version"] == version
    assert artifact()["compiler"]["version"].startswith(version + "+commit.")
    for source in (CONTRACTS / "src").glob("*.sol"):
        assert f"pragma solidity {version};" in source.read_text(), source.name


@needs("contracts-npm", _missing())
def test_recompiling_gives_the_committed_artifacts(tmp_path: Path) -> None:
    assert NODE is not None
    assert json.loads(INSTALLED.read_text())["version"] == pinned_solc()
    result = subprocess.run([NODE, str(CONTRACTS / "compile.mjs"), str(tmp_path)],
                            cwd=CONTRACTS, capture_output=True, text=True, timeout=600,
                            check=False)
    assert result.returncode == 0, result.stderr[-2000:]
    committed = sorted(p.name for p in (CONTRACTS / "build").iterdir())
    assert sorted(p.name for p in tmp_path.iterdir()) == committed
    for name in committed:
        assert (tmp_path / name).read_bytes() == (CONTRACTS / "build" / name).read_bytes(), name
