"""Lean ``por.Bundle/1`` top-level map and its commitments (mirrors ``por.bundle.layout``).

:class:`Bundle` and :class:`Commitments` are generated from the pydantic models
into :mod:`por.lean.records_gen.bundle` (``python -m por.lean.generate``); the leaf
arrays are read by :func:`por.lean.hooks.leaves` as spans of the bundle.
"""

from __future__ import annotations

from typing import Protocol

from por.lean.hooks import leaves
from por.lean.records_gen.bundle import Bundle, Commitments
from por.merkle import root_hash

#: Component order in the por_root tree (SPEC §5.4).  Never reorder.
COMPONENTS: tuple[str, ...] = (
    "manifest",
    "prompt_spec",
    "evidence",
    "trace_header",
    "reasoning",
    "verdict",
)


#: Default size cap for a whole bundle (SPEC §5.1): 256 MiB.  A bundle of 10^5
#: evidence items is about 90 MB.  Memory stays bounded by the decoder's
#: container cap; each record inside is decoded on its own under the record cap.
DEFAULT_BUNDLE_MAX_SIZE = 256 * 1024 * 1024


def component_leaf(root: bytes, size: int) -> bytes:
    """``root || uint64_be(size)``: the fixed-width 40-byte component leaf."""
    if len(root) != 32 or not 0 <= size < 2**64:
        raise ValueError("component leaf needs a 32-byte root and a 64-bit size")
    return root + size.to_bytes(8, "big")


class CommitmentFields(Protocol):
    """What the component leaves are read from: lean or pydantic ``Commitments``."""

    @property
    def manifest_hash(self) -> bytes: ...

    @property
    def prompt_spec_hash(self) -> bytes: ...

    @property
    def evidence_root(self) -> bytes: ...

    @property
    def evidence_count(self) -> int: ...

    @property
    def trace_header_hash(self) -> bytes: ...

    @property
    def reasoning_root(self) -> bytes: ...

    @property
    def reasoning_count(self) -> int: ...

    @property
    def verdict_hash(self) -> bytes: ...


def component_leaves(c: CommitmentFields) -> list[bytes]:
    """The six component leaves of commitments ``c`` (lean or pydantic), in
    :data:`COMPONENTS` order."""
    return [component_leaf(c.manifest_hash, 1), component_leaf(c.prompt_spec_hash, 1),
            component_leaf(c.evidence_root, c.evidence_count),
            component_leaf(c.trace_header_hash, 1),
            component_leaf(c.reasoning_root, c.reasoning_count),
            component_leaf(c.verdict_hash, 1)]


def por_root_of(c: CommitmentFields) -> bytes:
    """``por_root``: the RFC 9162 root over the component leaves of ``c``."""
    return root_hash(component_leaves(c))


__all__ = [
    "COMPONENTS",
    "DEFAULT_BUNDLE_MAX_SIZE",
    "Bundle",
    "Commitments",
    "component_leaf",
    "component_leaves",
    "leaves",
    "por_root_of",
]
