"""Lean ``por.Bundle/1`` top-level map and its commitments (mirrors ``por.bundle.layout``).

The component order, leaves and ``por_root`` come from the one component spec
(:data:`por.container.POR_BUNDLE`, SPEC §5.5); this module re-exports them for
the fast path.
"""

from __future__ import annotations

from por.container import POR_BUNDLE, component_leaf
from por.encoding.spans import Spans
from por.lean.base import Check, Reject, Struct, any_blob, count, hash32, nested, schema_tag
from por.lean.limits import MAX_EVIDENCE_ITEMS

#: Component order in the por_root tree (SPEC §5.4), declared once in
#: :data:`por.container.POR_BUNDLE`.  Never reorder.
COMPONENTS: tuple[str, ...] = POR_BUNDLE.names


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


def component_leaves(c: object) -> list[bytes]:
    """The six component leaves of commitments ``c`` (lean or pydantic), in
    :data:`COMPONENTS` order (derived from :data:`~por.container.POR_BUNDLE`)."""
    return POR_BUNDLE.leaves(c)


def por_root_of(c: object) -> bytes:
    """``por_root``: the RFC 9162 root over the component leaves of ``c``."""
    return POR_BUNDLE.top_root(c)


__all__ = [
    "COMPONENTS",
    "DEFAULT_BUNDLE_MAX_SIZE",
    "Bundle",
    "Commitments",
    "component_leaf",
    "component_leaves",
    "por_root_of",
]
