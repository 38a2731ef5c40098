"""Ed25519 (RFC 8032 §5.1, pure, no context) over the EIP-712 digest (SPEC §8.4.2).

The signed message is the 32-byte EIP-712 digest itself.  A signature is 64
bytes ``R || S``; the signer is identified by its 32-byte public key.  Signing
and the group equation come from ``cryptography`` (OpenSSL).

Verification adds checks that RFC 8032 leaves to the implementer, so that one
signature has one encoding and no key is trivially forgeable:
- ``S`` must be below the group order L (RFC 8032 §5.1.7 step 1; OpenSSL
  agrees, this module checks first so the check id is stable);
- the public key must be a canonical encoding (``y < p``), checked before its
  order so a non-canonical encoding is ``malformed`` whatever point it names;
- a public key of small order (the identity, the all-zero bytes, and the other
  points of order 1, 2, 4 or 8) is a "zero signer": with such a key, one
  signature verifies for a large share of all messages;
- ``R`` must be a canonical encoding and not of small order.  OpenSSL's check is
  cofactorless and accepts a small-order ``R``; libsodium refuses it.  por is
  strict (SPEC §8.5 step 1): the set of accepted signatures is then the same for
  every implementation that follows these rules, whatever its group equation.

Out of scope: hashing (the caller passes the digest), Ed25519ph and Ed25519ctx.
"""

from __future__ import annotations

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from por.errors import SignatureError
from por.signing.checks import CHECK_INVALID, CHECK_MALFORMED, CHECK_ZERO_SIGNER

#: The field prime p = 2^255 - 19 (RFC 8032 §5.1).
P = 2**255 - 19
#: The group order L (RFC 8032 §5.1).
L = 2**252 + 27742317777372353535851937790883648493

SIGNATURE_SIZE = 64
PUBLIC_KEY_SIZE = 32
SEED_SIZE = 32

# The y coordinates of the eight points of small order (the torsion subgroup):
# y = 1 (order 1), y = p - 1 (order 2), y = 0 (order 4, both signs of x), and
# y = +-Y8 (order 8, four points); values as in libsodium's ge25519_has_small_order.
_Y8 = 2707385501144840649318225287225658788936804267575313519463743609750303402022
SMALL_ORDER_Y = frozenset({0, 1, P - 1, _Y8, P - _Y8})


def public_key_from_seed(seed: bytes) -> bytes:
    """The 32-byte public key of a 32-byte secret seed (RFC 8032 §5.1.5)."""
    return Ed25519PrivateKey.from_private_bytes(seed).public_key().public_bytes_raw()


def sign_digest(seed: bytes, message: bytes) -> bytes:
    """The 64-byte Ed25519 signature of ``message`` (deterministic, §5.1.6).

    por always passes the 32-byte EIP-712 digest; any length works (RFC 8032
    test vectors use others)."""
    return Ed25519PrivateKey.from_private_bytes(seed).sign(message)


def _y(encoding: bytes) -> int:
    """The y coordinate an encoded point carries (RFC 8032 §5.1.3: sign bit cleared)."""
    return int.from_bytes(encoding, "little") & ((1 << 255) - 1)


def has_small_order(public_key: bytes) -> bool:
    """True iff the 32-byte encoding names a point of order 1, 2, 4 or 8."""
    return _y(public_key) % P in SMALL_ORDER_Y


def check_encoding(signer: bytes, signature: bytes) -> None:
    """SPEC §8.5 steps 1 and 4 for Ed25519: raise on the first encoding failure."""
    if len(signer) != PUBLIC_KEY_SIZE:
        raise SignatureError(
            CHECK_MALFORMED, f"Ed25519 signer must be a {PUBLIC_KEY_SIZE}-byte public key",
            expected=PUBLIC_KEY_SIZE, actual=len(signer),
        )
    if len(signature) != SIGNATURE_SIZE:
        raise SignatureError(
            CHECK_MALFORMED, f"Ed25519 signature must be {SIGNATURE_SIZE} bytes",
            expected=SIGNATURE_SIZE, actual=len(signature),
        )
    if int.from_bytes(signature[32:], "little") >= L:
        raise SignatureError(CHECK_MALFORMED, "Ed25519 S is not below the group order L")
    if _y(signer) >= P:
        raise SignatureError(CHECK_MALFORMED, "the Ed25519 public key is not canonical (y >= p)")
    if has_small_order(signer):
        raise SignatureError(CHECK_ZERO_SIGNER, "the Ed25519 public key has small order")
    r_point = signature[:32]
    if _y(r_point) >= P:
        raise SignatureError(CHECK_MALFORMED, "Ed25519 R is not canonical (y >= p)")
    if has_small_order(r_point):
        raise SignatureError(CHECK_MALFORMED, "Ed25519 R has small order")


def verify_digest(signer: bytes, message: bytes, signature: bytes) -> None:
    """Raise ``SignatureError`` unless ``signature`` is ``signer``'s over ``message``
    (the digest, for por; RFC 8032 §5.1.7 with the checks above first)."""
    check_encoding(signer, signature)
    try:
        Ed25519PublicKey.from_public_bytes(signer).verify(signature, message)
    except (InvalidSignature, ValueError):
        # ValueError: the key bytes do not decode to a curve point.
        raise SignatureError(CHECK_INVALID, "the Ed25519 signature does not verify") from None


__all__ = [
    "PUBLIC_KEY_SIZE",
    "SIGNATURE_SIZE",
    "L",
    "P",
    "check_encoding",
    "has_small_order",
    "public_key_from_seed",
    "sign_digest",
    "verify_digest",
]
