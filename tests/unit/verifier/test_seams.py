"""The typed seams of the verifier: options as one value, reports owning their JSON.

Issue 21 (part 2 and 4): ``check_bundle`` takes keywords or one ``VerifyOptions``
with the same answer; each report builds its own ``por/verify-report/1`` result,
and the pydantic-free reports build exactly what ``VerificationReport`` builds.
"""

from __future__ import annotations

from dataclasses import FrozenInstanceError
from pathlib import Path

import pytest
from bundle_edits import honest

from por.schemas.verification import CheckResult
from por.signing.policy import TrustPolicy
from verifier import VerificationReport, VerifyOptions, check_bundle
from verifier.archive import ArchiveReport
from verifier.fast import fast_report
from verifier.report_form import UncheckedReport

SIGNED = sorted((Path(__file__).resolve().parents[3] / "fixtures" / "bundles" / "valid")
                .glob("*signed*.cbor"))[0]
NOW = 1_767_225_601


def test_options_value_and_keywords_give_one_report() -> None:
    data = SIGNED.read_bytes()
    by_value = check_bundle(data, VerifyOptions(TrustPolicy(now=NOW, require_signature=True)))
    assert by_value == check_bundle(data, now=NOW, require_signature=True)
    assert by_value.first_failure is not None
    assert by_value.first_failure.check_id == "signature.untrusted_key"
    assert check_bundle(data, VerifyOptions(TrustPolicy(now=NOW))).status == "verified"


def test_options_and_keywords_together_are_refused() -> None:
    with pytest.raises(TypeError):
        check_bundle(b"", VerifyOptions(), now=NOW)


def test_options_are_frozen() -> None:
    options = VerifyOptions()
    with pytest.raises(FrozenInstanceError):
        options.max_size = 1  # type: ignore[misc]


def test_lean_report_document_is_the_full_report_document() -> None:
    lean = fast_report(honest("08-quorum-agree").to_cbor())
    assert lean is not None
    assert lean.to_document("b.cbor") == lean.to_report().to_document("b.cbor")
    assert list(lean.to_document("-"))[:3] == ["input", "status", "exit_code"]


def test_unchecked_report_document_is_a_verification_report_document() -> None:
    unchecked = UncheckedReport("io.unreadable", "no such file")
    full = VerificationReport(status="error", checks=[CheckResult(
        check_id="io.unreadable", ok=False, severity="error", message="no such file")])
    assert unchecked.to_document("x") == full.to_document("x")
    assert unchecked.first_failure is unchecked.checks[0]


def test_archive_document_counts_and_worst_exit_code() -> None:
    good = honest("01-boolean-observed").to_cbor()
    reports = (("a", check_bundle(good, lean=True)), ("b", check_bundle(good[:-1])),
               ("c", UncheckedReport("io.unreadable", "is a directory")))
    document = ArchiveReport(reports).to_document()
    assert document["exit_code"] == 2
    assert document["summary"] | {"digest": None} == {
        "count": 3, "verified": 1, "rejected": 1, "error": 1, "digest": None}
    assert [r["input"] for r in document["results"]] == ["a", "b", "c"]
    assert ArchiveReport(()).exit_code == 0


def test_options_hold_one_trust_policy() -> None:
    # Issue 26: VerifyOptions holds the TrustPolicy instead of restating its fields.
    from dataclasses import fields

    from verifier.api import options_from

    assert [f.name for f in fields(VerifyOptions)] == ["trust", "max_size"]
    chosen = options_from(None, trusted_keys=[b"\x01" * 20], require_signature=True, now=7,
                          chain_id=8453, verifying_contract=b"\x02" * 20)
    assert chosen.trust == TrustPolicy(frozenset({b"\x01" * 20}), True, 7, 8453, b"\x02" * 20)
