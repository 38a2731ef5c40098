"""The gpg-like status of a detached signature, for ``por judge verify`` and
``por court verify`` (``por verify`` reads its statuses from the report).

A detached signature is one record: its failures (``por.locked_judges.signing``,
``por.court.eip712``) give one :class:`~por.signing.status.SignatureStatus`;
the command prints its line when it counts (the error line, ``por: <check
id>: <status> signature by <signer>: ...``, when it does not) and puts its
object in the ``signatures`` array of ``--json``.  A signature counts when it
is good and its signer is trusted or no key was given ("not certified");
otherwise the failure that keeps it from counting is raised (exit 1).
Leaves out: the checks (the packages).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from por.cli.common import safe_text
from por.errors import SignatureError
from por.signing.checks import CHECK_UNTRUSTED_KEY
from por.signing.policy import TrustPolicy
from por.signing.status import (
    SignatureStatus,
    classify,
    status_document,
    status_text,
    trust_of,
)


def detached_status(failures: Sequence[SignatureError], record: Any,
                    policy: TrustPolicy) -> SignatureStatus:
    """The status of a detached signature ``record`` (scheme, signer, period)."""
    untrusted = [f for f in failures if f.check_id != CHECK_UNTRUSTED_KEY]
    kind, failure = classify(untrusted, issued_at=record.issued_at,
                             expires_at=record.expires_at)
    return SignatureStatus(0, kind, record.scheme, record.signer,
                           trust_of(policy, record.signer), failure)


def settle(status: SignatureStatus, failures: Sequence[SignatureError]) -> dict[str, Any]:
    """The status's JSON object if the signature counts; else raise the failure
    that keeps it from counting (exit 1), its message naming the status and signer."""
    document = status_document(status)
    if status.status == "good" and status.trust != "untrusted":
        return document
    failure = status.failure
    if failure is None:
        failure = next(f for f in failures if f.check_id == CHECK_UNTRUSTED_KEY)
    words = "good signature, signer not trusted" if status.status == "good" else (
        status.status.replace("_", " ") + " signature")
    raise SignatureError(failure.check_id,
                         f"{words} by {status.signer_text}: {failure.message}",
                         expected=failure.expected, actual=failure.actual)


def status_line(document: dict[str, Any]) -> str:
    """The indented text line of a status object."""
    return "  " + safe_text(status_text(document))


__all__ = ["detached_status", "settle", "status_line"]
