"""The machine rule of a predicate in plain English, for a locked judge's prompt.

A locked LLM judge (SPEC §15.3) sees the market's question and event definition;
:func:`predicate_lines` adds the rule the deterministic judge applies (SPEC
§12.4.1) for every predicate feature beyond ``event_observed`` and a plain
``numeric_threshold``, so the model is asked the same question.  A spec that uses
none of them gets ``[]``, and its rendered prompt keeps its bytes.
"""

from __future__ import annotations

from por.schemas.prompt import PredictionSemantics


def _value(sem: PredictionSemantics) -> str:
    terms = "".join(f" {t.op} {t.metric}" for t in sem.terms or ())
    return sem.metric + terms


def predicate_lines(sem: PredictionSemantics) -> list[str]:
    """The machine rule of a predicate beyond ``event_observed`` and a plain
    ``numeric_threshold`` (SPEC §12.4.1), one line each; ``[]`` for those two, so a
    spec that uses none of the newer predicates renders the same bytes as before."""
    unit = f" {sem.unit}" if sem.unit else ""
    lines = []
    if sem.predicate == "numeric_range":
        low = "<=" if sem.lower_inclusive is not False else "<"
        high = "<=" if sem.upper_inclusive else "<"
        lines.append(f"Rule (numeric_range): YES iff {sem.lower} {low} {_value(sem)} "
                     f"{high} {sem.upper}{unit}.")
    elif sem.predicate == "field_comparison":
        lines.append(f"Rule (field_comparison): YES iff {sem.metric} {sem.comparison} "
                     f"{sem.other_metric}.")
    elif sem.predicate == "text_equals":
        lines.append(f"Rule (text_equals): YES iff the text {sem.metric} equals "
                     f"\"{sem.expected_text}\" exactly (same characters and case).")
    elif sem.predicate == "timestamp_threshold":
        lines.append(f"Rule (timestamp_threshold): YES iff the time {sem.metric} is "
                     f"{sem.comparison} {sem.threshold} (Unix seconds, UTC).")
    elif sem.terms:
        lines.append(f"Rule (terms): YES iff {_value(sem)} {sem.comparison} "
                     f"{sem.threshold}{unit}.")
    if sem.absent_means_no:
        lines.append(f"Absent means NO: a source that answers without {sem.metric} "
                     "(missing or null) decides NO, not INVALID.")
    if sem.sources_required is not None:
        lines.append(f"Sources required: YES iff at least {sem.sources_required} "
                     "sources each satisfy the rule; NO iff so many fail that it cannot be "
                     "reached; otherwise INVALID.")
    for pre in sem.preconditions or ():
        lines.append(f"Precondition: {pre.key} must equal \"{pre.equals}\"; "
                     f"otherwise the answer is {pre.otherwise}.")
    return lines


__all__ = ["predicate_lines"]
