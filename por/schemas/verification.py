"""CheckResult, VerificationResult and ChallengeRef (SPEC §4.6).

These are reports, not commitments: they are not hashed into a bundle, but
they follow the same rules (no floats, stable ids) so that two runs print the
same bytes.
"""

from __future__ import annotations

from typing import Any, Literal

from por.lean.writer_hooks import check_document
from por.schemas.base import Count, Id, Model, Value

ChallengeKind = Literal["evidence_leaf", "reasoning_leaf", "por_bundle", "prompt_spec",
                        "verdict"]
Severity = Literal["info", "warn", "error"]


class ChallengeRef(Model):
    """Names the leaf a challenger should dispute (SPEC §10)."""

    kind: ChallengeKind
    evidence_id: Id | None = None
    step_id: Id | None = None
    leaf_index: Count | None = None
    reason: str | None = None


class CheckResult(Model):
    """One check: a stable id, pass/fail, and where it failed."""

    check_id: Id
    ok: bool
    severity: Severity
    message: str
    expected: str | None = None
    actual: str | None = None
    details: dict[str, Value] | None = None
    challenge: ChallengeRef | None = None

    def to_document(self) -> dict[str, Any]:
        """The check's JSON object in a verify report (``por/verify-report/1``,
        :func:`~por.lean.writer_hooks.check_document`, SPEC §6.3)."""
        challenge = self.challenge
        return check_document(self, None if challenge is None
                              else challenge.model_dump(mode="json", exclude_none=True))


class VerificationResult(Model):
    """A list of checks; ``ok`` iff no check with severity ``error`` failed."""

    ok: bool
    checks: list[CheckResult]
    challenge: ChallengeRef | None = None

    @classmethod
    def from_checks(cls, checks: list[CheckResult]) -> VerificationResult:
        """``ok`` derived from the checks; ``challenge`` is the first failing one's."""
        failed = [c for c in checks if not c.ok and c.severity == "error"]
        challenge = next((c.challenge for c in failed if c.challenge is not None), None)
        return cls(ok=not failed, checks=checks, challenge=challenge)


__all__ = ["ChallengeKind", "ChallengeRef", "CheckResult", "Severity", "VerificationResult"]
