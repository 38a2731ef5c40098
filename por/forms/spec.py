"""COMMON and REQUIREMENT: the chain forms of a PromptSpec's parts (SPEC §5.6.3, §5.6.4).

``prompt_spec`` is the record as decoded ``por-cbor/1`` (a dict). A key that §4 gives a
default (``min_sources``, ``quorum``, ``tie_breaker``, ``min_provenance_tier``,
``timestamp_slack_seconds``, ``strict_mode``, ``on_conflict``, ``otherwise``, the
confidence policy and its five values) reads as that default when absent (SPEC §5.6.1).
Every integer read is checked against §4.2's range for it, and the tolerance against
``>= 0``: outside, no form (SPEC §5.6.1; s39, draft §6 item 22).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from por.forms.words import (
    BPS_MAX,
    COMMON,
    COMPARISON,
    KIND,
    ON_CONFLICT,
    OTHERWISE,
    PREDICATE,
    REQUIREMENT,
    RULE,
    STRATEGY,
    TERM_OP,
    TIE_BREAKER,
    TIME_MAX,
    ZERO,
    B,
    D,
    E,
    H,
    L,
    O,
    P,
    T,
    W,
    Z,
    amap,
    array,
    get,
    none,
    ranged,
)

#: §12.1's fallback fields (no ``expected_fields`` declared), in their order.
FALLBACK_FIELDS = (("result", "boolean"), ("value", "numeric"), ("price", "numeric"),
                   ("timestamp", "timestamp"))
#: §4.2's confidence policy defaults, in the form's order.
CONFIDENCE = (("default_confidence_bps", 7000), ("min_confidence_for_yesno_bps", 5500),
              ("conflict_factor_bps", 8000), ("fallback_factor_bps", 9000),
              ("invalid_confidence_bps", 0))


def _policy(requirement: Mapping[str, Any]) -> Mapping[str, Any]:
    return amap(get(requirement, "selection_policy"))


def _requirement_row(entry: object) -> bytes:
    q = amap(entry)
    return (H(get(q, "requirement_id")) + E(STRATEGY, get(_policy(q), "strategy"))
            + W(len(array(get(q, "source_targets"))))
            + ranged(q.get("min_provenance_tier", 0), 0, 3))


def _rule_code(rule: object) -> bytes:
    rule_id = get(amap(rule), "rule_id")
    H(rule_id)  # a text, or no form
    return W(RULE.get(rule_id, 0))


def _term(term: object) -> bytes:
    t = amap(term)
    return E(TERM_OP, get(t, "op")) + H(get(t, "metric"))


def _precondition(pre: object) -> bytes:
    p = amap(pre)
    return H(get(p, "key")) + H(get(p, "equals")) + E(OTHERWISE, p.get("otherwise", "INVALID"))


def _tolerance(d: object) -> bytes:
    """``D`` of ``numeric_tolerance``: a canonical decimal >= 0 (§4.2)."""
    word = D(d)
    if word[0] & 0x80:
        none(f"numeric_tolerance below 0: {d!r}"[:200])
    return word


def common_form(prompt_spec: Mapping[str, Any]) -> bytes:
    """``F`` COMMON of a PromptSpec (tag 1)."""
    spec = amap(prompt_spec)
    ps = amap(get(spec, "prediction_semantics"))
    market = amap(get(spec, "market"))
    conflict = amap(get(spec, "conflict_policy"))
    window = amap(get(market, "resolution_window"))
    rules = array(get(amap(get(market, "resolution_rules")), "rules"))
    confidence = amap(spec.get("confidence_policy", {}))
    return b"".join((
        W(COMMON), H(get(ps, "metric")), Z(ps, "sources_required", 64),
        _tolerance(get(conflict, "numeric_tolerance")),
        L(_requirement_row, get(spec, "data_requirements")),
        H(get(market, "market_id")), ranged(get(window, "start"), 0, TIME_MAX),
        ranged(get(window, "end"), 0, TIME_MAX),
        ranged(spec.get("timestamp_slack_seconds", 0), 0, TIME_MAX),
        L(H, get(market, "allowed_sources")),
        L(_rule_code, rules),
        E(ON_CONFLICT, conflict.get("on_conflict", "invalid")),
        H(get(spec, "output_schema_ref")), B(spec.get("strict_mode", True)),
        *(ranged(confidence.get(name, default), 0, BPS_MAX) for name, default in CONFIDENCE),
        E(PREDICATE, get(ps, "predicate")), T(get(ps, "metric")),
        P(lambda c: E(COMPARISON, c), ps, "comparison"),
        P(D, ps, "threshold"),
        P(lambda terms: L(_term, terms), ps, "terms"),
        P(D, ps, "lower"), P(D, ps, "upper"),
        O(ps, "lower_inclusive", B), O(ps, "upper_inclusive", B),
        P(H, ps, "other_metric"), P(H, ps, "expected_text"),
        B(ps["absent_means_no"]) if "absent_means_no" in ps else ZERO,
        P(lambda pres: L(_precondition, pres), ps, "preconditions"),
    ))


def effective_fields(requirement: Mapping[str, Any]) -> list[tuple[object, object]]:
    """The requirement's (key, kind) fields, or §12.1's fallback fields if none."""
    declared = array(requirement.get("expected_fields", []))
    fields = [(get(amap(f), "key"), get(amap(f), "kind")) for f in declared]
    return fields or [(key, kind) for key, kind in FALLBACK_FIELDS]


def requirement_form(requirement: Mapping[str, Any]) -> bytes:
    """``F`` REQUIREMENT of one ``data_requirements`` entry (tag 2)."""
    q = amap(requirement)
    policy = _policy(q)
    targets = [get(amap(x), "source_id") for x in array(get(q, "source_targets"))]
    fields = effective_fields(q)
    return b"".join((
        W(REQUIREMENT), H(get(q, "requirement_id")), E(STRATEGY, get(policy, "strategy")),
        E(TIE_BREAKER, policy.get("tie_breaker", "source_order")),
        ranged(policy.get("min_sources", 1), 1, 64), ranged(policy.get("quorum", 1), 1, 64),
        L(H, targets),
        W(len(fields)), *(E(KIND, kind) + H(key) for key, kind in fields),
        P(lambda codes: L(lambda c: ranged(c, 100, 599), codes), q, "accepted_status_codes"),
    ))
