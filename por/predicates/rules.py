"""Predicate rules (SPEC §12.4.1): well-formedness, the fields read, exact tests.

Every predicate reads committed field values only and decides with integer or
decimal comparison and addition, so a contract can re-execute it:

=====================  ============  =========================================
predicate              metric kind   event (``numeric_value`` when present)
=====================  ============  =========================================
``event_observed``     boolean       the value
``numeric_threshold``  numeric       ``v <comparison> threshold``; ``v`` = metric
                                     plus/minus each of ``terms``
``numeric_range``      numeric       ``lower <(=) v <(=) upper`` (``v`` as above)
``field_comparison``   numeric       ``metric - other_metric <comparison> 0``
``text_equals``        text          value == ``expected_text`` (code points)
``timestamp_threshold`` timestamp    ``v <comparison> threshold`` (Unix seconds)
=====================  ============  =========================================

Modifiers: ``absent_means_no`` (``event_observed``, ``text_equals``,
``timestamp_threshold``), ``sources_required`` (k of n sources, one metric,
no ``terms``), ``preconditions`` (text fields that must equal a value).

Leaves out: reading values from evidence and aggregation (the auditor).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from por.numbers import is_canonical_decimal

#: The kind of the ``metric`` field each predicate reads.
METRIC_KIND = {
    "event_observed": "boolean", "numeric_threshold": "numeric", "numeric_range": "numeric",
    "field_comparison": "numeric", "text_equals": "text", "timestamp_threshold": "timestamp",
}
#: Predicates whose deduce step commits a ``numeric_value`` the judge recomputes from.
NUMERIC_PREDICATES = ("numeric_threshold", "numeric_range", "field_comparison",
                      "timestamp_threshold")
_MAX_UNIX = 2**63 - 1
_ABSENT_OK = ("event_observed", "text_equals", "timestamp_threshold")
#: Fields each predicate requires (``True``) or forbids (``False``); others optional.
_SHAPE: dict[str, dict[str, bool]] = {
    "event_observed": {"comparison": False, "threshold": False},
    "numeric_threshold": {"comparison": True, "threshold": True},
    "numeric_range": {"comparison": False, "threshold": False, "lower": True, "upper": True},
    "field_comparison": {"comparison": True, "threshold": False, "other_metric": True},
    "text_equals": {"comparison": False, "threshold": False, "expected_text": True},
    "timestamp_threshold": {"comparison": True, "threshold": True},
}
_SPECIFIC = ("lower", "upper", "lower_inclusive", "upper_inclusive", "other_metric",
             "expected_text")
_OWNER = {"lower": "numeric_range", "upper": "numeric_range",
          "lower_inclusive": "numeric_range", "upper_inclusive": "numeric_range",
          "other_metric": "field_comparison", "expected_text": "text_equals"}


@dataclass(frozen=True, slots=True)
class Needed:
    """A field a predicate reads: its key, kind and role."""

    key: str
    kind: str
    role: str  # metric, term, other_metric, precondition


def semantics_problem(s: Any) -> str | None:
    """Why ``prediction_semantics`` ``s`` is malformed (SPEC §12.4.1), or ``None``.

    Read by attribute: the pydantic model and its lean twin give the same answer."""
    predicate = s.predicate
    shape = _SHAPE.get(predicate)
    if shape is None:
        return f"unknown predicate {predicate!r}"
    for name, required in shape.items():
        if required != (getattr(s, name) is not None):
            return (f"{name} is required for {predicate}" if required
                    else f"{name} is not allowed for {predicate}")
    for name in _SPECIFIC:
        if getattr(s, name) is not None and _OWNER[name] != predicate:
            return f"{name} is only for {_OWNER[name]}"
    if s.terms is not None and predicate not in ("numeric_threshold", "numeric_range"):
        return "terms are only for numeric_threshold and numeric_range"
    if predicate == "numeric_range":
        low, high = Decimal(s.lower), Decimal(s.upper)
        closed = s.lower_inclusive is not False and s.upper_inclusive is True
        if low > high or (low == high and not closed):
            return "numeric_range is empty: lower must be below upper"
    if predicate == "timestamp_threshold":
        text = s.threshold
        if not (is_canonical_decimal(text) and text.isdigit() and int(text) <= _MAX_UNIX):
            return "timestamp_threshold needs a threshold of whole Unix seconds"
    if s.absent_means_no is not None:
        if s.absent_means_no is not True:
            return "absent_means_no is true or omitted"
        if predicate not in _ABSENT_OK:
            return f"absent_means_no is only for {', '.join(_ABSENT_OK)}"
    if s.sources_required is not None and (s.terms is not None or
                                           predicate == "field_comparison"):
        return "sources_required reads one metric: no terms or field_comparison"
    keys = [n.key for n in needed_fields(s)]
    if len(set(keys)) != len(keys):
        return "metric, terms, other_metric and precondition keys must be distinct"
    return None


def needed_fields(s: Any) -> list[Needed]:
    """Every field the predicate reads, in the order ``deduce`` reads them."""
    out = [Needed(s.metric, METRIC_KIND.get(s.predicate, "numeric"), "metric")]
    out += [Needed(t.metric, "numeric", "term") for t in s.terms or ()]
    if s.other_metric is not None:
        out.append(Needed(s.other_metric, "numeric", "other_metric"))
    out += [Needed(p.key, "text", "precondition") for p in s.preconditions or ()]
    return out


def in_range(value: Decimal, s: Any) -> bool:
    """``lower <(=) value <(=) upper`` (lower inclusive, upper exclusive unless declared)."""
    low, high = Decimal(s.lower), Decimal(s.upper)
    above = value >= low if s.lower_inclusive is not False else value > low
    below = value <= high if s.upper_inclusive is True else value < high
    return above and below




def holds(s: Any, value: Any) -> bool:
    """The predicate on one value of the metric's kind (a ``Decimal`` for the
    numeric predicates, already combined with ``terms`` or ``other_metric``; an
    ``int`` for ``timestamp_threshold``).  ``numeric_threshold``,
    ``field_comparison`` (against 0) and ``timestamp_threshold`` compare exactly."""
    predicate = s.predicate
    if predicate == "event_observed":
        return value is True
    if predicate == "text_equals":
        return bool(value == s.expected_text)
    if predicate == "numeric_range":
        return in_range(value, s)
    bound = Decimal(0) if predicate == "field_comparison" else Decimal(s.threshold)
    return compare(Decimal(value), s.comparison, bound)


def compare(value: Decimal, comparison: str, bound: Decimal) -> bool:
    """``value <comparison> bound``, exactly (no rounding happens in a comparison)."""
    if comparison == ">":
        return value > bound
    if comparison == ">=":
        return value >= bound
    if comparison == "<":
        return value < bound
    if comparison == "<=":
        return value <= bound
    if comparison == "==":
        return value == bound
    raise ValueError(f"unknown comparison {comparison!r}")


__all__ = ["METRIC_KIND", "NUMERIC_PREDICATES", "Needed", "compare", "holds", "in_range",
           "needed_fields", "semantics_problem"]
