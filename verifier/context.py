"""The checks recorded while the numbered verification steps run.

Kept apart from the steps so that each step reads as the SPEC text does: take
what earlier steps established (typed values, ``verifier.stages``), add
checks, stop at the first failing step.  Besides the checks the context keeps
only the options and what the report shows of a bundle that failed later (the
bundle and the verdict it claims).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NoReturn

from por.errors import PorError
from por.schemas.verification import ChallengeRef, CheckResult
from verifier.options import VerifyOptions
from verifier.report_form import Status

if TYPE_CHECKING:
    from por.bundle.layout import Bundle
    from por.schemas import DeterministicVerdict
    from por.schemas.base import Value


class StepFailed(Exception):
    # Control flow between steps, not an error a user sees: no ``Error`` suffix.
    """Raised inside a step after it recorded a failing check; ends verification."""

    def __init__(self, status: Status) -> None:
        super().__init__(status)
        self.status = status


def _hex(value: object) -> str | None:
    if value is None:
        return None
    if isinstance(value, bytes | bytearray):
        return bytes(value).hex()
    return str(value)


@dataclass
class Context:
    """What the steps have established so far, and the checks they recorded."""

    data: bytes
    options: VerifyOptions
    checks: list[CheckResult] = field(default_factory=list)
    #: The bundle once step 2 has read it, and the verdict it claims: the report
    #: shows them even when a later step fails (not verified, then).
    bundle: Bundle | None = None
    verdict: DeterministicVerdict | None = None

    def passed(self, check_id: str, message: str, *,
               details: dict[str, Value] | None = None) -> None:
        """Record a passing check."""
        self.checks.append(CheckResult(check_id=check_id, ok=True, severity="info",
                                       message=message, details=details))

    def failed(
        self,
        check_id: str,
        message: str,
        *,
        expected: object = None,
        actual: object = None,
        challenge: ChallengeRef | None = None,
        status: Status = "rejected",
        details: dict[str, Value] | None = None,
    ) -> NoReturn:
        """Record a failing check and end verification with ``status``."""
        self.checks.append(CheckResult(
            check_id=check_id, ok=False, severity="error", message=message,
            expected=_hex(expected), actual=_hex(actual), challenge=challenge,
            details=details,
        ))
        raise StepFailed(status)

    def from_error(self, exc: PorError, *, challenge: ChallengeRef | None = None,
                   status: Status = "rejected") -> NoReturn:
        """Record a PorError as a failing check and stop."""
        ref = challenge if challenge is not None else _as_ref(exc.challenge)
        self.failed(exc.check_id, exc.message, expected=exc.expected, actual=exc.actual,
                    challenge=ref, status=status)


def _as_ref(value: object) -> ChallengeRef | None:
    return value if isinstance(value, ChallengeRef) else None


__all__ = ["Context", "StepFailed"]
