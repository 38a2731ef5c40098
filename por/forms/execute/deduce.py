"""The deduce executor on chain forms (SPEC §10.4.4, §12.5.6): Python's twin of
``contracts/src/forms/PorDeduceForm.sol`` (its ``_run``, after ``PorForms.included``).

The carried forms: ``forms[0]`` the step's DEDUCE, ``forms[1]`` COMMON (index 0), then
the forms of the step's ``prior_step_ids`` in citation order (the r AGGREGATEs, then the
CONTRADICTIONS). The answer is the one-step check's: won ``one_step.id_position``,
``one_step.prior_order``, ``one_step.unexecutable`` (cause ``step.bad_inputs``,
``step.citation_mismatch`` or ``step.bad_prior_output``), ``one_step.mismatch``; lost
``one_step.match``: the whole DEDUCE form rebuilt from the cited forms and compared.
``FormFault`` where the executor reverts ``ProofForm()``, ``CitationsFault(i)`` where it
reverts ``Citations(i)``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

from por.forms.execute import EXECUTORS, Answer, CitationsFault
from por.forms.execute import read as rd
from por.forms.execute.deduce_read import (
    Sem,
    hashes,
    read_aggregate,
    read_common,
    read_conflicts,
)
from por.forms.execute.deduce_run import Ctx, Out, deduce
from por.forms.execute.predicate import d_words
from por.forms.words import AGGREGATE, CONTRADICTIONS, DEDUCE, EXTRACT, MAP

MATCH = "one_step.match"
MISMATCH = "one_step.mismatch"
UNEXECUTABLE = "one_step.unexecutable"
ID_POSITION = "one_step.id_position"
PRIOR_ORDER = "one_step.prior_order"
CITATION_MISMATCH = "step.citation_mismatch"
BAD_PRIOR_OUTPUT = "step.bad_prior_output"
BAD_INPUTS = "step.bad_inputs"
#: Predicate names by code (the description's).
PREDICATE_NAMES = ("event_observed", "numeric_threshold", "numeric_range",
                   "field_comparison", "text_equals", "timestamp_threshold")


@dataclass
class Head:
    """The DEDUCE form's head: Ri, its prior step ids' hashes, the offsets of its
    evidence ids (``L[H]``) and after them, the ids' words."""

    ri: int
    priors: list[int]
    evid: int
    evid_end: int
    ids: list[bytes]


def run(forms: Sequence[bytes], index: Sequence[int], size: int) -> Answer:
    """``PorDeduceForm._run``: the executor's answer on the carried forms."""
    head = step_head(forms, index, size, DEDUCE)
    if isinstance(head, Answer):
        return head
    s, h = head
    c = Ctx(s, [], [])
    cause = _priors(c, forms) or _compare(c, forms, h)
    if cause == MATCH:
        return Answer(False, MATCH)
    if cause == MISMATCH:
        return Answer(True, MISMATCH)
    return Answer(True, UNEXECUTABLE, cause)


def step_head(forms: Sequence[bytes], index: Sequence[int], size: int, tag: int
              ) -> tuple[Sem, Head] | Answer:
    """COMMON and the head of the step's form ``forms[0]`` (of ``tag``: DEDUCE or
    CONTRADICTIONS, which cite by ``prior_step_ids`` alone), the carried forms checked
    against them; or the answer when the step's id, its citations' order or its inputs
    lie (the prologue of both executors' ``_run``)."""
    if len(forms) < 2 or index[1] != 0:
        rd.fault("COMMON is not form 1 at index 0")
    s = read_common(forms[1])
    r = len(s.reqs)
    h = _head(forms[0], tag)
    if len(h.priors) != len(forms) - 2:
        raise CitationsFault(len(forms), "not one form per prior step id")
    for i in range(2, len(forms)):
        if index[i] <= r or index[i] + 2 > size:
            rd.fault("a cited form is not a reasoning step's")
        cited = rd.tag_of(forms[i])
        if cited < EXTRACT or cited > MAP:
            rd.fault("a cited form is not a step's")
        if rd.word(forms[i], 1) != h.priors[i - 2]:
            raise CitationsFault(i, "a carried form is not the cited step")
    if index[0] <= r or index[0] + 2 > size:
        rd.fault("the step's form is not a reasoning step's")
    if rd.step_id_hash(index[0] - r) != rd.word(forms[0], 1).to_bytes(32, "big"):
        return Answer(True, ID_POSITION)
    if any(index[i] >= index[0] for i in range(2, len(forms))):
        return Answer(True, PRIOR_ORDER)
    if h.ri != 0:
        return Answer(True, UNEXECUTABLE, BAD_INPUTS)
    return s, h


def _head(f: bytes, tag: int) -> Head:
    """The head of the step's form (its tag checked)."""
    o = rd.open_form(f, tag) + 32
    ri, o = rd.at(f, o), o + 32
    n, o = rd.read_l(f, o)
    priors = [rd.at(f, o + 32 * k) for k in range(n)]
    o += n << 5
    evid = o
    ids, o = hashes(f, o)
    return Head(ri, priors, evid, o, ids)


def _priors(c: Ctx, forms: Sequence[bytes]) -> str:
    """Python's ``_split`` and the views: ``""`` when the step cites r aggregates of its
    requirements in order and one contradictions step."""
    tags = [rd.tag_of(f) for f in forms[2:]]
    if any(t not in (AGGREGATE, CONTRADICTIONS) for t in tags):
        return CITATION_MISMATCH
    if tags.count(CONTRADICTIONS) != 1 or tags.count(AGGREGATE) != len(c.s.reqs):
        return CITATION_MISMATCH
    contra = b""
    for f, tag in zip(forms[2:], tags, strict=True):
        if tag == CONTRADICTIONS:
            contra = f
            continue
        a = read_aggregate(f)
        if hashlib.sha256(a.rid).digest() != c.s.reqs[len(c.aggs)]:
            return CITATION_MISMATCH
        c.aggs.append(a)
    c.conflicts = read_conflicts(contra)
    return ""


def _compare(c: Ctx, forms: Sequence[bytes], h: Head) -> str:
    """deduce, the summary, the citations, then the rebuilt form against the committed
    one."""
    out = deduce(c)
    if out.bad:
        return BAD_PRIOR_OUTPUT
    if _summary(c) != h.ids or rd.tag_of(forms[-1]) != CONTRADICTIONS:
        return CITATION_MISMATCH
    return MATCH if _build(c, out, forms[0], h) == forms[0] else MISMATCH


def _summary(c: Ctx) -> list[bytes]:
    """source_summary: the read ids, requirement order, bundle order within one, each
    once."""
    seen: dict[bytes, None] = {}
    for a in c.aggs:
        for t, was_read in zip(a.ids, a.read, strict=True):
            if was_read:
                seen.setdefault(t)
    return list(seen)


def _words(*values: int | bool | bytes) -> bytes:
    """``abi.encode`` of words (integers, booleans, 32-byte values)."""
    return b"".join(v if isinstance(v, bytes) else int(v).to_bytes(32, "big")
                    for v in values)


def _t(data: bytes) -> bytes:
    """``T``: the length word, the bytes, zero padding to a word."""
    return _words(len(data)) + data + bytes(-len(data) % 32)


def _build(c: Ctx, out: Out, f: bytes, h: Head) -> bytes:
    """The DEDUCE form as deduce_step writes it: the committed head up to the evidence
    ids (checked equal to the summary), the output's words, the description."""
    s = c.s
    decided = not out.insufficient and out.event != 0
    prov = all(a.prov for a in c.aggs)
    uncovered = [a.rid_t for a in c.aggs if not a.covered]
    if uncovered:
        decided = False
    return b"".join((
        f[:h.evid_end],
        _words(s.predicate, s.needed[0].key, out.status, len(uncovered)),
        *uncovered,
        _words(not decided, out.conflict, out.fb, prov),
        f[h.evid:h.evid_end],
        _variables(out, decided),
        bytes(32),
        _description(s, decided),
    ))


def _variables(out: Out, decided: bool) -> bytes:
    """``P[B](event) P[D](numeric_value) P[W](timestamp)``."""
    if not decided:
        return _words(0, 0, 0)
    num = _words(1) + d_words(out.num) if out.num is not None else _words(0)
    stamp = _words(1, out.stamp) if out.stamp is not None else _words(0)
    return _words(1, out.event == 2) + num + stamp


def _description(s: Sem, decided: bool) -> bytes:
    """``T("deduce <predicate> on <metric>: variables computed")`` or ``...:
    insufficient evidence``."""
    tail = b"variables computed" if decided else b"insufficient evidence"
    name = PREDICATE_NAMES[s.predicate].encode()
    return _t(b"deduce " + name + b" on " + s.metric + b": " + tail)


EXECUTORS["deduce"] = run
