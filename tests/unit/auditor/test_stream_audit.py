"""Streaming audit (issue 16): ``audit_core(retain=False)``, ``PolicyState``, the window.

A streaming audit must make the same steps byte for byte, the same trace
policy checks and the same verdict bytes as a retained one, on every fixture
market, while keeping no extract step alive.  ``PolicyState`` fed one step at
a time must give exactly (ids, messages, details, challenges, order) what the
whole-list check gave before it was split, on the honest trace and on every
mutation the trace-policy tests make; ``_whole_list_checks`` below is that
former driver, kept as the oracle (it reuses the unchanged per-step rules).
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from bundle_edits import step_edit
from factories import two_source_case

from por.auditor import AuditorAgent, audit_core
from por.auditor import trace_policy as tp
from por.auditor.stream import ReleasedStepError, StepWindow
from por.auditor.trace_policy import PolicyState, lean_policy_for, policy_checks
from por.judge import judge_core
from por.lean.trace import Step, variables_from
from por.lean.writer_hooks import results_from
from por.lean.writers_gen import Challenge, Check
from por.merkle import root_hash
from por.scenarios import list_scenarios, load_scenario
from por.schemas import ReasoningTrace, TracePolicy

NAMES = list_scenarios()


def _whole_list_checks(steps: Sequence[Any], prompt_spec: Any, items: Sequence[Any], *,
                       trace_market_id: str, policy: Any) -> list[Check]:
    """``policy_checks`` as it was before ``PolicyState`` (commit e561140)."""
    failures: dict[str, list[Check]] = {c: [] for c in tp.TRACE_CHECK_IDS}
    market = prompt_spec.market.market_id
    if trace_market_id != market:
        failures[tp.CHECK_MARKET_ID].append(tp._fail(
            tp.CHECK_MARKET_ID, "trace is for another market", expected=market,
            actual=trace_market_id))
    want = lean_policy_for(len(items), len(prompt_spec.data_requirements))
    if not want.same_as(policy):
        failures[tp.CHECK_POLICY].append(tp._fail(
            tp.CHECK_POLICY, "trace policy differs from the policy for these inputs",
            expected=str(want.max_steps), actual=str(policy.max_steps)))
    if len(steps) > policy.max_steps:
        failures[tp.CHECK_MAX_STEPS].append(tp._fail(
            tp.CHECK_MAX_STEPS, "trace has more steps than its policy allows",
            expected=f"<= {policy.max_steps}", actual=str(len(steps))))
    known = frozenset(i.evidence_id for i in items)
    earlier: dict[str, int] = {}
    for position, step in enumerate(steps):
        tp._one_step(step, position, earlier=earlier, known=known,
                     external_ok=policy.allow_external_facts, failures=failures)
        earlier.setdefault(step.step_id, position)
    last = len(steps) - 1
    reason, variables = "", None
    if not steps:
        reason = "the trace has no steps"
    elif steps[-1].step_type not in ("map", "aggregate"):
        reason = f"the final step is a {steps[-1].step_type} step"
    elif steps[-1].output.get("evaluation_variables") is None:
        reason = "the final step has no evaluation_variables"
    else:
        variables = variables_from(steps[-1].output.get("evaluation_variables"))
        reason = "" if variables is not None else "evaluation_variables do not validate"
    if variables is None:
        failures[tp.CHECK_MISSING_VARIABLES].append(tp._fail(
            tp.CHECK_MISSING_VARIABLES, reason,
            tp._leaf(steps[last].step_id, last, "evaluation_variables") if steps else
            Challenge("reasoning_leaf", reason="evaluation_variables")))
    else:
        for evidence_id in variables.source_summary:
            if evidence_id not in known:
                failures[tp.CHECK_UNKNOWN_EVIDENCE].append(tp._fail(
                    tp.CHECK_UNKNOWN_EVIDENCE,
                    f"source_summary names unknown evidence {evidence_id!r}",
                    tp._leaf(steps[last].step_id, last, "source_summary"),
                    actual=evidence_id))
    checks: list[Check] = []
    for check_id in tp.TRACE_CHECK_IDS:
        checks.extend(failures[check_id] or [Check(check_id, True, "info", "ok")])
    return checks


def _dump(checks: list[Check]) -> list[dict[str, Any]]:
    return [c.model_dump() for c in results_from(checks)]


_step = step_edit


def _with(**changes: Any) -> Callable[[ReasoningTrace], ReasoningTrace]:
    return lambda t: t.model_copy(update=changes)


def _summary(ids: list[str]) -> Callable[[ReasoningTrace], ReasoningTrace]:
    def mutate(trace: ReasoningTrace) -> ReasoningTrace:
        variables = dict(trace.steps[-1].output["evaluation_variables"])  # type: ignore[arg-type]
        variables["source_summary"] = ids
        return _step(-1, output={"evaluation_variables": variables})(trace)
    return mutate


#: The mutations of tests/unit/auditor/test_trace_policy.py and tests/unit/lean/test_lean_core.py.
MUTATIONS: dict[str, Callable[[ReasoningTrace], ReasoningTrace]] = {
    "honest": lambda t: t,
    "ghost_evidence": _step(2, evidence_ids=["e1", "e_ghost"]),
    "ghost_summary": _summary(["e_ghost"]),
    "two_ghosts_summary": _summary(["e_ghost", "e1", "e_other"]),
    "prior_forward": _step(2, prior_step_ids=["step_0001", "step_0005"]),
    "prior_self": _step(2, prior_step_ids=["step_0003"]),
    "prior_twice": _step(2, prior_step_ids=["step_0001", "step_0001"]),
    "prior_unknown": _step(2, prior_step_ids=["nope"]),
    "ends_with_deduce": lambda t: t.model_copy(update={"steps": t.steps[:-1]}),
    "no_steps": _with(steps=[]),
    "no_variables": _step(-1, output={}),
    "partial_variables": _step(-1, output={"evaluation_variables": {
        "conflict_detected": False}}),
    "int_flag": _step(-1, output={"evaluation_variables": {
        "conflict_detected": 0, "insufficient_evidence": True, "fallback_used": False,
        "provenance_ok": True, "source_summary": []}}),
    "final_aggregate": _step(-1, step_type="aggregate"),
    "final_check": _step(-1, step_type="check"),
    "duplicate_id": _step(1, step_id="step_0001"),
    "id_gap": _step(1, step_id="step_0009"),
    "id_malformed": _step(0, step_id="step_1"),
    "swapped": lambda t: t.model_copy(update={"steps": [t.steps[1], t.steps[0],
                                                        *t.steps[2:]]}),
    "tight_policy": _with(policy=TracePolicy(max_steps=3)),
    "wide_policy": _with(policy=TracePolicy(max_steps=10_000)),
    "market": _with(market_id="other"),
    "external_fact": _step(0, inputs={"kind": "extract_claims", "btc_price": "100"}),
    "many_at_once": lambda t: _step(0, step_id="step_0002", evidence_ids=["e_x"],
                                    inputs={"kind": "extract_claims", "x": 1})(
        _with(market_id="other", policy=TracePolicy(max_steps=2))(t)),
}


@pytest.mark.parametrize("mutation", sorted(MUTATIONS))
def test_policy_state_equals_the_whole_list_check(mutation: str) -> None:
    spec, evidence = two_source_case()
    honest, _ = AuditorAgent().audit(spec, evidence)
    trace = MUTATIONS[mutation](honest)
    parts = {"trace_market_id": trace.market_id, "policy": trace.policy}
    expected = _dump(_whole_list_checks(trace.steps, spec, evidence.items, **parts))
    assert _dump(policy_checks(trace.steps, spec, evidence.items, **parts)) == expected
    state = PolicyState(spec, evidence.items, **parts)
    for position, step in enumerate(trace.steps):
        state.feed(position, step)
    assert _dump(state.finish()) == expected
    assert (mutation in {"honest", "final_aggregate"}) is all(c["ok"] for c in expected)


def test_policy_state_refuses_steps_out_of_order() -> None:
    spec, evidence = two_source_case()
    trace, _ = AuditorAgent().audit(spec, evidence)
    state = PolicyState(spec, evidence.items, trace_market_id=trace.market_id,
                        policy=trace.policy)
    state.feed(0, trace.steps[0])
    with pytest.raises(ValueError, match="position 2, expected 1"):
        state.feed(2, trace.steps[2])


@pytest.mark.parametrize("name", NAMES)
def test_streaming_audit_equals_retained_audit(name: str) -> None:
    scenario = load_scenario(name)
    spec, evidence = scenario.prompt_spec, scenario.evidence
    items = evidence.items
    retained = audit_core(spec, items)
    seen: list[bytes] = []
    state = PolicyState(spec, items, trace_market_id=spec.market.market_id,
                        policy=lean_policy_for(len(items), len(spec.data_requirements)))

    def feed(index: int, step: Step) -> None:
        seen.append(step.to_cbor())
        state.feed(index, step)

    streamed = audit_core(spec, items, on_step=feed, retain=False)
    assert seen == [s.to_cbor() for s in retained.steps]
    assert len(streamed.steps) == len(retained.steps)
    assert streamed.header_cbor() == retained.header_cbor()
    assert (streamed.trace_id, streamed.market_id) == (retained.trace_id, retained.market_id)
    assert streamed.policy.same_as(retained.policy)
    whole = policy_checks(retained.steps, spec, items, trace_market_id=retained.market_id,
                          policy=retained.policy)
    assert _dump(state.finish()) == _dump(whole)
    assert streamed.steps.reasoning_root() == root_hash(seen)  # type: ignore[union-attr]
    verdict, checks = judge_core(spec, evidence, streamed, explain=True)
    want, want_checks = judge_core(spec, evidence, retained, explain=True)
    assert verdict.to_cbor() == want.to_cbor()
    assert verdict.outcome == scenario.expected.outcome
    assert _dump(checks) == _dump(want_checks)


def _live_steps(step_type: str) -> int:
    gc.collect()
    return sum(1 for o in gc.get_objects() if type(o) is Step and o.step_type == step_type)


@pytest.mark.parametrize("retain", [True, False])
def test_streaming_run_holds_no_extract_step(retain: bool) -> None:
    scenario = load_scenario(NAMES[0])
    spec, items = scenario.prompt_spec, scenario.evidence.items
    before = _live_steps("extract")
    run = audit_core(spec, items, retain=retain)
    held = _live_steps("extract") - before
    if retain:  # the control: a retained run holds one per item
        assert held == len(items) > 0
        assert isinstance(run.steps, list) and run.built is not None
        return
    assert held == 0
    assert run.built is None and isinstance(run.steps, StepWindow)
    assert run.steps[-1].step_type == "map"
    assert run.steps[len(run.steps) - 1] is run.steps[-1]
    with pytest.raises(ReleasedStepError):
        run.steps[0]
    with pytest.raises(IndexError):
        run.steps[len(run.steps)]
    with pytest.raises(TypeError):
        list(run.steps)
    with pytest.raises(ValueError, match="keeps no step checks"):
        run.step_checks()


def test_a_failing_on_step_still_sees_an_intact_step() -> None:
    """The replay's handoff keeps the first mismatching step: it must be whole."""
    spec, evidence = two_source_case()
    want = audit_core(spec, evidence.items).steps[3]
    kept: list[Step] = []

    def stop_at_three(index: int, step: Step) -> None:
        if index == 3:
            kept.append(step)
            raise RuntimeError("mismatch")

    with pytest.raises(RuntimeError):
        audit_core(spec, evidence.items, on_step=stop_at_three, retain=False)
    assert kept[0] == want and kept[0].to_cbor() == want.to_cbor()
