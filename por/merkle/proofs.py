"""RFC 9162 §2.1.3.2 and §2.1.4.2 proof verification.

As in transparency-dev/merkle ``proof/verify.go``, a root is *computed* from a
proof in one function (``root_from_inclusion_proof``,
``roots_from_consistency_proof``) and *compared* in another (``verify_*``), so
a mismatch error carries both the expected and the calculated root.

Edge-case policy is transparency-dev/merkle's (commit pinned in
fixtures/vectors/merkle-rfc6962.json): every hash is exactly 32 bytes; an index
must be below the tree size (so size 0 has no inclusion proofs); a proof must
have exactly the length that (index, size) or (size1, size2) imply; size1 == 0
and size1 > size2 are refused; size1 == size2 needs an empty proof and equal
roots.  RFC proofs do not bind the tree size, so callers always commit to the
pair (tree_size, root) (DESIGN §3.3).

Every failure raised here is an ``InclusionProofError`` or a
``ConsistencyProofError`` (both ``MerkleError``) with a ``merkle.*`` check id.
This module builds no trees (see ``por.merkle.tree``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from por.errors import ConsistencyProofError, InclusionProofError
from por.merkle._validate import (
    CHECK_CONSISTENCY_ROOT_MISMATCH,
    CHECK_ROOT_MISMATCH,
    CHECK_SIZE_RANGE,
    require_hash,
    require_hashes,
    require_index,
    require_proof_length,
    require_uint64,
)
from por.merkle.hashing import NODE_PREFIX


def inclusion_trace(
    leaf_hash: bytes, index: int, tree_size: int, proof: Sequence[bytes]
) -> list[bytes]:
    """The running hash of an inclusion verification, level by level.

    ``trace[0]`` is the leaf hash and ``trace[j + 1]`` the hash after combining
    ``proof[j]``; ``trace[-1]`` is the calculated root.  Raises
    ``InclusionProofError`` for a structural problem (``merkle.size_range``,
    ``merkle.index_range``, ``merkle.hash_length``, ``merkle.proof_length``).
    """
    size = require_uint64(tree_size, "tree size", CHECK_SIZE_RANGE, InclusionProofError)
    checked_index = require_index(index, size, InclusionProofError)
    running = require_hash(leaf_hash, "leaf hash", InclusionProofError)
    require_hashes(proof, "proof", InclusionProofError)
    sides = _sibling_sides(checked_index, size)
    require_proof_length(proof, len(sides), InclusionProofError)
    sha256 = hashlib.sha256
    trace = [running]
    for sibling_is_left, sibling in zip(sides, proof, strict=True):
        if sibling_is_left:
            running = sha256(NODE_PREFIX + sibling + running).digest()
        else:
            running = sha256(NODE_PREFIX + running + sibling).digest()
        trace.append(running)
    return trace


def inclusion_sides(index: int, tree_size: int) -> list[str]:
    """For each element of PATH(index, D[tree_size]), ``"left"`` or ``"right"``.

    The side on which that proof element (the sibling) is hashed: ``"left"``
    means SHA-256(0x01 || proof[j] || running).  For display, e.g. beside
    :func:`inclusion_trace`; raises like :func:`inclusion_trace` for a bad
    index or size.
    """
    size = require_uint64(tree_size, "tree size", CHECK_SIZE_RANGE, InclusionProofError)
    checked_index = require_index(index, size, InclusionProofError)
    return ["left" if left else "right" for left in _sibling_sides(checked_index, size)]


def root_from_inclusion_proof(
    leaf_hash: bytes, index: int, tree_size: int, proof: Sequence[bytes]
) -> bytes:
    """The root that ``proof`` implies for ``leaf_hash`` at ``index`` of ``tree_size`` leaves."""
    return inclusion_trace(leaf_hash, index, tree_size, proof)[-1]


def verify_inclusion(
    leaf_hash: bytes, index: int, tree_size: int, proof: Sequence[bytes], root: bytes
) -> None:
    """Raise ``InclusionProofError`` unless ``proof`` puts the leaf in (tree_size, root).

    A wrong root raises ``merkle.root_mismatch`` with ``expected=root`` and
    ``actual=`` the calculated root.
    """
    calculated = root_from_inclusion_proof(leaf_hash, index, tree_size, proof)
    expected = require_hash(root, "root", InclusionProofError)
    if calculated != expected:
        raise InclusionProofError(
            CHECK_ROOT_MISMATCH,
            f"inclusion proof for leaf {index} of {tree_size} leads to another root",
            expected=expected,
            actual=calculated,
        )


def roots_from_consistency_proof(
    old_size: int, new_size: int, proof: Sequence[bytes], old_root: bytes
) -> tuple[bytes, bytes]:
    """The (old root, new root) that a consistency proof implies.

    ``old_root`` is only used as the starting node when old_size is a power of
    two (the proof then omits it, RFC 9162 §2.1.4.1); otherwise both roots are
    computed from the proof alone.  Raises ``ConsistencyProofError`` for a
    structural problem (``merkle.size_range``, ``merkle.hash_length``,
    ``merkle.proof_length``).
    """
    size1 = require_uint64(old_size, "old size", CHECK_SIZE_RANGE, ConsistencyProofError)
    size2 = require_uint64(new_size, "new size", CHECK_SIZE_RANGE, ConsistencyProofError)
    if size1 > size2:
        raise ConsistencyProofError(
            CHECK_SIZE_RANGE,
            f"old size {size1} is larger than new size {size2}",
            expected=f"<= {size2}",
            actual=size1,
        )
    if size1 == 0:
        # transparency-dev/merkle PR #140: a proof from the empty tree proves nothing.
        raise ConsistencyProofError(CHECK_SIZE_RANGE, "old size 0: nothing to be consistent with")
    known = require_hash(old_root, "old root", ConsistencyProofError)
    require_hashes(proof, "proof", ConsistencyProofError)
    if size1 == size2:
        require_proof_length(proof, 0, ConsistencyProofError)
        return known, known
    # The old tree's last complete subtree (its lowest 1 bit, ``shift`` levels
    # high) is a node of the new tree.  The proof is that node's hash, omitted
    # when it is the whole old tree (size1 a power of two: the b flag of RFC
    # 9162 §2.1.4.1), followed by the node's inclusion path at level ``shift``.
    shift = (size1 & -size1).bit_length() - 1
    seeded = size1 == 1 << shift
    sides = _sibling_sides((size1 - 1) >> shift, ((size2 - 1) >> shift) + 1)
    require_proof_length(proof, len(sides) + (0 if seeded else 1), ConsistencyProofError)
    seed, path = (known, proof) if seeded else (proof[0], proof[1:])
    sha256 = hashlib.sha256
    old_running = new_running = seed
    for sibling_is_left, sibling in zip(sides, path, strict=True):
        if sibling_is_left:
            # A left sibling lies wholly inside the old tree: both roots use it.
            old_running = sha256(NODE_PREFIX + sibling + old_running).digest()
            new_running = sha256(NODE_PREFIX + sibling + new_running).digest()
        else:
            new_running = sha256(NODE_PREFIX + new_running + sibling).digest()
    return old_running, new_running


def verify_consistency(
    old_size: int, new_size: int, proof: Sequence[bytes], old_root: bytes, new_root: bytes
) -> None:
    """Raise ``ConsistencyProofError`` unless (new_size, new_root) extends (old_size, old_root).

    A wrong old root raises ``merkle.consistency_root_mismatch``, a wrong new
    root (or unequal roots when the sizes are equal) ``merkle.root_mismatch``;
    both carry ``expected`` (the given root) and ``actual`` (the calculated one).
    """
    calculated_old, calculated_new = roots_from_consistency_proof(
        old_size, new_size, proof, old_root
    )
    expected_new = require_hash(new_root, "new root", ConsistencyProofError)
    if calculated_old != old_root:
        raise ConsistencyProofError(
            CHECK_CONSISTENCY_ROOT_MISMATCH,
            f"consistency proof {old_size} -> {new_size} leads to another old root",
            expected=old_root,
            actual=calculated_old,
        )
    if calculated_new != expected_new:
        raise ConsistencyProofError(
            CHECK_ROOT_MISMATCH,
            f"consistency proof {old_size} -> {new_size} leads to another new root",
            expected=expected_new,
            actual=calculated_new,
        )


def _sibling_sides(index: int, tree_size: int) -> list[bool]:
    """For each element of PATH(index, D[tree_size]): is the sibling on the left?

    Its length is the exact proof length (RFC 9162 §2.1.3.2).  Below level
    ``inner`` (where index and tree_size - 1 differ) every ancestor of the leaf
    has a sibling, on the left where the index bit is 1.  Above it the
    ancestors lie on the tree's right edge and have a sibling only where they
    are a right child (index bit 1), and that sibling is on the left.
    """
    inner = (index ^ (tree_size - 1)).bit_length()
    sides = [bool((index >> level) & 1) for level in range(inner)]
    sides.extend(True for _ in range((index >> inner).bit_count()))
    return sides


__all__ = [
    "inclusion_sides",
    "inclusion_trace",
    "root_from_inclusion_proof",
    "roots_from_consistency_proof",
    "verify_consistency",
    "verify_inclusion",
]
