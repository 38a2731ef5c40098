"""Judge mapping tests (seed M07 §10.1 and the DESIGN §2 regressions).

Every rule id is reached here: R_VALIDITY, R_CONFLICT, R_BINARY_DECISION,
R_CONFIDENCE and R_INVALID_FALLBACK.  Expected confidences are worked by hand
from the formula in ``por.judge.deterministic_mapping``.
"""

from __future__ import annotations

import pytest
from judge_builders import (
    MARKET_ID,
    WINDOW_END,
    WINDOW_START,
    make_evidence,
    make_item,
    make_spec,
    make_trace,
    variables,
)

from por.errors import SchemaError
from por.judge import JudgeAgent, compare_decimal, map_to_verdict
from por.merkle import leaf_hash, root_hash
from por.schemas import (
    ChallengeRef,
    CheckResult,
    ConfidencePolicy,
    DeterministicVerdict,
    EvidenceBundle,
    PromptSpec,
    ReasoningTrace,
    VerificationResult,
)


def run(spec: PromptSpec, evidence: EvidenceBundle,
        trace: ReasoningTrace) -> tuple[DeterministicVerdict, VerificationResult]:
    return JudgeAgent().judge(spec, evidence, trace)


def check(result: VerificationResult, check_id: str) -> CheckResult:
    found = [c for c in result.checks if c.check_id == check_id]
    assert len(found) == 1, [c.check_id for c in result.checks]
    return found[0]


def decided(spec: PromptSpec, **evaluation: object) -> tuple[str, str, int]:
    verdict, _ = run(spec, make_evidence(), make_trace(variables(**evaluation)))
    return verdict.outcome, verdict.resolution_rule_id, verdict.confidence_bps


# --- seed §10.1 ------------------------------------------------------------

def test_event_observed_true_is_yes_above_minimum() -> None:
    spec = make_spec(predicate="event_observed")
    verdict, result = run(spec, make_evidence(), make_trace(variables(event_observed=True)))
    assert (verdict.outcome, verdict.resolution_rule_id, verdict.confidence_bps) == (
        "YES", "R_BINARY_DECISION", 7000)
    assert verdict.confidence_bps >= spec.confidence_policy.min_confidence_for_yesno_bps
    assert result.ok is True
    assert [c.check_id for c in result.checks][-4:] == [
        "validity", "conflict", "binary_decision", "confidence"]


def test_event_observed_false_is_no() -> None:
    assert decided(make_spec(predicate="event_observed"), event_observed=False) == (
        "NO", "R_BINARY_DECISION", 7000)


def test_event_observed_absent_is_invalid_fallback() -> None:
    spec = make_spec(predicate="event_observed")
    verdict, result = run(spec, make_evidence(), make_trace(variables()))
    assert (verdict.outcome, verdict.resolution_rule_id, verdict.confidence_bps) == (
        "INVALID", "R_INVALID_FALLBACK", 0)
    decision = check(result, "binary_decision")
    assert (decision.ok, decision.severity) == (False, "error")
    assert result.challenge == ChallengeRef(kind="reasoning_leaf", step_id="step_0002",
                                            leaf_index=1, reason="event_undetermined")


def test_insufficient_evidence_is_invalid_validity_with_evidence_challenge() -> None:
    verdict, result = run(make_spec(predicate="event_observed"), make_evidence(),
                          make_trace(variables(event_observed=True,
                                               insufficient_evidence=True)))
    assert (verdict.outcome, verdict.resolution_rule_id, verdict.confidence_bps) == (
        "INVALID", "R_VALIDITY", 0)
    validity = check(result, "validity")
    assert (validity.ok, validity.severity) == (False, "error")
    assert validity.details == {"reason": "insufficient_evidence"}
    assert result.challenge == ChallengeRef(kind="evidence_leaf",
                                            reason="insufficient_evidence")
    assert result.ok is False


def test_conflict_continue_reduces_confidence() -> None:
    spec = make_spec(on_conflict="continue")
    clean = decided(spec, numeric_value="101")
    conflicted = decided(spec, numeric_value="101", conflict_detected=True)
    assert clean == ("YES", "R_BINARY_DECISION", 7000)
    assert conflicted == ("YES", "R_BINARY_DECISION", 5600)  # 7000 * 0.8


def test_missing_confidence_policy_uses_defaults_deterministically() -> None:
    implicit = make_spec()
    explicit = make_spec(confidence=ConfidencePolicy(
        default_confidence_bps=7000, min_confidence_for_yesno_bps=5500,
        conflict_factor_bps=8000, fallback_factor_bps=9000, invalid_confidence_bps=0))
    trace = make_trace(variables(numeric_value="150"))
    a, _ = run(implicit, make_evidence(), trace)
    b, _ = run(explicit, make_evidence(), trace)
    assert a.confidence_bps == b.confidence_bps == 7000
    # Same policy values, same committed bytes (defaults are committed explicitly).
    assert implicit.to_cbor() == explicit.to_cbor()
    assert a.to_cbor() == b.to_cbor()
    assert a.to_cbor() == run(implicit, make_evidence(), trace)[0].to_cbor()


# --- conflict policy: both branches reachable (the original's were not) -----

def test_conflict_invalid_policy_is_r_conflict() -> None:
    spec = make_spec(on_conflict="invalid")
    verdict, result = run(spec, make_evidence(),
                          make_trace(variables(numeric_value="101", conflict_detected=True)))
    assert (verdict.outcome, verdict.resolution_rule_id, verdict.confidence_bps) == (
        "INVALID", "R_CONFLICT", 0)
    conflict = check(result, "conflict")
    assert (conflict.ok, conflict.severity, conflict.details) == (
        False, "error", {"reason": "conflict_invalid"})
    assert not any(c.check_id == "binary_decision" for c in result.checks)


def test_conflict_continue_is_a_warning_not_a_failure() -> None:
    _, result = run(make_spec(on_conflict="continue"), make_evidence(),
                    make_trace(variables(numeric_value="99", conflict_detected=True)))
    conflict = check(result, "conflict")
    assert (conflict.ok, conflict.severity) == (True, "warn")
    assert result.ok is True


# --- numeric threshold: exact decimals at the boundary ----------------------

@pytest.mark.parametrize(("comparison", "value", "expected"), [
    (">", "100", "NO"), (">", "100.01", "YES"), (">", "99.99", "NO"),
    (">=", "100", "YES"), (">=", "99.99", "NO"), (">=", "100.01", "YES"),
    ("<", "100", "NO"), ("<", "99.99", "YES"), ("<", "100.01", "NO"),
    ("<=", "100", "YES"), ("<=", "100.01", "NO"), ("<=", "99.99", "YES"),
    ("==", "100", "YES"), ("==", "100.01", "NO"), ("==", "99.99", "NO"),
])
def test_numeric_comparison_boundaries(comparison: str, value: str, expected: str) -> None:
    spec = make_spec(comparison=comparison, threshold="100")
    assert decided(spec, numeric_value=value) == (expected, "R_BINARY_DECISION", 7000)


def test_numeric_comparison_is_exact_beyond_float_precision() -> None:
    # As floats both are 100.0; exact decimals tell them apart.
    tiny = "100.0000000000000000000000000001"
    assert decided(make_spec(comparison=">"), numeric_value=tiny)[0] == "YES"
    assert decided(make_spec(comparison="=="), numeric_value=tiny)[0] == "NO"
    assert decided(make_spec(comparison="<", threshold="-0.5"), numeric_value="-0.51")[0] == (
        "YES")


def test_compare_decimal_uses_canonical_values() -> None:
    assert compare_decimal("100", "==", "100") is True
    assert compare_decimal("100", ">", "100") is False
    assert compare_decimal("100.5", ">=", "100.25") is True
    with pytest.raises(SchemaError) as info:
        compare_decimal("100.00", "==", "100")  # not canonical: refused, not rounded
    assert info.value.check_id == "schema.decimal"


def test_stray_event_observed_never_overrides_threshold() -> None:
    spec = make_spec(comparison=">", threshold="100")
    verdict, result = run(spec, make_evidence(),
                          make_trace(variables(numeric_value="99.5", event_observed=True)))
    assert (verdict.outcome, verdict.resolution_rule_id) == ("NO", "R_BINARY_DECISION")
    stray = check(result, "judge.event_observed_ignored")
    assert (stray.ok, stray.severity, stray.expected, stray.actual) == (
        False, "warn", "false", "true")
    assert result.ok is True


def test_agreeing_event_observed_is_recorded_ok() -> None:
    _, result = run(make_spec(), make_evidence(),
                    make_trace(variables(numeric_value="101", event_observed=True)))
    assert check(result, "judge.event_observed_ignored").ok is True


def test_numeric_predicate_without_value_is_validity() -> None:
    verdict, result = run(make_spec(), make_evidence(),
                          make_trace(variables(event_observed=True)))
    assert (verdict.outcome, verdict.resolution_rule_id) == ("INVALID", "R_VALIDITY")
    assert check(result, "validity").details == {"reason": "missing_numeric_value"}
    assert result.challenge == ChallengeRef(kind="reasoning_leaf", step_id="step_0002",
                                            leaf_index=1, reason="numeric_value")


# --- confidence -----------------------------------------------------------

def test_confidence_below_minimum_is_invalid_r_confidence() -> None:
    # conflict then fallback: 7000 -> 5600 -> 5040 < 5500.
    spec = make_spec(on_conflict="continue")
    verdict, result = run(spec, make_evidence(), make_trace(variables(
        numeric_value="101", conflict_detected=True, fallback_used=True)))
    assert (verdict.outcome, verdict.resolution_rule_id, verdict.confidence_bps) == (
        "INVALID", "R_CONFIDENCE", 0)
    confidence = check(result, "confidence")
    assert (confidence.ok, confidence.severity, confidence.actual) == (False, "error", "5040")
    assert result.challenge == ChallengeRef(kind="evidence_leaf", evidence_id="ev_0001",
                                            leaf_index=0, reason="low_confidence")
    assert result.ok is False


def test_weak_evidence_lowers_confidence_and_can_invalidate() -> None:
    spec = make_spec()
    trace = make_trace(variables(numeric_value="101"))
    verdict, _ = run(spec, make_evidence(make_item("ev_0001", confidence_bps=6000)), trace)
    assert (verdict.outcome, verdict.confidence_bps) == ("YES", 6000)
    verdict, _ = run(spec, make_evidence(make_item("ev_0001", confidence_bps=5499)), trace)
    assert (verdict.outcome, verdict.resolution_rule_id) == ("INVALID", "R_CONFIDENCE")


def test_confidence_equal_to_minimum_keeps_yes() -> None:
    policy = ConfidencePolicy(min_confidence_for_yesno_bps=5600)
    spec = make_spec(confidence=policy, on_conflict="continue")
    assert decided(spec, numeric_value="101", conflict_detected=True) == (
        "YES", "R_BINARY_DECISION", 5600)
    spec = make_spec(confidence=ConfidencePolicy(min_confidence_for_yesno_bps=5601),
                     on_conflict="continue")
    assert decided(spec, numeric_value="101", conflict_detected=True)[:2] == (
        "INVALID", "R_CONFIDENCE")


def test_fallback_factor_and_half_up_rounding() -> None:
    assert decided(make_spec(), numeric_value="101", fallback_used=True)[2] == 6300
    # 7001 * 5000 / 10000 = 3500.5 -> 3501 (half-up; half-even would give 3500).
    policy = ConfidencePolicy(default_confidence_bps=7001, conflict_factor_bps=5000,
                              min_confidence_for_yesno_bps=0)
    spec = make_spec(confidence=policy, on_conflict="continue")
    assert decided(spec, numeric_value="101", conflict_detected=True)[2] == 3501


def test_invalid_confidence_never_exceeds_minimum() -> None:
    policy = ConfidencePolicy(invalid_confidence_bps=9000, min_confidence_for_yesno_bps=5500)
    spec = make_spec(confidence=policy)
    assert decided(spec, numeric_value="101", insufficient_evidence=True) == (
        "INVALID", "R_VALIDITY", 5500)
    policy = ConfidencePolicy(invalid_confidence_bps=3000)
    assert decided(make_spec(confidence=policy), numeric_value="101",
                   insufficient_evidence=True)[2] == 3000


# --- validity ----------------------------------------------------------------

@pytest.mark.parametrize(("overrides", "reason"), [
    ({"provenance_ok": False}, "provenance_not_ok"),
    ({"source_summary": []}, "no_sources"),
    ({"source_summary": ["ev_9999"]}, "unknown_source"),
])
def test_validity_failures(overrides: dict[str, object], reason: str) -> None:
    verdict, result = run(make_spec(), make_evidence(),
                          make_trace(variables(numeric_value="101", **overrides)))
    assert (verdict.outcome, verdict.resolution_rule_id, verdict.confidence_bps) == (
        "INVALID", "R_VALIDITY", 0)
    assert check(result, "validity").details == {"reason": reason}


def test_provenance_tier_below_requirement_is_validity() -> None:
    spec = make_spec(min_tier=3)
    verdict, result = run(spec, make_evidence(make_item("ev_0001", tier=2)),
                          make_trace(variables(numeric_value="101")))
    assert (verdict.outcome, verdict.resolution_rule_id) == ("INVALID", "R_VALIDITY")
    assert result.challenge == ChallengeRef(kind="evidence_leaf", evidence_id="ev_0001",
                                            leaf_index=0, reason="provenance_tier")
    verdict, _ = run(spec, make_evidence(make_item("ev_0001", tier=3)),
                     make_trace(variables(numeric_value="101")))
    assert verdict.outcome == "YES"


def test_timestamp_outside_window_is_validity() -> None:
    spec = make_spec()
    assert decided(spec, numeric_value="101", timestamp=WINDOW_END)[0] == "YES"
    assert decided(spec, numeric_value="101", timestamp=WINDOW_START)[0] == "YES"
    verdict, result = run(spec, make_evidence(), make_trace(
        variables(numeric_value="101", timestamp=WINDOW_END + 1)))
    assert (verdict.outcome, verdict.resolution_rule_id) == ("INVALID", "R_VALIDITY")
    assert check(result, "validity").details == {"reason": "timestamp_outside_window"}
    assert decided(spec, numeric_value="101", timestamp=WINDOW_START - 1)[:2] == (
        "INVALID", "R_VALIDITY")


@pytest.mark.parametrize("where", ["evidence", "trace"])
def test_other_market_is_validity(where: str) -> None:
    evidence = make_evidence(market_id="other" if where == "evidence" else MARKET_ID)
    trace = make_trace(variables(numeric_value="101"),
                       market_id="other" if where == "trace" else MARKET_ID)
    verdict, result = run(make_spec(), evidence, trace)
    assert (verdict.outcome, verdict.resolution_rule_id) == ("INVALID", "R_VALIDITY")
    assert check(result, "validity").details == {"reason": f"{where}_market_id"}
    assert result.challenge == ChallengeRef(kind="por_bundle", reason="market_id")


def test_missing_evaluation_variables_challenges_final_step() -> None:
    verdict, result = run(make_spec(), make_evidence(), make_trace(None))
    assert (verdict.outcome, verdict.resolution_rule_id, verdict.confidence_bps) == (
        "INVALID", "R_VALIDITY", 0)
    assert result.challenge == ChallengeRef(kind="reasoning_leaf", step_id="step_0002",
                                            leaf_index=1, reason="evaluation_variables")


# --- the verdict record ---------------------------------------------------------

def test_verdict_commitments_and_resolution_time() -> None:
    spec, evidence = make_spec(), make_evidence(make_item("ev_0001"), make_item("ev_0002"))
    trace = make_trace(variables(numeric_value="101", source_summary=["ev_0001", "ev_0002"]))
    verdict, _ = run(spec, evidence, trace)
    assert verdict.market_id == MARKET_ID
    assert verdict.prompt_spec_hash == leaf_hash(spec.to_cbor())
    assert verdict.evidence_root == root_hash([i.to_cbor() for i in evidence.items])
    assert verdict.reasoning_root == root_hash([s.to_cbor() for s in trace.steps])
    assert (verdict.evidence_count, verdict.reasoning_count) == (2, 2)
    assert verdict.resolution_time == WINDOW_END
    assert DeterministicVerdict.from_cbor(verdict.to_cbor()) == verdict


def test_map_to_verdict_matches_agent() -> None:
    spec, evidence = make_spec(), make_evidence()
    trace = make_trace(variables(numeric_value="99"))
    verdict, checks = map_to_verdict(spec, evidence, trace)
    agent_verdict, result = JudgeAgent(name="j2").judge(spec, evidence, trace)
    assert verdict == agent_verdict
    assert checks == result.checks
    assert JudgeAgent.VERSION == "por-judge/1"
