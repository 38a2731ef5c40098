"""The map executor on chain forms (SPEC §10.4.4, §12.5.7): Python's twin of
``contracts/src/forms/PorMapForm.sol`` (its ``_run``, after ``PorForms.included``).

The carried forms: ``forms[0]`` the step's MAP, ``forms[1]`` COMMON (index 0: its
requirement count ``r`` places the step's leaf, for the id at its position), then the
forms of the step's ``prior_step_ids`` in citation order (one DEDUCE for an honest
step). The answer is the one-step check's: won ``one_step.id_position``,
``one_step.prior_order``, ``one_step.unexecutable`` (cause ``step.bad_inputs``,
``step.citation_mismatch`` or ``step.bad_prior_output``), ``one_step.mismatch``; lost
``one_step.match``: the whole MAP form rebuilt from the DEDUCE form's variables and
compared. ``FormFault`` where the executor reverts ``ProofForm()``, ``CitationsFault(i)``
where it reverts ``Citations(i)``.
"""

from __future__ import annotations

from collections.abc import Sequence

from por.forms.execute import EXECUTORS, Answer, CitationsFault
from por.forms.execute import read as rd
from por.forms.execute.deduce import (
    BAD_INPUTS,
    BAD_PRIOR_OUTPUT,
    CITATION_MISMATCH,
    ID_POSITION,
    MATCH,
    MISMATCH,
    PRIOR_ORDER,
    UNEXECUTABLE,
)
from por.forms.execute.deduce_read import hashes
from por.forms.words import COMMON, DEDUCE, EXTRACT, MAP

#: ``variables_from``'s timestamp bound (a 64-bit Unix time).
MAX_UINT63 = (1 << 63) - 1
#: ``T("map to evaluation variables")``, the step's description.
DESCRIPTION = b"map to evaluation variables"


def run(forms: Sequence[bytes], index: Sequence[int], size: int) -> Answer:
    """``PorMapForm._run``: the executor's answer on the carried forms."""
    if len(forms) < 2 or index[1] != 0:
        rd.fault("COMMON is not form 1 at index 0")
    r = requirements(forms[1])
    f = forms[0]
    o = rd.open_form(f, MAP) + 32
    ri = rd.at(f, o)
    priors, o = hashes(f, o + 32)
    evid = o
    _, evid_end = hashes(f, o)
    if len(priors) != len(forms) - 2:
        raise CitationsFault(len(forms), "not one form per prior step id")
    for i in range(2, len(forms)):
        _step_form(forms[i], index[i], r, size)
        if rd.word(forms[i], 1).to_bytes(32, "big") != priors[i - 2]:
            raise CitationsFault(i, "a carried form is not the cited step")
    _step_form(f, index[0], r, size)
    if rd.step_id_hash(index[0] - r) != rd.word(f, 1).to_bytes(32, "big"):
        return Answer(True, ID_POSITION)
    if any(index[i] >= index[0] for i in range(2, len(forms))):
        return Answer(True, PRIOR_ORDER)
    if ri != 0:
        return Answer(True, UNEXECUTABLE, BAD_INPUTS)
    if len(forms) != 3 or rd.tag_of(forms[2]) != DEDUCE:
        return Answer(True, UNEXECUTABLE, CITATION_MISMATCH)
    built = variables(forms[2])
    if built is None:
        return Answer(True, UNEXECUTABLE, BAD_PRIOR_OUTPUT)
    words, summary = built
    if f[evid:evid_end] != summary:
        return Answer(True, UNEXECUTABLE, CITATION_MISMATCH)
    rebuilt = f[:evid_end] + words + bytes(64) + _t(DESCRIPTION)
    return Answer(False, MATCH) if rebuilt == f else Answer(True, MISMATCH)


def requirements(f: bytes) -> int:
    """COMMON's requirement count ``r`` (``PorFormsCommon.head``: its head checked)."""
    o = rd.open_form(f, COMMON) + 32  # H(metric): any word
    _, o = rd.read_z(f, o)
    _, o = rd.read_d(f, o)
    r, o = rd.read_l(f, o)
    for _ in range(r):
        _, o = rd.read_e(f, o + 32, 3)  # after H(requirement_id)
        _, o = rd.read_w(f, o)
        _, o = rd.read_w(f, o)
    return r


def _step_form(f: bytes, index: int, r: int, size: int) -> None:
    """``PorForms.stepTag``: a reasoning step's index and a step's tag."""
    tag = rd.tag_of(f)
    if index < 1 + r or index + 2 > size or tag < EXTRACT or tag > MAP:
        rd.fault("a carried form is not a reasoning step's")


def variables(f: bytes) -> tuple[bytes, bytes] | None:
    """The DEDUCE form's evaluation variables as the MAP form writes them (``P[B] P[D]
    P[W]``, the four flags in §4.4's order) and its ``L[H](source_summary)``; None where
    ``variables_from`` refuses them (a repeated summary id, a timestamp past 2^63 - 1:
    ``step.bad_prior_output``). Read up to the timestamp; the rest is not read."""
    n, o = rd.read_l(f, 96)  # after the tag, step id, Ri: prior_step_ids
    n, o = rd.read_l(f, o + (n << 5))  # evidence_ids
    o += (n << 5) + 96  # predicate, metric, metric status: not read
    n, o = rd.read_l(f, o)  # uncovered_requirements, L[T]
    for _ in range(n):
        o = rd.skip_t(f, o)
    flags = []
    for _ in range(4):  # insufficient, conflict, fallback, provenance
        flag, o = rd.read_b(f, o)
        flags.append(flag)
    start = o
    ids, o = hashes(f, o)
    summary = f[start:o]
    repeated = len(set(ids)) != len(ids)
    s = o
    present, o = rd.read_p(f, o)
    if present:
        _, o = rd.read_b(f, o)
    present, o = rd.read_p(f, o)
    if present:
        _, o = rd.read_d(f, o)
    present, o = rd.read_p(f, o)
    if present:
        stamp, o = rd.read_w(f, o)
        repeated = repeated or stamp > MAX_UINT63
    if repeated:
        return None
    insufficient, conflict, fallback, provenance = flags
    words = b"".join(int(b).to_bytes(32, "big")
                     for b in (conflict, insufficient, fallback, provenance))
    return f[s:o] + words + summary, summary


def _t(data: bytes) -> bytes:
    """``T``: the length word, the bytes, zero padding to a word."""
    return len(data).to_bytes(32, "big") + data + bytes(-len(data) % 32)


EXECUTORS["map"] = run
