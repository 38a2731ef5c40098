"""The largest honest one-step proofs at the protocol's caps (``bench/largest_gas.py``,
SPEC §14.6) are decided on chain as in Python: answers, not gas.

For every kind the chain decides (check chunk, aggregate, contradictions, deduce, map,
JudgeProof, OmissionProof, CitationProof) and every shape the bench builds
(``bench/largest_shapes.py``: ids of 128 four-byte code points, 256-byte text values,
64-character decimals, the PromptSpec at 8 192 bytes, lists at their caps; each bundle
accepted by ``por verify``), the won proof of the lie is won by ``check_proof`` and
``PorProofCheck.checkProof`` (revm, the committed build) gives Python's (won, check id);
for the step kinds the honest step's proof is lost ``one_step.match`` on both sides.
The markets are at the caps the bench claims (a bench that drifted below them would
understate the largest proof).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from bundle_edits import steps_of
from proof_check_support import ProofChecker, python_answer

from por.bundle.layout import Bundle
from por.challenge.one_step import build_one_step_proof
from por.encoding import decode
from por.protocol.limits import MAX_ID_LENGTH, MAX_PROMPT_SPEC_BYTES

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from largest_gas import KINDS, proofs
from largest_shapes import CAPS, SHAPES, market

#: inputs.kind of each step class (the JudgeProof, OmissionProof and CitationProof
#: rows have no honest twin of their own).
STEP_KIND = {"check": "check_requirement", "aggregate": "aggregate",
             "contradictions": "contradictions", "deduce": "deduce", "map": "map"}


@pytest.fixture(scope="module")
def chain() -> ProofChecker:
    return ProofChecker()


@pytest.fixture(scope="module")
def rows() -> list[tuple[str, str, Bundle, bytes]]:
    return [(kind.name, shape, lie, proof) for kind, shape, lie, proof in proofs(KINDS)]


def test_every_kind_and_shape_is_measured(rows: list[tuple[str, str, Bundle, bytes]]) -> None:
    assert len(rows) == sum(len(k.shapes) for k in KINDS)
    assert {name.split()[0] for name, *_ in rows} == {
        "check", "aggregate", "contradictions", "deduce", "map", "JudgeProof",
        "OmissionProof", "CitationProof"}


def test_lies_are_won_on_chain_as_in_python(
        chain: ProofChecker, rows: list[tuple[str, str, Bundle, bytes]]) -> None:
    for name, shape, _lie, proof in rows:
        won, check_id, _gas = chain.any_proof(proof)
        assert won, (name, shape, check_id)
        assert (won, check_id) == python_answer(proof), (name, shape)


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_honest_steps_are_lost_on_chain_as_in_python(chain: ProofChecker, shape: str) -> None:
    bundle = market(SHAPES[shape])
    for kind in STEP_KIND.values():
        index = steps_of(bundle, kind)[-1]
        proof = bytes(build_one_step_proof(bundle, index).to_cbor())
        won, check_id, _gas = chain.any_proof(proof)
        assert (won, check_id) == python_answer(proof) == (False, "one_step.match"), (
            shape, kind, check_id)


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_markets_are_at_the_caps(shape: str) -> None:
    assert CAPS["id"] == MAX_ID_LENGTH
    bundle = market(SHAPES[shape])
    assert len(bundle.prompt_spec) == MAX_PROMPT_SPEC_BYTES
    for leaf in bundle.evidence:
        evidence_id = decode(leaf)["evidence_id"]
        assert len(evidence_id) == MAX_ID_LENGTH, evidence_id
        assert len(evidence_id.encode("utf-8")) > 3 * MAX_ID_LENGTH
    claims = [c for s in steps_of(bundle, "extract_claims")
              for c in decode(bundle.steps[s])["output"]["claims"]]
    assert {len(c["value"].encode("utf-8")) for c in claims} <= {64, 256}
    assert any(c["kind"] == "numeric" and len(c["value"]) == 64 for c in claims)
    if SHAPES[shape].text:
        assert any(c["kind"] == "text" and len(c["value"].encode("utf-8")) == 256
                   for c in claims)


def test_item_carrying_proofs_at_every_cap_fit_the_proof_cap(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The largest honest proofs carry an item at the 4 MiB content cap (por/protocol/
    limits.py, PROOF_MAX_SIZE): the extraction proof and the OmissionProof of rule 3 on
    a market with every text at its cap are won and under the cap; the extraction proof
    is over SPEC §10.7's ``item leaf + PromptSpec + 4 KiB`` (its step leaf is 8 584
    bytes at the caps, not about 500; ADR 0014 s34 addendum)."""
    import largest_gas

    from por.bundle import build
    from por.challenge import bundle_from_bytes, check_proof
    from por.protocol.limits import MAX_CONTENT_BYTES, PROOF_MAX_SIZE
    from por.schemas import EvidenceBundle, EvidenceItem, PromptSpec

    monkeypatch.setattr(largest_gas, "ITEM_BYTES", [MAX_CONTENT_BYTES])
    honest = market(SHAPES["one.text"])
    lie, proof = largest_gas._omission(honest)
    item = len(lie.evidence[-1])
    assert item > MAX_CONTENT_BYTES
    assert check_proof(proof, por_root=lie.commitments.por_root).won
    assert item < len(proof) < PROOF_MAX_SIZE
    spec = PromptSpec.from_cbor(honest.prompt_spec)
    items = [EvidenceItem.from_cbor(leaf) for leaf in lie.evidence]  # the last one padded
    full = bundle_from_bytes(build(spec, EvidenceBundle(
        bundle_id="b1", market_id=spec.market.market_id, items=items)).data)
    forged, extraction = largest_gas._step_lie(
        "extract_claims", len(items) - 1, ("claims", 0, "value"), lambda v: "1")(full)
    assert check_proof(extraction, por_root=forged.commitments.por_root).won
    assert len(extraction) < PROOF_MAX_SIZE
    assert len(extraction) > item + len(forged.prompt_spec) + 4096
