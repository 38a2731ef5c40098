"""Shared helpers for the signing tests, and the generator of the committed
fixtures (fixtures/vectors/eip712.json and the test-only key files).

Regenerate (only when SPEC §8 changes on purpose)::

    PYTHONPATH=. python tests/unit/signing/signing_support.py --write

test_signing_vectors.py fails if the committed files differ from what this
module builds, and cross-checks every digest and signature with eth-account.

The two keys here are TEST-ONLY: their secrets are SHA-256 of a public label,
so anyone can recompute them.  Never use them for anything real.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from por.signing.eip712 import (
    DOMAIN_TYPE,
    UINT64_MAX,
    VERDICT_MEMBERS,
    VERDICT_TYPE,
    Eip712Domain,
    VerdictStruct,
    domain_separator,
    domain_type_hash,
    market_id_from_text,
    signing_digest,
    struct_hash,
    type_hash,
    typed_data,
)
from por.signing.keys import (
    PrivateKey,
    private_key_to_json,
    public_key_from_private_key,
    public_key_to_json,
)
from por.signing.record import sign_verdict

ROOT = Path(__file__).resolve().parents[3]
EIP712_VECTORS = ROOT / "fixtures" / "vectors" / "eip712.json"
RFC8032_VECTORS = ROOT / "fixtures" / "vectors" / "ed25519-rfc8032.json"
KEY_DIR = Path(__file__).resolve().parent / "keys"

TEST_ONLY_COMMENT = "TEST-ONLY key: its secret is public (SHA-256 of a label); never use it"
TEST_ONLY_SECP256K1 = PrivateKey(
    "secp256k1", hashlib.sha256(b"por test-only secp256k1 key").digest()
)
TEST_ONLY_ED25519 = PrivateKey("ed25519", hashlib.sha256(b"por test-only ed25519 key").digest())
TEST_ONLY_KEYS = {"secp256k1": TEST_ONLY_SECP256K1, "ed25519": TEST_ONLY_ED25519}

CONTRACT = bytes.fromhex("5fbdb2315678afecb367f032d93f642f64180aa3")
ISSUED_AT = 1_767_225_600  # 2026-01-01T00:00:00Z
EXPIRES_AT = ISSUED_AT + 86_400


def h(label: str) -> bytes:
    """A deterministic 32-byte stand-in hash."""
    return hashlib.sha256(label.encode("utf-8")).digest()


def sample_verdict(**changes: Any) -> VerdictStruct:
    """A valid verdict; keyword arguments replace fields."""
    values: dict[str, Any] = {
        "market_id": market_id_from_text("btc-above-100k-2025-12-31"),
        "outcome": 1,
        "confidence_bps": 8_500,
        "prompt_spec_hash": h("prompt_spec"),
        "evidence_root": h("evidence_root"),
        "evidence_count": 3,
        "reasoning_root": h("reasoning_root"),
        "reasoning_count": 7,
        "por_root": h("por_root"),
        "issued_at": ISSUED_AT,
        "expires_at": EXPIRES_AT,
        "nonce": 1,
    }
    values.update(changes)
    return VerdictStruct(**values)


def sample_domain(**changes: Any) -> Eip712Domain:
    values: dict[str, Any] = {"chain_id": 8453, "verifying_contract": CONTRACT}
    values.update(changes)
    return Eip712Domain(**values)


#: (id, market id text, verdict changes, domain changes)
CASES: list[tuple[str, str, dict[str, Any], dict[str, Any]]] = [
    ("yes-base-mainnet", "btc-above-100k-2025-12-31", {}, {}),
    ("no-ethereum-mainnet", "fed-cuts-rates-2026-03",
     {"outcome": 2, "confidence_bps": 6_120, "evidence_count": 12, "reasoning_count": 30,
      "nonce": 42},
     {"chain_id": 1,
      "verifying_contract": bytes.fromhex("e7f1725e7734ce288f8367e1bb143e90bb3f0512")}),
    ("invalid-all-zero", "",
     {"outcome": 3, "confidence_bps": 0, "prompt_spec_hash": bytes(32), "evidence_root": bytes(32),
      "evidence_count": 0, "reasoning_root": bytes(32), "reasoning_count": 0,
      "por_root": bytes(32), "issued_at": 0, "expires_at": 0, "nonce": 0},
     {"chain_id": 0, "verifying_contract": bytes(20)}),
    ("max-values", "m" * 128,
     {"outcome": 3, "confidence_bps": 10_000, "prompt_spec_hash": b"\xff" * 32,
      "evidence_root": b"\xff" * 32, "evidence_count": UINT64_MAX,
      "reasoning_root": b"\xff" * 32, "reasoning_count": UINT64_MAX, "por_root": b"\xff" * 32,
      "issued_at": UINT64_MAX - 1, "expires_at": UINT64_MAX, "nonce": UINT64_MAX},
     {"chain_id": UINT64_MAX, "verifying_contract": b"\xff" * 20,
      "name": "por-test", "version": "2"}),
    ("utf8-market-id", "élection-présidentielle-2027 🗳",
     {"outcome": 2, "confidence_bps": 9_999},
     {"chain_id": 11155111, "name": "pör", "version": "1.0.0"}),
]


def case_values(case_id: str) -> tuple[VerdictStruct, Eip712Domain]:
    for cid, text, verdict_changes, domain_changes in CASES:
        if cid == case_id:
            verdict = sample_verdict(market_id=market_id_from_text(text), **verdict_changes)
            return verdict, sample_domain(**domain_changes)
    raise KeyError(case_id)


def verdict_from_message(message: dict[str, Any]) -> VerdictStruct:
    values: dict[str, Any] = {}
    for name, member, kind in VERDICT_MEMBERS:
        value = message[member]
        values[name] = bytes.fromhex(value.removeprefix("0x")) if kind == "bytes32" else value
    return VerdictStruct(**values)


def domain_from_json(obj: dict[str, Any]) -> Eip712Domain:
    return Eip712Domain(chain_id=obj["chainId"], name=obj["name"], version=obj["version"],
                        verifying_contract=bytes.fromhex(obj["verifyingContract"][2:]))


def build_eip712_vectors() -> dict[str, Any]:
    """The whole content of fixtures/vectors/eip712.json."""
    cases = []
    for case_id, text, _v, _d in CASES:
        verdict, domain = case_values(case_id)
        typed = typed_data(verdict, domain)
        signatures = {}
        for key in (TEST_ONLY_SECP256K1, TEST_ONLY_ED25519):
            sig = sign_verdict(verdict, key=key, domain=domain)
            signatures[sig.scheme] = {"signer_hex": sig.signer.hex(),
                                      "signature_hex": sig.signature.hex()}
        cases.append({
            "id": case_id,
            "market_id_text": text,
            "domain": typed["domain"],
            "message": typed["message"],
            "domain_separator_hex": domain_separator(domain).hex(),
            "struct_hash_hex": struct_hash(verdict).hex(),
            "digest_hex": signing_digest(verdict, domain).hex(),
            "signatures": signatures,
        })
    keys = {}
    for scheme, key in TEST_ONLY_KEYS.items():
        public = public_key_from_private_key(key)
        keys[scheme] = {"private_key_hex": key.secret.hex(),
                        "public_key_hex": public.public_key.hex(),
                        "signer_hex": public.signer.hex(),
                        "note": TEST_ONLY_COMMENT}
    return {
        "description": (
            "EIP-712 vectors for the por Verdict struct (SPEC §8). Each case gives the domain "
            "and message in EIP-712 JSON form, domainSeparator, hashStruct(message) and the "
            "signing digest keccak256(0x1901 || domainSeparator || hashStruct), plus the "
            "signature of that digest by each test-only key (secp256k1: r||s||v with v in "
            "{27,28}, RFC 6979 nonces; Ed25519: RFC 8032). marketId = keccak256(UTF-8 of "
            "market_id_text)."
        ),
        "provenance": (
            "Generated by tests/unit/signing/signing_support.py from por.signing. "
            "Independently cross-checked by tests/unit/signing/test_signing_vectors.py: every "
            "digest equals eth-account 0.14's encode_typed_data hash, every secp256k1 "
            "signature equals eth-account's Account.sign_message byte for byte, and every "
            "Ed25519 signature verifies with pyca/cryptography."
        ),
        "type_string": VERDICT_TYPE,
        "type_hash_hex": type_hash().hex(),
        "domain_type_string": DOMAIN_TYPE,
        "domain_type_hash_hex": domain_type_hash().hex(),
        "keys": keys,
        "cases": cases,
    }


def build_key_files() -> dict[str, bytes]:
    """The committed test-only key files (names start with test-only-)."""
    out = {}
    for scheme, key in TEST_ONLY_KEYS.items():
        public = public_key_from_private_key(key)
        out[f"test-only-{scheme}.key"] = private_key_to_json(key, comment=TEST_ONLY_COMMENT)
        out[f"test-only-{scheme}.key.pub"] = public_key_to_json(public, comment=TEST_ONLY_COMMENT)
    return out


def dump_json(obj: Any) -> str:
    return json.dumps(obj, indent=2, ensure_ascii=False) + "\n"


def main(argv: list[str]) -> int:
    if argv != ["--write"]:
        print(__doc__)
        return 2
    EIP712_VECTORS.write_text(dump_json(build_eip712_vectors()), encoding="utf-8")
    KEY_DIR.mkdir(exist_ok=True)
    for name, data in build_key_files().items():
        (KEY_DIR / name).write_bytes(data)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
