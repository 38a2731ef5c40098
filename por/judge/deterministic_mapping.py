"""The deterministic mapping engine (seed M07 §7, SPEC §7): variables -> verdict.

:func:`map_to_verdict` is a pure function of (PromptSpec, EvidenceBundle,
ReasoningTrace).  It runs the schema lock and then the four stages in the
fixed order validity -> conflict -> binary decision -> confidence; the first
stage that makes the outcome INVALID decides, and ``resolution_rule_id`` names
it.  YES/NO is decided by ``R_BINARY_DECISION``.

Rules (SPEC §7.2):

* ``R_VALIDITY`` -- schema lock failed; the evidence/trace is for another
  market; ``insufficient_evidence``; ``provenance_ok`` false; ``source_summary``
  empty or naming an id not in the bundle; a cited item below its
  requirement's ``min_provenance_tier`` (or of an unknown requirement); a
  ``timestamp`` outside ``[start - timestamp_slack_seconds, end +
  timestamp_slack_seconds]`` of the resolution window (closed, floored at 0);
  a ``numeric_threshold`` predicate without ``numeric_value``.
* ``R_CONFLICT`` -- ``conflict_detected`` and ``conflict_policy.on_conflict``
  is ``invalid``.  With ``continue`` the engine really continues, and the
  conflict factor lowers the confidence.
* ``R_BINARY_DECISION`` -- ``numeric_threshold``: YES iff
  ``numeric_value <comparison> threshold``, compared exactly as
  ``decimal.Decimal`` under :data:`por.numbers.DECIMAL_CONTEXT`; a stray
  ``event_observed`` never overrides it (a disagreement is recorded as
  ``judge.event_observed_ignored``).  ``event_observed``: YES iff true, NO iff
  false.
* ``R_INVALID_FALLBACK`` -- the event is undetermined (``event_observed``
  absent for an ``event_observed`` predicate) or nothing else decided.
* ``R_CONFIDENCE`` -- the YES/NO confidence is below
  ``confidence_policy.min_confidence_for_yesno_bps``: the outcome becomes
  INVALID (never a mere warning).

Confidence (SPEC §7.4), integer basis points, P = ``prompt_spec.confidence_policy``,
V = the evaluation variables, E = the evidence items named in
``V.source_summary``; ``scale_bps(v, f) = (v * f + 5000) // 10000`` (one
half-up rounding per factor)::

    c0 = min(P.default_confidence_bps, min(e.confidence_bps for e in E))
    c1 = scale_bps(c0, P.conflict_factor_bps) if V.conflict_detected else c0
    c2 = scale_bps(c1, P.fallback_factor_bps) if V.fallback_used else c1
    c  = clamp(c2, 0, 10000)
    YES/NO keeps c iff c >= P.min_confidence_for_yesno_bps, else INVALID (R_CONFIDENCE)
    INVALID (any rule) has confidence min(P.invalid_confidence_bps,
                                          P.min_confidence_for_yesno_bps)

Weak evidence therefore lowers confidence: the policy default is a ceiling
and the weakest cited item caps it.  A missing policy is the schema default
``ConfidencePolicy()`` (7000/5500/8000/9000/0), so defaults are deterministic.

Lean core (issue 16): :func:`judge_core` takes duck-typed inputs (a prompt
spec with ``PromptSpec``'s attribute names and ``to_cbor()``, an evidence
container with ``.items`` and ``.market_id``, a trace with ``.market_id`` and
``.steps`` -- a ``ReasoningTrace`` or an ``AuditRun``, whose ``steps`` may be a
streaming audit's window: its length, its last step and the reasoning root,
:func:`reasoning_root_of`) and returns a lean
:class:`~por.lean.verdict.Verdict` (``to_cbor()`` equals the pydantic
verdict's bytes) and lean checks, without pydantic.  :func:`map_to_verdict`
is the same computation converted to the pydantic objects.

Out of scope: parsing the natural-language ``event_definition`` (never read),
extracting values from evidence bodies (the auditor's job), and any clock:
``resolution_time`` is the end of the market's resolution window.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from por.judge.schema_lock import final_challenge, prompt_spec_checks, trace_checks
from por.lean.trace import Variables
from por.lean.verdict import Verdict
from por.lean.writer_hooks import ChallengeRecord, results_from
from por.lean.writers_gen import Challenge, Check
from por.merkle import leaf_hash, root_hash
from por.numbers import DECIMAL_CONTEXT, clamp_bps, parse_decimal, scale_bps
from por.predicates import NUMERIC_PREDICATES, holds
from por.predicates.decision import bound_text, event_decides, event_reason
from por.protocol.limits import Outcome, RuleId

if TYPE_CHECKING:
    from por.schemas import (
        CheckResult,
        DeterministicVerdict,
        EvaluationVariables,
        EvidenceBundle,
        EvidenceItem,
        PromptSpec,
        ReasoningTrace,
    )

    #: What the engine reads: the pydantic records or lean twins (module docstring).
    Spec = PromptSpec | Any
    Evidence = EvidenceBundle | Any
    Trace = ReasoningTrace | Any

CHECK_VALIDITY = "validity"
CHECK_CONFLICT = "conflict"
CHECK_BINARY_DECISION = "binary_decision"
CHECK_CONFIDENCE = "confidence"
CHECK_EVENT_OBSERVED_IGNORED = "judge.event_observed_ignored"

R_VALIDITY: RuleId = "R_VALIDITY"
R_CONFLICT: RuleId = "R_CONFLICT"
R_BINARY_DECISION: RuleId = "R_BINARY_DECISION"
R_CONFIDENCE: RuleId = "R_CONFIDENCE"
R_INVALID_FALLBACK: RuleId = "R_INVALID_FALLBACK"


def compare_decimal(value: str, comparison: str, threshold: str) -> bool:
    """``value <comparison> threshold`` for canonical decimal strings, exactly.

    ``DECIMAL_CONTEXT.compare`` is exact (no rounding happens in a comparison);
    "100.00" is not canonical, its canonical spelling "100" equals threshold "100".
    """
    order = DECIMAL_CONTEXT.compare(parse_decimal(value), parse_decimal(threshold))
    if comparison == ">":
        return order > 0
    if comparison == ">=":
        return order >= 0
    if comparison == "<":
        return order < 0
    if comparison == "<=":
        return order <= 0
    if comparison == "==":
        return order == Decimal(0)
    raise ValueError(f"unknown comparison {comparison!r}")  # excluded by the schema


def invalid_confidence_bps(prompt_spec: Spec) -> int:
    """Confidence of every INVALID verdict: never above the YES/NO minimum (seed §7.5)."""
    policy = prompt_spec.confidence_policy
    return min(policy.invalid_confidence_bps, policy.min_confidence_for_yesno_bps)


def confidence_from(prompt_spec: Spec, variables: EvaluationVariables | Variables,
                    items: list[EvidenceItem]) -> tuple[int, dict[str, int]]:
    """The YES/NO confidence (module docstring formula) and its intermediate steps."""
    policy = prompt_spec.confidence_policy
    c0 = min([policy.default_confidence_bps, *(item.confidence_bps for item in items)])
    c1 = scale_bps(c0, policy.conflict_factor_bps) if variables.conflict_detected else c0
    c2 = scale_bps(c1, policy.fallback_factor_bps) if variables.fallback_used else c1
    c = clamp_bps(c2)
    return c, {"base_bps": c0, "after_conflict_bps": c1, "after_fallback_bps": c2,
               "confidence_bps": c,
               "min_confidence_for_yesno_bps": policy.min_confidence_for_yesno_bps}


def build_verdict(prompt_spec: PromptSpec, evidence: EvidenceBundle, trace: ReasoningTrace,
                  *, outcome: Outcome, confidence_bps: int,
                  rule_id: RuleId) -> DeterministicVerdict:
    """A verdict with the commitments computed from the records (SPEC §5.1)."""
    return lean_verdict(prompt_spec, evidence, trace, outcome=outcome,
                        confidence_bps=confidence_bps, rule_id=rule_id).to_model()


def lean_verdict(prompt_spec: Spec, evidence: Evidence, trace: Trace, *, outcome: Outcome,
                 confidence_bps: int, rule_id: RuleId) -> Verdict:
    """:func:`build_verdict` as a lean :class:`~por.lean.verdict.Verdict`."""
    return Verdict(
        market_id=prompt_spec.market.market_id,
        outcome=outcome,
        confidence_bps=confidence_bps,
        resolution_rule_id=rule_id,
        prompt_spec_hash=leaf_hash(prompt_spec.to_cbor()),
        evidence_root=evidence_root_of(evidence),
        evidence_count=len(evidence.items),
        reasoning_root=reasoning_root_of(trace.steps),
        reasoning_count=len(trace.steps),
        resolution_time=prompt_spec.market.resolution_window.end,
    )


def evidence_root_of(evidence: Any) -> bytes:
    """MTH over every item's ``to_cbor()`` in bundle order (SPEC §5.1), or the
    ``root`` a lean ``Evidence`` carries, checked by its maker against the same bytes."""
    known = getattr(evidence, "root", None)
    if known is not None:
        return known  # type: ignore[no-any-return]
    return root_hash([item.to_cbor() for item in evidence.items])


def reasoning_root_of(steps: Sequence[Any]) -> bytes:
    """MTH over every step's ``to_cbor()`` in trace order (SPEC §5.1).

    A streaming audit's ``StepWindow`` (``por.auditor.stream``) no longer holds
    the steps: it hashed each one as it was made and gives the same root."""
    streamed = getattr(steps, "reasoning_root", None)
    if streamed is not None:
        return streamed()  # type: ignore[no-any-return]
    return root_hash([step.to_cbor() for step in steps])


def _check(check_id: str, ok: bool, message: str, *, severity: str | None = None,
           expected: str | None = None, actual: str | None = None,
           reason: str | None = None, challenge: ChallengeRecord | None = None,
           extra: dict[str, int] | None = None) -> Check:
    details: dict[str, Any] = {}
    if reason is not None:
        details["reason"] = reason
    details.update(extra or {})
    return Check(check_id, ok, severity or ("info" if ok else "error"), message,
                 expected=expected, actual=actual, details=details or None,
                 challenge=None if ok else challenge)


def _validity(prompt_spec: Spec, evidence: Evidence, trace: Trace,
              variables: Variables) -> Check:
    """Stage 1 (seed M07 §7 step 2): the first reason the inputs cannot decide."""
    market_id = prompt_spec.market.market_id
    for label, other in (("evidence", evidence.market_id), ("trace", trace.market_id)):
        if other != market_id:
            return _check(CHECK_VALIDITY, False, f"{label} is for another market",
                          expected=market_id, actual=other, reason=f"{label}_market_id",
                          challenge=Challenge("por_bundle", reason="market_id"))
    if variables.insufficient_evidence:
        return _check(CHECK_VALIDITY, False, "auditor reports insufficient evidence",
                      reason="insufficient_evidence",
                      challenge=Challenge("evidence_leaf",
                                             reason="insufficient_evidence"))
    if not variables.provenance_ok:
        return _check(CHECK_VALIDITY, False, "auditor reports provenance not met",
                      reason="provenance_not_ok",
                      challenge=Challenge("evidence_leaf", reason="provenance"))
    if not variables.source_summary:
        return _check(CHECK_VALIDITY, False, "no evidence cited in source_summary",
                      reason="no_sources",
                      challenge=final_challenge(trace, "source_summary"))
    index_of = {item.evidence_id: i for i, item in enumerate(evidence.items)}
    unknown = [e for e in variables.source_summary if e not in index_of]
    if unknown:
        return _check(CHECK_VALIDITY, False, "source_summary names unknown evidence",
                      actual=unknown[0], reason="unknown_source",
                      challenge=final_challenge(trace, "source_summary"))
    tiers = {r.requirement_id: r.min_provenance_tier for r in prompt_spec.data_requirements}
    for evidence_id in variables.source_summary:
        item = evidence.items[index_of[evidence_id]]
        want = tiers.get(item.requirement_id)
        if want is None or item.provenance_tier < want:
            return _check(
                CHECK_VALIDITY, False, "cited evidence below its requirement's provenance tier",
                expected=f">={want}" if want is not None else "known requirement",
                actual=f"{evidence_id}:tier={item.provenance_tier}:{item.requirement_id}",
                reason="provenance_tier",
                challenge=Challenge("evidence_leaf", evidence_id=evidence_id,
                                       leaf_index=index_of[evidence_id],
                                       reason="provenance_tier"))
    window, slack = prompt_spec.market.resolution_window, prompt_spec.timestamp_slack_seconds
    stamp = variables.timestamp
    if stamp is not None and not max(0, window.start - slack) <= stamp <= window.end + slack:
        # The same closed, slack-widened window the auditor admits evidence by (SPEC §6.2).
        return _check(CHECK_VALIDITY, False, "observation time is outside the resolution window",
                      expected=f"[{max(0, window.start - slack)}, {window.end + slack}]",
                      actual=str(stamp), reason="timestamp_outside_window",
                      challenge=final_challenge(trace, "timestamp"))
    semantics = prompt_spec.prediction_semantics
    if (semantics.predicate in NUMERIC_PREDICATES and variables.numeric_value is None
            and not event_decides(semantics, variables)):
        return _check(CHECK_VALIDITY, False, f"{semantics.predicate} needs numeric_value",
                      expected="numeric_value", actual="absent",
                      reason="missing_numeric_value",
                      challenge=final_challenge(trace, "numeric_value"))
    return _check(CHECK_VALIDITY, True, "inputs are valid for the predicate")


def _conflict(prompt_spec: Spec, trace: Trace,
              variables: Variables) -> Check:
    """Stage 2 (seed M07 §7 step 3): a conflict is INVALID or continues, per policy."""
    policy = prompt_spec.conflict_policy.on_conflict
    if not variables.conflict_detected:
        return _check(CHECK_CONFLICT, True, "no conflict between sources",
                      actual="none", reason="no_conflict")
    if policy == "continue":
        return _check(CHECK_CONFLICT, True,
                      "conflict detected; policy continues with reduced confidence",
                      severity="warn", expected="continue", actual="conflict",
                      reason="conflict_continue")
    return _check(CHECK_CONFLICT, False, "conflict detected; policy makes it INVALID",
                  expected="invalid", actual="conflict", reason="conflict_invalid",
                  challenge=final_challenge(trace, "conflict_detected"))


def _decide(prompt_spec: Spec, trace: Trace,
            variables: Variables) -> tuple[Outcome | None, list[Check]]:
    """Stage 3 (seed M07 §7 step 4): YES/NO from the predicate, or None if undetermined."""
    semantics = prompt_spec.prediction_semantics
    value = variables.numeric_value
    if (value is not None and semantics.predicate in NUMERIC_PREDICATES
            and not event_decides(semantics, variables)):
        happened = holds(semantics, parse_decimal(value))
        outcome: Outcome = "YES" if happened else "NO"
        bound = bound_text(semantics)
        checks = [_check(CHECK_BINARY_DECISION, True,
                         f"{value} {bound} is {str(happened).lower()}",
                         expected=bound, actual=value, reason=semantics.predicate)]
        stray = variables.event_observed
        if stray is not None:
            agrees = stray is happened
            checks.append(_check(
                CHECK_EVENT_OBSERVED_IGNORED, agrees,
                ("event_observed agrees with the threshold" if agrees else
                 "event_observed disagrees with the threshold; the threshold decides"),
                severity="info" if agrees else "warn",
                expected=str(happened).lower(), actual=str(stray).lower()))
        return outcome, checks
    if variables.event_observed is not None and (
            semantics.predicate not in NUMERIC_PREDICATES
            or event_decides(semantics, variables)):
        outcome = "YES" if variables.event_observed else "NO"
        why = event_reason(semantics)
        return outcome, [_check(CHECK_BINARY_DECISION, True,
                                f"event_observed is {str(variables.event_observed).lower()}"
                                + ("" if why == "event_observed" else f" ({why})"),
                                actual=str(variables.event_observed).lower(),
                                reason=why)]
    # Undetermined, or a predicate this engine does not know: fall through.
    return None, [_check(CHECK_BINARY_DECISION, False, "event is undetermined",
                         expected=semantics.predicate, actual="absent",
                         reason="undetermined",
                         challenge=final_challenge(trace, "event_undetermined"))]


def _finish(prompt_spec: Spec, evidence: Evidence, trace: Trace,
            checks: list[Check], rule_id: RuleId) -> tuple[Verdict, list[Check]]:
    """An INVALID verdict decided by ``rule_id``, with the closing confidence check."""
    confidence = invalid_confidence_bps(prompt_spec)
    checks.append(_check(CHECK_CONFIDENCE, True,
                         f"INVALID by {rule_id}: confidence is the invalid confidence",
                         actual=str(confidence), reason="invalid_outcome"))
    return lean_verdict(prompt_spec, evidence, trace, outcome="INVALID",
                        confidence_bps=confidence, rule_id=rule_id), checks


def map_to_verdict(prompt_spec: PromptSpec, evidence: EvidenceBundle, trace: ReasoningTrace,
                   ) -> tuple[DeterministicVerdict, list[CheckResult]]:
    """Map (spec, evidence, trace) to a verdict and the checks that decided it.

    Check order: the schema-lock checks, then ``validity``, ``conflict``,
    ``binary_decision`` (and ``judge.event_observed_ignored`` when present) for
    the stages that ran, then always ``confidence`` last.  A check that fails
    with severity ``error`` makes the outcome INVALID and vice versa.
    """
    verdict, checks = judge_core(prompt_spec, evidence, trace, explain=True)
    return verdict.to_model(), results_from(checks)


def judge_core(prompt_spec: Spec, evidence: Evidence, trace: Trace, *,
               explain: bool = False) -> tuple[Verdict, list[Check]]:
    """:func:`map_to_verdict` on duck-typed inputs, as a lean verdict and lean checks
    (module docstring; ``explain`` as :func:`~por.judge.schema_lock.read_variables`)."""
    lock, variables = trace_checks(trace, explain=explain)
    checks = prompt_spec_checks(prompt_spec) + lock
    failed_lock = next((c for c in checks if c.failed), None)
    if failed_lock is not None or variables is None:
        challenge = failed_lock.challenge if failed_lock is not None else None
        checks.append(_check(CHECK_VALIDITY, False, "schema lock failed",
                             actual=failed_lock.check_id if failed_lock else None,
                             reason="schema_lock", challenge=challenge))
        return _finish(prompt_spec, evidence, trace, checks, R_VALIDITY)

    # Stage 1: validity.
    validity = _validity(prompt_spec, evidence, trace, variables)
    checks.append(validity)
    if not validity.ok:
        return _finish(prompt_spec, evidence, trace, checks, R_VALIDITY)

    # Stage 2: conflict.
    conflict = _conflict(prompt_spec, trace, variables)
    checks.append(conflict)
    if not conflict.ok:
        return _finish(prompt_spec, evidence, trace, checks, R_CONFLICT)

    # Stage 3: binary decision.
    outcome, decision_checks = _decide(prompt_spec, trace, variables)
    checks.extend(decision_checks)
    if outcome is None:
        return _finish(prompt_spec, evidence, trace, checks, R_INVALID_FALLBACK)

    # Stage 4: confidence.  Validity guaranteed every cited id is in the bundle.
    cited = set(variables.source_summary)
    items = [item for item in evidence.items if item.evidence_id in cited]
    confidence, steps = confidence_from(prompt_spec, variables, items)
    minimum = prompt_spec.confidence_policy.min_confidence_for_yesno_bps
    if confidence < minimum:
        # Hint at the weakest cited item (lowest confidence, then bundle order).
        weakest = min((i for i, item in enumerate(evidence.items) if item.evidence_id in cited),
                      key=lambda i: (evidence.items[i].confidence_bps, i))
        checks.append(_check(
            CHECK_CONFIDENCE, False, f"confidence below the minimum for {outcome}",
            expected=f">={minimum}", actual=str(confidence), reason="below_minimum",
            extra=steps,
            challenge=Challenge("evidence_leaf",
                                evidence_id=evidence.items[weakest].evidence_id,
                                leaf_index=weakest, reason="low_confidence")))
        confidence = invalid_confidence_bps(prompt_spec)
        return (lean_verdict(prompt_spec, evidence, trace, outcome="INVALID",
                             confidence_bps=confidence, rule_id=R_CONFIDENCE), checks)
    checks.append(_check(CHECK_CONFIDENCE, True, f"confidence {confidence} bps for {outcome}",
                         expected=f">={minimum}", actual=str(confidence),
                         reason="computed", extra=steps))
    return (lean_verdict(prompt_spec, evidence, trace, outcome=outcome,
                         confidence_bps=confidence, rule_id=R_BINARY_DECISION), checks)


__all__ = [
    "CHECK_BINARY_DECISION",
    "CHECK_CONFIDENCE",
    "CHECK_CONFLICT",
    "CHECK_EVENT_OBSERVED_IGNORED",
    "CHECK_VALIDITY",
    "R_BINARY_DECISION",
    "R_CONFIDENCE",
    "R_CONFLICT",
    "R_INVALID_FALLBACK",
    "R_VALIDITY",
    "build_verdict",
    "compare_decimal",
    "confidence_from",
    "invalid_confidence_bps",
    "judge_core",
    "lean_verdict",
    "map_to_verdict",
    "reasoning_root_of",
]
