"""The replaying verifier (SPEC §6): bytes in, a report out.

``check_bundle`` returns a :class:`VerificationReport` and never raises for a
bad bundle; ``verify_bundle`` raises ``VerificationError`` with the first
failure.  Both replay the auditor and the judge from the committed inputs.
"""

from verifier.api import check_bundle, verify_bundle
from verifier.report import EXIT_CODES, VerificationReport

__all__ = ["EXIT_CODES", "VerificationReport", "check_bundle", "verify_bundle"]
