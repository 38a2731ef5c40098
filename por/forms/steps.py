"""EXTRACT and CHUNK, and the parts every step form shares (SPEC §5.6.5-§5.6.7).

A step is the ReasoningStep record as decoded ``por-cbor/1`` (a dict).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from por.forms.words import (
    BPS_MAX,
    CHUNK,
    EXTRACT,
    KIND,
    OBSERVED_FROM,
    REASON,
    TIME_MAX,
    B,
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
    array,
    get,
    none,
    ranged,
)
from por.gate import is_blank

#: ``inputs.kind`` -> (the kind's ``step_type``, its form's tag), section 1.1.
IDENTITY = {"extract_claims": ("extract", EXTRACT), "check_requirement": ("check", CHUNK),
            "aggregate": ("aggregate", 5), "contradictions": ("check", 6),
            "deduce": ("deduce", 7), "map": ("map", 8)}
CARD = {"source_id", "status_code", "retrieved_at", "confidence_bps", "provenance_tier"}


def identity(step: Mapping[str, Any]) -> tuple[str, int]:
    """The step's ``inputs.kind`` and its form's tag, or no form."""
    kind = get(amap(get(step, "inputs")), "kind")
    if not isinstance(kind, str) or kind not in IDENTITY:
        none(f"inputs.kind is none of the six: {kind!r}"[:200])
    step_type, tag = IDENTITY[kind]
    if get(step, "step_type") != step_type:
        none(f"step_type {step['step_type']!r} is not {kind}'s ({step_type})"[:200])
    return kind, tag


def head(step: Mapping[str, Any], tag: int, inputs_named: frozenset[str]) -> bytes:
    """Tag, step id, ``Ri``, priors and evidence ids (the AGGREGATE puts its
    ``T(inputs.requirement_id)`` before ``Ri``: see :func:`aggregate_form`)."""
    return W(tag) + H(get(step, "step_id")) + rest_of_inputs(step, inputs_named) + links(step)


def rest_of_inputs(step: Mapping[str, Any], named: frozenset[str]) -> bytes:
    """``Ri``: the rest word of ``inputs``."""
    return R(amap(get(step, "inputs")), named)


def links(step: Mapping[str, Any]) -> bytes:
    """``L[H](prior_step_ids) L[H](evidence_ids)``."""
    return L(H, get(step, "prior_step_ids")) + L(H, get(step, "evidence_ids"))


def description(step: Mapping[str, Any]) -> bytes:
    """``T(description)``, every recomputed form's last element."""
    return T(get(step, "description"))


def _claim(claim: object) -> bytes:
    c = amap(claim)
    kind = get(c, "kind")
    return H(get(c, "key")) + E(KIND, kind) + H(get(c, "claim_id")) + V(kind, get(c, "value"))


def extract_form(step: Mapping[str, Any]) -> bytes:
    """``F`` EXTRACT (tag 3): what the chunk, the aggregate and the judge read."""
    out = amap(get(step, "output"))
    card = amap(get(out, "card"))
    if set(card) != CARD:
        none(f"the card's keys are not exactly its five: {sorted(card)}"[:200])
    source_id = card["source_id"]
    return b"".join((
        W(EXTRACT), H(get(step, "step_id")), H(source_id),
        ranged(card["provenance_tier"], 0, 3),
        H(get(out, "evidence_id")), T(out["evidence_id"]),
        L(_claim, get(out, "claims")),
        H(get(out, "requirement_id")),
        ranged(card["status_code"], 100, 599), ranged(card["retrieved_at"], 0, TIME_MAX),
        ranged(card["confidence_bps"], 0, BPS_MAX),
        B(is_blank(source_id)),
    ))


def _source(entry: object) -> bytes:
    s = amap(entry)
    return (H(get(s, "step_id")) + H(get(s, "evidence_id")) + H(get(s, "source_id"))
            + R(s, ("step_id", "evidence_id", "source_id")))


def _item(entry: object) -> bytes:
    i = amap(entry)
    return b"".join((
        H(get(i, "evidence_id")), H(get(i, "source_id")), B(get(i, "admitted")),
        L(lambda r: E(REASON, r), get(i, "reasons")), W(get(i, "observed_at")),
        E(OBSERVED_FROM, get(i, "observed_from")), P(H, i, "gate_reason"),
        R(i, ("evidence_id", "source_id", "admitted", "reasons", "observed_at",
              "observed_from", "gate_reason")),
    ))


def _ref(kind: str, ref: object) -> bytes:
    r = amap(ref)
    return (H(get(r, "claim_id")) + H(get(r, "evidence_id")) + V(kind, get(r, "value"))
            + R(r, ("claim_id", "evidence_id", "value")))


def _group(entry: object) -> bytes:
    g = amap(entry)
    kind = get(g, "kind")
    start = E(KIND, kind) + H(get(g, "key")) + W(get(g, "claim_count"))
    if kind == "numeric":
        return (start + _ref(kind, get(g, "min")) + _ref(kind, get(g, "max"))
                + R(g, ("kind", "key", "claim_count", "min", "max")))
    if kind == "boolean":
        return (start + _ref(kind, get(g, "first")) + P(lambda x: _ref(kind, x), g, "other")
                + R(g, ("kind", "key", "claim_count", "first", "other")))
    return none(f"a group of kind {kind!r}: neither numeric nor boolean")


CHUNK_OUTPUT = ("requirement_id", "window", "chunk", "items", "item_count", "admitted_count",
                "covered", "provenance_ok", "claim_count", "sources", "groups", "last_leaf",
                "from_leaf")


def chunk_form(step: Mapping[str, Any]) -> bytes:
    """``F`` CHUNK (tag 4): a ``check_requirement`` step, whole."""
    o = amap(get(step, "output"))
    inputs = amap(get(step, "inputs"))
    window = amap(get(o, "window"))
    return b"".join((
        W(CHUNK), H(get(step, "step_id")), H(get(o, "requirement_id")),
        B(get(o, "covered")), B(get(o, "provenance_ok")), W(get(o, "item_count")),
        O(o, "last_leaf"), L(_source, get(o, "sources")),
        T(get(inputs, "requirement_id")), R(inputs, ("kind", "requirement_id")),
        links(step),
        W(get(o, "chunk")), W(get(o, "admitted_count")), W(get(o, "claim_count")),
        W(get(window, "start")), W(get(window, "end")), R(window, ("start", "end")),
        O(o, "from_leaf"), L(_item, get(o, "items")), L(_group, get(o, "groups")),
        R(o, CHUNK_OUTPUT), description(step),
    ))


def texts(x: object) -> bytes:
    """``L[T]``: a list of texts the chain composes (DEDUCE's ``uncovered_requirements``)."""
    return L(T, array(x))


def hashes(x: object) -> bytes:
    """``L[H]``: a list of texts the chain compares or copies (ids)."""
    return L(H, array(x))
