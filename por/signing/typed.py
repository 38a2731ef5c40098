"""Detached EIP-712 structs signed with secp256k1: the part verdict-like records share.

The court's ``Ruling`` (SPEC §16.7) and the locked judges' ``Judgement``
(SPEC §15.10) are fixed structs whose members are each one 32-byte word
(EIP-712 ``encodeData``: ``bytes32`` as is, integers and ``bool`` big-endian).
They are signed in the domain of SPEC §8.2 (name ``por``, version ``1``, chain
id, verifying contract) with the secp256k1 stack of SPEC §8.5: 65 bytes
``r || s || v``, low ``s``, ``v`` in {27, 28}, the zero signer refused.  This
module holds that shared part: words, digest, signing (the validity period and
the trust rules are ``por.signing.policy``'s).
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from por.errors import SignatureError
from por.signing import secp256k1
from por.signing.eip712 import Eip712Domain, domain_separator, keccak256
from por.signing.policy import TrustPolicy, period_failures

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


__all__ = ["Address", "Signature65", "sign_typed", "typed_digest", "typed_signature_failures",
           "word"]
