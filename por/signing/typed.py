"""Detached EIP-712 structs signed with secp256k1: the part verdict-like records share.

The court's ``Ruling`` (SPEC §16.7) and the locked judges' ``Judgement``
(SPEC §15.10) are fixed structs whose members are each one 32-byte word
(EIP-712 ``encodeData``: ``bytes32`` as is, integers and ``bool`` big-endian).
They are signed in the domain of SPEC §8.2 (name ``por``, version ``1``, chain
id, verifying contract) with the secp256k1 stack of SPEC §8.5: 65 bytes
``r || s || v``, low ``s``, ``v`` in {27, 28}, the zero signer refused.  This
module holds that shared part: words, digest, signing, and the record both
signature files are (:class:`TypedSignature`: the signed struct's members, the
domain, the signer); the validity period and the trust rules are
``por.signing.policy``'s.
"""

from __future__ import annotations

from dataclasses import fields
from typing import TYPE_CHECKING, Annotated, Literal, Self, TypeVar

from pydantic import Field

from por.errors import SignatureError
from por.schemas.base import Count, Record
from por.signing import secp256k1
from por.signing.eip712 import Eip712Domain, domain_separator, keccak256
from por.signing.policy import TrustPolicy, period_failures

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

#: A 20-byte Ethereum address (a signer or a verifying contract).
Address = Annotated[bytes, Field(min_length=20, max_length=20)]
#: A 65-byte secp256k1 signature ``r || s || v``.
Signature65 = Annotated[bytes, Field(min_length=65, max_length=65)]


def word(value: int | bool) -> bytes:
    """One EIP-712 word of an unsigned integer or a bool (big-endian, 32 bytes)."""
    return int(value).to_bytes(32, "big")


def typed_signature_failures(policy: TrustPolicy, *, chain_id: int, contract: bytes,
                             signer: bytes, signature: bytes, digest: bytes, issued_at: int,
                             expires_at: int) -> list[SignatureError]:
    """Every failure of a detached typed signature (a ``Judgement``, a ``Ruling``)
    under ``policy``, in SPEC §8.5's order: a broken validity period first (broken
    whatever the domain), the domain, the signature over ``digest``, the signer,
    then the period at ``policy.now``."""
    failures = period_failures(issued_at, expires_at, None)
    failures += policy.domain_failures(chain_id, contract)
    try:
        secp256k1.verify_digest(signer, digest, signature)
    except SignatureError as exc:
        failures.append(exc)
    failures += policy.signer_failures(signer)
    if issued_at <= expires_at:
        failures += policy.period_failures(issued_at, expires_at)
    return failures


def typed_digest(type_hash: bytes, words: list[bytes], domain: Eip712Domain) -> bytes:
    """keccak256(0x1901 || domainSeparator || keccak256(typeHash || words))."""
    struct_hash = keccak256(type_hash + b"".join(words))
    return keccak256(b"\x19\x01" + domain_separator(domain) + struct_hash)


def sign_typed(secret: bytes, digest: bytes) -> tuple[bytes, bytes]:
    """``(signer address, 65-byte low-s signature)`` of ``digest`` with a secp256k1 key."""
    signature = secp256k1.sign_digest(secret, digest)
    signer = secp256k1.address_from_public_key(secp256k1.public_key_from_secret(secret))
    return signer, signature


S = TypeVar("S", bound="DataclassInstance")


class TypedSignature(Record):
    """A detached typed signature (``por.JudgementSignature/1``, ``por.RulingSignature/1``,
    ``por.PreregistrationSignature/1``):
    the fields declared here, and the signed struct's members (a frozen dataclass
    in EIP-712 member order, among them ``issued_at`` and ``expires_at``) declared
    by the subclass under the same names.  Canonical bytes sort the keys (SPEC §2),
    so where a field is declared does not change a byte."""

    scheme: Literal["secp256k1"]
    chain_id: Count
    verifying_contract: Address
    issued_at: Count
    expires_at: Count
    signer: Address
    signature: Signature65

    @classmethod
    def signed(cls, struct: DataclassInstance, domain: Eip712Domain, secret: bytes,
               digest: bytes) -> Self:
        """The record of ``struct`` signed over ``digest`` with a secp256k1 key in ``domain``."""
        signer, signature = sign_typed(secret, digest)
        values = {f.name: getattr(struct, f.name) for f in fields(struct)}
        return cls(scheme="secp256k1", chain_id=domain.chain_id,
                   verifying_contract=domain.verifying_contract, signer=signer,
                   signature=signature, **values)

    def signed_values(self, struct: type[S]) -> S:
        """The signed values: ``struct`` made of this record's fields of its names."""
        return struct(**{f.name: getattr(self, f.name) for f in fields(struct)})

    def domain(self) -> Eip712Domain:
        """The EIP-712 domain it was signed in."""
        return Eip712Domain(chain_id=self.chain_id, verifying_contract=self.verifying_contract)

    def failures(self, policy: TrustPolicy, digest: bytes) -> list[SignatureError]:
        """:func:`typed_signature_failures` of this record over ``digest``."""
        return typed_signature_failures(
            policy, chain_id=self.chain_id, contract=self.verifying_contract,
            signer=self.signer, signature=self.signature, digest=digest,
            issued_at=self.issued_at, expires_at=self.expires_at)


def differing(want: DataclassInstance, got: DataclassInstance) -> list[str]:
    """The names of the members in which two signed structs differ, in member order."""
    return [f.name for f in fields(want) if getattr(want, f.name) != getattr(got, f.name)]


__all__ = ["Address", "Signature65", "TypedSignature", "differing", "sign_typed",
           "typed_digest", "typed_signature_failures", "word"]
