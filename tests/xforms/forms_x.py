"""Second implementation of the chain forms, from docs/spec-forms-draft.md alone (s38),
now SPEC §5.6.

s39: draft §6 item 22: `F` checks the range §4 fixes of every integer it reads (and
`numeric_tolerance >= 0`): `Z(n)` outside 1..64, an `accepted_status_codes` entry outside
100..599, `min_sources`/`quorum` outside 1..64, `min_provenance_tier` outside 0..3,
window/slack outside 0..2^63-1, a confidence-policy value outside 0..10000 and a
negative tolerance have no form (`rng`, `Z`, `common`, `requirement`).
"""
import hashlib
import re

import cbor2


class NoForm(Exception):
    pass


def sha(b):
    return hashlib.sha256(b).digest()


def need(c):
    if not c:
        raise NoForm()


def W(n):
    need(type(n) is int and 0 <= n < 2**64)
    return n.to_bytes(32, "big")


def B(b):
    need(b is True or b is False)
    return W(1 if b else 0)


def E(codes, x):
    need(type(x) is str and x in codes)
    return W(codes.index(x))


def H(t):
    need(type(t) is str)
    return sha(t.encode("utf-8"))


def _pad(b):
    return b + b"\0" * (-len(b) % 32)


def T(t):
    need(type(t) is str)
    b = t.encode("utf-8")
    return W(len(b)) + _pad(b)


_DEC = re.compile(r"(-?)(0|[1-9][0-9]*)(?:\.([0-9]*[1-9]))?")


def D(d):
    need(type(d) is str)
    mt = _DEC.fullmatch(d)
    need(mt is not None)
    sign, ip, fp = mt.group(1), mt.group(2), mt.group(3) or ""
    digits = (ip + fp).lstrip("0") or "0"
    need(not (sign and digits == "0"))
    scale = len(fp)
    need(1 <= len(digits) <= 64 and scale <= 62 and len(d) <= 64)
    s = 1 if sign else 0
    return (s << 255 | scale << 232 | len(digits)).to_bytes(32, "big") + _pad(
        digits.encode())


def B32(h):
    need(type(h) is bytes and len(h) == 32)
    return h


def L(f, xs):
    need(type(xs) is list)
    return W(len(xs)) + b"".join(f(x) for x in xs)


def M(m):
    need(type(m) is dict)
    return m


def P(f, m, k):
    return W(0) if k not in m else W(1) + f(m[k])


def Opt(m, k, f=W):
    return W(0) + W(0) if k not in m else W(1) + f(m[k])


def rng(v, lo, hi):
    need(type(v) is int and lo <= v <= hi)
    return W(v)


def Z(m, k):
    if k not in m:
        return W(0)
    return rng(m[k], 1, 64)  # s39: draft §6 item 22 (was: only 0 refused)


def enc(x):
    """Canonical por-cbor/1 (§2): definite lengths, shortest heads, keys by encoded bytes."""
    if x is None or type(x) is float:
        raise NoForm()
    if type(x) is dict:
        items = sorted((enc(k), enc(v)) for k, v in x.items())
        return _head(5, len(x)) + b"".join(k + v for k, v in items)
    if type(x) is list:
        return _head(4, len(x)) + b"".join(enc(v) for v in x)
    return cbor2.dumps(x, canonical=True)


def _head(major, n):
    if n < 24:
        return bytes([major << 5 | n])
    if n < 256:
        return bytes([major << 5 | 24, n])
    if n < 65536:
        return bytes([major << 5 | 25]) + n.to_bytes(2, "big")
    if n < 2**32:
        return bytes([major << 5 | 26]) + n.to_bytes(4, "big")
    return bytes([major << 5 | 27]) + n.to_bytes(8, "big")


def R(m, keys):
    M(m)
    extra = {k: v for k, v in m.items() if k not in keys}
    return W(0) if not extra else sha(enc(extra))


def g(m, k, default=None):
    M(m)
    if k in m:
        return m[k]
    need(default is not None)
    return default


KIND = ["boolean", "numeric", "timestamp", "text"]
STRATEGY = ["single_best", "multi_source_quorum", "fallback_chain"]
TIE = ["source_order", "highest_provenance"]
STATUS = ["selected", "missing", "insufficient", "no_quorum"]
METRIC_STATUS = [*STATUS, "wrong_kind", "absent", "precondition_unmet",
                          "value_out_of_range", "votes_undecided"]
PREDICATE = ["event_observed", "numeric_threshold", "numeric_range", "field_comparison",
             "text_equals", "timestamp_threshold"]
COMPARISON = [">", ">=", "<", "<=", "=="]
OP = ["+", "-"]
OTHERWISE = ["INVALID", "NO"]
ON_CONFLICT = ["invalid", "continue"]
RULES = [None, "R_VALIDITY", "R_CONFLICT", "R_BINARY_DECISION", "R_CONFIDENCE",
         "R_INVALID_FALLBACK"]
REASON = [None, "sanity.allowed_source", "sanity.source_target", "sanity.time_window",
          "sanity.provenance", "sanity.confidence", "sanity.http_status", "gate.agent_name"]
OBSERVED_FROM = ["claim", "receipt"]
CHECK_ID = ["contradiction.numeric", "contradiction.boolean"]
OUTCOME = ["YES", "NO", "INVALID"]
CONF = [("default_confidence_bps", 7000), ("min_confidence_for_yesno_bps", 5500),
        ("conflict_factor_bps", 8000), ("fallback_factor_bps", 9000),
        ("invalid_confidence_bps", 0)]
FALLBACK_FIELDS = [("boolean", "result"), ("numeric", "value"), ("numeric", "price"),
                   ("timestamp", "timestamp")]


def V(kind, v):
    if kind == "numeric":
        return D(v)
    if kind == "boolean":
        return B(v)
    if kind == "timestamp":
        return W(v)
    if kind == "text":
        return H(v)
    raise NoForm()


def rule_code(r):
    rid = g(r, "rule_id")
    need(type(rid) is str)
    return W(RULES.index(rid) if rid in RULES[1:] else 0)


def common(S):
    M(S)
    ps, DR, mk = M(g(S, "prediction_semantics")), g(S, "data_requirements"), M(g(S, "market"))
    cp = M(g(S, "conflict_policy", {}))
    conf = M(g(S, "confidence_policy", {}))
    win = M(g(mk, "resolution_window"))

    def req_row(q):
        sp = M(g(q, "selection_policy"))
        return (H(g(q, "requirement_id")) + E(STRATEGY, g(sp, "strategy"))
                + W(len(g(q, "source_targets")) if type(q["source_targets"]) is list else -1)
                + rng(g(q, "min_provenance_tier", 0), 0, 3))  # s39: draft §6 item 22

    def incl(k):
        return Opt(ps, k, B)

    def pre(p):
        return H(g(p, "key")) + H(g(p, "equals")) + E(OTHERWISE, g(p, "otherwise", "INVALID"))

    tol = D(g(cp, "numeric_tolerance", "0"))
    need(tol[0] < 0x80)  # s39: draft §6 item 22, a tolerance >= 0
    t_max = 2**63 - 1
    return b"".join([
        W(1), H(g(ps, "metric")), Z(ps, "sources_required"),
        tol,
        L(req_row, DR),
        H(g(mk, "market_id")), rng(g(win, "start"), 0, t_max), rng(g(win, "end"), 0, t_max),
        rng(g(S, "timestamp_slack_seconds", 0), 0, t_max),  # s39: draft §6 item 22
        L(H, g(mk, "allowed_sources")),
        L(rule_code, g(M(g(mk, "resolution_rules")), "rules")),
        E(ON_CONFLICT, g(cp, "on_conflict", "invalid")),
        H(g(S, "output_schema_ref", "por.DeterministicVerdict/1")),
        B(g(S, "strict_mode", True)),
        b"".join(rng(g(conf, k, d), 0, 10000) for k, d in CONF),  # s39: draft §6 item 22
        E(PREDICATE, g(ps, "predicate")), T(g(ps, "metric")),
        P(lambda x: E(COMPARISON, x), ps, "comparison"),
        P(D, ps, "threshold"),
        P(lambda ts: L(lambda t: E(OP, g(t, "op")) + H(g(t, "metric")), ts), ps, "terms"),
        P(D, ps, "lower"), P(D, ps, "upper"), incl("lower_inclusive"), incl("upper_inclusive"),
        P(H, ps, "other_metric"), P(H, ps, "expected_text"),
        B(g(ps, "absent_means_no", False)),
        P(lambda xs: L(pre, xs), ps, "preconditions"),
    ])


def requirement(q):
    sp = M(g(q, "selection_policy"))
    ef = g(q, "expected_fields", [])
    need(type(ef) is list)
    fields = [(g(f, "kind"), g(f, "key")) for f in ef] or FALLBACK_FIELDS
    return b"".join([
        W(2), H(g(q, "requirement_id")), E(STRATEGY, g(sp, "strategy")),
        E(TIE, g(sp, "tie_breaker", "source_order")),
        rng(g(sp, "min_sources", 1), 1, 64), rng(g(sp, "quorum", 1), 1, 64),  # s39: item 22
        L(lambda t: H(g(t, "source_id")), g(q, "source_targets")),
        L(lambda f: E(KIND, f[0]) + H(f[1]), fields),
        P(lambda xs: L(lambda c: rng(c, 100, 599), xs), q, "accepted_status_codes"),  # s39
    ])
