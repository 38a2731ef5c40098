"""``check_bundle`` (returns a report) and ``verify_bundle`` (raises).

Bytes in, report out: no file or network I/O, no clock, no environment.  The
current time for signature expiry is a parameter.  ``check_bundle`` never
raises for a bad bundle; an unexpected internal error becomes an ``error``
report (exit 2) with check id ``internal.error``.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from por.bundle.layout import DEFAULT_BUNDLE_MAX_SIZE
from por.errors import VerificationError
from por.gcpause import gc_paused
from por.schemas.verification import CheckResult
from verifier.context import Context, StepFailed
from verifier.report import VerificationReport
from verifier.signatures import step8_signatures
from verifier.steps import STEPS


def check_bundle(
    data: bytes,
    *,
    trusted_keys: Collection[bytes] | None = None,
    require_signature: bool = False,
    now: int | None = None,
    chain_id: int | None = None,
    verifying_contract: bytes | None = None,
    max_size: int = DEFAULT_BUNDLE_MAX_SIZE,
) -> VerificationReport:
    """Run every numbered step of SPEC §6.2 over ``data``; never raises for bad input.

    ``trusted_keys``: signer ids (20-byte Ethereum addresses or 32-byte Ed25519
    public keys) whose signatures count; ``require_signature``: reject a bundle
    with no valid signature from a trusted key; ``now``: Unix seconds for
    expiry checks (required when signatures are checked).
    """
    ctx = Context(bytes(data), {
        "max_size": max_size,
        "trusted_keys": None if trusted_keys is None else frozenset(trusted_keys),
        "require_signature": require_signature,
        "now": now,
        "chain_id": chain_id,
        "verifying_contract": verifying_contract,
    })
    status = "verified"
    try:
        with gc_paused():
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


def verify_bundle(data: bytes, **options: Any) -> VerificationReport:
    """Like :func:`check_bundle` but raise ``VerificationError`` unless verified."""
    report = check_bundle(data, **options)
    if not report.ok:
        failure = report.first_failure
        if failure is None:  # unreachable: a non-verified report has a failed check
            raise VerificationError("internal.error", "report failed without a check")
        raise VerificationError(failure.check_id, failure.message, expected=failure.expected,
                                actual=failure.actual, challenge=failure.challenge)
    return report


__all__ = ["check_bundle", "verify_bundle"]
