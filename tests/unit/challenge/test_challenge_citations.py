"""Citation proofs (SPEC §10.2.7, §12.5.1): issue 22's reordering and a repeat.

Each forged bundle is consistent (every commitment recomputed): ``por verify``
rejects it by replay, ``verify --challenges`` writes a ``por.CitationProof/2``,
``check-proof`` says WON (exit 0) with the citation check id, and the proof is
small (< 64 KiB; the sizes are printed with ``-s``).  The proof checker's own
rules are then exercised one by one, hostile proofs included.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from citation_support import honest_08, reordered_08, with_citations
from file_modules import load_file
from test_challenge_dispute_cli import _schema_errors, run

from por.bundle import build
from por.bundle.layout import Bundle
from por.challenge import (
    CitationProof,
    build_citation_proof,
    build_one_step_proof,
    bundle_from_bytes,
    check_proof,
    citation_faults,
    proof_from_cbor,
)
from por.challenge.batch import ComponentTree
from por.challenge.records import FormStepProof, body_of, seal
from por.errors import ProofError, SchemaError
from por.schemas import ReasoningStep

LIMIT = 64 * 1024
FORM_STEP = "por.FormStepProof/1"
CHECK = 3  # scenario 08: three extract steps, then the check step (leaf 3)


def _written(capsys: pytest.CaptureFixture[str], bundle: Bundle, tmp_path: Path,
             reason: str, schema: str = "por.CitationProof/2") -> bytes:
    """verify rejects, verify --challenges writes one proof (of ``schema``), check-proof:
    WON ``reason``."""
    path = tmp_path / "forged.cbor"
    path.write_bytes(bundle.to_cbor())
    code, out, err = run(capsys, "verify", str(path))
    assert code == 1 and "replay.step_mismatch" in out + err
    out_dir = tmp_path / "proofs"
    code, _, err = run(capsys, "verify", "--challenges", str(out_dir), str(path))
    assert code == 1
    written = sorted(out_dir.iterdir())
    assert len(written) == 1 and f"(challenge won: {reason})" in err, err
    code, out, _ = run(capsys, "check-proof", "--json", str(written[0]))
    document = json.loads(out)
    assert (code, document["status"], document["challenge"]) == (0, "valid", "won")
    assert document["outcome"]["reason"] == reason
    assert document["proof_schema"] == schema
    assert _schema_errors(document, "proof-check") == []
    code, out, _ = run(capsys, "check-proof", str(written[0]))
    assert code == 0 and out.startswith("WON ")
    data = written[0].read_bytes()
    assert len(data) < LIMIT
    return data


def test_issue_22_reordering_has_a_small_winning_proof(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    honest = honest_08()
    bundle, outcome = reordered_08()
    # The lie flips the verdict; since stage 3 (SPEC §12.5.3) a check chunk
    # re-executed on its own citations refuses items out of bundle order, so its
    # one-step proof wins too. Since s40 the chunk's FormStepProof (SPEC §10.2.9) is the
    # one written first (won as the one-step check: step.citation_mismatch); the
    # citation proof still wins on its own.
    from por.schemas import DeterministicVerdict
    assert DeterministicVerdict.from_cbor(honest.verdict).outcome == "NO"
    assert outcome == "YES"
    one_step = check_proof(build_one_step_proof(bundle, CHECK).to_cbor(),
                           por_root=bundle.commitments.por_root)
    assert one_step.outcome is not None and one_step.outcome.outcome == "won"
    assert one_step.outcome.cause == "step.citation_mismatch"
    data = _written(capsys, bundle, tmp_path, "one_step.unexecutable", FORM_STEP)
    written = proof_from_cbor(data)
    assert isinstance(written, FormStepProof) and written.kind == "check"
    citation = build_citation_proof(bundle, CHECK)
    assert (citation.step.leaf_index, citation.extract_steps) == (CHECK, [])
    report = check_proof(citation.to_cbor(), por_root=bundle.commitments.por_root)
    assert report.outcome is not None and report.outcome.reason == "one_step.citation_order"
    print(f"\nreordered scenario 08: form step proof {len(data)} bytes, citation proof "
          f"{len(citation.to_cbor())} bytes, one-step proof "
          f"{len(build_one_step_proof(bundle, CHECK).to_cbor())} bytes")


def test_a_repeated_citation_has_a_small_winning_proof(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # alpha twice (with its extract step twice), every later step honest from
    # there: re-executed on its own citations the chunk refuses the repeat
    # (stage 3); the chunk's FormStepProof is written first (s40), the citation proof
    # still wins on its own.
    bundle, _ = reordered_08((0, 0, 1, 2))
    one_step = check_proof(build_one_step_proof(bundle, CHECK).to_cbor(),
                           por_root=bundle.commitments.por_root)
    assert one_step.outcome is not None and one_step.outcome.cause == "step.citation_mismatch"
    data = _written(capsys, bundle, tmp_path, "one_step.unexecutable", FORM_STEP)
    citation = build_citation_proof(bundle, CHECK)
    report = check_proof(citation.to_cbor(), por_root=bundle.commitments.por_root)
    assert report.outcome is not None and report.outcome.reason == "one_step.citation_repeat"
    print(f"\nrepeated citation in scenario 08: form step proof {len(data)} bytes, "
          f"citation proof {len(citation.to_cbor())} bytes")


def _check(proof: CitationProof, bundle: Bundle) -> tuple[str, str, str | None]:
    report = check_proof(proof.to_cbor(), por_root=bundle.commitments.por_root)
    reason = None if report.outcome is None else report.outcome.reason
    return report.status, report.check_id, reason


def test_evidence_out_of_order_is_shown_by_the_two_items() -> None:
    honest = honest_08()
    step = ReasoningStep.from_cbor(honest.steps[CHECK])
    ids = step.evidence_ids
    bundle = with_citations(honest, CHECK, evidence_ids=[ids[0], ids[2], ids[1]])
    assert CHECK in citation_faults(bundle)
    proof = build_citation_proof(bundle, CHECK)
    assert [p.leaf_index for p in proof.extract_steps] == [2, 1]
    assert _check(proof, bundle) == ("valid", "proof.ok", "one_step.citation_order")


def test_a_prior_step_that_is_not_the_items_extract_is_a_set_fault() -> None:
    honest = honest_08()
    step = ReasoningStep.from_cbor(honest.steps[CHECK])
    # Items in order, prior steps in order, but the second item's extract step is
    # replaced by the third's and the third's by an earlier non-extract... the
    # simplest: cite the extract steps 1, 3 and the items 0, 1 (two each).
    bundle = with_citations(honest, CHECK, evidence_ids=step.evidence_ids[:2],
                            prior_step_ids=["step_0001", "step_0003"])
    proof = build_citation_proof(bundle, CHECK)
    assert [p.leaf_index for p in proof.extract_steps] == [1]
    assert _check(proof, bundle) == ("valid", "proof.ok", "one_step.citation_set")


@pytest.mark.parametrize(("index", "lists"), [
    (0, {"prior_step_ids": ["step_0001"]}),  # an extract cites no prior step (and itself)
    (CHECK, {"prior_step_ids": ["step_0001", "step_0002"]}),  # one extract per item
    (CHECK + 1, {"prior_step_ids": ["step_0001", "step_0002", "step_0003"]}),  # no check
    (7, {"prior_step_ids": ["step_0006"]}),  # map cites the step right before it
])
def test_counts_the_kind_fixes_are_shown_by_the_step_alone(index: int,
                                                           lists: dict[str, list[str]]) -> None:
    bundle = with_citations(honest_08(), index, **lists)
    proof = build_citation_proof(bundle, index)
    assert proof.extract_steps == []
    _, _, reason = _check(proof, bundle)
    assert reason in {"one_step.citation_set", "one_step.prior_order"}


def test_honest_steps_have_no_citation_proof_and_carried_pairs_lose() -> None:
    honest = honest_08()
    assert citation_faults(honest) == []
    for index in range(len(honest.steps)):
        with pytest.raises(ProofError) as caught:
            build_citation_proof(honest, index)
        assert caught.value.check_id == "proof.no_citation_fault"
    # A hand-made proof of the honest check step with the extract steps of its first
    # items: lost.
    steps = ComponentTree("reasoning_leaf", honest.steps, honest.commitments)
    for carried in ([], [0], [0, 1], [1, 2]):
        proof = _hand_made(honest, steps.proof(CHECK).to_dict(),
                           [steps.proof(i).to_dict() for i in carried])
        assert _check(proof, honest) == ("valid", "proof.ok", "one_step.citations_canonical")


def _hand_made(bundle: Bundle, step: object, evidence: list[object]) -> CitationProof:
    body = {"schema": CitationProof.SCHEMA, "kind": "reasoning_leaf",
            "por_root": bundle.commitments.por_root, "step": step, "extract_steps": evidence}
    proof: CitationProof = seal(CitationProof, body)
    return proof


def test_hostile_citation_proofs_are_invalid_or_lost() -> None:
    honest = honest_08()
    steps = ComponentTree("reasoning_leaf", honest.steps, honest.commitments)
    items = ComponentTree("evidence_leaf", honest.evidence, honest.commitments)
    step = steps.proof(CHECK).to_dict()
    # Two items that are not adjacent citations, or in the other order: invalid.
    for pair in ([0, 2], [1, 0]):
        proof = _hand_made(honest, step, [steps.proof(i).to_dict() for i in pair])
        assert _check(proof, honest)[:2] == ("invalid", "proof.citations")
    # An item the step does not cite (extract step 0 cites item 0 only): invalid.
    proof = _hand_made(honest, steps.proof(0).to_dict(), [steps.proof(1).to_dict()])
    assert _check(proof, honest)[:2] == ("invalid", "proof.citations")
    # A carried step that is not an extract step (the check step itself): invalid.
    proof = _hand_made(honest, step, [step])
    assert _check(proof, honest)[:2] == ("invalid", "proof.citations")
    # More than two extract steps is refused by the schema, before any path is checked.
    body = {**body_of(_hand_made(honest, step, [])),
            "extract_steps": [steps.proof(i).to_dict() for i in (0, 1, 2)]}
    with pytest.raises(SchemaError):  # the model refuses it
        seal(CitationProof, body)
    # An item where an extract step belongs (CitationProof/1's part): proof.kind.
    proof = _hand_made(honest, step, [items.proof(0).to_dict()])
    assert _check(proof, honest)[:2] == ("invalid", "proof.kind")
    # A tampered id.
    tampered = proof_from_cbor(_hand_made(honest, step, []).to_cbor()).model_copy(
        update={"challenge_id": bytes(32)})
    report = check_proof(tampered.to_cbor(), por_root=honest.commitments.por_root)
    assert (report.status, report.check_id) == ("invalid", "proof.challenge_id")


def test_challenge_step_citations_builds_the_proof(capsys: pytest.CaptureFixture[str],
                                                   tmp_path: Path) -> None:
    bundle, _ = reordered_08()
    path, out = tmp_path / "forged.cbor", tmp_path / "citations.cbor"
    path.write_bytes(bundle.to_cbor())
    code, _, _ = run(capsys, "challenge", str(path), "--step", "step_0004", "--citations",
                     "-o", str(out))
    assert code == 0
    code, text, _ = run(capsys, "check-proof", "--por-root",
                        bundle.commitments.por_root.hex(), str(out))
    assert code == 0 and "one_step.citation_order" in text
    honest = tmp_path / "honest.cbor"
    honest.write_bytes(honest_08().to_cbor())
    code, _, err = run(capsys, "challenge", str(honest), "--step", "step_0004", "--citations",
                       "-o", str(tmp_path / "none.cbor"))
    assert code == 2 and "proof.no_citation_fault" in err
    code, _, err = run(capsys, "challenge", str(honest), "--step", "step_0004", "--citations",
                       "--omission")
    assert code == 2 and "usage.options" in err


def _factories() -> Any:
    return load_file("auditor_factories",
                     Path(__file__).resolve().parents[1] / "auditor" / "factories.py")


def test_a_check_step_citing_another_requirements_item_is_a_set_fault() -> None:
    f = _factories()
    spec = f.prompt_spec(requirements=[f.requirement("r1"), f.requirement("r2")])
    items = [f.item("e0", f.price_body("101"), requirement_id="r1"),
             f.item("e1", f.price_body("102"), requirement_id="r2", source_id="src_b"),
             f.item("e2", f.price_body("103"), requirement_id="r1", source_id="src_b")]
    honest = bundle_from_bytes(build(spec, f.bundle(items)).data)
    check = ReasoningStep.from_cbor(honest.steps[3])
    assert (check.evidence_ids, check.prior_step_ids) == (["e0", "e2"],
                                                          ["step_0001", "step_0003"])
    # e1 (requirement r2) slipped in, with its extract step: order and counts hold.
    bundle = with_citations(honest, 3, evidence_ids=["e0", "e1", "e2"],
                            prior_step_ids=["step_0001", "step_0002", "step_0003"])
    proof = build_citation_proof(bundle, 3)
    assert [p.leaf_index for p in proof.extract_steps] == [1]
    assert _check(proof, bundle) == ("valid", "proof.ok", "one_step.citation_set")
    assert len(proof.to_cbor()) < LIMIT
