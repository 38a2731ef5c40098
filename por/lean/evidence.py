"""Lean EvidenceItem (mirrors ``por.schemas.evidence``, SPEC §4.4)."""

from __future__ import annotations

from typing import Any

from por.lean.base import (
    CborRecord,
    Reject,
    Struct,
    blob,
    identifier,
    integer,
    interned,
    literal,
    packed,
    schema_tag,
    shared_integer,
    shared_text,
    unix_time,
    unpacked,
)
from por.lean.limits import MAX_CONTENT_BYTES, MAX_EVIDENCE_ITEMS, MAX_ID_LENGTH
from por.lean.prompt import CONTENT_TYPES

#: Ids that repeat across items (``Id``: 1..128 code points), one object each.
shared_id = shared_text(1, MAX_ID_LENGTH)
#: Confidences (``Bps``: 0..10 000) repeat across items too.
shared_bps = shared_integer(0, 10_000)


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


def _body(value: Any) -> bytes | slice:
    """An evidence body of at most ``MAX_CONTENT_BYTES``: bytes, or its span in the
    record it was read from (``decode(..., map_slices_at=1)``)."""
    if type(value) is slice:
        if value.stop - value.start > MAX_CONTENT_BYTES:
            raise Reject("content")
        return value
    return _BYTES(value)  # type: ignore[no-any-return]


_BYTES = blob(0, MAX_CONTENT_BYTES)


class EvidenceItem(CborRecord):
    """``por.EvidenceItem/1``; :meth:`to_cbor` gives back the bytes it was read from.

    Read from a bundle (:meth:`from_value` with a span), the body stays in the
    bundle's bytes, its span packed in one int (32 bytes, where a copy costs 33
    plus its length): ``content`` slices it out when the auditor reads it, so a
    verifier holds evidence bodies once (issue 16)."""

    __slots__ = ("_content", "confidence_bps", "content_type", "evidence_id",
                 "provenance_tier", "record_schema", "requirement_id", "retrieval_receipt",
                 "source")
    record_schema: str
    evidence_id: str
    requirement_id: str
    source: SourceRef
    content_type: str
    _content: bytes | int  # the body, or packed(start, stop) of it in _cbor
    retrieval_receipt: RetrievalReceipt
    provenance_tier: int
    confidence_bps: int
    FIELDS = (schema_tag("por.EvidenceItem/1"),
              ("evidence_id", "evidence_id", identifier, False),
              ("requirement_id", "requirement_id", shared_id, False),
              ("source", "source", interned(SourceRef), False),
              ("content_type", "content_type", literal(*CONTENT_TYPES), False),
              ("content", "_content", _body, False),
              ("retrieval_receipt", "retrieval_receipt", interned(RetrievalReceipt),
               False),
              ("provenance_tier", "provenance_tier", integer(0, 3), False),
              ("confidence_bps", "confidence_bps", shared_bps, False))

    @classmethod
    def from_value(cls, value: Any, data: bytes, span: slice | None = None) -> Any:
        """As :meth:`CborRecord.from_value`; a body read as a span of the record
        (``data[span]``) is kept as a span of ``data``."""
        item = super().from_value(value, data, span)
        body = item._content
        if type(body) is slice:
            if span is None:
                raise Reject("a body span needs the record's span")
            object.__setattr__(item, "_content",
                               packed(span.start + body.start, span.start + body.stop))
        return item

    @property
    def content(self) -> bytes:
        """The evidence body (SPEC §4.4)."""
        body = self._content
        return body if isinstance(body, bytes) else unpacked(self._cbor, body)


class Evidence:
    """What the auditor and judge read of an EvidenceBundle: items and market id.

    ``root``: the evidence root, when the caller has already checked it against
    these items' bytes (the fast path, which hashes them in place), so the judge
    need not copy and hash them again (``judge.deterministic_mapping.evidence_root_of``)."""

    __slots__ = ("items", "market_id", "root")

    def __init__(self, market_id: str, items: list[EvidenceItem],
                 root: bytes | None = None) -> None:
        self.market_id = market_id
        self.items = items
        self.root = root


__all__ = [
    "MAX_CONTENT_BYTES",
    "MAX_EVIDENCE_ITEMS",
    "Evidence",
    "EvidenceItem",
    "RetrievalReceipt",
    "SourceRef",
]
