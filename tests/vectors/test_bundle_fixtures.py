"""Committed bundle fixtures: regenerate byte for byte; each invalid one fails
with the check id its folder names (SPEC §6.2)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from verifier import check_bundle

ROOT = Path(__file__).resolve().parents[2] / "fixtures" / "bundles"
VALID = sorted((ROOT / "valid").glob("*.cbor"))
INVALID = sorted((ROOT / "invalid").glob("*/*.cbor"))


def _generator():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("gen_bundles", ROOT / "generate.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_fixtures_are_what_the_generator_produces() -> None:
    produced = _generator().generate()
    committed = {str(p.relative_to(ROOT)): p.read_bytes() for p in VALID + INVALID}
    assert sorted(produced) == sorted(committed)
    for rel, data in produced.items():
        assert committed[rel] == data, f"{rel} differs from the generator's output"


def test_there_are_fixtures() -> None:
    assert len(VALID) >= 10
    assert len(INVALID) >= 20


@pytest.mark.parametrize("path", VALID, ids=lambda p: p.stem)
def test_valid_bundle_verifies(path: Path) -> None:
    report = check_bundle(path.read_bytes())
    assert report.status == "verified", report.first_failure
    assert report.exit_code == 0


@pytest.mark.parametrize("path", INVALID, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_invalid_bundle_fails_with_its_check_id(path: Path) -> None:
    report = check_bundle(path.read_bytes())
    failure = report.first_failure
    assert failure is not None
    assert failure.check_id == path.parent.name
    expected_status = "error" if failure.check_id.startswith("manifest.unsupported") else "rejected"
    assert report.status == expected_status
    assert report.exit_code == (2 if expected_status == "error" else 1)
