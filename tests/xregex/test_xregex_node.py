"""SPEC §12.1.2's regex measure in a second language (tests/xregex/measure.mjs, JavaScript,
written from SPEC's text): it must give every vector of fixtures/vectors/regex.json
and the Python measure's answer on random patterns, plan by plan and number by number."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path

from setup_gate import needs
from vector_generators import VECTORS, load_generator

HERE = Path(__file__).resolve().parent
pytestmark = needs("node", None if shutil.which("node") else "node is not installed")

PIECES = ["a", "b", "é", ".", "(", ")", "(?:", "(?i)", "|", "*", "+", "?", "{2}", "{1,3}",
          "{0,}", "{,2}", "{01}", "[a-z]", "[^a]", "[ab]", "[\\d.]", "[a-]", "[]", "\\d", "\\W",
          "\\.", "\\C", "\\Q", "\\pL", "\\<", "\\_", "\\\"", "\\n", "^", "$", "]", "{", "}", "\\"]


def run_node(path: Path) -> subprocess.CompletedProcess[str]:
    node = shutil.which("node") or "node"
    return subprocess.run([node, str(HERE / "measure.mjs"), str(path)], capture_output=True,
                          text=True, timeout=120, check=False)


def test_js_measure_gives_every_vector() -> None:
    result = run_node(VECTORS / "regex.json")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().startswith("ok"), result.stdout


def test_js_measure_agrees_on_random_patterns(tmp_path: Path) -> None:
    gen = load_generator("gen_regex")
    rng = random.Random(12)  # noqa: S311 - reproducible patterns, not a secret
    patterns = ["(" + "".join(rng.choice(PIECES) for _ in range(rng.randrange(1, 9))) + ")"
                for _ in range(600)]
    path = tmp_path / "random.json"
    path.write_text(json.dumps({"patterns": [gen._measured(p) for p in patterns],
                                "requirements": []}), encoding="utf-8")
    result = run_node(path)
    assert result.stdout.strip() == "ok 600", result.stdout[:2000]
