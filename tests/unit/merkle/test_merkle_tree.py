"""por.merkle.tree: roots, inclusion paths and consistency proofs from leaves."""

from __future__ import annotations

from typing import Any

import pytest

from por.errors import MerkleError
from por.merkle import (
    EMPTY_ROOT,
    consistency_proof,
    consistency_proof_from_leaf_hashes,
    inclusion_proof,
    inclusion_proof_from_leaf_hashes,
    leaf_hash,
    leaf_hashes,
    node_hash,
    root_from_leaf_hashes,
    root_hash,
)

LEAVES = [b"leaf-%d" % i for i in range(7)]
L = [leaf_hash(leaf) for leaf in LEAVES]


def test_empty_and_single() -> None:
    assert root_hash([]) == EMPTY_ROOT
    assert root_from_leaf_hashes([]) == EMPTY_ROOT
    assert root_hash([b"x"]) == leaf_hash(b"x")
    assert root_from_leaf_hashes([L[0]]) == L[0]


def test_explicit_shapes() -> None:
    """Odd nodes move up unchanged; they are never paired with themselves."""
    n01, n23, n45 = node_hash(L[0], L[1]), node_hash(L[2], L[3]), node_hash(L[4], L[5])
    assert root_hash(LEAVES[:3]) == node_hash(n01, L[2])
    assert root_hash(LEAVES[:5]) == node_hash(node_hash(n01, n23), L[4])
    assert root_hash(LEAVES[:6]) == node_hash(node_hash(n01, n23), n45)
    assert root_hash(LEAVES[:7]) == node_hash(node_hash(n01, n23), node_hash(n45, L[6]))


def test_duplicated_last_leaf_changes_root() -> None:
    """[a, b, c] and [a, b, c, c] have different roots (DESIGN §2)."""
    a, b, c = LEAVES[:3]
    assert root_hash([a, b, c]) != root_hash([a, b, c, c])
    assert root_hash([a, b, c]) != node_hash(node_hash(L[0], L[1]), node_hash(L[2], L[2]))


def test_leaf_hashes_and_sequence_types() -> None:
    assert leaf_hashes(LEAVES) == L
    assert root_hash(tuple(LEAVES)) == root_hash(LEAVES)
    assert root_from_leaf_hashes(tuple(L)) == root_hash(LEAVES)


def test_inputs_not_mutated() -> None:
    hashes = list(L)
    root_from_leaf_hashes(hashes)
    inclusion_proof_from_leaf_hashes(hashes, 6)
    consistency_proof_from_leaf_hashes(hashes, 3)
    assert hashes == L


@pytest.mark.parametrize(
    ("bad", "position"),
    [(b"\x00" * 31, 2), (b"\x00" * 33, 0), (b"", 6), (bytearray(32), 1), ("00" * 32, 3)],
    ids=["31-bytes", "33-bytes", "empty", "bytearray", "str"],
)
def test_leaf_hashes_must_be_32_bytes(bad: Any, position: int) -> None:
    hashes: list[Any] = list(L)
    hashes[position] = bad
    for build in (
        lambda: root_from_leaf_hashes(hashes),
        lambda: inclusion_proof_from_leaf_hashes(hashes, 0),
        lambda: consistency_proof_from_leaf_hashes(hashes, 1),
    ):
        with pytest.raises(MerkleError) as info:
            build()
        assert info.value.check_id == "merkle.hash_length"
        assert f"leaf hash[{position}]" in info.value.message


@pytest.mark.parametrize("index", [-1, 7, 8, 2**64, True, False, 1.0, "1", None])
def test_inclusion_proof_index_range(index: Any) -> None:
    with pytest.raises(MerkleError) as info:
        inclusion_proof(LEAVES, index)
    assert info.value.check_id == "merkle.index_range"


def test_inclusion_proof_empty_tree() -> None:
    with pytest.raises(MerkleError) as info:
        inclusion_proof([], 0)
    assert info.value.check_id == "merkle.index_range"


def test_inclusion_proof_single_leaf_is_empty() -> None:
    assert inclusion_proof([b"only"], 0) == []


def test_inclusion_proof_shape() -> None:
    """PATH(5, D[7]) = [L4, N(L6), N(0..4)] read from the leaf up (RFC 9162 §2.1.3.1)."""
    n0123 = node_hash(node_hash(L[0], L[1]), node_hash(L[2], L[3]))
    assert inclusion_proof(LEAVES, 5) == [L[4], L[6], n0123]
    assert inclusion_proof(LEAVES, 6) == [node_hash(L[4], L[5]), n0123]


@pytest.mark.parametrize("old_size", [0, -1, 8, 2**64, True, 2.0, None])
def test_consistency_proof_size_range(old_size: Any) -> None:
    with pytest.raises(MerkleError) as info:
        consistency_proof(LEAVES, old_size)
    assert info.value.check_id == "merkle.size_range"


def test_consistency_proof_shapes() -> None:
    n01, n23, n45 = node_hash(L[0], L[1]), node_hash(L[2], L[3]), node_hash(L[4], L[5])
    assert consistency_proof(LEAVES, 7) == []
    # old size a power of two: its root is omitted (b flag, RFC 9162 §2.1.4.1)
    assert consistency_proof(LEAVES, 4) == [node_hash(n45, L[6])]
    assert consistency_proof(LEAVES, 2) == [n23, node_hash(n45, L[6])]
    # otherwise the proof starts with the old tree's last complete subtree
    assert consistency_proof(LEAVES, 3) == [L[2], L[3], n01, node_hash(n45, L[6])]
    assert consistency_proof(LEAVES, 6) == [n45, L[6], node_hash(n01, n23)]
