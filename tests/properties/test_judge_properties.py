"""Property tests for the judge (seed M07 §4, DESIGN §2 and §5).

Inputs start from the bundled scenario ``03-threshold-gt-boundary`` (a numeric
'>' market, threshold 100) and vary the evaluation variables, the policies and
the evidence confidences.  The oracle for the numeric decision is Python's
``operator`` on ``Decimal`` -- a different code path from the judge's.
"""

from __future__ import annotations

import operator
from decimal import Decimal
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from por.judge import JudgeAgent
from por.numbers import format_decimal
from por.scenarios import load_scenario
from por.schemas import (
    ConfidencePolicy,
    ConflictPolicy,
    EvidenceBundle,
    PredictionSemantics,
    PromptSpec,
    ReasoningStep,
    ReasoningTrace,
    TracePolicy,
)

BASE = load_scenario("03-threshold-gt-boundary")
ITEM = BASE.evidence.items[0]
IDS = ["ev-a", "ev-b", "ev-c"]
OPS = {">": operator.gt, ">=": operator.ge, "<": operator.lt, "<=": operator.le,
       "==": operator.eq}

bps = st.integers(min_value=0, max_value=10_000)
decimals = st.one_of(
    st.sampled_from(["100", "99.99", "100.01", "0", "-100"]),
    st.decimals(min_value=-10_000, max_value=10_000, places=4, allow_nan=False,
                allow_infinity=False).map(format_decimal),
)


@st.composite
def cases(draw: st.DrawFn) -> tuple[PromptSpec, EvidenceBundle, ReasoningTrace, dict[str, Any]]:
    comparison = draw(st.sampled_from(sorted(OPS)))
    threshold = draw(decimals)
    spec = PromptSpec.model_validate({
        **BASE.prompt_spec.model_dump(by_alias=True),
        "prediction_semantics": PredictionSemantics(
            target_entity="ACME/USD", predicate="numeric_threshold", metric="close",
            comparison=comparison, threshold=threshold).model_dump(),
        "confidence_policy": ConfidencePolicy(
            default_confidence_bps=draw(bps), min_confidence_for_yesno_bps=draw(bps),
            conflict_factor_bps=draw(bps), fallback_factor_bps=draw(bps),
            invalid_confidence_bps=draw(bps)).model_dump(),
        "conflict_policy": ConflictPolicy(
            on_conflict=draw(st.sampled_from(["invalid", "continue"]))).model_dump(),
    }, strict=True)
    items = [ITEM.model_copy(update={"evidence_id": i, "confidence_bps": draw(bps)})
             for i in IDS]
    evidence = EvidenceBundle(bundle_id="b", market_id=BASE.evidence.market_id, items=items)
    variables: dict[str, Any] = {
        "conflict_detected": draw(st.booleans()),
        "insufficient_evidence": draw(st.booleans()),
        "fallback_used": draw(st.booleans()),
        "provenance_ok": draw(st.booleans()),
        "source_summary": draw(st.lists(st.sampled_from(IDS), min_size=1, max_size=3,
                                        unique=True)),
    }
    observed = draw(st.none() | st.booleans())
    value = draw(st.none() | decimals)
    if observed is not None:
        variables["event_observed"] = observed
    if value is not None:
        variables["numeric_value"] = value
    step = ReasoningStep(step_id="step_0001", step_type="map", description="map",
                         evidence_ids=list(variables["source_summary"]), prior_step_ids=[],
                         inputs={}, output={"evaluation_variables": variables})
    trace = ReasoningTrace(trace_id="t", market_id=BASE.evidence.market_id,
                           policy=TracePolicy(max_steps=8), steps=[step])
    return spec, evidence, trace, variables


@given(cases())
def test_insufficient_evidence_is_never_yes_or_no(case: Any) -> None:
    spec, evidence, trace, variables = case
    verdict, result = JudgeAgent().judge(spec, evidence, trace)
    if variables["insufficient_evidence"]:
        assert (verdict.outcome, verdict.resolution_rule_id) == ("INVALID", "R_VALIDITY")
    assert result.ok is (verdict.outcome != "INVALID")


@given(cases())
def test_numeric_outcome_follows_the_threshold_only(case: Any) -> None:
    spec, evidence, trace, variables = case
    verdict, _ = JudgeAgent().judge(spec, evidence, trace)
    if verdict.outcome == "INVALID":
        return
    semantics = spec.prediction_semantics
    assert semantics.comparison is not None and semantics.threshold is not None
    happened = OPS[semantics.comparison](Decimal(variables["numeric_value"]),
                                         Decimal(semantics.threshold))
    # event_observed never enters the decision (DESIGN §2).
    assert verdict.outcome == ("YES" if happened else "NO")


@given(cases())
def test_confidence_bounds(case: Any) -> None:
    spec, evidence, trace, variables = case
    verdict, _ = JudgeAgent().judge(spec, evidence, trace)
    policy = spec.confidence_policy
    if verdict.outcome == "INVALID":
        assert verdict.confidence_bps <= policy.min_confidence_for_yesno_bps
        assert verdict.confidence_bps == min(policy.invalid_confidence_bps,
                                             policy.min_confidence_for_yesno_bps)
    else:
        cited = [i.confidence_bps for i in evidence.items
                 if i.evidence_id in variables["source_summary"]]
        assert policy.min_confidence_for_yesno_bps <= verdict.confidence_bps
        assert verdict.confidence_bps <= min([policy.default_confidence_bps, *cited])


@given(cases())
def test_verdict_bytes_are_deterministic(case: Any) -> None:
    spec, evidence, trace, _ = case
    first, result = JudgeAgent().judge(spec, evidence, trace)
    # Same bytes again, and after a canonical round trip of every input.
    again, again_result = JudgeAgent().judge(
        PromptSpec.from_cbor(spec.to_cbor()), EvidenceBundle.from_cbor(evidence.to_cbor()),
        ReasoningTrace.from_cbor(trace.to_cbor()))
    assert first.to_cbor() == again.to_cbor()
    assert result == again_result
