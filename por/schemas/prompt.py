"""PromptSpec and DataRequirement (SPEC §4.3): a market compiled for the pipeline.

Where the public original kept confidence and conflict policy in a free
``extra`` dict, they are typed fields here; every field can change the verdict
and is committed.
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal, Self

from pydantic import Field, ValidationInfo, model_validator

from por.fieldspec_rules import fieldspec_problem
from por.predicates.rules import semantics_problem
from por.protocol.limits import (  # one definition (issues 16, 21)
    MAX_EXPECTED_FIELDS,
    MAX_PROMPT_SPEC_BYTES,
    MAX_REQUIREMENTS,
    MAX_SOURCE_TARGETS,
    MAX_SPEC_EXPECTED_FIELDS,
    VERDICT_SCHEMA_REF,
    FieldKind,
)
from por.schemas.base import Bps, Count, DecimalStr, Id, Model, Record, canonical_size
from por.schemas.market import MarketSpec

Comparison = Literal[">", ">=", "<", "<=", "=="]
ContentType = Literal["application/json", "text/html", "text/plain", "text/csv"]
#: Thousands separators a source may print (SPEC §12.1.5): comma, full stop,
#: space, U+2009 thin space, U+202F narrow no-break space, apostrophe, underscore.
GroupSeparator = Literal[",", ".", " ", "\u2009", "\u202f", "'", "_"]
Locator = Annotated[str, Field(max_length=256)]


class SourceTarget(Model):
    """A source a collector is told to query."""

    source_id: Id
    uri: str
    method: Literal["GET", "POST"] = "GET"
    expected_content_type: ContentType


class SelectionPolicy(Model):
    """How the auditor reconciles several sources for one requirement (SPEC §6.3)."""

    strategy: Literal["single_best", "multi_source_quorum", "fallback_chain"]
    min_sources: Annotated[int, Field(ge=1, le=64)] = 1
    quorum: Annotated[int, Field(ge=1, le=64)] = 1
    tie_breaker: Literal["highest_provenance", "source_order"] = "source_order"

    @model_validator(mode="after")
    def _quorum(self) -> Self:
        if self.quorum > self.min_sources and self.strategy == "multi_source_quorum":
            raise ValueError("quorum exceeds min_sources")
        return self


class NumberFormat(Model):
    """How a source prints a number (SPEC §12.1.5); every part is declared, none guessed.

    ``percent``: ``points`` reads ``52.4%`` as ``52.4``, ``fraction`` as
    ``0.524``; absent, ``%`` is refused.  ``currency``: a text that may stand
    before the number (after an optional sign) or after it (``$``, ``USD``).
    """

    group_separator: GroupSeparator | None = None
    decimal_mark: Literal[".", ","] | None = None
    percent: Literal["points", "fraction"] | None = None
    scale_suffixes: bool | None = None
    currency: Annotated[str, Field(min_length=1, max_length=8)] | None = None
    accounting_negative: bool | None = None
    fractions: bool | None = None

    @model_validator(mode="after")
    def _distinct_marks(self) -> Self:
        if self.group_separator is not None and self.group_separator == (
                self.decimal_mark or "."):
            raise ValueError("group_separator and decimal_mark must differ")
        return self


class ValueMapEntry(Model):
    """One text a source prints and the value it means, spelt as the field's
    kind commits it (``true``/``false``, a canonical decimal, Unix seconds, a text)."""

    printed: Annotated[str, Field(max_length=256)]
    value: Annotated[str, Field(max_length=256)]


class ValueMap(Model):
    """Texts mapped to values (SPEC §12.1.5): exact code-point match after ``normalise``."""

    normalise: Literal["none", "trim", "trim_casefold"]
    entries: Annotated[list[ValueMapEntry], Field(min_length=1, max_length=64)]
    others: Literal["convert", "refuse"]


class SourceLocator(Model):
    """The locator one source needs when sources publish different shapes (SPEC §12.1.8)."""

    source_id: Id
    json_path: Locator | None = None
    regex: Locator | None = None


class FieldSpec(Model):
    """One field to extract: a semantic key, its kind, and how to find it.

    JSON and CSV evidence use ``json_path`` (dotted keys, ``[n]`` indexes,
    ``['odds.home']`` quoted names and ``[?(@.name=="text")]``, ``[?(@.id==42)]``,
    ``[?(@.final==true)]`` filters after an optional ``$.``, SPEC §12.1.7);
    text and HTML evidence use ``regex`` whose first capture group is the
    value (SPEC §6.1).  ``per_source`` overrides both for named sources.
    ``number_format``, ``value_map`` and ``time_format`` say how the source
    prints the value (SPEC §12.1.5); all are omitted when absent.
    """

    key: Id
    kind: FieldKind
    json_path: Locator | None = None
    regex: Locator | None = None
    number_format: NumberFormat | None = None
    value_map: ValueMap | None = None
    time_format: Literal["unix_seconds", "unix_millis", "rfc3339",
                         "rfc3339_or_date"] | None = None
    per_source: Annotated[list[SourceLocator], Field(min_length=1, max_length=64)] | None = None

    @model_validator(mode="after")
    def _has_locator(self) -> Self:
        problem = fieldspec_problem(self)  # one statement for both records (issue 21)
        if problem is not None:
            raise ValueError(problem[1])
        return self


class DataRequirement(Model):
    """Evidence the market needs: where to get it and what to extract from it."""

    requirement_id: Id
    description: str
    source_targets: Annotated[list[SourceTarget],
                              Field(min_length=1, max_length=MAX_SOURCE_TARGETS)]
    selection_policy: SelectionPolicy
    expected_fields: Annotated[list[FieldSpec], Field(max_length=MAX_EXPECTED_FIELDS)]
    min_provenance_tier: Annotated[int, Field(ge=0, le=3)] = 0
    #: HTTP statuses whose bodies count as evidence (SPEC §12.2); absent: 200..299.
    accepted_status_codes: Annotated[list[Annotated[int, Field(ge=100, le=599)]],
                                     Field(min_length=1, max_length=16)] | None = None

    @model_validator(mode="after")
    def _unique(self) -> Self:
        ids = [t.source_id for t in self.source_targets]
        if len(set(ids)) != len(ids):
            raise ValueError("source_targets ids must be unique")
        keys = [f.key for f in self.expected_fields]
        if len(set(keys)) != len(keys):
            raise ValueError("expected_fields keys must be unique")
        codes = self.accepted_status_codes
        if codes is not None and codes != sorted(set(codes)):
            raise ValueError("accepted_status_codes must be sorted and unique")
        return self


Predicate = Literal["event_observed", "numeric_threshold", "numeric_range",
                    "field_comparison", "text_equals", "timestamp_threshold"]


class Term(Model):
    """One more field added to or subtracted from the metric (SPEC §12.4.1)."""

    op: Literal["+", "-"]
    metric: Id


class Precondition(Model):
    """A text field that must equal ``equals`` (exact code points) for the market
    to resolve; ``otherwise`` says what an unmet one makes of it (SPEC §12.4.1)."""

    key: Id
    equals: Annotated[str, Field(max_length=256)]
    otherwise: Literal["INVALID", "NO"] = "INVALID"


class PredictionSemantics(Model):
    """The machine-checkable predicate (seed M07 §7 step 4, SPEC §12.4.1).

    ``event_observed``: the event happened iff the boolean field ``metric`` is
    true.  ``numeric_threshold``: the event happened iff
    ``numeric_value <comparison> threshold`` where ``numeric_value`` is the
    aggregated ``metric`` field (plus or minus each of ``terms``).  A stray
    boolean never overrides a threshold.  ``numeric_range``: ``lower <(=)
    numeric_value <(=) upper`` (inclusive bounds as declared).
    ``field_comparison``: ``metric <comparison> other_metric``.
    ``text_equals``: the text field ``metric`` equals ``expected_text``.
    ``timestamp_threshold``: the timestamp field ``metric <comparison>
    threshold`` (a deadline in Unix seconds).  Every new field is optional and
    omitted when absent, so the two original predicates keep their bytes.
    """

    target_entity: str
    predicate: Predicate
    metric: Id
    comparison: Comparison | None = None
    threshold: DecimalStr | None = None
    unit: str | None = None
    terms: Annotated[list[Term], Field(min_length=1, max_length=8)] | None = None
    lower: DecimalStr | None = None
    upper: DecimalStr | None = None
    lower_inclusive: bool | None = None
    upper_inclusive: bool | None = None
    other_metric: Id | None = None
    expected_text: Annotated[str, Field(max_length=256)] | None = None
    absent_means_no: bool | None = None
    sources_required: Annotated[int, Field(ge=1, le=64)] | None = None
    preconditions: Annotated[list[Precondition], Field(min_length=1, max_length=8)] | None = None

    @model_validator(mode="after")
    def _threshold(self) -> Self:
        problem = semantics_problem(self)
        if problem is not None:
            raise ValueError(problem)
        return self


class ConfidencePolicy(Model):
    """Integer confidence policy in basis points (SPEC §7.4)."""

    default_confidence_bps: Bps = 7000
    min_confidence_for_yesno_bps: Bps = 5500
    conflict_factor_bps: Bps = 8000
    fallback_factor_bps: Bps = 9000
    invalid_confidence_bps: Bps = 0


class ConflictPolicy(Model):
    """What a conflict between sources does (SPEC §7.3)."""

    on_conflict: Literal["invalid", "continue"] = "invalid"
    numeric_tolerance: DecimalStr = "0"

    @model_validator(mode="after")
    def _non_negative(self) -> Self:
        if self.numeric_tolerance.startswith("-"):
            raise ValueError("numeric_tolerance must be non-negative")
        return self


class PromptSpec(Record):
    """A market compiled into a strict, machine-checkable specification."""

    SCHEMA: ClassVar[str] = "por.PromptSpec/1"

    record_schema: Literal["por.PromptSpec/1"] = Field("por.PromptSpec/1", alias="schema")
    market: MarketSpec
    prediction_semantics: PredictionSemantics
    data_requirements: Annotated[list[DataRequirement],
                                 Field(min_length=1, max_length=MAX_REQUIREMENTS)]
    output_schema_ref: str = VERDICT_SCHEMA_REF
    strict_mode: bool = True
    confidence_policy: ConfidencePolicy = ConfidencePolicy()
    conflict_policy: ConflictPolicy = ConflictPolicy()
    timestamp_slack_seconds: Count = 0

    @model_validator(mode="after")
    def _unique_requirements(self, info: ValidationInfo) -> Self:
        ids = [r.requirement_id for r in self.data_requirements]
        if len(set(ids)) != len(ids):
            raise ValueError("requirement ids must be unique")
        fields = sum(len(r.expected_fields) for r in self.data_requirements)
        if fields > MAX_SPEC_EXPECTED_FIELDS:
            raise ValueError(f"expected fields {fields} > {MAX_SPEC_EXPECTED_FIELDS}")
        # ADR 0011 decision 3: the whole spec rides in every one-step proof.
        size = canonical_size(self, info)
        if size > MAX_PROMPT_SPEC_BYTES:
            raise ValueError(f"canonical bytes {size} > {MAX_PROMPT_SPEC_BYTES}")
        return self


__all__ = [
    "VERDICT_SCHEMA_REF",
    "Comparison",
    "ConfidencePolicy",
    "ConflictPolicy",
    "ContentType",
    "DataRequirement",
    "FieldKind",
    "FieldSpec",
    "GroupSeparator",
    "NumberFormat",
    "Precondition",
    "Predicate",
    "PredictionSemantics",
    "PromptSpec",
    "SelectionPolicy",
    "SourceLocator",
    "SourceTarget",
    "Term",
    "ValueMap",
    "ValueMapEntry",
]
