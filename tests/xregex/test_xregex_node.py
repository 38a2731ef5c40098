"""SPEC §12.1.2's regex measure in a second language (tests/xregex/measure.mjs, JavaScript,
written from SPEC's text): it must give every vector of fixtures/vectors/regex.json
and the Python measure's answer on random patterns, plan by plan and number by number."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from setup_gate import needs
from vector_generators import VECTORS
from xregex_patterns import write_random_vectors

HERE = Path(__file__).resolve().parent
pytestmark = needs("node", None if shutil.which("node") else "node is not installed")


def run_node(path: Path) -> subprocess.CompletedProcess[str]:
    node = shutil.which("node") or "node"
    return subprocess.run([node, str(HERE / "measure.mjs"), str(path)], capture_output=True,
                          text=True, timeout=120, check=False)


def test_js_measure_gives_every_vector() -> None:
    result = run_node(VECTORS / "regex.json")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().startswith("ok"), result.stdout


def test_js_measure_agrees_on_random_patterns(tmp_path: Path) -> None:
    result = run_node(write_random_vectors(tmp_path / "random.json"))
    assert result.stdout.strip() == "ok 600", result.stdout[:2000]
