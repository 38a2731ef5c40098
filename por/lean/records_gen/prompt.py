"""Lean records of the prompt domain, generated from the pydantic models: do not edit.

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
    CborRecord,
    Struct,
    any_text,
    boolean,
    bps,
    count,
    decimal_text,
    identifier,
    integer,
    list_of,
    literal,
    nested,
    schema_tag,
    text,
    unix_time,
)
from por.lean.hooks import (
    conflict_non_negative,
    field_has_locator,
    market_sources_sorted,
    number_format_marks,
    prediction_threshold,
    prompt_unique_requirements,
    requirement_unique,
    resolution_rules_sorted_unique,
    resolution_window_ordered,
    selection_quorum,
)

COMPARISONS = (">", ">=", "<", "<=", "==")
PREDICATES = (
    "event_observed",
    "numeric_threshold",
    "numeric_range",
    "field_comparison",
    "text_equals",
    "timestamp_threshold",
)
FIELD_KINDS = ("boolean", "numeric", "timestamp", "text")
CONTENT_TYPES = ("application/json", "text/html", "text/plain", "text/csv")


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


class NumberFormat(Struct):
    """``por.schemas.prompt.NumberFormat``."""

    __slots__ = (
        "accounting_negative",
        "currency",
        "decimal_mark",
        "fractions",
        "group_separator",
        "percent",
        "scale_suffixes",
    )
    group_separator: str | None
    decimal_mark: str | None
    percent: str | None
    scale_suffixes: bool | None
    currency: str | None
    accounting_negative: bool | None
    fractions: bool | None
    FIELDS = (
        ("group_separator", "group_separator",
         literal(",", ".", " ", "\u2009", "\u202f", "'", "_"), True),
        ("decimal_mark", "decimal_mark", literal(".", ","), True),
        ("percent", "percent", literal("points", "fraction"), True),
        ("scale_suffixes", "scale_suffixes", boolean, True),
        ("currency", "currency", text(1, 8), True),
        ("accounting_negative", "accounting_negative", boolean, True),
        ("fractions", "fractions", boolean, True),
    )
    _invariants = number_format_marks


class ValueMapEntry(Struct):
    """``por.schemas.prompt.ValueMapEntry``."""

    __slots__ = ("printed", "value")
    printed: str
    value: str
    FIELDS = (
        ("printed", "printed", text(0, 256), False),
        ("value", "value", text(0, 256), False),
    )


class ValueMap(Struct):
    """``por.schemas.prompt.ValueMap``."""

    __slots__ = ("entries", "normalise", "others")
    normalise: str
    entries: list[ValueMapEntry]
    others: str
    FIELDS = (
        ("normalise", "normalise", literal("none", "trim", "trim_casefold"), False),
        ("entries", "entries", list_of(nested(ValueMapEntry), 1, 64), False),
        ("others", "others", literal("convert", "refuse"), False),
    )


class SourceLocator(Struct):
    """``por.schemas.prompt.SourceLocator``."""

    __slots__ = ("json_path", "regex", "source_id")
    source_id: str
    json_path: str | None
    regex: str | None
    FIELDS = (
        ("source_id", "source_id", identifier, False),
        ("json_path", "json_path", text(0, 256), True),
        ("regex", "regex", text(0, 256), True),
    )


class FieldSpec(Struct):
    """``por.schemas.prompt.FieldSpec``."""

    __slots__ = (
        "json_path",
        "key",
        "kind",
        "number_format",
        "per_source",
        "regex",
        "time_format",
        "value_map",
    )
    key: str
    kind: str
    json_path: str | None
    regex: str | None
    number_format: NumberFormat | None
    value_map: ValueMap | None
    time_format: str | None
    per_source: list[SourceLocator] | None
    FIELDS = (
        ("key", "key", identifier, False),
        ("kind", "kind", literal(*FIELD_KINDS), False),
        ("json_path", "json_path", text(0, 256), True),
        ("regex", "regex", text(0, 256), True),
        ("number_format", "number_format", nested(NumberFormat), True),
        ("value_map", "value_map", nested(ValueMap), True),
        ("time_format", "time_format",
         literal("unix_seconds", "unix_millis", "rfc3339", "rfc3339_or_date"), True),
        ("per_source", "per_source", list_of(nested(SourceLocator), 1, 64), True),
    )
    _invariants = field_has_locator


class DataRequirement(Struct):
    """``por.schemas.prompt.DataRequirement``."""

    __slots__ = (
        "accepted_status_codes",
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
    accepted_status_codes: list[int] | None
    FIELDS = (
        ("requirement_id", "requirement_id", identifier, False),
        ("description", "description", any_text, False),
        ("source_targets", "source_targets", list_of(nested(SourceTarget), 1, 10), False),
        ("selection_policy", "selection_policy", nested(SelectionPolicy), False),
        ("expected_fields", "expected_fields", list_of(nested(FieldSpec), 0, 8), False),
        ("min_provenance_tier", "min_provenance_tier", integer(0, 3), False),
        ("accepted_status_codes", "accepted_status_codes", list_of(integer(100, 599), 1, 16), True),
    )
    _invariants = requirement_unique


class Term(Struct):
    """``por.schemas.prompt.Term``."""

    __slots__ = ("metric", "op")
    op: str
    metric: str
    FIELDS = (
        ("op", "op", literal("+", "-"), False),
        ("metric", "metric", identifier, False),
    )


class Precondition(Struct):
    """``por.schemas.prompt.Precondition``."""

    __slots__ = ("equals", "key", "otherwise")
    key: str
    equals: str
    otherwise: str
    FIELDS = (
        ("key", "key", identifier, False),
        ("equals", "equals", text(0, 256), False),
        ("otherwise", "otherwise", literal("INVALID", "NO"), False),
    )


class PredictionSemantics(Struct):
    """``por.schemas.prompt.PredictionSemantics``."""

    __slots__ = (
        "absent_means_no",
        "comparison",
        "expected_text",
        "lower",
        "lower_inclusive",
        "metric",
        "other_metric",
        "preconditions",
        "predicate",
        "sources_required",
        "target_entity",
        "terms",
        "threshold",
        "unit",
        "upper",
        "upper_inclusive",
    )
    target_entity: str
    predicate: str
    metric: str
    comparison: str | None
    threshold: str | None
    unit: str | None
    terms: list[Term] | None
    lower: str | None
    upper: str | None
    lower_inclusive: bool | None
    upper_inclusive: bool | None
    other_metric: str | None
    expected_text: str | None
    absent_means_no: bool | None
    sources_required: int | None
    preconditions: list[Precondition] | None
    FIELDS = (
        ("target_entity", "target_entity", any_text, False),
        ("predicate", "predicate", literal(*PREDICATES), False),
        ("metric", "metric", identifier, False),
        ("comparison", "comparison", literal(*COMPARISONS), True),
        ("threshold", "threshold", decimal_text, True),
        ("unit", "unit", any_text, True),
        ("terms", "terms", list_of(nested(Term), 1, 8), True),
        ("lower", "lower", decimal_text, True),
        ("upper", "upper", decimal_text, True),
        ("lower_inclusive", "lower_inclusive", boolean, True),
        ("upper_inclusive", "upper_inclusive", boolean, True),
        ("other_metric", "other_metric", identifier, True),
        ("expected_text", "expected_text", text(0, 256), True),
        ("absent_means_no", "absent_means_no", boolean, True),
        ("sources_required", "sources_required", integer(1, 64), True),
        ("preconditions", "preconditions", list_of(nested(Precondition), 1, 8), True),
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
        ("data_requirements", "data_requirements", list_of(nested(DataRequirement), 1, 8), False),
        ("output_schema_ref", "output_schema_ref", any_text, False),
        ("strict_mode", "strict_mode", boolean, False),
        ("confidence_policy", "confidence_policy", nested(ConfidencePolicy), False),
        ("conflict_policy", "conflict_policy", nested(ConflictPolicy), False),
        ("timestamp_slack_seconds", "timestamp_slack_seconds", count, False),
    )
    _invariants = prompt_unique_requirements


__all__ = [
    "COMPARISONS",
    "CONTENT_TYPES",
    "FIELD_KINDS",
    "PREDICATES",
    "ConfidencePolicy",
    "ConflictPolicy",
    "DataRequirement",
    "DisputePolicy",
    "FieldSpec",
    "MarketSpec",
    "NumberFormat",
    "Precondition",
    "PredictionSemantics",
    "PromptSpec",
    "ResolutionRule",
    "ResolutionRules",
    "ResolutionWindow",
    "SelectionPolicy",
    "SourceLocator",
    "SourceTarget",
    "Term",
    "ValueMap",
    "ValueMapEntry",
]
