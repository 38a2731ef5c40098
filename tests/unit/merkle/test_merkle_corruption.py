"""Corrupt every proof of every tree up to 40 leaves; every corruption must fail.

In the manner of transparency-dev/merkle ``proof/verify_test.go``: bit flips in
every path element (every bit up to 8 leaves, a sample of bits above), wrong
leaf, wrong root, index +-1 / ^2 / + 2**depth, size +-1 / *2 / //2, truncated,
extended and reordered paths, leaves from another tree, inner nodes presented
as leaves and the duplicated-last-leaf tree of DESIGN §2.  Each rejection must
be a MerkleError subclass with a ``merkle.*`` check id, exact where only one
id is possible.

The one thing that may still verify is a *size-only* change that leaves the
computation identical (RFC 9162 proofs do not bind the tree size: a path for
leaf 5 of 8 is also a path for leaf 5 of 7, DESIGN §3.3); the tests allow it
only when the verifier provably computes the same function of the proof.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from por.errors import ConsistencyProofError, InclusionProofError, MerkleError
from por.merkle import (
    consistency_proof_from_leaf_hashes,
    inclusion_proof_from_leaf_hashes,
    inclusion_sides,
    leaf_hash,
    leaf_hashes,
    root_from_leaf_hashes,
    roots_from_consistency_proof,
    verify_consistency,
    verify_inclusion,
)

MAX_LEAVES = 40
H = leaf_hashes([b"entry-%d" % i for i in range(MAX_LEAVES + 1)])
ROOTS = [root_from_leaf_hashes(H[:size]) for size in range(MAX_LEAVES + 2)]
OTHER = leaf_hashes([b"other-%d" % i for i in range(MAX_LEAVES + 1)])
SAMPLE_BITS = (0, 7, 130, 255)
ROOT_IDS = {"merkle.root_mismatch", "merkle.consistency_root_mismatch"}
CHECK_IDS = ROOT_IDS | {
    "merkle.hash_length",
    "merkle.index_range",
    "merkle.proof_length",
    "merkle.size_range",
}


def _bits(size: int) -> range | tuple[int, ...]:
    return range(256) if size <= 8 else SAMPLE_BITS


def _flip(value: bytes, bit: int) -> bytes:
    changed = bytearray(value)
    changed[bit // 8] ^= 1 << (bit % 8)
    return bytes(changed)


def _outcome(call: Callable[[], None], error_class: type[MerkleError]) -> str | None:
    """None if ``call`` verified, else the check id of the error it raised."""
    try:
        call()
    except error_class as error:
        assert error.check_id in CHECK_IDS
        return error.check_id
    return None


def _incl(leaf: bytes, index: int, size: int, proof: list[bytes], root: bytes) -> str | None:
    return _outcome(lambda: verify_inclusion(leaf, index, size, proof, root), InclusionProofError)


def _cons(size1: int, size2: int, proof: list[bytes], old: bytes, new: bytes) -> str | None:
    return _outcome(
        lambda: verify_consistency(size1, size2, proof, old, new), ConsistencyProofError
    )


def _reorderings(proof: list[bytes]) -> list[list[bytes]]:
    swapped = []
    for j in range(len(proof) - 1):
        other = list(proof)
        other[j], other[j + 1] = other[j + 1], other[j]
        swapped.append(other)
    return swapped


def _length_changes(proof: list[bytes], extra: bytes) -> list[list[bytes]]:
    changed = [[*proof, extra], [extra, *proof]]
    if proof:
        changed += [[*proof, proof[-1]], proof[:-1], proof[1:], []]
    return changed


@pytest.mark.parametrize("size", range(1, MAX_LEAVES + 1))
def test_inclusion_corruptions(size: int) -> None:
    root, depth = ROOTS[size], (size - 1).bit_length()
    for index in range(size):
        leaf = H[index]
        proof = inclusion_proof_from_leaf_hashes(H[:size], index)
        assert _incl(leaf, index, size, proof, root) is None
        where = f"leaf {index} of {size}"
        for j, element in enumerate(proof):
            for bit in _bits(size):
                bad = [*proof[:j], _flip(element, bit), *proof[j + 1 :]]
                assert _incl(leaf, index, size, bad, root) == "merkle.root_mismatch", where
        for bit in SAMPLE_BITS:
            assert _incl(_flip(leaf, bit), index, size, proof, root) == "merkle.root_mismatch"
            assert _incl(leaf, index, size, proof, _flip(root, bit)) == "merkle.root_mismatch"
        for wrong_leaf in (OTHER[index], leaf_hash(leaf), H[(index + 1) % (size + 1)]):
            assert _incl(wrong_leaf, index, size, proof, root) == "merkle.root_mismatch", where
        for wrong_index in (index - 1, index + 1, index ^ 2):
            assert _incl(leaf, wrong_index, size, proof, root) is not None, where
        assert _incl(leaf, index + 2**depth, size, proof, root) == "merkle.index_range"
        for wrong_size in (size * 2, size // 2):
            assert _incl(leaf, index, wrong_size, proof, root) is not None, where
        for wrong_size in (size - 1, size + 1):
            if _incl(leaf, index, wrong_size, proof, root) is None:
                # only a computation identical to the honest one may pass
                assert inclusion_sides(index, wrong_size) == inclusion_sides(index, size)
        for bad in _length_changes(proof, root):
            assert _incl(leaf, index, size, bad, root) == "merkle.proof_length", where
        for bad in _reorderings(proof):
            assert _incl(leaf, index, size, bad, root) == "merkle.root_mismatch", where


def test_size_is_not_bound_by_the_path() -> None:
    """RFC 9162 property the size-only allowance above covers (DESIGN §3.3)."""
    proof = inclusion_proof_from_leaf_hashes(H[:8], 5)
    assert _incl(H[5], 5, 7, proof, ROOTS[8]) is None
    assert _incl(H[5], 5, 9, proof, ROOTS[8]) == "merkle.proof_length"


@pytest.mark.parametrize("size", range(2, MAX_LEAVES + 1))
def test_inner_nodes_are_not_leaves(size: int) -> None:
    """Every complete inner node, presented as a leaf at the committed size, fails."""
    root = ROOTS[size]
    for height in range(1, size.bit_length()):
        width = 1 << height
        for start in range(0, size - width + 1, width):
            node = root_from_leaf_hashes(H[start : start + width])
            upper = inclusion_proof_from_leaf_hashes(H[:size], start)[height:]
            half = width // 2
            preimage = root_from_leaf_hashes(H[start : start + half]) + root_from_leaf_hashes(
                H[start + half : start + width]
            )
            full_path = inclusion_proof_from_leaf_hashes(H[:size], start)
            for index in (start, start >> height):
                assert _incl(node, index, size, upper, root) is not None
            assert _incl(leaf_hash(preimage), start, size, full_path, root) == (
                "merkle.root_mismatch"
            )


@pytest.mark.parametrize("size", range(1, MAX_LEAVES, 2))
def test_duplicated_last_leaf(size: int) -> None:
    """[a, b, c] is not [a, b, c, c]: the padded tree's proofs do not verify (DESIGN §2)."""
    padded = [*H[:size], H[size - 1]]
    assert root_from_leaf_hashes(padded) != ROOTS[size]
    for index in (size - 1, size):
        proof = inclusion_proof_from_leaf_hashes(padded, index)
        assert _incl(padded[index], index, size + 1, proof, ROOTS[size]) is not None
        assert _incl(padded[index], index, size, proof, ROOTS[size]) is not None
    assert _incl(H[size - 1], size, size, [], ROOTS[size]) == "merkle.index_range"


def _same_consistency_computation(size1: int, size2: int, new1: int, new2: int, count: int) -> bool:
    """Whether (new1, new2) computes the same roots as (size1, size2) from unrelated hashes."""
    junk, seed = OTHER[:count], OTHER[-1]
    try:
        variant = roots_from_consistency_proof(new1, new2, junk, seed)
    except ConsistencyProofError:
        return False
    return variant == roots_from_consistency_proof(size1, size2, junk, seed)


@pytest.mark.parametrize("size2", range(1, MAX_LEAVES + 1))
def test_consistency_corruptions(size2: int) -> None:
    new = ROOTS[size2]
    for size1 in range(1, size2 + 1):
        old = ROOTS[size1]
        proof = consistency_proof_from_leaf_hashes(H[:size2], size1)
        assert _cons(size1, size2, proof, old, new) is None
        where = f"{size1} -> {size2}"
        for j, element in enumerate(proof):
            for bit in _bits(size2):
                bad = [*proof[:j], _flip(element, bit), *proof[j + 1 :]]
                assert _cons(size1, size2, bad, old, new) in ROOT_IDS, where
        for bit in SAMPLE_BITS:
            assert _cons(size1, size2, proof, _flip(old, bit), new) in ROOT_IDS, where
            assert _cons(size1, size2, proof, old, _flip(new, bit)) == "merkle.root_mismatch"
        other_old = root_from_leaf_hashes(OTHER[:size1])
        assert _cons(size1, size2, proof, other_old, new) in ROOT_IDS, where
        if size1 < size2:
            assert _cons(size1, size2, proof, new, old) in ROOT_IDS, where
            assert _cons(size2, size1, proof, new, old) == "merkle.size_range", where
        assert _cons(0, size2, proof, old, new) == "merkle.size_range", where
        for bad in _length_changes(proof, new):
            assert _cons(size1, size2, bad, old, new) == "merkle.proof_length", where
        for bad in _reorderings(proof):
            assert _cons(size1, size2, bad, old, new) in ROOT_IDS, where
        for new1, new2 in ((size1 ^ 2, size2), (size1, size2 * 2), (size1, size2 // 2)):
            assert _cons(new1, new2, proof, old, new) is not None, where
        for new1, new2 in (
            (size1 - 1, size2),
            (size1 + 1, size2),
            (size1, size2 - 1),
            (size1, size2 + 1),
        ):
            if _cons(new1, new2, proof, old, new) is None:
                assert _same_consistency_computation(size1, size2, new1, new2, len(proof)), where
