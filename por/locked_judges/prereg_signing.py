"""A detached signature over a run's pre-registration (SPEC §15.11): EIP-712 ``Preregistration``.

An operator signs the pre-registration before the run's first call and
publishes it: two signed pre-registrations of the same judges and subjects
(run 1, run 2) are then the operator's own proof of a re-run.  Same domain
(SPEC §8.2) and secp256k1 stack (SPEC §8.5) as judgements (§15.10), through
:mod:`por.signing.typed`.

Members: ``preregistrationDigest`` (SHA-256 of the ``por.JudgePreregistration/1``
bytes: commits the panel, the subjects and the run), ``run`` (shown so a reader
of the struct sees the run number without the record), ``issuedAt`` and
``expiresAt`` (the validity period of SPEC §8.5).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from pydantic import Field

from por.errors import SignatureError
from por.locked_judges.chain import preregistration_digest
from por.locked_judges.errors import JudgementError
from por.locked_judges.records import MAX_RUN, JudgePreregistration
from por.schemas.base import Count, Hash32
from por.signing.eip712 import Eip712Domain, keccak256
from por.signing.policy import TrustPolicy
from por.signing.typed import TypedSignature, typed_digest, word

PREREGISTRATION_TYPE = ("Preregistration(bytes32 preregistrationDigest,uint64 run,"
                        "uint64 issuedAt,uint64 expiresAt)")
_TYPE_HASH = keccak256(PREREGISTRATION_TYPE.encode("ascii"))


@dataclass(frozen=True)
class PreregistrationStruct:
    """The four signed values, in EIP-712 member order."""

    preregistration_digest: bytes
    run: int
    issued_at: int
    expires_at: int

    def words(self) -> list[bytes]:
        """``encodeData``: four 32-byte words."""
        return [self.preregistration_digest, word(self.run), word(self.issued_at),
                word(self.expires_at)]


def preregistration_struct(record: JudgePreregistration, *, issued_at: int,
                           expires_at: int) -> PreregistrationStruct:
    """The struct of a pre-registration."""
    return PreregistrationStruct(preregistration_digest(record), record.run, issued_at,
                                 expires_at)


def preregistration_typed_digest(struct: PreregistrationStruct, domain: Eip712Domain) -> bytes:
    """keccak256(0x1901 || domainSeparator || hashStruct(struct))."""
    return typed_digest(_TYPE_HASH, struct.words(), domain)


class PreregistrationSignature(TypedSignature):
    """A signed pre-registration (``PREREG.sig.cbor``)."""

    SCHEMA: ClassVar[str] = "por.PreregistrationSignature/1"

    record_schema: Literal["por.PreregistrationSignature/1"] = Field(
        "por.PreregistrationSignature/1", alias="schema")
    preregistration_digest: Hash32
    run: Count = Field(ge=1, le=MAX_RUN)

    def struct(self) -> PreregistrationStruct:
        """The signed values."""
        return self.signed_values(PreregistrationStruct)


def sign_preregistration(struct: PreregistrationStruct, secret: bytes,
                         domain: Eip712Domain) -> PreregistrationSignature:
    """Sign ``struct`` with a secp256k1 key."""
    return PreregistrationSignature.signed(struct, domain, secret,
                                           preregistration_typed_digest(struct, domain))


def preregistration_signature_failures(signed: PreregistrationSignature,
                                       record: JudgePreregistration,
                                       policy: TrustPolicy) -> list[SignatureError]:
    """Every failure of the signature under ``policy`` (SPEC §8.5 order); a signature
    of another pre-registration raises ``judgement.preregistration_signature``."""
    want = preregistration_struct(record, issued_at=signed.issued_at,
                                  expires_at=signed.expires_at)
    if signed.struct() != want:
        raise JudgementError("judgement.preregistration_signature",
                             "the signed pre-registration is not this run's",
                             expected=want.preregistration_digest,
                             actual=signed.preregistration_digest)
    return signed.failures(policy, preregistration_typed_digest(want, signed.domain()))


__all__ = ["PREREGISTRATION_TYPE", "PreregistrationSignature", "PreregistrationStruct",
           "preregistration_signature_failures", "preregistration_struct",
           "preregistration_typed_digest", "sign_preregistration"]
