"""Property tests for challenge proofs over arbitrary trees (hypothesis, ``ci`` profile).

Bundles here hold arbitrary leaf bytes (the Bundle model does not parse the
records it carries), so tree shapes are free: any evidence count from 1 to 70,
any step count from 0 to 20.  Properties: every leaf's proof verifies and is
deterministic; proofs round-trip through their bytes; any single bit flip,
any other (index, size) and any other trusted root fail.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from por.bundle.layout import Bundle, compute_commitments, with_forms
from por.challenge import (
    InclusionProof,
    build_bundle_proof,
    build_inclusion_proof,
    check_proof,
    proof_from_cbor,
    verify_inclusion_proof,
)
from por.challenge.records import seal
from por.errors import PorError

leaf = st.binary(min_size=0, max_size=48)


@st.composite
def bundles(draw: st.DrawFn) -> Bundle:
    evidence = draw(st.lists(leaf, min_size=1, max_size=70))
    steps = draw(st.lists(leaf, min_size=0, max_size=20))
    records: dict[str, Any] = {
        "manifest": draw(leaf), "prompt_spec": draw(leaf), "evidence": evidence,
        "trace_header": draw(leaf), "steps": steps, "verdict": draw(leaf)}
    records = with_forms(records)
    return Bundle(**records, commitments=compute_commitments(**records), signatures=[])


@st.composite
def proofs(draw: st.DrawFn) -> tuple[Bundle, InclusionProof]:
    bundle = draw(bundles())
    kinds = ["evidence_leaf", "prompt_spec", "verdict"]
    if bundle.steps:
        kinds.append("reasoning_leaf")
    kind = draw(st.sampled_from(kinds))
    size = {"evidence_leaf": len(bundle.evidence), "reasoning_leaf": len(bundle.steps)}.get(
        kind, 1)
    index = draw(st.integers(min_value=0, max_value=size - 1))
    return bundle, build_inclusion_proof(bundle, kind, index)  # type: ignore[arg-type]


@given(proofs())
def test_every_proof_verifies_and_is_deterministic(case: tuple[Bundle, InclusionProof]) -> None:
    bundle, proof = case
    data = proof.to_cbor()
    again = build_inclusion_proof(bundle, proof.kind, proof.leaf_index)
    assert again.to_cbor() == data
    assert proof_from_cbor(data) == proof
    report = check_proof(data, por_root=bundle.commitments.por_root)
    assert (report.status, report.check_id) == ("valid", "proof.ok")
    levels = report.inclusions[0].levels
    assert levels[-1].calculated_root == bundle.commitments.por_root


@given(proofs(), st.data())
def test_any_bit_flip_fails(case: tuple[Bundle, InclusionProof], data: st.DataObject) -> None:
    bundle, proof = case
    raw = bytearray(proof.to_cbor())
    bit = data.draw(st.integers(min_value=0, max_value=8 * len(raw) - 1))
    raw[bit // 8] ^= 1 << (bit % 8)
    report = check_proof(bytes(raw), por_root=bundle.commitments.por_root)
    assert report.status != "valid"


@given(proofs(), st.data())
def test_any_other_index_or_size_fails(case: tuple[Bundle, InclusionProof],
                                       data: st.DataObject) -> None:
    _, proof = case
    index = data.draw(st.integers(min_value=0, max_value=200))
    size = data.draw(st.integers(min_value=0, max_value=200))
    if (index, size) == (proof.leaf_index, proof.tree_size):
        return
    body = proof.to_dict()
    del body["challenge_id"]
    moved: InclusionProof = seal(InclusionProof, {**body, "leaf_index": index,
                                                  "tree_size": size})
    try:
        verify_inclusion_proof(moved)
    except PorError as exc:
        assert exc.check_id.startswith(("proof.", "merkle."))
    else:
        raise AssertionError(f"({index}, {size}) verified for ({proof.leaf_index}, "
                             f"{proof.tree_size})")


@given(proofs(), st.binary(min_size=32, max_size=32))
def test_another_trusted_root_fails(case: tuple[Bundle, InclusionProof], root: bytes) -> None:
    bundle, proof = case
    if root == bundle.commitments.por_root:
        return
    assert check_proof(proof.to_cbor(), por_root=root).check_id == "proof.por_root"


@given(bundles())
def test_bundle_proof_verifies(bundle: Bundle) -> None:
    proof = build_bundle_proof(bundle)
    report = check_proof(proof.to_cbor(), por_root=bundle.commitments.por_root)
    assert report.status == "valid"
    assert report.bundle is not None
    sizes = [int.from_bytes(leaf[32:], "big") for leaf in proof.component_leaves]
    assert sizes == [1, 1, len(bundle.evidence), 1, len(bundle.steps), 1, len(bundle.forms)]
