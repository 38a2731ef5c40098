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
* ``judge.schema_lock.rule_ids``          -- ChallengeRef ``por_bundle``: an id
  the engine does not know, or rules whose (priority, rule_id) order disagrees
  with the fixed stage order (details ``out_of_order_rule_ids``)
* ``judge.schema_lock.evaluation_variables`` -- ChallengeRef ``reasoning_leaf``
  naming the final step (``step_id`` and ``leaf_index``), or no step if there is
  none
* ``judge.schema_lock.outcome_set``       -- ChallengeRef ``por_bundle``

Lean core (issue 16): :func:`prompt_spec_checks` and :func:`trace_checks`
give the same checks as lean :class:`~por.lean.writers_gen.Check` objects for
duck-typed inputs (a trace is anything with ``.steps``), without pydantic.
The one difference: with ``explain=False`` a failed variables check says
``invalid`` where the public API says ``invalid:<first pydantic error
location>`` (finding that location needs pydantic; the verdict does not
depend on it).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, get_args

from por.lean.trace import Variables, variables_from
from por.lean.writer_hooks import results_from
from por.lean.writers_gen import Challenge, Check
from por.protocol.limits import CANONICAL_RULE_IDS, OUTCOME_CODES, VERDICT_SCHEMA_REF, Outcome

if TYPE_CHECKING:
    from por.schemas import (
        ChallengeRef,
        CheckResult,
        EvaluationVariables,
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


def final_step_index(trace: ReasoningTrace | Any) -> int | None:
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


def final_challenge(trace: Any, reason: str) -> Challenge:
    """:func:`final_step_challenge` as a lean challenge (``trace``: anything with ``.steps``)."""
    index = final_step_index(trace)
    if index is None:
        return Challenge("reasoning_leaf", reason=reason)
    return Challenge("reasoning_leaf", step_id=trace.steps[index].step_id,
                     leaf_index=index, reason=reason)


def final_step_challenge(trace: ReasoningTrace, reason: str) -> ChallengeRef:
    """``reasoning_leaf`` ChallengeRef naming the final step (or none if absent)."""
    return final_challenge(trace, reason).to_model()


def evaluation_variables_from_trace(trace: ReasoningTrace) -> EvaluationVariables | None:
    """The final step's evaluation variables, or ``None`` if absent or invalid."""
    from por.schemas import EvaluationVariables  # noqa: PLC0415  # public API edge

    variables, _ = read_variables(trace)
    return None if variables is None else EvaluationVariables.model_validate(
        variables.to_value(), strict=True)


def read_variables(trace: Any, *, explain: bool = False) -> tuple[Variables | None, str]:
    """(variables, reason) of the final step: reason is ``ok`` or why there are none
    (``explain``: name the first pydantic error location, as the public API does)."""
    index = final_step_index(trace)
    if index is None:
        return None, "no_final_step"
    raw = trace.steps[index].output.get("evaluation_variables")
    if raw is None:
        return None, "missing"
    if not isinstance(raw, dict):
        return None, "not_a_map"
    # Strict, as EvaluationVariables.model_validate(raw, strict=True): "true" or
    # 1 never stand in for a bool (DESIGN §3.2).
    variables = variables_from(raw)
    if variables is not None:
        return variables, "ok"
    return None, _invalid_reason(raw) if explain else "invalid"


def _invalid_reason(raw: dict[str, Any]) -> str:
    """``invalid:<loc>`` of pydantic's first error (the report's wording)."""
    from pydantic import ValidationError  # noqa: PLC0415  # report edge only

    from por.schemas import EvaluationVariables  # noqa: PLC0415

    try:
        EvaluationVariables.model_validate(raw, strict=True)
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        loc = ".".join(str(p) for p in first["loc"]) or "(record)"
        return f"invalid:{loc}"
    return "invalid"  # unreachable while variables_from agrees with the model


def outcome_set_check(
    outcomes: Sequence[str] | None = None, codes: Mapping[str, int] | None = None
) -> Check:
    """:func:`check_outcome_set` as a lean check."""
    got_outcomes = tuple(get_args(Outcome)) if outcomes is None else tuple(outcomes)
    got_codes = dict(OUTCOME_CODES if codes is None else codes)
    want = tuple(LOCKED_OUTCOME_CODES)
    ok = got_outcomes == want and got_codes == LOCKED_OUTCOME_CODES
    return Check(
        CHECK_OUTCOME_SET, ok, "info" if ok else "error",
        "outcome set is YES/NO/INVALID" if ok else "outcome set drifted",
        expected=",".join(want), actual=",".join(got_outcomes),
        challenge=None if ok else Challenge("por_bundle", reason="outcome_set"),
    )


def check_outcome_set(
    outcomes: Sequence[str] | None = None, codes: Mapping[str, int] | None = None
) -> CheckResult:
    """The verdict schema's outcome set is exactly YES/NO/INVALID with codes 1/2/3.

    The schema already enforces the Literal; this check locks the judge to it
    so a schema change cannot silently widen what the judge may emit.
    ``outcomes``/``codes`` default to the live schema and exist for tests.
    """
    return outcome_set_check(outcomes, codes).to_model()


def prompt_spec_checks(prompt_spec: Any) -> list[Check]:
    """:meth:`SchemaLock.verify_prompt_spec` as lean checks."""
    checks: list[Check] = []
    ref = prompt_spec.output_schema_ref
    ok = ref == VERDICT_SCHEMA_REF
    checks.append(Check(
        CHECK_OUTPUT_SCHEMA_REF, ok, "info" if ok else "error",
        ("output_schema_ref is the verdict schema" if ok
         else "output_schema_ref is not the strict verdict schema"),
        expected=VERDICT_SCHEMA_REF, actual=ref,
        challenge=None if ok else Challenge("por_bundle", reason="output_schema_ref"),
    ))
    ok = prompt_spec.strict_mode is True
    checks.append(Check(
        CHECK_STRICT_MODE, ok, "info" if ok else "error",
        "strict_mode is on" if ok else "strict_mode is off",
        expected="true", actual="true" if ok else "false",
        challenge=None if ok else Challenge("por_bundle", reason="strict_mode"),
    ))
    # An unknown rule id would be silently ignored by the fixed engine; a
    # rule the judge cannot execute fails closed instead (seed M07 §6).
    rule_ids = [rule.rule_id for rule in prompt_spec.market.resolution_rules.rules]
    unknown = [r for r in rule_ids if r not in CANONICAL_RULE_IDS]
    disordered = [] if unknown else out_of_order(rule_ids)
    ok = not unknown and not disordered
    checks.append(Check(
        CHECK_RULE_IDS, ok, "info" if ok else "error",
        ("resolution rules are canonical" if ok
         else "resolution rules name rules the judge does not execute" if unknown
         else "resolution rules are listed in an order the judge does not apply"),
        expected=",".join(CANONICAL_RULE_IDS), actual=",".join(rule_ids),
        details=None if ok else ({"unknown_rule_ids": list(unknown)} if unknown
                                 else {"out_of_order_rule_ids": disordered}),
        challenge=None if ok else Challenge("por_bundle", reason="rule_ids"),
    ))
    return checks


#: The stage at which each rule decides (SPEC §7.2): R_CONFIDENCE and
#: R_INVALID_FALLBACK never both apply, so either may come first.
_STAGE = {"R_VALIDITY": 0, "R_CONFLICT": 1, "R_BINARY_DECISION": 2, "R_CONFIDENCE": 3,
          "R_INVALID_FALLBACK": 3}


def out_of_order(rule_ids: Sequence[str]) -> list[str]:
    """The listed rules (in their committed (priority, rule_id) order) that come
    after a rule of a later stage: the list claims an order the judge does not
    apply (issue 23: a list is refused, never silently ignored)."""
    out, latest = [], -1
    for rule_id in rule_ids:
        stage = _STAGE[rule_id]
        if stage < latest:
            out.append(rule_id)
        latest = max(latest, stage)
    return out


def trace_checks(trace: Any, *, explain: bool = False) -> tuple[list[Check], Variables | None]:
    """:meth:`SchemaLock.verify_trace` as lean checks, and the variables it read."""
    variables, reason = read_variables(trace, explain=explain)
    ok = variables is not None
    index = final_step_index(trace)
    step = "none" if index is None else trace.steps[index].step_id
    checks = [Check(
        CHECK_EVALUATION_VARIABLES, ok, "info" if ok else "error",
        ("final step carries valid evaluation_variables" if ok
         else f"final step evaluation_variables unusable: {reason}"),
        expected="evaluation_variables", actual=reason,
        details={"final_step": step},
        challenge=None if ok else final_challenge(trace, "evaluation_variables"),
    ), outcome_set_check()]
    return checks, variables


class SchemaLock:
    """The seed's schema lock: static checks on the PromptSpec and the trace."""

    @staticmethod
    def verify_prompt_spec(prompt_spec: PromptSpec) -> list[CheckResult]:
        """Check the PromptSpec is compiled for the strict pipeline (seed M07 §8)."""
        return results_from(prompt_spec_checks(prompt_spec))

    @staticmethod
    def verify_trace(trace: ReasoningTrace) -> list[CheckResult]:
        """Check the trace's final step carries valid evaluation variables."""
        return results_from(trace_checks(trace, explain=True)[0])


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
    "final_challenge",
    "final_step_challenge",
    "final_step_index",
    "out_of_order",
    "outcome_set_check",
    "prompt_spec_checks",
    "read_variables",
    "trace_checks",
]
