"""Item cards in one-step proofs (SPEC §10.2.3, §12.5.2; ADR 0011 stage 2).

An extract step copies its item's card; every later step reads items only
through cards, so its one-step proof carries no evidence part, and a card that
is not its item's is a wrong extract step whose extraction proof wins.
"""

from __future__ import annotations

from typing import Any

from por.bundle import build
from por.bundle.layout import Bundle, compute_commitments, with_forms
from por.challenge import (
    build_inclusion_proof,
    build_one_step_proof,
    bundle_from_bytes,
    check_proof,
)
from por.challenge.judge_proof import build_judge_proof
from por.challenge.records import JudgeProof, OneStepProof, seal
from por.scenarios import load_scenario
from por.schemas import ReasoningStep

NAME = "08-quorum-agree"


def _bundle() -> Bundle:
    scenario = load_scenario(NAME)
    return bundle_from_bytes(build(scenario.prompt_spec, scenario.evidence).data)


def _with_step(bundle: Bundle, index: int, step: ReasoningStep) -> Bundle:
    records: dict[str, Any] = {
        "manifest": bundle.manifest, "prompt_spec": bundle.prompt_spec,
        "evidence": list(bundle.evidence), "trace_header": bundle.trace_header,
        "steps": [*bundle.steps[:index], step.to_cbor(), *bundle.steps[index + 1:]],
        "verdict": bundle.verdict}
    records = with_forms(records)
    return Bundle(**records, commitments=compute_commitments(**records), signatures=[])


def test_only_extraction_proofs_carry_items() -> None:
    bundle = _bundle()
    n = len(bundle.evidence)
    for index in range(len(bundle.steps)):
        proof = build_one_step_proof(bundle, index)
        if index < n:
            assert [p.leaf for p in proof.evidence] == [bundle.evidence[index]]
        else:
            assert proof.evidence == []
        report = check_proof(proof.to_cbor(), por_root=bundle.commitments.por_root)
        assert report.outcome is not None and report.outcome.reason == "one_step.match"


def test_an_evidence_part_on_a_later_step_is_an_invalid_proof() -> None:
    bundle = _bundle()
    check = len(bundle.evidence)  # the first check step
    proof = build_one_step_proof(bundle, check)
    body = proof.to_dict()
    del body["challenge_id"]
    body["evidence"] = [build_inclusion_proof(bundle, "evidence_leaf", 0).to_dict()]
    forged: OneStepProof = seal(OneStepProof, body)
    report = check_proof(forged.to_cbor())
    assert (report.status, report.check_id) == ("invalid", "proof.citations")


def test_a_card_that_is_not_the_items_loses_its_extraction_proof() -> None:
    bundle = _bundle()
    extract = ReasoningStep.from_cbor(bundle.steps[0])
    card = dict(extract.output["card"])
    card["provenance_tier"] = (card["provenance_tier"] + 1) % 4
    forged = _with_step(bundle, 0, extract.model_copy(
        update={"output": {**extract.output, "card": card}}))
    report = check_proof(build_one_step_proof(forged, 0).to_cbor(),
                         por_root=forged.commitments.por_root)
    assert report.outcome is not None
    assert (report.outcome.outcome, report.outcome.reason) == ("won", "one_step.mismatch")
    assert [d.field for d in report.outcome.differences] == ["output.card.provenance_tier"]


def test_the_judge_proof_carries_extract_steps_not_items() -> None:
    bundle = _bundle()
    proof = build_judge_proof(bundle)
    summary = ReasoningStep.from_cbor(bundle.steps[-1]).output[
        "evaluation_variables"]["source_summary"]
    assert [ReasoningStep.from_cbor(p.leaf).output["evidence_id"]
            for p in proof.extract_steps] == summary
    assert all(p.leaf_index < len(bundle.evidence) for p in proof.extract_steps)
    report = check_proof(proof.to_cbor(), por_root=bundle.commitments.por_root)
    assert report.outcome is not None and report.outcome.reason == "judge.match"
    body = proof.to_dict()
    del body["challenge_id"]
    body["extract_steps"] = [build_inclusion_proof(bundle, "reasoning_leaf",
                                                   len(bundle.evidence)).to_dict()]
    report = check_proof(seal(JudgeProof, body).to_cbor())
    assert (report.status, report.check_id) == ("invalid", "proof.citations")


def test_a_judge_proof_over_an_unreadable_card_wins() -> None:
    bundle = _bundle()
    summary = ReasoningStep.from_cbor(bundle.steps[-1]).output[
        "evaluation_variables"]["source_summary"]
    index = next(i for i, leaf in enumerate(bundle.steps[:len(bundle.evidence)])
                 if ReasoningStep.from_cbor(leaf).output["evidence_id"] == summary[0])
    extract = ReasoningStep.from_cbor(bundle.steps[index])
    card = {k: v for k, v in extract.output["card"].items() if k != "status_code"}
    forged = _with_step(bundle, index, extract.model_copy(
        update={"output": {**extract.output, "card": card}}))
    report = check_proof(build_judge_proof(forged).to_cbor())
    assert report.outcome is not None
    assert (report.outcome.outcome, report.outcome.reason, report.outcome.cause) == (
        "won", "one_step.invalid_record", "step.bad_prior_output")
