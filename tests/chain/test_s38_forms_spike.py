"""ADR 0017's spike (s38): the aggregate re-executed on chain forms answers as Python's
one-step check does.

``bench/forms_spike/PorAggregateForms.sol`` (scratch, compiled by ``scratch_harness``)
on the forms of ``bench/forms_spike/forms.py``: every fixture market's honest aggregate
step is a match; ``bench/gas_steps.py``'s lying aggregate and output edits of market 08
are mismatches; on ``aggregate_lies.forge``'s lies (outputs, claims, cards, the chunk
and the PromptSpec changed, about half rewritten consistently) the executor gives
Python's answer wherever Python's is match or mismatch and the records have forms (the
rest: a FormProof's case, not this executor's), and says unexecutable only where Python
does (the chunk's ``sources`` not naming the cited items). Python's other unexecutable
answers (``step.bad_prior_output``: a cited record malformed where the forms do not
read it) are a prior's own lie, left to that record's proof. ``F`` itself (no node needed) changes
with every output edit or has no form.
"""

from __future__ import annotations

import copy
import functools
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from scratch_harness import SOLC

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench" / "forms_spike"))

import spike
from forms import FormError, aggregate_form
from proofs import with_step

from por.encoding import decode
from por.scenarios import list_scenarios

#: Output edits of scenario 08's aggregate (3 voters, quorum; field 0 selected, field 1
#: no_quorum): each makes the committed step a lie.
EDITS: dict[str, tuple[tuple[Any, ...], Callable[[Any], Any]]] = {
    "value": (("fields", 0, "value"), lambda v: "251.41"),
    "fallback_used": (("fields", 1, "fallback_used"), lambda v: not v),
    "agreeing": (("fields", 0, "quorum", "agreeing"), lambda v: v - 1),
    "met": (("fields", 1, "quorum", "met"), lambda v: not v),
    "claim_ids": (("fields", 0, "claim_ids"), lambda v: v[:2]),
    "evidence_order": (("fields", 0, "evidence_ids"), lambda v: v[::-1]),
    "status": (("fields", 1, "status"), lambda v: "insufficient"),
    "candidates": (("fields", 1, "candidates"), lambda v: v + 1),
    "sources_used": (("sources_used",), lambda v: v[:2]),
    "item_count": (("item_count",), lambda v: v + 1),
    "last_leaf": (("last_leaf",), lambda v: v + 1),
    "covered": (("covered",), lambda v: not v),
    "strategy": (("strategy",), lambda v: "single_best"),
    "extra_key": (("extra",), lambda v: "r_other"),
    "covered_as_int": (("covered",), lambda v: 1),
}


def _edited(step: Any, path: tuple[Any, ...], edit: Callable[[Any], Any]) -> dict[str, Any]:
    output = copy.deepcopy(step.output)
    holder = output
    for key in path[:-1]:
        holder = holder[key]
    holder[path[-1]] = edit(holder.get(path[-1]))
    return {"output": output}


def _typical_edits() -> list[tuple[str, Any]]:
    honest, _lie, index = spike.typical()
    return [(name, with_step(honest, index, functools.partial(_edited, path=path, edit=edit)))
            for name, (path, edit) in EDITS.items()]


def test_form_changes_with_every_output_edit() -> None:
    honest, _lie, index = spike.typical()
    before = aggregate_form(decode(honest.steps[index]))
    for name, bundle in _typical_edits():
        try:
            after = aggregate_form(decode(bundle.steps[index]))
        except FormError:
            assert name == "covered_as_int", name  # a boolean as 1: no form (FormProof)
            continue
        assert after != before, name


@SOLC
def test_honest_aggregates_match() -> None:
    chain = spike.harness()
    seen = 0
    for name, bundle, index in spike.fixture_aggregates():
        assert spike.compare(chain, bundle, index)[:2] == (spike.MATCH, spike.MATCH), name
        seen += 1
    assert seen >= 40


@SOLC
def test_lies_mismatch() -> None:
    chain = spike.harness()
    _honest, lie, index = spike.typical()
    assert spike.compare(chain, lie, index)[:2] == (spike.MISMATCH, spike.MISMATCH)
    for name, bundle in _typical_edits():
        python, answer, _gas = spike.compare(chain, bundle, index)
        if name == "covered_as_int":
            assert python == "form:" + spike.MISMATCH
            continue
        assert (python, answer) == (spike.MISMATCH, spike.MISMATCH), name


@pytest.mark.parametrize("seed", [11, 29])
@SOLC
def test_forged_aggregates_answer_as_python(seed: int) -> None:
    chain = spike.harness()
    counts: Counter[str] = Counter()
    for name, bundle, index in spike.forged(tuple(list_scenarios()), 8, seed):
        python, answer, _gas = spike.compare(chain, bundle, index)
        if python in (spike.MATCH, spike.MISMATCH) or answer == spike.UNEXECUTABLE:
            assert answer == python, (name, index, python, answer)
        counts[python + " " + answer] += 1
    both = (spike.MATCH, spike.MISMATCH, spike.UNEXECUTABLE)
    assert all(counts[f"{a} {a}"] >= 3 for a in both), counts
