"""Schema lock (seed M07 §8, SPEC §7.1): what the judge refuses to rely on.

The judge only maps *schema-locked* inputs: a PromptSpec compiled for the strict
pipeline (``output_schema_ref`` is :data:`~por.schemas.VERDICT_SCHEMA_REF`,
``strict_mode`` is true, every resolution rule id is one the engine knows) and
a trace whose final step carries ``output["evaluation_variables"]`` that
validate as :class:`~por.schemas.EvaluationVariables`.  A failed lock makes the
verdict INVALID under ``R_VALIDITY`` (see ``deterministic_mapping``).

The seed names the two entry points ``verify_*``; they *return* check results
(they do not raise), like every ``check_*`` function in por.  This module does
not decide outcomes and does not look at evidence.

Check ids (all severity ``error`` when they fail, ChallengeRef as seed §9):

* ``judge.schema_lock.output_schema_ref`` -- ChallengeRef ``por_bundle``
* ``judge.schema_lock.strict_mode``       -- ChallengeRef ``por_bundle``
* ``judge.schema_lock.rule_ids``          -- ChallengeRef ``por_bundle``
* ``judge.schema_lock.evaluation_variables`` -- ChallengeRef ``reasoning_leaf``
  naming the final step (``step_id`` and ``leaf_index``), or no step if there is
  none
* ``judge.schema_lock.outcome_set``       -- ChallengeRef ``por_bundle``
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import get_args

from pydantic import ValidationError

from por.schemas import (
    CANONICAL_RULE_IDS,
    OUTCOME_CODES,
    VERDICT_SCHEMA_REF,
    ChallengeRef,
    CheckResult,
    EvaluationVariables,
    Outcome,
    PromptSpec,
    ReasoningTrace,
)

CHECK_OUTPUT_SCHEMA_REF = "judge.schema_lock.output_schema_ref"
CHECK_STRICT_MODE = "judge.schema_lock.strict_mode"
CHECK_RULE_IDS = "judge.schema_lock.rule_ids"
CHECK_EVALUATION_VARIABLES = "judge.schema_lock.evaluation_variables"
CHECK_OUTCOME_SET = "judge.schema_lock.outcome_set"

#: The outcome set and on-chain codes the strict pipeline is locked to (SPEC §8).
LOCKED_OUTCOME_CODES: dict[str, int] = {"YES": 1, "NO": 2, "INVALID": 3}


def final_step_index(trace: ReasoningTrace) -> int | None:
    """Index of the step that carries the evaluation variables (seed M07 §7 step 1).

    The last ``map`` step if the trace has one, else the last ``aggregate``
    step, else ``None``.  The index is the step's leaf index in the reasoning
    tree (trace order is tree order, SPEC §5.1).
    """
    for wanted in ("map", "aggregate"):
        for index in range(len(trace.steps) - 1, -1, -1):
            if trace.steps[index].step_type == wanted:
                return index
    return None


def final_step_challenge(trace: ReasoningTrace, reason: str) -> ChallengeRef:
    """``reasoning_leaf`` ChallengeRef naming the final step (or none if absent)."""
    index = final_step_index(trace)
    if index is None:
        return ChallengeRef(kind="reasoning_leaf", reason=reason)
    return ChallengeRef(kind="reasoning_leaf", step_id=trace.steps[index].step_id,
                        leaf_index=index, reason=reason)


def evaluation_variables_from_trace(trace: ReasoningTrace) -> EvaluationVariables | None:
    """The final step's evaluation variables, or ``None`` if absent or invalid."""
    variables, _ = _read_evaluation_variables(trace)
    return variables


def _read_evaluation_variables(
    trace: ReasoningTrace,
) -> tuple[EvaluationVariables | None, str]:
    """(variables, reason): reason is ``ok`` or why there are none."""
    index = final_step_index(trace)
    if index is None:
        return None, "no_final_step"
    raw = trace.steps[index].output.get("evaluation_variables")
    if raw is None:
        return None, "missing"
    if not isinstance(raw, dict):
        return None, "not_a_map"
    try:
        # strict=True: "true" or 1 never stand in for a bool (DESIGN §3.2).
        return EvaluationVariables.model_validate(raw, strict=True), "ok"
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        loc = ".".join(str(p) for p in first["loc"]) or "(record)"
        return None, f"invalid:{loc}"


def check_outcome_set(
    outcomes: Sequence[str] | None = None, codes: Mapping[str, int] | None = None
) -> CheckResult:
    """The verdict schema's outcome set is exactly YES/NO/INVALID with codes 1/2/3.

    The schema already enforces the Literal; this check locks the judge to it
    so a schema change cannot silently widen what the judge may emit.
    ``outcomes``/``codes`` default to the live schema and exist for tests.
    """
    got_outcomes = tuple(get_args(Outcome)) if outcomes is None else tuple(outcomes)
    got_codes = dict(OUTCOME_CODES if codes is None else codes)
    want = tuple(LOCKED_OUTCOME_CODES)
    ok = got_outcomes == want and got_codes == LOCKED_OUTCOME_CODES
    return CheckResult(
        check_id=CHECK_OUTCOME_SET, ok=ok, severity="info" if ok else "error",
        message="outcome set is YES/NO/INVALID" if ok else "outcome set drifted",
        expected=",".join(want), actual=",".join(got_outcomes),
        challenge=None if ok else ChallengeRef(kind="por_bundle", reason="outcome_set"),
    )


class SchemaLock:
    """The seed's schema lock: static checks on the PromptSpec and the trace."""

    @staticmethod
    def verify_prompt_spec(prompt_spec: PromptSpec) -> list[CheckResult]:
        """Check the PromptSpec is compiled for the strict pipeline (seed M07 §8)."""
        checks: list[CheckResult] = []
        ref = prompt_spec.output_schema_ref
        ok = ref == VERDICT_SCHEMA_REF
        checks.append(CheckResult(
            check_id=CHECK_OUTPUT_SCHEMA_REF, ok=ok, severity="info" if ok else "error",
            message=("output_schema_ref is the verdict schema" if ok
                     else "output_schema_ref is not the strict verdict schema"),
            expected=VERDICT_SCHEMA_REF, actual=ref,
            challenge=None if ok else ChallengeRef(kind="por_bundle",
                                                   reason="output_schema_ref"),
        ))
        ok = prompt_spec.strict_mode is True
        checks.append(CheckResult(
            check_id=CHECK_STRICT_MODE, ok=ok, severity="info" if ok else "error",
            message="strict_mode is on" if ok else "strict_mode is off",
            expected="true", actual="true" if ok else "false",
            challenge=None if ok else ChallengeRef(kind="por_bundle", reason="strict_mode"),
        ))
        # An unknown rule id would be silently ignored by the fixed engine; a
        # rule the judge cannot execute fails closed instead (seed M07 §6).
        rule_ids = [rule.rule_id for rule in prompt_spec.market.resolution_rules.rules]
        unknown = [r for r in rule_ids if r not in CANONICAL_RULE_IDS]
        ok = not unknown
        checks.append(CheckResult(
            check_id=CHECK_RULE_IDS, ok=ok, severity="info" if ok else "error",
            message=("resolution rules are canonical" if ok
                     else "resolution rules name rules the judge does not execute"),
            expected=",".join(CANONICAL_RULE_IDS), actual=",".join(rule_ids),
            details=None if ok else {"unknown_rule_ids": list(unknown)},
            challenge=None if ok else ChallengeRef(kind="por_bundle", reason="rule_ids"),
        ))
        return checks

    @staticmethod
    def verify_trace(trace: ReasoningTrace) -> list[CheckResult]:
        """Check the trace's final step carries valid evaluation variables."""
        variables, reason = _read_evaluation_variables(trace)
        ok = variables is not None
        index = final_step_index(trace)
        step = "none" if index is None else trace.steps[index].step_id
        checks = [CheckResult(
            check_id=CHECK_EVALUATION_VARIABLES, ok=ok, severity="info" if ok else "error",
            message=("final step carries valid evaluation_variables" if ok
                     else f"final step evaluation_variables unusable: {reason}"),
            expected="evaluation_variables", actual=reason,
            details={"final_step": step},
            challenge=None if ok else final_step_challenge(trace, "evaluation_variables"),
        )]
        checks.append(check_outcome_set())
        return checks


__all__ = [
    "CHECK_EVALUATION_VARIABLES",
    "CHECK_OUTCOME_SET",
    "CHECK_OUTPUT_SCHEMA_REF",
    "CHECK_RULE_IDS",
    "CHECK_STRICT_MODE",
    "LOCKED_OUTCOME_CODES",
    "SchemaLock",
    "check_outcome_set",
    "evaluation_variables_from_trace",
    "final_step_challenge",
    "final_step_index",
]
