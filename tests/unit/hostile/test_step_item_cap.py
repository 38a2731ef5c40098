"""The step item cap's derivation (SPEC §17.1, issue 22 item 5): ``MAX_STEP_ITEMS``.

For each step kind the largest record SPEC §12.1.4 and §12.5.3-§12.5.7 allow at the
caps of §4.2 and §12.5 (K = 10 items per chunk, 10 source targets and 8 expected
fields per requirement, 16 expected fields and 8 requirements per spec) is built with
every optional key present and every list at its longest; its items (as the decoder
charges them: an array's elements, a map's keys and values) are counted and must be
what SPEC §17.1 and ``por.protocol.limits`` say, and under the cap.  Each bound is an
upper bound (some of its maxima exclude each other), so no honest step exceeds it.
Every step of the committed fixture bundles and of the step-record vectors fits too.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from item_count import items

from por.bundle import Bundle
from por.encoding import decode, encode
from por.protocol.limits import (
    CHECK_CHUNK_ITEMS,
    MAX_EXPECTED_FIELDS,
    MAX_REQUIREMENTS,
    MAX_SOURCE_TARGETS,
    MAX_SPEC_EXPECTED_FIELDS,
    MAX_STEP_ITEMS,
)
from por.schemas import ReasoningStep

ROOT = Path(__file__).resolve().parents[3]
SPEC = (ROOT / "SPEC.md").read_text(encoding="utf-8")

K, SOURCES, FIELDS, REQS = (CHECK_CHUNK_ITEMS, MAX_SOURCE_TARGETS, MAX_EXPECTED_FIELDS,
                            MAX_REQUIREMENTS)
#: §12.4.1 source_summary: the items the aggregates' selections read, at most every
#: requirement's cited items.
SUMMARY = REQS * SOURCES
#: §12.5.5: merged (kind, key) groups: the spec's declared fields and the three
#: numeric/boolean fallback fields (result, value, price) of §12.1.
GROUPS = MAX_SPEC_EXPECTED_FIELDS + 3



def step(kind: str, step_type: str, evidence: int, prior: int, *, inputs: dict[str, Any],
         output: dict[str, Any]) -> dict[str, Any]:
    return {"schema": "por.ReasoningStep/1", "step_id": "step_9999", "step_type": step_type,
            "description": "d", "evidence_ids": [f"e{i}" for i in range(evidence)],
            "prior_step_ids": [f"step_{i + 1:04d}" for i in range(prior)],
            "inputs": {"kind": kind, **inputs}, "output": output}


REF = {"claim_id": "c", "evidence_id": "e", "value": "1"}


def largest_check() -> dict[str, Any]:
    item = {"evidence_id": "e", "source_id": "s", "admitted": False, "observed_at": 0,
            "observed_from": "receipt",  # five reachable reasons (confidence: schema)
            "reasons": ["sanity.allowed_source", "sanity.source_target", "sanity.time_window",
                        "sanity.provenance", "sanity.http_status"]}
    group = {"kind": "numeric", "key": "k", "claim_count": 2, "min": REF, "max": REF}
    output = {"requirement_id": "r", "window": {"start": 0, "end": 1}, "chunk": 1,
              "items": [item] * K, "item_count": 20, "admitted_count": 10, "covered": True,
              "provenance_ok": True, "claim_count": 80,
              "sources": [{"source_id": "s", "evidence_id": "e", "step_id": "step_0001"}]
              * SOURCES, "groups": [group] * FIELDS, "last_leaf": 19, "from_leaf": 9}
    return step("check_requirement", "check", K, K + 1, inputs={"requirement_id": "r"},
                output=output)


def largest_aggregate() -> dict[str, Any]:
    def field(votes: bool) -> dict[str, Any]:
        f = {"key": "k", "kind": "numeric", "status": "selected", "candidates": SOURCES,
             "claim_ids": ["c"] * SOURCES, "evidence_ids": ["e"] * SOURCES,
             "fallback_used": False, "value": "1",
             "quorum": {"required": 1, "agreeing": SOURCES, "met": True}}
        if votes:  # the metric's field only (keys are unique within a requirement)
            f["votes"] = [{"value": "1", "source_id": "s", "evidence_id": "e"}] * SOURCES
        return f
    output = {"requirement_id": "r", "strategy": "multi_source_quorum", "covered": True,
              "provenance_ok": True, "item_count": 100, "last_leaf": 99,
              "fields": [field(True)] + [field(False)] * (FIELDS - 1),
              "sources_used": ["e"] * SOURCES, "fallback_used": False}
    return step("aggregate", "aggregate", SOURCES, SOURCES + 1,
                inputs={"requirement_id": "r"}, output=output)


def largest_contradictions() -> dict[str, Any]:
    conflict = {"check_id": "contradiction.numeric", "kind": "numeric", "key": "k",
                "claim_ids": ["a", "b"], "evidence_ids": ["a", "b"], "values": ["1", "2"],
                "claim_count": 2}
    output = {"claim_count": 2, "numeric_tolerance": "0", "conflicts": [conflict] * GROUPS}
    return step("contradictions", "check", 0, REQS, inputs={}, output=output)


DEDUCED = {"event_observed": True, "numeric_value": "1", "timestamp": 0,
           "conflict_detected": False, "insufficient_evidence": False,
           "fallback_used": False, "provenance_ok": True,
           "source_summary": ["e"] * SUMMARY}


def largest_deduce() -> dict[str, Any]:
    output = {"predicate": "p", "metric": "m", "metric_status": "selected",
              "uncovered_requirements": ["r"] * REQS, **DEDUCED}
    return step("deduce", "deduce", SUMMARY, REQS + 1, inputs={}, output=output)


def largest_map() -> dict[str, Any]:
    return step("map", "map", SUMMARY, 1, inputs={}, output={"evaluation_variables": DEDUCED})


def largest_extract() -> dict[str, Any]:
    claim = {"claim_id": "c", "key": "k", "kind": "text", "path": "$.a", "value": "v"}
    warning = {"check_id": "extract.field_missing", "message": "m", "key": "k", "offset": 0}
    card = {"source_id": "s", "status_code": 200, "retrieved_at": 0, "confidence_bps": 0,
            "provenance_tier": 0}
    output = {"card": card, "claims": [claim] * FIELDS, "warnings": [warning] * FIELDS,
              "evidence_id": "e", "requirement_id": "r"}
    return step("extract_claims", "extract", 1, 0, inputs={}, output=output)


#: The figures SPEC §17.1 and ``por.protocol.limits`` state.
LARGEST = {"extract_claims": (largest_extract, 199), "check_requirement": (largest_check, 505),
           "aggregate": (largest_aggregate, 501),
           "contradictions": (largest_contradictions, 431),
           "deduce": (largest_deduce, 219), "map": (largest_map, 197)}


def test_the_largest_honest_step_of_each_kind_is_under_the_cap() -> None:
    counts = {kind: items(build()) for kind, (build, _) in LARGEST.items()}
    assert counts == {kind: want for kind, (_, want) in LARGEST.items()}
    assert max(counts.values()) == 505 and 2 * 505 <= MAX_STEP_ITEMS == 1024
    for build, _ in LARGEST.values():  # each is a valid record under the cap
        ReasoningStep.from_cbor(encode(build()))


def test_spec_states_the_cap_and_the_figures() -> None:
    assert "MAX_STEP_ITEMS = 1024" in SPEC
    for kind, (_, want) in LARGEST.items():
        assert f"`{kind}` {want}" in SPEC, kind


def test_every_committed_step_fits() -> None:
    largest = 0
    for path in sorted((ROOT / "fixtures" / "bundles" / "valid").glob("*.cbor")):
        for blob in Bundle.from_cbor(path.read_bytes()).steps:
            largest = max(largest, items(decode(blob)))
    vectors = json.loads((ROOT / "fixtures" / "vectors" / "step_records.json")
                         .read_text(encoding="utf-8"))
    for blob in _hex_records(vectors):
        largest = max(largest, items(decode(blob)))
    assert 0 < largest <= 505


def _hex_records(node: Any) -> list[bytes]:
    """Every ``por.ReasoningStep/1`` record spelt in hex in the vectors file."""
    found: list[bytes] = []
    if isinstance(node, dict):
        for value in node.values():
            found += _hex_records(value)
    elif isinstance(node, list):
        for value in node:
            found += _hex_records(value)
    elif isinstance(node, str) and len(node) > 40 and all(
            c in "0123456789abcdef" for c in node):
        blob = bytes.fromhex(node)
        if b"por.ReasoningStep/1" in blob:
            found.append(blob)
    return found
