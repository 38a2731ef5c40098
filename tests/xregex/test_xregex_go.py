"""SPEC §12.1.2 run in Go (tests/xregex/go, standard library only): its own reading of
the subset, measure and plan from SPEC's text, and Go's `regexp` (RE2 syntax) on
every admitted pattern of fixtures/vectors/regex.json: the same group count, the
committed captures, budgets and match groups.  On 600 random patterns it must give
the Python measure's answer.  Any disagreement is printed, one line each, and fails.

The build is offline: ``GOFLAGS=-mod=mod GOPROXY=off GOTOOLCHAIN=local``."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from setup_gate import needs
from vector_generators import VECTORS
from xregex_patterns import closing_counts, write_random_vectors

SOURCE = Path(__file__).resolve().parent / "go"
GO = shutil.which("go")
pytestmark = needs("go", None if GO else "the Go toolchain (go) is not installed")


@pytest.fixture(scope="module")
def checker(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("xregex-go")
    env = dict(os.environ, GOFLAGS="-mod=mod", GOPROXY="off", GOTOOLCHAIN="local",
               CGO_ENABLED="0")
    if "GOCACHE" not in env and "HOME" not in env:
        env["GOCACHE"] = str(out / "cache")
    binary = out / "xregex"
    built = subprocess.run([GO or "go", "build", "-o", str(binary), "."], cwd=SOURCE, env=env,
                           capture_output=True, text=True, timeout=600, check=False)
    assert built.returncode == 0, built.stderr
    return binary


def run(binary: Path, vectors: Path) -> tuple[int, int, str]:
    result = subprocess.run([str(binary), str(vectors)], capture_output=True, text=True,
                            timeout=300, check=False)
    passed, failed = closing_counts(result.stdout)
    assert result.returncode == (1 if failed else 0), result.stderr
    return passed, failed, result.stdout


def test_go_gives_every_vector(checker: Path) -> None:
    passed, failed, out = run(checker, VECTORS / "regex.json")
    assert failed == 0 and passed > 0, out


def test_go_agrees_on_random_patterns(checker: Path, tmp_path: Path) -> None:
    path = write_random_vectors(tmp_path / "random.json", matches=2000)
    passed, failed, out = run(checker, path)
    assert failed == 0 and passed >= 600 + 2000, out


def test_go_reports_each_wrong_vector(checker: Path, tmp_path: Path) -> None:
    """Canary: a wrong width and a wrong match group are two disagreement lines."""
    data = json.loads((VECTORS / "regex.json").read_text(encoding="utf-8"))
    data["patterns"][0]["width"] += 1
    data["matches"][0]["groups"] = ["wrong"]
    path = tmp_path / "wrong.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    _, failed, out = run(checker, path)
    assert failed == 2 and out.count("DISAGREE ") == 2, out
