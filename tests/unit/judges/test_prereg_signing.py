"""The detached EIP-712 ``Preregistration`` signature (SPEC §15.11), cross-checked with
eth-account: digest, known answer, recovery, and a signature of another run refused."""

from __future__ import annotations

import hashlib
from dataclasses import fields
from typing import Any

import pytest
from eth_account import Account
from eth_account.messages import _hash_eip191_message, encode_typed_data
from hypothesis import given
from hypothesis import strategies as st

from por.errors import PorError
from por.locked_judges.errors import JudgementError
from por.locked_judges.prereg_signing import (
    PREREGISTRATION_TYPE,
    PreregistrationSignature,
    PreregistrationStruct,
    preregistration_signature_failures,
    preregistration_struct,
    preregistration_typed_digest,
    sign_preregistration,
)
from por.locked_judges.records import JudgePreregistration
from por.signing.eip712 import Eip712Domain, keccak256
from por.signing.policy import TrustPolicy, raise_first

TEST_ONLY_KEY = hashlib.sha256(b"por test-only secp256k1 key: pre-registration").digest()
DOMAIN = Eip712Domain(chain_id=31337, verifying_contract=bytes.fromhex("11" * 20))
MEMBERS = [m.split(" ") for m in
           PREREGISTRATION_TYPE[PREREGISTRATION_TYPE.index("(") + 1:-1].split(",")]
T0 = 1_767_225_600
WEEK = 7 * 24 * 3600
RUN1 = JudgePreregistration(panel=[b"\x11" * 32], subjects_root=b"\x22" * 32,
                            subjects_count=2, run=1)


def _typed(struct: PreregistrationStruct, domain: Eip712Domain) -> dict[str, Any]:
    values = [getattr(struct, f.name) for f in fields(struct)]
    return {
        "types": {"EIP712Domain": [{"name": "name", "type": "string"},
                                   {"name": "version", "type": "string"},
                                   {"name": "chainId", "type": "uint256"},
                                   {"name": "verifyingContract", "type": "address"}],
                  "Preregistration": [{"name": n, "type": t} for t, n in MEMBERS]},
        "primaryType": "Preregistration",
        "domain": {"name": "por", "version": "1", "chainId": domain.chain_id,
                   "verifyingContract": "0x" + domain.verifying_contract.hex()},
        "message": {n: v for (_t, n), v in zip(MEMBERS, values, strict=True)},
    }


u64 = st.integers(0, 2**64 - 1)


@given(st.builds(PreregistrationStruct, st.binary(min_size=32, max_size=32), u64, u64, u64),
       u64, st.binary(min_size=20, max_size=20))
def test_digest_equals_eth_account(struct: PreregistrationStruct, chain_id: int,
                                   contract: bytes) -> None:
    domain = Eip712Domain(chain_id=chain_id, verifying_contract=contract)
    signable = encode_typed_data(full_message=_typed(struct, domain))
    assert _hash_eip191_message(signable) == preregistration_typed_digest(struct, domain)


def test_a_known_answer_and_eth_account_recovers_the_signer() -> None:
    struct = PreregistrationStruct(bytes(range(32)), 2, T0, T0 + WEEK)
    assert keccak256(PREREGISTRATION_TYPE.encode()).hex() == KNOWN_TYPE_HASH
    assert preregistration_typed_digest(struct, DOMAIN).hex() == KNOWN_DIGEST
    record = sign_preregistration(struct, TEST_ONLY_KEY, DOMAIN)
    signable = encode_typed_data(full_message=_typed(struct, DOMAIN))
    assert Account.recover_message(signable, signature=record.signature).lower() \
        == "0x" + record.signer.hex()
    assert PreregistrationSignature.from_cbor(record.to_cbor()) == record


def _signed(record: JudgePreregistration) -> PreregistrationSignature:
    return sign_preregistration(preregistration_struct(record, issued_at=T0,
                                                       expires_at=T0 + WEEK),
                                TEST_ONLY_KEY, DOMAIN)


def test_the_signature_binds_its_preregistration() -> None:
    signed = _signed(RUN1)
    policy = TrustPolicy.of([signed.signer], now=T0, chain_id=31337,
                            contract=DOMAIN.verifying_contract)
    raise_first(preregistration_signature_failures(signed, RUN1, policy))
    run2 = RUN1.model_copy(update={"run": 2})
    with pytest.raises(JudgementError) as info:
        preregistration_signature_failures(signed, run2, policy)
    assert info.value.check_id == "judgement.preregistration_signature"


def test_an_edited_signature_or_an_untrusted_signer_fails() -> None:
    signed = _signed(RUN1)
    flipped = bytearray(signed.signature)
    flipped[5] ^= 1
    bad = signed.model_copy(update={"signature": bytes(flipped)})
    with pytest.raises(PorError) as info:
        raise_first(preregistration_signature_failures(bad, RUN1, TrustPolicy.of(None, now=T0)))
    assert info.value.check_id.startswith("signature.")
    with pytest.raises(PorError) as info:
        raise_first(preregistration_signature_failures(
            signed, RUN1, TrustPolicy.of([b"\x01" * 20], now=T0)))
    assert info.value.check_id == "signature.untrusted_key"


#: SPEC §15.11's known answer (chainId 31337, verifyingContract 0x11…11, digest 00 01 … 1f,
#: run 2, issuedAt 1767225600, expiresAt + 7 days); eth-account agrees (above).
KNOWN_TYPE_HASH = "d7d792837db681cbe095d9da5b7520385214e6178b4ef4e4da47c6e00d96a50f"
KNOWN_DIGEST = "d7990d77dcfbb00cd0b2361c9407e9ab563f3d776d000eea2ab52acba67e363c"
