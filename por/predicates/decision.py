"""How the judge reads a predicate's variables (SPEC §7.2, §12.4.1).

A numeric predicate (:data:`~por.predicates.rules.NUMERIC_PREDICATES`) is
decided by the judge from ``numeric_value`` itself, except where the deduce
step decides by ``event_observed`` alone: a k-of-n market
(``sources_required``: the per-source tests are in the trace, one-step
re-executable), an unmet precondition declared ``NO`` and an absent metric
with ``absent_means_no`` (both: ``event_observed`` false, no ``numeric_value``).
Every other predicate is decided by
``event_observed``.
"""

from __future__ import annotations

from typing import Any


def event_decides(s: Any, variables: Any) -> bool:
    """The verdict is ``event_observed`` even for a numeric predicate."""
    if s.sources_required is not None:
        return True
    no_when_unmet = any(p.otherwise == "NO" for p in s.preconditions or ())
    return (no_when_unmet or s.absent_means_no is True) and \
        variables.numeric_value is None and variables.event_observed is False


def event_reason(s: Any) -> str:
    """The ``binary_decision`` check's reason when ``event_observed`` decides."""
    return "sources_required" if s.sources_required is not None else str(s.predicate)


def bound_text(s: Any) -> str:
    """What ``numeric_value`` is tested against, for people (``> 100``, ``[140, 150)``)."""
    if s.predicate == "numeric_range":
        low = "[" if s.lower_inclusive is not False else "("
        high = "]" if s.upper_inclusive is True else ")"
        return f"in {low}{s.lower}, {s.upper}{high}"
    if s.predicate == "field_comparison":
        return f"({s.metric} - {s.other_metric}) {s.comparison} 0"
    return f"{s.comparison} {s.threshold}"


__all__ = ["bound_text", "event_decides", "event_reason"]
