"""The EIP-712 ``Judgement`` (SPEC §15.10): digests agree with eth-account's independent
encoder, a detached signature binds exactly one judgement bundle, and every canary
(another judgement, a flipped byte, the high-s twin, another domain, expired) is
rejected with its check id."""

from __future__ import annotations

import hashlib
from dataclasses import fields, replace
from pathlib import Path
from typing import Any

import pytest
from eth_account import Account
from eth_account.messages import _hash_eip191_message, encode_typed_data
from hypothesis import given
from hypothesis import strategies as st

from por.errors import PorError
from por.locked_judges import verify_judgement
from por.locked_judges.signing import (
    JUDGEMENT_TYPE,
    JudgementSignature,
    JudgementStruct,
    check_judgement_signature,
    judgement_digest,
    judgement_struct,
    sign_judgement,
)
from por.signing.eip712 import Eip712Domain, keccak256
from por.signing.secp256k1 import N

VALID = Path(__file__).resolve().parents[3] / "fixtures" / "judges" / "valid"
TEST_ONLY_KEY = hashlib.sha256(b"por test-only secp256k1 key: judgement signing").digest()
DOMAIN = Eip712Domain(chain_id=31337, verifying_contract=bytes.fromhex("11" * 20))
MEMBERS = [m.split(" ") for m in JUDGEMENT_TYPE[JUDGEMENT_TYPE.index("(") + 1:-1].split(",")]
T0 = 1_767_225_600
WEEK = 7 * 24 * 3600


def _typed(judgement: JudgementStruct, domain: Eip712Domain) -> dict[str, Any]:
    values = [getattr(judgement, f.name) for f in fields(judgement)]
    return {
        "types": {"EIP712Domain": [{"name": "name", "type": "string"},
                                   {"name": "version", "type": "string"},
                                   {"name": "chainId", "type": "uint256"},
                                   {"name": "verifyingContract", "type": "address"}],
                  "Judgement": [{"name": n, "type": t} for t, n in MEMBERS]},
        "primaryType": "Judgement",
        "domain": {"name": "por", "version": "1", "chainId": domain.chain_id,
                   "verifyingContract": "0x" + domain.verifying_contract.hex()},
        "message": {n: v for (_t, n), v in zip(MEMBERS, values, strict=True)},
    }


@pytest.fixture(scope="module")
def summary() -> Any:
    return verify_judgement((VALID / "por-judge-1.cbor").read_bytes())


@pytest.fixture(scope="module")
def other() -> Any:
    return verify_judgement((VALID / "llm-retry.cbor").read_bytes())


@pytest.fixture(scope="module")
def signed(summary: Any) -> JudgementSignature:
    struct = judgement_struct(summary, issued_at=T0, expires_at=T0 + WEEK)
    return sign_judgement(struct, TEST_ONLY_KEY, DOMAIN)


def _rejected(record: JudgementSignature, summary: Any, **kw: Any) -> str:
    with pytest.raises(PorError) as caught:
        check_judgement_signature(record, summary, **kw)
    return caught.value.check_id


h32 = st.binary(min_size=32, max_size=32)
u64 = st.integers(0, 2**64 - 1)


@given(st.builds(JudgementStruct, h32, h32, u64, u64, u64, u64), u64,
       st.binary(min_size=20, max_size=20))
def test_digest_equals_eth_account(judgement: JudgementStruct, chain_id: int,
                                   contract: bytes) -> None:
    domain = Eip712Domain(chain_id=chain_id, verifying_contract=contract)
    signable = encode_typed_data(full_message=_typed(judgement, domain))
    assert _hash_eip191_message(signable) == judgement_digest(judgement, domain)


def test_a_known_answer_and_eth_account_recovers_the_signer() -> None:
    judgement = JudgementStruct(bytes(range(32)), b"\x11" * 32, 15, 14, T0, T0 + WEEK)
    assert keccak256(JUDGEMENT_TYPE.encode()).hex() == (
        "d1ff0d160a8b25330236bc38e81e47017e8a5c06bd9c74b6296f14a929bb860b")
    assert judgement_digest(judgement, DOMAIN).hex() == (
        "ee7ba2c74f696bb922278f05f29bce6d899f66edc52da2dd1ca5cd47b13d76ef")
    record = sign_judgement(judgement, TEST_ONLY_KEY, DOMAIN)
    signable = encode_typed_data(full_message=_typed(judgement, DOMAIN))
    recovered = Account.recover_message(signable, signature=record.signature)
    assert recovered.lower() == "0x" + record.signer.hex()
    assert JudgementSignature.from_cbor(record.to_cbor()) == record
    assert record.signature[64] in (27, 28)
    assert int.from_bytes(record.signature[32:64], "big") <= N // 2


def test_the_signature_binds_its_judgement(summary: Any, signed: JudgementSignature) -> None:
    assert (signed.judgement_root, signed.manifest_digest) == (summary.judgement_root,
                                                               summary.manifest.digest())
    assert (signed.subject_count, signed.vote_count) == (len(summary.subjects),
                                                         len(summary.votes))
    check_judgement_signature(signed, summary, now=T0, domain=DOMAIN,
                              trusted=[signed.signer])
    assert sign_judgement(signed.struct(), TEST_ONLY_KEY, DOMAIN) == signed  # RFC 6979


def test_a_signature_over_another_judgement(summary: Any, other: Any,
                                            signed: JudgementSignature) -> None:
    assert _rejected(signed, other) == "judgement.signature_mismatch"
    # The other judgement's values with this signature: recovers to someone else.
    moved = signed.model_copy(update={
        "judgement_root": other.judgement_root, "manifest_digest": other.manifest.digest(),
        "subject_count": len(other.subjects), "vote_count": len(other.votes)})
    assert _rejected(moved, other) == "signature.invalid"
    for name, value in (("vote_count", signed.vote_count + 1),
                        ("manifest_digest", bytes(32))):
        assert _rejected(signed.model_copy(update={name: value}),
                         summary) == "judgement.signature_mismatch"


@pytest.mark.parametrize("index", [0, 31, 40])
def test_a_flipped_signature_byte(summary: Any, signed: JudgementSignature,
                                  index: int) -> None:
    flipped = bytearray(signed.signature)
    flipped[index] ^= 0x01
    update = {"signature": bytes(flipped)}
    assert _rejected(signed.model_copy(update=update), summary) in (
        "signature.invalid", "signature.high_s")


def test_the_high_s_twin_and_a_bad_v(summary: Any, signed: JudgementSignature) -> None:
    r, s, v = signed.signature[:32], int.from_bytes(signed.signature[32:64], "big"), \
        signed.signature[64]
    twin = r + (N - s).to_bytes(32, "big") + bytes([55 - v])
    assert _rejected(signed.model_copy(update={"signature": twin}), summary) == (
        "signature.high_s")
    bad_v = signed.signature[:64] + bytes([29])
    assert _rejected(signed.model_copy(update={"signature": bad_v}), summary) == (
        "signature.bad_v")


def test_another_domain(summary: Any, signed: JudgementSignature) -> None:
    assert _rejected(signed.model_copy(update={"chain_id": 1}), summary) == (
        "signature.invalid")
    assert _rejected(signed.model_copy(update={"verifying_contract": bytes(20)}),
                     summary) == "signature.invalid"
    assert _rejected(signed, summary, domain=replace(DOMAIN, chain_id=1)) == (
        "signature.chain_id")
    assert _rejected(signed, summary, domain=replace(DOMAIN, verifying_contract=bytes(20))
                     ) == "signature.contract"


def test_the_validity_period(summary: Any, signed: JudgementSignature) -> None:
    check_judgement_signature(signed, summary, now=T0 + WEEK - 1)
    assert _rejected(signed, summary, now=T0 + WEEK) == "signature.expired"
    assert _rejected(signed, summary, now=T0 - 1) == "signature.not_yet_valid"
    backwards = sign_judgement(judgement_struct(summary, issued_at=T0 + 1, expires_at=T0),
                               TEST_ONLY_KEY, DOMAIN)
    assert _rejected(backwards, summary) == "signature.expired"


def test_zero_signer_and_untrusted_key(summary: Any, signed: JudgementSignature) -> None:
    assert _rejected(signed.model_copy(update={"signer": bytes(20)}), summary) == (
        "signature.zero_signer")
    assert _rejected(signed, summary, trusted=[b"\x22" * 20]) == "signature.untrusted_key"
    assert _rejected(signed, summary, trusted=[]) == "signature.untrusted_key"


def test_the_record_is_strict(signed: JudgementSignature) -> None:
    data = signed.to_cbor()
    assert JudgementSignature.from_cbor(data) == signed
    with pytest.raises(PorError):
        JudgementSignature.from_cbor(data[:-1])
