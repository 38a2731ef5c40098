"""Replay of the auditor and the judge for the fast path (SPEC §6.2 steps 5-7).

:func:`replay` re-runs the auditor over lean inputs, compares every step and
the trace header with the committed bytes, checks the trace policy and
compares the judge's verdict bytes; it raises :class:`Reject` at the first
difference (the full verifier then reports it).
"""

from __future__ import annotations

from typing import Any

from por.lean.base import Reject
from por.lean.checks import ok_from
from por.lean.manifest import manifest_bytes


def replay(spec: Any, evidence: Any, steps: list[bytes], *, header: bytes,
           verdict: bytes, handoff: dict[str, Any]) -> None:
    """Raise :class:`Reject` unless audit and judge reproduce the committed bytes.

    The first replayed step that differs is left in ``handoff["step_mismatch"]``
    as ``(index, step)``: the full verifier reports it without auditing again
    (a forged trace costs one audit up to its first wrong step, SPEC §17.3)."""
    from por.auditor.agent import audit_core, trace_length  # noqa: PLC0415
    from por.auditor.trace_policy import policy_checks  # noqa: PLC0415
    from por.judge import judge_core  # noqa: PLC0415

    items = evidence.items
    if len(steps) != trace_length(len(items), len(spec.data_requirements)):
        raise Reject("step count")

    def compare(index: int, step: Any) -> None:
        if step.to_cbor() != steps[index]:
            handoff["step_mismatch"] = (index, step)
            raise Reject("step")
        step._cbor = steps[index]  # equal bytes: keep the committed copy, free the replayed one

    run = audit_core(spec, items, on_step=compare)
    if run.header_cbor() != header:
        raise Reject("header")
    # The committed header equals the replayed one: its market id and policy are the run's.
    if not ok_from(policy_checks(run.steps, spec, items, trace_market_id=run.market_id,
                                 policy=run.policy)):
        raise Reject("trace policy")
    if judge_core(spec, evidence, run)[0].to_cbor() != verdict:
        raise Reject("verdict")


__all__ = ["manifest_bytes", "replay"]
