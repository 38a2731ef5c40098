"""Markets 60-70 (issue 23): more edits of their evidence than the one flip each.

Each market's counterfactual that flips its verdict is a fixture file
(``counterfactual_evidence.json``, checked by tests/unit/test_scenarios.py); the
cases here edit the committed evidence further (a body, a status code, items
dropped: boundaries, absence, error pages) and name the verdict a human resolver
reaches on each; the pipeline must reach exactly that.  The HTTP-500 regression is
here: a primary source answering HTTP 500 with a zero-filled body must not decide NO.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from por.auditor import AuditorAgent
from por.judge import JudgeAgent
from por.scenarios import load_scenario
from por.schemas import EvidenceBundle, PromptSpec

Edit = dict[str, Any]  # evidence_id -> {"body": obj, "status": int} or None (drop)


def _verdict(spec: PromptSpec, evidence: EvidenceBundle) -> tuple[str, str, int]:
    trace, _ = AuditorAgent().audit(spec, evidence)
    verdict, _ = JudgeAgent().judge(spec, evidence, trace)
    return verdict.outcome, verdict.resolution_rule_id, verdict.confidence_bps


def _edited(evidence: EvidenceBundle, edits: Edit) -> EvidenceBundle:
    items = []
    for item in evidence.items:
        if item.evidence_id not in edits:
            items.append(item)
            continue
        edit = edits[item.evidence_id]
        if edit is None:
            continue
        update: dict[str, Any] = {}
        if "body" in edit:
            update["content"] = json.dumps(edit["body"]).encode()
        if "status" in edit:
            update["retrieval_receipt"] = item.retrieval_receipt.model_copy(
                update={"status_code": edit["status"]})
        items.append(item.model_copy(update=update))
    return evidence.model_copy(update={"items": items})


def _spec(spec: PromptSpec, **semantics: Any) -> PromptSpec:
    data = spec.to_json_obj()
    data["prediction_semantics"].update(semantics)
    return PromptSpec.from_json_obj(data)


def _candle(close: float | int) -> dict[str, Any]:
    return {"pair": "ZENUSD", "candle": {"close": close}}


CASES: list[tuple[str, Edit, tuple[str, str, int]]] = [
    # 60: the primary answered 200 after all -> its close decides; the unread
    # fallback raises no conflict.
    ("60-http-500-primary", {"ev-kestrel": {"status": 200, "body": {"candle": {"close": 49000}}}},
     ("NO", "R_BINARY_DECISION", 7000)),
    ("60-http-500-primary", {"ev-pelican": {"body": _candle(48999.99)}},
     ("NO", "R_BINARY_DECISION", 6300)),
    ("60-http-500-primary", {"ev-pelican": None}, ("INVALID", "R_VALIDITY", 0)),
    ("61-range-settle", {"ev-harbourline": {"body": {"settlements": [{"settle": "150.00"}]}}},
     ("NO", "R_BINARY_DECISION", 7000)),
    ("61-range-settle", {"ev-harbourline": {"body": {"settlements": [{"settle": 140}]}}},
     ("YES", "R_BINARY_DECISION", 7000)),
    ("61-range-settle", {"ev-harbourline": {"body": {"settlements": [{"settle": 139.99}]}}},
     ("NO", "R_BINARY_DECISION", 7000)),
    ("62-field-comparison-home-win", {"ev-league-centre": {"body": {"match": {
        "status": "FINISHED", "home": {"score": 1}, "away": {"score": 1}}}}},
     ("NO", "R_BINARY_DECISION", 7000)),
    ("62-field-comparison-home-win", {"ev-league-centre": {"body": {"match": {
        "status": "POSTPONED", "home": {"score": 0}, "away": {"score": 0}}}}},
     ("INVALID", "R_VALIDITY", 0)),
    ("63-arithmetic-total-over", {"ev-hoops-stats": {"body": {"game": {
        "homeTeam": {"points": 105}, "awayTeam": {"points": 105}}}}},
     ("NO", "R_BINARY_DECISION", 7000)),
    ("64-text-equals-award", {"ev-lumen-academy": {"body": {"category": {
        "winner": {"title": "the glass orchard"}}}}}, ("NO", "R_BINARY_DECISION", 7000)),
    ("64-text-equals-award", {"ev-lumen-academy": {"body": {"category": {
        "winner": {"title": "Neon Tide"}}}}}, ("NO", "R_BINARY_DECISION", 7000)),
    ("65-null-means-no", {"ev-orbital-tracker": {"body": {"mission": {
        "touchdown_at": 1794600000}}}}, ("YES", "R_BINARY_DECISION", 7000)),
    ("65-null-means-no", {"ev-orbital-tracker": {"body": {"mission": {
        "touchdown_at": 1794700800}}}}, ("NO", "R_BINARY_DECISION", 7000)),
    # An error page is never evidence of absence.
    ("65-null-means-no", {"ev-orbital-tracker": {"status": 502}}, ("INVALID", "R_VALIDITY", 0)),
    ("66-deadline-launch", {"ev-skyward-manifest": {"body": {"launch": {
        "liftoff_at": 1794300000}}}}, ("NO", "R_BINARY_DECISION", 7000)),
    # An event time after the window is not an observation time: still NO, not INVALID.
    ("66-deadline-launch", {"ev-skyward-manifest": {"body": {"launch": {
        "liftoff_at": 1797000000}}}}, ("NO", "R_BINARY_DECISION", 7000)),
    ("67-two-of-three-below", {"ev-alpha-ex": {"body": {"close": 80.1}}},
     ("NO", "R_BINARY_DECISION", 7000)),
    ("67-two-of-three-below", {"ev-gamma-ex": None}, ("INVALID", "R_VALIDITY", 0)),
    ("67-two-of-three-below", {"ev-beta-ex": None}, ("YES", "R_BINARY_DECISION", 7000)),
    ("67-two-of-three-below", {"ev-beta-ex": {"body": {"close": "80"}}},
     ("YES", "R_BINARY_DECISION", 7000)),
    ("68-precondition-no", {"ev-cbe": {"body": {"meeting": {"status": "HELD",
                                                           "decision": "cut"}}}},
     ("YES", "R_BINARY_DECISION", 7000)),
    ("68-precondition-no", {"ev-cbe": {"body": {"meeting": {"status": "HELD",
                                                           "decision": "hold"}}}},
     ("NO", "R_BINARY_DECISION", 7000)),
    ("68-precondition-no", {"ev-cbe": {"body": {"meeting": {"status": "HELD"}}}},
     ("INVALID", "R_VALIDITY", 0)),
    ("69-declared-404-absent", {"ev-widgetos-releases": {"status": 200, "body": {
        "release": {"version": "5.0", "published_at": 1798700000}}}},
     ("YES", "R_BINARY_DECISION", 7000)),
    ("69-declared-404-absent", {"ev-widgetos-releases": {"status": 500}},
     ("INVALID", "R_VALIDITY", 0)),
    ("70-fallback-unread-no-conflict", {"ev-avalon-met": {"status": 503}},
     ("NO", "R_BINARY_DECISION", 6300)),
]


@pytest.mark.parametrize(("name", "edits", "expected"), CASES,
                         ids=[f"{c[0][:2]}-{n}" for n, c in enumerate(CASES)])
def test_counterfactual_flips_the_verdict(name: str, edits: Edit,
                                          expected: tuple[str, str, int]) -> None:
    scenario = load_scenario(name)
    assert _verdict(scenario.prompt_spec, scenario.evidence) == (
        scenario.expected.outcome, scenario.expected.resolution_rule_id,
        scenario.expected.confidence_bps)
    assert _verdict(scenario.prompt_spec, _edited(scenario.evidence, edits)) == expected


def test_every_new_market_has_a_flipping_counterfactual() -> None:
    names = {f"{n:02d}" for n in range(60, 71)}
    flipped = {c[0][:2] for c in CASES if c[2][0] != load_scenario(c[0]).expected.outcome}
    assert names <= flipped


def test_http_500_zero_body_alone_never_decides() -> None:
    """The regression of issue 23: only the zero-filled 500 page -> INVALID, not NO."""
    scenario = load_scenario("60-http-500-primary")
    alone = _edited(scenario.evidence, {"ev-pelican": None})
    assert _verdict(scenario.prompt_spec, alone) == ("INVALID", "R_VALIDITY", 0)
    trace, report = AuditorAgent().audit(scenario.prompt_spec, scenario.evidence)
    check = next(s for s in trace.steps if s.inputs["kind"] == "check_requirement")
    refused = check.output["items"][0]
    assert (refused["evidence_id"], refused["reasons"]) == ("ev-kestrel", ["sanity.http_status"])
    found = [c for c in report.checks if c.check_id == "sanity.http_status"]
    assert len(found) == 1 and found[0].details is not None
    assert found[0].details["status_code"] == 500


def test_undeclared_404_is_refused() -> None:
    """69 without 404 among the accepted statuses: the page is not evidence -> INVALID."""
    scenario = load_scenario("69-declared-404-absent")
    data = scenario.prompt_spec.to_json_obj()
    del data["data_requirements"][0]["accepted_status_codes"]
    assert _verdict(PromptSpec.from_json_obj(data), scenario.evidence) == (
        "INVALID", "R_VALIDITY", 0)


def test_fallback_conflict_counts_under_quorum() -> None:
    """70 read by a quorum of both sources: they disagree, and that is a conflict."""
    scenario = load_scenario("70-fallback-unread-no-conflict")
    data = scenario.prompt_spec.to_json_obj()
    data["data_requirements"][0]["selection_policy"] = {
        "strategy": "multi_source_quorum", "min_sources": 2, "quorum": 1,
        "tie_breaker": "source_order"}
    assert _verdict(PromptSpec.from_json_obj(data), scenario.evidence) == (
        "INVALID", "R_CONFLICT", 0)


def test_range_inclusivity_as_declared() -> None:
    scenario = load_scenario("61-range-settle")
    at_upper = _edited(scenario.evidence, {"ev-harbourline": {
        "body": {"settlements": [{"settle": 150}]}}})
    closed = _spec(scenario.prompt_spec, upper_inclusive=True)
    assert _verdict(closed, at_upper)[0] == "YES"
    at_lower = _edited(scenario.evidence, {"ev-harbourline": {
        "body": {"settlements": [{"settle": 140}]}}})
    assert _verdict(_spec(scenario.prompt_spec, lower_inclusive=False), at_lower)[0] == "NO"
