"""Challenges over the real pipeline: every scenario bundle, the real auditor's steps.

For every bundled scenario (``fixtures/markets``): a proof for every leaf of
every kind verifies, the bundle proof is consistent, and the one-step proof of
every step is ``rejected`` (the committed step is right).  A bundle whose
deduce step was forged, with every hash, root and the verdict recomputed so
that only replay can tell, yields a verifier ChallengeRef whose one-step proof
is ``upheld``; the next step, which merely uses the forged one, is ``rejected``.
"""

from __future__ import annotations

from typing import Any

import pytest

from por.bundle import build
from por.bundle.layout import Bundle, compute_commitments, with_forms
from por.challenge import (
    OneStepProof,
    build_bundle_proof,
    build_inclusion_proof,
    build_one_step_proof,
    bundle_from_bytes,
    check_proof,
    proof_for_ref,
)
from por.judge import JudgeAgent
from por.scenarios import list_scenarios, load_scenario
from por.schemas import ReasoningStep, ReasoningTrace
from verifier import check_bundle

NAMES = list_scenarios()


def _bundle(name: str) -> Bundle:
    scenario = load_scenario(name)
    return bundle_from_bytes(build(scenario.prompt_spec, scenario.evidence).data)


def test_there_are_scenarios() -> None:
    assert len(NAMES) >= 15


@pytest.mark.parametrize("name", NAMES)
def test_every_leaf_of_every_scenario_is_provable(name: str) -> None:
    bundle = _bundle(name)
    root = bundle.commitments.por_root
    proofs = [build_inclusion_proof(bundle, "prompt_spec"),
              build_inclusion_proof(bundle, "verdict")]
    proofs += [build_inclusion_proof(bundle, "evidence_leaf", i)
               for i in range(len(bundle.evidence))]
    proofs += [build_inclusion_proof(bundle, "reasoning_leaf", i)
               for i in range(len(bundle.steps))]
    for proof in proofs:
        report = check_proof(proof.to_cbor(), por_root=root)
        assert (report.status, report.check_id) == ("valid", "proof.ok")
        assert report.inclusions[0].leaf_record == "ok"
    report = check_proof(build_bundle_proof(bundle).to_cbor(), por_root=root)
    assert report.outcome is not None
    assert (report.status, report.outcome.reason) == ("valid", "bundle.consistent")
    for index in range(len(bundle.steps)):
        report = check_proof(build_one_step_proof(bundle, index).to_cbor(), por_root=root)
        assert report.status == "valid"
        assert report.outcome is not None
        assert (report.outcome.outcome, report.outcome.reason) == ("lost", "one_step.match")


def forged_bundle(name: str = "08-quorum-agree") -> tuple[Bundle, bytes]:
    """The scenario with its deduce step's ``event_observed`` flipped (and the map
    step and verdict following it), every commitment recomputed: consistent bytes
    whose reasoning is wrong at exactly one step."""
    scenario = load_scenario(name)
    honest = build(scenario.prompt_spec, scenario.evidence)
    steps = list(honest.trace.steps)
    deduce = next(i for i, s in enumerate(steps) if s.step_type == "deduce")
    flipped = not steps[deduce].output["event_observed"]
    steps[deduce] = steps[deduce].model_copy(
        update={"output": {**steps[deduce].output, "event_observed": flipped}})
    variables = steps[-1].output["evaluation_variables"]
    assert isinstance(variables, dict)
    steps[-1] = steps[-1].model_copy(update={"output": {
        "evaluation_variables": {**variables, "event_observed": flipped}}})
    trace = ReasoningTrace(trace_id=honest.trace.trace_id, market_id=honest.trace.market_id,
                           policy=honest.trace.policy, steps=steps)
    verdict, _ = JudgeAgent().judge(scenario.prompt_spec, scenario.evidence, trace)
    original = bundle_from_bytes(honest.data)
    records: dict[str, Any] = {
        "manifest": original.manifest, "prompt_spec": original.prompt_spec,
        "evidence": list(original.evidence), "trace_header": trace.header().to_cbor(),
        "steps": [s.to_cbor() for s in steps], "verdict": verdict.to_cbor(),
    }
    records = with_forms(records)
    bundle = Bundle(**records, commitments=compute_commitments(**records), signatures=[])
    return bundle, bundle.to_cbor()


def test_forged_step_is_upheld_and_its_consumer_rejected() -> None:
    bundle, data = forged_bundle()
    report = check_bundle(data)
    failure = report.first_failure
    assert failure is not None and failure.challenge is not None
    assert (report.status, failure.check_id) == ("rejected", "replay.step_mismatch")
    ref = failure.challenge
    assert ref.kind == "reasoning_leaf" and ref.leaf_index is not None
    proof = proof_for_ref(bundle, ref)
    assert isinstance(proof, OneStepProof)
    result = check_proof(proof.to_cbor(), por_root=bundle.commitments.por_root)
    assert result.status == "valid"
    assert result.outcome is not None
    assert (result.outcome.outcome, result.outcome.reason) == ("won", "one_step.mismatch")
    assert result.outcome.differing_fields == ("output",)
    assert result.outcome.recomputed is not None
    committed = ReasoningStep.from_cbor(bundle.steps[ref.leaf_index])
    assert result.outcome.recomputed["output"]["event_observed"] \
        is not committed.output["event_observed"]
    # The map step faithfully copies the forged deduce step: judged alone, it is right.
    after = check_proof(build_one_step_proof(bundle, ref.leaf_index + 1).to_cbor())
    assert after.outcome is not None and after.outcome.reason == "one_step.match"
