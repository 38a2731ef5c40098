"""FormProof (SPEC §10.2.8, §10.4.3): a committed chain form hash against its record.

Every form of an honest bundle is lost (``form.match``); a changed carried hash is
won (``form.mismatch``), a valid record with no form is won (``form.none``), an
invalid record is won (``one_step.invalid_record``); a proof whose parts do not
verify or whose index is not its record's is invalid.
"""

from __future__ import annotations

from typing import Any

import pytest
from bundle_edits import honest, recommit

from por.bundle import Bundle
from por.challenge import check_proof
from por.challenge.form_proof import build_form_proof, form_record
from por.challenge.records import FormProof, body_of, seal
from por.encoding import decode
from por.errors import ProofError
from por.schemas import ReasoningStep

SCENARIO = "08-quorum-agree"


def _outcome(bundle: Bundle, index: int) -> tuple[str, str]:
    report = check_proof(build_form_proof(bundle, index).to_cbor(),
                         por_root=bundle.commitments.por_root)
    assert report.status == "valid", report.check_id
    assert report.outcome is not None
    return report.outcome.outcome, report.outcome.reason


def test_every_honest_form_is_lost() -> None:
    bundle = honest(SCENARIO)
    assert {_outcome(bundle, i) for i in range(len(bundle.forms))} == {("lost", "form.match")}


def test_a_changed_hash_is_won_at_its_index_only() -> None:
    bundle = honest(SCENARIO)
    for index in (0, 1, len(bundle.forms) - 3, len(bundle.forms) - 1):
        forms = list(bundle.forms)
        forms[index] = bytes(32)
        lie = recommit(bundle, forms=forms)
        assert _outcome(lie, index) == ("won", "form.mismatch")
        other = (index + 1) % len(forms)
        assert _outcome(lie, other) == ("lost", "form.match")


def test_a_record_with_no_form_and_an_invalid_record_are_won() -> None:
    bundle = honest(SCENARIO)
    last = decode(bundle.steps[-1])
    variables = {**last["output"]["evaluation_variables"], "fallback_used": 0}
    no_form = ReasoningStep.from_dict({**last, "output": {
        **last["output"], "evaluation_variables": variables}}).to_cbor()
    index = len(bundle.forms) - 2
    lie = recommit(bundle, steps=[*bundle.steps[:-1], no_form], forms=list(bundle.forms))
    assert _outcome(lie, index) == ("won", "form.none")
    invalid = recommit(bundle, steps=[*bundle.steps[:-1], b"\xa0"], forms=list(bundle.forms))
    assert _outcome(invalid, index) == ("won", "one_step.invalid_record")


def _resealed(proof: FormProof, **changes: Any) -> bytes:
    body = {**body_of(proof), **changes}
    resealed: FormProof = seal(FormProof, body)
    return resealed.to_cbor()


@pytest.mark.parametrize("change,check_id", [
    ("index", "proof.form_index"), ("leaf", "proof.leaf_path"),
    ("path", "proof.component_path"), ("size", "merkle.proof_length"),
    ("root", "proof.por_root"), ("kind", "proof.kind")])
def test_a_proof_that_does_not_verify_is_invalid(change: str, check_id: str) -> None:
    bundle = honest(SCENARIO)
    index = len(bundle.forms) - 3  # a step's form
    proof = build_form_proof(bundle, index)
    body = body_of(proof)
    changed = {
        "index": {"form_index": index - 1, "form_path": build_form_proof(
            bundle, index - 1).form_path, "form_leaf": bundle.forms[index - 1]},
        "leaf": {"form_leaf": bytes(32)},
        "path": {"forms_path": [bytes(32)] * len(proof.forms_path)},
        "size": {"forms_size": 2 ** 20},
        "root": {"por_root": bytes(32)},
        "kind": {"kind": "verdict"},
    }[change]
    data = _resealed(proof, **changed)
    report = check_proof(data, por_root=bundle.commitments.por_root if change != "root"
                         else None)
    assert report.status == "invalid", (report.check_id, body["form_index"])
    assert report.check_id == check_id


def test_form_record_follows_the_forms_order() -> None:
    # r = 2 requirements, s = 5 steps: 9 forms.
    assert [form_record(9, 5, i) for i in range(9)] == [
        ("prompt_spec", 0), ("prompt_spec", 0), ("prompt_spec", 0),
        *[("reasoning_leaf", k) for k in range(5)], ("verdict", 0)]
    with pytest.raises(ProofError):
        form_record(9, 5, 9)


@pytest.mark.parametrize("name,reason", [
    ("form.mismatch/step-form-hash-rehashed", "form.mismatch"),
    ("form.mismatch/common-form-hash-rehashed", "form.mismatch"),
    ("form.mismatch/requirement-form-hash-rehashed", "form.mismatch"),
    ("form.none/map-flag-as-integer-rehashed", "form.none")])
def test_verify_challenges_writes_the_form_proof_that_wins(name: str, reason: str) -> None:
    """SPEC §10.1: the ChallengeRef of a form lie gets its FormProof, won."""
    from pathlib import Path

    from por.challenge.refs import winning_proof
    from verifier import check_bundle

    data = (Path(__file__).resolve().parents[3] / "fixtures" / "bundles" / "invalid"
            / f"{name}.cbor").read_bytes()
    failure = check_bundle(data).first_failure
    assert failure is not None and failure.challenge is not None
    found = winning_proof(Bundle.from_cbor(data), failure.challenge)
    assert isinstance(found, tuple)
    proof, report = found
    assert isinstance(proof, FormProof) and report.outcome is not None
    assert (report.outcome.reason, proof.form_index) == (reason, failure.details["form_index"])
