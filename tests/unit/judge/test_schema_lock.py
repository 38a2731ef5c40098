"""Schema lock tests (seed M07 §10.2): the judge refuses non-strict inputs."""

from __future__ import annotations

from typing import Any

import pytest
from judge_builders import make_evidence, make_spec, make_trace, variables

from por.judge import JudgeAgent, SchemaLock, final_step_index
from por.judge.schema_lock import check_outcome_set
from por.schemas import ChallengeRef, CheckResult, ReasoningStep


def failed(checks: list[CheckResult]) -> list[str]:
    return [c.check_id for c in checks if not c.ok and c.severity == "error"]


def test_strict_spec_and_trace_pass() -> None:
    spec_checks = SchemaLock.verify_prompt_spec(make_spec())
    trace_checks = SchemaLock.verify_trace(make_trace(variables(numeric_value="1")))
    assert [c.check_id for c in spec_checks + trace_checks] == [
        "judge.schema_lock.output_schema_ref", "judge.schema_lock.strict_mode",
        "judge.schema_lock.rule_ids", "judge.schema_lock.evaluation_variables",
        "judge.schema_lock.outcome_set"]
    assert failed(spec_checks + trace_checks) == []


def test_wrong_output_schema_ref_fails() -> None:
    spec = make_spec(output_schema_ref="core.schemas.verdict.DeterministicVerdict")
    checks = SchemaLock.verify_prompt_spec(spec)
    assert failed(checks) == ["judge.schema_lock.output_schema_ref"]
    assert checks[0].challenge == ChallengeRef(kind="por_bundle", reason="output_schema_ref")
    verdict, result = JudgeAgent().judge(spec, make_evidence(),
                                         make_trace(variables(numeric_value="101")))
    assert (verdict.outcome, verdict.resolution_rule_id, verdict.confidence_bps) == (
        "INVALID", "R_VALIDITY", 0)
    assert result.challenge is not None and result.challenge.kind == "por_bundle"


def test_strict_mode_off_fails() -> None:
    spec = make_spec(strict_mode=False)
    assert failed(SchemaLock.verify_prompt_spec(spec)) == ["judge.schema_lock.strict_mode"]
    verdict, _ = JudgeAgent().judge(spec, make_evidence(),
                                    make_trace(variables(numeric_value="101")))
    assert (verdict.outcome, verdict.resolution_rule_id) == ("INVALID", "R_VALIDITY")


def test_unknown_rule_id_fails_closed() -> None:
    spec = make_spec(rule_ids=["R_VALIDITY", "R_CUSTOM_ORACLE"])
    checks = SchemaLock.verify_prompt_spec(spec)
    assert failed(checks) == ["judge.schema_lock.rule_ids"]
    assert checks[2].details == {"unknown_rule_ids": ["R_CUSTOM_ORACLE"]}


@pytest.mark.parametrize(("evaluation", "reason"), [
    (None, "missing"),
    ({**variables(), "event_observed": "true"}, "invalid:event_observed"),
    ({**variables(), "numeric_value": "100.00"}, "invalid:numeric_value"),
    ({**variables(), "numeric_value": 100}, "invalid:numeric_value"),
    ({**variables(), "outcome": "YES"}, "invalid:outcome"),
    ({k: v for k, v in variables().items() if k != "provenance_ok"},
     "invalid:provenance_ok"),
    ("not-a-map", "not_a_map"),
])
def test_missing_or_invalid_evaluation_variables_fail(evaluation: Any, reason: str) -> None:
    trace = make_trace(evaluation) if evaluation != "not-a-map" else make_trace(None)
    if evaluation == "not-a-map":
        step = trace.steps[1].model_copy(update={"output": {"evaluation_variables": "x"}})
        trace = trace.model_copy(update={"steps": [trace.steps[0], step]})
    checks = SchemaLock.verify_trace(trace)
    assert failed(checks) == ["judge.schema_lock.evaluation_variables"]
    assert checks[0].actual == reason
    assert checks[0].challenge == ChallengeRef(kind="reasoning_leaf", step_id="step_0002",
                                               leaf_index=1, reason="evaluation_variables")


def test_trace_without_map_or_aggregate_step_fails() -> None:
    trace = make_trace(variables(), final_type="deduce")
    checks = SchemaLock.verify_trace(trace)
    assert checks[0].actual == "no_final_step"
    assert checks[0].challenge == ChallengeRef(kind="reasoning_leaf",
                                               reason="evaluation_variables")
    verdict, _ = JudgeAgent().judge(make_spec(), make_evidence(), trace)
    assert (verdict.outcome, verdict.resolution_rule_id) == ("INVALID", "R_VALIDITY")


def test_map_step_preferred_over_later_aggregate() -> None:
    later = ReasoningStep(step_id="step_0003", step_type="aggregate", description="late",
                          evidence_ids=[], prior_step_ids=["step_0002"], inputs={},
                          output={})
    trace = make_trace(variables(numeric_value="101"), extra_steps=[later])
    assert final_step_index(trace) == 1
    verdict, _ = JudgeAgent().judge(make_spec(), make_evidence(), trace)
    assert verdict.outcome == "YES"


def test_aggregate_step_used_when_no_map() -> None:
    trace = make_trace(variables(numeric_value="99"), final_type="aggregate")
    assert final_step_index(trace) == 1
    verdict, _ = JudgeAgent().judge(make_spec(), make_evidence(), trace)
    assert (verdict.outcome, verdict.resolution_rule_id) == ("NO", "R_BINARY_DECISION")


def test_outcome_set_lock() -> None:
    assert check_outcome_set().ok is True
    drifted = check_outcome_set(("YES", "NO", "INVALID", "UNKNOWN"))
    assert (drifted.ok, drifted.severity) == (False, "error")
    assert drifted.challenge == ChallengeRef(kind="por_bundle", reason="outcome_set")
    assert check_outcome_set(codes={"YES": 1, "NO": 2, "INVALID": 0}).ok is False
