"""The committed EIP-712 vectors: still what the code builds, and correct by
an independent implementation (eth-account 0.14, test-only dependency)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from eth_account import Account
from eth_account.messages import _hash_eip191_message, encode_typed_data
from signing_support import (
    EIP712_VECTORS,
    KEY_DIR,
    TEST_ONLY_KEYS,
    build_eip712_vectors,
    build_key_files,
    domain_from_json,
    dump_json,
    verdict_from_message,
)

from por.errors import SignatureError
from por.signing.eip712 import domain_separator, signing_digest, struct_hash, type_hash
from por.signing.keys import private_key_from_json, public_key_from_json
from por.signing.record import VerdictSignature, verify_signature

VECTORS: dict[str, Any] = json.loads(EIP712_VECTORS.read_text(encoding="utf-8"))
CASES = {case["id"]: case for case in VECTORS["cases"]}

# Written out by hand from the type string, not derived from por's tables.
EIP712_TYPES = {
    "EIP712Domain": [
        {"name": "name", "type": "string"},
        {"name": "version", "type": "string"},
        {"name": "chainId", "type": "uint256"},
        {"name": "verifyingContract", "type": "address"},
    ],
    "Verdict": [
        {"name": "marketId", "type": "bytes32"},
        {"name": "outcome", "type": "uint8"},
        {"name": "confidenceBps", "type": "uint16"},
        {"name": "promptSpecHash", "type": "bytes32"},
        {"name": "evidenceRoot", "type": "bytes32"},
        {"name": "evidenceCount", "type": "uint64"},
        {"name": "reasoningRoot", "type": "bytes32"},
        {"name": "reasoningCount", "type": "uint64"},
        {"name": "porRoot", "type": "bytes32"},
        {"name": "issuedAt", "type": "uint64"},
        {"name": "expiresAt", "type": "uint64"},
        {"name": "nonce", "type": "uint64"},
    ],
}


def test_committed_vectors_match_generator() -> None:
    assert EIP712_VECTORS.read_text(encoding="utf-8") == dump_json(build_eip712_vectors())


def test_committed_key_files_match_generator() -> None:
    built = build_key_files()
    assert sorted(p.name for p in KEY_DIR.iterdir()) == sorted(built)
    for name, data in built.items():
        assert name.startswith("test-only-")
        assert (KEY_DIR / name).read_bytes() == data
        assert b"TEST-ONLY" in data


@pytest.mark.parametrize("scheme", ["secp256k1", "ed25519"])
def test_committed_key_files_parse(scheme: str) -> None:
    key = private_key_from_json((KEY_DIR / f"test-only-{scheme}.key").read_bytes())
    public = public_key_from_json((KEY_DIR / f"test-only-{scheme}.key.pub").read_bytes())
    assert key == TEST_ONLY_KEYS[scheme]
    assert public.signer.hex() == VECTORS["keys"][scheme]["signer_hex"]


def test_type_hash_vector() -> None:
    assert bytes.fromhex(VECTORS["type_hash_hex"]) == type_hash()


@pytest.mark.parametrize("case_id", sorted(CASES))
def test_vector_recomputes(case_id: str) -> None:
    case = CASES[case_id]
    verdict = verdict_from_message(case["message"])
    domain = domain_from_json(case["domain"])
    assert domain_separator(domain).hex() == case["domain_separator_hex"]
    assert struct_hash(verdict).hex() == case["struct_hash_hex"]
    assert signing_digest(verdict, domain).hex() == case["digest_hex"]


@pytest.mark.parametrize("case_id", sorted(CASES))
def test_vector_digest_equals_eth_account(case_id: str) -> None:
    case = CASES[case_id]
    signable = encode_typed_data(full_message={
        "types": EIP712_TYPES, "primaryType": "Verdict",
        "domain": case["domain"], "message": case["message"],
    })
    assert _hash_eip191_message(signable).hex() == case["digest_hex"]
    # eth-account's hashStruct is the last 32 bytes of the EIP-191 body.
    assert signable.body.hex() == case["struct_hash_hex"]
    assert signable.header.hex() == case["domain_separator_hex"]


@pytest.mark.parametrize("case_id", sorted(CASES))
def test_vector_secp256k1_signature_equals_eth_account(case_id: str) -> None:
    case = CASES[case_id]
    digest = bytes.fromhex(case["digest_hex"])
    ours = case["signatures"]["secp256k1-eip712"]
    secret = bytes.fromhex(VECTORS["keys"]["secp256k1"]["private_key_hex"])
    theirs = Account.unsafe_sign_hash(digest, secret)
    # Both use RFC 6979 deterministic nonces and low s, so the bytes are equal.
    assert bytes(theirs.signature).hex() == ours["signature_hex"]
    recovered = Account._recover_hash(digest, signature=bytes.fromhex(ours["signature_hex"]))
    assert recovered.lower() == "0x" + ours["signer_hex"]


@pytest.mark.parametrize("case_id", sorted(CASES))
def test_vector_ed25519_signature_verifies_with_cryptography(case_id: str) -> None:
    case = CASES[case_id]
    ours = case["signatures"]["ed25519-eip712"]
    public = Ed25519PublicKey.from_public_bytes(bytes.fromhex(ours["signer_hex"]))
    public.verify(bytes.fromhex(ours["signature_hex"]), bytes.fromhex(case["digest_hex"]))


@pytest.mark.parametrize("case_id", sorted(CASES))
@pytest.mark.parametrize("scheme", ["secp256k1-eip712", "ed25519-eip712"])
def test_vector_signature_record_verifies(case_id: str, scheme: str) -> None:
    case = CASES[case_id]
    verdict = verdict_from_message(case["message"])
    domain = domain_from_json(case["domain"])
    sig = VerdictSignature(
        scheme=scheme,
        signer=bytes.fromhex(case["signatures"][scheme]["signer_hex"]),
        signature=bytes.fromhex(case["signatures"][scheme]["signature_hex"]),
        chain_id=domain.chain_id, verifying_contract=domain.verifying_contract,
        domain_name=domain.name, domain_version=domain.version,
        issued_at=verdict.issued_at, expires_at=verdict.expires_at, nonce=verdict.nonce,
    )
    expect = {"expected_chain_id": domain.chain_id, "expected_contract": domain.verifying_contract,
              "expected_domain_name": domain.name, "expected_domain_version": domain.version}
    if verdict.expires_at == 0:
        # The all-zero case is valid for hashing but expired at every time.
        with pytest.raises(SignatureError) as info:
            verify_signature(sig, verdict, now=0, trusted={sig.signer}, **expect)
        assert info.value.check_id == "signature.expired"
        return
    verify_signature(sig, verdict, now=verdict.issued_at, trusted={sig.signer}, **expect)
