"""``F`` is injective on what a kind recomputes (ADR 0017 decision 2): every output entry
of every recomputed step of every fixture market, edited, changes its form (or leaves it
without one), and so do an extra key in any map of the output, an extra ``inputs`` key,
a dropped list element and a changed description."""

from __future__ import annotations

import copy
import json
from pathlib import Path as FilePath
from typing import Any

import pytest
from forms_markets import markets
from vector_generators import load_generator

from por.errors import PorError
from por.forms import form_of

VECTORS = FilePath(__file__).resolve().parents[3] / "fixtures" / "vectors"
#: The step records' vectors: the markets plus edits reaching every branch (chunks of
#: more than 10 items, the gate, each sanity reason, boolean contradictions).
STEP_RECORDS = json.loads((VECTORS / "step_records.json").read_text(encoding="utf-8"))
GEN = load_generator("gen_forms")
RECOMPUTED = GEN.RECOMPUTED
edits = GEN.edits
_paths = GEN.paths


def _steps() -> list[tuple[str, dict[str, Any]]]:
    steps = [(f"{m.name} {s['step_id']}", s) for m in markets() for s in m.steps]
    steps += [(f"{v['name']} {s['record']['step_id']}", s["record"])
              for v in STEP_RECORDS["vectors"] for s in v["steps"]]
    return [(name, s) for name, s in steps if s["inputs"]["kind"] in RECOMPUTED]


def test_the_step_record_vectors_have_forms() -> None:
    for v in STEP_RECORDS["vectors"]:
        spec = v["prompt_spec"]
        assert form_of(spec)[:32] == (1).to_bytes(32, "big")
        for k in range(len(spec["data_requirements"])):
            assert form_of(spec, k)[:32] == (2).to_bytes(32, "big")
        for s in v["steps"]:
            assert len(form_of(s["record"])) % 32 == 0


@pytest.mark.parametrize("kind", RECOMPUTED)
def test_every_edit_of_a_recomputed_step_changes_its_form(kind: str) -> None:
    with_form = without_form = 0
    steps = [(name, s) for name, s in _steps() if s["inputs"]["kind"] == kind]
    assert steps
    for name, step in steps:
        honest = form_of(step)
        for what, edited in edits(step):
            try:
                form = form_of(edited)
            except PorError as exc:
                assert exc.check_id == "form.none", (name, what)
                without_form += 1
                continue
            assert form != honest, (name, what)
            with_form += 1
    assert with_form > 10 * len(steps) // 2, (with_form, without_form)


def test_edits_reach_every_key_of_the_outputs() -> None:
    """The edits above see every output key the layouts name (so none is skipped)."""
    keys = {str(p[-1]) for _, s in _steps() for p, _ in _paths(s["output"], ())
            if p and isinstance(p[-1], str)}
    for key in ("covered", "groups", "items", "sources", "window", "fields", "votes",
                "quorum", "conflicts", "source_summary", "evaluation_variables",
                "numeric_value", "last_leaf", "from_leaf", "gate_reason", "reasons", "other"):
        assert key in keys, key


@pytest.mark.parametrize("kind", ["timestamp", "text", "bogus"])
def test_a_conflict_of_another_kind_has_no_form(kind: str) -> None:
    """SPEC §5.6.2, §5.6.9: a conflict's kind is boolean (0) or numeric (1); any other
    has no form, even with no values to read (``fpcontra``, s42: ``por.forms`` wrote
    ``E(KIND)``'s four codes, where SPEC and both second implementations refuse)."""
    step = next(s for _, s in _steps() if s["inputs"]["kind"] == "contradictions"
                and s["output"]["conflicts"])
    form_of(step)
    edited = copy.deepcopy(step)
    edited["output"]["conflicts"][0].update(kind=kind, values=[])
    with pytest.raises(PorError) as caught:
        form_of(edited)
    assert caught.value.check_id == "form.none"
