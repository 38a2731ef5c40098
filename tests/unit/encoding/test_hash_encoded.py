"""``hash_encoded`` feeds exactly ``encode(value)`` to a digest (SPEC §10.3: a proof's
challenge_id is SHA-256 of its body's encoding), without building a long leaf's copy."""

from __future__ import annotations

import hashlib
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from por.encoding import encode
from por.encoding.encoder import hash_encoded

_SCALARS = st.one_of(st.integers(min_value=-(2**64), max_value=2**64 - 1), st.booleans(),
                     st.text(max_size=30), st.binary(max_size=40),
                     st.binary(min_size=4097, max_size=5000))
_VALUES = st.recursive(_SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=30), st.dictionaries(st.text(max_size=12), inner, max_size=30)),
    max_leaves=60)


def _fed(value: Any, depth: int = 3) -> bytes:
    digest = hashlib.sha256()
    hash_encoded(value, digest, depth=depth)
    return digest.digest()


@given(_VALUES, st.integers(min_value=0, max_value=5))
def test_the_digest_is_that_of_the_encoding(value: Any, depth: int) -> None:
    assert _fed(value, depth) == hashlib.sha256(encode(value)).digest()


def test_known_answer_with_a_long_leaf_and_unordered_keys() -> None:
    body = {"schema": "por.InclusionProof/1", "leaf": b"\x00" * 70_000, "leaf_index": 0,
            "kind": "reasoning_leaf", "leaf_path": [b"\x01" * 32] * 30}
    assert _fed(body) == hashlib.sha256(encode(body)).digest()
    # a canary: one byte of the leaf changes the digest
    assert _fed({**body, "leaf": b"\x00" * 69_999 + b"\x01"}) != _fed(body)
