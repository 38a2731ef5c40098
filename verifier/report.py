"""VerificationReport: what ``check_bundle`` returns (SPEC §6.3).

The pydantic form of :class:`verifier.report_form.Report`.  ``status`` is
``verified`` (exit 0), ``rejected`` (exit 1: the bundle is not
exactly valid) or ``error`` (exit 2: no verdict, e.g. an unsupported version).
"""

from __future__ import annotations

from typing import Any

from por.schemas.base import Bps, Hash32, Id, Model
from por.schemas.verification import CheckResult
from verifier.report_form import EXIT_CODES, Status, report_document


class VerificationReport(Model):
    """Every check run, the status, and the verdict when one was read."""

    status: Status
    checks: list[CheckResult]
    market_id: Id | None = None
    outcome: str | None = None
    confidence_bps: Bps | None = None
    resolution_rule_id: str | None = None
    por_root: Hash32 | None = None

    @property
    def exit_code(self) -> int:
        """0 verified, 1 rejected, 2 no verdict (SPEC §11)."""
        return EXIT_CODES[self.status]

    @property
    def ok(self) -> bool:
        """True iff the bundle verified."""
        return self.status == "verified"

    @property
    def first_failure(self) -> CheckResult | None:
        """The first failed check (the one to act on), if any."""
        return next((c for c in self.checks if not c.ok and c.severity == "error"), None)

    def to_json_obj(self) -> dict[str, Any]:
        """JSON form: hashes as lower-case hex, absent values omitted."""
        return self.model_dump(mode="json", exclude_none=True)

    def to_document(self, input_name: str) -> dict[str, Any]:
        """The result of input ``input_name`` in the verify report (``por/verify-report/1``)."""
        return report_document(input_name, self)


__all__ = ["EXIT_CODES", "Status", "VerificationReport"]
