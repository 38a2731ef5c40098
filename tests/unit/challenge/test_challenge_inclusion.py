"""Inclusion proofs: every leaf verifies; every corruption fails with its check id.

In the manner of transparency-dev/merkle ``proof/verify_test.go``, each valid
proof is corrupted in every way (bit flips in each path element, index and
size shifts, truncated and extended paths, an inner node presented as a leaf,
a leaf of another tree, the path of another component, a wrong por_root) and
must fail.  Corrupted proofs are re-sealed (``challenge_id`` recomputed) so the
failure is the Merkle check's, not the id's; stale ids are tested apart.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from challenge_support import assemble, make_bundle, make_item

from por.bundle.layout import COMPONENT_INDEX, Bundle
from por.challenge import (
    InclusionProof,
    build_inclusion_proof,
    check_proof,
    inclusion_proof_from_leaves,
    leaf_index_by_id,
    verify_inclusion_proof,
)
from por.challenge.records import seal
from por.errors import InclusionProofError, PorError, ProofError
from por.merkle import inclusion_proof, leaf_hash, leaf_hashes, node_hash, tree_levels

SIZES = (1, 2, 3, 4, 5, 7, 8)
BUNDLES = {n: make_bundle(n) for n in SIZES}
# Evidence that differs from BUNDLES' (another tree of the same shapes).
OTHER_EVIDENCE = [make_item(100 + i, close="99").to_cbor() for i in range(8)]
OTHER = assemble(BUNDLES[4].prompt_spec, OTHER_EVIDENCE[:4], list(BUNDLES[4].steps))


def _all_proofs(bundle: Bundle) -> list[InclusionProof]:
    proofs = [build_inclusion_proof(bundle, "evidence_leaf", i)
              for i in range(len(bundle.evidence))]
    proofs += [build_inclusion_proof(bundle, "reasoning_leaf", i)
               for i in range(len(bundle.steps))]
    proofs += [build_inclusion_proof(bundle, "prompt_spec"),
               build_inclusion_proof(bundle, "verdict")]
    return proofs


PROOFS = [p for n in SIZES for p in _all_proofs(BUNDLES[n])]


def _reseal(proof: InclusionProof, **changes: Any) -> InclusionProof:
    body = proof.to_dict()
    del body["challenge_id"]
    body.update(changes)
    result: InclusionProof = seal(InclusionProof, body)
    return result


def _fails(proof: InclusionProof, por_root: bytes | None = None) -> str:
    with pytest.raises(PorError) as caught:
        verify_inclusion_proof(proof, por_root=por_root)
    report = check_proof(proof.to_cbor(), por_root=por_root)
    assert report.status == "invalid"
    assert report.check_id == caught.value.check_id
    return caught.value.check_id


def test_every_leaf_of_every_bundle_verifies() -> None:
    assert len(PROOFS) == sum(2 * n + 1 + 2 for n in SIZES)
    for proof in PROOFS:
        por_root = proof.por_root
        check = verify_inclusion_proof(proof, por_root=por_root)
        assert [lv.level for lv in check.levels] == ["leaf", "component"]
        assert all(lv.ok for lv in check.levels)
        report = check_proof(proof.to_cbor(), por_root=por_root)
        assert (report.status, report.check_id, report.exit_code) == ("valid", "proof.ok", 1)
        assert report.outcome is not None and report.outcome.reason == "inclusion.valid_record"
        assert report.inclusions[0].leaf_record == "ok"


def test_levels_are_the_verifiers_own_computation() -> None:
    bundle = BUNDLES[5]
    proof = build_inclusion_proof(bundle, "evidence_leaf", 4)
    leaf, component = verify_inclusion_proof(proof).levels
    assert leaf.hashes[0] == leaf_hash(bundle.evidence[4])
    assert leaf.calculated_root == bundle.commitments.evidence_root == proof.component_root
    assert (leaf.index, leaf.size, leaf.sides) == (4, 5, ("left",))
    # RFC 9162 §2.1.3.2 by hand: leaf 4 of 5 is the right child of the root.
    assert leaf.hashes[1] == node_hash(proof.leaf_path[0], leaf.hashes[0])
    assert component.leaf == bundle.commitments.evidence_root + (5).to_bytes(8, "big")
    assert (component.index, component.size) == (COMPONENT_INDEX["evidence"], 7)
    assert component.calculated_root == bundle.commitments.por_root


def test_single_record_components_have_size_one_and_an_empty_path() -> None:
    bundle = BUNDLES[3]
    for kind, record in (("prompt_spec", bundle.prompt_spec), ("verdict", bundle.verdict)):
        proof = build_inclusion_proof(bundle, kind)  # type: ignore[arg-type]
        assert (proof.leaf_index, proof.tree_size, proof.leaf_path) == (0, 1, [])
        assert proof.component_root == leaf_hash(record)
        assert proof.component == kind


Corruption = Callable[[InclusionProof], InclusionProof]


def _flip(data: bytes, bit: int) -> bytes:
    out = bytearray(data)
    out[bit // 8] ^= 1 << (7 - bit % 8)
    return bytes(out)


@pytest.mark.parametrize("bit", [0, 7, 128, 255])
def test_bit_flip_in_any_leaf_path_element(bit: int) -> None:
    for proof in PROOFS:
        for j in range(len(proof.leaf_path)):
            path = list(proof.leaf_path)
            path[j] = _flip(path[j], bit)
            assert _fails(_reseal(proof, leaf_path=path)) == "proof.leaf_path"


@pytest.mark.parametrize("bit", [0, 255])
def test_bit_flip_in_any_component_path_element(bit: int) -> None:
    for proof in PROOFS:
        for j in range(len(proof.component_path)):
            path = list(proof.component_path)
            path[j] = _flip(path[j], bit)
            assert _fails(_reseal(proof, component_path=path)) == "proof.component_path"


def test_bit_flip_in_leaf_component_root_or_por_root() -> None:
    for proof in PROOFS[::3]:
        leaf = _flip(proof.leaf, 8 * len(proof.leaf) - 1)
        assert _fails(_reseal(proof, leaf=leaf)) == "proof.leaf_path"
        root = _flip(proof.component_root, 3)
        assert _fails(_reseal(proof, component_root=root)) == "proof.leaf_path"
        por_root = _flip(proof.por_root, 100)
        # The proof's own root field: the component path no longer reaches it.
        assert _fails(_reseal(proof, por_root=por_root)) == "proof.component_path"
        # A trusted root from elsewhere: the proof is for another bundle.
        assert _fails(proof, por_root=por_root) == "proof.por_root"


LEAF_IDS = {"proof.leaf_path", "proof.component_path", "merkle.index_range",
            "merkle.proof_length"}


@pytest.mark.parametrize("delta", [-1, 1])
def test_index_shift(delta: int) -> None:
    for proof in PROOFS:
        index = proof.leaf_index + delta
        if index < 0:
            continue
        assert _fails(_reseal(proof, leaf_index=index)) in LEAF_IDS


@pytest.mark.parametrize("delta", [-1, 1])
def test_size_shift(delta: int) -> None:
    seen = set()
    for proof in PROOFS:
        size = proof.tree_size + delta
        seen.add(_fails(_reseal(proof, tree_size=size)))
    assert seen <= LEAF_IDS
    # The RFC's own blind spot (leaf 0 of 8 has the path of leaf 0 of 7) is
    # caught by the size bound into the component leaf.
    assert "proof.component_path" in seen


def test_size_bound_in_component_leaf_catches_rfc_size_ambiguity() -> None:
    proof = build_inclusion_proof(BUNDLES[8], "evidence_leaf", 0)
    shifted = _reseal(proof, tree_size=7)
    check_levels = []
    with pytest.raises(ProofError) as caught:
        from por.challenge.report import InclusionCheck

        check = InclusionCheck(role="leaf", proof=shifted)
        check_levels = check.levels
        verify_inclusion_proof(shifted, check=check)
    assert caught.value.check_id == "proof.component_path"
    assert check_levels[0].ok  # level 1 alone accepts the wrong size
    assert not check_levels[1].ok


@pytest.mark.parametrize("change", ["truncate", "extend", "extend_component",
                                    "truncate_component"])
def test_truncated_or_extended_paths(change: str) -> None:
    extra = leaf_hash(b"extra")
    for proof in PROOFS:
        if change == "truncate":
            if not proof.leaf_path:
                continue
            bad = _reseal(proof, leaf_path=proof.leaf_path[:-1])
        elif change == "extend":
            bad = _reseal(proof, leaf_path=[*proof.leaf_path, extra])
        elif change == "extend_component":
            bad = _reseal(proof, component_path=[*proof.component_path, extra])
        else:
            bad = _reseal(proof, component_path=proof.component_path[:-1])
        assert _fails(bad) == "merkle.proof_length"


def test_inner_node_presented_as_leaf() -> None:
    bundle = BUNDLES[4]
    hashes = leaf_hashes(bundle.evidence)
    proof = build_inclusion_proof(bundle, "evidence_leaf", 0)
    inner = hashes[0] + hashes[1]  # the preimage of node (0,1) minus its 0x01 prefix
    n23 = node_hash(hashes[2], hashes[3])
    as_subtree = _reseal(proof, leaf=inner, leaf_index=0, tree_size=2, leaf_path=[n23])
    # tree_size 2 changes the component leaf too; level 1 already fails.
    assert _fails(as_subtree) == "proof.leaf_path"
    same_size = _reseal(proof, leaf=inner, leaf_index=0, leaf_path=[n23])
    assert _fails(same_size) == "merkle.proof_length"
    with_node_prefix = _reseal(proof, leaf=b"\x01" + inner, leaf_index=0, tree_size=2,
                               leaf_path=[n23])
    assert _fails(with_node_prefix) == "proof.leaf_path"


def test_leaf_of_another_tree() -> None:
    for proof in PROOFS:
        if proof.kind != "evidence_leaf":
            continue
        other = OTHER_EVIDENCE[proof.leaf_index]
        assert _fails(_reseal(proof, leaf=other)) == "proof.leaf_path"
    # A whole proof from another bundle fails against this bundle's root.
    foreign = build_inclusion_proof(OTHER, "evidence_leaf", 1)
    assert _fails(foreign, por_root=BUNDLES[4].commitments.por_root) == "proof.por_root"


def test_component_path_for_the_wrong_component() -> None:
    for proof in PROOFS:
        leaves = BUNDLES[proof.tree_size if proof.kind == "evidence_leaf"
                         else 3].commitments.component_leaves()
        for name, index in COMPONENT_INDEX.items():
            if name == proof.component:
                continue
            wrong = inclusion_proof(leaves, index)
            if proof.kind == "evidence_leaf":
                assert _fails(_reseal(proof, component_path=wrong)) in {
                    "proof.component_path", "merkle.proof_length"}
        # Claiming another component for the same path: the name must match the kind.
        other = "reasoning" if proof.component != "reasoning" else "evidence"
        assert _fails(_reseal(proof, component=other)) == "proof.component"


def test_kind_relabelled_uses_another_component_position() -> None:
    proof = build_inclusion_proof(BUNDLES[5], "evidence_leaf", 2)
    # Components 0-5 all have 3-hash paths in the seven-leaf tree (SPEC §5.4):
    # only the hashing order tells them apart.
    relabelled = _reseal(proof, kind="prompt_spec", component="prompt_spec")
    assert _fails(relabelled) == "proof.component_path"
    relabelled = _reseal(proof, kind="reasoning_leaf", component="reasoning")
    assert _fails(relabelled) == "proof.component_path"


def test_stale_challenge_id() -> None:
    proof = build_inclusion_proof(BUNDLES[5], "evidence_leaf", 3)
    stale = InclusionProof.from_dict({**proof.to_dict(), "challenge_id": bytes(32)})
    assert _fails(stale) == "proof.challenge_id"
    body_changed = _reseal(proof)
    assert body_changed.challenge_id == proof.challenge_id
    # A corrupted path with the old id fails at the Merkle check first (more telling).
    path = list(proof.leaf_path)
    path[0] = _flip(path[0], 0)
    unsealed = InclusionProof.from_dict({**proof.to_dict(), "leaf_path": path})
    assert _fails(unsealed) == "proof.leaf_path"


def test_builder_refuses_a_bundle_whose_records_do_not_match_its_commitments() -> None:
    bundle = BUNDLES[3]
    tampered = bundle.model_copy(update={"evidence": [*bundle.evidence[:2],
                                                      OTHER_EVIDENCE[0]]})
    with pytest.raises(ProofError) as caught:
        build_inclusion_proof(tampered, "evidence_leaf", 0)
    assert caught.value.check_id == "proof.leaf_path"
    extra = bundle.model_copy(update={"evidence": [*bundle.evidence, OTHER_EVIDENCE[0]]})
    with pytest.raises(ProofError) as caught:
        build_inclusion_proof(extra, "evidence_leaf", 0)
    assert caught.value.check_id == "proof.leaf_path"


def test_builder_rejects_bad_indices_and_unknown_ids() -> None:
    bundle = BUNDLES[3]
    for index in (-1, 3, True):
        with pytest.raises(ProofError) as caught:
            build_inclusion_proof(bundle, "evidence_leaf", index)
        assert caught.value.check_id == "proof.no_such_leaf"
    assert leaf_index_by_id(bundle, "evidence_leaf", "ev_0002") == 2
    assert leaf_index_by_id(bundle, "reasoning_leaf", "step_0004") == 3
    for kind, name in (("evidence_leaf", "ev_9999"), ("reasoning_leaf", "step_0009"),
                       ("verdict", "x")):
        with pytest.raises(ProofError) as caught:
            leaf_index_by_id(bundle, kind, name)  # type: ignore[arg-type]
        assert caught.value.check_id == "proof.no_such_leaf"


def test_leaves_api_matches_bundle_api() -> None:
    bundle = BUNDLES[7]
    direct = inclusion_proof_from_leaves("evidence_leaf", bundle.evidence, 6,
                                         bundle.commitments,
                                         levels=tree_levels(leaf_hashes(bundle.evidence)))
    assert direct.to_cbor() == build_inclusion_proof(bundle, "evidence_leaf", 6).to_cbor()


def test_leaf_that_is_not_a_record_is_still_provable() -> None:
    base = BUNDLES[2]
    bundle = assemble(base.prompt_spec, [base.evidence[0], b"\xa0"], list(base.steps))
    proof = build_inclusion_proof(bundle, "evidence_leaf", 1)
    report = check_proof(proof.to_cbor())
    assert report.status == "valid"
    assert report.inclusions[0].leaf_record == "schema.unknown_schema"
    assert report.inclusions[0].leaf_id is None
    # A committed leaf that is not a valid record is a fault: the challenge is won.
    assert report.outcome is not None
    assert (report.outcome.outcome, report.outcome.reason, report.exit_code) == (
        "won", "inclusion.invalid_record", 0)


def test_merkle_errors_keep_their_class_and_name_the_level() -> None:
    proof = _reseal(PROOFS[5], leaf_index=10**6)
    with pytest.raises(InclusionProofError) as caught:
        verify_inclusion_proof(proof)
    assert caught.value.check_id == "merkle.index_range"
    assert caught.value.message.startswith("leaf: leaf path: ")


@pytest.mark.parametrize("size", [1, 2, 3, 5, 7, 8, 9, 31, 33, 100])
def test_paths_read_from_levels_equal_the_rfc_paths(size: int) -> None:
    """Finding 5: one tree, every path read from it, byte-equal to RFC 9162 PATH."""
    from por.merkle import inclusion_path_from_levels

    leaves = [bytes([i % 256, i // 256]) for i in range(size)]
    levels = tree_levels(leaf_hashes(leaves))
    for index in range(size):
        assert inclusion_path_from_levels(levels, index) == inclusion_proof(leaves, index)


@pytest.mark.parametrize("component", ["anything", "manifest", "trace_header", "évidence"])
def test_component_is_any_id_and_must_match_the_kind(component: str) -> None:
    """SPEC §10.2.1: `component` is any id (1..128 characters); the schema accepts
    it and step 1 reports a mismatch with the kind as `proof.component`."""
    proof = build_inclusion_proof(BUNDLES[3], "evidence_leaf", 1)
    assert _fails(_reseal(proof, component=component)) == "proof.component"


@pytest.mark.parametrize("field", ["leaf_path", "component_path", "component_root"])
def test_a_hash_of_the_wrong_length_is_a_schema_failure(field: str) -> None:
    """SPEC §10.4: hash lengths are schema rules of the proof record, so a proof
    file never reaches `merkle.hash_length`: a 31-byte hash is `proof.schema`."""
    from por.challenge.records import proof_from_cbor
    from por.encoding import decode, encode

    proof = build_inclusion_proof(BUNDLES[3], "evidence_leaf", 1)
    body = decode(proof.to_cbor())
    assert isinstance(body, dict)
    body[field] = ([b"\x00" * 31, *body[field][1:]] if isinstance(body[field], list)
                   else b"\x00" * 31)
    with pytest.raises(ProofError) as caught:
        proof_from_cbor(encode(body))
    assert caught.value.check_id == "proof.schema"
    assert check_proof(encode(body)).check_id == "proof.schema"
