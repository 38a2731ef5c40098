"""Issue 12 §1: omission is provable.

A bundle that commits every item but whose ``check_requirement`` step cites
only some of its requirement's items (every later step, the header and the
verdict computed honestly from that step) is rejected by full replay; every
one-step proof of it is lost, but the OmissionProof of the check step and an
uncited item is won, and ``verify --challenges`` writes it.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from bundle_edits import audited_on
from citation_support import honest_08, with_citations

from por.bundle import build
from por.bundle.layout import Bundle
from por.challenge import (
    NoProof,
    OmissionProof,
    build_omission_proof,
    build_one_step_proof,
    bundle_from_bytes,
    check_proof,
    omissions,
    winning_proof,
)
from por.challenge.batch import ComponentTree
from por.challenge.records import body_of, seal
from por.cli import main
from por.errors import ProofError
from por.scenarios import load_scenario
from por.schemas import ReasoningStep
from verifier import check_bundle


def omitting_bundle(name: str = "09-conflict-invalid", drop: int = 1) -> tuple[Bundle, bytes]:
    """Scenario ``name`` built without item ``drop``, then that item committed anyway."""
    count = len(load_scenario(name).evidence.items)
    bundle = audited_on(name, [i for i in range(count) if i != drop])
    return bundle, bundle.to_cbor()


def test_omission_is_rejected_by_replay_and_lost_by_every_one_step_proof() -> None:
    honest = build(load_scenario("09-conflict-invalid").prompt_spec,
                   load_scenario("09-conflict-invalid").evidence).verdict
    bundle, data = omitting_bundle()
    report = check_bundle(data)
    assert report.status == "rejected"
    assert report.first_failure is not None
    assert report.first_failure.check_id.startswith("replay.")
    assert honest.outcome == "INVALID"
    root = bundle.commitments.por_root
    for index in range(len(bundle.steps)):
        result = check_proof(build_one_step_proof(bundle, index).to_cbor(), por_root=root)
        assert result.outcome is not None and result.outcome.outcome == "lost", index


def test_omission_proof_is_won() -> None:
    bundle, _ = omitting_bundle()
    # The dropped item's extract step is missing too, so step leaf 1 is not the
    # extract of evidence leaf 1 (position rule); it is the check step, which
    # omits evidence leaf 1 of its requirement; the aggregate (leaf 2) ends the
    # chain before it (SPEC §10.2.4 rule 1, stage 3).
    assert omissions(bundle) == [(1, 1), (2, 1)]
    step_index, evidence_index = 1, 1
    proof = build_omission_proof(bundle, step_index)
    assert isinstance(proof, OmissionProof) and proof.evidence.leaf_index == evidence_index
    report = check_proof(proof.to_cbor(), por_root=bundle.commitments.por_root)
    assert (report.status, report.exit_code) == ("valid", 0)
    assert report.outcome is not None and report.outcome.reason == "omission.uncited_item"
    assert [c.role for c in report.inclusions] == ["step", "evidence"]


def test_honest_bundles_have_no_omission_and_lose_a_forced_one() -> None:
    scenario = load_scenario("09-conflict-invalid")
    honest = bundle_from_bytes(build(scenario.prompt_spec, scenario.evidence).data)
    assert omissions(honest) == []
    check_index = 2  # step_0003: check_requirement req_close (two extracts first)
    with pytest.raises(ProofError) as caught:
        build_omission_proof(honest, check_index)
    assert caught.value.check_id == "proof.no_omission"
    root = honest.commitments.por_root
    # Forced: an item the step cites, a step that is not a check step.
    cited = check_proof(build_omission_proof(honest, check_index, 0).to_cbor(), por_root=root)
    assert cited.outcome is not None and (cited.outcome.reason, cited.exit_code) == (
        "omission.cited", 1)
    other = check_proof(build_omission_proof(honest, 0, 1).to_cbor(), por_root=root)
    assert other.outcome is not None and other.outcome.reason == "omission.not_a_check"


def test_verify_challenges_writes_the_winning_omission_proof(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bundle, data = omitting_bundle()
    found = winning_proof(bundle, check_bundle(data).first_failure.challenge)  # type: ignore[union-attr, arg-type]
    assert not isinstance(found, NoProof)
    assert isinstance(found[0], OmissionProof)
    path = tmp_path / "omits.cbor"
    path.write_bytes(data)
    out_dir = tmp_path / "proofs"
    assert main(["verify", "--challenges", str(out_dir), str(path)]) == 1
    assert "(challenge won: omission.uncited_item)" in capsys.readouterr().err
    [written] = sorted(out_dir.iterdir())
    assert main(["check-proof", "-q", "--por-root", bundle.commitments.por_root.hex(),
                 str(written)]) == 0


def test_challenge_omission_from_the_command_line(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    bundle, data = omitting_bundle()
    path = tmp_path / "omits.cbor"
    path.write_bytes(data)
    [(step_index, _), _aggregate] = omissions(bundle)
    proof = tmp_path / "o.cbor"
    step = f"step_{step_index + 1:04d}"
    assert main(["challenge", str(path), "--step", step, "--omission", "-o", str(proof)]) == 0
    assert main(["check-proof", str(proof)]) == 0
    assert "challenge won (omission.uncited_item)" in capsys.readouterr().out
    assert main(["challenge", str(path), "--step", "step_0001", "--omission"]) == 2
    assert "proof.no_omission" in capsys.readouterr().err


def test_position_rule_proof() -> None:
    bundle, _ = omitting_bundle()
    proof = build_omission_proof(bundle, 1, 1)
    report = check_proof(proof.to_cbor(), por_root=bundle.commitments.por_root)
    assert report.outcome is not None and report.outcome.reason == "omission.uncited_item"
    proof = build_omission_proof(bundle, 2, 1)  # the aggregate at leaf 2: the chain
    report = check_proof(proof.to_cbor(), por_root=bundle.commitments.por_root)  # ends early
    assert report.outcome is not None and report.outcome.reason == "omission.uncited_item"
    proof = build_omission_proof(bundle, 3, 1)  # the contradictions step: not a check
    report = check_proof(proof.to_cbor(), por_root=bundle.commitments.por_root)
    assert report.outcome is not None and report.outcome.reason == "omission.not_a_check"
    three, _ = omitting_bundle("08-quorum-agree", drop=0)
    proof = build_omission_proof(three, 1, 1)  # leaf 1 extracts ev-exchange-gamma
    three_root = three.commitments.por_root
    report = check_proof(proof.to_cbor(), por_root=three_root)
    assert report.outcome is not None
    assert (report.outcome.reason, report.exit_code) == ("omission.extract_position", 0)
    scenario = load_scenario("09-conflict-invalid")
    honest = bundle_from_bytes(build(scenario.prompt_spec, scenario.evidence).data)
    for index in range(len(honest.evidence)):
        result = check_proof(build_omission_proof(honest, index, index).to_cbor())
        assert result.outcome is not None and result.outcome.reason == "omission.cited"


def test_an_uncited_item_is_shown_by_its_extract_step_not_the_item() -> None:
    """ADR 0011 decision 2: the proof carries the omitted item's extract step
    (``reasoning_leaf``, its leaf index the item's), never the item, so its size does
    not grow with the item; honest and forged pairs of the same form lose."""
    honest = honest_08()
    check = 3  # scenario 08: three extract steps, then the check step (leaf 3)
    step = ReasoningStep.from_cbor(honest.steps[check])
    bundle = with_citations(honest, check, evidence_ids=step.evidence_ids[:2],
                            prior_step_ids=step.prior_step_ids[:2])
    assert omissions(bundle) == [(check, 2)]
    proof = build_omission_proof(bundle, check)
    assert (proof.evidence.kind, proof.evidence.leaf_index) == ("reasoning_leaf", 2)
    assert proof.evidence.leaf == bundle.steps[2]
    report = check_proof(proof.to_cbor(), por_root=bundle.commitments.por_root)
    assert report.outcome is not None
    assert (report.outcome.reason, report.exit_code) == ("omission.uncited_item", 0)
    # The honest check step and the same extract step: lost (cited).
    for target in (honest, bundle):
        forced = build_omission_proof(target, check, 0)
        assert forced.evidence.kind == "reasoning_leaf"
        result = check_proof(forced.to_cbor(), por_root=target.commitments.por_root)
        assert result.outcome is not None and result.outcome.reason == "omission.cited"
    # A carried reasoning leaf that is not the extract step at its position: invalid.
    steps = ComponentTree("reasoning_leaf", bundle.steps, bundle.commitments)
    body = {**body_of(proof), "evidence": steps.proof(check + 1).to_dict()}
    result = check_proof(seal(OmissionProof, body).to_cbor(),
                         por_root=bundle.commitments.por_root)
    assert (result.status, result.check_id) == ("invalid", "proof.citations")
