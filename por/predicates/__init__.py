"""Market predicates (SPEC §12.4.1): which fields a predicate reads and how it is
decided, exactly, from committed values.  One definition, read by the schema,
the auditor's ``deduce`` step, the judge and preflight."""

from por.predicates.rules import (
    METRIC_KIND,
    NUMERIC_PREDICATES,
    Needed,
    compare,
    holds,
    in_range,
    needed_fields,
    semantics_problem,
)

__all__ = [
    "METRIC_KIND",
    "NUMERIC_PREDICATES",
    "Needed",
    "compare",
    "holds",
    "in_range",
    "needed_fields",
    "semantics_problem",
]
