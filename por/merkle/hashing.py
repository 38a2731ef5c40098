"""RFC 9162 §2.1.1 hash functions: leaf hash, node hash, empty-tree root.

SHA-256 with the domain-separation prefixes of RFC 9162 §2.1.1 (0x00 for a
leaf, 0x01 for an interior node), so a leaf can never be mistaken for a node
(the second-preimage hole of unprefixed trees, DESIGN §2).  This module only
hashes; it validates nothing and builds no trees (see ``tree`` and ``proofs``).
"""

from __future__ import annotations

import hashlib
from typing import Final

HASH_SIZE: Final = 32
"""Length in bytes of every hash in a tree: leaf hashes, nodes, roots, proof elements."""

LEAF_PREFIX: Final = b"\x00"
NODE_PREFIX: Final = b"\x01"

EMPTY_ROOT: Final = hashlib.sha256(b"").digest()
"""MTH({}) = SHA-256() (RFC 9162 §2.1.1): the root of the tree with no leaves."""


def leaf_hash(data: bytes) -> bytes:
    """MTH({d}) = SHA-256(0x00 || d) (RFC 9162 §2.1.1), without copying ``d`` (a
    leaf may be tens of MB: a forged step record, SPEC §17.8)."""
    digest = hashlib.sha256(LEAF_PREFIX)
    digest.update(data)
    return digest.digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    """SHA-256(0x01 || left || right) (RFC 9162 §2.1.1).

    Lengths are not checked here: the RFC's known-answer test hashes two 4-byte
    strings.  Callers that take hashes from outside validate them first.
    """
    return hashlib.sha256(NODE_PREFIX + left + right).digest()


__all__ = ["EMPTY_ROOT", "HASH_SIZE", "LEAF_PREFIX", "NODE_PREFIX", "leaf_hash", "node_hash"]
