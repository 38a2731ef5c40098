"""Lean records of the evidence domain, generated from the pydantic models: do not edit.

Written by ``python -m por.lean.generate`` (issue 21) from the models its table
``DOMAINS`` names (``por.schemas``, ``por.bundle.layout``): the model is the one
place a record's fields, types and bounds are declared; the table chooses the
fast path's helpers for speed and memory, and :mod:`por.lean.hooks` holds the
hand-written cross-field rules and span handling.  To change a record, change
its model (or the table) and run the generator again;
``tests/unit/lean/test_lean_generated.py`` fails while this file differs from
what the generator writes.
"""

from __future__ import annotations

from por.lean.base import (
    Struct,
    identifier,
    integer,
    interned,
    literal,
    schema_tag,
    shared_integer,
    shared_text,
    unix_time,
)
from por.lean.hooks import SpannedContent, spanned_blob

CONTENT_TYPES = ("application/json", "text/html", "text/plain", "text/csv")

#: One object per distinct value, one cache for every field that names it.
shared_bps = shared_integer(0, 10_000)
shared_id = shared_text(1, 128)


class SourceRef(Struct):
    """``por.schemas.evidence.SourceRef``."""

    __slots__ = ("provider", "source_id", "uri")
    source_id: str
    uri: str
    provider: str
    FIELDS = (
        ("source_id", "source_id", shared_id, False),
        ("uri", "uri", shared_text(), False),
        ("provider", "provider", shared_text(), False),
    )


class RetrievalReceipt(Struct):
    """``por.schemas.evidence.RetrievalReceipt``."""

    __slots__ = ("method", "retrieved_at", "status_code")
    retrieved_at: int
    method: str
    status_code: int
    FIELDS = (
        ("retrieved_at", "retrieved_at", unix_time, False),
        ("method", "method", literal("GET", "POST"), False),
        ("status_code", "status_code", integer(100, 599), False),
    )


class EvidenceItem(SpannedContent):
    """``por.schemas.evidence.EvidenceItem``.

    :meth:`to_cbor` gives back the bytes it was read from.
    """

    __slots__ = (
        "_content",
        "confidence_bps",
        "content_type",
        "evidence_id",
        "provenance_tier",
        "record_schema",
        "requirement_id",
        "retrieval_receipt",
        "source",
    )
    record_schema: str
    evidence_id: str
    requirement_id: str
    source: SourceRef
    content_type: str
    _content: bytes | int
    retrieval_receipt: RetrievalReceipt
    provenance_tier: int
    confidence_bps: int
    FIELDS = (
        schema_tag("por.EvidenceItem/1"),
        ("evidence_id", "evidence_id", identifier, False),
        ("requirement_id", "requirement_id", shared_id, False),
        ("source", "source", interned(SourceRef), False),
        ("content_type", "content_type", literal(*CONTENT_TYPES), False),
        ("content", "_content", spanned_blob(0, 4_194_304), False),
        ("retrieval_receipt", "retrieval_receipt", interned(RetrievalReceipt), False),
        ("provenance_tier", "provenance_tier", integer(0, 3), False),
        ("confidence_bps", "confidence_bps", shared_bps, False),
    )


__all__ = [
    "CONTENT_TYPES",
    "EvidenceItem",
    "RetrievalReceipt",
    "SourceRef",
]
