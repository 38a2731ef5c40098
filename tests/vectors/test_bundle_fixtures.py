"""Committed bundle fixtures: regenerate byte for byte; each invalid one fails
with the check id its folder names (SPEC §6.2).

Every fixture is verified at the generator's fixed ``VERIFY_NOW`` (one second
after the signed fixtures' issued_at), with no trusted keys: signed fixtures
need a time (without one, step 8 is ``signature.no_time``); unsigned ones
ignore it."""

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


GENERATOR = _generator()
NOW: int = GENERATOR.VERIFY_NOW


def test_fixtures_are_what_the_generator_produces() -> None:
    produced = GENERATOR.generate()
    committed = {str(p.relative_to(ROOT)): p.read_bytes() for p in VALID + INVALID}
    assert sorted(produced) == sorted(committed)
    for rel, data in produced.items():
        assert committed[rel] == data, f"{rel} differs from the generator's output"


def test_there_are_fixtures() -> None:
    assert len(VALID) >= 10
    assert len(INVALID) >= 20


def test_signed_fixtures_need_a_time() -> None:
    # Without now a signed bundle is "no verdict"; an unsigned one is unaffected.
    signed = [p for p in VALID if ".signed-" in p.name]
    assert len(signed) == 2
    for path in signed:
        report = check_bundle(path.read_bytes())
        assert (report.status, report.first_failure and report.first_failure.check_id) == (
            "error", "signature.no_time")
    unsigned = ROOT / "valid" / "01-boolean-observed.cbor"
    assert check_bundle(unsigned.read_bytes()).status == "verified"


@pytest.mark.parametrize("path", VALID, ids=lambda p: p.stem)
def test_valid_bundle_verifies(path: Path) -> None:
    report = check_bundle(path.read_bytes(), now=NOW)
    assert report.status == "verified", report.first_failure
    assert report.exit_code == 0


#: A good signature outside its validity period is set aside with a warning
#: (SPEC §6.2 step 8): these fixtures fail only when the caller asks for a
#: currently valid trusted signature.
NEEDS_CURRENT = frozenset({"signature.expired", "signature.not_yet_valid"})


def _options(path: Path) -> dict[str, object]:
    if path.parent.name not in NEEDS_CURRENT:
        return {}
    from por.bundle import Bundle
    from por.signing import VerdictSignature

    [blob] = Bundle.from_cbor(path.read_bytes()).signatures
    return {"require_signature": True,
            "trusted_keys": [VerdictSignature.from_cbor(blob).signer]}


@pytest.mark.parametrize("path", [p for p in INVALID if p.parent.name in NEEDS_CURRENT],
                         ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_out_of_period_signature_is_a_warning_by_default(path: Path) -> None:
    report = check_bundle(path.read_bytes(), now=NOW)
    assert report.status == "verified", report.first_failure
    [note] = [c for c in report.checks if c.check_id == path.parent.name]
    assert (note.ok, note.severity) == (True, "warn")


@pytest.mark.parametrize("path", INVALID, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_invalid_bundle_fails_with_its_check_id(path: Path) -> None:
    report = check_bundle(path.read_bytes(), now=NOW, **_options(path))  # type: ignore[arg-type]
    failure = report.first_failure
    assert failure is not None
    assert failure.check_id == path.parent.name
    expected_status = "error" if failure.check_id.startswith(
        ("manifest.unsupported", "schema.unsupported_bundle")) else "rejected"
    assert report.status == expected_status
    assert report.exit_code == (2 if expected_status == "error" else 1)
