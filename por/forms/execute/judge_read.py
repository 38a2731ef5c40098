"""What the JudgeProof on chain forms reads, checked: Python's twin of
``contracts/src/forms/PorJudgeFormRead.sol`` (SPEC §5.6's COMMON, MAP layouts).

COMMON (its market, rule and confidence parts and the prediction semantics the judge
reads) and the MAP form's variables are read whole with :mod:`por.forms.execute.read`,
in Solidity's order; a malformation raises ``FormFault``. A lock failure the executor
finds in a well-formed form (schema ref, strict mode, rule order; a variables key, a
repeated summary id, a timestamp past 2^63 - 1) is a flag, not a fault. The summary's
ids are ``H`` words (lever (a)+v): the lock's count of an id's code points is on the
carried EXTRACT's word 5 (``judge._cards``).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from fractions import Fraction

from por.forms.execute import read as rd
from por.forms.execute.deduce_read import dec
from por.forms.execute.predicate import ZERO, Bounds, read_semantics
from por.forms.words import COMMON

#: ``H("por.DeterministicVerdict/1")``, the schema lock's ``output_schema_ref``.
SCHEMA_REF = hashlib.sha256(b"por.DeterministicVerdict/1").digest()
MAX_UINT63 = (1 << 63) - 1
#: A summary id's longest length in code points.
MAX_ID_POINTS = 128


@dataclass
class Spec(Bounds):
    """COMMON as the judge reads it; ``conf``: default, min for yes/no, conflict factor,
    fallback factor, invalid."""

    has_k: bool = False
    reqs: list[bytes] = field(default_factory=list)
    tiers: list[int] = field(default_factory=list)
    market: bytes = bytes(32)
    start: int = 0
    end: int = 0
    slack: int = 0
    lock_fails: bool = False
    on_conflict_invalid: bool = False
    conf: list[int] = field(default_factory=list)
    absent_no: bool = False
    any_otherwise_no: bool = False


@dataclass
class Vars:
    """The MAP form's evaluation variables; ``ids``: the unique summary ids' ``H`` words
    in order, ``n_summary`` the summary's entries (with repeats)."""

    has_event: bool = False
    event_true: bool = False
    num: Fraction | None = None
    stamp: int | None = None
    conflict: bool = False
    insufficient: bool = False
    fb: bool = False
    prov: bool = False
    lock_fails: bool = False
    ids: list[bytes] = field(default_factory=list)
    n_summary: int = 0


# ------------------------------------------------------------------------- COMMON


def read_common(f: bytes) -> Spec:
    """COMMON read whole as the judge reads it."""
    s = Spec()
    o = rd.open_form(f, COMMON) + 32  # metric
    k, o = rd.read_z(f, o)
    s.has_k = k != 0
    _, o = rd.read_d(f, o)
    r, o = rd.read_l(f, o)
    for _ in range(r):
        req, o = rd.read_h(f, o)
        _, o = rd.read_e(f, o, 3)
        _, o = rd.read_w(f, o)
        tier, o = rd.read_w(f, o)
        s.reqs.append(req)
        s.tiers.append(tier)
    s.market, o = rd.read_h(f, o)
    s.start, o = rd.read_w(f, o)
    s.end, o = rd.read_w(f, o)
    s.slack, o = rd.read_w(f, o)
    n, o = rd.read_l(f, o)
    o += n << 5  # allowed sources
    o = _rules(f, o, s)
    v, o = rd.read_e(f, o, 2)
    s.on_conflict_invalid = v == 0
    ref, o = rd.read_h(f, o)
    strict, o = rd.read_b(f, o)
    if ref != SCHEMA_REF or not strict:
        s.lock_fails = True
    for _ in range(5):
        c, o = rd.read_w(f, o)
        s.conf.append(c)
    rd.end(f, _semantics(f, o, s))
    return s


def _rules(f: bytes, o: int, s: Spec) -> int:
    """The rule codes: an unknown id (code 0) or a rule after one of a later stage fails
    the lock (stages 0, 1, 2, 3, 3 for codes 1-5)."""
    n, o = rd.read_l(f, o)
    latest = 0
    for _ in range(n):
        code, o = rd.read_e(f, o, 6)
        if code == 0:
            s.lock_fails = True
            continue
        stage = 4 if code == 5 else code
        if stage < latest:
            s.lock_fails = True
        latest = max(latest, stage)
    return o


def _semantics(f: bytes, o: int, s: Spec) -> int:
    """The prediction semantics (``read_semantics``): the bounds, ``absent_means_no`` and
    whether a precondition's otherwise is ``no``."""
    r, o = read_semantics(f, o, s)
    s.absent_no = r.absent_no
    s.any_otherwise_no = any(no for _key, _equals, no in r.preconditions)
    return o


# ---------------------------------------------------------------------------- MAP


def read_map(f: bytes) -> Vars:
    """The MAP form (its tag checked by the caller) read whole."""
    v = Vars()
    n, o = rd.read_l(f, 96)  # after the tag, step id, Ri
    n, o = rd.read_l(f, o + (n << 5))  # evidence_ids, L[H]
    o += n << 5
    v.has_event, o = rd.read_p(f, o)
    if v.has_event:
        v.event_true, o = rd.read_b(f, o)
    present, o = rd.read_p(f, o)
    if present:
        v.num, o = dec(f, o)
    present, o = rd.read_p(f, o)
    if present:
        v.stamp, o = rd.read_w(f, o)
        if v.stamp > MAX_UINT63:
            v.lock_fails = True
    v.conflict, o = rd.read_b(f, o)
    v.insufficient, o = rd.read_b(f, o)
    v.fb, o = rd.read_b(f, o)
    v.prov, o = rd.read_b(f, o)
    o = _summary(f, o, v)
    if rd.at(f, o) != 0:
        v.lock_fails = True  # R(v): a key EvaluationVariables does not have
    rd.end(f, rd.skip_t(f, o + 64))  # R(output), description
    return v


def _summary(f: bytes, o: int, v: Vars) -> int:
    """source_summary (``L[H]``): its unique words in order; a repeat fails the lock.
    (The executor records at most one word per carried EXTRACT form, then only counts:
    more unique words than carried forms is ``proof.citations`` either way.)"""
    n, o = rd.read_l(f, o)
    v.n_summary = n
    seen: set[bytes] = set()
    for k in range(n):
        h = f[o + 32 * k:o + 32 * k + 32]
        if h in seen:
            v.lock_fails = True
            continue
        seen.add(h)
        v.ids.append(h)
    return o + 32 * n


def points(t: bytes) -> int:
    """UTF-8 code points of ``t``: its bytes less the continuation bytes (10xxxxxx)."""
    return sum(1 for b in t if b & 0xC0 != 0x80)


__all__ = ["MAX_ID_POINTS", "ZERO", "Spec", "Vars", "points", "read_common", "read_map"]
