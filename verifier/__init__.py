"""The replaying verifier (SPEC §6): bytes in, a report out.

``check_bundle`` returns a :class:`VerificationReport` and never raises for a
bad bundle; ``verify_bundle`` raises ``VerificationError`` with the first
failure.  Both replay the auditor and the judge from the committed inputs.
``VerificationReport`` (pydantic) is loaded on first use, so the fast path of
an honest bundle never imports pydantic.
"""

from typing import Any

from verifier.api import check_bundle, verify_bundle


def __getattr__(name: str) -> Any:
    if name in {"EXIT_CODES", "VerificationReport"}:
        from verifier import report  # noqa: PLC0415

        return getattr(report, name)
    raise AttributeError(f"module 'verifier' has no attribute {name!r}")


__all__ = ["EXIT_CODES", "VerificationReport", "check_bundle", "verify_bundle"]
