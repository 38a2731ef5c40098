"""Signature verification of a verdict (SPEC §8.5), including BAD_INPUTS.md
group 22, for both schemes."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import pytest
from signing_support import (
    CONTRACT,
    EXPIRES_AT,
    ISSUED_AT,
    TEST_ONLY_ED25519,
    TEST_ONLY_SECP256K1,
    sample_domain,
    sample_verdict,
)

from por.errors import SignatureError
from por.signing.checks import SIGNATURE_CHECK_IDS
from por.signing.eip712 import VERDICT_MEMBERS, VerdictStruct
from por.signing.keys import PrivateKey, generate_key
from por.signing.record import (
    VerdictSignature,
    check_signature,
    sign_verdict,
    verify_signature,
)
from por.signing.secp256k1 import N

KEYS = {"secp256k1": TEST_ONLY_SECP256K1, "ed25519": TEST_ONLY_ED25519}
NOW = ISSUED_AT + 60
CHAIN = 8453


def _signed(scheme: str) -> tuple[VerdictSignature, VerdictStruct]:
    verdict = sample_verdict()
    return sign_verdict(verdict, key=KEYS[scheme], domain=sample_domain()), verdict


def _verify(sig: VerdictSignature, verdict: VerdictStruct, **kw: Any) -> None:
    options: dict[str, Any] = {
        "now": NOW, "trusted": {sig.signer if "signer" not in kw else kw.pop("signer")},
        "expected_chain_id": CHAIN, "expected_contract": CONTRACT,
    }
    options.update(kw)
    verify_signature(sig, verdict, **options)


def _check_id(sig: VerdictSignature, verdict: VerdictStruct, **kw: Any) -> str:
    with pytest.raises(SignatureError) as info:
        _verify(sig, verdict, **kw)
    assert info.value.check_id in SIGNATURE_CHECK_IDS
    return info.value.check_id


def _with_sig_bytes(sig: VerdictSignature, signature: bytes) -> VerdictSignature:
    # Through the wire form, as a tampered bundle would deliver it.
    return VerdictSignature.from_dict({**sig.to_dict(), "signature": signature})


def _high_s_twin(sig: VerdictSignature) -> VerdictSignature:
    raw = sig.signature
    s = int.from_bytes(raw[32:64], "big")
    return _with_sig_bytes(sig, raw[:32] + (N - s).to_bytes(32, "big") + bytes([55 - raw[64]]))


def _set_v(v: int) -> Callable[[VerdictSignature], VerdictSignature]:
    return lambda sig: _with_sig_bytes(sig, sig.signature[:64] + bytes([v]))


def _other_verdict(sig: VerdictSignature, verdict: VerdictStruct) -> tuple[Any, Any]:
    # A valid signature over another verdict, checked against this one.
    other = dataclasses.replace(verdict, outcome=2, confidence_bps=9_000)
    return sign_verdict(other, key=KEYS[_key_scheme(sig)], domain=sample_domain()), verdict


def _key_scheme(sig: VerdictSignature) -> str:
    return sig.scheme.removesuffix("-eip712")


# BAD_INPUTS.md group 22, one row per listed bad input:
# (id, schemes, transform (sig, verdict) -> (sig, verdict), verify options, check id)
_Row = tuple[str, tuple[str, ...], Callable[[Any, Any], tuple[Any, Any]], dict[str, Any], str]
ROWS: list[_Row] = [
    ("22-tampered-outcome", ("secp256k1", "ed25519"),
     lambda s, v: (s, dataclasses.replace(v, outcome=3)), {}, "signature.invalid"),
    ("22-tampered-evidence-root", ("secp256k1", "ed25519"),
     lambda s, v: (s, dataclasses.replace(v, evidence_root=bytes(32))), {}, "signature.invalid"),
    ("22-tampered-nonce-in-record", ("secp256k1", "ed25519"),
     lambda s, v: (VerdictSignature.from_dict({**s.to_dict(), "nonce": 2}), v), {},
     "signature.field_mismatch"),
    ("22-high-s-twin", ("secp256k1",),
     lambda s, v: (_high_s_twin(s), v), {}, "signature.high_s"),
    ("22-v-0", ("secp256k1",), lambda s, v: (_set_v(0)(s), v), {}, "signature.bad_v"),
    ("22-v-1", ("secp256k1",), lambda s, v: (_set_v(1)(s), v), {}, "signature.bad_v"),
    ("22-v-29", ("secp256k1",), lambda s, v: (_set_v(29)(s), v), {}, "signature.bad_v"),
    ("22-v-35-eip155", ("secp256k1",), lambda s, v: (_set_v(35)(s), v), {}, "signature.bad_v"),
    ("22-wrong-chain-id", ("secp256k1", "ed25519"),
     lambda s, v: (s, v), {"expected_chain_id": 1}, "signature.chain_id"),
    ("22-wrong-contract", ("secp256k1", "ed25519"),
     lambda s, v: (s, v), {"expected_contract": bytes(20)}, "signature.contract"),
    ("22-unknown-key", ("secp256k1", "ed25519"),
     lambda s, v: (s, v), {"signer": b"\x01" * 20}, "signature.untrusted_key"),
    ("22-expired", ("secp256k1", "ed25519"),
     lambda s, v: (s, v), {"now": EXPIRES_AT}, "signature.expired"),
    ("22-signature-over-another-verdict", ("secp256k1", "ed25519"),
     _other_verdict, {}, "signature.invalid"),
    ("22-truncated-signature", ("secp256k1", "ed25519"),
     lambda s, v: (_with_sig_bytes(s, s.signature[:-1]), v), {}, "signature.malformed"),
    ("22-extended-signature", ("secp256k1", "ed25519"),
     lambda s, v: (_with_sig_bytes(s, s.signature + b"\x00"), v), {}, "signature.malformed"),
    ("22-empty-signature", ("secp256k1", "ed25519"),
     lambda s, v: (_with_sig_bytes(s, b""), v), {}, "signature.malformed"),
    ("22-zero-signer", ("secp256k1", "ed25519"),
     lambda s, v: (VerdictSignature.from_dict({**s.to_dict(), "signer": bytes(len(s.signer))}),
                   v), {}, "signature.zero_signer"),
    ("22-scheme-swapped", ("secp256k1", "ed25519"),
     lambda s, v: (VerdictSignature.from_dict({**s.to_dict(), "scheme": (
         "ed25519-eip712" if s.scheme == "secp256k1-eip712" else "secp256k1-eip712")}), v),
     {}, "signature.malformed"),
]
PARAMS = [
    pytest.param(scheme, row, id=f"{row[0]}-{scheme}")
    for row in ROWS for scheme in row[1]
]


@pytest.mark.parametrize(("scheme", "row"), PARAMS)
def test_bad_inputs_group_22(scheme: str, row: _Row) -> None:
    _id, _schemes, transform, options, check_id = row
    sig, verdict = _signed(scheme)
    _verify(sig, verdict)  # the untouched pair verifies
    bad_sig, bad_verdict = transform(sig, verdict)
    assert _check_id(bad_sig, bad_verdict, **options) == check_id


@pytest.mark.parametrize("scheme", ["secp256k1", "ed25519"])
@pytest.mark.parametrize("name", [n for n, _m, _k in VERDICT_MEMBERS])
def test_tampering_each_signed_field_fails(scheme: str, name: str) -> None:
    sig, verdict = _signed(scheme)
    value = getattr(verdict, name)
    if isinstance(value, bytes):
        changed: Any = value[:-1] + bytes([value[-1] ^ 0x80])
    elif name == "outcome":
        changed = 2
    else:
        changed = value + 1
    tampered = dataclasses.replace(verdict, **{name: changed})
    # Committed values differ from the signed ones.  The three values the
    # record also carries are caught by comparison, the rest cryptographically.
    expected = ("signature.field_mismatch" if name in {"issued_at", "expires_at", "nonce"}
                else "signature.invalid")
    assert _check_id(sig, tampered) == expected
    if name in {"issued_at", "expires_at", "nonce"}:
        # Changing them in the record as well still fails: they are signed.
        record = VerdictSignature.from_dict({**sig.to_dict(), name: changed})
        assert _check_id(record, tampered) == "signature.invalid"


@pytest.mark.parametrize("scheme", ["secp256k1", "ed25519"])
@pytest.mark.parametrize(
    "change",
    [{"chain_id": 1}, {"verifying_contract": bytes(20)}, {"domain_name": "pos"},
     {"domain_version": "2"}],
)
def test_tampering_each_domain_field_fails(scheme: str, change: dict[str, Any]) -> None:
    sig, verdict = _signed(scheme)
    record = VerdictSignature.from_dict({**sig.to_dict(), **change})
    # With no expectation about the domain, the signature itself fails.
    assert _check_id(record, verdict, expected_chain_id=None, expected_contract=None,
                     expected_domain_name=None, expected_domain_version=None) == (
        "signature.invalid")


@pytest.mark.parametrize("scheme", ["secp256k1", "ed25519"])
def test_domain_name_or_version_mismatch(scheme: str) -> None:
    sig, verdict = _signed(scheme)
    assert _check_id(sig, verdict, expected_domain_name="other") == "signature.field_mismatch"
    assert _check_id(sig, verdict, expected_domain_version="9") == "signature.field_mismatch"


@pytest.mark.parametrize("scheme", ["secp256k1", "ed25519"])
def test_validity_period(scheme: str) -> None:
    sig, verdict = _signed(scheme)
    _verify(sig, verdict, now=ISSUED_AT)
    _verify(sig, verdict, now=EXPIRES_AT - 1)
    assert _check_id(sig, verdict, now=EXPIRES_AT) == "signature.expired"
    assert _check_id(sig, verdict, now=ISSUED_AT - 1) == "signature.not_yet_valid"


@pytest.mark.parametrize("scheme", ["secp256k1", "ed25519"])
def test_issued_after_expiry_is_expired(scheme: str) -> None:
    verdict = sample_verdict(issued_at=EXPIRES_AT, expires_at=ISSUED_AT)
    sig = sign_verdict(verdict, key=KEYS[scheme], domain=sample_domain())
    assert _check_id(sig, verdict, now=ISSUED_AT) == "signature.expired"


@pytest.mark.parametrize("scheme", ["secp256k1", "ed25519"])
def test_trust_is_by_signer_id(scheme: str) -> None:
    sig, verdict = _signed(scheme)
    other: PrivateKey = generate_key(KEYS[scheme].scheme)
    by_other = sign_verdict(verdict, key=other, domain=sample_domain())
    assert by_other.signer != sig.signer
    assert _check_id(by_other, verdict, signer=sig.signer) == "signature.untrusted_key"
    _verify(by_other, verdict, trusted={sig.signer, by_other.signer})
    # trusted=None: self-consistency only.
    verify_signature(by_other, verdict, now=NOW, trusted=None)


def test_signer_claiming_another_key_is_invalid() -> None:
    sig, verdict = _signed("secp256k1")
    other = sign_verdict(verdict, key=generate_key("secp256k1"), domain=sample_domain())
    forged = VerdictSignature.from_dict({**other.to_dict(), "signer": sig.signer})
    assert _check_id(forged, verdict) == "signature.invalid"


@pytest.mark.parametrize("scheme", ["secp256k1", "ed25519"])
def test_check_signature_lists_every_failure_in_step_order(scheme: str) -> None:
    sig, verdict = _signed(scheme)
    assert check_signature(sig, verdict, now=NOW, trusted={sig.signer},
                           expected_chain_id=CHAIN, expected_contract=CONTRACT) == ()
    failures = check_signature(
        sig, dataclasses.replace(verdict, outcome=3), now=EXPIRES_AT + 5, trusted=set(),
        expected_chain_id=1, expected_contract=bytes(20),
    )
    assert [f.check_id for f in failures] == [
        "signature.chain_id", "signature.contract", "signature.invalid",
        "signature.untrusted_key", "signature.expired",
    ]
    assert failures[0].expected == 1 and failures[0].actual == CHAIN


def test_malformed_skips_the_cryptographic_step() -> None:
    sig, verdict = _signed("secp256k1")
    bad = _with_sig_bytes(sig, sig.signature[:10])
    ids = [f.check_id for f in check_signature(bad, verdict, now=NOW)]
    assert ids == ["signature.malformed"]


@pytest.mark.parametrize("scheme", ["secp256k1", "ed25519"])
def test_signing_is_deterministic(scheme: str) -> None:
    a, _ = _signed(scheme)
    b, _ = _signed(scheme)
    assert a == b
