"""Build a PoR bundle: run the auditor and judge and commit everything (SPEC §5).

``build_bundle`` is pure: records in, ``bundle.cbor`` bytes out.  Signatures
are added afterwards with :func:`with_signatures` (they sign ``por_root`` and
the verdict, so they cannot be part of what they sign).

The bytes come from the auditor's and judge's lean cores (``audit_core``,
``judge_core``), the same code ``AuditorAgent.audit`` and ``JudgeAgent.judge``
run; the pydantic trace, verdict and reports of :class:`BuildResult` are made
only when read (issue 16: build no slower than verify).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from por.auditor.agent import audit_checks, audit_core
from por.auditor.trace_policy import trace_policy_for
from por.bundle.layout import DEFAULT_BUNDLE_MAX_SIZE, POR, Commitments, honest_forms
from por.bundle.manifest import current_manifest
from por.encoding import decode
from por.errors import BundleError, PorError
from por.forms.bundle import form_leaves
from por.gcpause import gc_paused
from por.judge import judge_core
from por.lean.writer_hooks import results_from
from por.protocol.budget import check_buildable
from por.schemas import (
    DeterministicVerdict,
    EvidenceBundle,
    PromptSpec,
    ReasoningTrace,
    VerificationResult,
)


class BuildResult:
    """What a build produced, for callers that want more than the bytes.

    ``data`` and ``commitments`` are made by the build; ``trace``, ``verdict``,
    ``audit_result`` and ``judge_result`` (pydantic, equal to what
    ``AuditorAgent.audit`` and ``JudgeAgent.judge`` return) on first read."""

    __slots__ = ("_inputs", "_made", "commitments", "data")

    def __init__(self, data: bytes, commitments: Commitments, inputs: tuple[Any, ...]) -> None:
        self.data = data
        self.commitments = commitments
        self._inputs = inputs
        self._made: dict[str, Any] = {}

    def _make(self, name: str) -> Any:
        made = self._made.get(name)
        if made is None:
            spec, evidence, run, verdict, judge_checks = self._inputs
            if name == "trace":
                made = ReasoningTrace(trace_id=run.trace_id, market_id=run.market_id,
                                      policy=trace_policy_for(spec, evidence),
                                      steps=[step.to_record() for step in run.steps])
            elif name == "verdict":
                made = verdict.to_model()
            elif name == "audit_result":
                made = VerificationResult.from_checks(
                    results_from(audit_checks(run, spec, evidence)))
            else:
                made = VerificationResult.from_checks(results_from(judge_checks))
            self._made[name] = made
        return made

    @property
    def trace(self) -> ReasoningTrace:
        """The reasoning trace (as ``AuditorAgent.audit`` gives it)."""
        return self._make("trace")  # type: ignore[no-any-return]

    @property
    def verdict(self) -> DeterministicVerdict:
        """The judge's verdict."""
        return self._make("verdict")  # type: ignore[no-any-return]

    @property
    def audit_result(self) -> VerificationResult:
        """The auditor's report."""
        return self._make("audit_result")  # type: ignore[no-any-return]

    @property
    def judge_result(self) -> VerificationResult:
        """The judge's report."""
        return self._make("judge_result")  # type: ignore[no-any-return]


def build(prompt_spec: PromptSpec, evidence: EvidenceBundle) -> BuildResult:
    """Audit, judge and commit; return the bundle bytes and the parts."""
    with gc_paused():
        return _build(prompt_spec, evidence)


def _build(prompt_spec: PromptSpec, evidence: EvidenceBundle) -> BuildResult:
    if evidence.market_id != prompt_spec.market.market_id:
        raise BundleError(
            "bundle.market_id", "evidence bundle is for another market",
            expected=prompt_spec.market.market_id, actual=evidence.market_id,
        )
    run = audit_core(prompt_spec, evidence.items)
    verdict, judge_checks = judge_core(prompt_spec, evidence, run, explain=True)
    records: dict[str, Any] = {
        "manifest": current_manifest().to_cbor(),
        "prompt_spec": prompt_spec.to_cbor(),
        "evidence": [item.to_cbor() for item in evidence.items],
        "trace_header": run.header_cbor(),
        "steps": [step.to_cbor() for step in run.steps],
        "verdict": verdict.to_cbor(),
    }
    records["forms"] = _form_leaves(records, run.steps)
    bundle = POR.assemble(records, signatures=[])  # commitments: SPEC §5.3-§5.5
    commitments = bundle.commitments
    data = bundle.to_cbor()
    # Refuse what a verifier would refuse (SPEC §17): never write such a bundle.
    check_buildable(records, len(data), max_size=DEFAULT_BUNDLE_MAX_SIZE, encoded=True)
    return BuildResult(data, commitments,
                       (prompt_spec, evidence, run, verdict, judge_checks))


def _form_leaves(records: dict[str, Any], steps: Iterable[Any]) -> list[bytes]:
    """``LH(F)`` of every chain form (SPEC §5.6), the steps' from the values the
    auditor holds (their bytes are those values' encoding); a record with no form is
    refused (``form.none``, naming it): build refuses what verify refuses (SPEC §17.6)."""
    values = [step.record_value() for step in steps]
    try:
        return form_leaves(decode(records["prompt_spec"]), values, decode(records["verdict"]))
    except PorError as exc:
        if exc.check_id != "form.none":
            raise
    try:  # decide on the bytes, as verify does, and name the record
        return honest_forms(records["prompt_spec"], records["steps"], records["verdict"])
    except PorError as exc:
        if exc.check_id != "form.none":
            raise
        raise BundleError("form.none", exc.message) from None


def build_bundle(prompt_spec: PromptSpec, evidence: EvidenceBundle) -> bytes:
    """``bundle.cbor`` bytes for a prompt spec and its evidence."""
    return build(prompt_spec, evidence).data


__all__ = ["BuildResult", "build", "build_bundle"]
