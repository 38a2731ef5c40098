"""RFC 9162 §2.1.1 root of a tree whose leaves arrive one at a time.

:class:`RootAccumulator` keeps the compact range of the leaves seen so far:
the roots of the perfect subtrees ``[a * 2**h, (a + 1) * 2**h)`` that the
binary expansion of the leaf count splits them into, largest (leftmost)
first -- at most 64 hashes for 2**64 leaves.  Appending a leaf merges equal
heights from the right, as a binary counter carries.  :meth:`root` folds the
range from the right: RFC 9162 splits ``D[n]`` at the largest power of two
below ``n``, so the left part is the first perfect subtree and the right part
is the tree of the rest, recursively.  It equals :func:`~por.merkle.root_hash`
over the same leaves for every size (tests/unit/merkle/test_merkle_compact.py
and the property test pin it) and costs the same number of SHA-256 calls.

Why: a verifier that replays a trace step by step can commit to the steps'
bytes without keeping them (issue 16).  Leaves out: proofs (``tree``,
``proofs``) and persistence.
"""

from __future__ import annotations

import hashlib

from por.merkle.hashing import EMPTY_ROOT, LEAF_PREFIX, NODE_PREFIX


class RootAccumulator:
    """MTH of the leaves appended so far, in O(log n) memory (module docstring)."""

    __slots__ = ("_hashes", "_heights", "size")

    def __init__(self) -> None:
        self.size = 0
        self._hashes: list[bytes] = []  # perfect subtree roots, left to right
        self._heights: list[int] = []  # their heights, strictly decreasing

    def append(self, data: bytes | memoryview) -> None:
        """Add the leaf with raw data ``data`` (hashed as SHA-256(0x00 || data));
        a memoryview of a larger buffer is hashed without slicing it out first."""
        self.append_hash(hashlib.sha256(LEAF_PREFIX + data).digest())

    def append_hash(self, leaf_hash: bytes) -> None:
        """Add a leaf given by its 32-byte leaf hash (not validated: callers hash it)."""
        hashes, heights = self._hashes, self._heights
        node, height = leaf_hash, 0
        while heights and heights[-1] == height:
            # Two perfect subtrees of one height, left and right siblings (RFC 9162 §2.1.1).
            node = hashlib.sha256(NODE_PREFIX + hashes.pop() + node).digest()
            heights.pop()
            height += 1
        hashes.append(node)
        heights.append(height)
        self.size += 1

    def root(self) -> bytes:
        """MTH(D[size]); ``EMPTY_ROOT`` for no leaves.  Does not change the state."""
        hashes = self._hashes
        if not hashes:
            return EMPTY_ROOT
        node = hashes[-1]
        for left in reversed(hashes[:-1]):
            node = hashlib.sha256(NODE_PREFIX + left + node).digest()
        return node


__all__ = ["RootAccumulator"]
