"""``por.auditor.deduce.deduce`` on the forms :mod:`deduce_read` read: Python's twin of
``contracts/src/forms/PorDeduceFormRun.sol``, rule for rule and in its order.

Every needed field is found as the first field with its key (requirement then field
order); preconditions, the metric's conflict, k of n votes, ``absent_means_no``, then
the value with its terms by exact decimal arithmetic, the timestamp, the event. A read
of a cited step that Python's ``_typed``/``_votes``/``_stamp``/``summary_of`` refuses
sets ``bad`` (``step.bad_prior_output``).
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from fractions import Fraction
from typing import NoReturn

from por.forms.execute import read as rd
from por.forms.execute.deduce_read import MINUS, PLUS, PRE, Agg, Sem, Value
from por.forms.execute.predicate import EVENT, TEXT_EQUALS, TIME, ZERO, holds, to_text

#: Field statuses and metric statuses (SPEC §5.6's ``E`` of a status).
SELECTED, MISSING, WRONG_KIND, ABSENT = 0, 1, 4, 5
PRECONDITION_UNMET, OUT_OF_RANGE, UNDECIDED = 6, 7, 8
MAX_UINT63 = (1 << 63) - 1


@dataclass
class Out:
    """What deduce found (``Deduced``); ``event`` 0 none, 1 false, 2 true."""

    bad: bool = False
    insufficient: bool = False
    status: int = 0
    event: int = 0
    num: str | None = None
    stamp: int | None = None
    conflict: bool = False
    fb: bool = False


@dataclass
class Ctx:
    """The read forms and, per needed field, where it was found: its requirement
    (``owner``, None absent), its field index (``fi``, None when absent or of another
    kind) and its status (its field's, ``WRONG_KIND`` or ``ABSENT``)."""

    s: Sem
    aggs: list[Agg]
    conflicts: list[tuple[int, bytes]]
    owner: list[int | None] = field(default_factory=list)
    fi: list[int | None] = field(default_factory=list)
    status: list[int] = field(default_factory=list)
    first: dict[bytes, tuple[int, int]] | None = None  # each key's first (requirement, field)
    conflict_set: set[tuple[int, bytes]] | None = None


class _Done(Exception):
    """Deduce returned ``out`` early (Solidity's ``return out``)."""


def deduce(c: Ctx) -> Out:
    """``_deduce``: what deduce writes from the cited forms."""
    out = Out()
    with contextlib.suppress(_Done):
        _deduce(c, out)
    return out


def _stop(out: Out, *, bad: bool = False, insufficient: bool = False,
          status: int | None = None) -> NoReturn:
    out.bad = out.bad or bad
    out.insufficient = out.insufficient or insufficient
    if status is not None:
        out.status = status
    raise _Done


def _deduce(c: Ctx, out: Out) -> None:
    s = c.s
    for i in range(len(s.needed)):
        _find(c, i)
    out.status = c.status[0]
    uncovered = any(not a.covered for a in c.aggs)
    for i in range(1, len(s.needed)):
        need = s.needed[i]
        if need.role != PRE:
            continue
        if c.status[i] != SELECTED or c.fi[i] is None:
            _stop(out, insufficient=True)
        _read(c, out, i)
        v = _val(c, i)
        if v is None:
            _stop(out, bad=True)
        if v != need.equals:
            if need.otherwise_no and not uncovered:
                out.event = 1
                _stop(out, status=PRECONDITION_UNMET)
            _stop(out, insufficient=True, status=PRECONDITION_UNMET)
    owner = c.owner[0]
    metric = s.needed[0]
    if owner is not None and s.k == 0 and not s.chain[owner] and _in_conflicts(
            c, metric.kind, metric.key):
        out.conflict = True
    if c.fi[0] is None:
        _stop(out, insufficient=True)
    if s.k != 0:
        _votes(c, out)
        return
    assert owner is not None  # noqa: S101 - fi[0] set: found
    a = c.aggs[owner]
    if c.status[0] == MISSING and s.absent_no and a.covered:
        out.event = 1
        for h in a.ids:
            _mark(a, h, out)
        return
    if any(st != SELECTED for st in c.status):
        _stop(out, insufficient=True)
    _computed(c, out)


def _computed(c: Ctx, out: Out) -> None:
    """Every read field selected: the value and its terms, the timestamp, the event."""
    s = c.s
    v = _val(c, 0)
    ok, x = _typed(s.needed[0].kind, v)
    if not ok:
        _stop(out, bad=True)
    _read(c, out, 0)
    for i in range(1, len(s.needed)):
        role = s.needed[i].role
        if role == PRE:
            continue
        y = _val(c, i)
        if y is None:
            _stop(out, bad=True)
        _read(c, out, i)
        assert isinstance(y, Fraction)  # noqa: S101 - a numeric field's value
        x = x + y if role == PLUS else x - y
    _stamp(c, out)
    if out.bad:
        return
    if s.predicate == EVENT:
        out.event = 2 if v == 1 else 1
    elif s.predicate == TEXT_EQUALS:
        out.event = 2 if _equals_expected(s, v) else 1
    else:
        out.num = to_text(x)
        if out.num is None:
            _stop(out, insufficient=True, status=OUT_OF_RANGE)
        out.event = 2 if holds(s, x) else 1


def _equals_expected(s: Sem, v: Value | None) -> bool:
    """``_th(v) == _th(s.expected)``: with no ``expected_text`` the executor hashes
    calldata that is no text (no answer: it runs out of gas): the form is not one
    ``text_equals`` can read (``proof.form``)."""
    if s.expected is None:
        rd.fault("text_equals without expected_text")
    return v == s.expected


def _votes(c: Ctx, out: Out) -> None:
    """k of n sources: each vote tested, then decided."""
    s = c.s
    owner, fi = c.owner[0], c.fi[0]
    assert owner is not None and fi is not None  # noqa: S101 - found
    a = c.aggs[owner]
    votes = a.fields[fi].votes
    if votes is None:
        _stop(out, bad=True)
    kind = s.needed[0].kind
    yes = 0
    for vote, _evidence in votes:
        ok, x = _typed(kind, vote)
        if not ok:
            _stop(out, bad=True)
        if _vote_holds(s, kind, vote, x):
            yes += 1
    n = len(votes)
    targets = s.targets[owner]
    if s.k <= targets and yes >= s.k:
        out.event = 2
    elif s.k <= targets and n - yes > targets - s.k:
        out.event = 1
    else:
        out.insufficient, out.status = True, UNDECIDED
    if out.event != 0:
        for _vote, evidence in votes:
            _mark(a, evidence, out)
        out.fb = out.fb or a.fields[fi].fallback


def _vote_holds(s: Sem, kind: int, vote: Value, x: Fraction) -> bool:
    if s.predicate == EVENT:
        return kind == rd.BOOLEAN and vote == 1
    if s.predicate == TEXT_EQUALS:
        return kind == rd.TEXT and _equals_expected(s, vote)
    return holds(s, x)


def _stamp(c: Ctx, out: Out) -> None:
    """The metric requirement's first selected timestamp field that is not the metric."""
    owner = c.owner[0]
    assert owner is not None  # noqa: S101 - the metric was found
    a = c.aggs[owner]
    skip = c.s.predicate == TIME
    for fld in a.fields:
        if (fld.kind == rd.TIMESTAMP and fld.status == SELECTED
                and not (skip and fld.key == c.s.needed[0].key)):
            if fld.value is None:
                return
            assert isinstance(fld.value, int)  # noqa: S101 - a W
            if fld.value > MAX_UINT63:
                out.bad = True
                return
            out.stamp = fld.value
            for h in fld.ids:
                _mark(a, h, out)
            out.fb = out.fb or fld.fallback
            return


def _typed(kind: int, v: Value | None) -> tuple[bool, Fraction]:
    """A present value of ``kind``: numeric as a decimal, a timestamp at most 2^63 - 1
    as one; false when absent or out of range."""
    if v is None:
        return False, ZERO
    if kind == rd.NUMERIC:
        assert isinstance(v, Fraction)  # noqa: S101 - a D
        return True, v
    if kind == rd.TIMESTAMP:
        assert isinstance(v, int)  # noqa: S101 - a W
        return v <= MAX_UINT63, Fraction(v)
    return True, ZERO


def _find(c: Ctx, i: int) -> None:
    """Needed field ``i`` found as the first field with its key (``_findAll``: Python
    keeps each key's first (requirement, field) in a dict, built once per proof)."""
    if c.first is None:
        c.first = {}
        for r, a in enumerate(c.aggs):
            for j, fld in enumerate(a.fields):
                c.first.setdefault(fld.key, (r, j))
    need = c.s.needed[i]
    found = c.first.get(need.key)
    if found is None:
        c.owner.append(None)
        c.fi.append(None)
        c.status.append(ABSENT)
        return
    r, j = found
    fld = c.aggs[r].fields[j]
    c.owner.append(r)
    if fld.kind != need.kind:
        c.fi.append(None)
        c.status.append(WRONG_KIND)
    else:
        c.fi.append(j)
        c.status.append(fld.status)


def _val(c: Ctx, i: int) -> Value | None:
    """Needed field ``i``'s value (None when absent); the field is found with its kind."""
    owner, fi = c.owner[i], c.fi[i]
    assert owner is not None and fi is not None  # noqa: S101 - found
    return c.aggs[owner].fields[fi].value


def _read(c: Ctx, out: Out, i: int) -> None:
    """``read`` of deduce.py: the field's evidence, its fallback, its conflict."""
    owner, fi = c.owner[i], c.fi[i]
    assert owner is not None and fi is not None  # noqa: S101 - found
    a = c.aggs[owner]
    fld = a.fields[fi]
    for h in fld.ids:
        _mark(a, h, out)
    out.fb = out.fb or fld.fallback
    need = c.s.needed[i]
    if not c.s.chain[owner] and _in_conflicts(c, need.kind, need.key):
        out.conflict = True


def _in_conflicts(c: Ctx, kind: int, key: bytes) -> bool:
    """(kind, key) among the conflicts: a set, built once per proof."""
    if c.conflict_set is None:
        c.conflict_set = set(c.conflicts)
    return (kind, key) in c.conflict_set


def _mark(a: Agg, evidence: bytes, out: Out) -> None:
    """The last place of the id among the aggregate's evidence ids is read; none: the
    selection names evidence its step does not cite (``step.bad_prior_output``). The
    last places are a dict, built at the aggregate's first mark."""
    if a.last is None:
        a.last = {h: j for j, h in enumerate(a.ids)}
    j = a.last.get(evidence)
    if j is None:
        out.bad = True
    else:
        a.read[j] = True


__all__ = ["MINUS", "Ctx", "Out", "deduce"]
