"""The VerdictSignature wire record and the attestation view (SPEC §8.4, §8.8)."""

from __future__ import annotations

from typing import Any

import pytest
from eth_account import Account
from eth_account.messages import _hash_eip191_message, encode_typed_data
from signing_support import TEST_ONLY_ED25519, TEST_ONLY_SECP256K1, sample_domain, sample_verdict

from por.errors import SchemaError, SignatureError
from por.signing.eip712 import UINT64_MAX, domain_separator, signing_digest, struct_hash, type_hash
from por.signing.record import VerdictSignature, attestation, domain_from_signature, sign_verdict

FIELDS = {
    "schema", "scheme", "signer", "signature", "chain_id", "verifying_contract",
    "domain_name", "domain_version", "issued_at", "expires_at", "nonce",
}


def _sig(key: Any = TEST_ONLY_SECP256K1) -> VerdictSignature:
    return sign_verdict(sample_verdict(), key=key, domain=sample_domain())


@pytest.mark.parametrize("key", [TEST_ONLY_SECP256K1, TEST_ONLY_ED25519])
def test_dict_round_trip_with_plain_values(key: Any) -> None:
    sig = _sig(key)
    d = sig.to_dict()
    assert set(d) == FIELDS
    assert d["schema"] == "por.VerdictSignature/1"
    assert all(type(v) in (int, bytes, str) for v in d.values())
    assert VerdictSignature.from_dict(d) == sig
    assert domain_from_signature(sig) == sample_domain()


def test_scheme_specific_sizes() -> None:
    secp, ed = _sig(TEST_ONLY_SECP256K1), _sig(TEST_ONLY_ED25519)
    assert (secp.scheme, len(secp.signer), len(secp.signature)) == ("secp256k1-eip712", 20, 65)
    assert (ed.scheme, len(ed.signer), len(ed.signature)) == ("ed25519-eip712", 32, 64)


@pytest.mark.parametrize(
    ("change", "check_id"),
    [
        ({"schema": "por.VerdictSignature/2"}, "schema.unknown_schema"),
        ({"scheme": "rsa-eip712"}, "schema.enum"),
        ({"extra": 1}, "schema.extra_field"),
        ({"nonce": None}, "schema.type"),  # null is not an int
        ({"chain_id": True}, "schema.type"),
        ({"chain_id": "8453"}, "schema.type"),
        ({"chain_id": -1}, "schema.value"),
        ({"issued_at": UINT64_MAX + 1}, "schema.value"),
        ({"signature": "00" * 65}, "schema.type"),
        ({"verifying_contract": bytes(19)}, "schema.value"),
        ({"verifying_contract": bytes(21)}, "schema.value"),
        ({"domain_name": ""}, "schema.value"),
    ],
)
def test_from_dict_rejects(change: dict[str, Any], check_id: str) -> None:
    with pytest.raises(SchemaError) as info:
        VerdictSignature.from_dict({**_sig().to_dict(), **change})
    assert info.value.check_id == check_id


@pytest.mark.parametrize("name", sorted(FIELDS - {"schema"}))
def test_from_dict_missing_field(name: str) -> None:
    d = _sig().to_dict()
    del d[name]
    with pytest.raises(SchemaError) as info:
        VerdictSignature.from_dict(d)
    assert info.value.check_id == "schema.missing_field"


def test_record_is_frozen() -> None:
    sig = _sig()
    with pytest.raises(ValueError, match="frozen"):
        sig.nonce = 5  # type: ignore[misc]


def test_attestation_secp256k1_feeds_ecrecover() -> None:
    verdict, domain = sample_verdict(), sample_domain()
    sig = _sig()
    att = attestation(sig, verdict)
    digest = signing_digest(verdict, domain)
    assert att["schema"] == "por.VerdictAttestation/1"
    assert att["digest_hex"] == "0x" + digest.hex()
    assert att["type_hash_hex"] == "0x" + type_hash().hex()
    assert att["domain_separator_hex"] == "0x" + domain_separator(domain).hex()
    assert att["struct_hash_hex"] == "0x" + struct_hash(verdict).hex()
    assert att["signature_hex"] == "0x" + sig.signature.hex()
    assert att["r_hex"] + att["s_hex"][2:] == "0x" + sig.signature[:64].hex()
    assert att["v"] == sig.signature[64]
    # The typed data is what wallets sign, and ecrecover(digest, v, r, s) is the signer.
    signable = encode_typed_data(full_message=att["typed_data"])
    assert _hash_eip191_message(signable) == digest
    vrs = (att["v"], int(att["r_hex"], 16), int(att["s_hex"], 16))
    assert Account._recover_hash(digest, vrs=vrs).lower() == att["signer_hex"]
    assert att["typed_data"]["message"]["marketId"] == "0x" + verdict.market_id.hex()
    # SPEC §8.8: uint64/uint256 values are decimal strings (JavaScript loses
    # precision above 2^53); uint8/uint16 stay numbers.
    assert att["typed_data"]["domain"]["chainId"] == "8453"
    message = att["typed_data"]["message"]
    assert message["nonce"] == str(verdict.nonce)
    assert message["evidenceCount"] == str(verdict.evidence_count)
    assert isinstance(message["outcome"], int) and isinstance(message["confidenceBps"], int)


def test_attestation_keeps_uint64_max_exact() -> None:
    """2^64 - 1 survives a JSON round trip through a double-based parser."""
    import dataclasses
    import json

    verdict = dataclasses.replace(sample_verdict(), nonce=UINT64_MAX)
    sig = sign_verdict(verdict, key=TEST_ONLY_SECP256K1, domain=sample_domain())
    text = json.dumps(attestation(sig, verdict))
    assert '"nonce": "18446744073709551615"' in text
    # A double (JavaScript's number) would have read 18446744073709551616.
    assert json.loads(text, parse_int=float)["typed_data"]["message"]["nonce"] == (
        "18446744073709551615")


def test_attestation_ed25519_has_no_vrs() -> None:
    att = attestation(_sig(TEST_ONLY_ED25519), sample_verdict())
    assert "v" not in att and "r_hex" not in att
    assert att["signer_hex"] == "0x" + _sig(TEST_ONLY_ED25519).signer.hex()


def test_attestation_refuses_malformed_secp256k1() -> None:
    bad = VerdictSignature.from_dict({**_sig().to_dict(), "signature": bytes(64)})
    with pytest.raises(SignatureError) as info:
        attestation(bad, sample_verdict())
    assert info.value.check_id == "signature.malformed"
