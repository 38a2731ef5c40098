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
    Edit,
    Records,
    answers,
    fields_and_claims,
    item_claims,
)

from por.forms.execute import aggregate as agg
from por.forms.execute import aggregate_read as ar
from por.forms.execute import check, check_write

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


REBUILD = {"check": _check_form, "aggregate": _aggregate_form}

CASES: dict[str, tuple[str, Edit, int]] = {
    "check: an item's claims": ("check", item_claims, 40),
    "check: repeated keys": ("check", repeated_claims, 60),
    "check: repeated keys, few": ("check", repeated_claims, 6),
    "aggregate: fields x claims": ("aggregate", fields_and_claims, 40),
    "aggregate: repeated claims": ("aggregate", fields_and_repeats, 40),
    "aggregate: repeated claims, few": ("aggregate", fields_and_repeats, 6),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_rebuilt_form_matches(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    kind, edit, n = CASES[name]
    monkeypatch.setattr(bounds, "REPLACE", REBUILD[kind])
    chain, twin = answers(kind, edit, n)
    assert chain == twin, name
    assert not chain[0], name  # one_step.match
