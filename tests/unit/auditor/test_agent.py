"""AuditorAgent: contract, trace shape, trace id, report (seed M06 §4, §7)."""

from __future__ import annotations

import hashlib

from factories import bundle, item, price_body, prompt_spec, two_source_case, variables_of

from por.auditor import AuditorAgent, trace_id_from
from por.schemas import EvaluationVariables


def test_version_and_name() -> None:
    assert AuditorAgent.VERSION == "por-auditor/2"
    assert AuditorAgent.role == "auditor"
    assert AuditorAgent().name == "auditor"
    assert AuditorAgent(name="a2").name == "a2"


def test_trace_shape_for_a_two_source_requirement() -> None:
    spec, evidence = two_source_case()
    trace, report = AuditorAgent().audit(spec, evidence)
    shape = [(s.step_id, s.step_type, s.inputs, s.evidence_ids, s.prior_step_ids)
             for s in trace.steps]
    assert shape == [
        ("step_0001", "extract", {"kind": "extract_claims"}, ["e1"], []),
        ("step_0002", "extract", {"kind": "extract_claims"}, ["e2"], []),
        ("step_0003", "check", {"kind": "check_requirement", "requirement_id": "r1"},
         ["e1", "e2"], ["step_0001", "step_0002"]),
        ("step_0004", "aggregate", {"kind": "aggregate", "requirement_id": "r1"},
         ["e1", "e2"], ["step_0001", "step_0002", "step_0003"]),
        ("step_0005", "check", {"kind": "contradictions"}, [], ["step_0003"]),
        ("step_0006", "deduce", {"kind": "deduce"}, ["e1"], ["step_0004", "step_0005"]),
        ("step_0007", "map", {"kind": "map"}, ["e1"], ["step_0006"]),
    ]
    assert variables_of(trace) == EvaluationVariables(
        event_observed=True, numeric_value="101.5", conflict_detected=False,
        insufficient_evidence=False, fallback_used=False, provenance_ok=True,
        source_summary=["e1"]).to_value()
    assert report.ok and report.challenge is None


def test_trace_id_formula() -> None:
    spec, evidence = two_source_case()
    # SPEC §12.5: the bundle's own prompt_spec_hash, evidence_root and evidence_count.
    leaves = [b"\x00" + it.to_cbor() for it in evidence.items]
    assert len(leaves) == 2
    root = hashlib.sha256(b"\x01" + hashlib.sha256(leaves[0]).digest()
                          + hashlib.sha256(leaves[1]).digest()).digest()
    digest = hashlib.sha256(b"por.trace_id/2")
    digest.update(hashlib.sha256(b"\x00" + spec.to_cbor()).digest())
    digest.update(root)
    digest.update((2).to_bytes(8, "big"))
    expected = "trace_" + digest.hexdigest()[:16]
    trace, _ = AuditorAgent().audit(spec, evidence)
    assert trace.trace_id == trace_id_from(spec, evidence) == expected
    # Any evidence change changes the id; the bundle id does not enter it.
    other = bundle([item("e1", price_body("101.6")), evidence.items[1]])
    assert trace_id_from(spec, other) != expected
    assert trace_id_from(spec, bundle(evidence.items, bundle_id="b2")) == expected


def test_empty_bundle_does_not_raise() -> None:
    trace, report = AuditorAgent().audit(prompt_spec(), bundle([]))
    assert [s.step_type for s in trace.steps] == ["check", "aggregate", "check", "deduce",
                                                  "map"]
    assert all(s.evidence_ids == [] for s in trace.steps)
    assert variables_of(trace) == {"conflict_detected": False, "insufficient_evidence": True,
                                   "fallback_used": False, "provenance_ok": True,
                                   "source_summary": []}
    assert report.ok  # insufficient evidence is the judge's business, not an audit failure


def test_bundle_for_another_market_is_an_error() -> None:
    spec = prompt_spec()
    trace, report = AuditorAgent().audit(spec, bundle([item("e1")], market_id="m2"))
    assert not report.ok
    (check,) = [c for c in report.checks if c.check_id == "sanity.market_id"]
    assert (check.ok, check.severity, check.expected, check.actual) == (False, "error", "m1",
                                                                        "m2")
    assert trace.market_id == "m1"


def test_report_collects_extraction_and_admission_findings() -> None:
    spec = prompt_spec()
    evidence = bundle([item("e1", b"{oops"), item("e2", source_id="src_b", retrieved_at=1)])
    _, report = AuditorAgent().audit(spec, evidence)
    failed = [(c.check_id, c.severity) for c in report.checks if not c.ok]
    assert failed == [("extract.json_syntax", "warn"), ("sanity.time_window", "warn"),
                      ("sanity.variables", "warn")]
    assert report.ok
