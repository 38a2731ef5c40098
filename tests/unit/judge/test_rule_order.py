"""resolution_rules never silently ignored (issue 23, SPEC §7.2, §19.1).

The judge applies its five rules in one fixed order; a list claiming another
order is refused (``judge.schema_lock.rule_ids``, INVALID by ``R_VALIDITY``),
and ``por build``'s preflight refuses an incomplete list and a predicate that
reads a field no requirement extracts, each with a suggestion.
"""

from __future__ import annotations

from typing import Any

import pytest

from por.auditor import AuditorAgent
from por.bundle import build
from por.explain import findings, unresolvable
from por.judge import JudgeAgent
from por.judge.schema_lock import out_of_order
from por.scenarios import load_scenario
from por.schemas import PromptSpec


def _with_rules(name: str, order: list[tuple[str, int]]) -> PromptSpec:
    data = load_scenario(name).prompt_spec.to_json_obj()
    data["market"]["resolution_rules"]["rules"] = [
        {"rule_id": r, "description": r, "priority": p} for r, p in order]
    return PromptSpec.from_json_obj(data)


@pytest.mark.parametrize(("ids", "late"), [
    (["R_VALIDITY", "R_CONFLICT", "R_BINARY_DECISION", "R_CONFIDENCE",
      "R_INVALID_FALLBACK"], []),
    (["R_VALIDITY", "R_CONFLICT", "R_BINARY_DECISION", "R_INVALID_FALLBACK",
      "R_CONFIDENCE"], []),
    (["R_BINARY_DECISION", "R_CONFLICT"], ["R_CONFLICT"]),
    (["R_CONFIDENCE", "R_VALIDITY", "R_BINARY_DECISION"], ["R_VALIDITY", "R_BINARY_DECISION"]),
    (["R_BINARY_DECISION"], []),
])
def test_out_of_order(ids: list[str], late: list[str]) -> None:
    assert out_of_order(ids) == late


def test_a_disordered_list_makes_the_verdict_invalid() -> None:
    scenario = load_scenario("04-threshold-gte-boundary")
    spec = _with_rules("04-threshold-gte-boundary",
                       [("R_BINARY_DECISION", 1), ("R_CONFLICT", 2), ("R_VALIDITY", 3)])
    trace, _ = AuditorAgent().audit(spec, scenario.evidence)
    verdict, result = JudgeAgent().judge(spec, scenario.evidence, trace)
    assert (verdict.outcome, verdict.resolution_rule_id) == ("INVALID", "R_VALIDITY")
    failed = [c for c in result.checks if c.check_id == "judge.schema_lock.rule_ids"]
    assert failed[0].ok is False
    assert failed[0].details == {"out_of_order_rule_ids": ["R_CONFLICT", "R_VALIDITY"]}
    refusal = unresolvable(spec)
    assert refusal is not None and "order R_VALIDITY, R_CONFLICT" in refusal.message


def test_preflight_refuses_an_incomplete_list() -> None:
    spec = _with_rules("04-threshold-gte-boundary", [("R_BINARY_DECISION", 1)])
    refusal = unresolvable(spec)
    assert refusal is not None and refusal.check_id == "spec.rules_incomplete"
    assert "R_CONFLICT" in refusal.message


def _semantics(name: str, **change: Any) -> PromptSpec:
    data = load_scenario(name).prompt_spec.to_json_obj()
    data["prediction_semantics"].update(change)
    return PromptSpec.from_json_obj(data)


def test_preflight_refuses_an_unextracted_comparison_field() -> None:
    spec = _semantics("62-field-comparison-home-win", other_metric="visitor_score")
    refusal = unresolvable(spec)
    assert refusal is not None and refusal.check_id == "spec.field_unprovided"
    assert "'visitor_score'" in refusal.message and '"kind": "numeric"' in refusal.message
    spec = _semantics("68-precondition-no", preconditions=[
        {"key": "meeting_state", "equals": "HELD", "otherwise": "NO"}])
    refusal = unresolvable(spec)
    assert refusal is not None and refusal.check_id == "spec.field_unprovided"
    assert unresolvable(load_scenario("62-field-comparison-home-win").prompt_spec) is None


def test_preflight_names_the_kind_a_new_predicate_reads() -> None:
    spec = _semantics("64-text-equals-award", metric="ceremony")
    refusal = unresolvable(spec)
    assert refusal is not None and refusal.check_id == "spec.metric_unprovided"
    assert "text field" in refusal.message


def test_r_conflict_names_sources_and_values() -> None:
    """The judge's checks are the same for a streamed and a retained trace, so the
    sources and values of a conflict are named by the findings (SPEC §19.2)."""
    scenario = load_scenario("09-conflict-invalid")
    result = build(scenario.prompt_spec, scenario.evidence)
    assert result.verdict.resolution_rule_id == "R_CONFLICT"
    lines = [f.line() for f in findings(scenario.prompt_spec, list(result.trace.steps))]
    assert ("contradiction.numeric: close: numeric claims disagree: 48.1 from exchange-alpha "
            "(ev-exchange-alpha) vs 52.9 from exchange-beta (ev-exchange-beta) (step_0005)"
            ) in lines
