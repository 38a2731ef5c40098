"""Small PromptSpec / EvidenceBundle factories for auditor tests (no network, no LLM).

Defaults describe one market: "is the BTC price above 100 within [1000, 2000]?",
one requirement ``r1`` with two JSON sources ``src_a`` and ``src_b`` and a
numeric field ``price`` at ``$.data.price``.  Every factory takes keyword
overrides so a test states only what it is about.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from por.schemas import (
    ConflictPolicy,
    DataRequirement,
    DisputePolicy,
    EvidenceBundle,
    EvidenceItem,
    FieldSpec,
    MarketSpec,
    PredictionSemantics,
    PromptSpec,
    ResolutionRule,
    ResolutionRules,
    ResolutionWindow,
    RetrievalReceipt,
    SelectionPolicy,
    SourceRef,
    SourceTarget,
)

WINDOW = (1000, 2000)
PRICE = FieldSpec(key="price", kind="numeric", json_path="$.data.price")


def json_field(key: str, kind: str, path: str) -> FieldSpec:
    return FieldSpec(key=key, kind=kind, json_path=path)  # type: ignore[arg-type]


def regex_field(key: str, kind: str, regex: str) -> FieldSpec:
    return FieldSpec(key=key, kind=kind, regex=regex)  # type: ignore[arg-type]


def requirement(rid: str = "r1", *, sources: Sequence[str] = ("src_a", "src_b"),
                strategy: str = "single_best", min_sources: int = 1, quorum: int = 1,
                tie_breaker: str = "source_order", fields: Sequence[FieldSpec] | None = None,
                min_tier: int = 0, content_type: str = "application/json") -> DataRequirement:
    return DataRequirement(
        requirement_id=rid, description=f"requirement {rid}",
        source_targets=[SourceTarget(source_id=s, uri=f"https://{s}.example/api",
                                     expected_content_type=content_type)  # type: ignore[arg-type]
                        for s in sources],
        selection_policy=SelectionPolicy(strategy=strategy, min_sources=min_sources,  # type: ignore[arg-type]
                                         quorum=quorum, tie_breaker=tie_breaker),  # type: ignore[arg-type]
        expected_fields=list(fields) if fields is not None else [PRICE],
        min_provenance_tier=min_tier)


def prompt_spec(*, requirements: Sequence[DataRequirement] | None = None,
                predicate: str = "numeric_threshold", metric: str = "price",
                comparison: str | None = ">", threshold: str | None = "100",
                window: tuple[int, int] = WINDOW, slack: int = 0,
                allowed_sources: Sequence[str] | None = None, tolerance: str = "0",
                on_conflict: str = "invalid", market_id: str = "m1") -> PromptSpec:
    reqs = list(requirements) if requirements is not None else [requirement()]
    if allowed_sources is None:
        allowed_sources = sorted({t.source_id for r in reqs for t in r.source_targets})
    if predicate == "event_observed":
        comparison = threshold = None
    return PromptSpec(
        market=MarketSpec(
            market_id=market_id, question="Is BTC above 100?",
            event_definition="BTC price above 100 USD during the window",
            resolution_window=ResolutionWindow(start=window[0], end=window[1]),
            resolution_rules=ResolutionRules(rules=[
                ResolutionRule(rule_id="R_VALIDITY", description="validity", priority=0)]),
            allowed_sources=list(allowed_sources),
            dispute_policy=DisputePolicy(dispute_window_seconds=3600)),
        prediction_semantics=PredictionSemantics(
            target_entity="BTC", predicate=predicate, metric=metric,  # type: ignore[arg-type]
            comparison=comparison, threshold=threshold),  # type: ignore[arg-type]
        data_requirements=reqs,
        conflict_policy=ConflictPolicy(on_conflict=on_conflict,  # type: ignore[arg-type]
                                       numeric_tolerance=tolerance),
        timestamp_slack_seconds=slack)


def body(value: Any) -> bytes:
    """JSON bytes for a plain value (use raw text for decimals: json can't dump Decimal)."""
    if isinstance(value, bytes):
        return value
    if isinstance(value, str):
        return value.encode("utf-8")
    return json.dumps(value, separators=(",", ":")).encode("utf-8")


def price_body(price: str) -> bytes:
    """``{"data":{"price":<price>}}`` with the number spelled exactly as given."""
    return ('{"data":{"price":' + price + "}}").encode("utf-8")


def item(eid: str, content: Any = None, *, requirement_id: str = "r1",
         source_id: str = "src_a", content_type: str = "application/json",
         retrieved_at: int = 1500, tier: int = 2, confidence: int = 9000) -> EvidenceItem:
    return EvidenceItem(
        evidence_id=eid, requirement_id=requirement_id,
        source=SourceRef(source_id=source_id, uri=f"https://{source_id}.example/api",
                         provider=source_id),
        content_type=content_type,  # type: ignore[arg-type]
        content=body(content if content is not None else price_body("101.5")),
        retrieval_receipt=RetrievalReceipt(retrieved_at=retrieved_at, method="GET",
                                           status_code=200),
        provenance_tier=tier, confidence_bps=confidence)


def bundle(items: Sequence[EvidenceItem], *, market_id: str = "m1",
           bundle_id: str = "b1") -> EvidenceBundle:
    return EvidenceBundle(bundle_id=bundle_id, market_id=market_id, items=list(items))


def two_source_case(price_a: str = "101.5", price_b: str = "101.5",
                    **spec: Any) -> tuple[PromptSpec, EvidenceBundle]:
    """The default market with ``e1`` from src_a and ``e2`` from src_b."""
    return prompt_spec(**spec), bundle([
        item("e1", price_body(price_a), source_id="src_a"),
        item("e2", price_body(price_b), source_id="src_b")])


def variables_of(trace: Any) -> dict[str, Any]:
    """The evaluation variables of a trace's final step."""
    return dict(trace.steps[-1].output["evaluation_variables"])
