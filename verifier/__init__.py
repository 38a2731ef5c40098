"""The replaying verifier (SPEC §6): bytes in, a report out.

``check_bundle`` returns a :class:`Report` (a :class:`VerificationReport`,
or with ``lean=True`` possibly the fast path's pydantic-free report) and never
raises for a bad bundle; ``verify_bundle`` raises ``VerificationError`` with
the first failure.  Both replay the auditor and the judge from the committed
inputs; options are keywords or one frozen :class:`VerifyOptions`.
``VerificationReport`` (pydantic) is loaded on first use, so the fast path of
an honest bundle never imports pydantic.
"""

from typing import Any

from verifier.api import check_bundle, verify_bundle
from verifier.options import VerifyOptions
from verifier.report_form import Report, ReportChallenge, ReportCheck


def __getattr__(name: str) -> Any:
    if name in {"EXIT_CODES", "VerificationReport"}:
        from verifier import report  # noqa: PLC0415

        return getattr(report, name)
    raise AttributeError(f"module 'verifier' has no attribute {name!r}")


__all__ = ["EXIT_CODES", "Report", "ReportChallenge", "ReportCheck", "VerificationReport",
           "VerifyOptions", "check_bundle", "verify_bundle"]
