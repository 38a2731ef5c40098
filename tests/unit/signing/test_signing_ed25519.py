"""Ed25519 primitive (SPEC §8.4.2): RFC 8032 §7.1 vectors and encoding checks."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from signing_support import RFC8032_VECTORS

from por.errors import SignatureError
from por.signing import ed25519
from por.signing.ed25519 import L, P

RFC: dict[str, Any] = json.loads(RFC8032_VECTORS.read_text(encoding="utf-8"))
VECTORS = {v["id"]: v for v in RFC["vectors"]}

TEST1 = VECTORS["rfc8032-7.1-test-1"]
SEED = bytes.fromhex(TEST1["secret_key_hex"])
PUBLIC = bytes.fromhex(TEST1["public_key_hex"])
DIGEST = bytes(range(32))


def test_required_rfc_vectors_present() -> None:
    assert {"TEST 1", "TEST 2", "TEST 3", "TEST 1024", "TEST SHA(abc)"} == {
        v["rfc_test"] for v in RFC["vectors"]
    }
    assert len(bytes.fromhex(VECTORS["rfc8032-7.1-test-1024"]["message_hex"])) == 1023
    assert "RFC 8032" in RFC["source"]


@pytest.mark.parametrize("vector_id", sorted(VECTORS))
def test_rfc8032_vector(vector_id: str) -> None:
    v = VECTORS[vector_id]
    seed, public = bytes.fromhex(v["secret_key_hex"]), bytes.fromhex(v["public_key_hex"])
    message, signature = bytes.fromhex(v["message_hex"]), bytes.fromhex(v["signature_hex"])
    assert ed25519.public_key_from_seed(seed) == public
    assert ed25519.sign_digest(seed, message) == signature
    ed25519.verify_digest(public, message, signature)
    # The same vector with one message bit flipped must fail.
    flipped = bytes([message[0] ^ 1]) + message[1:] if message else b"\x00"
    with pytest.raises(SignatureError) as info:
        ed25519.verify_digest(public, flipped, signature)
    assert info.value.check_id == "signature.invalid"


def test_sign_and_verify_digest() -> None:
    sig = ed25519.sign_digest(SEED, DIGEST)
    assert len(sig) == 64
    ed25519.verify_digest(PUBLIC, DIGEST, sig)
    other = bytes.fromhex(VECTORS["rfc8032-7.1-test-2"]["public_key_hex"])
    with pytest.raises(SignatureError) as info:
        ed25519.verify_digest(other, DIGEST, sig)
    assert info.value.check_id == "signature.invalid"


def test_s_plus_l_is_malformed_and_openssl_agrees() -> None:
    sig = ed25519.sign_digest(SEED, DIGEST)
    s = int.from_bytes(sig[32:], "little")
    twin = sig[:32] + (s + L).to_bytes(32, "little")
    with pytest.raises(SignatureError) as info:
        ed25519.verify_digest(PUBLIC, DIGEST, twin)
    assert info.value.check_id == "signature.malformed"
    # Independently, OpenSSL rejects non-canonical S too (RFC 8032 §5.1.7).
    with pytest.raises(InvalidSignature):
        Ed25519PublicKey.from_public_bytes(PUBLIC).verify(twin, DIGEST)


def test_s_equal_l_is_malformed() -> None:
    sig = ed25519.sign_digest(SEED, DIGEST)
    with pytest.raises(SignatureError) as info:
        ed25519.check_encoding(PUBLIC, sig[:32] + L.to_bytes(32, "little"))
    assert info.value.check_id == "signature.malformed"
    ed25519.check_encoding(PUBLIC, sig[:32] + (L - 1).to_bytes(32, "little"))


@pytest.mark.parametrize(("size_change"), [-1, +1, -64, +64])
def test_wrong_signature_length_is_malformed(size_change: int) -> None:
    sig = ed25519.sign_digest(SEED, DIGEST)
    bad = sig[:size_change] if size_change < 0 else sig + bytes(size_change)
    with pytest.raises(SignatureError) as info:
        ed25519.verify_digest(PUBLIC, DIGEST, bad)
    assert info.value.check_id == "signature.malformed"


@pytest.mark.parametrize("signer", [PUBLIC[:31], PUBLIC + b"\x00", b""])
def test_wrong_public_key_length_is_malformed(signer: bytes) -> None:
    with pytest.raises(SignatureError) as info:
        ed25519.verify_digest(signer, DIGEST, ed25519.sign_digest(SEED, DIGEST))
    assert info.value.check_id == "signature.malformed"


_Y8 = 2707385501144840649318225287225658788936804267575313519463743609750303402022


def _enc(y: int, sign: int = 0) -> bytes:
    return (y | (sign << 255)).to_bytes(32, "little")


@pytest.mark.parametrize(
    "key",
    [
        bytes(32),                 # all-zero bytes: y = 0, order 4
        _enc(0, 1),                # y = 0 with the sign bit
        _enc(1),                   # the identity
        _enc(P - 1),               # order 2
        _enc(_Y8), _enc(_Y8, 1),   # order 8
        _enc(P - _Y8), _enc(P - _Y8, 1),
    ],
)
def test_small_order_key_is_zero_signer(key: bytes) -> None:
    assert ed25519.has_small_order(key)
    with pytest.raises(SignatureError) as info:
        ed25519.verify_digest(key, DIGEST, ed25519.sign_digest(SEED, DIGEST))
    assert info.value.check_id == "signature.zero_signer"


def test_small_order_forgery_would_otherwise_pass() -> None:
    # Why the zero-signer rule matters: with the identity as public key,
    # R = identity and S = 0 satisfy [S]B = R + [k]A for every message, and
    # OpenSSL accepts it.  por refuses the key first.
    identity = _enc(1)
    forged = identity + bytes(32)
    Ed25519PublicKey.from_public_bytes(identity).verify(forged, DIGEST)
    with pytest.raises(SignatureError) as info:
        ed25519.verify_digest(identity, DIGEST, forged)
    assert info.value.check_id == "signature.zero_signer"


@pytest.mark.parametrize("key", [
    _enc(P + 2),  # y = p + 2, not of small order, spelled >= p
    _enc(P),      # non-canonical spelling of y = 0 (small order): malformed comes first
    _enc(P + 1),  # non-canonical spelling of the identity
])
def test_non_canonical_public_key_is_malformed(key: bytes) -> None:
    with pytest.raises(SignatureError) as info:
        ed25519.check_encoding(key, ed25519.sign_digest(SEED, DIGEST))
    assert info.value.check_id == "signature.malformed"
    assert "not canonical" in info.value.message


def _identity_r_signature(seed: bytes, message: bytes) -> tuple[bytes, bytes]:
    """A signature with R = identity that a cofactorless verifier accepts:
    S = k*a mod L with k = SHA-512(R || A || M) gives [S]B = R + [k]A."""
    h = hashlib.sha512(seed).digest()
    a = int.from_bytes(h[:32], "little")
    a &= (1 << 254) - 8
    a |= 1 << 254
    public = ed25519.public_key_from_seed(seed)
    r_point = _enc(1)
    k = int.from_bytes(hashlib.sha512(r_point + public + message).digest(), "little") % L
    return public, r_point + ((k * a) % L).to_bytes(32, "little")


def test_small_order_r_is_refused_though_openssl_accepts_it() -> None:
    # SPEC §8.5 step 1: por is strict like libsodium; OpenSSL's check is cofactorless.
    public, signature = _identity_r_signature(SEED, DIGEST)
    Ed25519PublicKey.from_public_bytes(public).verify(signature, DIGEST)  # OpenSSL: valid
    with pytest.raises(SignatureError) as info:
        ed25519.verify_digest(public, DIGEST, signature)
    assert info.value.check_id == "signature.malformed"
    assert "R has small order" in info.value.message


@pytest.mark.parametrize("r_point", [_enc(P - 1), _enc(0), _enc(_Y8, 1), bytes(32)])
def test_every_small_order_r_is_malformed(r_point: bytes) -> None:
    signature = r_point + ed25519.sign_digest(SEED, DIGEST)[32:]
    with pytest.raises(SignatureError) as info:
        ed25519.check_encoding(ed25519.public_key_from_seed(SEED), signature)
    assert info.value.check_id == "signature.malformed"


def test_non_canonical_r_is_malformed() -> None:
    signature = _enc(P + 3) + ed25519.sign_digest(SEED, DIGEST)[32:]
    with pytest.raises(SignatureError) as info:
        ed25519.check_encoding(ed25519.public_key_from_seed(SEED), signature)
    assert "R is not canonical" in info.value.message


def test_ordinary_keys_are_not_small_order() -> None:
    for v in RFC["vectors"]:
        assert not ed25519.has_small_order(bytes.fromhex(v["public_key_hex"]))
