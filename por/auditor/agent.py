"""AuditorAgent (seed M06 §7.1): PromptSpec + EvidenceBundle -> ReasoningTrace + report.

Pure and deterministic: no clock, no environment, no randomness, no LLM.  The
trace is built from the step functions of :mod:`por.auditor.steps` in this
order (SPEC §12.5)::

    extract_claims            one per evidence item, bundle order
    check_requirement r       \\  per requirement, prompt-spec order
    aggregate r               /
    contradictions
    deduce
    map                       final: output["evaluation_variables"]

Step ids are ``step_0001``...; ``trace_id`` is ``"trace_" +`` the first 16
hex digits of::

    SHA-256(b"por.trace_id/1" || SHA-256(prompt_spec.to_cbor())
            || SHA-256(item_1.to_cbor()) || ... || SHA-256(item_n.to_cbor()))

Linear in the evidence (n log n where a quorum sorts values).

The ``VerificationResult`` gathers, in step order, every extraction warning,
admission rejection, coverage/provenance result, contradiction and the
``sanity.variables`` result (severity ``warn``/``info``: data facts the judge
acts on through the evaluation variables), then ``sanity.market_id``
(``error`` if the bundle names another market) and the trace policy checks
(``error``).  So ``ok`` is false only when the trace itself is unusable or
the inputs disagree about the market, never for mere insufficient evidence.

Leaves out: the verdict (``por.judge``), bundles and commitments.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import ClassVar

from por.auditor import step_io as io
from por.auditor.steps import (
    Built,
    aggregate_step,
    check_requirement_step,
    contradictions_step,
    deduce_step,
    extract_step,
    map_step,
)
from por.auditor.trace_policy import TracePolicyVerifier, trace_policy_for
from por.errors import AuditError
from por.schemas import (
    CheckResult,
    EvidenceBundle,
    PromptSpec,
    ReasoningStep,
    ReasoningTrace,
    VerificationResult,
    step_id,
)
from por.schemas.trace import MAX_TRACE_STEPS

CHECK_MARKET_ID = "sanity.market_id"


def trace_length(items: int, requirements: int) -> int:
    """Steps of every trace (SPEC §12.5): one extract per item, a check and an
    aggregate per requirement, then contradictions, deduce and map."""
    return items + 2 * requirements + 3


def trace_id_from(prompt_spec: PromptSpec, evidence: EvidenceBundle) -> str:
    """The deterministic trace id (see the module docstring)."""
    digest = hashlib.sha256(b"por.trace_id/1")
    digest.update(hashlib.sha256(prompt_spec.to_cbor()).digest())
    for item in evidence.items:
        digest.update(hashlib.sha256(item.to_cbor()).digest())
    return "trace_" + digest.hexdigest()[:16]


class AuditorAgent:
    """Deterministic auditor: builds the reasoning trace the judge maps to a verdict."""

    #: Version the bundle manifest locks (SPEC §5.2): any change to a step's
    #: computation, layout or order needs a new version.
    VERSION: ClassVar[str] = "por-auditor/1"
    role: ClassVar[str] = "auditor"

    def __init__(self, name: str | None = None) -> None:
        self.name = name if name is not None else "auditor"

    def audit(self, prompt_spec: PromptSpec,
              evidence: EvidenceBundle, *,
              on_step: Callable[[int, ReasoningStep], None] | None = None,
              ) -> tuple[ReasoningTrace, VerificationResult]:
        """The trace and the audit report (seed M06 §7.1 steps 1-8).

        ``on_step(index, step)`` sees each step as soon as it is made; a replaying
        verifier compares it there and stops at the first difference (it may raise),
        so a forged trace never costs a full audit (SPEC §17.3)."""
        items = evidence.items
        requirements = prompt_spec.data_requirements
        total = trace_length(len(items), len(requirements))
        if total > MAX_TRACE_STEPS:
            raise AuditError("audit.too_many_steps",
                             f"{len(items)} evidence items need more than "
                             f"{MAX_TRACE_STEPS} steps")
        # 1. Policy: strict and bounded by the input size.
        policy = trace_policy_for(prompt_spec, evidence)
        built: list[Built] = []

        def add(step: Built) -> Built:
            built.append(step)
            if on_step is not None:
                on_step(len(built) - 1, step.step)
            return step

        def next_id() -> str:
            return step_id(len(built) + 1)

        # 2-3. Extraction, one step per item in bundle order.
        extracts = [add(extract_step(prompt_spec, next_id(), item)).step for item in items]
        positions: dict[str, list[int]] = {}
        for n, item in enumerate(items):
            positions.setdefault(item.requirement_id, []).append(n)
        # 4. Per requirement: admission (logic sanity + gate), then selection.
        admitted_mask = [False] * len(items)
        check_steps = []
        aggregate_steps = []
        for requirement in requirements:
            rid = requirement.requirement_id
            mine = positions.get(rid, [])
            check = add(check_requirement_step(
                prompt_spec, next_id(), rid, [items[n] for n in mine],
                [extracts[n] for n in mine])).step
            check_steps.append(check)
            admitted = frozenset(io.read_admitted(check, rid))
            chosen = [n for n in mine if items[n].evidence_id in admitted]
            for n in chosen:
                admitted_mask[n] = True
            aggregate_steps.append(add(aggregate_step(
                prompt_spec, next_id(), rid, check_step=check,
                items=[items[n] for n in chosen],
                extract_steps=[extracts[n] for n in chosen])).step)
        # 5. Contradictions among all admitted claims, bundle order.
        every = [n for n, ok in enumerate(admitted_mask) if ok]
        contradictions = add(contradictions_step(
            prompt_spec, next_id(), check_steps, [items[n] for n in every],
            [extracts[n] for n in every])).step
        for extract in extracts:  # contradictions was the last reader of their claims
            io.forget_claims(extract)
        # 6. Deduce and map: the evaluation variables.
        deduce = add(deduce_step(prompt_spec, next_id(), aggregate_steps, contradictions)).step
        add(map_step(prompt_spec, next_id(), deduce))
        trace = ReasoningTrace(trace_id=trace_id_from(prompt_spec, evidence),
                               market_id=prompt_spec.market.market_id, policy=policy,
                               steps=[b.step for b in built])
        # 7. Structure and grounding.
        checks: list[CheckResult] = [c for b in built for c in b.checks]
        checks.append(self._market_check(prompt_spec, evidence))
        checks.extend(TracePolicyVerifier().verify(trace, prompt_spec, evidence).checks)
        # 8.
        return trace, VerificationResult.from_checks(checks)

    @staticmethod
    def _market_check(prompt_spec: PromptSpec, evidence: EvidenceBundle) -> CheckResult:
        market = prompt_spec.market.market_id
        ok = evidence.market_id == market
        return CheckResult(check_id=CHECK_MARKET_ID, ok=ok, severity="info" if ok else "error",
                           message="evidence bundle is for this market" if ok
                           else "evidence bundle is for another market",
                           expected=None if ok else market,
                           actual=None if ok else evidence.market_id)


__all__ = ["CHECK_MARKET_ID", "AuditorAgent", "trace_id_from", "trace_length"]
