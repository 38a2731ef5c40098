"""secp256k1 primitive (SPEC §8.4.1): ecrecover form, low s, v, r/s ranges."""

from __future__ import annotations

import hashlib

import coincurve
import pytest
from eth_account import Account
from signing_support import TEST_ONLY_SECP256K1

from por.errors import SignatureError
from por.signing import secp256k1
from por.signing.secp256k1 import HALF_N, N

SECRET = TEST_ONLY_SECP256K1.secret
ADDRESS = secp256k1.address_from_public_key(secp256k1.public_key_from_secret(SECRET))
DIGEST = hashlib.sha256(b"digest").digest()


def _parts(sig: bytes) -> tuple[int, int, int]:
    return int.from_bytes(sig[:32], "big"), int.from_bytes(sig[32:64], "big"), sig[64]


def _join(r: int, s: int, v: int) -> bytes:
    return r.to_bytes(32, "big") + s.to_bytes(32, "big") + bytes([v])


def test_address_matches_eth_account() -> None:
    assert "0x" + ADDRESS.hex() == Account.from_key(SECRET).address.lower()
    # Known answer: private key 1 is the generator; its address is public.
    one = (1).to_bytes(32, "big")
    assert secp256k1.address_from_public_key(secp256k1.public_key_from_secret(one)).hex() == (
        "7e5f4552091a69125d5dfcb7b8c2659029395bdf"
    )


def test_sign_form_and_recovery() -> None:
    sig = secp256k1.sign_digest(SECRET, DIGEST)
    r, s, v = _parts(sig)
    assert len(sig) == 65 and v in (27, 28) and 1 <= r < N and 1 <= s <= HALF_N
    assert secp256k1.recover_address(DIGEST, sig) == ADDRESS
    secp256k1.verify_digest(ADDRESS, DIGEST, sig)
    # eth-account's ecrecover agrees, and RFC 6979 makes the bytes identical.
    assert Account._recover_hash(DIGEST, vrs=(v, r, s)).lower() == "0x" + ADDRESS.hex()
    assert bytes(Account.unsafe_sign_hash(DIGEST, SECRET).signature) == sig


def test_signing_always_low_s() -> None:
    seen_v = set()
    for i in range(64):
        digest = hashlib.sha256(i.to_bytes(2, "big")).digest()
        sig = secp256k1.sign_digest(SECRET, digest)
        _r, s, v = _parts(sig)
        assert s <= HALF_N
        seen_v.add(v)
        secp256k1.verify_digest(ADDRESS, digest, sig)
    assert seen_v == {27, 28}  # both recovery ids occur and round-trip


def test_high_s_twin_is_rejected_though_it_recovers() -> None:
    sig = secp256k1.sign_digest(SECRET, DIGEST)
    r, s, v = _parts(sig)
    twin = _join(r, N - s, 55 - v)  # flip v: 27 <-> 28
    # The twin is a mathematically valid signature by the same key ...
    compact = twin[:64] + bytes([twin[64] - 27])
    raw = coincurve.PublicKey.from_signature_and_message(compact, DIGEST, hasher=None)
    assert secp256k1.address_from_public_key(raw.format()) == ADDRESS
    # ... which por refuses (EIP-2 low-s rule).
    with pytest.raises(SignatureError) as info:
        secp256k1.verify_digest(ADDRESS, DIGEST, twin)
    assert info.value.check_id == "signature.high_s"


def test_s_at_half_n_boundary() -> None:
    r, _s, _v = _parts(secp256k1.sign_digest(SECRET, DIGEST))
    secp256k1.split_signature(_join(r, HALF_N, 27))
    with pytest.raises(SignatureError) as info:
        secp256k1.split_signature(_join(r, HALF_N + 1, 27))
    assert info.value.check_id == "signature.high_s"


@pytest.mark.parametrize("v", [0, 1, 26, 29, 35, 36, 255])
def test_v_outside_27_28_is_bad_v(v: int) -> None:
    r, s, _v = _parts(secp256k1.sign_digest(SECRET, DIGEST))
    with pytest.raises(SignatureError) as info:
        secp256k1.verify_digest(ADDRESS, DIGEST, _join(r, s, v))
    assert info.value.check_id == "signature.bad_v"


@pytest.mark.parametrize(("r", "s"), [(0, 1), (1, 0), (0, 0), (N, 1), (1, N), (2**256 - 1, 1)])
def test_r_or_s_out_of_range_is_malformed(r: int, s: int) -> None:
    with pytest.raises(SignatureError) as info:
        secp256k1.verify_digest(ADDRESS, DIGEST, _join(r, s, 27))
    assert info.value.check_id == "signature.malformed"


@pytest.mark.parametrize("size", [0, 64, 66, 130])
def test_wrong_length_is_malformed(size: int) -> None:
    sig = secp256k1.sign_digest(SECRET, DIGEST)
    bad = (sig * 3)[:size]
    with pytest.raises(SignatureError) as info:
        secp256k1.verify_digest(ADDRESS, DIGEST, bad)
    assert info.value.check_id == "signature.malformed"


def test_zero_signer_is_rejected() -> None:
    sig = secp256k1.sign_digest(SECRET, DIGEST)
    with pytest.raises(SignatureError) as info:
        secp256k1.verify_digest(bytes(20), DIGEST, sig)
    assert info.value.check_id == "signature.zero_signer"


@pytest.mark.parametrize("signer", [ADDRESS[:19], ADDRESS + b"\x00", b""])
def test_signer_of_wrong_length_is_malformed(signer: bytes) -> None:
    with pytest.raises(SignatureError) as info:
        secp256k1.verify_digest(signer, DIGEST, secp256k1.sign_digest(SECRET, DIGEST))
    assert info.value.check_id == "signature.malformed"


def test_other_digest_recovers_other_address() -> None:
    sig = secp256k1.sign_digest(SECRET, DIGEST)
    other = hashlib.sha256(b"other").digest()
    with pytest.raises(SignatureError) as info:
        secp256k1.verify_digest(ADDRESS, other, sig)
    assert info.value.check_id == "signature.invalid"
    assert info.value.expected == ADDRESS and info.value.actual != ADDRESS


def test_unrecoverable_signature_is_invalid() -> None:
    # r = 5 is not the x coordinate of any curve point (5^3 + 7 = 132 is not
    # a square mod p), so no public key recovers.
    with pytest.raises(SignatureError) as info:
        secp256k1.recover_address(DIGEST, _join(5, 1, 27))
    assert info.value.check_id == "signature.invalid"


def test_digest_must_be_32_bytes() -> None:
    with pytest.raises(ValueError, match="32 bytes"):
        secp256k1.sign_digest(SECRET, DIGEST[:31])
