"""Synthetic PromptSpec / EvidenceBundle / ReasoningTrace for the judge tests.

Plain helpers (no fixtures): every builder takes keyword overrides and returns
a validated record.  Markets and sources are fictional.
"""

from __future__ import annotations

from typing import Any

from por.schemas import (
    VERDICT_SCHEMA_REF,
    ConfidencePolicy,
    ConflictPolicy,
    DataRequirement,
    DisputePolicy,
    EvidenceBundle,
    EvidenceItem,
    FieldSpec,
    MarketSpec,
    PredictionSemantics,
    PromptSpec,
    ReasoningStep,
    ReasoningTrace,
    ResolutionRule,
    ResolutionRules,
    ResolutionWindow,
    RetrievalReceipt,
    SelectionPolicy,
    SourceRef,
    SourceTarget,
    TracePolicy,
)

MARKET_ID = "acme-usd-close-2026-06-30"
WINDOW_START = 1_782_777_600  # 2026-06-30T00:00:00Z
WINDOW_END = 1_782_863_999  # 2026-06-30T23:59:59Z
CANONICAL_RULES = ["R_VALIDITY", "R_CONFLICT", "R_BINARY_DECISION", "R_CONFIDENCE",
                   "R_INVALID_FALLBACK"]


def make_spec(*, predicate: str = "numeric_threshold", comparison: str | None = ">",
              threshold: str | None = "100", confidence: ConfidencePolicy | None = None,
              on_conflict: str = "invalid", min_tier: int = 0, strict_mode: bool = True,
              output_schema_ref: str = VERDICT_SCHEMA_REF,
              rule_ids: list[str] | None = None) -> PromptSpec:
    """A one-requirement market; the predicate is numeric unless told otherwise."""
    if predicate == "event_observed":
        comparison = threshold = None
    rules = [ResolutionRule(rule_id=r, description=r, priority=i)
             for i, r in enumerate(rule_ids or CANONICAL_RULES)]
    market = MarketSpec(
        market_id=MARKET_ID,
        question="Will the ACME/USD reference price close above 100 on 2026-06-30?",
        event_definition="ACME/USD official close on 2026-06-30 is above 100.",
        resolution_window=ResolutionWindow(start=WINDOW_START, end=WINDOW_END),
        resolution_rules=ResolutionRules(rules=rules),
        allowed_sources=["exchange-a", "exchange-b"],
        dispute_policy=DisputePolicy(dispute_window_seconds=86_400),
    )
    requirement = DataRequirement(
        requirement_id="req_close",
        description="ACME/USD close",
        source_targets=[SourceTarget(source_id="exchange-a", uri="https://a.example/close",
                                     expected_content_type="application/json")],
        selection_policy=SelectionPolicy(strategy="single_best"),
        expected_fields=[FieldSpec(key="close", kind="numeric", json_path="$.close")],
        min_provenance_tier=min_tier,
    )
    kwargs: dict[str, Any] = {}
    if confidence is not None:
        kwargs["confidence_policy"] = confidence
    return PromptSpec(
        market=market,
        prediction_semantics=PredictionSemantics.model_validate({
            "target_entity": "ACME/USD", "predicate": predicate, "metric": "close",
            "comparison": comparison, "threshold": threshold}),
        data_requirements=[requirement],
        output_schema_ref=output_schema_ref,
        strict_mode=strict_mode,
        conflict_policy=ConflictPolicy.model_validate({"on_conflict": on_conflict}),
        **kwargs,
    )


def make_item(evidence_id: str, *, confidence_bps: int = 9000, tier: int = 2,
              requirement_id: str = "req_close") -> EvidenceItem:
    """One JSON evidence item retrieved inside the window."""
    return EvidenceItem(
        evidence_id=evidence_id, requirement_id=requirement_id,
        source=SourceRef(source_id="exchange-a", uri="https://a.example/close",
                         provider="Exchange A (fictional)"),
        content_type="application/json",
        content=b'{"symbol":"ACME/USD","close":101.5,"as_of":1782863000}',
        retrieval_receipt=RetrievalReceipt(retrieved_at=WINDOW_END - 60, method="GET",
                                           status_code=200),
        provenance_tier=tier, confidence_bps=confidence_bps,
    )


def make_evidence(*items: EvidenceItem, market_id: str = MARKET_ID) -> EvidenceBundle:
    """A bundle of the given items (default: one item ``ev_0001`` at 9000 bps)."""
    return EvidenceBundle(bundle_id="bundle_1", market_id=market_id,
                          items=list(items) or [make_item("ev_0001")])


def variables(**overrides: Any) -> dict[str, Any]:
    """Evaluation variables as a step value: clean defaults plus overrides.

    An override of ``None`` removes the key (absent means unknown).
    """
    value: dict[str, Any] = {
        "conflict_detected": False, "insufficient_evidence": False,
        "fallback_used": False, "provenance_ok": True, "source_summary": ["ev_0001"],
    }
    value.update(overrides)
    return {k: v for k, v in value.items() if v is not None}


def make_trace(evaluation: dict[str, Any] | None, *, final_type: str = "map",
               market_id: str = MARKET_ID, extra_steps: list[ReasoningStep] | None = None,
               ) -> ReasoningTrace:
    """An extract step then a final step whose output carries ``evaluation``."""
    extract = ReasoningStep(step_id="step_0001", step_type="extract",
                            description="extract close", evidence_ids=["ev_0001"],
                            prior_step_ids=[], inputs={}, output={"close": "101.5"})
    output: dict[str, Any] = {} if evaluation is None else {"evaluation_variables": evaluation}
    final = ReasoningStep.model_validate({
        "step_id": "step_0002", "step_type": final_type, "description": "map",
        "evidence_ids": ["ev_0001"], "prior_step_ids": ["step_0001"], "inputs": {},
        "output": output})
    return ReasoningTrace(trace_id="trace_1", market_id=market_id,
                          policy=TracePolicy(max_steps=64),
                          steps=[extract, final, *(extra_steps or [])])
