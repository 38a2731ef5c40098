"""RFC 9162 §2.1 Merkle trees (SHA-256): roots, inclusion and consistency proofs.

``hashing`` holds the leaf/node hash functions, ``tree`` builds roots and
proofs from a full list of leaves, ``proofs`` verifies proofs against a
committed (tree_size, root), and ``compact`` keeps the root of leaves that
arrive one at a time (:class:`RootAccumulator`).  Every failure is a
``MerkleError`` subclass with one of the ``CHECK_*`` ids exported here.  Out
of scope: persistent trees, incremental proofs, other hash functions, and the
subtree proofs of draft-ietf-plants-merkle-tree-certs (the tests carry a
reference for those).
"""

from por.merkle._validate import (
    CHECK_CONSISTENCY_ROOT_MISMATCH,
    CHECK_HASH_LENGTH,
    CHECK_INDEX_RANGE,
    CHECK_PROOF_LENGTH,
    CHECK_ROOT_MISMATCH,
    CHECK_SIZE_RANGE,
)
from por.merkle.compact import RootAccumulator
from por.merkle.hashing import EMPTY_ROOT, HASH_SIZE, leaf_hash, node_hash
from por.merkle.proofs import (
    inclusion_sides,
    inclusion_trace,
    root_from_inclusion_proof,
    roots_from_consistency_proof,
    verify_consistency,
    verify_inclusion,
)
from por.merkle.tree import (
    consistency_proof,
    consistency_proof_from_leaf_hashes,
    inclusion_path_from_levels,
    inclusion_proof,
    inclusion_proof_from_leaf_hashes,
    leaf_hashes,
    root_from_leaf_hashes,
    root_hash,
    tree_levels,
)

__all__ = [
    "CHECK_CONSISTENCY_ROOT_MISMATCH",
    "CHECK_HASH_LENGTH",
    "CHECK_INDEX_RANGE",
    "CHECK_PROOF_LENGTH",
    "CHECK_ROOT_MISMATCH",
    "CHECK_SIZE_RANGE",
    "EMPTY_ROOT",
    "HASH_SIZE",
    "RootAccumulator",
    "consistency_proof",
    "consistency_proof_from_leaf_hashes",
    "inclusion_path_from_levels",
    "inclusion_proof",
    "inclusion_proof_from_leaf_hashes",
    "inclusion_sides",
    "inclusion_trace",
    "leaf_hash",
    "leaf_hashes",
    "node_hash",
    "root_from_inclusion_proof",
    "root_from_leaf_hashes",
    "root_hash",
    "roots_from_consistency_proof",
    "tree_levels",
    "verify_consistency",
    "verify_inclusion",
]
