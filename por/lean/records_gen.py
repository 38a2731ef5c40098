"""Lean records generated from the pydantic models: do not edit (issue 21).

Written by ``python -m por.lean.generate`` from the models its table ``LEAN``
names (``por.schemas``, ``por.bundle.layout``): the model is the one place a
record's fields, types and bounds are declared; the table chooses the fast
path's helpers for speed and memory, and :mod:`por.lean.hooks` holds the
hand-written cross-field rules and span handling.  To change a record, change
its model (or the table) and run the generator again;
``tests/unit/lean/test_lean_generated.py`` fails while this file differs from
what the generator writes.
"""

from __future__ import annotations

from por.encoding.spans import Spans
from por.lean.base import (
    CborRecord,
    Struct,
    any_blob,
    any_text,
    boolean,
    bps,
    count,
    decimal_text,
    hash32,
    identifier,
    integer,
    interned,
    list_of,
    literal,
    nested,
    schema_tag,
    shared_integer,
    shared_text,
    text,
    unix_time,
)
from por.lean.hooks import (
    SpannedContent,
    conflict_non_negative,
    field_has_locator,
    leaves,
    market_sources_sorted,
    prediction_threshold,
    prompt_unique_requirements,
    requirement_unique,
    resolution_rules_sorted_unique,
    resolution_window_ordered,
    selection_quorum,
    spanned_blob,
)

COMPARISONS = (">", ">=", "<", "<=", "==")
FIELD_KINDS = ("boolean", "numeric", "timestamp", "text")
CONTENT_TYPES = ("application/json", "text/html", "text/plain")

#: One object per distinct value, one cache for every field that names it.
shared_bps = shared_integer(0, 10_000)
shared_id = shared_text(1, 128)


class ResolutionWindow(Struct):
    """``por.schemas.market.ResolutionWindow``."""

    __slots__ = ("end", "start")
    start: int
    end: int
    FIELDS = (
        ("start", "start", unix_time, False),
        ("end", "end", unix_time, False),
    )
    _invariants = resolution_window_ordered


class ResolutionRule(Struct):
    """``por.schemas.market.ResolutionRule``."""

    __slots__ = ("description", "priority", "rule_id")
    rule_id: str
    description: str
    priority: int
    FIELDS = (
        ("rule_id", "rule_id", identifier, False),
        ("description", "description", any_text, False),
        ("priority", "priority", count, False),
    )


class ResolutionRules(Struct):
    """``por.schemas.market.ResolutionRules``."""

    __slots__ = ("rules",)
    rules: list[ResolutionRule]
    FIELDS = (
        ("rules", "rules", list_of(nested(ResolutionRule), 1, 64), False),
    )
    _invariants = resolution_rules_sorted_unique


class DisputePolicy(Struct):
    """``por.schemas.market.DisputePolicy``."""

    __slots__ = ("challengers", "dispute_window_seconds")
    dispute_window_seconds: int
    challengers: str
    FIELDS = (
        ("dispute_window_seconds", "dispute_window_seconds", count, False),
        ("challengers", "challengers", literal("anyone", "bonded"), False),
    )


class MarketSpec(Struct):
    """``por.schemas.market.MarketSpec``."""

    __slots__ = (
        "allowed_sources",
        "dispute_policy",
        "event_definition",
        "market_id",
        "question",
        "resolution_rules",
        "resolution_window",
    )
    market_id: str
    question: str
    event_definition: str
    resolution_window: ResolutionWindow
    resolution_rules: ResolutionRules
    allowed_sources: list[str]
    dispute_policy: DisputePolicy
    FIELDS = (
        ("market_id", "market_id", identifier, False),
        ("question", "question", any_text, False),
        ("event_definition", "event_definition", any_text, False),
        ("resolution_window", "resolution_window", nested(ResolutionWindow), False),
        ("resolution_rules", "resolution_rules", nested(ResolutionRules), False),
        ("allowed_sources", "allowed_sources", list_of(identifier, 0, 256), False),
        ("dispute_policy", "dispute_policy", nested(DisputePolicy), False),
    )
    _invariants = market_sources_sorted


class SourceTarget(Struct):
    """``por.schemas.prompt.SourceTarget``."""

    __slots__ = ("expected_content_type", "method", "source_id", "uri")
    source_id: str
    uri: str
    method: str
    expected_content_type: str
    FIELDS = (
        ("source_id", "source_id", identifier, False),
        ("uri", "uri", any_text, False),
        ("method", "method", literal("GET", "POST"), False),
        ("expected_content_type", "expected_content_type", literal(*CONTENT_TYPES), False),
    )


class SelectionPolicy(Struct):
    """``por.schemas.prompt.SelectionPolicy``."""

    __slots__ = ("min_sources", "quorum", "strategy", "tie_breaker")
    strategy: str
    min_sources: int
    quorum: int
    tie_breaker: str
    FIELDS = (
        ("strategy", "strategy",
         literal("single_best", "multi_source_quorum", "fallback_chain"), False),
        ("min_sources", "min_sources", integer(1, 64), False),
        ("quorum", "quorum", integer(1, 64), False),
        ("tie_breaker", "tie_breaker", literal("highest_provenance", "source_order"), False),
    )
    _invariants = selection_quorum


class FieldSpec(Struct):
    """``por.schemas.prompt.FieldSpec``."""

    __slots__ = ("json_path", "key", "kind", "regex")
    key: str
    kind: str
    json_path: str | None
    regex: str | None
    FIELDS = (
        ("key", "key", identifier, False),
        ("kind", "kind", literal(*FIELD_KINDS), False),
        ("json_path", "json_path", text(0, 256), True),
        ("regex", "regex", text(0, 256), True),
    )
    _invariants = field_has_locator


class DataRequirement(Struct):
    """``por.schemas.prompt.DataRequirement``."""

    __slots__ = (
        "description",
        "expected_fields",
        "min_provenance_tier",
        "requirement_id",
        "selection_policy",
        "source_targets",
    )
    requirement_id: str
    description: str
    source_targets: list[SourceTarget]
    selection_policy: SelectionPolicy
    expected_fields: list[FieldSpec]
    min_provenance_tier: int
    FIELDS = (
        ("requirement_id", "requirement_id", identifier, False),
        ("description", "description", any_text, False),
        ("source_targets", "source_targets", list_of(nested(SourceTarget), 1, 64), False),
        ("selection_policy", "selection_policy", nested(SelectionPolicy), False),
        ("expected_fields", "expected_fields", list_of(nested(FieldSpec), 0, 64), False),
        ("min_provenance_tier", "min_provenance_tier", integer(0, 3), False),
    )
    _invariants = requirement_unique


class PredictionSemantics(Struct):
    """``por.schemas.prompt.PredictionSemantics``."""

    __slots__ = ("comparison", "metric", "predicate", "target_entity", "threshold", "unit")
    target_entity: str
    predicate: str
    metric: str
    comparison: str | None
    threshold: str | None
    unit: str | None
    FIELDS = (
        ("target_entity", "target_entity", any_text, False),
        ("predicate", "predicate", literal("event_observed", "numeric_threshold"), False),
        ("metric", "metric", identifier, False),
        ("comparison", "comparison", literal(*COMPARISONS), True),
        ("threshold", "threshold", decimal_text, True),
        ("unit", "unit", any_text, True),
    )
    _invariants = prediction_threshold


class ConfidencePolicy(Struct):
    """``por.schemas.prompt.ConfidencePolicy``."""

    __slots__ = (
        "conflict_factor_bps",
        "default_confidence_bps",
        "fallback_factor_bps",
        "invalid_confidence_bps",
        "min_confidence_for_yesno_bps",
    )
    default_confidence_bps: int
    min_confidence_for_yesno_bps: int
    conflict_factor_bps: int
    fallback_factor_bps: int
    invalid_confidence_bps: int
    FIELDS = (
        ("default_confidence_bps", "default_confidence_bps", bps, False),
        ("min_confidence_for_yesno_bps", "min_confidence_for_yesno_bps", bps, False),
        ("conflict_factor_bps", "conflict_factor_bps", bps, False),
        ("fallback_factor_bps", "fallback_factor_bps", bps, False),
        ("invalid_confidence_bps", "invalid_confidence_bps", bps, False),
    )


class ConflictPolicy(Struct):
    """``por.schemas.prompt.ConflictPolicy``."""

    __slots__ = ("numeric_tolerance", "on_conflict")
    on_conflict: str
    numeric_tolerance: str
    FIELDS = (
        ("on_conflict", "on_conflict", literal("invalid", "continue"), False),
        ("numeric_tolerance", "numeric_tolerance", decimal_text, False),
    )
    _invariants = conflict_non_negative


class PromptSpec(CborRecord):
    """``por.schemas.prompt.PromptSpec``.

    :meth:`to_cbor` gives back the bytes it was read from.
    """

    __slots__ = (
        "confidence_policy",
        "conflict_policy",
        "data_requirements",
        "market",
        "output_schema_ref",
        "prediction_semantics",
        "record_schema",
        "strict_mode",
        "timestamp_slack_seconds",
    )
    record_schema: str
    market: MarketSpec
    prediction_semantics: PredictionSemantics
    data_requirements: list[DataRequirement]
    output_schema_ref: str
    strict_mode: bool
    confidence_policy: ConfidencePolicy
    conflict_policy: ConflictPolicy
    timestamp_slack_seconds: int
    FIELDS = (
        schema_tag("por.PromptSpec/1"),
        ("market", "market", nested(MarketSpec), False),
        ("prediction_semantics", "prediction_semantics", nested(PredictionSemantics), False),
        ("data_requirements", "data_requirements", list_of(nested(DataRequirement), 1, 64), False),
        ("output_schema_ref", "output_schema_ref", any_text, False),
        ("strict_mode", "strict_mode", boolean, False),
        ("confidence_policy", "confidence_policy", nested(ConfidencePolicy), False),
        ("conflict_policy", "conflict_policy", nested(ConflictPolicy), False),
        ("timestamp_slack_seconds", "timestamp_slack_seconds", count, False),
    )
    _invariants = prompt_unique_requirements


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


class Commitments(Struct):
    """``por.bundle.layout.Commitments``."""

    __slots__ = (
        "evidence_count",
        "evidence_root",
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
        ("por_root", "por_root", hash32, False),
    )


class Bundle(Struct):
    """``por.bundle.layout.Bundle``."""

    __slots__ = (
        "commitments",
        "evidence",
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
    commitments: Commitments
    signatures: Spans
    FIELDS = (
        schema_tag("por.Bundle/1"),
        ("manifest", "manifest", any_blob, False),
        ("prompt_spec", "prompt_spec", any_blob, False),
        ("evidence", "evidence", leaves(200_000), False),
        ("trace_header", "trace_header", any_blob, False),
        ("steps", "steps", leaves(), False),
        ("verdict", "verdict", any_blob, False),
        ("commitments", "commitments", nested(Commitments), False),
        ("signatures", "signatures", leaves(), False),
    )


__all__ = [
    "COMPARISONS",
    "CONTENT_TYPES",
    "FIELD_KINDS",
    "Bundle",
    "Commitments",
    "ConfidencePolicy",
    "ConflictPolicy",
    "DataRequirement",
    "DisputePolicy",
    "EvidenceItem",
    "FieldSpec",
    "MarketSpec",
    "PredictionSemantics",
    "PromptSpec",
    "ResolutionRule",
    "ResolutionRules",
    "ResolutionWindow",
    "RetrievalReceipt",
    "SelectionPolicy",
    "SourceRef",
    "SourceTarget",
]
