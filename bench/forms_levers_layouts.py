"""The forms of a bundle under each layout ``bench/forms_levers.py`` measures (ADR 0017,
s39 decision 3; s40 helper ``levers``; s41 ``layout``): s40's SPEC §5.6 (no lever),
lever (a) (``H`` for copied ids), lever (b) (the AGGREGATE as a head and per-field
parts), and +v (text claim values, COMMON's ``expected_text`` and a precondition's
``equals`` as ``H``). SPEC §5.6 today (s41) is (a)+v. Nothing here is protocol:
``por.forms`` is ``F``; under (a)+v these encoders give its bytes (:func:`same_as_spec`),
so a lever's figure differs from today's by the lever alone.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from por.bundle.layout import COMPONENT_INDEX, COMPONENTS, Bundle
from por.container.spec import component_leaf
from por.encoding import decode
from por.forms import forms_of
from por.forms.recomputed import (
    AGGREGATE_OUTPUT,
    CONFLICT,
    DEDUCE_OUTPUT,
    FIELD,
    FLAGS,
    VARIABLES,
    _as_text,
    _quorum,
)
from por.forms.spec import common_form, effective_fields
from por.forms.steps import CHUNK_OUTPUT, _item, _source, identity
from por.forms.verdict import verdict_form
from por.forms.words import (
    AGGREGATE,
    BPS_MAX,
    CHUNK,
    CONFLICT_CHECK,
    CONTRADICTIONS,
    DEDUCE,
    EXTRACT,
    KIND,
    MAP,
    METRIC_STATUS,
    OTHERWISE,
    PREDICATE,
    REQUIREMENT,
    STATUS,
    STRATEGY,
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
    R,
    T,
    V,
    W,
    amap,
    array,
    get,
    ranged,
)
from por.gate import is_blank
from por.merkle.hashing import leaf_hash
from por.merkle.tree import inclusion_proof_from_leaf_hashes, root_from_leaf_hashes


@dataclass(frozen=True)
class Layout:
    """A layout of the forms: ``ids`` lever (a), ``split`` lever (b), ``values`` (text
    claim values as ``H``, an extension of (a))."""

    name: str
    ids: bool = False
    split: bool = False
    values: bool = False

    def copied(self, t: object) -> bytes:
        """An id a form copies or compares for equality: ``T`` today, ``H`` under (a)."""
        return H(t) if self.ids else T(t)

    def id_list(self, xs: object) -> bytes:
        return L(self.copied, xs)

    def value(self, kind: str, v: object) -> bytes:
        """A claim value: ``V_kind``; a text value ``H`` under ``values``, else ``T``."""
        if kind == "text":
            return H(v) if self.values else T(v)
        return V(kind, v)

    def text(self, t: object) -> bytes:
        """COMMON's ``expected_text`` and a precondition's ``equals``: as a text value."""
        return H(t) if self.values else T(t)


#: s40's layout (no lever), its levers, and SPEC §5.6 today: (a)+v (s41), with (b).
S40, LEVER_A = Layout("s40"), Layout("s40+a", ids=True)
LEVER_B, BOTH = Layout("s40+b", split=True), Layout("s40+a+b", ids=True, split=True)
TODAY = Layout("today", ids=True, values=True)
EVERY = Layout("today+b", ids=True, split=True, values=True)


# ------------------------------------------------------------------ the forms per layout

def _common_tail(ps: Mapping[str, Any], lay: Layout) -> bytes:
    """COMMON's last three parts: ``expected_text``, ``absent_means_no``, preconditions."""
    def pre(x: object) -> bytes:
        p = amap(x)
        return H(get(p, "key")) + lay.text(get(p, "equals")) + E(
            OTHERWISE, p.get("otherwise", "INVALID"))

    return b"".join((P(lay.text, ps, "expected_text"),
                     B(ps["absent_means_no"]) if "absent_means_no" in ps else ZERO,
                     P(lambda pres: L(pre, pres), ps, "preconditions")))


def common(spec: Mapping[str, Any], lay: Layout) -> bytes:
    """COMMON: ``por.forms``' with its tail (``expected_text`` and the preconditions'
    ``equals``: ``H`` today, ``T`` without +v) under ``lay``."""
    ps = amap(get(spec, "prediction_semantics"))
    form, today = common_form(spec), _common_tail(ps, TODAY)
    assert form.endswith(today)
    return form[:len(form) - len(today)] + _common_tail(ps, lay)


def requirement(q: Mapping[str, Any], lay: Layout) -> bytes:
    """REQUIREMENT: (a) drops each field's ``T(key)`` (the AGGREGATE copies ``H``)."""
    policy = amap(get(q, "selection_policy"))
    targets = [get(amap(x), "source_id") for x in array(get(q, "source_targets"))]
    fields = effective_fields(q)
    return b"".join((
        W(REQUIREMENT), H(get(q, "requirement_id")), E(STRATEGY, get(policy, "strategy")),
        E(TIE_BREAKER, policy.get("tie_breaker", "source_order")),
        ranged(policy.get("min_sources", 1), 1, 64), ranged(policy.get("quorum", 1), 1, 64),
        L(H, targets), W(len(fields)),
        *(E(KIND, kind) + H(key) + (b"" if lay.ids else T(key)) for key, kind in fields),
        P(lambda codes: L(lambda c: ranged(c, 100, 599), codes), q, "accepted_status_codes"),
    ))


def links(step: Mapping[str, Any], lay: Layout) -> bytes:
    return L(H, get(step, "prior_step_ids")) + lay.id_list(get(step, "evidence_ids"))


def head(step: Mapping[str, Any], tag: int, lay: Layout) -> bytes:
    return W(tag) + H(get(step, "step_id")) + R(amap(get(step, "inputs")), ("kind",)) + links(
        step, lay)


def extract(step: Mapping[str, Any], lay: Layout) -> bytes:
    """EXTRACT: (a) claim ids ``H``; ``T(evidence_id)`` stays (the judge's lock)."""
    out = amap(get(step, "output"))
    card = amap(get(out, "card"))

    def claim(c: object) -> bytes:
        m = amap(c)
        kind = get(m, "kind")
        return H(get(m, "key")) + E(KIND, kind) + lay.copied(get(m, "claim_id")) + lay.value(
            kind, get(m, "value"))

    return b"".join((
        W(EXTRACT), H(get(step, "step_id")), H(card["source_id"]),
        ranged(card["provenance_tier"], 0, 3), H(get(out, "evidence_id")),
        T(out["evidence_id"]), L(claim, get(out, "claims")), H(get(out, "requirement_id")),
        ranged(card["status_code"], 100, 599), ranged(card["retrieved_at"], 0, TIME_MAX),
        ranged(card["confidence_bps"], 0, BPS_MAX), B(is_blank(card["source_id"])),
    ))


def _ref(kind: str, ref: object, lay: Layout) -> bytes:
    r = amap(ref)
    return (lay.copied(get(r, "claim_id")) + lay.copied(get(r, "evidence_id"))
            + V(kind, get(r, "value")) + R(r, ("claim_id", "evidence_id", "value")))


def group(entry: object, lay: Layout) -> bytes:
    """A CHUNK group; its refs' ids are copied into CONTRADICTIONS."""
    g = amap(entry)
    kind = get(g, "kind")
    start = E(KIND, kind) + H(get(g, "key")) + W(get(g, "claim_count"))
    if kind == "numeric":
        return (start + _ref(kind, get(g, "min"), lay) + _ref(kind, get(g, "max"), lay)
                + R(g, ("kind", "key", "claim_count", "min", "max")))
    return (start + _ref(kind, get(g, "first"), lay)
            + P(lambda x: _ref(kind, x, lay), g, "other")
            + R(g, ("kind", "key", "claim_count", "first", "other")))


def chunk(step: Mapping[str, Any], lay: Layout) -> bytes:
    o, inputs = amap(get(step, "output")), amap(get(step, "inputs"))
    window = amap(get(o, "window"))
    return b"".join((
        W(CHUNK), H(get(step, "step_id")), H(get(o, "requirement_id")),
        B(get(o, "covered")), B(get(o, "provenance_ok")), W(get(o, "item_count")),
        O(o, "last_leaf"), L(_source, get(o, "sources")),
        T(get(inputs, "requirement_id")), R(inputs, ("kind", "requirement_id")),
        links(step, lay), W(get(o, "chunk")), W(get(o, "admitted_count")),
        W(get(o, "claim_count")), W(get(window, "start")), W(get(window, "end")),
        R(window, ("start", "end")), O(o, "from_leaf"), L(_item, get(o, "items")),
        L(lambda g: group(g, lay), get(o, "groups")), R(o, CHUNK_OUTPUT),
        T(get(step, "description")),
    ))


def field_part(entry: object, lay: Layout) -> bytes:
    """One AGGREGATE field, as today's ``field`` (SPEC §5.6.8) or with (a)'s ids."""
    f = amap(entry)
    kind = get(f, "kind")

    def vote(x: object) -> bytes:
        v = amap(x)
        return (lay.value(kind, get(v, "value")) + H(get(v, "source_id"))
                + lay.copied(get(v, "evidence_id")) + R(v, ("value", "source_id", "evidence_id")))

    return b"".join((
        lay.copied(get(f, "key")), E(KIND, kind), E(STATUS, get(f, "status")),
        W(get(f, "candidates")), B(get(f, "fallback_used")),
        P(lambda v: lay.value(kind, v), f, "value"), P(_quorum, f, "quorum"),
        lay.id_list(get(f, "claim_ids")), lay.id_list(get(f, "evidence_ids")),
        P(lambda votes: L(vote, votes), f, "votes"), R(f, FIELD),
    ))


def field_row(entry: object, part: bytes) -> bytes:
    """(b): the head's row of a field: what deduce finds fields by, and the part's hash."""
    f = amap(entry)
    return (H(get(f, "key")) + E(KIND, get(f, "kind")) + E(STATUS, get(f, "status"))
            + hashlib.sha256(part).digest())


def aggregate(step: Mapping[str, Any], lay: Layout) -> tuple[bytes, list[bytes]]:
    """AGGREGATE (the head under (b)) and its field parts (none unless split)."""
    o, inputs = amap(get(step, "output")), amap(get(step, "inputs"))
    entries = array(get(o, "fields"))
    parts = [field_part(f, lay) for f in entries]
    if lay.split:
        fields = W(len(entries)) + b"".join(field_row(f, p) for f, p in zip(entries, parts,
                                                                            strict=True))
    else:
        fields = W(len(entries)) + b"".join(parts)
    form = b"".join((
        W(AGGREGATE), H(get(step, "step_id")), T(get(inputs, "requirement_id")),
        R(inputs, ("kind", "requirement_id")), links(step, lay),
        lay.copied(get(o, "requirement_id")), E(STRATEGY, get(o, "strategy")),
        B(get(o, "covered")), B(get(o, "provenance_ok")), W(get(o, "item_count")),
        O(o, "last_leaf"), B(get(o, "fallback_used")), fields,
        lay.id_list(get(o, "sources_used")), R(o, AGGREGATE_OUTPUT),
        T(get(step, "description")),
    ))
    return form, parts if lay.split else []


def contradictions(step: Mapping[str, Any], lay: Layout) -> bytes:
    o = amap(get(step, "output"))

    def conflict(entry: object) -> bytes:
        c = amap(entry)
        kind = get(c, "kind")
        return b"".join((
            E(CONFLICT_CHECK, get(c, "check_id")), E(KIND, kind), H(get(c, "key")),
            lay.id_list(get(c, "claim_ids")), lay.id_list(get(c, "evidence_ids")),
            L(lambda v: _as_text(kind, v), get(c, "values")), W(get(c, "claim_count")),
            R(c, CONFLICT),
        ))

    return b"".join((
        head(step, CONTRADICTIONS, lay), W(get(o, "claim_count")),
        D(get(o, "numeric_tolerance")), L(conflict, get(o, "conflicts")),
        R(o, ("claim_count", "numeric_tolerance", "conflicts")), T(get(step, "description")),
    ))


def deduce(step: Mapping[str, Any], lay: Layout) -> bytes:
    """DEDUCE: ``uncovered_requirements`` stays ``T`` (its description composes them)."""
    o = amap(get(step, "output"))
    return b"".join((
        head(step, DEDUCE, lay), E(PREDICATE, get(o, "predicate")), H(get(o, "metric")),
        E(METRIC_STATUS, get(o, "metric_status")),
        L(T, get(o, "uncovered_requirements")), *(B(get(o, name)) for name in FLAGS),
        lay.id_list(get(o, "source_summary")), P(B, o, "event_observed"),
        P(D, o, "numeric_value"), P(W, o, "timestamp"), R(o, DEDUCE_OUTPUT),
        T(get(step, "description")),
    ))


def map_form(step: Mapping[str, Any], lay: Layout) -> bytes:
    o = amap(get(step, "output"))
    v = amap(get(o, "evaluation_variables"))
    return b"".join((
        head(step, MAP, lay), P(B, v, "event_observed"), P(D, v, "numeric_value"),
        P(W, v, "timestamp"), B(get(v, "conflict_detected")),
        B(get(v, "insufficient_evidence")), B(get(v, "fallback_used")),
        B(get(v, "provenance_ok")), lay.id_list(get(v, "source_summary")),
        R(v, VARIABLES), R(o, ("evaluation_variables",)), T(get(step, "description")),
    ))


STEPS: dict[str, Callable[[Mapping[str, Any], Layout], bytes]] = {
    "extract_claims": extract, "check_requirement": chunk,
    "contradictions": contradictions, "deduce": deduce, "map": map_form}


@dataclass
class Committed:
    """A bundle's forms under one layout, their tree, and the AGGREGATE parts (``b``)."""

    layout: Layout
    forms: list[bytes]
    parts: dict[int, list[bytes]]
    requirements: int
    por_root: bytes
    component_path: list[bytes]
    leaves: list[bytes] = field(default_factory=list)

    def path(self, index: int) -> list[bytes]:
        return inclusion_proof_from_leaf_hashes(self.leaves, index)


def committed(bundle: Bundle, lay: Layout) -> Committed:
    """Every form of ``bundle`` under ``lay``, in SPEC §5.6.14's order, and ``por_root``."""
    spec = decode(bundle.prompt_spec)
    entries = array(get(spec, "data_requirements"))
    forms = [common(spec, lay), *(requirement(amap(q), lay) for q in entries)]
    parts: dict[int, list[bytes]] = {}
    for raw in bundle.steps:
        step = amap(decode(raw))
        kind, _ = identity(step)
        if kind == "aggregate":
            form, split = aggregate(step, lay)
            parts[len(forms)] = split
        else:
            form = STEPS[kind](step, lay)
        forms.append(form)
    forms.append(verdict_form(decode(bundle.verdict)))
    leaves = [leaf_hash(f) for f in forms]
    components = [leaf_hash(component_leaf(*bundle.commitments.component(name)))
                  for name in COMPONENTS[:COMPONENT_INDEX["forms"]]]
    components.append(leaf_hash(component_leaf(root_from_leaf_hashes(leaves), len(forms))))
    return Committed(lay, forms, parts, len(entries), root_from_leaf_hashes(components),
                     inclusion_proof_from_leaf_hashes(components, 6), leaves)


def same_as_spec(bundle: Bundle, lay: Layout = TODAY) -> None:
    """``today`` ((a)+v) is SPEC §5.6: this module's encoders give ``por.forms``' bytes."""
    ours = committed(bundle, lay).forms
    theirs = [f.form for f in forms_of(decode(bundle.prompt_spec),
                                       [decode(s) for s in bundle.steps],
                                       decode(bundle.verdict)).forms]
    if ours != theirs:
        bad = next(i for i, (x, y) in enumerate(zip(ours, theirs, strict=True)) if x != y)
        raise AssertionError(f"form {bad} differs from por.forms")
