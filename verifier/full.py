"""The full verifier: every numbered step of SPEC §6.2, with failure reports.

``check_full`` runs ``verifier.steps`` and step 8 over a bundle the fast path
did not accept, and writes the report with the first failing check's id,
expected and actual values and the leaf to challenge.
"""

from __future__ import annotations

from typing import Any

from por.errors import PorError
from por.gcpause import gc_paused
from por.schemas.verification import ChallengeRef, CheckResult
from verifier.context import Context, StepFailed
from verifier.report import VerificationReport
from verifier.signatures import step8_signatures
from verifier.steps import STEPS


def check_full(data: bytes, options: dict[str, Any],
               handoff: dict[str, Any] | None = None) -> VerificationReport:
    """The report for ``data``; ``handoff`` is what the fast path already decoded."""
    ctx = Context(data, options)
    handoff = handoff or {}
    status = "verified"
    try:
        with gc_paused():
            error = handoff.get("decode_error")
            if isinstance(error, PorError):  # step 1 failed on the fast path already
                ctx.from_error(error, challenge=ChallengeRef(kind="por_bundle"))
            for key in ("raw", "step_mismatch", "lean_items"):
                if key in handoff:  # taken, not shared: what the steps drop is freed
                    ctx.parts[key] = handoff.pop(key)
            for step in (*STEPS, step8_signatures):
                step(ctx)
    except StepFailed as stop:
        status = stop.status
    except Exception as exc:  # fail closed: any surprise is "no verdict"
        ctx.checks.append(CheckResult(
            check_id="internal.error", ok=False, severity="error",
            message=f"internal error: {type(exc).__name__}: {exc}"[:500],
        ))
        status = "error"
    return _report(ctx, status)


def _report(ctx: Context, status: Any) -> VerificationReport:
    verdict = ctx.parts.get("verdict")
    bundle = ctx.parts.get("bundle")
    return VerificationReport(
        status=status,
        checks=ctx.checks,
        market_id=getattr(verdict, "market_id", None),
        outcome=getattr(verdict, "outcome", None),
        confidence_bps=getattr(verdict, "confidence_bps", None),
        resolution_rule_id=getattr(verdict, "resolution_rule_id", None),
        por_root=bundle.commitments.por_root if bundle is not None else None,
    )


__all__ = ["check_full"]
