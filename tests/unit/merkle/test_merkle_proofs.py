"""por.merkle.proofs: computing roots from proofs and the verify_* errors."""

from __future__ import annotations

from typing import Any

import pytest

from por.errors import ConsistencyProofError, InclusionProofError, MerkleError
from por.merkle import (
    consistency_proof,
    inclusion_proof,
    inclusion_sides,
    inclusion_trace,
    leaf_hash,
    leaf_hashes,
    node_hash,
    root_from_inclusion_proof,
    root_hash,
    roots_from_consistency_proof,
    verify_consistency,
    verify_inclusion,
)

LEAVES = [b"record-%d" % i for i in range(8)]
L = leaf_hashes(LEAVES)
ROOTS = [root_hash(LEAVES[:size]) for size in range(9)]


def test_trace_follows_the_levels() -> None:
    """Leaf 5 of 8: sibling L4 on the left, N(6,7) on the right, N(0..3) on the left."""
    proof = inclusion_proof(LEAVES, 5)
    trace = inclusion_trace(L[5], 5, 8, proof)
    n45 = node_hash(L[4], L[5])
    n4567 = node_hash(n45, node_hash(L[6], L[7]))
    assert trace == [L[5], n45, n4567, ROOTS[8]]
    assert inclusion_sides(5, 8) == ["left", "right", "left"]
    assert root_from_inclusion_proof(L[5], 5, 8, proof) == ROOTS[8]


def test_trace_of_single_leaf_tree() -> None:
    assert inclusion_trace(L[0], 0, 1, []) == [L[0]]
    assert inclusion_sides(0, 1) == []
    verify_inclusion(L[0], 0, 1, [], ROOTS[1])


def test_sides_of_right_edge() -> None:
    """On the right edge only right children have siblings (RFC 9162 §2.1.3.2)."""
    assert inclusion_sides(6, 7) == ["left", "left"]
    assert inclusion_sides(4, 5) == ["left"]
    assert inclusion_sides(0, 5) == ["right", "right", "right"]


def test_root_mismatch_carries_expected_and_calculated() -> None:
    proof = inclusion_proof(LEAVES, 3)
    wrong_root = ROOTS[7]
    with pytest.raises(InclusionProofError) as info:
        verify_inclusion(L[3], 3, 8, proof, wrong_root)
    error = info.value
    assert error.check_id == "merkle.root_mismatch"
    assert error.expected == wrong_root
    assert error.actual == ROOTS[8]
    assert wrong_root.hex() in error.diagnostics()
    assert ROOTS[8].hex() in error.diagnostics()


@pytest.mark.parametrize(
    ("index", "size", "check_id"),
    [
        (0, 0, "merkle.index_range"),
        (8, 8, "merkle.index_range"),
        (-1, 8, "merkle.index_range"),
        (True, 8, "merkle.index_range"),
        (1.0, 8, "merkle.index_range"),
        (2**64, 2**64 - 1, "merkle.index_range"),
        (0, True, "merkle.size_range"),
        (0, -1, "merkle.size_range"),
        (0, 2**64, "merkle.size_range"),
        (0, "8", "merkle.size_range"),
    ],
)
def test_inclusion_argument_ranges(index: Any, size: Any, check_id: str) -> None:
    with pytest.raises(InclusionProofError) as info:
        verify_inclusion(L[0], index, size, inclusion_proof(LEAVES, 0), ROOTS[8])
    assert info.value.check_id == check_id


def test_largest_uint64_index_is_in_range() -> None:
    """2**64 - 1 leaves: index 2**64 - 2 has a 64-element path; check the length rule."""
    size = 2**64 - 1
    with pytest.raises(InclusionProofError) as info:
        verify_inclusion(L[0], size - 1, size, [], ROOTS[8])
    assert info.value.check_id == "merkle.proof_length"
    assert info.value.expected == 63  # bits of 2**64 - 2: 63 ones on the right edge


@pytest.mark.parametrize("where", ["leaf", "root", "proof"])
@pytest.mark.parametrize("bad", [b"", b"\x00" * 31, b"\x00" * 33, bytearray(32), "ab" * 16])
def test_inclusion_hash_lengths(where: str, bad: Any) -> None:
    arguments: dict[str, Any] = {
        "leaf": L[2],
        "root": ROOTS[8],
        "proof": inclusion_proof(LEAVES, 2),
    }
    if where == "proof":
        arguments["proof"] = [*arguments["proof"][:1], bad, *arguments["proof"][2:]]
    else:
        arguments[where] = bad
    with pytest.raises(InclusionProofError) as info:
        verify_inclusion(arguments["leaf"], 2, 8, arguments["proof"], arguments["root"])
    assert info.value.check_id == "merkle.hash_length"


def test_consistency_roots_are_computed() -> None:
    proof = consistency_proof(LEAVES, 6)
    # old size 6 is not a power of two: the old root comes from the proof alone
    assert roots_from_consistency_proof(6, 8, proof, bytes(32)) == (ROOTS[6], ROOTS[8])
    # old size 4 is: the given old root seeds both computations
    assert roots_from_consistency_proof(4, 8, consistency_proof(LEAVES, 4), ROOTS[4]) == (
        ROOTS[4],
        ROOTS[8],
    )
    assert roots_from_consistency_proof(8, 8, [], ROOTS[8]) == (ROOTS[8], ROOTS[8])


def test_consistency_old_root_mismatch() -> None:
    proof = consistency_proof(LEAVES, 6)
    with pytest.raises(ConsistencyProofError) as info:
        verify_consistency(6, 8, proof, ROOTS[5], ROOTS[8])
    assert info.value.check_id == "merkle.consistency_root_mismatch"
    assert (info.value.expected, info.value.actual) == (ROOTS[5], ROOTS[6])


def test_consistency_new_root_mismatch() -> None:
    proof = consistency_proof(LEAVES[:7], 6)
    with pytest.raises(ConsistencyProofError) as info:
        verify_consistency(6, 8, consistency_proof(LEAVES, 6), ROOTS[6], ROOTS[7])
    assert info.value.check_id == "merkle.root_mismatch"
    assert (info.value.expected, info.value.actual) == (ROOTS[7], ROOTS[8])
    verify_consistency(6, 7, proof, ROOTS[6], ROOTS[7])


def test_consistency_equal_sizes() -> None:
    verify_consistency(5, 5, [], ROOTS[5], ROOTS[5])
    with pytest.raises(ConsistencyProofError) as info:
        verify_consistency(5, 5, [], ROOTS[5], ROOTS[6])
    assert info.value.check_id == "merkle.root_mismatch"
    assert (info.value.expected, info.value.actual) == (ROOTS[6], ROOTS[5])
    with pytest.raises(ConsistencyProofError) as info:
        verify_consistency(5, 5, [ROOTS[5]], ROOTS[5], ROOTS[5])
    assert info.value.check_id == "merkle.proof_length"


@pytest.mark.parametrize(
    ("size1", "size2", "check_id"),
    [
        (0, 8, "merkle.size_range"),
        (0, 0, "merkle.size_range"),
        (9, 8, "merkle.size_range"),
        (-1, 8, "merkle.size_range"),
        (True, 8, "merkle.size_range"),
        (6, 8.0, "merkle.size_range"),
        (6, 2**64, "merkle.size_range"),
    ],
)
def test_consistency_size_ranges(size1: Any, size2: Any, check_id: str) -> None:
    with pytest.raises(ConsistencyProofError) as info:
        verify_consistency(size1, size2, consistency_proof(LEAVES, 6), ROOTS[6], ROOTS[8])
    assert info.value.check_id == check_id


@pytest.mark.parametrize("where", ["old", "new", "proof"])
def test_consistency_hash_lengths(where: str) -> None:
    arguments: dict[str, Any] = {
        "old": ROOTS[6],
        "new": ROOTS[8],
        "proof": consistency_proof(LEAVES, 6),
    }
    if where == "proof":
        arguments["proof"] = [*arguments["proof"], b"\x00" * 31]
    else:
        arguments[where] = arguments[where][:31]
    with pytest.raises(ConsistencyProofError) as info:
        verify_consistency(6, 8, arguments["proof"], arguments["old"], arguments["new"])
    assert info.value.check_id == "merkle.hash_length"


def test_error_classes_are_merkle_errors() -> None:
    assert issubclass(InclusionProofError, MerkleError)
    assert issubclass(ConsistencyProofError, MerkleError)


def test_inner_node_preimage_is_not_a_leaf() -> None:
    """64 bytes left || right presented as leaf data do not hash to the node (DESIGN §2).

    With unprefixed hashing that fake leaf would verify as "leaf 0 of 4" against
    the 8-leaf root, the level-1 nodes playing the leaves.
    """
    upper_path = inclusion_proof(LEAVES, 0)[1:]  # [N(2,3), N(4..7)]
    n01 = node_hash(L[0], L[1])
    fake_leaf = leaf_hash(L[0] + L[1])
    with pytest.raises(InclusionProofError) as info:
        verify_inclusion(fake_leaf, 0, 4, upper_path, ROOTS[8])
    assert info.value.check_id == "merkle.root_mismatch"
    # The node hash itself does verify at the shrunken size: this is why por
    # computes leaf hashes from leaf bytes and commits (tree_size, root).
    verify_inclusion(n01, 0, 4, upper_path, ROOTS[8])
    with pytest.raises(InclusionProofError) as info:
        verify_inclusion(n01, 0, 8, upper_path, ROOTS[8])
    assert info.value.check_id == "merkle.proof_length"
