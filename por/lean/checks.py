"""Lean report checks: the data of a ``CheckResult`` without pydantic (issue 16).

The auditor, the trace-policy check and the judge describe every finding as a
:class:`Check` (same attribute names as ``por.schemas.CheckResult``, a
:class:`Challenge` for ``ChallengeRef``).  The pydantic report objects are
built from them only where a public API returns a ``VerificationResult``
(:func:`results_from`), so a replaying verifier that only needs "did any
error-severity check fail?" never builds one.

Reports are not commitments (SPEC §4.6): nothing here is hashed.  Leaves out:
validation (the pydantic models validate when :func:`results_from` builds them).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from por.schemas.verification import ChallengeRef, CheckResult


class Challenge:
    """What ``ChallengeRef`` holds: the leaf a challenger should dispute (SPEC §10)."""

    __slots__ = ("evidence_id", "kind", "leaf_index", "reason", "step_id")

    def __init__(self, kind: str, *, evidence_id: str | None = None,
                 step_id: str | None = None, leaf_index: int | None = None,
                 reason: str | None = None) -> None:
        self.kind = kind
        self.evidence_id = evidence_id
        self.step_id = step_id
        self.leaf_index = leaf_index
        self.reason = reason

    def to_model(self) -> ChallengeRef:
        """The pydantic ``ChallengeRef`` (validated)."""
        from por.schemas.verification import ChallengeRef  # noqa: PLC0415  # report edge only

        return ChallengeRef(kind=self.kind,  # type: ignore[arg-type]
                            evidence_id=self.evidence_id, step_id=self.step_id,
                            leaf_index=self.leaf_index, reason=self.reason)


class Check:
    """What ``CheckResult`` holds: a stable id, pass/fail, severity and where it failed."""

    __slots__ = ("actual", "challenge", "check_id", "details", "expected", "message", "ok",
                 "severity")

    def __init__(self, check_id: str, ok: bool, severity: str, message: str, *,
                 expected: str | None = None, actual: str | None = None,
                 details: dict[str, Any] | None = None,
                 challenge: Challenge | None = None) -> None:
        self.check_id = check_id
        self.ok = ok
        self.severity = severity
        self.message = message
        self.expected = expected
        self.actual = actual
        self.details = details
        self.challenge = challenge

    @property
    def failed(self) -> bool:
        """True iff this check fails with severity ``error`` (what makes a report not ok)."""
        return not self.ok and self.severity == "error"

    def to_model(self) -> CheckResult:
        """The pydantic ``CheckResult`` (validated)."""
        from por.schemas.verification import CheckResult  # noqa: PLC0415  # report edge only

        challenge = self.challenge
        return CheckResult(check_id=self.check_id, ok=self.ok,
                           severity=self.severity,  # type: ignore[arg-type]
                           message=self.message, expected=self.expected, actual=self.actual,
                           details=self.details,
                           challenge=None if challenge is None else challenge.to_model())


def results_from(checks: Iterable[Check]) -> list[CheckResult]:
    """The pydantic ``CheckResult`` of every check, in order."""
    return [c.to_model() for c in checks]


def ok_from(checks: Iterable[Check]) -> bool:
    """``VerificationResult.ok`` of these checks: no error-severity failure."""
    return not any(c.failed for c in checks)


__all__ = ["Challenge", "Check", "ok_from", "results_from"]
