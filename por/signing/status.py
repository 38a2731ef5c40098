"""One gpg-like status per signature, whatever record it signs.

gpg prints GOODSIG / BADSIG / EXPSIG with the key and, for a good signature by
a key nobody vouched for, "not certified with a trusted signature".  Every
verifying command of por (``por verify`` for verdict signatures, ``por judge
verify --signature``, ``por court verify --signature``) says the same five
things in the same words: a signature is ``good``, ``bad`` (broken: it rejects
the document whoever made it; a validity period that ends before it begins is
broken), ``expired``, ``not_yet_valid`` or ``other_domain`` (good, but for
another chain id or verifying contract: SPEC §6.2 step 8); and its signer is
``trusted`` (one of the given keys), ``untrusted`` (keys were given, not this
one) or ``not_certified`` (no key was given).

:func:`classify` turns the failures of one signature (SPEC §8.5, every rule
but trust) into a status; :func:`status_document` is its JSON object (the
``signatures`` arrays of the ``--json`` documents) and :func:`status_text` its
text line.  Pure values: no I/O, no clock.  Leaves out: the checks
themselves (``por.signing.record``, ``por.signing.typed``) and the policy
(``por.signing.policy``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from por.errors import SignatureError
from por.signing.checks import (
    CHECK_CHAIN_ID,
    CHECK_CONTRACT,
    CHECK_EXPIRED,
    CHECK_NOT_YET_VALID,
)
from por.signing.display import signer_text
from por.signing.policy import TrustPolicy

Status = Literal["good", "bad", "expired", "not_yet_valid", "other_domain"]
Trust = Literal["trusted", "untrusted", "not_certified"]

#: Every status, in the order a schema lists them.
STATUSES: tuple[Status, ...] = ("good", "bad", "expired", "not_yet_valid", "other_domain")
TRUSTS: tuple[Trust, ...] = ("trusted", "untrusted", "not_certified")

_DOMAIN = frozenset({CHECK_CHAIN_ID, CHECK_CONTRACT})
_PERIOD = {CHECK_EXPIRED: "expired", CHECK_NOT_YET_VALID: "not_yet_valid"}


@dataclass(frozen=True, slots=True)
class SignatureStatus:
    """One signature's status: what it is, who made it, whether they are trusted.

    ``failure``: the failure that decided the status (``None`` for ``good``).
    """

    index: int
    status: Status
    scheme: str
    signer: bytes
    trust: Trust
    failure: SignatureError | None = None

    @property
    def signer_text(self) -> str:
        """``0x`` + EIP-55 for an address, ``0x`` + hex for an Ed25519 key."""
        return signer_text(self.scheme, self.signer)

    @property
    def counts(self) -> bool:
        """Good, for this deployment, within its period, by a trusted signer."""
        return self.status == "good" and self.trust == "trusted"


def trust_of(policy: TrustPolicy, signer: bytes) -> Trust:
    """``trusted`` / ``untrusted`` by the policy's keys; ``not_certified`` without keys."""
    if policy.trusted is None:
        return "not_certified"
    return "trusted" if signer in policy.trusted else "untrusted"


def classify(failures: Sequence[SignatureError], *, issued_at: int,
             expires_at: int) -> tuple[Status, SignatureError | None]:
    """The status of one signature from its failures (trust not among them).

    A broken period (``issued_at > expires_at``) is ``bad`` and reported as
    such (``signature.expired``) before any domain failure: SPEC §6.2 step 8
    sets aside only good signatures for another deployment.
    """
    if issued_at > expires_at:
        broken = next((f for f in failures if f.check_id == CHECK_EXPIRED), None)
        return "bad", broken if broken is not None else (failures[0] if failures else None)
    bad = [f for f in failures if f.check_id not in _DOMAIN and f.check_id not in _PERIOD]
    if bad:
        return "bad", bad[0]
    domain = [f for f in failures if f.check_id in _DOMAIN]
    if domain:
        return "other_domain", domain[0]
    if failures:
        first = failures[0]
        return ("expired" if first.check_id == CHECK_EXPIRED else "not_yet_valid"), first
    return "good", None


def status_document(status: SignatureStatus) -> dict[str, int | str | None]:
    """The JSON object of one signature (the ``signatures`` arrays)."""
    failure = status.failure
    return {
        "index": status.index,
        "status": status.status,
        "scheme": status.scheme,
        "signer": status.signer_text,
        "trust": status.trust,
        "check_id": None if failure is None else failure.check_id,
        "message": None if failure is None else failure.message,
    }


_TRUST_TEXT: dict[str, str] = {
    "trusted": "trusted (a given key)",
    "untrusted": "NOT trusted (not a given key)",
    "not_certified": "not certified (no key given)",
}


def status_text(document: dict[str, int | str | None]) -> str:
    """One line, gpg-like: ``signature 0: good by 0xAbC… (secp256k1), trusted``."""
    words = str(document["status"]).replace("_", " ")
    line = (f"signature {document['index']}: {words} by {document['signer']} "
            f"({document['scheme']}), {_TRUST_TEXT[str(document['trust'])]}")
    if document.get("check_id") is not None:
        line += f": {document['check_id']}: {document['message']}"
    return line


__all__ = ["STATUSES", "TRUSTS", "SignatureStatus", "Status", "Trust", "classify",
           "status_document", "status_text", "trust_of"]
