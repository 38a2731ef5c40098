"""AGGREGATE, CONTRADICTIONS, DEDUCE and MAP: recomputed steps, whole (SPEC §5.6.8-§5.6.11)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from por.forms.steps import description, hashes, head, links, rest_of_inputs, texts
from por.forms.words import (
    AGGREGATE,
    CONFLICT_CHECK,
    CONTRADICTIONS,
    DEDUCE,
    KIND,
    MAP,
    METRIC_STATUS,
    PREDICATE,
    STATUS,
    STRATEGY,
    B,
    D,
    E,
    H,
    L,
    O,
    P,
    R,
    T,
    V,
    W,
    amap,
    get,
    none,
)

ONLY_KIND = frozenset({"kind"})
FIELD = ("key", "kind", "status", "candidates", "fallback_used", "value", "quorum",
         "claim_ids", "evidence_ids", "votes")
AGGREGATE_OUTPUT = ("requirement_id", "strategy", "covered", "provenance_ok", "item_count",
                    "last_leaf", "fallback_used", "fields", "sources_used")
CONFLICT = ("check_id", "kind", "key", "claim_ids", "evidence_ids", "values", "claim_count")
FLAGS = ("insufficient_evidence", "conflict_detected", "fallback_used", "provenance_ok")
DEDUCE_OUTPUT = ("predicate", "metric", "metric_status", "uncovered_requirements", *FLAGS,
                 "source_summary", "event_observed", "numeric_value", "timestamp")
VARIABLES = ("event_observed", "numeric_value", "timestamp", "conflict_detected",
             "insufficient_evidence", "fallback_used", "provenance_ok", "source_summary")


def _quorum(x: object) -> bytes:
    q = amap(x)
    return (W(get(q, "required")) + W(get(q, "agreeing")) + B(get(q, "met"))
            + R(q, ("required", "agreeing", "met")))


def _field(entry: object) -> bytes:
    f = amap(entry)
    kind = get(f, "kind")
    code = E(KIND, kind)

    def vote(x: object) -> bytes:
        v = amap(x)
        return (V(kind, get(v, "value")) + H(get(v, "source_id")) + H(get(v, "evidence_id"))
                + R(v, ("value", "source_id", "evidence_id")))

    return b"".join((
        H(get(f, "key")), code, E(STATUS, get(f, "status")), W(get(f, "candidates")),
        B(get(f, "fallback_used")), P(lambda v: V(kind, v), f, "value"), P(_quorum, f, "quorum"),
        hashes(get(f, "claim_ids")), hashes(get(f, "evidence_ids")),
        P(lambda votes: L(vote, votes), f, "votes"), R(f, FIELD),
    ))


def aggregate_form(step: Mapping[str, Any]) -> bytes:
    """``F`` AGGREGATE (tag 5)."""
    o = amap(get(step, "output"))
    inputs = amap(get(step, "inputs"))
    return b"".join((
        W(AGGREGATE), H(get(step, "step_id")), T(get(inputs, "requirement_id")),
        rest_of_inputs(step, frozenset({"kind", "requirement_id"})), links(step),
        H(get(o, "requirement_id")), E(STRATEGY, get(o, "strategy")),
        B(get(o, "covered")), B(get(o, "provenance_ok")), W(get(o, "item_count")),
        O(o, "last_leaf"), B(get(o, "fallback_used")), L(_field, get(o, "fields")),
        hashes(get(o, "sources_used")), R(o, AGGREGATE_OUTPUT), description(step),
    ))


def _as_text(kind: object, value: object) -> bytes:
    """``V'_kind``: a conflict's value read as text (§12.5.2)."""
    if kind == "numeric":
        return D(value)
    if kind == "boolean" and value in ("true", "false") and isinstance(value, str):
        return W(int(value == "true"))
    return none(f"a conflict value {value!r} of kind {kind!r} has no form"[:200])


def _conflict(entry: object) -> bytes:
    c = amap(entry)
    kind = get(c, "kind")
    if kind not in ("boolean", "numeric"):  # SPEC §5.6.2, §5.6.9: the two conflict kinds
        return none(f"a conflict of kind {kind!r}: neither numeric nor boolean"[:200])
    return b"".join((
        E(CONFLICT_CHECK, get(c, "check_id")), E(KIND, kind), H(get(c, "key")),
        hashes(get(c, "claim_ids")), hashes(get(c, "evidence_ids")),
        L(lambda v: _as_text(kind, v), get(c, "values")), W(get(c, "claim_count")),
        R(c, CONFLICT),
    ))


def contradictions_form(step: Mapping[str, Any]) -> bytes:
    """``F`` CONTRADICTIONS (tag 6)."""
    o = amap(get(step, "output"))
    return b"".join((
        head(step, CONTRADICTIONS, ONLY_KIND), W(get(o, "claim_count")),
        D(get(o, "numeric_tolerance")), L(_conflict, get(o, "conflicts")),
        R(o, ("claim_count", "numeric_tolerance", "conflicts")), description(step),
    ))


def deduce_form(step: Mapping[str, Any]) -> bytes:
    """``F`` DEDUCE (tag 7)."""
    o = amap(get(step, "output"))
    return b"".join((
        head(step, DEDUCE, ONLY_KIND), E(PREDICATE, get(o, "predicate")), H(get(o, "metric")),
        E(METRIC_STATUS, get(o, "metric_status")), texts(get(o, "uncovered_requirements")),
        *(B(get(o, name)) for name in FLAGS), hashes(get(o, "source_summary")),
        P(B, o, "event_observed"), P(D, o, "numeric_value"), P(W, o, "timestamp"),
        R(o, DEDUCE_OUTPUT), description(step),
    ))


def map_form(step: Mapping[str, Any]) -> bytes:
    """``F`` MAP (tag 8)."""
    o = amap(get(step, "output"))
    v = amap(get(o, "evaluation_variables"))
    return b"".join((
        head(step, MAP, ONLY_KIND),
        P(B, v, "event_observed"), P(D, v, "numeric_value"), P(W, v, "timestamp"),
        B(get(v, "conflict_detected")), B(get(v, "insufficient_evidence")),
        B(get(v, "fallback_used")), B(get(v, "provenance_ok")),
        hashes(get(v, "source_summary")),
        R(v, VARIABLES), R(o, ("evaluation_variables",)), description(step),
    ))
