"""Selection policies (SPEC §6.3): single_best, multi_source_quorum, fallback_chain."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from factories import bundle, item, price_body, prompt_spec, requirement, variables_of

from por.auditor import AuditorAgent
from por.auditor.selection import Candidate, select_field
from por.schemas import EvidenceItem, SelectionPolicy


def _audit(items: list[EvidenceItem], **req: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    tolerance = req.pop("tolerance", "0")
    spec = prompt_spec(requirements=[requirement(**req)], tolerance=tolerance)
    trace, _ = AuditorAgent().audit(spec, bundle(items))
    (aggregate,) = [s for s in trace.steps if s.step_type == "aggregate"]
    fields = aggregate.output["fields"]
    assert isinstance(fields, list)
    return dict(fields[0]), variables_of(trace)  # type: ignore[arg-type]


SOURCES = ("src_a", "src_b", "src_c")


def _items(*specs: tuple[str, str, str, int]) -> list[EvidenceItem]:
    return [item(eid, price_body(price), source_id=src, tier=tier)
            for eid, src, price, tier in specs]


def test_single_best_source_order_is_bundle_order() -> None:
    field, variables = _audit(_items(("e1", "src_b", "101", 1), ("e2", "src_a", "102", 3)),
                              sources=SOURCES)
    assert (field["value"], field["evidence_ids"]) == ("101", ["e1"])
    assert variables["source_summary"] == ["e1"]


def test_single_best_highest_provenance_then_bundle_order() -> None:
    items = _items(("e1", "src_a", "101", 1), ("e2", "src_b", "102", 3),
                   ("e3", "src_c", "103", 3))
    field, _ = _audit(items, sources=SOURCES, tie_breaker="highest_provenance")
    assert (field["value"], field["evidence_ids"]) == ("102", ["e2"])


def test_min_sources_not_met_is_insufficient() -> None:
    field, variables = _audit(_items(("e1", "src_a", "101", 1)), sources=SOURCES, min_sources=2,
                              quorum=1, strategy="multi_source_quorum")
    assert field["status"] == "insufficient" and "value" not in field
    assert variables["insufficient_evidence"] is True and variables["source_summary"] == []


@pytest.mark.parametrize("strategy", ["single_best", "fallback_chain", "multi_source_quorum"])
def test_min_sources_is_read_by_quorum_only(strategy: str) -> None:
    """SPEC §12.3/§18.3 vector: one source, ``min_sources`` 2, quorum 1."""
    field, variables = _audit(_items(("e1", "src_a", "101", 1)), sources=SOURCES,
                              min_sources=2, quorum=1, strategy=strategy)
    if strategy == "multi_source_quorum":
        assert field["status"] == "insufficient"
        assert variables["insufficient_evidence"] is True
    else:
        assert (field["status"], field["value"], field["evidence_ids"]) == (
            "selected", "101", ["e1"])
        assert variables["source_summary"] == ["e1"]


def test_quorum_met_within_tolerance_takes_first_agreeing_value() -> None:
    items = _items(("e1", "src_a", "90", 1), ("e2", "src_b", "101", 1),
                   ("e3", "src_c", "101.4", 1))
    field, variables = _audit(items, sources=SOURCES, strategy="multi_source_quorum",
                              min_sources=3, quorum=2, tolerance="0.5")
    assert field["status"] == "selected"
    assert field["value"] == "101"  # e2 is the first candidate with a quorum
    assert field["evidence_ids"] == ["e2", "e3"]
    assert field["quorum"] == {"required": 2, "agreeing": 2, "met": True}
    assert variables["source_summary"] == ["e2", "e3"]
    assert variables["conflict_detected"] is True  # e1 disagrees beyond tolerance


def test_quorum_highest_provenance_tie_breaker_picks_the_value() -> None:
    items = _items(("e1", "src_a", "101", 1), ("e2", "src_b", "101.4", 3),
                   ("e3", "src_c", "101.2", 1))
    field, _ = _audit(items, sources=SOURCES, strategy="multi_source_quorum", min_sources=2,
                      quorum=2, tie_breaker="highest_provenance", tolerance="0.5")
    assert field["value"] == "101.4"
    assert field["evidence_ids"] == ["e1", "e2", "e3"]


def test_quorum_not_met() -> None:
    items = _items(("e1", "src_a", "90", 1), ("e2", "src_b", "100", 1),
                   ("e3", "src_c", "110", 1))
    field, variables = _audit(items, sources=SOURCES, strategy="multi_source_quorum",
                              min_sources=3, quorum=2, tolerance="5")
    assert field["status"] == "no_quorum"
    assert field["quorum"] == {"required": 2, "agreeing": 1, "met": False}
    assert variables["insufficient_evidence"] is True


def test_quorum_counts_one_vote_per_source() -> None:
    items = _items(("e1", "src_a", "100", 1), ("e2", "src_a", "100", 1),
                   ("e3", "src_b", "200", 1))
    field, _ = _audit(items, sources=SOURCES, strategy="multi_source_quorum", min_sources=2,
                      quorum=2)
    assert field["status"] == "no_quorum" and field["candidates"] == 2


def test_quorum_on_booleans_is_exact() -> None:
    policy = SelectionPolicy(strategy="multi_source_quorum", min_sources=3, quorum=2)
    candidates = [Candidate(n, f"e{n}", f"s{n}", 1, f"cl{n}", value)
                  for n, value in enumerate([False, True, True])]
    chosen = select_field("up", "boolean", policy=policy, target_ids=["s0", "s1", "s2"],
                          candidates=candidates, tolerance=Decimal(0))
    assert (chosen.value, chosen.evidence_ids) == (True, ("e1", "e2"))


def test_quorum_bounds_are_exact_at_any_width() -> None:
    # SPEC §3.2: |10^30 - (10^30 + 1)| = 1 <= 1.0...01, and 10^30 +- 1.0...01
    # (61 digits) is computed exactly, so the two values agree; under a tolerance
    # just below 1 they do not.
    big = "1" + "0" * 30
    policy = SelectionPolicy(strategy="multi_source_quorum", min_sources=2, quorum=2)
    candidates = [Candidate(0, "e0", "s0", 1, "c0", big),
                  Candidate(1, "e1", "s1", 1, "c1", big[:-1] + "1")]
    tolerance = Decimal("1." + "0" * 29 + "1")
    assert select_field("p", "numeric", policy=policy, target_ids=["s0", "s1"],
                        candidates=candidates, tolerance=tolerance).status == "selected"
    below = Decimal("0." + "9" * 40)
    assert select_field("p", "numeric", policy=policy, target_ids=["s0", "s1"],
                        candidates=candidates, tolerance=below).status == "no_quorum"


def test_fallback_chain_uses_target_order_not_bundle_order() -> None:
    items = _items(("e1", "src_c", "103", 1), ("e2", "src_b", "102", 1))
    field, variables = _audit(items, sources=SOURCES, strategy="fallback_chain")
    assert (field["value"], field["evidence_ids"], field["fallback_used"]) == (
        "102", ["e2"], True)
    assert variables["fallback_used"] is True


def test_fallback_chain_first_target_means_no_fallback() -> None:
    items = _items(("e1", "src_b", "102", 1), ("e2", "src_a", "101", 1))
    field, variables = _audit(items, sources=SOURCES, strategy="fallback_chain")
    assert (field["value"], field["fallback_used"]) == ("101", False)
    assert variables["fallback_used"] is False


def test_fallback_chain_skips_a_first_target_without_the_field() -> None:
    items = [item("e1", b'{"data":{}}', source_id="src_a"),
             item("e2", price_body("102"), source_id="src_b")]
    field, variables = _audit(items, sources=SOURCES, strategy="fallback_chain")
    assert (field["value"], field["fallback_used"]) == ("102", True)
    assert variables["source_summary"] == ["e2"]


def test_missing_field() -> None:
    field, variables = _audit([item("e1", b'{"data":{}}')], sources=SOURCES)
    assert field == {"key": "price", "kind": "numeric", "status": "missing", "candidates": 0,
                     "claim_ids": [], "evidence_ids": [], "fallback_used": False}
    assert variables["insufficient_evidence"] is True


@pytest.mark.parametrize("strategy", ["single_best", "multi_source_quorum", "fallback_chain"])
def test_every_strategy_reports_sources_used(strategy: str) -> None:
    items = _items(("e1", "src_a", "101", 1), ("e2", "src_b", "101", 1))
    spec = prompt_spec(requirements=[requirement(sources=SOURCES, strategy=strategy,
                                                 min_sources=2, quorum=2)])
    trace, _ = AuditorAgent().audit(spec, bundle(items))
    (aggregate,) = [s for s in trace.steps if s.step_type == "aggregate"]
    expected = ["e1", "e2"] if strategy == "multi_source_quorum" else ["e1"]
    assert aggregate.output["sources_used"] == expected
    assert variables_of(trace)["source_summary"] == expected
