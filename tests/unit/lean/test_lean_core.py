"""The lean core agrees with the public API on mutated traces and builds no report objects.

``policy_checks`` on duck-typed steps gives ``ok`` exactly when
``TracePolicyVerifier().verify`` on the pydantic trace does, with the same
check ids, for honest traces of every fixture market and for each mutation the
trace-policy unit tests make; ``judge_core``'s verdict bytes equal
``JudgeAgent().judge``'s on the same mutations.  ``audit_core``, ``policy_checks``
and ``judge_core`` never build a pydantic ``CheckResult`` or ``ChallengeRef``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from bundle_edits import step_edit
from duck import duck

from por.auditor import AuditorAgent, TracePolicyVerifier, audit_core
from por.auditor.trace_policy import policy_checks
from por.judge import JudgeAgent, judge_core
from por.lean.writer_hooks import ok_from
from por.lean.writers_gen import Check
from por.scenarios import list_scenarios, load_scenario
from por.schemas import ReasoningTrace, TracePolicy, verification

NAMES = list_scenarios()


_step = step_edit


def _final_output(output: dict[str, Any]) -> Callable[[ReasoningTrace], ReasoningTrace]:
    return _step(-1, output=output)


MUTATIONS: dict[str, Callable[[ReasoningTrace], ReasoningTrace]] = {
    "honest": lambda t: t,
    "ghost_evidence": _step(0, evidence_ids=["e_ghost"]),
    "external_fact": _step(0, inputs={"kind": "extract_claims", "btc_price": "100"}),
    "step_id_gap": _step(1, step_id="step_0009"),
    "duplicate_id": _step(1, step_id="step_0001"),
    "prior_forward": _step(0, prior_step_ids=["step_0002"]),
    "market": lambda t: t.model_copy(update={"market_id": "other-market"}),
    "policy": lambda t: t.model_copy(update={"policy": TracePolicy(max_steps=1)}),
    "no_steps": lambda t: t.model_copy(update={"steps": []}),
    "final_not_map": lambda t: t.model_copy(update={"steps": t.steps[:-1]}),
    "bad_variables": _final_output({"evaluation_variables": {"conflict_detected": 1}}),
    "summary_ghost": _final_output({"evaluation_variables": {
        "conflict_detected": False, "insufficient_evidence": False, "fallback_used": False,
        "provenance_ok": True, "source_summary": ["e_ghost"], "event_observed": True}}),
}


def _ids(checks: list[Any]) -> list[tuple[str, bool]]:
    return [(c.check_id, c.ok) for c in checks]


@pytest.mark.parametrize("mutation", sorted(MUTATIONS))
@pytest.mark.parametrize("name", NAMES)
def test_lean_policy_and_verdict_match_the_public_api(name: str, mutation: str) -> None:
    scenario = load_scenario(name)
    spec, evidence = scenario.prompt_spec, scenario.evidence
    honest, _ = AuditorAgent().audit(spec, evidence)
    trace = MUTATIONS[mutation](honest)
    public = TracePolicyVerifier().verify(trace, spec, evidence)
    lean_trace = duck(trace)
    lean = policy_checks(lean_trace.steps, duck(spec), duck(evidence).items,
                         trace_market_id=lean_trace.market_id, policy=lean_trace.policy)
    assert ok_from(lean) is public.ok
    assert _ids(lean) == _ids(public.checks)
    assert (mutation == "honest") is public.ok
    verdict, _ = JudgeAgent().judge(spec, evidence, trace)
    lean_verdict, checks = judge_core(duck(spec), duck(evidence), lean_trace)
    assert lean_verdict.to_cbor() == verdict.to_cbor()
    assert all(isinstance(c, Check) for c in checks)


class _NoReports:
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise AssertionError("the lean core built a pydantic report object")


@pytest.mark.parametrize("name", NAMES)
def test_lean_core_builds_no_report_objects(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    scenario = load_scenario(name)
    spec, evidence = duck(scenario.prompt_spec), duck(scenario.evidence)
    monkeypatch.setattr(verification, "CheckResult", _NoReports)
    monkeypatch.setattr(verification, "ChallengeRef", _NoReports)
    monkeypatch.setattr(Check, "to_model", _NoReports)
    run = audit_core(spec, evidence.items)
    checks = policy_checks(run.steps, spec, evidence.items, trace_market_id=run.market_id,
                           policy=run.policy)
    assert ok_from(checks)
    verdict, _ = judge_core(spec, evidence, run)
    assert verdict.outcome == scenario.expected.outcome
