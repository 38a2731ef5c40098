"""EvidenceItem and EvidenceBundle (SPEC §4.4).

Evidence is committed as the raw bytes the collector received, with their
``content_type``; claims are extracted from those bytes deterministically, so a
bundle never depends on re-serialising a parsed response.
"""

from __future__ import annotations

import base64
from typing import Annotated, Any, ClassVar, Literal, Self

from pydantic import FailFast, Field, model_validator

from por.errors import SchemaError
from por.protocol.limits import MAX_CONTENT_BYTES, MAX_EVIDENCE_ITEMS  # one definition (issue 16)
from por.schemas.base import Blob, Bps, Id, Model, Record, UnixTime
from por.schemas.prompt import ContentType


class SourceRef(Model):
    """Where the evidence came from."""

    source_id: Id
    uri: str
    provider: str


class RetrievalReceipt(Model):
    """How it was retrieved.  ``retrieved_at`` is committed Unix time, given by
    the collector, never read from a clock by por."""

    retrieved_at: UnixTime
    method: Literal["GET", "POST"]
    status_code: Annotated[int, Field(ge=100, le=599)]


class EvidenceItem(Record):
    """One captured source response."""

    SCHEMA: ClassVar[str] = "por.EvidenceItem/1"
    ALL_REQUIRED: ClassVar[bool] = True

    record_schema: Literal["por.EvidenceItem/1"] = Field("por.EvidenceItem/1", alias="schema")
    evidence_id: Id
    requirement_id: Id
    source: SourceRef
    content_type: ContentType
    content: Annotated[Blob, Field(max_length=MAX_CONTENT_BYTES)]
    retrieval_receipt: RetrievalReceipt
    provenance_tier: Annotated[int, Field(ge=0, le=3)]
    confidence_bps: Bps

    @classmethod
    def from_lean(cls, item: Any) -> EvidenceItem:
        """The record of a lean ``por.lean.evidence.EvidenceItem``, without validating
        again: a lean item exists only where this model accepts the same value with
        equal attributes (``tests/unit/lean`` pins it), so the full verifier need not
        decode and validate an item the fast path already read (SPEC §17)."""
        source, receipt = item.source, item.retrieval_receipt
        record = cls.model_construct(
            evidence_id=item.evidence_id, requirement_id=item.requirement_id,
            source=SourceRef.model_construct(source_id=source.source_id, uri=source.uri,
                                             provider=source.provider),
            content_type=item.content_type, content=item.content,
            retrieval_receipt=RetrievalReceipt.model_construct(
                retrieved_at=receipt.retrieved_at, method=receipt.method,
                status_code=receipt.status_code),
            provenance_tier=item.provenance_tier, confidence_bps=item.confidence_bps)
        record._cbor = item.to_cbor()
        return record

    def _cbor_value(self) -> dict[str, Any]:
        # Equal to to_dict() (every field required; tests/unit/perf pins it),
        # without model_dump: build encodes every item once (issue 16).
        d = self.__dict__
        source = d["source"].__dict__
        receipt = d["retrieval_receipt"].__dict__
        return {"schema": d["record_schema"], "evidence_id": d["evidence_id"],
                "requirement_id": d["requirement_id"],
                "source": {"source_id": source["source_id"], "uri": source["uri"],
                           "provider": source["provider"]},
                "content_type": d["content_type"], "content": d["content"],
                "retrieval_receipt": {"retrieved_at": receipt["retrieved_at"],
                                      "method": receipt["method"],
                                      "status_code": receipt["status_code"]},
                "provenance_tier": d["provenance_tier"], "confidence_bps": d["confidence_bps"]}

    @classmethod
    def from_json_obj(cls, value: Any) -> Self:
        """JSON form; ``content_text`` (UTF-8 text) may stand in for base64 ``content``."""
        if isinstance(value, dict) and "content_text" in value:
            if "content" in value or not isinstance(value["content_text"], str):
                raise SchemaError("schema.value",
                                  "EvidenceItem: give exactly one of content, content_text "
                                  "(text)")
            value = dict(value)
            raw = value.pop("content_text").encode("utf-8")
            value["content"] = base64.b64encode(raw).decode("ascii")
        return super().from_json_obj(value)


class EvidenceBundle(Record):
    """The evidence for one market, in collector order (order is authoritative)."""

    SCHEMA: ClassVar[str] = "por.EvidenceBundle/1"

    record_schema: Literal["por.EvidenceBundle/1"] = Field("por.EvidenceBundle/1",
                                                           alias="schema")
    bundle_id: Id
    market_id: Id
    items: Annotated[list[EvidenceItem], FailFast(), Field(max_length=MAX_EVIDENCE_ITEMS)]

    @model_validator(mode="after")
    def _unique_ids(self) -> Self:
        ids = [i.evidence_id for i in self.items]
        if len(set(ids)) != len(ids):
            raise ValueError("evidence ids must be unique")
        return self

    @classmethod
    def from_json_obj(cls, value: Any) -> Self:
        """JSON form; items accept ``content_text`` as :class:`EvidenceItem` does."""
        if isinstance(value, dict) and isinstance(value.get("items"), list):
            items = [EvidenceItem.from_json_obj(i).to_json_obj() for i in value["items"]]
            value = {**value, "items": items}
        return super().from_json_obj(value)


__all__ = [
    "MAX_CONTENT_BYTES",
    "MAX_EVIDENCE_ITEMS",
    "EvidenceBundle",
    "EvidenceItem",
    "RetrievalReceipt",
    "SourceRef",
]
