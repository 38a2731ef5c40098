"""por.merkle.hashing: RFC 9162 §2.1.1 leaf/node hashes and the empty root."""

from __future__ import annotations

import hashlib

from por.merkle import EMPTY_ROOT, HASH_SIZE, leaf_hash, node_hash, root_hash
from por.merkle.hashing import LEAF_PREFIX, NODE_PREFIX


def test_constants() -> None:
    assert HASH_SIZE == 32
    assert (LEAF_PREFIX, NODE_PREFIX) == (b"\x00", b"\x01")
    assert EMPTY_ROOT.hex() == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    assert root_hash([]) == EMPTY_ROOT


def test_leaf_hash_is_prefixed_sha256() -> None:
    assert leaf_hash(b"abc") == hashlib.sha256(b"\x00abc").digest()
    assert leaf_hash(b"") != EMPTY_ROOT  # the empty leaf is not the empty tree


def test_node_hash_is_prefixed_sha256() -> None:
    left, right = bytes(32), bytes(range(32))
    assert node_hash(left, right) == hashlib.sha256(b"\x01" + left + right).digest()
    assert node_hash(left, right) != node_hash(right, left)


def test_domain_separation_leaf_vs_node() -> None:
    """A node's 64-byte preimage used as leaf data hashes differently (DESIGN §2)."""
    left, right = leaf_hash(b"a"), leaf_hash(b"b")
    assert leaf_hash(left + right) != node_hash(left, right)
    assert root_hash([left + right]) != root_hash([b"a", b"b"])
