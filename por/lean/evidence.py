"""Lean EvidenceItem (mirrors ``por.schemas.evidence``, SPEC §4.4)."""

from __future__ import annotations

from por.lean.base import (
    CborRecord,
    Struct,
    blob,
    bps,
    identifier,
    integer,
    literal,
    nested,
    schema_tag,
    shared_text,
    unix_time,
)
from por.lean.limits import MAX_CONTENT_BYTES, MAX_EVIDENCE_ITEMS, MAX_ID_LENGTH
from por.lean.prompt import CONTENT_TYPES

#: Ids that repeat across items (``Id``: 1..128 code points), one object each.
shared_id = shared_text(1, MAX_ID_LENGTH)


class SourceRef(Struct):
    __slots__ = ("provider", "source_id", "uri")
    source_id: str
    uri: str
    provider: str
    FIELDS = (("source_id", "source_id", shared_id, False),
              ("uri", "uri", shared_text(), False),
              ("provider", "provider", shared_text(), False))


class RetrievalReceipt(Struct):
    __slots__ = ("method", "retrieved_at", "status_code")
    retrieved_at: int
    method: str
    status_code: int
    FIELDS = (("retrieved_at", "retrieved_at", unix_time, False),
              ("method", "method", literal("GET", "POST"), False),
              ("status_code", "status_code", integer(100, 599), False))


class EvidenceItem(CborRecord):
    """``por.EvidenceItem/1``; :meth:`to_cbor` gives back the bytes it was read from."""

    __slots__ = ("confidence_bps", "content", "content_type", "evidence_id",
                 "provenance_tier", "record_schema", "requirement_id", "retrieval_receipt",
                 "source")
    record_schema: str
    evidence_id: str
    requirement_id: str
    source: SourceRef
    content_type: str
    content: bytes
    retrieval_receipt: RetrievalReceipt
    provenance_tier: int
    confidence_bps: int
    FIELDS = (schema_tag("por.EvidenceItem/1"),
              ("evidence_id", "evidence_id", identifier, False),
              ("requirement_id", "requirement_id", shared_id, False),
              ("source", "source", nested(SourceRef), False),
              ("content_type", "content_type", literal(*CONTENT_TYPES), False),
              ("content", "content", blob(0, MAX_CONTENT_BYTES), False),
              ("retrieval_receipt", "retrieval_receipt", nested(RetrievalReceipt), False),
              ("provenance_tier", "provenance_tier", integer(0, 3), False),
              ("confidence_bps", "confidence_bps", bps, False))


class Evidence:
    """What the auditor and judge read of an EvidenceBundle: items and market id."""

    __slots__ = ("items", "market_id")

    def __init__(self, market_id: str, items: list[EvidenceItem]) -> None:
        self.market_id = market_id
        self.items = items


__all__ = [
    "MAX_CONTENT_BYTES",
    "MAX_EVIDENCE_ITEMS",
    "Evidence",
    "EvidenceItem",
    "RetrievalReceipt",
    "SourceRef",
]
