"""Lean trace records equal the pydantic ones byte for byte (issue 16).

Every step of every fixture market, the trace header and the verdict: the
lean core (``audit_core``, ``judge_core``) on duck-typed inputs gives the
canonical bytes the public pydantic API gives.  ``variables_from`` accepts
exactly what ``EvaluationVariables.model_validate(raw, strict=True)`` accepts.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from duck import duck
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from por.auditor import AuditorAgent, audit_core
from por.auditor.step_io import read_extract
from por.auditor.steps import extract_step
from por.judge import JudgeAgent, judge_core
from por.lean.trace import VARIABLE_NAMES, Step, variables_from
from por.scenarios import list_scenarios, load_scenario
from por.schemas import EvaluationVariables, ReasoningStep, TraceHeader

ROOT = Path(__file__).resolve().parents[3]
NAMES = list_scenarios()


def test_auditor_and_judge_import_without_pydantic() -> None:
    code = ("import por.auditor, por.judge, por.gate, por.auditor.trace_policy, "
            "por.judge.schema_lock, sys; "
            "assert not any(m == 'pydantic' or m.startswith('pydantic.') for m in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, check=False)
    assert done.returncode == 0, done.stderr


def test_step_has_the_record_attribute_names() -> None:
    names = set(Step.__slots__) - {"_claims", "_cbor"}
    assert names == set(ReasoningStep.model_fields)


@pytest.mark.parametrize("name", NAMES)
def test_lean_core_bytes_equal_the_records(name: str) -> None:
    scenario = load_scenario(name)
    spec, evidence = scenario.prompt_spec, scenario.evidence
    trace, _ = AuditorAgent().audit(spec, evidence)
    lean_spec, lean_evidence = duck(spec), duck(evidence)
    run = audit_core(lean_spec, lean_evidence.items)
    assert len(run.steps) == len(trace.steps)
    for lean, record in zip(run.steps, trace.steps, strict=True):
        assert lean.to_cbor() == record.to_cbor()
        # to_record() skips validation: pin that validating gives the same record.
        assert ReasoningStep.from_cbor(lean.to_cbor()) == lean.to_record() == record
    assert run.trace_id == trace.trace_id
    assert run.header_cbor() == trace.header().to_cbor()
    other = TraceHeader(trace_id=trace.trace_id, market_id="another-market",
                        policy=trace.policy, step_count=len(trace.steps))
    assert run.header_cbor("another-market") == other.to_cbor()
    verdict, _ = JudgeAgent().judge(spec, evidence, trace)
    lean_verdict, _ = judge_core(lean_spec, lean_evidence, run)
    assert lean_verdict.to_cbor() == verdict.to_cbor()
    assert lean_verdict.to_model() == verdict


_scalar = st.one_of(st.none(), st.booleans(), st.integers(-3, 2**64),
                    st.sampled_from(["0", "1.5", "-0.25", "01", "1.50", "x", "", "1e3"]),
                    st.text(max_size=3))
_ids = st.lists(st.one_of(st.sampled_from(["a", "b", "", "x" * 128, "x" * 129]),
                          st.integers(0, 2), st.booleans()), max_size=4)
_field = st.one_of(_scalar, _ids, st.tuples(st.just("a")))


@st.composite
def _raw_variables(draw: Any) -> Any:
    base: dict[str, Any] = {"conflict_detected": False, "insufficient_evidence": True,
                            "fallback_used": False, "provenance_ok": True,
                            "source_summary": ["a"]}
    for name in draw(st.lists(st.sampled_from([*VARIABLE_NAMES, "extra"]), max_size=4)):
        base[name] = draw(_field)
    for name in draw(st.lists(st.sampled_from(VARIABLE_NAMES), max_size=2)):
        base.pop(name, None)
    return base if draw(st.booleans()) else draw(st.one_of(st.just(base), _scalar))


@given(_raw_variables())
def test_variables_from_accepts_exactly_what_the_model_accepts(raw: Any) -> None:
    try:
        model = EvaluationVariables.model_validate(raw, strict=True)
    except ValidationError:
        model = None
    lean = variables_from(raw)
    assert (lean is None) == (model is None)
    if lean is not None and model is not None:
        assert lean.to_value() == model.to_value()
        assert list(lean.to_value()) == list(model.to_value())  # same order too


_BASE = {"conflict_detected": False, "insufficient_evidence": False, "fallback_used": False,
         "provenance_ok": True, "source_summary": ["a"]}


@pytest.mark.parametrize(("change", "accepted"), [
    ({}, True),
    ({"timestamp": True}, False),  # strict: bool is not int
    ({"timestamp": 0}, True),
    ({"timestamp": 2**63}, False),
    ({"conflict_detected": 1}, False),  # strict: int is not bool
    ({"numeric_value": "1.50"}, False),  # not canonical
    ({"numeric_value": 1}, False),
    ({"numeric_value": "-0.25"}, True),
    ({"event_observed": None}, True),  # explicit None is the default
    ({"source_summary": ["a", "a"]}, False),
    ({"source_summary": ("a",)}, False),  # strict: a tuple is not a list
    ({"source_summary": ["x" * 129]}, False),
    ({"source_summary": []}, True),
    ({"extra": 1}, False),
])
def test_variables_from_pinned_cases(change: dict[str, Any], accepted: bool) -> None:
    raw = {**_BASE, **change}
    try:
        EvaluationVariables.model_validate(raw, strict=True)
        model_ok = True
    except ValidationError:
        model_ok = False
    assert model_ok is accepted
    assert (variables_from(raw) is not None) is accepted


@pytest.mark.parametrize("name", NAMES)
def test_primed_extract_memo_equals_the_parse(name: str) -> None:
    """extract_step primes read_extract's memo with what the parse would give."""
    scenario = load_scenario(name)
    items = duck(scenario.evidence).items
    run = audit_core(duck(scenario.prompt_spec), items)
    for item, step in zip(items, run.steps, strict=False):
        if step.step_type != "extract":
            break
        primed = step._claims
        assert primed is None  # the auditor forgets it once contradictions has read it
        fresh = Step(step.step_id, step.step_type, step.description, step.evidence_ids,
                     step.prior_step_ids, step.inputs, step.output)
        parsed = read_extract(fresh, item)
        built = extract_step(duck(scenario.prompt_spec), step.step_id, item).step
        assert built._claims == ((item.evidence_id, item.confidence_bps), parsed)
