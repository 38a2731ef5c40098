"""Small synthetic bundles and a toy step semantics for the challenge tests.

The bundles are built directly from records with ``compute_commitments`` (no
auditor or judge run), so every tree size and every corruption is under the
test's control.  ``toy_recompute`` is a stand-in for
``por.auditor.steps.recompute_step`` with the same signature: an ``extract``
step outputs the ``close`` field of each cited JSON evidence item, a later
step outputs how many values its cited steps extracted.  Markets and sources
are fictional.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from por.bundle.layout import Bundle, compute_commitments, honest_forms
from por.bundle.manifest import current_manifest
from por.errors import AuditError
from por.merkle import leaf_hash, root_hash
from por.schemas import (
    DataRequirement,
    DeterministicVerdict,
    DisputePolicy,
    EvidenceItem,
    FieldSpec,
    MarketSpec,
    PredictionSemantics,
    PromptSpec,
    ReasoningStep,
    ResolutionRule,
    ResolutionRules,
    ResolutionWindow,
    RetrievalReceipt,
    SelectionPolicy,
    SourceRef,
    SourceTarget,
    TraceHeader,
    TracePolicy,
    step_id,
)

MARKET_ID = "toy-close-2026"
WINDOW = (1_782_777_600, 1_782_863_999)


def make_spec() -> PromptSpec:
    """A one-requirement numeric-threshold market."""
    market = MarketSpec(
        market_id=MARKET_ID, question="Does TOY close above 100?",
        event_definition="TOY official close is above 100.",
        resolution_window=ResolutionWindow(start=WINDOW[0], end=WINDOW[1]),
        resolution_rules=ResolutionRules(rules=[
            ResolutionRule(rule_id="R_VALIDITY", description="validity", priority=0)]),
        allowed_sources=["src-a"], dispute_policy=DisputePolicy(dispute_window_seconds=3600),
    )
    requirement = DataRequirement(
        requirement_id="req_close", description="TOY close",
        source_targets=[SourceTarget(source_id="src-a", uri="https://a.example/toy",
                                     expected_content_type="application/json")],
        selection_policy=SelectionPolicy(strategy="single_best"),
        expected_fields=[FieldSpec(key="close", kind="numeric", json_path="$.close")],
    )
    return PromptSpec(
        market=market,
        prediction_semantics=PredictionSemantics(target_entity="TOY",
                                                 predicate="numeric_threshold",
                                                 metric="close", comparison=">",
                                                 threshold="100"),
        data_requirements=[requirement],
    )


def make_item(n: int, close: str = "101.5") -> EvidenceItem:
    """Evidence item ``ev_<n>`` whose JSON body has a ``close`` field."""
    body = b'{"close":"%s","n":%d}' % (close.encode(), n)
    return EvidenceItem(
        evidence_id=f"ev_{n:04d}", requirement_id="req_close",
        source=SourceRef(source_id="src-a", uri="https://a.example/toy", provider="A"),
        content_type="application/json", content=body,
        retrieval_receipt=RetrievalReceipt(retrieved_at=WINDOW[1] - 60, method="GET",
                                           status_code=200),
        provenance_tier=2, confidence_bps=9000,
    )


def toy_recompute(spec: PromptSpec, step: ReasoningStep,
                  cited_evidence: Mapping[str, EvidenceItem],
                  cited_steps: Mapping[str, ReasoningStep]) -> ReasoningStep:
    """What ``step`` should be under the toy semantics (see the module docstring)."""
    if step.step_type == "extract":
        values: list[Any] = []
        for evidence_id in step.evidence_ids:
            try:
                values.append(json.loads(cited_evidence[evidence_id].content)["close"])
            except (ValueError, KeyError) as exc:
                raise AuditError("audit.extract_failed", f"no close in {evidence_id}") from exc
        output: dict[str, Any] = {"closes": values}
    else:
        count = 0
        for prior_id in step.prior_step_ids:
            closes = cited_steps[prior_id].output.get("closes", [])
            count += len(closes) if isinstance(closes, list) else 0
        output = {"count": count}
    return step.model_copy(update={"output": output})


def make_steps(items: list[EvidenceItem]) -> list[ReasoningStep]:
    """One extract step per evidence item, then one aggregate step citing them all."""
    steps = []
    for i, item in enumerate(items):
        draft = ReasoningStep(step_id=step_id(i + 1), step_type="extract",
                              description="extract close", evidence_ids=[item.evidence_id],
                              prior_step_ids=[], inputs={}, output={})
        steps.append(toy_recompute(make_spec(), draft, {item.evidence_id: item}, {}))
    prior = {s.step_id: s for s in steps}
    draft = ReasoningStep(step_id=step_id(len(steps) + 1), step_type="aggregate",
                          description="count closes", evidence_ids=[],
                          prior_step_ids=list(prior), inputs={}, output={})
    steps.append(toy_recompute(make_spec(), draft, {}, prior))
    return steps


def assemble(spec_bytes: bytes, evidence: list[bytes], steps: list[bytes],
             *, verdict: bytes | None = None, header: bytes | None = None) -> Bundle:
    """A Bundle over the given leaves with freshly computed commitments."""
    header_bytes = header if header is not None else TraceHeader(
        trace_id="trace_1", market_id=MARKET_ID, policy=TracePolicy(max_steps=4096),
        step_count=len(steps)).to_cbor()
    verdict_bytes = verdict if verdict is not None else DeterministicVerdict(
        market_id=MARKET_ID, outcome="YES", confidence_bps=7000,
        resolution_rule_id="R_BINARY_DECISION", prompt_spec_hash=leaf_hash(spec_bytes),
        evidence_root=root_hash(evidence), evidence_count=len(evidence),
        reasoning_root=root_hash(steps), reasoning_count=len(steps),
        resolution_time=WINDOW[1]).to_cbor()
    manifest = current_manifest().to_cbor()
    forms = honest_forms(spec_bytes, steps, verdict_bytes, strict=False)
    commitments = compute_commitments(manifest=manifest, prompt_spec=spec_bytes,
                                      evidence=evidence, trace_header=header_bytes,
                                      steps=steps, verdict=verdict_bytes, forms=forms)
    return Bundle(manifest=manifest, prompt_spec=spec_bytes, evidence=evidence, forms=forms,
                  trace_header=header_bytes, steps=steps, verdict=verdict_bytes,
                  commitments=commitments, signatures=[])


def make_bundle(n_items: int = 3) -> Bundle:
    """A consistent toy bundle with ``n_items`` evidence items and ``n_items + 1`` steps."""
    items = [make_item(i) for i in range(n_items)]
    steps = make_steps(items)
    return assemble(make_spec().to_cbor(), [i.to_cbor() for i in items],
                    [s.to_cbor() for s in steps])


def with_step(bundle: Bundle, index: int, step: ReasoningStep) -> Bundle:
    """``bundle`` with step ``index`` replaced and every hash recomputed (and re-signed
    verdict refs), i.e. a consistent bundle whose trace is wrong at one step."""
    steps = list(bundle.steps)
    steps[index] = step.to_cbor()
    return assemble(bundle.prompt_spec, list(bundle.evidence), steps)
