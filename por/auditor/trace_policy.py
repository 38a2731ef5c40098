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

Lean core (issue 16): :func:`policy_checks` gives the same checks as lean
:class:`~por.lean.checks.Check` objects for duck-typed steps (lean or
pydantic), items and policy, and imports no pydantic;
:meth:`TracePolicyVerifier.verify` converts them.  The final variables are
validated by :func:`por.lean.trace.variables_from`, which accepts exactly
what ``EvaluationVariables`` accepts (pinned by a differential test).

Leaves out: whether each step's *content* is right (``steps.recompute_step``
and the replaying verifier).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from por.lean.checks import Challenge, Check, results_from
from por.lean.limits import MAX_TRACE_STEPS, step_id
from por.lean.trace import Policy, Variables, variables_from

if TYPE_CHECKING:
    from por.schemas import (
        EvidenceBundle,
        PromptSpec,
        ReasoningTrace,
        TracePolicy,
        VerificationResult,
    )

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


def lean_policy_for(items: int, requirements: int) -> Policy:
    """The policy every trace for ``items`` evidence items and ``requirements``
    requirements must carry (module docstring)."""
    return Policy(max_steps=min(2 * items + 8 * requirements + 16, MAX_TRACE_STEPS))


def trace_policy_for(prompt_spec: PromptSpec, evidence: EvidenceBundle) -> TracePolicy:
    """The policy every trace for these inputs must carry."""
    return lean_policy_for(len(evidence.items), len(prompt_spec.data_requirements)).to_model()


def _leaf(step: Any, position: int, reason: str) -> Challenge:
    return Challenge("reasoning_leaf", step_id=step.step_id, leaf_index=position,
                     reason=reason)


def _fail(check_id: str, message: str, challenge: Challenge | None = None,
          expected: str | None = None, actual: str | None = None) -> Check:
    return Check(check_id, False, "error", message, expected=expected, actual=actual,
                 challenge=challenge)


def _final_variables(steps: Sequence[Any]) -> tuple[Variables | None, str]:
    if not steps:
        return None, "the trace has no steps"
    last = steps[-1]
    if last.step_type not in ("map", "aggregate"):
        return None, f"the final step is a {last.step_type} step"
    raw = last.output.get("evaluation_variables")
    if raw is None:
        return None, "the final step has no evaluation_variables"
    variables = variables_from(raw)
    return (variables, "") if variables is not None else (
        None, "evaluation_variables do not validate")


def policy_checks(steps: Sequence[Any], prompt_spec: Any, items: Sequence[Any], *,
                  trace_market_id: str, policy: Any) -> list[Check]:
    """Every rule of the module docstring on a trace given by parts, as lean checks
    (one ``ok`` info check per rule that holds, one error check per violation)."""
    failures: dict[str, list[Check]] = {c: [] for c in TRACE_CHECK_IDS}
    market = prompt_spec.market.market_id
    if trace_market_id != market:
        failures[CHECK_MARKET_ID].append(_fail(
            CHECK_MARKET_ID, "trace is for another market", expected=market,
            actual=trace_market_id))
    want = lean_policy_for(len(items), len(prompt_spec.data_requirements))
    if not want.same_as(policy):
        failures[CHECK_POLICY].append(_fail(
            CHECK_POLICY, "trace policy differs from the policy for these inputs",
            expected=str(want.max_steps), actual=str(policy.max_steps)))
    if len(steps) > policy.max_steps:
        failures[CHECK_MAX_STEPS].append(_fail(
            CHECK_MAX_STEPS, "trace has more steps than its policy allows",
            expected=f"<= {policy.max_steps}", actual=str(len(steps))))
    known = frozenset(i.evidence_id for i in items)
    earlier: dict[str, int] = {}
    for position, step in enumerate(steps):
        _one_step(step, position, earlier=earlier, known=known,
                  external_ok=policy.allow_external_facts, failures=failures)
        earlier.setdefault(step.step_id, position)
    variables, reason = _final_variables(steps)
    last = len(steps) - 1
    if variables is None:
        failures[CHECK_MISSING_VARIABLES].append(_fail(
            CHECK_MISSING_VARIABLES, reason,
            _leaf(steps[last], last, "evaluation_variables") if steps else
            Challenge("reasoning_leaf", reason="evaluation_variables")))
    else:
        for evidence_id in variables.source_summary:
            if evidence_id not in known:
                failures[CHECK_UNKNOWN_EVIDENCE].append(_fail(
                    CHECK_UNKNOWN_EVIDENCE,
                    f"source_summary names unknown evidence {evidence_id!r}",
                    _leaf(steps[last], last, "source_summary"), actual=evidence_id))
    checks: list[Check] = []
    for check_id in TRACE_CHECK_IDS:
        found = failures[check_id]
        checks.extend(found or [Check(check_id, True, "info", "ok")])
    return checks


def _one_step(step: Any, position: int, *, earlier: dict[str, int],
              known: frozenset[str], external_ok: bool,
              failures: dict[str, list[Check]]) -> None:
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
    if not external_ok:
        extra = [k for k in step.inputs if k not in ALLOWED_INPUT_KEYS]
        if extra:
            failures[CHECK_EXTERNAL_FACTS].append(_fail(
                CHECK_EXTERNAL_FACTS, f"step {step.step_id} inputs carry {extra!r}",
                _leaf(step, position, "inputs"), actual=",".join(extra)))


class TracePolicyVerifier:
    """Hard structural validation of a trace against its inputs."""

    def verify(self, trace: ReasoningTrace, prompt_spec: PromptSpec,
               evidence: EvidenceBundle) -> VerificationResult:
        """All rules of the module docstring; ``ok`` iff none failed."""
        from por.schemas import VerificationResult  # noqa: PLC0415  # public API edge

        checks = policy_checks(trace.steps, prompt_spec, evidence.items,
                               trace_market_id=trace.market_id, policy=trace.policy)
        return VerificationResult.from_checks(results_from(checks))


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
    "lean_policy_for",
    "policy_checks",
    "trace_policy_for",
]
