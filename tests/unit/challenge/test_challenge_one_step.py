"""One-step proofs over toy bundles with an injected step semantics (``toy_recompute``).

The real auditor's ``recompute_step`` is exercised in
``test_challenge_scenarios.py``; here the semantics is small enough that every
outcome (match, mismatch, unexecutable, invalid record, id/position, prior
order) and every invalid-proof id can be produced on purpose.
"""

from __future__ import annotations

from typing import Any

import pytest
from challenge_support import assemble, make_bundle, make_item, toy_recompute, with_step

from por.challenge import (
    InclusionProof,
    OneStepProof,
    build_inclusion_proof,
    build_one_step_proof,
    check_proof,
)
from por.challenge.records import seal
from por.errors import ProofError
from por.merkle import leaf_hash
from por.schemas import ReasoningStep

BUNDLE = make_bundle(3)


def _check(proof: OneStepProof, **options: Any) -> Any:
    options.setdefault("recompute", toy_recompute)
    return check_proof(proof.to_cbor(), **options)


def _reseal(proof: OneStepProof, **changes: Any) -> OneStepProof:
    body = proof.to_dict()
    del body["challenge_id"]
    body.update(changes)
    result: OneStepProof = seal(OneStepProof, body)
    return result


def test_every_step_of_a_valid_bundle_is_lost() -> None:
    for index in range(len(BUNDLE.steps)):
        proof = build_one_step_proof(BUNDLE, index)
        report = _check(proof, por_root=BUNDLE.commitments.por_root)
        assert (report.status, report.exit_code) == ("valid", 1)
        assert report.outcome is not None
        assert (report.outcome.outcome, report.outcome.reason) == ("lost", "one_step.match")
        assert report.outcome.recomputed_leaf_hash == leaf_hash(BUNDLE.steps[index])
        assert [c.role for c in report.inclusions][:2] == ["step", "prompt_spec"]


def test_proof_carries_exactly_the_citations() -> None:
    last = build_one_step_proof(BUNDLE, 3)  # the aggregate cites steps 1-3, no evidence
    assert [p.leaf_index for p in last.prior_steps] == [0, 1, 2]
    assert last.evidence == []
    first = build_one_step_proof(BUNDLE, 0)
    assert [p.leaf for p in first.evidence] == [BUNDLE.evidence[0]]
    assert first.prior_steps == []
    assert first.step.to_cbor() == build_inclusion_proof(BUNDLE, "reasoning_leaf", 0).to_cbor()


def test_altered_step_with_recomputed_hashes_is_upheld() -> None:
    step = ReasoningStep.from_cbor(BUNDLE.steps[1])
    wrong = step.model_copy(update={"output": {"closes": ["999"]}})
    bundle = with_step(BUNDLE, 1, wrong)
    assert bundle.commitments.por_root != BUNDLE.commitments.por_root
    report = _check(build_one_step_proof(bundle, 1), por_root=bundle.commitments.por_root)
    assert report.status == "valid"
    outcome = report.outcome
    assert outcome is not None
    assert (outcome.outcome, outcome.reason) == ("won", "one_step.mismatch")
    assert outcome.differing_fields == ("output",)
    assert outcome.recomputed is not None
    assert outcome.recomputed["output"] == {"closes": ["101.5"]}
    assert outcome.committed_leaf_hash == leaf_hash(bundle.steps[1])
    # A later step that merely uses the wrong step is judged on it as committed.
    later = _check(build_one_step_proof(bundle, 3))
    assert later.outcome is not None and later.outcome.reason == "one_step.match"


def test_unexecutable_step_is_upheld_with_the_audit_cause() -> None:
    items = [make_item(0)]
    bad = items[0].model_copy(update={"content": b'{"price":"1"}'})
    step = ReasoningStep(step_id="step_0001", step_type="extract", description="x",
                         evidence_ids=["ev_0000"], prior_step_ids=[], inputs={},
                         output={"closes": ["1"]})
    bundle = assemble(BUNDLE.prompt_spec, [bad.to_cbor()], [step.to_cbor()])
    outcome = _check(build_one_step_proof(bundle, 0)).outcome
    assert outcome is not None
    assert (outcome.outcome, outcome.reason, outcome.cause) == (
        "won", "one_step.unexecutable", "audit.extract_failed")


def test_step_id_out_of_position_is_upheld() -> None:
    step = ReasoningStep.from_cbor(BUNDLE.steps[0]).model_copy(update={"step_id": "step_0009"})
    bundle = with_step(BUNDLE, 0, step)
    outcome = _check(build_one_step_proof(bundle, 0)).outcome
    assert outcome is not None
    assert (outcome.outcome, outcome.reason) == ("won", "one_step.id_position")


def test_citing_a_later_step_is_upheld() -> None:
    extract = ReasoningStep.from_cbor(BUNDLE.steps[0]).model_copy(
        update={"step_id": "step_0002"})
    aggregate = ReasoningStep(step_id="step_0001", step_type="aggregate", description="x",
                              evidence_ids=[], prior_step_ids=["step_0002"], inputs={},
                              output={"count": 1})
    bundle = assemble(BUNDLE.prompt_spec, list(BUNDLE.evidence[:1]),
                      [aggregate.to_cbor(), extract.to_cbor()])
    outcome = _check(build_one_step_proof(bundle, 0)).outcome
    assert outcome is not None
    assert (outcome.outcome, outcome.reason) == ("won", "one_step.prior_order")


def test_committed_invalid_record_is_upheld() -> None:
    bundle = assemble(b"\xa0", list(BUNDLE.evidence), list(BUNDLE.steps))
    outcome = _check(build_one_step_proof(bundle, 0)).outcome
    assert outcome is not None
    assert (outcome.outcome, outcome.reason, outcome.cause) == (
        "won", "one_step.invalid_record", "schema.unknown_schema")
    assert "prompt_spec" in outcome.message


def test_builder_refuses_unprovable_steps() -> None:
    bundle = assemble(BUNDLE.prompt_spec, list(BUNDLE.evidence), [b"\xa0"])
    with pytest.raises(ProofError) as caught:
        build_one_step_proof(bundle, 0)
    assert caught.value.check_id == "proof.step_record"
    step = ReasoningStep.from_cbor(BUNDLE.steps[0]).model_copy(
        update={"evidence_ids": ["ev_nope"]})
    with pytest.raises(ProofError) as caught:
        build_one_step_proof(with_step(BUNDLE, 0, step), 0)
    assert caught.value.check_id == "proof.citation_missing"
    with pytest.raises(ProofError) as caught:
        build_one_step_proof(BUNDLE, 4)
    assert caught.value.check_id == "proof.no_such_leaf"


def _failure(proof: OneStepProof, **options: Any) -> str:
    report = _check(proof, **options)
    assert (report.status, report.exit_code, report.outcome) == ("invalid", 1, None)
    return str(report.check_id)


def test_wrong_citations_are_an_invalid_proof() -> None:
    proof = build_one_step_proof(BUNDLE, 0)
    other = build_inclusion_proof(BUNDLE, "evidence_leaf", 1).to_dict()
    assert _failure(_reseal(proof, evidence=[other])) == "proof.citations"
    assert _failure(_reseal(proof, evidence=[])) == "proof.citations"
    last = build_one_step_proof(BUNDLE, 3)
    priors = [p.to_dict() for p in last.prior_steps]
    assert _failure(_reseal(last, prior_steps=priors[:2])) == "proof.citations"
    assert _failure(_reseal(last, prior_steps=priors[::-1])) == "proof.citations"


def test_parts_of_the_wrong_kind_or_bundle() -> None:
    last = build_one_step_proof(BUNDLE, 3)
    evidence = build_inclusion_proof(BUNDLE, "evidence_leaf", 0).to_dict()
    assert _failure(_reseal(last, prior_steps=[evidence])) == "proof.kind"
    assert _failure(_reseal(last, step=last.prompt_spec.to_dict())) == "proof.kind"
    other = make_bundle(4)
    foreign = build_inclusion_proof(other, "prompt_spec").to_dict()
    assert _failure(_reseal(last, prompt_spec=foreign)) == "proof.por_root"
    assert _failure(last, por_root=other.commitments.por_root) == "proof.por_root"


def test_corrupted_nested_path_and_stale_ids() -> None:
    proof = build_one_step_proof(BUNDLE, 1)
    step = proof.step.to_dict()
    step["leaf_path"] = [bytes(32), *step["leaf_path"][1:]]
    assert _failure(_reseal(proof, step=step)) == "proof.leaf_path"
    stale_outer = OneStepProof.from_dict({**proof.to_dict(), "challenge_id": bytes(32)})
    assert _failure(stale_outer) == "proof.challenge_id"
    stale_inner = {**proof.step.to_dict(), "challenge_id": bytes(32)}
    assert _failure(_reseal(proof, step=stale_inner)) == "proof.challenge_id"


def test_no_auditor_is_no_verdict(monkeypatch: pytest.MonkeyPatch) -> None:
    def missing(name: str) -> Any:
        raise ImportError(name)

    monkeypatch.setattr("por.challenge.one_step.importlib.import_module", missing)
    report = check_proof(build_one_step_proof(BUNDLE, 0).to_cbor())
    assert (report.status, report.check_id, report.exit_code) == (
        "error", "proof.auditor_unavailable", 2)


def test_auditor_crash_is_an_internal_error_not_an_outcome() -> None:
    def crash(*args: Any) -> ReasoningStep:
        raise RuntimeError("boom")

    report = check_proof(build_one_step_proof(BUNDLE, 0).to_cbor(), recompute=crash)
    assert (report.status, report.check_id, report.outcome) == ("error", "internal.error", None)
    assert len(report.inclusions) == 3  # the checks that ran are still reported


def test_nested_proofs_are_standalone_proofs() -> None:
    proof = build_one_step_proof(BUNDLE, 3)
    for part in (proof.step, proof.prompt_spec, *proof.prior_steps):
        assert isinstance(part, InclusionProof)
        assert check_proof(part.to_cbor()).status == "valid"
