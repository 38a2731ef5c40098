"""The generated ``Check``/``Challenge`` and the pydantic ``CheckResult``/``ChallengeRef``
are one declaration (issue 21): same fields, same JSON object in a verify report."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from por.lean.writer_hooks import ChallengeRecord, CheckRecord
from por.lean.writers_gen import Challenge, Check
from por.schemas.verification import ChallengeRef, CheckResult
from verifier.report_form import plain_check

ids = st.text("abcdefghij._", min_size=1, max_size=12)
maybe_text = st.none() | st.text(max_size=8)
challenges = st.none() | st.builds(
    Challenge, st.sampled_from(["evidence_leaf", "reasoning_leaf", "por_bundle", "prompt_spec",
                                "verdict"]),
    evidence_id=st.none() | ids, step_id=st.none() | ids,
    leaf_index=st.none() | st.integers(0, 2**63 - 1), reason=maybe_text)
checks = st.builds(
    Check, ids, st.booleans(), st.sampled_from(["info", "warn", "error"]), st.text(max_size=20),
    expected=maybe_text, actual=maybe_text,
    details=st.none() | st.dictionaries(ids, st.integers() | st.text(max_size=4), max_size=3),
    challenge=challenges)


def test_the_fields_are_the_models() -> None:
    assert tuple(CheckResult.model_fields) == Check.NAMES
    assert tuple(ChallengeRef.model_fields) == Challenge.NAMES
    assert issubclass(Check, CheckRecord) and issubclass(Challenge, ChallengeRecord)


@given(checks)
def test_the_document_is_the_models(check: Check) -> None:
    model = check.to_model()
    assert check.to_document() == model.to_document()
    assert list(check.to_document()) == list(model.to_document())
    assert check.failed == (not model.ok and model.severity == "error")


def test_a_plain_check() -> None:
    passed, failed = plain_check("codec.ok", "m", ok=True), plain_check("x.y", "m", ok=False)
    assert (passed.severity, passed.failed) == ("info", False)
    assert (failed.severity, failed.failed) == ("error", True)
    assert failed.to_document() == failed.to_model().to_document()
