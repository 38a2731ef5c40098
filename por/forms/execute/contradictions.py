"""The contradictions executor on chain forms (SPEC §10.4.4, §12.5.5): the twin of the
on-chain executor of FormStepProof kind ``contradictions``.

The carried forms: ``forms[0]`` the step's CONTRADICTIONS, ``forms[1]`` COMMON (index
0), then the CHUNK forms of its ``prior_step_ids`` in citation order (the first leaf
with each id). The prologue is deduce's (:func:`por.forms.execute.deduce.step_head`):
won ``one_step.id_position``, ``one_step.prior_order``, ``one_step.unexecutable``
(``step.bad_inputs``). Then §12.5.5 on the forms' words: a step citing an item, a cited
step that is not a CHUNK, not one chunk per requirement, or a k-th chunk whose
``T(inputs.requirement_id)`` or ``H(output.requirement_id)`` is not requirement k's
(COMMON's table) is ``step.citation_mismatch``; a chunk whose state or groups are
malformed (``check_state``, the check executor's own reading of a prior chunk) is
``step.bad_prior_output``; chunk by chunk, in citation order. The groups are merged by
(kind, H(key)) and the CONTRADICTIONS form is rebuilt (claim count, COMMON's tolerance
words, the conflicts, rest 0, the description) and compared whole: won
``one_step.mismatch`` or lost ``one_step.match``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction

from por.forms.execute import EXECUTORS, Answer
from por.forms.execute import read as rd
from por.forms.execute.check_read import hash_t, value_of
from por.forms.execute.check_state import Group, Ref, load_groups, read_prior
from por.forms.execute.deduce import (
    BAD_PRIOR_OUTPUT,
    CITATION_MISMATCH,
    MATCH,
    MISMATCH,
    UNEXECUTABLE,
    Head,
    step_head,
)
from por.forms.words import CHUNK, CONTRADICTIONS

#: Conflict check id codes (§5.6.2) by the group's kind (0 boolean, 1 numeric).
CHECK_CODE = {0: 1, 1: 0}


def run(forms: Sequence[bytes], index: Sequence[int], size: int) -> Answer:
    """The executor's answer on the carried forms."""
    head = step_head(forms, index, size, CONTRADICTIONS)
    if isinstance(head, Answer):
        return head
    s, h = head
    chains = _chains(forms[2:], s.reqs, h)
    if isinstance(chains, str):
        return Answer(True, UNEXECUTABLE, chains)
    counts, groups = chains
    rebuilt = _build(forms[0], forms[1], h, counts, merge(groups))
    return Answer(False, MATCH) if rebuilt == forms[0] else Answer(True, MISMATCH)


def _chains(cited: Sequence[bytes], reqs: Sequence[bytes], h: Head
            ) -> tuple[list[int], list[list[Group]]] | str:
    """Each cited chunk's claim count and groups, or the cause of §12.5.5's refusal."""
    if h.ids or len(cited) != len(reqs) or any(rd.tag_of(f) != CHUNK for f in cited):
        return CITATION_MISMATCH
    counts: list[int] = []
    groups: list[list[Group]] = []
    for f, req in zip(cited, reqs, strict=True):
        prior, bad = read_prior(f)
        if hash_t(f, prior.rid_t) != req or prior.out_rid != req:
            return CITATION_MISMATCH
        _, bad_groups = load_groups(prior)
        if bad or bad_groups:
            return BAD_PRIOR_OUTPUT
        counts.append(prior.claim_count)
        groups.append(prior.groups)
    return counts, groups


def _value(ref: Ref) -> Fraction:
    return value_of(rd.read_d(ref.value, 0)[0])


def merge(chains: Sequence[Sequence[Group]]) -> list[Group]:
    """§12.5.5's merge by (kind, H(key)), in first-appearance order: counts add, numeric
    min/max replaced only when exactly below/above, boolean ``other`` the first later
    reference (``first`` then ``other`` of each group) of another value."""
    merged: list[Group] = []
    where: dict[tuple[int, int], Group] = {}
    for chain in chains:
        for g in chain:
            m = where.get((g.kind, g.key))
            if m is None:
                m = where[(g.kind, g.key)] = replace(g)
                merged.append(m)
                continue
            m.count += g.count
            if g.kind == 1:  # a numeric group has both references
                if _value(g.first) < _value(m.first):
                    m.first = g.first
                if _value(g.second or g.first) > _value(m.second or m.first):
                    m.second = g.second
            elif m.second is None:
                for ref in (g.first, g.second or g.first):
                    if ref.value[:32] != m.first.value[:32]:
                        m.second = ref
                        break
    return merged


def _conflicts(groups: Sequence[Group], tolerance: Fraction) -> list[bytes]:
    """Each conflicting merged group's words, in merged order."""
    out = []
    for g in groups:
        if g.second is None:
            continue
        if g.kind == 1 and abs(_value(g.second) - _value(g.first)) <= tolerance:
            continue
        a, b = g.first, g.second
        out.append(b"".join((
            _words(CHECK_CODE[g.kind], g.kind, g.key, 2), a.claim_id, b.claim_id,
            _words(2), a.evidence_id, b.evidence_id, _words(2), a.value, b.value,
            _words(g.count, 0))))
    return out


def _words(*values: int) -> bytes:
    return b"".join(v.to_bytes(32, "big") for v in values)


def _build(f: bytes, common: bytes, h: Head, counts: Sequence[int],
           groups: Sequence[Group]) -> bytes:
    """The CONTRADICTIONS form as §12.5.5 writes it: the committed head up to its
    (empty) evidence ids, the claim count, COMMON's tolerance words (word 3 on), the
    conflicts, the rest word, the description."""
    tolerance, end = rd.read_d(common, 96)
    conflicts = _conflicts(groups, value_of(tolerance))
    claims = sum(counts)
    text = (f"contradiction check over {claims} claim(s): "
            f"{len(conflicts)} conflict(s)").encode()
    return b"".join((f[:h.evid_end], _words(claims), common[96:end],
                     _words(len(conflicts)), *conflicts, _words(0, len(text)), text,
                     bytes(-len(text) % 32)))


EXECUTORS["contradictions"] = run
