"""Contradiction detection (seed M06 §9, §13) and how it feeds conflict_detected."""

from __future__ import annotations

import pytest
from factories import (
    bundle,
    item,
    json_field,
    price_body,
    prompt_spec,
    requirement,
    two_source_case,
    variables_of,
)

from por.auditor import AuditorAgent
from por.auditor.claim_extraction import Claim, claim_id_from
from por.auditor.contradiction_checks import ContradictionChecker
from por.schemas import CheckResult


def claim(eid: str, value: str | bool | int, key: str = "price", kind: str = "numeric") -> Claim:
    return Claim(claim_id=claim_id_from(eid, "$.p", value), kind=kind,  # type: ignore[arg-type]
                 key=key, path="$.p", value=value, evidence_id=eid, confidence_bps=9000)


def test_numeric_conflict_beyond_tolerance_gives_expected_check() -> None:
    a, b, c = claim("e1", "101.5"), claim("e2", "99"), claim("e3", "100")
    results = ContradictionChecker("1").check([a, b, c])
    assert results == [CheckResult(
        check_id="contradiction.numeric", ok=False, severity="warn",
        message="numeric claims for 'price' disagree: 99 (e2) vs 101.5 (e1)",
        details={"kind": "numeric", "key": "price", "claim_ids": [b.claim_id, a.claim_id],
                 "evidence_ids": ["e2", "e1"], "values": ["99", "101.5"], "claim_count": 3})]


@pytest.mark.parametrize(("values", "tolerance", "conflict"), [
    (("100", "100"), "0", False),
    (("100", "100.5"), "0.5", False),        # spread == tolerance: agreement (closed)
    (("100", "100.50000001"), "0.5", True),  # just beyond
    (("100", "100.00000001"), "0", True),
    (("-1", "1"), "2", False),
    # SPEC §3.2: distances are exact however many digits they need (61 here):
    # 10^30 + 10^-30 vs 0 is within a tolerance of 10^31, and just beyond 10^30.
    (("1" + "0" * 30 + "." + "0" * 29 + "1", "0"), "1" + "0" * 31, False),
    (("1" + "0" * 30 + "." + "0" * 29 + "1", "0"), "1" + "0" * 30, True),
    (("1" + "0" * 30, "0"), "1" + "0" * 31, False),
])
def test_numeric_tolerance_boundaries(values: tuple[str, str], tolerance: str,
                                      conflict: bool) -> None:
    claims = [claim(f"e{n}", v) for n, v in enumerate(values)]
    assert bool(ContradictionChecker(tolerance).check(claims)) is conflict


def test_boolean_conflict_names_first_of_each_value_in_claim_order() -> None:
    f1, t1, t2, f2 = (claim("e1", False, "up", "boolean"), claim("e2", True, "up", "boolean"),
                      claim("e3", True, "up", "boolean"), claim("e4", False, "up", "boolean"))
    (result,) = ContradictionChecker().check([f1, t1, t2, f2])
    assert result.check_id == "contradiction.boolean"
    assert result.severity == "warn" and result.ok is False
    assert result.details is not None
    assert result.details["evidence_ids"] == ["e1", "e2"]
    assert result.details["values"] == ["false", "true"]
    assert result.details["claim_count"] == 4


def test_agreeing_booleans_and_other_keys_do_not_conflict() -> None:
    claims = [claim("e1", True, "up", "boolean"), claim("e2", True, "up", "boolean"),
              claim("e3", "5", "volume"), claim("e4", "100")]
    assert ContradictionChecker().check(claims) == []


def test_timestamps_and_text_are_not_compared() -> None:
    claims = [claim("e1", 1500, "at", "timestamp"), claim("e2", 1600, "at", "timestamp"),
              claim("e3", "a", "name", "text"), claim("e4", "b", "name", "text")]
    assert ContradictionChecker().check(claims) == []


def test_groups_reported_in_first_seen_order() -> None:
    claims = [claim("e1", True, "up", "boolean"), claim("e2", "1"), claim("e3", "2"),
              claim("e4", False, "up", "boolean")]
    assert [r.check_id for r in ContradictionChecker().check(claims)] == [
        "contradiction.boolean", "contradiction.numeric"]


# --- Through the auditor: which contradictions set conflict_detected. ---

def test_metric_conflict_sets_conflict_detected() -> None:
    spec, evidence = two_source_case("101.5", "99")
    trace, report = AuditorAgent().audit(spec, evidence)
    assert variables_of(trace)["conflict_detected"] is True
    assert [c.check_id for c in report.checks if c.check_id.startswith("contradiction.")] == [
        "contradiction.numeric"]
    assert report.ok  # a conflict is a finding, not a failed audit


def test_conflict_within_tolerance_is_not_detected() -> None:
    spec, evidence = two_source_case("101.5", "101", tolerance="0.5")
    trace, _ = AuditorAgent().audit(spec, evidence)
    assert variables_of(trace)["conflict_detected"] is False


def test_conflict_on_another_key_does_not_set_conflict_detected() -> None:
    fields = [json_field("price", "numeric", "$.data.price"),
              json_field("volume", "numeric", "$.data.volume")]
    spec = prompt_spec(requirements=[requirement(fields=fields)])
    evidence = bundle([item("e1", b'{"data":{"price":101,"volume":1}}'),
                       item("e2", b'{"data":{"price":101,"volume":2}}', source_id="src_b")])
    trace, report = AuditorAgent().audit(spec, evidence)
    assert variables_of(trace)["conflict_detected"] is False
    conflicts = trace.steps[-3].output["conflicts"]
    assert isinstance(conflicts, list) and len(conflicts) == 1
    assert conflicts[0]["key"] == "volume"  # type: ignore[index,call-overload]
    assert any(c.check_id == "contradiction.numeric" for c in report.checks)


def test_excluded_evidence_does_not_conflict() -> None:
    # e2 disagrees but lies outside the window: it feeds nothing, so no conflict.
    spec = prompt_spec()
    evidence = bundle([item("e1", price_body("101.5")),
                       item("e2", price_body("5"), source_id="src_b", retrieved_at=5000)])
    trace, _ = AuditorAgent().audit(spec, evidence)
    assert variables_of(trace)["conflict_detected"] is False


def test_boolean_metric_conflict() -> None:
    req = requirement(fields=[json_field("happened", "boolean", "$.happened")])
    spec = prompt_spec(requirements=[req], predicate="event_observed", metric="happened")
    evidence = bundle([item("e1", b'{"happened":true}'),
                       item("e2", b'{"happened":false}', source_id="src_b")])
    trace, _ = AuditorAgent().audit(spec, evidence)
    variables = variables_of(trace)
    assert variables["conflict_detected"] is True
    assert variables["event_observed"] is True  # single_best/source_order: e1
