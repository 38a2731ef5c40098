"""The fuzz harnesses' invariants over the committed seed corpus and every past
crash (``fuzz/regressions/<target>/``), without atheris: each file goes through
the harness's ``check`` exactly as the fuzzer would run it (issue 11)."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

FUZZ = Path(__file__).resolve().parents[3] / "fuzz"
TARGETS = ("decode", "bundle", "build", "proof")


def _inputs() -> list[tuple[str, Path]]:
    found = []
    for target in TARGETS:
        for folder in ("corpus", "regressions"):
            for path in sorted((FUZZ / folder / target).glob("*")):
                if not path.name.startswith("."):
                    found.append((target, path))
    return found


@pytest.fixture(scope="module")
def harnesses() -> dict[str, object]:
    sys.path.insert(0, str(FUZZ))
    try:
        return {t: importlib.import_module(f"fuzz_{t}") for t in TARGETS}
    finally:
        sys.path.remove(str(FUZZ))


@pytest.mark.parametrize(("target", "path"), _inputs(),
                         ids=[f"{t}/{p.parent.parent.name}/{p.name}" for t, p in _inputs()])
def test_fuzz_input(target: str, path: Path, harnesses: dict[str, object]) -> None:
    harnesses[target].check(path.read_bytes())  # type: ignore[attr-defined]


def test_every_target_has_seeds() -> None:
    for target in TARGETS:
        assert any((FUZZ / "corpus" / target).iterdir()), target


def test_seed_corpus_is_what_seeds_py_writes(harnesses: dict[str, object]) -> None:
    sys.path.insert(0, str(FUZZ))
    try:
        seeds = importlib.import_module("seeds")
    finally:
        sys.path.remove(str(FUZZ))
    for target, files in seeds.corpus().items():
        committed = {p.read_bytes() for p in (FUZZ / "corpus" / target).iterdir()}
        assert committed == set(files.values()), target
