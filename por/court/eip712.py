"""The court's signed ruling (SPEC §16.7): the EIP-712 ``Ruling`` struct and its record.

Same domain as verdicts (SPEC §8.2: name ``por``, version ``1``, chain id, the
registry's address), same secp256k1 stack (:mod:`por.signing`): 65 bytes
``r || s || v`` with low ``s``.  Every member is one 32-byte word (EIP-712
``encodeData``; ``bool`` is 0 or 1).  The registry's ``submitRuling`` accepts
a ruling signed by its resolver's key for an open challenge on exactly this
market and leaf (SPEC §14.4).  A ``por.RulingSignature/1`` is the signed
struct plus the domain and the signer, checkable offline against a ruling.cbor.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, ClassVar, Literal

from pydantic import Field

from por.court.errors import CourtError
from por.court.verify import CourtSummary
from por.errors import SignatureError
from por.schemas.base import Hash32
from por.signing.eip712 import Eip712Domain, keccak256
from por.signing.policy import TrustPolicy, raise_first
from por.signing.typed import TypedSignature, differing, typed_digest, word

RULING_TYPE = ("Ruling(bytes32 challengeId,bytes32 marketKey,bytes32 leafHash,bool upheld,"
               "uint8 workerPct,bytes32 caseHash,bytes32 courtRoot,uint64 issuedAt,"
               "uint64 expiresAt)")
_RULING_TYPE_HASH = keccak256(RULING_TYPE.encode("ascii"))


@dataclass(frozen=True)
class RulingStruct:
    """The nine signed values, in EIP-712 member order."""

    challenge_id: bytes
    market_key: bytes
    leaf_hash: bytes
    upheld: bool
    worker_pct: int
    case_hash: bytes
    court_root: bytes
    issued_at: int
    expires_at: int

    def words(self) -> list[bytes]:
        """``encodeData``: nine 32-byte words."""
        return [self.challenge_id, self.market_key, self.leaf_hash, word(self.upheld),
                word(self.worker_pct), self.case_hash, self.court_root, word(self.issued_at),
                word(self.expires_at)]


def ruling_digest(ruling: RulingStruct, domain: Eip712Domain) -> bytes:
    """keccak256(0x1901 || domainSeparator || keccak256(typeHash || words))."""
    return typed_digest(_RULING_TYPE_HASH, ruling.words(), domain)


def ruling_struct(summary: CourtSummary, *, issued_at: int, expires_at: int) -> RulingStruct:
    """The struct of a verified court bundle's final ruling (``court.no_ruling`` if none)."""
    final = summary.final
    if final.status != "ruled" or final.worker_pct is None:
        raise CourtError("court.no_ruling", "the court did not rule: nothing to sign",
                         expected="ruled", actual=final.status)
    case = summary.case
    return RulingStruct(challenge_id=case.challenge_id, market_key=case.market_key,
                        leaf_hash=case.leaf_hash, upheld=final.decision == "upheld",
                        worker_pct=final.worker_pct, case_hash=summary.case_hash,
                        court_root=summary.court_root, issued_at=issued_at,
                        expires_at=expires_at)


class RulingSignature(TypedSignature):
    """A signed ruling (``ruling.sig.cbor``)."""

    SCHEMA: ClassVar[str] = "por.RulingSignature/1"

    record_schema: Literal["por.RulingSignature/1"] = Field("por.RulingSignature/1",
                                                            alias="schema")
    challenge_id: Hash32
    market_key: Hash32
    leaf_hash: Hash32
    upheld: bool
    worker_pct: Annotated[int, Field(ge=0, le=100)]
    case_hash: Hash32
    court_root: Hash32

    def struct(self) -> RulingStruct:
        """The signed values."""
        return self.signed_values(RulingStruct)


def sign_ruling(ruling: RulingStruct, secret: bytes, domain: Eip712Domain) -> RulingSignature:
    """Sign ``ruling`` with a secp256k1 key."""
    return RulingSignature.signed(ruling, domain, secret, ruling_digest(ruling, domain))


def ruling_signature_failures(record: RulingSignature, summary: CourtSummary,
                              policy: TrustPolicy) -> list[SignatureError]:
    """Every failure of the signature of SPEC §8.5 under ``policy``: a broken
    validity period first, the domain, the signature itself, the signer, the
    period at ``policy.now``.

    ``court.ruling_mismatch`` (a signed value is not the bundle's) is raised.
    """
    want = ruling_struct(summary,
        issued_at=record.issued_at, expires_at=record.expires_at)
    got = record.struct()
    if got != want:
        raise CourtError("court.ruling_mismatch", "the signed ruling is not this court's",
                         expected="the final ruling", actual=",".join(differing(want, got)))
    return record.failures(policy, ruling_digest(got, record.domain()))


def check_ruling_signature(record: RulingSignature, summary: CourtSummary) -> None:
    """The signature verifies and signs exactly this bundle's final ruling.

    ``court.ruling_mismatch`` if a signed value is not the bundle's; the
    ``signature.*`` ids of SPEC §8.5 for the signature itself.
    """
    raise_first(ruling_signature_failures(record, summary, TrustPolicy()))


__all__ = ["RULING_TYPE", "RulingSignature", "RulingStruct", "check_ruling_signature",
           "ruling_digest", "ruling_signature_failures", "ruling_struct", "sign_ruling"]
