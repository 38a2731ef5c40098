"""Mutable state threaded through the numbered verification steps.

Kept apart from the steps so that each step reads as the SPEC text does: take
what earlier steps established, add checks, stop at the first failing step.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NoReturn

from por.errors import PorError
from por.schemas.verification import ChallengeRef, CheckResult


class StepFailed(Exception):
    # Control flow between steps, not an error a user sees: no ``Error`` suffix.
    """Raised inside a step after it recorded a failing check; ends verification."""

    def __init__(self, status: str) -> None:
        super().__init__(status)
        self.status = status


def _hex(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, bytes | bytearray):
        return bytes(value).hex()
    return str(value)


@dataclass
class Context:
    """What the steps have established so far, and the checks they recorded."""

    data: bytes
    options: dict[str, Any]
    checks: list[CheckResult] = field(default_factory=list)
    parts: dict[str, Any] = field(default_factory=dict)

    def passed(self, check_id: str, message: str) -> None:
        """Record a passing check."""
        self.checks.append(CheckResult(check_id=check_id, ok=True, severity="info",
                                       message=message))

    def failed(
        self,
        check_id: str,
        message: str,
        *,
        expected: Any = None,
        actual: Any = None,
        challenge: ChallengeRef | None = None,
        status: str = "rejected",
    ) -> NoReturn:
        """Record a failing check and end verification with ``status``."""
        self.checks.append(CheckResult(
            check_id=check_id, ok=False, severity="error", message=message,
            expected=_hex(expected), actual=_hex(actual), challenge=challenge,
        ))
        raise StepFailed(status)

    def from_error(self, exc: PorError, *, challenge: ChallengeRef | None = None,
                   status: str = "rejected") -> NoReturn:
        """Record a PorError as a failing check and stop."""
        ref = challenge if challenge is not None else _as_ref(exc.challenge)
        self.failed(exc.check_id, exc.message, expected=exc.expected, actual=exc.actual,
                    challenge=ref, status=status)


def _as_ref(value: Any) -> ChallengeRef | None:
    return value if isinstance(value, ChallengeRef) else None


__all__ = ["Context", "StepFailed"]
