"""The full verifier: every numbered step of SPEC §6.2, with failure reports.

``check_full`` runs ``verifier.steps`` (steps 1-8) over a bundle the fast path
did not accept, and writes the report with the first failing check's id,
expected and actual values and the leaf to challenge.  Leaves out: the fast
path (``verifier.fast``), which only ever accepts.
"""

from __future__ import annotations

from por.gcpause import gc_paused
from por.schemas.verification import ChallengeRef, CheckResult
from verifier.context import Context, StepFailed
from verifier.options import DEFAULT_OPTIONS, VerifyOptions
from verifier.report import Status, VerificationReport
from verifier.stages import Handoff
from verifier.steps import run_steps


def check_full(data: bytes, options: VerifyOptions = DEFAULT_OPTIONS,
               handoff: Handoff | None = None) -> VerificationReport:
    """The report for ``data``; ``handoff`` is what the fast path already did
    (taken: the caller's handoff is left empty, so what the steps drop is freed)."""
    ctx = Context(data, options)
    mine = Handoff() if handoff is None else handoff.take()
    status: Status = "verified"
    try:
        with gc_paused():
            if mine.decode_error is not None:  # step 1 failed on the fast path already
                ctx.from_error(mine.decode_error, challenge=ChallengeRef(kind="por_bundle"))
            run_steps(ctx, mine)
    except StepFailed as stop:
        status = stop.status
    except Exception as exc:  # fail closed: any surprise is "no verdict"
        ctx.checks.append(CheckResult(
            check_id="internal.error", ok=False, severity="error",
            message=f"internal error: {type(exc).__name__}: {exc}"[:500],
        ))
        status = "error"
    return _report(ctx, status)


def _report(ctx: Context, status: Status) -> VerificationReport:
    verdict, bundle = ctx.verdict, ctx.bundle
    return VerificationReport(
        status=status,
        checks=ctx.checks,
        market_id=None if verdict is None else verdict.market_id,
        outcome=None if verdict is None else verdict.outcome,
        confidence_bps=None if verdict is None else verdict.confidence_bps,
        resolution_rule_id=None if verdict is None else verdict.resolution_rule_id,
        por_root=None if bundle is None else bundle.commitments.por_root,
    )


__all__ = ["check_full"]
