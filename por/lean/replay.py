"""Replay of the auditor and the judge for the fast path (SPEC §6.2 steps 5-7).

:func:`replay` re-runs the auditor over lean inputs, compares every step and
the trace header with the committed bytes, checks the trace policy and
compares the judge's verdict bytes; it raises :class:`Reject` at the first
difference (the full verifier then reports it).
"""

from __future__ import annotations

from typing import Any

from por.lean.base import Reject
from por.lean.manifest import manifest_bytes


def replay(spec: Any, evidence: Any, steps: list[bytes], *, header: bytes,
           verdict: bytes, handoff: dict[str, Any]) -> None:
    """Raise :class:`Reject` unless audit and judge reproduce the committed bytes.

    The first replayed step that differs is left in ``handoff["step_mismatch"]``
    as ``(index, step)``: the full verifier reports it without auditing again
    (a forged trace costs one audit up to its first wrong step, SPEC §17.3)."""
    from por.auditor import AuditorAgent, TracePolicyVerifier  # noqa: PLC0415
    from por.auditor.agent import trace_length  # noqa: PLC0415
    from por.judge import JudgeAgent  # noqa: PLC0415
    from por.schemas import ReasoningTrace  # noqa: PLC0415

    if len(steps) != trace_length(len(evidence.items), len(spec.data_requirements)):
        raise Reject("step count")

    def compare(index: int, step: Any) -> None:
        if step.to_cbor() != steps[index]:
            handoff["step_mismatch"] = (index, step)
            raise Reject("step")

    replayed, _ = AuditorAgent().audit(spec, evidence, on_step=compare)
    if replayed.header().to_cbor() != header:
        raise Reject("header")
    trace = ReasoningTrace.from_parts(replayed.header(), replayed.steps)
    if not TracePolicyVerifier().verify(trace, spec, evidence).ok:
        raise Reject("trace policy")
    if JudgeAgent().judge(spec, evidence, trace)[0].to_cbor() != verdict:
        raise Reject("verdict")


__all__ = ["manifest_bytes", "replay"]
