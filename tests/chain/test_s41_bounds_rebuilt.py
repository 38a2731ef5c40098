"""s41 ``boundsa``: the two loops bounded after ``xjs``'s review (``test_s41_bounds``'s
"check: an item's claims" and "aggregate: fields x claims") give the same form as
before on a proof whose disputed form is the twin's own recomputation. The bounds
file's cases are lies (mismatches either way); here the disputed CHUNK or AGGREGATE is
replaced by Python's executor's recomputed form (``por.forms.execute``: a dict per
group and per (key, kind), no threshold), recommitted, so the chain must answer
``one_step.match`` on its sorted path: past 16 groups the chunk's claims are placed by
``PorCheckFormState.fold``, past 16 fields the aggregate's voters come from
``PorAggregateFormVote._index``. Each case also runs Python's executor on the proof
(``answers``: the same answer).
"""

from __future__ import annotations

import pytest
import test_s41_bounds as bounds
from scratch_harness import SOLC
from test_s41_bounds import (
    AGGREGATE,
    CHECK,
    DEDUCE,
    Edit,
    Records,
    answers,
    fields_and_claims,
    item_claims,
    read_evidence,
    terms_and_conflicts,
    terms_and_fields,
)

from por.forms.execute import aggregate as agg
from por.forms.execute import aggregate_read as ar
from por.forms.execute import check, check_write
from por.forms.execute import deduce as ded
from por.forms.execute.deduce_run import Ctx as DeduceCtx
from por.forms.execute.deduce_run import deduce

pytestmark = SOLC


def _claim(key: str, kind: str, value: object, cid: str) -> dict[str, object]:
    return {"key": key, "kind": kind, "path": f"$.{key}", "value": value, "claim_id": cid}


def repeated_claims(records: Records, n: int) -> None:
    """The disputed chunk's first cited item holds ``n`` boolean and ``n`` numeric
    claims over ``n // 2`` keys of each kind (a group opened, then joined: a boolean's
    ``other``, a numeric's min and max move), and its second ``n // 4`` more."""
    ids = records[1][CHECK]["prior_step_ids"]
    half = max(n // 2, 1)
    for j, (first, count) in enumerate(((ids[0], n), (ids[1], n // 4))):
        step = next(s for s in records[1] if s["step_id"] == first)
        step["output"]["claims"] += [
            _claim(f"b{k % half}", "boolean", (k * 7 + j) % 3 == 0, f"cb{j}-{k}")
            for k in range(count)] + [
            _claim(f"n{k % half}", "numeric", str((k * 37 + j) % 101 - 50), f"cn{j}-{k}")
            for k in range(count)]


def fields_and_repeats(records: Records, n: int) -> None:
    """``fields_and_claims``, then the first cited item repeats each claim with another
    value (its first is the voter) and the second cited item holds every other key."""
    fields_and_claims(records, n)
    steps = records[1]
    ids = steps[AGGREGATE]["prior_step_ids"]
    first = next(s for s in steps if s["step_id"] == ids[0])
    second = next(s for s in steps if s["step_id"] == ids[1])
    first["output"]["claims"] += [_claim(f"k{k}", "numeric", "2", f"cr{k}") for k in range(n)]
    second["output"]["claims"] += [_claim(f"k{k}", "numeric", str(k % 5), f"cs{k}")
                                   for k in range(0, n, 2)]


def _check_form(forms: list[bytes], index: list[int], size: int) -> bytes:
    c = check._roles(forms, index, size)
    cause, items, prior, groups = check._causes(c, forms, index)
    assert not cause, cause
    check._admit(c, items)
    return check_write.form(c, prior, items, groups)


def _aggregate_form(forms: list[bytes], index: list[int], size: int) -> bytes:
    c = ar.Ctx()
    ar.roles(c, forms, index, size)
    ri = ar.aggregate(c, forms)
    assert not agg._causes(c, forms, index, ri)
    return agg._recompute(c)


def fallback_ranks(records: Records, n: int) -> None:
    """``fields_and_claims`` under ``fallback_chain``, the source targets beta, ``n``
    decoys, then gamma, alpha, beta again: a voter's rank is its source's last place
    (gamma ranks first, beta last), so ``close`` selects gamma's value, a fallback."""
    fields_and_claims(records, n)
    q = records[0]["data_requirements"][0]
    q["selection_policy"]["strategy"] = "fallback_chain"
    alpha, beta, gamma = q["source_targets"][:3]
    decoys = [{**alpha, "source_id": f"x-{k}"} for k in range(n)]
    q["source_targets"] = [beta, *decoys, gamma, alpha, beta]


def terms_found(records: Records, n: int) -> None:
    """``terms_and_conflicts`` (every term a selected field of the cited aggregate, ``n``
    conflicts), then each term's key repeated by a later field of another value (the
    first is the one read), and one conflict on term 3's key (the read term's conflict
    is found: ``conflict_detected``)."""
    terms_and_conflicts(records, n)
    steps = records[1]
    fields = steps[AGGREGATE]["output"]["fields"]
    fields += [{**f, "value": "7"} for f in fields if f["key"].startswith("t")]
    contra = next(s for s in steps if s["step_id"] == steps[DEDUCE]["prior_step_ids"][-1])
    contra["output"]["conflicts"][-1]["key"] = "t3"


def _deduce_form(forms: list[bytes], index: list[int], size: int) -> bytes:
    """Python's executor's own DEDUCE: deduce on the carried forms, the summary written
    as the head's evidence ids, then ``_build``."""
    h = ded._head(forms[0], ded.DEDUCE)
    c = DeduceCtx(ded.read_common(forms[1]), [], [])
    assert not ded._priors(c, forms)
    out = deduce(c)
    assert not out.bad
    ids = ded._summary(c)
    head = forms[0][:h.evid] + ded._words(len(ids), *ids)
    return ded._build(c, out, head, ded.Head(h.ri, h.priors, h.evid, len(head), ids))


REBUILD = {"check": _check_form, "aggregate": _aggregate_form, "deduce": _deduce_form}

CASES: dict[str, tuple[str, Edit, int]] = {
    "check: an item's claims": ("check", item_claims, 40),
    "check: repeated keys": ("check", repeated_claims, 60),
    "check: repeated keys, few": ("check", repeated_claims, 6),
    "aggregate: fields x claims": ("aggregate", fields_and_claims, 40),
    "aggregate: repeated claims": ("aggregate", fields_and_repeats, 40),
    "aggregate: repeated claims, few": ("aggregate", fields_and_repeats, 6),
    # s42 dedbound: past 16 targets, PorAggregateFormVote._rank's binary search
    "aggregate: fallback ranks": ("aggregate", fallback_ranks, 40),
    "aggregate: fallback ranks, few": ("aggregate", fallback_ranks, 6),
    # s42 dedbound: past 16 needed fields and 16 fields, PorDeduceFormRun._findAll's sort;
    # past 16 conflicts, _inConflicts' sorted words
    "deduce: terms x fields": ("deduce", terms_and_fields, 40),
    # past 16 read ids, PorDeduceFormWrite._same's sort (at or below, its walk: 3 ids)
    "deduce: read evidence": ("deduce", read_evidence, 40),
    "deduce: read evidence, few": ("deduce", read_evidence, 6),
    "deduce: terms found, a conflict": ("deduce", terms_found, 40),
    "deduce: terms found, a conflict, few": ("deduce", terms_found, 6),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_rebuilt_form_matches(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    kind, edit, n = CASES[name]
    monkeypatch.setattr(bounds, "REPLACE", REBUILD[kind])
    chain, twin = answers(kind, edit, n)
    assert chain == twin, name
    assert not chain[0], name  # one_step.match
