"""secp256k1 ECDSA over a 32-byte digest, in the form EVM ``ecrecover`` takes
(SPEC §8.4.1).

A signature is 65 bytes ``r || s || v``: ``r`` and ``s`` 32-byte big-endian,
``v`` one byte, 27 or 28 (27 + recovery id).  The signer is identified by its
Ethereum address, the last 20 bytes of keccak256 of the uncompressed public key
without its 0x04 prefix.  Signing uses libsecp256k1 (coincurve) with RFC 6979
deterministic nonces and always yields low ``s``.

Verification is stricter than ``ecrecover``, which accepts high ``s`` and
returns the zero address on failure: this module rejects ``s > n/2`` (the
malleable twin, EIP-2 / OpenZeppelin ECDSA), ``v`` outside {27, 28}, ``r`` or
``s`` of 0 or >= n, and a zero signer address.

Out of scope: hashing (the caller passes the EIP-712 digest), key files.
"""

from __future__ import annotations

import coincurve

from por.errors import SignatureError
from por.signing.checks import (
    CHECK_BAD_V,
    CHECK_HIGH_S,
    CHECK_INVALID,
    CHECK_MALFORMED,
    CHECK_ZERO_SIGNER,
)
from por.signing.eip712 import keccak256

#: The order of the secp256k1 group (SEC 2 §2.4.1).
N = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141
#: Largest accepted ``s`` (EIP-2): a signature with ``s > HALF_N`` is the twin.
HALF_N = N // 2

SIGNATURE_SIZE = 65
ADDRESS_SIZE = 20
SECRET_SIZE = 32
ZERO_ADDRESS = bytes(ADDRESS_SIZE)


def _require_digest(digest: bytes) -> None:
    if len(digest) != 32:
        raise ValueError("the digest must be 32 bytes")


def valid_secret(secret: bytes) -> bool:
    """True iff ``secret`` is a 32-byte scalar in 1..n-1."""
    return len(secret) == SECRET_SIZE and 1 <= int.from_bytes(secret, "big") < N


def public_key_from_secret(secret: bytes) -> bytes:
    """The 33-byte compressed SEC 1 public key of a 32-byte secret."""
    return coincurve.PrivateKey(secret).public_key.format(compressed=True)


def address_from_public_key(public_key: bytes) -> bytes:
    """The Ethereum address (20 bytes) of a SEC 1 public key (33 or 65 bytes).

    Raises ``ValueError`` if the bytes are not a point on the curve.
    """
    point = coincurve.PublicKey(public_key).format(compressed=False)
    return keccak256(point[1:])[-ADDRESS_SIZE:]


def sign_digest(secret: bytes, digest: bytes) -> bytes:
    """Sign a 32-byte digest: 65 bytes ``r || s || v`` with low ``s``, v in {27, 28}."""
    _require_digest(digest)
    raw = coincurve.PrivateKey(secret).sign_recoverable(digest, hasher=None)
    r = int.from_bytes(raw[:32], "big")
    s = int.from_bytes(raw[32:64], "big")
    recovery_id = raw[64]
    if s > HALF_N:
        # libsecp256k1 already normalises; kept so the invariant never depends on it.
        s, recovery_id = N - s, recovery_id ^ 1
    if recovery_id > 1:
        # Recovery ids 2 and 3 (r >= n - p) have probability about 2^-127 and
        # cannot be expressed as v in {27, 28}.
        raise ValueError("signature has a recovery id ecrecover cannot express")
    return r.to_bytes(32, "big") + s.to_bytes(32, "big") + bytes([27 + recovery_id])


def split_signature(signature: bytes) -> tuple[int, int, int]:
    """``(r, s, v)`` of a 65-byte signature after the encoding checks of SPEC §8.5
    step 1 (length, r and s in 1..n-1), step 2 (v in {27, 28}) and step 3 (low s)."""
    if len(signature) != SIGNATURE_SIZE:
        raise SignatureError(
            CHECK_MALFORMED,
            f"secp256k1 signature must be {SIGNATURE_SIZE} bytes",
            expected=SIGNATURE_SIZE, actual=len(signature),
        )
    r = int.from_bytes(signature[:32], "big")
    s = int.from_bytes(signature[32:64], "big")
    v = signature[64]
    if not (1 <= r < N and 1 <= s < N):
        raise SignatureError(CHECK_MALFORMED, "secp256k1 r and s must be in 1..n-1")
    if v not in (27, 28):
        raise SignatureError(CHECK_BAD_V, "v must be 27 or 28", expected="27 or 28", actual=v)
    if s > HALF_N:
        raise SignatureError(
            CHECK_HIGH_S, "s is in the upper half of the group order (malleable twin)",
            expected=f"s <= {HALF_N:#x}", actual=f"{s:#x}",
        )
    return r, s, v


def check_encoding(signer: bytes, signature: bytes) -> None:
    """SPEC §8.5 steps 1-4 for secp256k1: raise on the first encoding failure."""
    if len(signer) != ADDRESS_SIZE:
        raise SignatureError(
            CHECK_MALFORMED, f"secp256k1 signer must be a {ADDRESS_SIZE}-byte address",
            expected=ADDRESS_SIZE, actual=len(signer),
        )
    split_signature(signature)
    if signer == ZERO_ADDRESS:
        raise SignatureError(CHECK_ZERO_SIGNER, "the signer is the zero address")


def recover_address(digest: bytes, signature: bytes) -> bytes:
    """The address whose key made ``signature`` over ``digest`` (what
    ``ecrecover`` computes), after the encoding checks."""
    _require_digest(digest)
    r, s, v = split_signature(signature)
    compact = r.to_bytes(32, "big") + s.to_bytes(32, "big") + bytes([v - 27])
    try:
        public_key = coincurve.PublicKey.from_signature_and_message(compact, digest, hasher=None)
    except Exception:  # coincurve raises a bare Exception when no point recovers
        raise SignatureError(CHECK_INVALID, "no public key recovers from this signature") from None
    address = keccak256(public_key.format(compressed=False)[1:])[-ADDRESS_SIZE:]
    if address == ZERO_ADDRESS:
        raise SignatureError(CHECK_ZERO_SIGNER, "the signature recovers to the zero address")
    return address


def verify_digest(signer: bytes, digest: bytes, signature: bytes) -> None:
    """Raise ``SignatureError`` unless ``signature`` over ``digest`` recovers to ``signer``."""
    check_encoding(signer, signature)
    recovered = recover_address(digest, signature)
    if recovered != signer:
        raise SignatureError(
            CHECK_INVALID, "the signature recovers to another address",
            expected=signer, actual=recovered,
        )


__all__ = [
    "ADDRESS_SIZE",
    "HALF_N",
    "SIGNATURE_SIZE",
    "ZERO_ADDRESS",
    "N",
    "address_from_public_key",
    "check_encoding",
    "public_key_from_secret",
    "recover_address",
    "sign_digest",
    "split_signature",
    "valid_secret",
]
