"""The EIP-712 ``Ruling`` (SPEC §16.7): digests agree with eth-account's independent
encoder, signatures verify and bind every signed value, and a signature record is
checked against its court bundle."""

from __future__ import annotations

import hashlib
from dataclasses import fields, replace

import pytest
from court_support import pcts, run_court
from eth_account import Account
from eth_account.messages import _hash_eip191_message, encode_typed_data
from hypothesis import given
from hypothesis import strategies as st

from por.court.eip712 import (
    RULING_TYPE,
    RulingSignature,
    RulingStruct,
    check_ruling_signature,
    ruling_digest,
    ruling_struct,
    sign_ruling,
)
from por.court.verify import verify_court
from por.errors import PorError
from por.signing.eip712 import Eip712Domain

TEST_ONLY_KEY = hashlib.sha256(b"por test-only secp256k1 key: dispute court").digest()
DOMAIN = Eip712Domain(chain_id=31337, verifying_contract=bytes.fromhex("11" * 20))
MEMBERS = [m.split(" ") for m in RULING_TYPE[RULING_TYPE.index("(") + 1:-1].split(",")]


def _typed(ruling: RulingStruct, domain: Eip712Domain) -> dict[str, object]:
    values = [getattr(ruling, f.name) for f in fields(ruling)]
    return {
        "types": {"EIP712Domain": [{"name": "name", "type": "string"},
                                   {"name": "version", "type": "string"},
                                   {"name": "chainId", "type": "uint256"},
                                   {"name": "verifyingContract", "type": "address"}],
                  "Ruling": [{"name": n, "type": t} for t, n in MEMBERS]},
        "primaryType": "Ruling",
        "domain": {"name": "por", "version": "1", "chainId": domain.chain_id,
                   "verifyingContract": "0x" + domain.verifying_contract.hex()},
        "message": {n: v for (_t, n), v in zip(MEMBERS, values, strict=True)},
    }


h32 = st.binary(min_size=32, max_size=32)
u64 = st.integers(0, 2**64 - 1)
rulings = st.builds(RulingStruct, h32, h32, h32, st.booleans(), st.integers(0, 100), h32, h32,
                    u64, u64)


@given(rulings, st.integers(0, 2**64 - 1), st.binary(min_size=20, max_size=20))
def test_digest_equals_eth_account(ruling: RulingStruct, chain_id: int, contract: bytes) -> None:
    domain = Eip712Domain(chain_id=chain_id, verifying_contract=contract)
    signable = encode_typed_data(full_message=_typed(ruling, domain))
    assert _hash_eip191_message(signable) == ruling_digest(ruling, domain)


def test_a_known_answer_and_eth_account_recovers_the_signer() -> None:
    ruling = RulingStruct(bytes(range(32)), b"\x11" * 32, b"\x22" * 32, True, 10, b"\x33" * 32,
                          b"\x44" * 32, 1_767_225_600, 1_767_830_400)
    record = sign_ruling(ruling, TEST_ONLY_KEY, DOMAIN)
    signable = encode_typed_data(full_message=_typed(ruling, DOMAIN))
    recovered = Account.recover_message(signable, signature=record.signature)
    assert recovered.lower() == "0x" + record.signer.hex()
    assert ruling_digest(ruling, DOMAIN).hex() == (
        _hash_eip191_message(signable).hex())
    assert RulingSignature.from_cbor(record.to_cbor()) == record


def test_the_signature_binds_the_final_ruling_of_its_bundle() -> None:
    summary = verify_court(run_court(pcts(10, 30, 20, 0, 0, 0, 0))[0])
    struct = ruling_struct(summary, issued_at=1, expires_at=2)
    assert (struct.upheld, struct.worker_pct, struct.court_root) == (True, 20,
                                                                     summary.court_root)
    record = sign_ruling(struct, TEST_ONLY_KEY, DOMAIN)
    check_ruling_signature(record, summary)
    other = verify_court(run_court(pcts(90, 30, 80, 0, 0, 0, 0))[0])
    with pytest.raises(PorError) as caught:
        check_ruling_signature(record, other)
    assert caught.value.check_id == "court.ruling_mismatch"
    forged = record.model_copy(update={"worker_pct": 31})
    with pytest.raises(PorError):
        check_ruling_signature(forged, summary)
    wrong_domain = record.model_copy(update={"chain_id": 1})
    with pytest.raises(PorError) as bad:
        check_ruling_signature(wrong_domain, summary)
    assert bad.value.check_id == "signature.invalid"
    assert replace(struct, upheld=False) != struct


def test_no_ruling_has_nothing_to_sign() -> None:
    def script(judge_id: str, attempt: int) -> tuple[int, str | bytes]:
        return (404, b"{}") if judge_id == "judge-0" else (200, '{"worker_pct": 1, '
                                                           '"reasoning": "r"}')

    summary = verify_court(run_court(script)[0])
    with pytest.raises(PorError) as caught:
        ruling_struct(summary, issued_at=1, expires_at=2)
    assert caught.value.check_id == "court.no_ruling"
