"""The JudgeProof on chain forms (SPEC §10.2.5, §7.1-§7.4): Python's twin of
``contracts/src/forms/PorJudgeForm.sol`` (its ``_run``, after ``PorForms.included``).

The carried forms: ``forms[0]`` the committed VERDICT (index size - 1), ``forms[1]``
COMMON (index 0), ``forms[2]`` the last reasoning leaf's form (index size - 2), then the
EXTRACT forms of the items ``source_summary`` names (each id once, in order; leaves
below the verdict's ``evidence_count``). The answer: won ``judge.final_step`` (the last
leaf is not a map step), ``judge.mismatch`` (the verdict's market, outcome, confidence,
rule or resolution time is not the judge's); lost ``judge.match``. ``FormFault`` where
the executor reverts ``ProofForm()``, :class:`FinalStepFault` where it reverts
``FinalStep()`` (``proof.final_step``: form 2 is not the last reasoning leaf's),
``CitationsFault(i)`` where it reverts ``Citations(i)``.
"""

from __future__ import annotations

from collections.abc import Sequence

from por.errors import ProofError
from por.forms.execute import EXECUTORS, Answer, CitationsFault
from por.forms.execute import read as rd
from por.forms.execute.judge_read import (
    MAX_ID_POINTS,
    Spec,
    Vars,
    points,
    read_common,
    read_map,
)
from por.forms.execute.predicate import FIELD, RANGE, THRESHOLD, TIME, holds
from por.forms.words import EXTRACT, MAP, VERDICT

MATCH = "judge.match"
MISMATCH = "judge.mismatch"
FINAL_STEP = "judge.final_step"
#: Outcome and rule codes (SPEC §5.6's ``E``).
YES, NO, INVALID = 0, 1, 2
R_VALIDITY, R_CONFLICT, R_BINARY_DECISION, R_CONFIDENCE, R_INVALID_FALLBACK = 1, 2, 3, 4, 5
#: Basis points, and half of them (§7.4's ``scale_bps`` rounds half up).
BPS, HALF = 10_000, 5_000
_UINT64_MAX = (1 << 64) - 1


class FinalStepFault(ProofError):
    """Form 2 is not the last reasoning leaf's (``proof.final_step``: ``FinalStep()``)."""

    def __init__(self, message: str) -> None:
        super().__init__("proof.final_step", message)


def run(forms: Sequence[bytes], index: Sequence[int], size: int) -> Answer:
    """``PorJudgeForm._run``: the executor's answer on the carried forms."""
    if len(forms) < 3 or index[0] + 1 != size or index[1] != 0:
        rd.fault("the VERDICT or COMMON is not where the judge reads it")
    evidence_count = _verdict(forms[0])
    s = read_common(forms[1])
    r = len(s.reqs)
    if index[2] + 2 != size:
        raise FinalStepFault("form 2 is not the last reasoning leaf's")
    if index[2] <= r:
        rd.fault("form 2 is not a reasoning step's")
    tag = rd.tag_of(forms[2])
    if tag < EXTRACT or tag > MAP:
        rd.fault("form 2 is not a step's")
    if tag != MAP:
        return Answer(True, FINAL_STEP)
    v = read_map(forms[2])
    min_conf = _cards(forms, index, r + 1 + evidence_count, v, s)
    if _same(forms[0], s, _judge(s, v, min_conf)):
        return Answer(False, MATCH)
    return Answer(True, MISMATCH)


def _same(f: bytes, s: Spec, j: tuple[int, int, int]) -> bool:
    """The committed verdict's decision words (1-6) are the judge's."""
    return (rd.word(f, 1).to_bytes(32, "big") == s.market and rd.word(f, 2) == j[0]
            and rd.word(f, 3) == j[1] and rd.word(f, 4) == j[2] and rd.word(f, 5) == 1
            and rd.word(f, 6) == s.end)


def _verdict(f: bytes) -> int:
    """The committed VERDICT checked whole; its evidence count."""
    o = rd.open_form(f, VERDICT) + 32
    _, o = rd.read_e(f, o, 3)
    _, o = rd.read_w(f, o)
    rule, o = rd.read_e(f, o, 6)
    if rule == 0:
        rd.fault("a verdict's rule code 0")
    _, _, o = rd.read_o(f, o, _UINT64_MAX)
    count, o = rd.read_w(f, o + 64)
    _, o = rd.read_w(f, o + 32)
    rd.end(f, o)
    return count


def _cards(forms: Sequence[bytes], index: Sequence[int], below: int, v: Vars,
           s: Spec) -> int:
    """The carried EXTRACT forms are the summarised items' in order (leaves below the
    evidence count; word 4, ``H(evidence_id)``, is the summary's word); the lock counts
    the code points of each one's word 5, ``T(evidence_id)`` (1..128, §7.4: else
    ``v.lock_fails``; a word 4 that is not ``H`` of word 5 is that EXTRACT's FormProof's
    fault, §5.6.15: the judge counts word 5 as carried); a card below its requirement's
    tier or of an unknown requirement sets ``v.prov`` false. Returns the lowest
    confidence."""
    n = len(v.ids)
    if len(forms) != 3 + n:
        raise CitationsFault(len(forms), "not one EXTRACT form per summary id")
    min_conf = (1 << 256) - 1
    for i in range(n):
        e = forms[3 + i]
        if index[3 + i] >= below or index[3 + i] <= len(s.reqs) or rd.tag_of(e) != EXTRACT:
            raise CitationsFault(3 + i, "a carried form is not an extract step's")
        if rd.at(e, 128).to_bytes(32, "big") != v.ids[i]:
            raise CitationsFault(3 + i, "a carried extract step is not the summary's item")
        item, o = rd.read_t(e, 160)
        if not 0 < points(item) <= MAX_ID_POINTS:
            v.lock_fails = True
        tier, conf, req = _card(e, o)
        min_conf = min(min_conf, conf)
        if not _tier_ok(s, req, tier):
            v.prov = False
    return min_conf


def _card(e: bytes, o: int) -> tuple[int, int, bytes]:
    """An EXTRACT's tier, confidence and requirement, the form checked from its claims
    on."""
    tier = rd.word(e, 3)
    if tier > 3:
        rd.fault("an extract's tier above 3")
    n, o = rd.read_l(e, o)
    for _ in range(n):
        kind, o = rd.read_e(e, o + 32, 4)  # after H(key)
        _, o = rd.read_h(e, o)  # H(claim_id)
        o = rd.read_h(e, o)[1] if kind == rd.TEXT else rd.skip_v(e, o, kind)
    req, o = rd.read_h(e, o)
    _, o = rd.read_w(e, o)
    _, o = rd.read_w(e, o)
    conf, o = rd.read_w(e, o)
    _, o = rd.read_b(e, o)
    rd.end(e, o)
    return tier, conf, req


def _tier_ok(s: Spec, req: bytes, tier: int) -> bool:
    """``tiers.get(item.requirement_id)`` (the last requirement with the id) and the
    floor."""
    for k in range(len(s.reqs) - 1, -1, -1):
        if s.reqs[k] == req:
            return tier >= s.tiers[k]
    return False


def _judge(s: Spec, v: Vars, min_conf: int) -> tuple[int, int, int]:
    """§7.2-§7.4: (outcome, confidence, rule)."""
    invalid_conf = min(s.conf[4], s.conf[1])
    if not _valid(s, v):
        return INVALID, invalid_conf, R_VALIDITY
    if v.conflict and s.on_conflict_invalid:
        return INVALID, invalid_conf, R_CONFLICT
    decided, yes = _decide(s, v)
    if not decided:
        return INVALID, invalid_conf, R_INVALID_FALLBACK
    c = min(s.conf[0], min_conf)
    if v.conflict:
        c = (c * s.conf[2] + HALF) // BPS
    if v.fb:
        c = (c * s.conf[3] + HALF) // BPS
    c = min(c, BPS)
    if c < s.conf[1]:
        return INVALID, invalid_conf, R_CONFIDENCE
    return YES if yes else NO, c, R_BINARY_DECISION


def _valid(s: Spec, v: Vars) -> bool:
    """The lock (COMMON's parts, the variables) and stage 1."""
    if s.lock_fails or v.lock_fails or v.insufficient or not v.prov or v.n_summary == 0:
        return False
    if v.stamp is not None and (v.stamp + s.slack < s.start or v.stamp > s.end + s.slack):
        return False
    return not (_numeric(s) and v.num is None and not _event_decides(s, v))


def _numeric(s: Spec) -> bool:
    return s.predicate in (THRESHOLD, RANGE, FIELD, TIME)


def _event_decides(s: Spec, v: Vars) -> bool:
    if s.has_k:
        return True
    return ((s.any_otherwise_no or s.absent_no) and v.num is None and v.has_event
            and not v.event_true)


def _decide(s: Spec, v: Vars) -> tuple[bool, bool]:
    """Stage 3: the numeric value against the predicate's bound, else the event."""
    numeric = _numeric(s)
    ed = _event_decides(s, v)
    if v.num is not None and numeric and not ed:
        return True, holds(s, v.num)
    if v.has_event and (not numeric or ed):
        return True, v.event_true
    return False, False


EXECUTORS["judge"] = run
