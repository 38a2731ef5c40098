"""Trace policy: the structural rules every trace must satisfy (seed M06 §11, SPEC §12.6).

:func:`trace_policy_for` fixes the policy as a function of the input size:
``max_steps = min(2 * items + 8 * requirements + 16, MAX_TRACE_STEPS)``
(the auditor emits ``items + 2 * requirements + 3`` steps).

:meth:`TracePolicyVerifier.verify` returns a ``VerificationResult`` with one
check per rule, in this order (a rule that holds gives one ``ok`` check with
severity ``info``; every violation is its own ``error`` check):

* ``trace.market_id`` -- the trace is for the prompt spec's market;
* ``trace.policy`` -- the policy is exactly :func:`trace_policy_for` (a
  trace cannot widen its own bounds);
* ``trace.max_steps`` -- at most ``policy.max_steps`` steps;
* ``trace.step_id_order`` -- step *i* (0-based) has id ``step_id(i + 1)``:
  well formed, strictly increasing, no gaps;
* ``trace.duplicate_step_id`` -- an id used by an earlier step;
* ``trace.prior_step_order`` -- every prior step id names an earlier step,
  at most once;
* ``trace.unknown_evidence`` -- every cited evidence id (and every id in the
  final ``source_summary``) is in the bundle;
* ``trace.external_facts`` -- with ``allow_external_facts`` false, step
  inputs hold only ``kind`` and ``requirement_id`` (no facts from outside);
* ``trace.missing_evaluation_variables`` -- the last step is a ``map`` (or
  ``aggregate``) step whose ``output["evaluation_variables"]`` validates as
  ``EvaluationVariables``.

Failures carry ``ChallengeRef(kind="reasoning_leaf", step_id, leaf_index)``
with the step's position.  Linear in the trace and the bundle.

Leaves out: whether each step's *content* is right (``steps.recompute_step``
and the replaying verifier).
"""

from __future__ import annotations

from pydantic import ValidationError

from por.schemas import (
    ChallengeRef,
    CheckResult,
    EvaluationVariables,
    EvidenceBundle,
    PromptSpec,
    ReasoningStep,
    ReasoningTrace,
    TracePolicy,
    VerificationResult,
    step_id,
)
from por.schemas.trace import MAX_TRACE_STEPS

CHECK_MARKET_ID = "trace.market_id"
CHECK_POLICY = "trace.policy"
CHECK_MAX_STEPS = "trace.max_steps"
CHECK_STEP_ID_ORDER = "trace.step_id_order"
CHECK_DUPLICATE_STEP_ID = "trace.duplicate_step_id"
CHECK_PRIOR_STEP_ORDER = "trace.prior_step_order"
CHECK_UNKNOWN_EVIDENCE = "trace.unknown_evidence"
CHECK_EXTERNAL_FACTS = "trace.external_facts"
CHECK_MISSING_VARIABLES = "trace.missing_evaluation_variables"

TRACE_CHECK_IDS = (CHECK_MARKET_ID, CHECK_POLICY, CHECK_MAX_STEPS, CHECK_STEP_ID_ORDER,
                   CHECK_DUPLICATE_STEP_ID, CHECK_PRIOR_STEP_ORDER, CHECK_UNKNOWN_EVIDENCE,
                   CHECK_EXTERNAL_FACTS, CHECK_MISSING_VARIABLES)

#: Input keys that select a computation; anything else would be an outside fact.
ALLOWED_INPUT_KEYS = ("kind", "requirement_id")


def trace_policy_for(prompt_spec: PromptSpec, evidence: EvidenceBundle) -> TracePolicy:
    """The policy every trace for these inputs must carry."""
    bound = 2 * len(evidence.items) + 8 * len(prompt_spec.data_requirements) + 16
    return TracePolicy(max_steps=min(bound, MAX_TRACE_STEPS))


def _leaf(step: ReasoningStep, position: int, reason: str) -> ChallengeRef:
    return ChallengeRef(kind="reasoning_leaf", step_id=step.step_id, leaf_index=position,
                        reason=reason)


def _fail(check_id: str, message: str, challenge: ChallengeRef | None = None,
          expected: str | None = None, actual: str | None = None) -> CheckResult:
    return CheckResult(check_id=check_id, ok=False, severity="error", message=message,
                       expected=expected, actual=actual, challenge=challenge)


def _final_variables(trace: ReasoningTrace) -> tuple[EvaluationVariables | None, str]:
    if not trace.steps:
        return None, "the trace has no steps"
    last = trace.steps[-1]
    if last.step_type not in ("map", "aggregate"):
        return None, f"the final step is a {last.step_type} step"
    raw = last.output.get("evaluation_variables")
    if raw is None:
        return None, "the final step has no evaluation_variables"
    try:
        return EvaluationVariables.model_validate(raw, strict=True), ""
    except ValidationError:
        return None, "evaluation_variables do not validate"


class TracePolicyVerifier:
    """Hard structural validation of a trace against its inputs."""

    def verify(self, trace: ReasoningTrace, prompt_spec: PromptSpec,
               evidence: EvidenceBundle) -> VerificationResult:
        """All rules of the module docstring; ``ok`` iff none failed."""
        failures: dict[str, list[CheckResult]] = {c: [] for c in TRACE_CHECK_IDS}
        market = prompt_spec.market.market_id
        if trace.market_id != market:
            failures[CHECK_MARKET_ID].append(_fail(
                CHECK_MARKET_ID, "trace is for another market", expected=market,
                actual=trace.market_id))
        policy = trace_policy_for(prompt_spec, evidence)
        if trace.policy != policy:
            failures[CHECK_POLICY].append(_fail(
                CHECK_POLICY, "trace policy differs from the policy for these inputs",
                expected=str(policy.max_steps), actual=str(trace.policy.max_steps)))
        if len(trace.steps) > trace.policy.max_steps:
            failures[CHECK_MAX_STEPS].append(_fail(
                CHECK_MAX_STEPS, "trace has more steps than its policy allows",
                expected=f"<= {trace.policy.max_steps}", actual=str(len(trace.steps))))
        known = frozenset(i.evidence_id for i in evidence.items)
        earlier: dict[str, int] = {}
        for position, step in enumerate(trace.steps):
            self._one_step(step, position, earlier=earlier, known=known, policy=trace.policy,
                           failures=failures)
            earlier.setdefault(step.step_id, position)
        variables, reason = _final_variables(trace)
        if variables is None:
            last = len(trace.steps) - 1
            failures[CHECK_MISSING_VARIABLES].append(_fail(
                CHECK_MISSING_VARIABLES, reason,
                _leaf(trace.steps[last], last, "evaluation_variables") if trace.steps else
                ChallengeRef(kind="reasoning_leaf", reason="evaluation_variables")))
        else:
            last = len(trace.steps) - 1
            for evidence_id in variables.source_summary:
                if evidence_id not in known:
                    failures[CHECK_UNKNOWN_EVIDENCE].append(_fail(
                        CHECK_UNKNOWN_EVIDENCE,
                        f"source_summary names unknown evidence {evidence_id!r}",
                        _leaf(trace.steps[last], last, "source_summary"), actual=evidence_id))
        checks: list[CheckResult] = []
        for check_id in TRACE_CHECK_IDS:
            found = failures[check_id]
            checks.extend(found or [CheckResult(check_id=check_id, ok=True, severity="info",
                                                message="ok")])
        return VerificationResult.from_checks(checks)

    @staticmethod
    def _one_step(step: ReasoningStep, position: int, *, earlier: dict[str, int],
                  known: frozenset[str], policy: TracePolicy,
                  failures: dict[str, list[CheckResult]]) -> None:
        expected_id = step_id(position + 1)
        if step.step_id != expected_id:
            check_id = (CHECK_DUPLICATE_STEP_ID if step.step_id in earlier
                        else CHECK_STEP_ID_ORDER)
            failures[check_id].append(_fail(
                check_id, f"step {position} has id {step.step_id!r}",
                _leaf(step, position, "step_id"), expected=expected_id, actual=step.step_id))
        seen: set[str] = set()  # membership only
        for prior in step.prior_step_ids:
            if prior not in earlier or prior in seen:
                failures[CHECK_PRIOR_STEP_ORDER].append(_fail(
                    CHECK_PRIOR_STEP_ORDER,
                    f"step {step.step_id} cites {prior!r}, not a distinct earlier step",
                    _leaf(step, position, "prior_step_ids"), actual=prior))
            seen.add(prior)
        for evidence_id in step.evidence_ids:
            if evidence_id not in known:
                failures[CHECK_UNKNOWN_EVIDENCE].append(_fail(
                    CHECK_UNKNOWN_EVIDENCE,
                    f"step {step.step_id} cites unknown evidence {evidence_id!r}",
                    _leaf(step, position, "evidence_ids"), actual=evidence_id))
        if not policy.allow_external_facts:
            extra = [k for k in step.inputs if k not in ALLOWED_INPUT_KEYS]
            if extra:
                failures[CHECK_EXTERNAL_FACTS].append(_fail(
                    CHECK_EXTERNAL_FACTS, f"step {step.step_id} inputs carry {extra!r}",
                    _leaf(step, position, "inputs"), actual=",".join(extra)))


__all__ = [
    "ALLOWED_INPUT_KEYS",
    "CHECK_DUPLICATE_STEP_ID",
    "CHECK_EXTERNAL_FACTS",
    "CHECK_MARKET_ID",
    "CHECK_MAX_STEPS",
    "CHECK_MISSING_VARIABLES",
    "CHECK_POLICY",
    "CHECK_PRIOR_STEP_ORDER",
    "CHECK_STEP_ID_ORDER",
    "CHECK_UNKNOWN_EVIDENCE",
    "TRACE_CHECK_IDS",
    "TracePolicyVerifier",
    "trace_policy_for",
]
