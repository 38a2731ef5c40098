"""Hypothesis properties of por.merkle against a literal RFC 9162 §2.1 transcription.

The reference functions below follow the RFC's recursive definitions word for
word (MTH, PATH, PROOF/SUBPROOF, split at the largest power of two below n);
por.merkle computes roots bottom-up and proofs from leaf ranges, so agreement
on random leaf lists is the test of that equivalence.  Every generated proof
must also verify, and the results must not depend on anything but the input.
"""

from __future__ import annotations

import hashlib

from hypothesis import given, settings
from hypothesis import strategies as st

from por.merkle import (
    EMPTY_ROOT,
    RootAccumulator,
    consistency_proof,
    inclusion_proof,
    inclusion_trace,
    leaf_hashes,
    root_from_leaf_hashes,
    root_hash,
    verify_consistency,
    verify_inclusion,
)


def _k(n: int) -> int:
    """The largest power of two smaller than n (RFC 9162 §2.1.1), by counting up."""
    k = 1
    while k * 2 < n:
        k *= 2
    return k


def rfc_mth(leaves: list[bytes]) -> bytes:
    """MTH(D[n]) exactly as RFC 9162 §2.1.1 defines it."""
    n = len(leaves)
    if n == 0:
        return hashlib.sha256(b"").digest()
    if n == 1:
        return hashlib.sha256(b"\x00" + leaves[0]).digest()
    k = _k(n)
    return hashlib.sha256(b"\x01" + rfc_mth(leaves[:k]) + rfc_mth(leaves[k:])).digest()


def rfc_path(m: int, leaves: list[bytes]) -> list[bytes]:
    """PATH(m, D[n]) exactly as RFC 9162 §2.1.3.1 defines it."""
    n = len(leaves)
    if n == 1:
        return []
    k = _k(n)
    if m < k:
        return [*rfc_path(m, leaves[:k]), rfc_mth(leaves[k:])]
    return [*rfc_path(m - k, leaves[k:]), rfc_mth(leaves[:k])]


def rfc_subproof(m: int, leaves: list[bytes], b: bool) -> list[bytes]:
    """SUBPROOF(m, D[n], b) exactly as RFC 9162 §2.1.4.1 defines it."""
    n = len(leaves)
    if m == n:
        return [] if b else [rfc_mth(leaves)]
    k = _k(n)
    if m <= k:
        return [*rfc_subproof(m, leaves[:k], b), rfc_mth(leaves[k:])]
    return [*rfc_subproof(m - k, leaves[k:], False), rfc_mth(leaves[:k])]


def _leaf_lists(min_size: int, max_size: int) -> st.SearchStrategy[list[bytes]]:
    """Sizes drawn uniformly first, so trees of every shape up to max_size occur."""
    return st.integers(min_size, max_size).flatmap(
        lambda size: st.lists(st.binary(max_size=12), min_size=size, max_size=size)
    )


leaf_lists = _leaf_lists(0, 70)
nonempty_leaf_lists = _leaf_lists(1, 70)


@given(leaf_lists)
def test_root_equals_recursive_rfc_definition(leaves: list[bytes]) -> None:
    expected = rfc_mth(leaves)
    assert root_hash(leaves) == expected
    assert root_from_leaf_hashes(leaf_hashes(leaves)) == expected
    accumulated = RootAccumulator()
    for leaf in leaves:
        accumulated.append(leaf)
    assert accumulated.root() == expected
    if not leaves:
        assert expected == EMPTY_ROOT


@given(nonempty_leaf_lists)
def test_every_inclusion_proof_matches_rfc_and_verifies(leaves: list[bytes]) -> None:
    root, hashes = root_hash(leaves), leaf_hashes(leaves)
    for index in range(len(leaves)):
        proof = inclusion_proof(leaves, index)
        assert proof == rfc_path(index, leaves)
        verify_inclusion(hashes[index], index, len(leaves), proof, root)
        trace = inclusion_trace(hashes[index], index, len(leaves), proof)
        assert (trace[0], trace[-1], len(trace)) == (hashes[index], root, len(proof) + 1)


@settings(max_examples=30)
@given(_leaf_lists(1, 40))
def test_every_consistency_proof_matches_rfc_and_verifies(leaves: list[bytes]) -> None:
    roots = [root_hash(leaves[:size]) for size in range(len(leaves) + 1)]
    for new_size in range(1, len(leaves) + 1):
        prefix = leaves[:new_size]
        for old_size in range(1, new_size + 1):
            proof = consistency_proof(prefix, old_size)
            assert proof == rfc_subproof(old_size, prefix, True)
            verify_consistency(old_size, new_size, proof, roots[old_size], roots[new_size])


@given(st.lists(st.binary(min_size=32, max_size=32), min_size=2, max_size=40), st.data())
def test_distinct_leaf_lists_distinct_roots(hashes: list[bytes], data: st.DataObject) -> None:
    """Appending a copy of the last leaf, or dropping one, changes the root (DESIGN §2)."""
    root = root_from_leaf_hashes(hashes)
    assert root_from_leaf_hashes([*hashes, hashes[-1]]) != root
    drop = data.draw(st.integers(0, len(hashes) - 1))
    assert root_from_leaf_hashes(hashes[:drop] + hashes[drop + 1 :]) != root


@given(leaf_lists)
def test_results_are_fresh_and_repeatable(leaves: list[bytes]) -> None:
    """Same input, same bytes; the caller's list is left as it was."""
    before = list(leaves)
    assert root_hash(leaves) == root_hash(list(leaves))
    if leaves:
        assert inclusion_proof(leaves, len(leaves) - 1) == inclusion_proof(
            tuple(leaves), len(leaves) - 1
        )
        assert consistency_proof(leaves, 1) == consistency_proof(tuple(leaves), 1)
    assert leaves == before
