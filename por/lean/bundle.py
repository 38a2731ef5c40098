"""Lean ``por.Bundle/1`` top-level map and its commitments (mirrors ``por.bundle.layout``)."""

from __future__ import annotations

from por.lean.base import Struct, any_blob, count, hash32, list_of, nested, schema_tag

#: ``por.schemas.evidence.MAX_EVIDENCE_ITEMS`` (SPEC §5.1).
MAX_EVIDENCE_ITEMS = 200_000


class Commitments(Struct):
    __slots__ = ("evidence_count", "evidence_root", "manifest_hash", "por_root",
                 "prompt_spec_hash", "reasoning_count", "reasoning_root", "trace_header_hash",
                 "verdict_hash")
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
    """The whole bundle: records as canonical bytes, commitments, signatures."""

    __slots__ = ("commitments", "evidence", "manifest", "prompt_spec", "record_schema",
                 "signatures", "steps", "trace_header", "verdict")
    FIELDS = (schema_tag("por.Bundle/1"),
              ("manifest", "manifest", any_blob, False),
              ("prompt_spec", "prompt_spec", any_blob, False),
              ("evidence", "evidence", list_of(any_blob, 0, MAX_EVIDENCE_ITEMS), False),
              ("trace_header", "trace_header", any_blob, False),
              ("steps", "steps", list_of(any_blob), False),
              ("verdict", "verdict", any_blob, False),
              ("commitments", "commitments", nested(Commitments), False),
              ("signatures", "signatures", list_of(any_blob), False))


__all__ = ["Bundle", "Commitments"]
