"""RFC 9162 §2.1 tree building: roots, inclusion paths and consistency proofs.

Builders take the whole list of leaves (raw leaf data) or of leaf hashes and
return bytes; they keep no state between calls.  Verification of a proof
against a root lives in ``por.merkle.proofs``; this module does not verify.

Roots are computed level by level: hash adjacent pairs, carry an odd last node
up unchanged.  That is the RFC 9162 §2.1.1 tree (split at the largest power of
two below n): at height h both constructions combine exactly the aligned ranges
[a * 2**h, (a + 1) * 2**h) clipped to n, and a range with a single child *is*
that child.  tests/properties/test_merkle_properties.py checks the equivalence
against a literal recursive transcription of the RFC.

Proofs are computed as the RFC defines them, as lists of leaf ranges
(``_inclusion_ranges``, ``_consistency_ranges``) whose subtree hashes are then
taken; the ranges of one proof are disjoint, so a proof costs at most one pass
over the leaf hashes (no quadratic rebuilds).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from por.errors import MerkleError
from por.merkle._validate import (
    CHECK_SIZE_RANGE,
    require_hashes,
    require_index,
    require_uint64,
)
from por.merkle.hashing import EMPTY_ROOT, LEAF_PREFIX, NODE_PREFIX


def leaf_hashes(leaves: Sequence[bytes]) -> list[bytes]:
    """The RFC 9162 leaf hash SHA-256(0x00 || d) of every leaf, in order."""
    sha256 = hashlib.sha256
    prefix = LEAF_PREFIX
    return [sha256(prefix + data).digest() for data in leaves]


def root_hash(leaves: Sequence[bytes]) -> bytes:
    """MTH(D[n]) over raw leaf data (RFC 9162 §2.1.1); no leaves -> SHA-256("")."""
    return _root(leaf_hashes(leaves))


def root_from_leaf_hashes(hashes: Sequence[bytes]) -> bytes:
    """MTH over leaves given by their 32-byte leaf hashes (``merkle.hash_length`` otherwise)."""
    require_hashes(hashes, "leaf hash")
    return _root(list(hashes))


def inclusion_proof(leaves: Sequence[bytes], index: int) -> list[bytes]:
    """PATH(index, D[n]) over raw leaf data (RFC 9162 §2.1.3.1), leaf end first."""
    return _inclusion(leaf_hashes(leaves), index)


def inclusion_proof_from_leaf_hashes(hashes: Sequence[bytes], index: int) -> list[bytes]:
    """PATH(index, D[n]) over 32-byte leaf hashes (RFC 9162 §2.1.3.1), leaf end first."""
    require_hashes(hashes, "leaf hash")
    return _inclusion(list(hashes), index)


def consistency_proof(leaves: Sequence[bytes], old_size: int) -> list[bytes]:
    """PROOF(old_size, D[n]) over raw leaf data (RFC 9162 §2.1.4.1).

    ``0 < old_size <= n``; ``old_size == n`` gives the empty proof.  Size 0 is
    refused (``merkle.size_range``) because the verifier refuses it too
    (transparency-dev/merkle PR #140): nothing about an empty tree needs proving.
    """
    return _consistency(leaf_hashes(leaves), old_size)


def consistency_proof_from_leaf_hashes(hashes: Sequence[bytes], old_size: int) -> list[bytes]:
    """PROOF(old_size, D[n]) over 32-byte leaf hashes; see :func:`consistency_proof`."""
    require_hashes(hashes, "leaf hash")
    return _consistency(list(hashes), old_size)


def tree_levels(hashes: Sequence[bytes]) -> list[list[bytes]]:
    """Every level of the tree over 32-byte leaf hashes, leaves first, root last.

    ``levels[h][a]`` is MTH of the aligned range ``[a * 2**h, (a + 1) * 2**h)``
    clipped to n (an odd last node is carried up unchanged, as in ``_root``).
    Built once in O(n); :func:`inclusion_path_from_levels` then reads any
    PATH in O(log n), so k paths cost O(n + k log n), never O(n k).
    """
    require_hashes(hashes, "leaf hash")
    levels = [list(hashes)]
    sha256 = hashlib.sha256
    prefix = NODE_PREFIX
    level = levels[0]
    while len(level) > 1:
        lefts, rights = level[0::2], level[1::2]
        carry = lefts.pop() if len(lefts) > len(rights) else None
        level = [sha256(prefix + left + right).digest()
                 for left, right in zip(lefts, rights, strict=True)]
        if carry is not None:
            level.append(carry)
        levels.append(level)
    return levels


def inclusion_path_from_levels(levels: Sequence[Sequence[bytes]], index: int) -> list[bytes]:
    """PATH(index, D[n]) read from :func:`tree_levels` output; same bytes as
    :func:`inclusion_proof_from_leaf_hashes`, in O(log n)."""
    size = len(levels[0]) if levels else 0
    position = require_index(index, size)
    # Bottom-up: at each height the sibling of the node on the leaf's way up is
    # the next path element; a last odd node has none (it is carried up
    # unchanged), which is exactly where RFC 9162's PATH has no element.
    path = []
    for level in levels[:-1]:
        sibling = position ^ 1
        if sibling < len(level):
            path.append(level[sibling])
        position >>= 1
    return path


def _root(level: list[bytes]) -> bytes:
    """MTH of already-validated leaf hashes, bottom-up (see the module docstring)."""
    if not level:
        return EMPTY_ROOT
    sha256 = hashlib.sha256
    prefix = NODE_PREFIX
    while len(level) > 1:
        lefts, rights = level[0::2], level[1::2]
        # An odd last node has no sibling: it moves up unchanged (RFC 9162 never
        # hashes a node with itself, unlike the tree DESIGN §2 warns about).
        carry = lefts.pop() if len(lefts) > len(rights) else None
        level = [
            sha256(prefix + left + right).digest()
            for left, right in zip(lefts, rights, strict=True)
        ]
        if carry is not None:
            level.append(carry)
    return level[0]


def _inclusion(hashes: list[bytes], index: int) -> list[bytes]:
    checked = require_index(index, len(hashes))
    return [_root(hashes[start:end]) for start, end in _inclusion_ranges(checked, len(hashes))]


def _consistency(hashes: list[bytes], old_size: int) -> list[bytes]:
    size = len(hashes)
    checked = require_uint64(old_size, "old size", CHECK_SIZE_RANGE)
    if not 0 < checked <= size:
        raise MerkleError(
            CHECK_SIZE_RANGE,
            f"old size {checked} is not in [1, {size}]",
            expected=f"1..{size}",
            actual=checked,
        )
    return [_root(hashes[start:end]) for start, end in _consistency_ranges(checked, size)]


def _largest_power_of_two_below(n: int) -> int:
    """k with k < n <= 2k, the RFC 9162 §2.1.1 split point (n > 1)."""
    return 1 << ((n - 1).bit_length() - 1)


def _inclusion_ranges(index: int, size: int) -> list[tuple[int, int]]:
    """Leaf ranges whose subtree hashes form PATH(index, D[size]), leaf end first.

    RFC 9162 §2.1.3.1: PATH(m, D[n]) = PATH(m, D[0:k]) : MTH(D[k:n]) if m < k,
    else PATH(m - k, D[k:n]) : MTH(D[0:k]).  Walking down from the root meets
    the last element first, hence the reversal.
    """
    ranges: list[tuple[int, int]] = []
    low, high = 0, size
    while high - low > 1:
        middle = low + _largest_power_of_two_below(high - low)
        if index < middle:
            ranges.append((middle, high))
            high = middle
        else:
            ranges.append((low, middle))
            low = middle
    ranges.reverse()
    return ranges


def _consistency_ranges(old_size: int, size: int) -> list[tuple[int, int]]:
    """Leaf ranges whose subtree hashes form PROOF(old_size, D[size]), in RFC order.

    RFC 9162 §2.1.4.1 SUBPROOF(m, D[n], b): {} if m == n and b; {MTH(D[n])} if
    m == n and not b; SUBPROOF(m, D[0:k], b) : MTH(D[k:n]) if m <= k; else
    SUBPROOF(m - k, D[k:n], false) : MTH(D[0:k]).
    """
    ranges: list[tuple[int, int]] = []
    low, high, known = 0, size, True
    while old_size != high:  # old_size - low == high - low: the old tree's last subtree
        middle = low + _largest_power_of_two_below(high - low)
        if old_size <= middle:
            ranges.append((middle, high))
            high = middle
        else:
            ranges.append((low, middle))
            low, known = middle, False
    if not known:
        ranges.append((low, high))
    ranges.reverse()
    return ranges
