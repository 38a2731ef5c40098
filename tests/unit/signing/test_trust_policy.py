"""The trust rules of SPEC §8.5 in one place (por.signing.policy)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from por.errors import SignatureError
from por.signing.policy import TrustPolicy, period_failures, raise_first

A, B = b"\xaa" * 20, b"\xbb" * 20
times = st.integers(min_value=0, max_value=2**64 - 1)


def ids(failures: list[SignatureError]) -> list[str]:
    return [f.check_id for f in failures]


@given(times, times, st.none() | times)
def test_period_rule_matches_its_definition(issued: int, expires: int, now: int | None) -> None:
    want = []
    if issued > expires or (now is not None and now >= expires):
        want.append("signature.expired")
    if now is not None and now < issued:
        want.append("signature.not_yet_valid")
    assert ids(period_failures(issued, expires, now)) == want


def test_period_edges() -> None:
    assert ids(period_failures(10, 20, 10)) == []
    assert ids(period_failures(10, 20, 19)) == []
    assert ids(period_failures(10, 20, 20)) == ["signature.expired"]
    assert ids(period_failures(10, 20, 9)) == ["signature.not_yet_valid"]
    assert ids(period_failures(20, 10, None)) == ["signature.expired"]
    assert ids(period_failures(20, 10, 5)) == ["signature.expired", "signature.not_yet_valid"]
    assert ids(period_failures(10, 10, None)) == []


def test_signer_rule() -> None:
    assert TrustPolicy().signer_failures(A) == []
    assert TrustPolicy.of([A]).signer_failures(A) == []
    (failure,) = TrustPolicy.of([B]).signer_failures(A)
    assert (failure.check_id, failure.expected, failure.actual) == (
        "signature.untrusted_key", B.hex(), A)
    assert ids(TrustPolicy.of([]).signer_failures(A)) == ["signature.untrusted_key"]


def test_domain_rule() -> None:
    policy = TrustPolicy.of(chain_id=1, contract=A)
    assert policy.domain_failures(1, A) == []
    assert ids(policy.domain_failures(2, B)) == ["signature.chain_id", "signature.contract"]
    assert TrustPolicy().domain_failures(2, B) == []


def test_raise_first() -> None:
    raise_first([])
    with pytest.raises(SignatureError) as info:
        raise_first(period_failures(20, 10, 5))
    assert info.value.check_id == "signature.expired"
