"""Replay of the auditor and the judge for the fast path (SPEC §6.2 steps 5-7).

:func:`replay` re-runs the auditor over lean inputs, compares every step and
the trace header with the committed bytes, checks the trace policy and
compares the judge's verdict bytes; it raises :class:`Reject` at the first
difference (the full verifier then reports it).

It streams (issue 16: verification memory per evidence item): the audit runs
with ``retain=False``, each replayed step is compared, then fed to the trace
policy (``PolicyState``) and released, so no step outlives its check but the
last one (the judge reads that one and the reasoning root the audit hashed as
it went).  Every comparison and every check is the one the whole-trace
functions make, so streaming can cost only memory, never a different answer.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from por.lean.base import Leaves, Reject
from por.lean.writer_hooks import ok_from


def replay(spec: Any, evidence: Any, steps: Leaves, *, header: bytes,
           verdict: bytes, reasoning_root: bytes, handoff: dict[str, Any],
           matched: Callable[[int, Any], None] | None = None) -> None:
    """Raise :class:`Reject` unless audit and judge reproduce the committed bytes.

    The first replayed step that differs is left in ``handoff["step_mismatch"]``
    as ``(index, step)``: the full verifier reports it without auditing again
    (a forged trace costs one audit up to its first wrong step, SPEC §17.3).
    ``matched(index, step)``, if given, sees every step equal to its leaf while it is
    in hand (the fast path's forms check, SPEC §6.2 step 5)."""
    from por.auditor.agent import audit_core, requirement_ids, trace_length  # noqa: PLC0415
    from por.auditor.trace_policy import PolicyState, lean_policy_for  # noqa: PLC0415
    from por.judge import judge_core  # noqa: PLC0415

    items = evidence.items
    if len(steps) != trace_length((i.requirement_id for i in items),
                                  requirement_ids(spec)):
        raise Reject("step count")
    # The market id and policy audit_core gives its run (AuditRun.market_id, .policy);
    # the header check below makes them the committed trace's too.
    market_id = spec.market.market_id
    policy = lean_policy_for(len(items), len(spec.data_requirements))
    trace_policy = PolicyState(spec, items, trace_market_id=market_id, policy=policy)

    def compare(index: int, step: Any) -> None:
        if not step.matches(*steps.place(index)):
            handoff["step_mismatch"] = (index, step)
            raise Reject("step")
        if matched is not None:
            matched(index, step)
        trace_policy.feed(index, step)

    # ``reasoning_root``: the caller checked it against ``steps``, and compare()
    # lets no differing step through, so the window need not hash them again.
    run = audit_core(spec, items, on_step=compare, retain=False,
                     reasoning_root=reasoning_root)
    if run.header_cbor() != header:
        raise Reject("header")
    if run.market_id != market_id or not policy.same_as(run.policy):
        raise Reject("trace policy")  # unreachable: audit_core computes them as above
    if not ok_from(trace_policy.finish()):
        raise Reject("trace policy")
    if judge_core(spec, evidence, run)[0].to_cbor() != verdict:
        raise Reject("verdict")


__all__ = ["replay"]
