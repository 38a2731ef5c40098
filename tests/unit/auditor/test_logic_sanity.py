"""Logic sanity (seed M06 §10): window, coverage, variables, provenance, confidence."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from factories import (
    bundle,
    item,
    json_field,
    price_body,
    prompt_spec,
    requirement,
    variables_of,
)

from por.auditor import AuditorAgent, ClaimExtractor, LogicSanityChecker
from por.auditor.claim_extraction import extract_item
from por.auditor.logic_sanity import check_requirement, effective_window
from por.schemas import EvidenceBundle, EvidenceItem, PromptSpec


def _check_output(spec: PromptSpec, evidence: EvidenceBundle) -> dict[str, Any]:
    trace, _ = AuditorAgent().audit(spec, evidence)
    (step,) = [s for s in trace.steps if s.inputs.get("kind") == "check_requirement"]
    return dict(step.output)


def _reasons(spec: PromptSpec, evidence: EvidenceBundle) -> list[list[str]]:
    return [list(i["reasons"]) for i in _check_output(spec, evidence)["items"]]


@pytest.mark.parametrize(("retrieved_at", "admitted"), [
    (1000 - 30, True), (1000 - 31, False), (2000 + 30, True), (2000 + 31, False),
    (1500, True),
])
def test_time_window_slack_boundaries(retrieved_at: int, admitted: bool) -> None:
    spec = prompt_spec(slack=30)
    evidence = bundle([item("e1", retrieved_at=retrieved_at)])
    assert _reasons(spec, evidence) == [[] if admitted else ["sanity.time_window"]]
    variables = variables_of(AuditorAgent().audit(spec, evidence)[0])
    assert variables["insufficient_evidence"] is (not admitted)


def test_window_without_slack_is_closed() -> None:
    spec = prompt_spec()
    assert _reasons(spec, bundle([item("e1", retrieved_at=1000),
                                  item("e2", retrieved_at=2000, source_id="src_b"),
                                  item("e3", retrieved_at=999, source_id="src_b")])) == [
        [], [], ["sanity.time_window"]]


def test_window_start_is_floored_at_zero() -> None:
    spec = prompt_spec(window=(10, 20), slack=100)
    assert effective_window(spec) == (0, 120)


def test_timestamp_claim_takes_precedence_over_receipt() -> None:
    fields = [json_field("price", "numeric", "$.data.price"),
              json_field("at", "timestamp", "$.data.at")]
    spec = prompt_spec(requirements=[requirement(fields=fields)])
    inside_receipt = item("e1", b'{"data":{"price":101,"at":2500}}', retrieved_at=1500)
    outside_receipt = item("e2", b'{"data":{"price":101,"at":1500}}', retrieved_at=9999,
                           source_id="src_b")
    out = _check_output(spec, bundle([inside_receipt, outside_receipt]))
    assert [(i["observed_at"], i["observed_from"], i["admitted"]) for i in out["items"]] == [
        (2500, "claim", False), (1500, "claim", True)]


def test_sources_must_be_allowed_and_targeted() -> None:
    spec = prompt_spec(allowed_sources=["src_a", "src_z"])
    evidence = bundle([item("e1"), item("e2", source_id="src_b"),
                       item("e3", source_id="src_z"), item("e4", source_id="rogue")])
    assert _reasons(spec, evidence) == [
        [], ["sanity.allowed_source"], ["sanity.source_target"],
        ["sanity.allowed_source", "sanity.source_target"]]


def test_provenance_below_tier_is_excluded() -> None:
    spec = prompt_spec(requirements=[requirement(min_tier=2)])
    low_and_high = bundle([item("e1", price_body("50"), tier=1),
                           item("e2", price_body("150"), tier=2, source_id="src_b")])
    out = _check_output(spec, low_and_high)
    assert [i["reasons"] for i in out["items"]] == [["sanity.provenance"], []]
    assert out["provenance_ok"] is True
    variables = variables_of(AuditorAgent().audit(spec, low_and_high)[0])
    assert (variables["numeric_value"], variables["source_summary"]) == ("150", ["e2"])


def test_provenance_not_met_by_any_evidence() -> None:
    spec = prompt_spec(requirements=[requirement(min_tier=3)])
    evidence = bundle([item("e1", tier=2)])
    trace, report = AuditorAgent().audit(spec, evidence)
    variables = variables_of(trace)
    assert variables["provenance_ok"] is False
    assert variables["insufficient_evidence"] is True
    provenance = [c for c in report.checks if c.check_id == "sanity.provenance"]
    assert [(c.ok, c.severity) for c in provenance] == [(False, "warn"), (False, "warn")]


def test_uncovered_requirement_makes_evidence_insufficient() -> None:
    r2 = requirement("r2", sources=["src_c"], fields=[json_field("vol", "numeric", "$.v")])
    spec = prompt_spec(requirements=[requirement(), r2])
    trace, report = AuditorAgent().audit(spec, bundle([item("e1")]))
    deduce = trace.steps[-2].output
    assert deduce["uncovered_requirements"] == ["r2"]
    assert variables_of(trace)["insufficient_evidence"] is True
    assert "numeric_value" not in variables_of(trace)
    coverage = [(c.details, c.ok) for c in report.checks
                if c.check_id == "sanity.requirement_coverage"]
    assert coverage == [({"requirement_id": "r1"}, True), ({"requirement_id": "r2"}, False)]


def test_variables_need_the_metric_of_the_right_kind() -> None:
    spec = prompt_spec(metric="volume")  # no requirement declares "volume"
    trace, report = AuditorAgent().audit(spec, bundle([item("e1")]))
    assert trace.steps[-2].output["metric_status"] == "absent"
    assert variables_of(trace)["insufficient_evidence"] is True
    (variables,) = [c for c in report.checks if c.check_id == "sanity.variables"]
    assert (variables.ok, variables.severity) == (False, "warn")
    boolean_metric = prompt_spec(predicate="event_observed", metric="price")
    trace, _ = AuditorAgent().audit(boolean_metric, bundle([item("e1")]))
    assert trace.steps[-2].output["metric_status"] == "wrong_kind"


def test_event_observed_predicate() -> None:
    req = requirement(fields=[json_field("happened", "boolean", "$.happened")])
    spec = prompt_spec(requirements=[req], predicate="event_observed", metric="happened")
    trace, _ = AuditorAgent().audit(spec, bundle([item("e1", b'{"happened":false}')]))
    assert variables_of(trace) == {
        "event_observed": False, "conflict_detected": False, "insufficient_evidence": False,
        "fallback_used": False, "provenance_ok": True, "source_summary": ["e1"]}


@pytest.mark.parametrize(("price", "comparison", "threshold", "observed"), [
    ("100", ">", "100", False), ("100.0000001", ">", "100", True), ("100", ">=", "100", True),
    ("99.99", "<", "100", True), ("100", "<=", "100", True), ("100.0", "==", "100", True),
])
def test_numeric_threshold_is_compared_exactly(price: str, comparison: str, threshold: str,
                                               observed: bool) -> None:
    spec = prompt_spec(comparison=comparison, threshold=threshold)
    variables = variables_of(AuditorAgent().audit(spec, bundle([item("e1",
                                                                     price_body(price))]))[0])
    assert variables["event_observed"] is observed


def test_confidence_out_of_range_is_caught_in_depth() -> None:
    good = item("e1")
    rogue = EvidenceItem.model_construct(**{**dict(good), "confidence_bps": 20_000})
    spec = prompt_spec()
    found = extract_item(spec.data_requirements[0], rogue)
    result = check_requirement(spec, spec.data_requirements[0], [rogue], [found.claims])
    assert result.items[0].reasons == ("sanity.confidence",)
    assert result.covered is False


def test_gate_rejection_is_recorded_and_skipped() -> None:
    # The gate runs on each item's claim set; an item claiming another item's id
    # (only possible around validation) is rejected with the gate's check id.
    spec = prompt_spec()
    req = spec.data_requirements[0]
    a, b = item("e1"), item("e2", source_id="src_b")
    claims_a = extract_item(req, a).claims
    forged = tuple(dataclasses.replace(c, evidence_id="e_ghost") for c in claims_a)
    result = check_requirement(spec, req, [a, b], [forged, extract_item(req, b).claims])
    assert [i.reasons for i in result.items] == [("gate.unknown_evidence",), ()]
    assert result.items[0].gate_reason is not None
    assert "Valid IDs: ['e1', 'e2']" in result.items[0].gate_reason
    assert result.admitted_ids == ("e2",)


def test_logic_sanity_checker_standalone() -> None:
    spec = prompt_spec(slack=0)
    evidence = bundle([item("e1", retrieved_at=5000), item("e2", source_id="src_b")])
    claims = ClaimExtractor().extract(spec, evidence)
    results = LogicSanityChecker().check(spec, evidence, claims)
    assert [(r.check_id, r.ok) for r in results] == [
        ("sanity.time_window", False), ("sanity.requirement_coverage", True),
        ("sanity.provenance", True), ("sanity.variables", True)]
    assert results[0].expected == "[1000, 2000]" and results[0].actual == "5000"
    empty = LogicSanityChecker().check(spec, bundle([]), ClaimExtractor().extract(
        spec, bundle([])))
    assert [(r.check_id, r.ok) for r in empty] == [
        ("sanity.requirement_coverage", False), ("sanity.provenance", True),
        ("sanity.variables", False)]
