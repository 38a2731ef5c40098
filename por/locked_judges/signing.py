"""A detached signature over a judgement bundle (SPEC §15.10): the EIP-712 ``Judgement``.

Judgement bundles carry no signatures of their own (``judgement.signature_unsupported``
for a non-empty in-bundle list): the judgement root must not depend on who
signed, so the same judgement can be countersigned by anyone without changing
its id.  A ``por.JudgementSignature/1`` (``judgement.sig.cbor``) is the signed
struct, the domain and the signer, checked offline against a judgement.cbor.
Same domain (SPEC §8.2) and secp256k1 stack (SPEC §8.5) as verdicts and court
rulings, through :mod:`por.signing.typed`.

Members: ``judgementRoot`` commits everything (manifest, subjects, every call,
votes, report); ``manifestDigest`` names the lock, so a consumer can require a
judge without opening the bundle; ``subjectCount`` and ``voteCount`` say what
is vouched for (a partial batch shows fewer votes than subjects); ``issuedAt``
and ``expiresAt`` are the validity period of SPEC §8.5.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from pydantic import Field

from por.errors import SignatureError
from por.locked_judges.errors import JudgementError
from por.locked_judges.verify import JudgementSummary
from por.schemas.base import Count, Hash32
from por.signing.eip712 import Eip712Domain, keccak256
from por.signing.policy import TrustPolicy, raise_first
from por.signing.typed import TypedSignature, differing, typed_digest, word

JUDGEMENT_TYPE = ("Judgement(bytes32 judgementRoot,bytes32 manifestDigest,uint64 subjectCount,"
                  "uint64 voteCount,uint64 issuedAt,uint64 expiresAt)")
_JUDGEMENT_TYPE_HASH = keccak256(JUDGEMENT_TYPE.encode("ascii"))
#: The detached signature file ``por judge sign`` writes by default.
SIGNATURE_FILE = "judgement.sig.cbor"


@dataclass(frozen=True)
class JudgementStruct:
    """The six signed values, in EIP-712 member order."""

    judgement_root: bytes
    manifest_digest: bytes
    subject_count: int
    vote_count: int
    issued_at: int
    expires_at: int

    def words(self) -> list[bytes]:
        """``encodeData``: six 32-byte words."""
        return [self.judgement_root, self.manifest_digest, word(self.subject_count),
                word(self.vote_count), word(self.issued_at), word(self.expires_at)]


def judgement_digest(judgement: JudgementStruct, domain: Eip712Domain) -> bytes:
    """keccak256(0x1901 || domainSeparator || hashStruct(judgement))."""
    return typed_digest(_JUDGEMENT_TYPE_HASH, judgement.words(), domain)


def judgement_struct(summary: JudgementSummary, *, issued_at: int,
                     expires_at: int) -> JudgementStruct:
    """The struct of a verified judgement bundle."""
    return JudgementStruct(judgement_root=summary.judgement_root,
                           manifest_digest=summary.manifest.digest(),
                           subject_count=len(summary.subjects), vote_count=len(summary.votes),
                           issued_at=issued_at, expires_at=expires_at)


class JudgementSignature(TypedSignature):
    """A signed judgement (``judgement.sig.cbor``)."""

    SCHEMA: ClassVar[str] = "por.JudgementSignature/1"

    record_schema: Literal["por.JudgementSignature/1"] = Field("por.JudgementSignature/1",
                                                               alias="schema")
    judgement_root: Hash32
    manifest_digest: Hash32
    subject_count: Count
    vote_count: Count

    def struct(self) -> JudgementStruct:
        """The signed values."""
        return self.signed_values(JudgementStruct)


def sign_judgement(judgement: JudgementStruct, secret: bytes,
                   domain: Eip712Domain) -> JudgementSignature:
    """Sign ``judgement`` with a secp256k1 key."""
    return JudgementSignature.signed(judgement, domain, secret,
                                     judgement_digest(judgement, domain))


def judgement_signature_failures(record: JudgementSignature, summary: JudgementSummary,
                                 policy: TrustPolicy) -> list[SignatureError]:
    """Every failure of the signature of SPEC §8.5 under ``policy``, in its order:
    a broken validity period first (broken whatever the domain), the domain,
    the signature itself, the signer, the period at ``policy.now``.

    ``judgement.signature_mismatch`` (a signed value is not this bundle's) is
    raised: the signature is then of another document, not bad.
    """
    want = judgement_struct(summary,
        issued_at=record.issued_at, expires_at=record.expires_at)
    got = record.struct()
    if got != want:
        raise JudgementError("judgement.signature_mismatch",
                             "the signed judgement is not this bundle's",
                             expected="this judgement", actual=",".join(differing(want, got)))
    return record.failures(policy, judgement_digest(got, record.domain()))


def check_judgement_signature(record: JudgementSignature, summary: JudgementSummary, *,
                              now: int | None = None,
                              domain: Eip712Domain | None = None,
                              trusted: list[bytes] | None = None) -> None:
    """The signature verifies and signs exactly this judgement, in order:

    ``judgement.signature_mismatch`` (a signed value is not this bundle's),
    ``signature.expired`` for a period that ends before it begins,
    ``signature.chain_id`` / ``signature.contract`` (``domain`` given and not
    the record's), ``signature.*`` of SPEC §8.5 (encoding, recovery),
    ``signature.untrusted_key`` (``trusted`` given and the signer not in it),
    then the period (``signature.expired`` / ``signature.not_yet_valid``).
    """
    policy = TrustPolicy.of(trusted, now=now,
                            chain_id=None if domain is None else domain.chain_id,
                            contract=None if domain is None else domain.verifying_contract)
    raise_first(judgement_signature_failures(record, summary, policy))


__all__ = ["JUDGEMENT_TYPE", "SIGNATURE_FILE", "JudgementSignature", "JudgementStruct",
           "check_judgement_signature", "judgement_digest", "judgement_signature_failures",
           "judgement_struct",
           "sign_judgement"]
