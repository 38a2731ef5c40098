"""Build a PoR bundle: run the auditor and judge and commit everything (SPEC §5).

``build_bundle`` is pure: records in, ``bundle.cbor`` bytes out.  Signatures
are added afterwards with :func:`with_signatures` (they sign ``por_root`` and
the verdict, so they cannot be part of what they sign).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from por.auditor import AuditorAgent
from por.bundle.layout import DEFAULT_BUNDLE_MAX_SIZE, Bundle, Commitments, compute_commitments
from por.bundle.manifest import current_manifest
from por.errors import BundleError
from por.gcpause import gc_paused
from por.judge import JudgeAgent
from por.lean.budget import check_buildable
from por.schemas import (
    DeterministicVerdict,
    EvidenceBundle,
    PromptSpec,
    ReasoningTrace,
    VerificationResult,
)


@dataclass(frozen=True)
class BuildResult:
    """What a build produced, for callers that want more than the bytes."""

    data: bytes
    trace: ReasoningTrace
    verdict: DeterministicVerdict
    commitments: Commitments
    audit_result: VerificationResult
    judge_result: VerificationResult


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
    trace, audit_result = AuditorAgent().audit(prompt_spec, evidence)
    verdict, judge_result = JudgeAgent().judge(prompt_spec, evidence, trace)
    records: dict[str, Any] = {
        "manifest": current_manifest().to_cbor(),
        "prompt_spec": prompt_spec.to_cbor(),
        "evidence": [item.to_cbor() for item in evidence.items],
        "trace_header": trace.header().to_cbor(),
        "steps": [step.to_cbor() for step in trace.steps],
        "verdict": verdict.to_cbor(),
    }
    commitments = compute_commitments(**records)
    bundle = Bundle(**records, commitments=commitments, signatures=[])
    data = bundle.to_cbor()
    # Refuse what a verifier would refuse (SPEC §17): never write such a bundle.
    check_buildable(records, len(data), max_size=DEFAULT_BUNDLE_MAX_SIZE)
    return BuildResult(data, trace, verdict, commitments, audit_result,
                       judge_result)


def build_bundle(prompt_spec: PromptSpec, evidence: EvidenceBundle) -> bytes:
    """``bundle.cbor`` bytes for a prompt spec and its evidence."""
    return build(prompt_spec, evidence).data


__all__ = ["BuildResult", "build", "build_bundle"]
