"""What the deduce executor on chain forms reads, checked: Python's twin of
``contracts/src/forms/PorDeduceFormRead.sol`` (SPEC §5.6's COMMON, AGGREGATE and
CONTRADICTIONS layouts).

COMMON (the requirement table and the prediction semantics), the cited AGGREGATE forms
(their requirement, coverage, evidence ids and fields) and the CONTRADICTIONS form (its
conflicts' kind and key) are read with :mod:`por.forms.execute.read` up to the last
word deduce reads, in Solidity's order (a malformation there raises ``FormFault``;
words no rule reads are skipped, not checked). Ids, keys and text values are ``H``
words (lever (a)+v, SPEC §5.6.1), kept as their 32 bytes; an AGGREGATE's word 2 (its
``T(inputs.requirement_id)``, which ``uncovered_requirements`` copies) as its bytes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from por.forms.execute import read as rd
from por.forms.execute.predicate import Bounds, decimal, read_semantics
from por.forms.words import COMMON

#: Roles of a needed field: the metric, a ``+`` term, a ``-`` term or ``other_metric``,
#: a precondition.
METRIC, PLUS, MINUS, PRE = 0, 1, 2, 3
#: The metric's kind by predicate: boolean, numeric x3, text, timestamp.
METRIC_KIND = (rd.BOOLEAN, rd.NUMERIC, rd.NUMERIC, rd.NUMERIC, rd.TEXT, rd.TIMESTAMP)

#: A value as its kind reads it: B as its word (0/1), D as a decimal, W, a text's H.
Value = int | Fraction | bytes


@dataclass
class Needed:
    """A field deduce needs (``por.predicates.needed_fields``): its key's hash, kind,
    role; a precondition's ``H(equals)`` and ``otherwise`` (NO)."""

    key: bytes
    kind: int
    role: int
    equals: bytes = b""
    otherwise_no: bool = False


@dataclass
class Sem(Bounds):
    """COMMON as deduce reads it."""

    k: int = 0
    reqs: list[bytes] = field(default_factory=list)
    chain: list[bool] = field(default_factory=list)
    targets: list[int] = field(default_factory=list)
    metric: bytes = b""
    expected: bytes | None = None
    absent_no: bool = False
    needed: list[Needed] = field(default_factory=list)


@dataclass
class Field:
    """A cited AGGREGATE's field: H(key), kind, status, fallback, value (None absent),
    its evidence ids' ``H``, its votes ((value, H(evidence id)) each; None absent)."""

    key: bytes
    kind: int
    status: int
    fallback: bool
    value: Value | None
    ids: list[bytes]
    votes: list[tuple[Value, bytes]] | None


@dataclass
class Agg:
    """A cited AGGREGATE: its requirement id's ``T`` (bytes as committed), coverage,
    provenance, evidence ids (and which of them deduce read), fields."""

    rid: bytes
    rid_t: bytes
    covered: bool
    prov: bool
    ids: list[bytes]
    read: list[bool]
    fields: list[Field]
    last: dict[bytes, int] | None = None  # each id's last place (``_mark``), built once


def text(f: bytes, o: int) -> tuple[bytes, int]:
    """A checked ``T``'s bytes and the offset after it."""
    return rd.read_t(f, o)


def dec(f: bytes, o: int) -> tuple[Fraction, int]:
    """A checked ``D`` as a decimal and the offset after it."""
    d, nxt = rd.read_d(f, o)
    return decimal(d.negative, d.scale, d.digits), nxt


def value(f: bytes, o: int, kind: int) -> tuple[Value, int]:
    """``V_kind`` checked and what the executor reads of it (a text value is its ``H``,
    one word; the other kinds as ``skip_v`` reads them)."""
    if kind == rd.TEXT:
        return rd.read_h(f, o)
    nxt = rd.skip_v(f, o, kind)
    if kind == rd.NUMERIC:
        return dec(f, o)[0], nxt
    return rd.at(f, o), nxt


def hashes(f: bytes, o: int) -> tuple[list[bytes], int]:
    """A checked ``L[H]`` (its count bounds its words): its words and the offset after
    it."""
    n, o = rd.read_l(f, o)
    return [f[o + 32 * k:o + 32 * k + 32] for k in range(n)], o + 32 * n


# ------------------------------------------------------------------------- COMMON


def read_common(f: bytes) -> Sem:
    """COMMON read whole: the requirement table, then the prediction semantics."""
    s = Sem()
    o = rd.open_form(f, COMMON)
    _, o = rd.read_h(f, o)  # metric
    s.k, o = rd.read_z(f, o)
    _, o = rd.read_d(f, o)  # numeric tolerance
    r, o = rd.read_l(f, o)
    for _ in range(r):
        req, o = rd.read_h(f, o)
        strategy, o = rd.read_e(f, o, 3)
        target, o = rd.read_w(f, o)
        _, o = rd.read_w(f, o)  # min_provenance_tier
        s.reqs.append(req)
        s.chain.append(strategy == 2)
        s.targets.append(target)
    o = _market(f, o)
    o = _semantics(f, o, s)
    rd.end(f, o)
    return s


def _market(f: bytes, o: int) -> int:
    """Market id to the confidence policy: skipped (its lists' counts checked)."""
    n, o = rd.read_l(f, o + 128)  # market id, window, slack
    n, o = rd.read_l(f, o + (n << 5))  # allowed sources, then the rule codes
    return o + (n << 5) + 256  # on_conflict, schema ref, strict mode, five confidences


def _semantics(f: bytes, o: int, s: Sem) -> int:
    """Predicate to the preconditions (``read_semantics``), then the needed fields: the
    metric, the terms, ``other_metric``, the preconditions."""
    r, o = read_semantics(f, o, s)
    s.metric, s.expected, s.absent_no = r.metric, r.expected, r.absent_no
    s.needed = [Needed(rd.word(f, 1).to_bytes(32, "big"), METRIC_KIND[s.predicate], METRIC)]
    s.needed += [Needed(key, rd.NUMERIC, MINUS if minus else PLUS) for minus, key in r.terms]
    if r.other is not None:
        s.needed.append(Needed(r.other, rd.NUMERIC, MINUS))
    s.needed += [Needed(key, rd.TEXT, PRE, equals, no) for key, equals, no in r.preconditions]
    return o


# ---------------------------------------------------------------------- AGGREGATE


def read_aggregate(f: bytes) -> Agg:
    """A cited AGGREGATE (its tag checked by the caller) read up to its fields."""
    rid, o = text(f, 64)  # after the tag and the step id
    rid_t = f[64:o]
    n, o = rd.read_l(f, o + 32)  # after Ri
    o += n << 5  # priors
    ids, o = hashes(f, o)
    o += 64  # H(o.requirement_id), strategy (not read)
    covered, o = rd.read_b(f, o)
    prov, o = rd.read_b(f, o)
    n, o = rd.read_l(f, o + 128)  # item_count, last_leaf, fallback_used (not read)
    fields = []
    for _ in range(n):
        fld, o = _field(f, o)
        fields.append(fld)
    return Agg(rid, rid_t, covered, prov, ids, [False] * len(ids), fields)


def _field(f: bytes, o: int) -> tuple[Field, int]:
    """A field of an AGGREGATE and the offset after it."""
    key, o = rd.read_h(f, o)  # the REQUIREMENT's H(key), copied
    kind, o = rd.read_e(f, o, 4)
    status, o = rd.read_e(f, o, 4)
    _, o = rd.read_w(f, o)
    fallback, o = rd.read_b(f, o)
    val: Value | None = None
    present, o = rd.read_p(f, o)
    if present:
        val, o = value(f, o, kind)
    present, o = rd.read_p(f, o)
    if present:
        o += 128  # quorum (not read)
    _, o = hashes(f, o)  # claim_ids
    ids, o = hashes(f, o)
    votes: list[tuple[Value, bytes]] | None = None
    present, o = rd.read_p(f, o)
    if present:
        votes = []
        n, o = rd.read_l(f, o)
        for _ in range(n):
            vote, o = value(f, o, kind)
            votes.append((vote, f[o + 32:o + 64]))  # after H(source_id): H(evidence_id)
            o += 96  # H(source_id), H(evidence_id), the vote's rest
    rd.at(f, o)  # the field's rest: every word above is inside the form
    return Field(key, kind, status, fallback, val, ids, votes), o + 32


# ----------------------------------------------------------------- CONTRADICTIONS


def read_conflicts(f: bytes) -> list[tuple[int, bytes]]:
    """The conflicts' (kind, H(key)) of a CONTRADICTIONS, read up to its conflicts."""
    n, o = rd.read_l(f, 96)  # after the tag, step id, Ri
    _, o = hashes(f, o + (n << 5))
    _, o = rd.read_d(f, o + 32)  # after claim_count
    n, o = rd.read_l(f, o)
    out = []
    for _ in range(n):
        kind, o = rd.read_e(f, o + 32, 4)  # after the check id (not read)
        key, o = rd.read_h(f, o)
        _, o = hashes(f, o)  # claim_ids
        _, o = hashes(f, o)  # evidence_ids
        m, o = rd.read_l(f, o)
        for _ in range(m):
            if kind == rd.NUMERIC:
                _, o = rd.read_d(f, o)
            elif kind == rd.BOOLEAN:
                _, o = rd.read_b(f, o)
            else:
                rd.fault("a conflict's values are neither numeric nor boolean")
        o += 64  # claim_count, rest
        out.append((kind, key))
    return out


__all__ = ["MINUS", "PLUS", "PRE", "Agg", "Field", "Needed", "Sem", "Value",
           "hashes", "read_aggregate", "read_common", "read_conflicts", "text", "value"]
