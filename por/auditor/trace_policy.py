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
:class:`~por.lean.writers_gen.Check` objects for duck-typed steps (lean or
pydantic), items and policy, and imports no pydantic;
:meth:`TracePolicyVerifier.verify` converts them.  The final variables are
validated by :func:`por.lean.trace.variables_from`, which accepts exactly
what ``EvaluationVariables`` accepts (pinned by a differential test).
:class:`PolicyState` is that check fed one step at a time (``feed``, then
``finish``), for a verifier that releases each step once checked;
:func:`policy_checks` is the state fed a whole list (one implementation).

Leaves out: whether each step's *content* is right (``steps.recompute_step``
and the replaying verifier).
"""

from __future__ import annotations

from collections.abc import Container, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from por.lean.trace import Policy, Variables, variables_from
from por.lean.writer_hooks import results_from
from por.lean.writers_gen import Challenge, Check
from por.protocol.limits import MAX_TRACE_STEPS, step_id, step_number

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
_ALLOWED_INPUT_KEYS = frozenset(ALLOWED_INPUT_KEYS)


def lean_policy_for(items: int, requirements: int) -> Policy:
    """The policy every trace for ``items`` evidence items and ``requirements``
    requirements must carry (module docstring)."""
    return Policy(max_steps=min(2 * items + 8 * requirements + 16, MAX_TRACE_STEPS))


def trace_policy_for(prompt_spec: PromptSpec, evidence: EvidenceBundle) -> TracePolicy:
    """The policy every trace for these inputs must carry."""
    return lean_policy_for(len(evidence.items), len(prompt_spec.data_requirements)).to_model()


def _leaf(sid: str, position: int, reason: str) -> Challenge:
    return Challenge("reasoning_leaf", step_id=sid, leaf_index=position, reason=reason)


def _fail(check_id: str, message: str, challenge: Challenge | None = None,
          expected: str | None = None, actual: str | None = None) -> Check:
    return Check(check_id, False, "error", message, expected=expected, actual=actual,
                 challenge=challenge)


#: Step types whose output may carry the final evaluation variables (SPEC §12.6).
_FINAL_TYPES = ("map", "aggregate")


def _final_variables(step_type: str | None, raw: Any) -> tuple[Variables | None, str]:
    if step_type is None:
        return None, "the trace has no steps"
    if step_type not in _FINAL_TYPES:
        return None, f"the final step is a {step_type} step"
    if raw is None:
        return None, "the final step has no evaluation_variables"
    variables = variables_from(raw)
    return (variables, "") if variables is not None else (
        None, "evaluation_variables do not validate")


class SeenIds:
    """A set of step ids that holds ``step_0001`` .. ``step_{n}`` as one number.

    An honest trace's ids are exactly ``step_id(1)``, ``step_id(2)``, ... (SPEC
    §12.5), so while every id added is the next one only the count is kept;
    any other id (and every id after it) is kept as text.  Membership is that
    of the set of the ids added: ``step_id`` is one-to-one and the count covers
    exactly the ids it stands for (issue 16: no per-step text between steps)."""

    __slots__ = ("_others", "_prefix")

    def __init__(self) -> None:
        self._prefix = 0
        self._others: set[str] = set()

    def add(self, text: str) -> None:
        """Add one id."""
        if not self._others and text == step_id(self._prefix + 1):
            self._prefix += 1
        else:
            self._others.add(text)

    def missing_if_rising(self, numbers: Iterable[int | None]) -> list[str] | None:
        """The ids of ``numbers`` (well-formed ids' ``step_number``) not in this
        set, if the numbers rise; ``None`` if they do not (or one is ``None``)."""
        last, prefix, others, missing = 0, self._prefix, self._others, []
        for number in numbers:
            if number is None or number <= last:
                return None
            last = number
            if number > prefix and step_id(number) not in others:
                missing.append(step_id(number))
        return missing

    def __contains__(self, text: object) -> bool:
        if text in self._others:
            return True
        if (type(text) is not str or len(text) > 32 or not text.startswith("step_")
                or not text[5:].isascii() or not text[5:].isdigit()):
            return False
        number = int(text[5:])
        return 1 <= number <= self._prefix and text == step_id(number)


class PolicyState:
    """The rules of the module docstring, checked one step at a time.

    :meth:`feed` each step in trace order (``position`` 0, 1, ...), then
    :meth:`finish` once.  Between steps it keeps the ids seen so far and, of
    the last step, its id, type and ``output["evaluation_variables"]`` (read
    only for the types that may carry them, as a whole-list check reads them),
    so a streaming verifier may release each step as soon as it has been fed
    (issue 16).  :func:`policy_checks` is this class
    over a whole list: one implementation, the same checks in the same order.
    """

    __slots__ = ("_count", "_earlier", "_external_ok", "_failures", "_known", "_last",
                 "_policy")

    def __init__(self, prompt_spec: Any, items: Sequence[Any], *,
                 trace_market_id: str, policy: Any) -> None:
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
        self._failures = failures
        self._policy = policy
        self._known = frozenset(i.evidence_id for i in items)
        self._external_ok = policy.allow_external_facts
        self._earlier = SeenIds()  # membership only: ids of the steps fed so far
        self._count = 0
        self._last: tuple[str, str | None, Any] = ("", None, None)  # id, type, variables

    def feed(self, position: int, step: Any) -> None:
        """Check one step; ``position`` must be the number of steps fed before it."""
        if position != self._count:
            raise ValueError(f"step fed at position {position}, expected {self._count}")
        _one_step(step, position, earlier=self._earlier, known=self._known,
                  external_ok=self._external_ok, failures=self._failures)
        self._earlier.add(step.step_id)
        self._count = position + 1
        kind = step.step_type
        self._last = (step.step_id, kind, step.output.get("evaluation_variables")
                      if kind in _FINAL_TYPES else None)

    def finish(self) -> list[Check]:
        """The checks: one ``ok`` info check per rule that holds, one error check per
        violation, in :data:`TRACE_CHECK_IDS` order (step order within a rule)."""
        failures, policy, count = self._failures, self._policy, self._count
        last_id, last_type, raw = self._last
        # trace.max_steps goes in its own group, so checking it last changes no order.
        if count > policy.max_steps:
            failures[CHECK_MAX_STEPS].append(_fail(
                CHECK_MAX_STEPS, "trace has more steps than its policy allows",
                expected=f"<= {policy.max_steps}", actual=str(count)))
        variables, reason = _final_variables(last_type, raw)
        at = count - 1
        if variables is None:
            failures[CHECK_MISSING_VARIABLES].append(_fail(
                CHECK_MISSING_VARIABLES, reason,
                _leaf(last_id, at, "evaluation_variables") if count else
                Challenge("reasoning_leaf", reason="evaluation_variables")))
        else:
            for evidence_id in variables.source_summary:
                if evidence_id not in self._known:
                    failures[CHECK_UNKNOWN_EVIDENCE].append(_fail(
                        CHECK_UNKNOWN_EVIDENCE,
                        f"source_summary names unknown evidence {evidence_id!r}",
                        _leaf(last_id, at, "source_summary"), actual=evidence_id))
        checks: list[Check] = []
        for check_id in TRACE_CHECK_IDS:
            found = failures[check_id]
            checks.extend(found or [Check(check_id, True, "info", "ok")])
        return checks


def policy_checks(steps: Sequence[Any], prompt_spec: Any, items: Sequence[Any], *,
                  trace_market_id: str, policy: Any) -> list[Check]:
    """Every rule of the module docstring on a trace given by parts, as lean checks
    (one ``ok`` info check per rule that holds, one error check per violation)."""
    state = PolicyState(prompt_spec, items, trace_market_id=trace_market_id, policy=policy)
    for position, step in enumerate(steps):
        state.feed(position, step)
    return state.finish()


def _not_distinct_earlier(priors: list[str], earlier: Container[str]) -> list[Any]:
    """The cited ids that are not earlier steps or repeat one cited before, in order.

    Ids of the form ``step_id(k)`` with ``k`` rising are distinct by that alone
    (``step_id`` is one-to-one), as an honest trace cites them: against
    :class:`SeenIds` those need no set of the ids (issue 16: a step may cite one
    step per evidence item; ``step_io.StepIds`` gives their numbers without
    the texts).  Any other list is checked with the set."""
    if not priors:
        return []
    if type(earlier) is SeenIds:
        numbers = getattr(priors, "numbers", None)
        found = earlier.missing_if_rising(
            numbers() if numbers is not None
            else (step_number(p) if type(p) is str else None for p in priors))
        if found is not None:
            return found
    seen: set[str] = set()  # membership only
    out = []
    for prior in priors:
        if prior not in earlier or prior in seen:
            out.append(prior)
        seen.add(prior)
    return out


def _one_step(step: Any, position: int, *, earlier: Container[str],
              known: frozenset[str], external_ok: bool,
              failures: dict[str, list[Check]]) -> None:
    expected_id = step_id(position + 1)
    if step.step_id != expected_id:
        check_id = (CHECK_DUPLICATE_STEP_ID if step.step_id in earlier
                    else CHECK_STEP_ID_ORDER)
        failures[check_id].append(_fail(
            check_id, f"step {position} has id {step.step_id!r}",
            _leaf(step.step_id, position, "step_id"), expected=expected_id, actual=step.step_id))
    for prior in _not_distinct_earlier(step.prior_step_ids, earlier):
        failures[CHECK_PRIOR_STEP_ORDER].append(_fail(
            CHECK_PRIOR_STEP_ORDER,
            f"step {step.step_id} cites {prior!r}, not a distinct earlier step",
            _leaf(step.step_id, position, "prior_step_ids"), actual=prior))
    for evidence_id in step.evidence_ids:
        if evidence_id not in known:
            failures[CHECK_UNKNOWN_EVIDENCE].append(_fail(
                CHECK_UNKNOWN_EVIDENCE,
                f"step {step.step_id} cites unknown evidence {evidence_id!r}",
                _leaf(step.step_id, position, "evidence_ids"), actual=evidence_id))
    if not external_ok and not _ALLOWED_INPUT_KEYS.issuperset(step.inputs):
        extra = [k for k in step.inputs if k not in ALLOWED_INPUT_KEYS]
        if extra:
            failures[CHECK_EXTERNAL_FACTS].append(_fail(
                CHECK_EXTERNAL_FACTS, f"step {step.step_id} inputs carry {extra!r}",
                _leaf(step.step_id, position, "inputs"), actual=",".join(extra)))


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
    "PolicyState",
    "TracePolicyVerifier",
    "lean_policy_for",
    "policy_checks",
    "trace_policy_for",
]
