"""Trace policy verification (seed M06 §11, §13): structure and grounding."""

from __future__ import annotations

from typing import Any

import pytest
from factories import bundle, prompt_spec, two_source_case

from por.auditor import AuditorAgent, TracePolicyVerifier, trace_policy_for
from por.schemas import (
    ChallengeRef,
    EvidenceBundle,
    PromptSpec,
    ReasoningStep,
    ReasoningTrace,
    TracePolicy,
    VerificationResult,
)


@pytest.fixture
def honest() -> tuple[PromptSpec, EvidenceBundle, ReasoningTrace]:
    spec, evidence = two_source_case()
    trace, _ = AuditorAgent().audit(spec, evidence)
    return spec, evidence, trace


def _verify(spec: PromptSpec, evidence: EvidenceBundle, trace: ReasoningTrace
            ) -> VerificationResult:
    return TracePolicyVerifier().verify(trace, spec, evidence)


def _failed(result: VerificationResult) -> list[str]:
    return [c.check_id for c in result.checks if not c.ok]


def _with_step(trace: ReasoningTrace, index: int, **changes: Any) -> ReasoningTrace:
    steps = list(trace.steps)
    steps[index] = steps[index].model_copy(update=changes)
    return trace.model_copy(update={"steps": steps})


def test_honest_trace_passes(honest: tuple[PromptSpec, EvidenceBundle, ReasoningTrace]) -> None:
    spec, evidence, trace = honest
    result = _verify(spec, evidence, trace)
    assert result.ok and _failed(result) == []
    assert [c.check_id for c in result.checks] == [
        "trace.market_id", "trace.policy", "trace.max_steps", "trace.step_id_order",
        "trace.duplicate_step_id", "trace.prior_step_order", "trace.unknown_evidence",
        "trace.external_facts", "trace.missing_evaluation_variables"]


def test_unknown_evidence_id_fails(honest: tuple[PromptSpec, EvidenceBundle,
                                                 ReasoningTrace]) -> None:
    spec, evidence, trace = honest
    bad = _with_step(trace, 2, evidence_ids=["e1", "e_ghost"])
    result = _verify(spec, evidence, bad)
    assert not result.ok and _failed(result) == ["trace.unknown_evidence"]
    assert result.challenge == ChallengeRef(kind="reasoning_leaf", step_id="step_0003",
                                            leaf_index=2, reason="evidence_ids")


def test_unknown_evidence_in_source_summary_fails(
        honest: tuple[PromptSpec, EvidenceBundle, ReasoningTrace]) -> None:
    spec, evidence, trace = honest
    variables = dict(trace.steps[-1].output["evaluation_variables"])  # type: ignore[arg-type]
    variables["source_summary"] = ["e_ghost"]
    bad = _with_step(trace, -1, output={"evaluation_variables": variables})
    result = _verify(spec, evidence, bad)
    assert _failed(result) == ["trace.unknown_evidence"]
    assert result.challenge is not None and result.challenge.step_id == "step_0007"


def test_prior_step_pointing_forward_fails(honest: tuple[PromptSpec, EvidenceBundle,
                                                         ReasoningTrace]) -> None:
    spec, evidence, trace = honest
    bad = _with_step(trace, 2, prior_step_ids=["step_0001", "step_0005"])
    result = _verify(spec, evidence, bad)
    assert _failed(result) == ["trace.prior_step_order"]
    assert result.challenge is not None
    assert (result.challenge.step_id, result.challenge.leaf_index) == ("step_0003", 2)


@pytest.mark.parametrize("priors", [["step_0003"], ["step_0001", "step_0001"], ["nope"]])
def test_self_duplicate_or_unknown_prior_fails(
        honest: tuple[PromptSpec, EvidenceBundle, ReasoningTrace], priors: list[str]) -> None:
    spec, evidence, trace = honest
    assert _failed(_verify(spec, evidence, _with_step(trace, 2, prior_step_ids=priors))) == [
        "trace.prior_step_order"]


def test_missing_final_evaluation_variables_fails(
        honest: tuple[PromptSpec, EvidenceBundle, ReasoningTrace]) -> None:
    spec, evidence, trace = honest
    truncated = trace.model_copy(update={"steps": trace.steps[:-1]})  # ends with deduce
    result = _verify(spec, evidence, truncated)
    assert _failed(result) == ["trace.missing_evaluation_variables"]
    assert result.challenge == ChallengeRef(kind="reasoning_leaf", step_id="step_0006",
                                            leaf_index=5, reason="evaluation_variables")
    empty = trace.model_copy(update={"steps": []})
    assert _failed(_verify(spec, evidence, empty)) == ["trace.missing_evaluation_variables"]


@pytest.mark.parametrize("output", [
    {},
    {"evaluation_variables": {"conflict_detected": False}},
    {"evaluation_variables": {"conflict_detected": 0, "insufficient_evidence": True,
                              "fallback_used": False, "provenance_ok": True,
                              "source_summary": []}},
])
def test_malformed_evaluation_variables_fail(
        honest: tuple[PromptSpec, EvidenceBundle, ReasoningTrace], output: Any) -> None:
    spec, evidence, trace = honest
    assert _failed(_verify(spec, evidence, _with_step(trace, -1, output=output))) == [
        "trace.missing_evaluation_variables"]


def test_final_aggregate_step_is_accepted(
        honest: tuple[PromptSpec, EvidenceBundle, ReasoningTrace]) -> None:
    spec, evidence, trace = honest
    as_aggregate = _with_step(trace, -1, step_type="aggregate")
    assert _verify(spec, evidence, as_aggregate).ok


def test_duplicate_and_out_of_order_step_ids(
        honest: tuple[PromptSpec, EvidenceBundle, ReasoningTrace]) -> None:
    spec, evidence, trace = honest
    dup = _with_step(trace, 1, step_id="step_0001")
    assert "trace.duplicate_step_id" in _failed(_verify(spec, evidence, dup))
    gap = _with_step(trace, 1, step_id="step_0009")
    assert "trace.step_id_order" in _failed(_verify(spec, evidence, gap))
    malformed = _with_step(trace, 0, step_id="step_1")
    assert "trace.step_id_order" in _failed(_verify(spec, evidence, malformed))
    swapped = trace.model_copy(update={"steps": [trace.steps[1], trace.steps[0],
                                                 *trace.steps[2:]]})
    assert _failed(_verify(spec, evidence, swapped)) == ["trace.step_id_order",
                                                         "trace.step_id_order"]


def test_max_steps_and_policy(honest: tuple[PromptSpec, EvidenceBundle,
                                            ReasoningTrace]) -> None:
    spec, evidence, trace = honest
    assert trace.policy == trace_policy_for(spec, evidence) == TracePolicy(max_steps=2 * 2 + 8
                                                                           + 16)
    tight = trace.model_copy(update={"policy": TracePolicy(max_steps=3)})
    assert _failed(_verify(spec, evidence, tight)) == ["trace.policy", "trace.max_steps"]
    wide = trace.model_copy(update={"policy": TracePolicy(max_steps=10_000)})
    assert _failed(_verify(spec, evidence, wide)) == ["trace.policy"]


def test_market_id_mismatch(honest: tuple[PromptSpec, EvidenceBundle, ReasoningTrace]) -> None:
    spec, evidence, trace = honest
    result = _verify(spec, evidence, trace.model_copy(update={"market_id": "other"}))
    assert _failed(result) == ["trace.market_id"]
    assert result.checks[0].expected == "m1" and result.checks[0].actual == "other"


def test_external_facts_in_inputs(honest: tuple[PromptSpec, EvidenceBundle,
                                                ReasoningTrace]) -> None:
    spec, evidence, trace = honest
    bad = _with_step(trace, 0, inputs={"kind": "extract_claims", "btc_price": "100"})
    assert _failed(_verify(spec, evidence, bad)) == ["trace.external_facts"]


def test_policy_bound_is_a_function_of_input_size() -> None:
    spec = prompt_spec()
    assert trace_policy_for(spec, bundle([])).max_steps == 8 + 16
    trace, report = AuditorAgent().audit(spec, bundle([]))
    assert len(trace.steps) == 5 and report.ok


def test_steps_are_well_formed_records(honest: tuple[PromptSpec, EvidenceBundle,
                                                     ReasoningTrace]) -> None:
    _, _, trace = honest
    for step in trace.steps:
        assert ReasoningStep.from_cbor(step.to_cbor()) == step
    assert ReasoningTrace.from_cbor(trace.to_cbor()) == trace
