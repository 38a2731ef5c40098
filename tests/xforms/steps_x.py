"""Step and verdict forms, the forms order and root (draft §2.3-§2.10, §3; SPEC §5.6).

s39: draft §6 item 22: the verdict's `confidence_bps` (0..10000), `resolution_time`,
`evidence_count`, `reasoning_count` (0..2^63-1) are range-checked (`verdict`).
"""
import hashlib

from tests.xforms.forms_x import (
    B32,
    CHECK_ID,
    KIND,
    METRIC_STATUS,
    OBSERVED_FROM,
    OUTCOME,
    PREDICATE,
    REASON,
    RULES,
    STATUS,
    STRATEGY,
    B,
    D,
    E,
    H,
    L,
    M,
    NoForm,
    Opt,
    P,
    R,
    T,
    V,
    W,
    common,
    g,
    need,
    requirement,
    rng,
)

KINDS = {"extract_claims": (3, "extract"), "check_requirement": (4, "check"),
         "aggregate": (5, "aggregate"), "contradictions": (6, "check"),
         "deduce": (7, "deduce"), "map": (8, "map")}
BK = KIND[:2]  # group / conflict kinds: 0 boolean, 1 numeric
WS = set("\u0009\u000a\u000b\u000c\u000d\u0020\u0085\u00a0\u1680\u2028\u2029\u202f"
         "\u205f\u3000") | {chr(c) for c in range(0x2000, 0x200b)}
CARD = {"source_id", "status_code", "retrieved_at", "confidence_bps", "provenance_tier"}


def extract(s, o):
    card = M(g(o, "card"))
    need(set(card) == CARD)
    sid = card["source_id"]
    need(type(sid) is str)

    def claim(c):
        k = g(c, "kind")
        return H(g(c, "key")) + E(KIND, k) + H(g(c, "claim_id")) + V(k, g(c, "value"))

    return b"".join([
        W(3), H(g(s, "step_id")), H(sid), rng(card["provenance_tier"], 0, 3),
        H(g(o, "evidence_id")), T(o["evidence_id"]), L(claim, g(o, "claims")),
        H(g(o, "requirement_id")), rng(card["status_code"], 100, 599),
        rng(card["retrieved_at"], 0, 2**63 - 1), rng(card["confidence_bps"], 0, 10000),
        B(all(ch in WS for ch in sid)),
    ])


def head(s, tag, rkeys):
    inp = s["inputs"]
    return W(tag) + H(g(s, "step_id")), R(inp, rkeys)


def cite(s):
    return L(H, g(s, "prior_step_ids")) + L(H, g(s, "evidence_ids"))


def ref(kind):
    def f(r):
        return (H(g(r, "claim_id")) + H(g(r, "evidence_id")) + V(kind, g(r, "value"))
                + R(r, {"claim_id", "evidence_id", "value"}))
    return f


def group(gr):
    k = g(gr, "kind")
    out = E(BK, k) + H(g(gr, "key")) + W(g(gr, "claim_count"))
    if k == "numeric":
        return out + ref(k)(g(gr, "min")) + ref(k)(g(gr, "max")) + R(
            gr, {"kind", "key", "claim_count", "min", "max"})
    return out + ref(k)(g(gr, "first")) + P(ref(k), gr, "other") + R(
        gr, {"kind", "key", "claim_count", "first", "other"})


def item(it):
    return b"".join([
        H(g(it, "evidence_id")), H(g(it, "source_id")), B(g(it, "admitted")),
        L(lambda r: E(REASON, r), g(it, "reasons")), W(g(it, "observed_at")),
        E(OBSERVED_FROM, g(it, "observed_from")), P(H, it, "gate_reason"),
        R(it, {"evidence_id", "source_id", "admitted", "reasons", "observed_at",
               "observed_from", "gate_reason"}),
    ])


def chunk(s, o):
    h, ri = head(s, 4, {"kind", "requirement_id"})
    win = M(g(o, "window"))
    src = ("step_id", "evidence_id", "source_id")
    return b"".join([
        h, H(g(o, "requirement_id")), B(g(o, "covered")), B(g(o, "provenance_ok")),
        W(g(o, "item_count")), Opt(o, "last_leaf"),
        L(lambda e: b"".join(H(g(e, k)) for k in src) + R(e, set(src)), g(o, "sources")),
        T(g(s["inputs"], "requirement_id")), ri, cite(s),
        W(g(o, "chunk")), W(g(o, "admitted_count")), W(g(o, "claim_count")),
        W(g(win, "start")), W(g(win, "end")), R(win, {"start", "end"}),
        Opt(o, "from_leaf"), L(item, g(o, "items")), L(group, g(o, "groups")),
        R(o, {"requirement_id", "window", "chunk", "items", "item_count", "admitted_count",
              "covered", "provenance_ok", "claim_count", "sources", "groups", "last_leaf",
              "from_leaf"}),
        T(g(s, "description")),
    ])


def field(f):
    k = g(f, "kind")
    E(KIND, k)

    def quorum(q):
        return (W(g(q, "required")) + W(g(q, "agreeing")) + B(g(q, "met"))
                + R(q, {"required", "agreeing", "met"}))

    def vote(v):
        return (V(k, g(v, "value")) + H(g(v, "source_id")) + H(g(v, "evidence_id"))
                + R(v, {"value", "source_id", "evidence_id"}))

    return b"".join([
        H(g(f, "key")), E(KIND, k), E(STATUS, g(f, "status")), W(g(f, "candidates")),
        B(g(f, "fallback_used")), P(lambda v: V(k, v), f, "value"), P(quorum, f, "quorum"),
        L(H, g(f, "claim_ids")), L(H, g(f, "evidence_ids")),
        P(lambda vs: L(vote, vs), f, "votes"),
        R(f, {"key", "kind", "status", "candidates", "fallback_used", "value", "quorum",
              "claim_ids", "evidence_ids", "votes"}),
    ])


def aggregate(s, o):
    h, ri = head(s, 5, {"kind", "requirement_id"})
    return b"".join([
        h, T(g(s["inputs"], "requirement_id")), ri, cite(s), H(g(o, "requirement_id")),
        E(STRATEGY, g(o, "strategy")), B(g(o, "covered")), B(g(o, "provenance_ok")),
        W(g(o, "item_count")), Opt(o, "last_leaf"), B(g(o, "fallback_used")),
        L(field, g(o, "fields")), L(H, g(o, "sources_used")),
        R(o, {"requirement_id", "strategy", "covered", "provenance_ok", "item_count",
              "last_leaf", "fallback_used", "fields", "sources_used"}),
        T(g(s, "description")),
    ])


def vtext(kind, v):
    if kind == "numeric":
        return D(v)
    need(kind == "boolean" and v in ("true", "false"))
    return W(1 if v == "true" else 0)


def conflict(c):
    k = g(c, "kind")
    return b"".join([
        E(CHECK_ID, g(c, "check_id")), E(BK, k), H(g(c, "key")), L(H, g(c, "claim_ids")),
        L(H, g(c, "evidence_ids")), L(lambda v: vtext(k, v), g(c, "values")),
        W(g(c, "claim_count")),
        R(c, {"check_id", "kind", "key", "claim_ids", "evidence_ids", "values",
              "claim_count"}),
    ])


def contradictions(s, o):
    h, ri = head(s, 6, {"kind"})
    return b"".join([
        h, ri, cite(s), W(g(o, "claim_count")), D(g(o, "numeric_tolerance")),
        L(conflict, g(o, "conflicts")), R(o, {"claim_count", "numeric_tolerance", "conflicts"}),
        T(g(s, "description")),
    ])


FLAGS = ("insufficient_evidence", "conflict_detected", "fallback_used", "provenance_ok")


def deduce(s, o):
    h, ri = head(s, 7, {"kind"})
    return b"".join([
        h, ri, cite(s), E(PREDICATE, g(o, "predicate")), H(g(o, "metric")),
        E(METRIC_STATUS, g(o, "metric_status")), L(T, g(o, "uncovered_requirements")),
        b"".join(B(g(o, k)) for k in FLAGS), L(H, g(o, "source_summary")),
        P(B, o, "event_observed"), P(D, o, "numeric_value"), P(W, o, "timestamp"),
        R(o, {"predicate", "metric", "metric_status", "uncovered_requirements", *FLAGS,
              "source_summary", "event_observed", "numeric_value", "timestamp"}),
        T(g(s, "description")),
    ])


MFLAGS = ("conflict_detected", "insufficient_evidence", "fallback_used", "provenance_ok")
MVARS = {"event_observed", "numeric_value", "timestamp", *MFLAGS, "source_summary"}


def map_(s, o):
    h, ri = head(s, 8, {"kind"})
    v = M(g(o, "evaluation_variables"))
    return b"".join([
        h, ri, cite(s), P(B, v, "event_observed"), P(D, v, "numeric_value"),
        P(W, v, "timestamp"), b"".join(B(g(v, k)) for k in MFLAGS),
        L(H, g(v, "source_summary")), R(v, MVARS), R(o, {"evaluation_variables"}),
        T(g(s, "description")),
    ])


BUILD = {3: extract, 4: chunk, 5: aggregate, 6: contradictions, 7: deduce, 8: map_}


def step(s):
    inp = M(g(s, "inputs"))
    kind = g(inp, "kind")
    need(type(kind) is str and kind in KINDS)
    tag, st = KINDS[kind]
    need(g(s, "step_type") == st)
    return BUILD[tag](s, M(g(s, "output")))


def verdict(v):
    M(v)
    rid = g(v, "resolution_rule_id")
    need(type(rid) is str and rid in RULES[1:])
    return b"".join([
        W(9), H(g(v, "market_id")), E(OUTCOME, g(v, "outcome")),
        rng(g(v, "confidence_bps"), 0, 10000),  # s39: draft §6 item 22 (and below)
        W(RULES.index(rid)), Opt(v, "resolution_time", lambda t: rng(t, 0, 2**63 - 1)),
        B32(g(v, "prompt_spec_hash")), B32(g(v, "evidence_root")),
        rng(g(v, "evidence_count"), 0, 2**63 - 1), B32(g(v, "reasoning_root")),
        rng(g(v, "reasoning_count"), 0, 2**63 - 1),
    ])


def form(rec, requirement_index=None):
    """F of a record: COMMON (or REQUIREMENT k) of a PromptSpec, a step's, a verdict's."""
    schema = g(rec, "schema")
    if schema == "por.PromptSpec/1":
        if requirement_index is None:
            return common(rec)
        dr = g(rec, "data_requirements")
        need(type(dr) is list and 0 <= requirement_index < len(dr))
        return requirement(dr[requirement_index])
    if schema == "por.ReasoningStep/1":
        return step(rec)
    if schema == "por.DeterministicVerdict/1":
        return verdict(rec)
    raise NoForm()


def forms_of(spec, steps, verd):
    dr = g(spec, "data_requirements")
    return ([common(spec)] + [requirement(q) for q in dr] + [step(s) for s in steps]
            + [verdict(verd)])


def LH(f):
    return hashlib.sha256(b"\0" + f).digest()


def mth(leaves):
    if len(leaves) == 1:
        return leaves[0]
    k = 1
    while k * 2 < len(leaves):
        k *= 2
    return hashlib.sha256(b"\1" + mth(leaves[:k]) + mth(leaves[k:])).digest()


def forms_root(forms):
    return mth([LH(f) for f in forms])


__all__ = ["LH", "NoForm", "form", "forms_of", "forms_root"]
