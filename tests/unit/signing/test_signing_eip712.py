"""EIP-712 hashing of the Verdict struct (SPEC §8.1-8.3)."""

from __future__ import annotations

import dataclasses
import hashlib
from typing import Any

import pytest
from eth_account.messages import _hash_eip191_message, encode_typed_data
from hypothesis import given
from hypothesis import strategies as st
from signing_support import sample_domain, sample_verdict

from por.errors import SchemaError
from por.signing.eip712 import (
    UINT64_MAX,
    VERDICT_MEMBERS,
    VERDICT_TYPE,
    Eip712Domain,
    VerdictStruct,
    domain_separator,
    domain_type_hash,
    keccak256,
    market_id_from_text,
    signing_digest,
    struct_hash,
    type_hash,
    typed_data,
)

# The type string exactly as the tracker issue fixes it.
ISSUE_TYPE = (
    "Verdict(bytes32 marketId,uint8 outcome,uint16 confidenceBps,bytes32 promptSpecHash,"
    "bytes32 evidenceRoot,uint64 evidenceCount,bytes32 reasoningRoot,uint64 reasoningCount,"
    "bytes32 porRoot,uint64 issuedAt,uint64 expiresAt,uint64 nonce)"
)


def test_keccak256_is_not_sha3_256() -> None:
    # Known answers: Keccak-256("") (Ethereum) vs FIPS 202 SHA3-256("").
    empty_keccak = "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470"
    empty_sha3 = "a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a"
    assert keccak256(b"").hex() == empty_keccak
    assert hashlib.sha3_256(b"").hexdigest() == empty_sha3
    # keccak256("abc"), as in the Keccak team's known answers.
    assert keccak256(b"abc").hex() == (
        "4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45"
    )


def test_type_strings_and_hashes() -> None:
    assert VERDICT_TYPE == ISSUE_TYPE
    assert type_hash() == keccak256(ISSUE_TYPE.encode("ascii"))
    assert type_hash().hex() == "73f39bfc9bf85863eef7d7591044c382389052307f3dd48c52555f030079180f"
    # The well-known EIP712Domain type hash (OpenZeppelin EIP712.sol TYPE_HASH).
    assert domain_type_hash().hex() == (
        "8b73c3c69bb8fe3d512ecc4cf759cc79239f7b179b0ffacaa9a75d522b39400f"
    )


def test_member_table_matches_type_string_and_dataclass() -> None:
    inner = VERDICT_TYPE[len("Verdict(") : -1].split(",")
    assert [f"{kind} {member}" for _n, member, kind in VERDICT_MEMBERS] == inner
    names = [n for n, _m, _k in VERDICT_MEMBERS]
    assert [f.name for f in dataclasses.fields(VerdictStruct)] == names


def test_market_id_is_keccak_of_utf8() -> None:
    assert market_id_from_text("") == keccak256(b"")
    assert market_id_from_text("é") == keccak256(b"\xc3\xa9")
    assert market_id_from_text("é") != market_id_from_text("e\u0301")  # no normalisation


def test_struct_hash_layout_by_hand() -> None:
    v = sample_verdict()
    words = type_hash()
    for name, _member, kind in VERDICT_MEMBERS:
        value = getattr(v, name)
        words += value if kind == "bytes32" else value.to_bytes(32, "big")
    assert len(words) == 32 * 13
    assert struct_hash(v) == keccak256(words)
    d = sample_domain()
    expected_sep = keccak256(
        domain_type_hash() + keccak256(b"por") + keccak256(b"1")
        + (8453).to_bytes(32, "big") + bytes(12) + d.verifying_contract
    )
    assert domain_separator(d) == expected_sep
    assert signing_digest(v, d) == keccak256(b"\x19\x01" + expected_sep + struct_hash(v))


@pytest.mark.parametrize("name", [n for n, _m, _k in VERDICT_MEMBERS])
def test_every_field_changes_the_digest(name: str) -> None:
    v = sample_verdict()
    value = getattr(v, name)
    if isinstance(value, bytes):
        changed: Any = bytes([value[0] ^ 1]) + value[1:]
    elif name == "outcome":
        changed = 2
    else:
        changed = value + 1
    other = dataclasses.replace(v, **{name: changed})
    assert signing_digest(other, sample_domain()) != signing_digest(v, sample_domain())


@pytest.mark.parametrize(
    "change",
    [{"chain_id": 8454}, {"verifying_contract": bytes(20)}, {"name": "pos"}, {"version": "2"}],
)
def test_every_domain_field_changes_the_digest(change: dict[str, Any]) -> None:
    v = sample_verdict()
    assert signing_digest(v, sample_domain(**change)) != signing_digest(v, sample_domain())


@pytest.mark.parametrize(
    ("change", "check_id"),
    [
        ({"outcome": 0}, "schema.value"),
        ({"outcome": 4}, "schema.value"),
        ({"outcome": True}, "schema.type"),
        ({"confidence_bps": -1}, "schema.value"),
        ({"confidence_bps": 10_001}, "schema.value"),
        ({"evidence_count": -1}, "schema.value"),
        ({"reasoning_count": UINT64_MAX + 1}, "schema.value"),
        ({"nonce": 1.0}, "schema.type"),
        ({"issued_at": "1"}, "schema.type"),
        ({"market_id": bytes(31)}, "schema.value"),
        ({"por_root": bytes(33)}, "schema.value"),
        ({"evidence_root": bytearray(32)}, "schema.type"),
        ({"prompt_spec_hash": "00" * 32}, "schema.type"),
    ],
)
def test_verdict_struct_rejects_out_of_range(change: dict[str, Any], check_id: str) -> None:
    with pytest.raises(SchemaError) as info:
        sample_verdict(**change)
    assert info.value.check_id == check_id


def test_verdict_struct_accepts_bounds() -> None:
    for outcome in (1, 2, 3):
        assert sample_verdict(outcome=outcome).outcome == outcome
    assert sample_verdict(confidence_bps=0, nonce=UINT64_MAX).nonce == UINT64_MAX


@pytest.mark.parametrize(
    ("change", "check_id"),
    [
        ({"chain_id": -1}, "schema.value"),
        ({"chain_id": UINT64_MAX + 1}, "schema.value"),
        ({"chain_id": False}, "schema.type"),
        ({"verifying_contract": bytes(19)}, "schema.value"),
        ({"verifying_contract": bytes(32)}, "schema.value"),
        ({"name": ""}, "schema.value"),
        ({"version": "x" * 65}, "schema.value"),
        ({"name": "\ud800"}, "schema.value"),
        ({"name": b"por"}, "schema.type"),
    ],
)
def test_domain_rejects_bad_values(change: dict[str, Any], check_id: str) -> None:
    with pytest.raises(SchemaError) as info:
        sample_domain(**change)
    assert info.value.check_id == check_id


def test_domain_defaults() -> None:
    d = Eip712Domain(chain_id=1, verifying_contract=bytes(20))
    assert (d.name, d.version) == ("por", "1")


_hash32 = st.binary(min_size=32, max_size=32)
_u64 = st.integers(min_value=0, max_value=UINT64_MAX)


@given(
    st.builds(
        VerdictStruct,
        market_id=_hash32, outcome=st.integers(1, 3), confidence_bps=st.integers(0, 10_000),
        prompt_spec_hash=_hash32, evidence_root=_hash32, evidence_count=_u64,
        reasoning_root=_hash32, reasoning_count=_u64, por_root=_hash32,
        issued_at=_u64, expires_at=_u64, nonce=_u64,
    ),
    st.builds(
        Eip712Domain,
        chain_id=_u64, verifying_contract=st.binary(min_size=20, max_size=20),
        name=st.text(st.characters(exclude_categories=["Cs"]), min_size=1, max_size=64),
        version=st.sampled_from(["1", "2", "1.0.0"]),
    ),
)
def test_digest_equals_eth_account(verdict: VerdictStruct, domain: Eip712Domain) -> None:
    signable = encode_typed_data(full_message=typed_data(verdict, domain))
    assert _hash_eip191_message(signable) == signing_digest(verdict, domain)
