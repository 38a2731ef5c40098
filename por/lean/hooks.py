"""The hand-written behaviour of the generated lean records (issue 21).

:mod:`por.lean.records_gen` is generated from the pydantic models: it declares
every record's fields, types and bounds, one module per domain.  What a model says in code rather
than in its field declarations, and what the fast path does for speed and
memory, is written here and named by the generator's table
(:data:`por.lean.generate.DOMAINS`):

* cross-field rules, one function per pydantic ``model_validator`` (same rule,
  same order of tests; a record's ``_invariants``);
* :func:`spanned_blob`, the check of an evidence body that may stay a span of
  the bundle's bytes, and :class:`SpannedContent`, the behaviour that reads it;
* :func:`leaves`, the check of a bundle's leaf arrays read as :class:`Spans`.

Bounds are never written here: each factory takes them from the generated
call, which takes them from the model.  Leaves out: field declarations.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from por.encoding.spans import Spans
from por.fieldspec_rules import fieldspec_problem
from por.lean.base import CborRecord, Check, Reject, blob, packed, unique, unpacked
from por.predicates.rules import semantics_problem
from por.protocol.limits import MAX_SPEC_EXPECTED_FIELDS

if TYPE_CHECKING:
    from por.lean.records_gen.prompt import (
        ConflictPolicy,
        DataRequirement,
        FieldSpec,
        MarketSpec,
        NumberFormat,
        PredictionSemantics,
        PromptSpec,
        ResolutionRules,
        ResolutionWindow,
        SelectionPolicy,
    )


# --- cross-field rules (the models' ``model_validator``s) --------------------------

def resolution_window_ordered(window: ResolutionWindow) -> None:
    """``ResolutionWindow._ordered``."""
    if window.start > window.end:
        raise Reject("window")


def resolution_rules_sorted_unique(rules: ResolutionRules) -> None:
    """``ResolutionRules._sorted_unique``."""
    keys = [(r.priority, r.rule_id) for r in rules.rules]
    if keys != sorted(keys):
        raise Reject("rules order")
    unique([r.rule_id for r in rules.rules])


def market_sources_sorted(market: MarketSpec) -> None:
    """``MarketSpec._sources_sorted``."""
    if market.allowed_sources != sorted(set(market.allowed_sources)):
        raise Reject("allowed_sources")


def selection_quorum(policy: SelectionPolicy) -> None:
    """``SelectionPolicy._quorum``."""
    if policy.quorum > policy.min_sources and policy.strategy == "multi_source_quorum":
        raise Reject("quorum")


def number_format_marks(fmt: NumberFormat) -> None:
    """``NumberFormat._distinct_marks``."""
    if fmt.group_separator is not None and fmt.group_separator == (fmt.decimal_mark or "."):
        raise Reject("marks")


def field_has_locator(field: FieldSpec) -> None:
    """``FieldSpec._has_locator``: the one statement in ``por.fieldspec_rules``."""
    problem = fieldspec_problem(field)
    if problem is not None:
        raise Reject(problem[0])


def requirement_unique(requirement: DataRequirement) -> None:
    """``DataRequirement._unique``."""
    unique([t.source_id for t in requirement.source_targets])
    unique([f.key for f in requirement.expected_fields])
    codes = requirement.accepted_status_codes
    if codes is not None and codes != sorted(set(codes)):
        raise Reject("accepted_status_codes")


def prediction_threshold(semantics: PredictionSemantics) -> None:
    """``PredictionSemantics._threshold``: one rule, :func:`por.predicates.semantics_problem`."""
    if semantics_problem(semantics) is not None:
        raise Reject("prediction_semantics")


def conflict_non_negative(policy: ConflictPolicy) -> None:
    """``ConflictPolicy._non_negative``."""
    if policy.numeric_tolerance.startswith("-"):
        raise Reject("tolerance")


def prompt_unique_requirements(spec: PromptSpec) -> None:
    """``PromptSpec._unique_requirements``."""
    unique([r.requirement_id for r in spec.data_requirements])
    if sum(len(r.expected_fields) for r in spec.data_requirements) > MAX_SPEC_EXPECTED_FIELDS:
        raise Reject("fields")


# --- speed and memory: spans of the bundle's bytes (issue 16) ----------------------

def spanned_blob(min_length: int, max_length: int) -> Check:
    """A byte string of ``min_length`` .. ``max_length`` bytes, or its span in the
    record it was read from (``decode(..., map_slices_at=1)`` gives a ``slice``):
    the body then stays in the bundle's bytes (:class:`SpannedContent`)."""
    as_bytes = blob(min_length, max_length)

    def check(value: Any) -> bytes | slice:
        if type(value) is slice:
            if not min_length <= value.stop - value.start <= max_length:
                raise Reject("content")
            return value
        return as_bytes(value)  # type: ignore[no-any-return]
    return check


class SpannedContent(CborRecord):
    """A record whose ``content`` is kept as :func:`spanned_blob` read it.

    Read from a bundle (:meth:`from_value` with a span), the body stays in the
    bundle's bytes, its span packed in one int (32 bytes, where a copy costs 33
    plus its length): ``content`` slices it out when the auditor reads it, so a
    verifier holds evidence bodies once (issue 16)."""

    __slots__ = ()
    _content: bytes | int  # the body, or packed(start, stop) of it in _cbor

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


def hash_leaves() -> Check:
    """An array of 32-byte byte strings (carried leaf hashes, PoR's ``forms``), read
    as their spans like :func:`leaves`."""
    def check(value: object) -> Spans:
        if type(value) is not Spans or not value.bytes_only:
            raise Reject("hash leaves")
        starts, stops = value.bounds()
        if any(stop - start != 32 for start, stop in zip(starts, stops, strict=True)):
            raise Reject("hash leaves")
        return value
    return check


__all__ = [
    "SpannedContent",
    "conflict_non_negative",
    "field_has_locator",
    "hash_leaves",
    "leaves",
    "market_sources_sorted",
    "prediction_threshold",
    "prompt_unique_requirements",
    "requirement_unique",
    "resolution_rules_sorted_unique",
    "resolution_window_ordered",
    "selection_quorum",
    "spanned_blob",
]
