"""Lean ``por.Bundle/1`` top-level map and its commitments (mirrors ``por.bundle.layout``)."""

from __future__ import annotations

from typing import Protocol

from por.encoding.spans import Spans
from por.lean.base import Check, Reject, Struct, any_blob, count, hash32, nested, schema_tag
from por.lean.limits import MAX_EVIDENCE_ITEMS
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


def leaves(max_length: int | None = None) -> Check:
    """An array of leaf records: byte strings of the bundle, read as their spans
    (``decode(..., slices_at=2)`` gives a :class:`Spans`), never copied; at most
    ``max_length`` of them."""
    def check(value: object) -> Spans:
        if type(value) is not Spans or not value.bytes_only or (
                max_length is not None and len(value) > max_length):
            raise Reject("leaves")
        return value
    return check


class Commitments(Struct):
    __slots__ = ("evidence_count", "evidence_root", "manifest_hash", "por_root",
                 "prompt_spec_hash", "reasoning_count", "reasoning_root", "trace_header_hash",
                 "verdict_hash")
    manifest_hash: bytes
    prompt_spec_hash: bytes
    evidence_root: bytes
    evidence_count: int
    trace_header_hash: bytes
    reasoning_root: bytes
    reasoning_count: int
    verdict_hash: bytes
    por_root: bytes
    FIELDS = (("manifest_hash", "manifest_hash", hash32, False),
              ("prompt_spec_hash", "prompt_spec_hash", hash32, False),
              ("evidence_root", "evidence_root", hash32, False),
              ("evidence_count", "evidence_count", count, False),
              ("trace_header_hash", "trace_header_hash", hash32, False),
              ("reasoning_root", "reasoning_root", hash32, False),
              ("reasoning_count", "reasoning_count", count, False),
              ("verdict_hash", "verdict_hash", hash32, False),
              ("por_root", "por_root", hash32, False))


class Bundle(Struct):
    """The whole bundle: records as canonical bytes, commitments, signatures.

    Built from ``decode(data, slices_at=2)``: the leaf arrays (evidence, steps,
    signatures) are :class:`Spans` of ``data``, the other records are bytes."""

    __slots__ = ("commitments", "evidence", "manifest", "prompt_spec", "record_schema",
                 "signatures", "steps", "trace_header", "verdict")
    record_schema: str
    manifest: bytes
    prompt_spec: bytes
    evidence: Spans
    trace_header: bytes
    steps: Spans
    verdict: bytes
    commitments: Commitments
    signatures: Spans
    FIELDS = (schema_tag("por.Bundle/1"),
              ("manifest", "manifest", any_blob, False),
              ("prompt_spec", "prompt_spec", any_blob, False),
              ("evidence", "evidence", leaves(MAX_EVIDENCE_ITEMS), False),
              ("trace_header", "trace_header", any_blob, False),
              ("steps", "steps", leaves(), False),
              ("verdict", "verdict", any_blob, False),
              ("commitments", "commitments", nested(Commitments), False),
              ("signatures", "signatures", leaves(), False))


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
    "por_root_of",
]
