"""Step 8 trust rules (SPEC §6.2 step 8): every signature must be valid; trust is
separate; ``require_signature`` needs at least one valid signature by a trusted key."""

from __future__ import annotations

from pathlib import Path

import pytest

from por.bundle import sign_bundle
from por.signing import Eip712Domain, public_key_from_private_key
from por.signing.keys import PrivateKey, private_key_from_json
from verifier import check_bundle

ROOT = Path(__file__).resolve().parents[3]
KEYS = ROOT / "tests" / "unit" / "signing" / "keys"
SIGNED = ROOT / "fixtures" / "bundles" / "valid" / "01-boolean-observed.signed-secp256k1.cbor"
ISSUED, EXPIRES = 1_767_225_600, 1_767_225_600 + 7 * 86_400
NOW = ISSUED + 1


def _key(scheme: str) -> PrivateKey:
    return private_key_from_json((KEYS / f"test-only-{scheme}.key").read_bytes())


def _signer(scheme: str) -> bytes:
    return public_key_from_private_key(_key(scheme)).signer


@pytest.fixture(scope="module")
def both_signed() -> bytes:
    """The secp256k1-signed fixture with a second signature by the Ed25519 key."""
    return sign_bundle(SIGNED.read_bytes(), _key("ed25519"),
                       Eip712Domain(chain_id=1, verifying_contract=bytes(20)),
                       issued_at=ISSUED, expires_at=EXPIRES)


def _ids(report: object) -> list[str]:
    return [c.check_id for c in report.checks if c.check_id.startswith("signature.")]  # type: ignore[attr-defined]


def test_untrusted_signature_is_reported_not_fatal_without_require() -> None:
    report = check_bundle(SIGNED.read_bytes(), now=NOW,
                          trusted_keys={_signer("ed25519")})
    assert report.status == "verified"
    assert _ids(report) == ["signature.not_trusted"]


def test_require_signature_needs_a_trusted_signer() -> None:
    report = check_bundle(SIGNED.read_bytes(), now=NOW, require_signature=True,
                          trusted_keys={_signer("ed25519")})
    assert report.status == "rejected"
    assert report.first_failure is not None
    assert report.first_failure.check_id == "signature.untrusted_key"


@pytest.mark.parametrize("trusted", ["secp256k1", "ed25519"])
def test_one_trusted_signer_among_two_is_enough(both_signed: bytes, trusted: str) -> None:
    report = check_bundle(both_signed, now=NOW, require_signature=True,
                          trusted_keys={_signer(trusted)})
    assert report.status == "verified", report.first_failure
    assert sorted(_ids(report)) == ["signature.not_trusted", "signature.ok"]


def test_an_invalid_signature_rejects_the_bundle_whoever_signed_it(both_signed: bytes) -> None:
    # Expired for both signers: validity does not depend on trust.
    report = check_bundle(both_signed, now=EXPIRES, require_signature=True,
                          trusted_keys={_signer("secp256k1")})
    assert report.status == "rejected"
    assert report.first_failure is not None
    assert report.first_failure.check_id == "signature.expired"
