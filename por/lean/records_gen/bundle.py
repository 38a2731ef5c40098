"""Lean records of the bundle domain, generated from the pydantic models: do not edit.

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

from por.encoding.spans import Spans
from por.lean.base import Struct, any_blob, count, hash32, nested, schema_tag
from por.lean.hooks import hash_leaves, leaves


class Commitments(Struct):
    """``por.bundle.layout.Commitments``."""

    __slots__ = (
        "evidence_count",
        "evidence_root",
        "forms_count",
        "forms_root",
        "manifest_hash",
        "por_root",
        "prompt_spec_hash",
        "reasoning_count",
        "reasoning_root",
        "trace_header_hash",
        "verdict_hash",
    )
    manifest_hash: bytes
    prompt_spec_hash: bytes
    evidence_root: bytes
    evidence_count: int
    trace_header_hash: bytes
    reasoning_root: bytes
    reasoning_count: int
    verdict_hash: bytes
    forms_root: bytes
    forms_count: int
    por_root: bytes
    FIELDS = (
        ("manifest_hash", "manifest_hash", hash32, False),
        ("prompt_spec_hash", "prompt_spec_hash", hash32, False),
        ("evidence_root", "evidence_root", hash32, False),
        ("evidence_count", "evidence_count", count, False),
        ("trace_header_hash", "trace_header_hash", hash32, False),
        ("reasoning_root", "reasoning_root", hash32, False),
        ("reasoning_count", "reasoning_count", count, False),
        ("verdict_hash", "verdict_hash", hash32, False),
        ("forms_root", "forms_root", hash32, False),
        ("forms_count", "forms_count", count, False),
        ("por_root", "por_root", hash32, False),
    )


class Bundle(Struct):
    """``por.bundle.layout.Bundle``."""

    __slots__ = (
        "commitments",
        "evidence",
        "forms",
        "manifest",
        "prompt_spec",
        "record_schema",
        "signatures",
        "steps",
        "trace_header",
        "verdict",
    )
    record_schema: str
    manifest: bytes
    prompt_spec: bytes
    evidence: Spans
    trace_header: bytes
    steps: Spans
    verdict: bytes
    forms: Spans
    commitments: Commitments
    signatures: Spans
    FIELDS = (
        schema_tag("por.Bundle/2"),
        ("manifest", "manifest", any_blob, False),
        ("prompt_spec", "prompt_spec", any_blob, False),
        ("evidence", "evidence", leaves(200_000), False),
        ("trace_header", "trace_header", any_blob, False),
        ("steps", "steps", leaves(), False),
        ("verdict", "verdict", any_blob, False),
        ("forms", "forms", hash_leaves(), False),
        ("commitments", "commitments", nested(Commitments), False),
        ("signatures", "signatures", leaves(), False),
    )


__all__ = [
    "Bundle",
    "Commitments",
]
