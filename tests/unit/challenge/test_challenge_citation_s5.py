"""Rule S5 (SPEC §10.2.7, §12.5.1): a ``contradictions`` step citing a check chunk
that is not its requirement's last.

The forged bundle (scenario 08 over 12 items: two chunks) has its contradictions
step cite chunk 0 and recomputed on it, so re-executing it reproduces it; only
the CitationProof carrying the step, the requirement's aggregate and the cited
chunk wins.  Mutations of that proof lose or are invalid with stable ids.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from test_challenge_citations import _check, _written

from por.bundle.layout import Bundle
from por.challenge import (
    CitationProof,
    build_citation_proof,
    build_one_step_proof,
    check_proof,
    citation_faults,
)
from por.challenge.batch import ComponentTree
from por.challenge.citation_s5 import StepView, s5_fault
from por.challenge.records import body_of, seal
from por.errors import ProofError, SchemaError

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bench"))
from citations import honest_bundle
from proofs import contradictions_on_first_chunk

ITEMS = 12  # extract 0-11, chunks 12-13, aggregate 14, contradictions 15
FIRST, LAST, AGGREGATE, CONTRA = 12, 13, 14, 15


def _forged() -> Bundle:
    return contradictions_on_first_chunk(honest_bundle(ITEMS))


def test_citing_an_earlier_chunk_loses_to_a_citation_proof(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bundle = _forged()
    one_step = check_proof(build_one_step_proof(bundle, CONTRA).to_cbor(),
                           por_root=bundle.commitments.por_root)
    assert one_step.outcome is not None and one_step.outcome.outcome == "lost"
    assert citation_faults(bundle) == [CONTRA]
    proof = build_citation_proof(bundle, CONTRA)
    assert proof.extract_steps == []
    assert proof.prior_steps is not None
    assert [p.leaf_index for p in proof.prior_steps] == [AGGREGATE, FIRST]
    assert _check(proof, bundle) == ("valid", "proof.ok", "one_step.citation_set")
    data = _written(capsys, bundle, tmp_path, "one_step.citation_set")
    assert data == proof.to_cbor()
    print(f"\nS5 lie over {ITEMS} items: citation proof {len(data)} bytes")


def _with(bundle: Bundle, step: int, priors: list[int], extracts: list[int] | None = None
          ) -> CitationProof:
    steps = ComponentTree("reasoning_leaf", bundle.steps, bundle.commitments)
    body = {"schema": CitationProof.SCHEMA, "kind": "reasoning_leaf",
            "por_root": bundle.commitments.por_root, "step": steps.proof(step).to_dict(),
            "extract_steps": [steps.proof(i).to_dict() for i in extracts or []],
            "prior_steps": [steps.proof(i).to_dict() for i in priors]}
    proof: CitationProof = seal(CitationProof, body)
    return proof


def test_honest_bundles_have_no_winning_s5_proof() -> None:
    honest = honest_bundle(ITEMS)
    assert citation_faults(honest) == []
    with pytest.raises(ProofError) as caught:
        build_citation_proof(honest, CONTRA)
    assert caught.value.check_id == "proof.no_citation_fault"
    # The honest pair: A's last prior step is the cited chunk: lost.
    assert _check(_with(honest, CONTRA, [AGGREGATE, LAST]), honest) == (
        "valid", "proof.ok", "one_step.citations_canonical")
    # A chunk the step does not cite (chunk 0): invalid.
    assert _check(_with(honest, CONTRA, [AGGREGATE, FIRST]), honest)[:2] == (
        "invalid", "proof.citations")


@pytest.mark.parametrize(("step", "priors", "extracts"), [
    (CONTRA, [LAST, FIRST], None),  # A is not an aggregate
    (CONTRA, [AGGREGATE, AGGREGATE], None),  # X is not a check chunk
    (CONTRA, [AGGREGATE, LAST], None),  # X not cited by the forged step
    (CONTRA, [FIRST, AGGREGATE], None),  # swapped
    (CONTRA, [AGGREGATE, FIRST], [0]),  # with extract steps: not an S5 form
    (AGGREGATE, [AGGREGATE, FIRST], None),  # the step is not a contradictions step
    (CONTRA, [0, FIRST], None),  # an extract step where the aggregate belongs
])
def test_mutated_s5_proofs_are_invalid(step: int, priors: list[int],
                                       extracts: list[int] | None) -> None:
    bundle = _forged()
    assert _check(_with(bundle, step, priors, extracts), bundle)[:2] == (
        "invalid", "proof.citations")


def test_an_aggregate_of_another_requirement_is_invalid() -> None:
    chunk = StepView("step_0013", "check_requirement", "req_a", ["step_0001"])
    other = StepView("step_0015", "aggregate", "req_b", ["step_0002", "step_0014"])
    own = StepView("step_0015", "aggregate", "req_a", ["step_0002", "step_0014"])
    with pytest.raises(ProofError) as caught:
        s5_fault(["step_0013"], other, AGGREGATE, chunk, FIRST)
    assert caught.value.check_id == "proof.citations"
    assert s5_fault(["step_0013"], own, AGGREGATE, chunk, FIRST) is not None
    # A's last prior step is X: lost (None); a part off its own leaf position: invalid.
    assert s5_fault(["step_0014"], own, AGGREGATE,
                    StepView("step_0014", "check_requirement", "req_a", []), LAST) is None
    with pytest.raises(ProofError):
        s5_fault(["step_0013"], own, AGGREGATE + 1, chunk, FIRST)


def test_the_schema_keeps_prior_steps_to_two() -> None:
    bundle = _forged()
    proof = _with(bundle, CONTRA, [AGGREGATE, FIRST])
    body = body_of(proof)
    for count in (0, 1, 3):
        with pytest.raises(SchemaError):
            seal(CitationProof, {**body, "prior_steps": (body["prior_steps"] * 2)[:count]})
