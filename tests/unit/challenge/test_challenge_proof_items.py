"""Proof item cap (SPEC §10.4 step 0, §17.1; issue 22 item 5).

A proof of ``n`` bytes holds at most ``16 + n // 4`` items in its arrays and maps
together, charged at each container's head, so ``bench/hostile.py``'s
``proof_ints`` (a OneStepProof whose evidence list is 16 million one-byte ints)
is refused at the list's head instead of costing 8 bytes of list per input byte.
"""

from __future__ import annotations

import glob

import pytest
from item_count import items as _items

from por.bundle import Bundle
from por.challenge import build_one_step_proof, check_proof
from por.challenge.records import PROOF_BYTES_PER_ITEM, proof_from_cbor, proof_max_items
from por.encoding import decode, encode
from por.errors import ProofError

#: Vector: the map {"evidence": [0, 0, ... 100 zeros]}: 112 bytes, cap 44 items;
#: the map's head charges 2, the array's head (offset 10) 100 more.
VECTOR = bytes.fromhex("a1" + "68" + b"evidence".hex() + "9864" + "00" * 100)



def test_vector_refused_at_the_array_head() -> None:
    assert len(VECTOR) == 112 and proof_max_items(len(VECTOR)) == 44
    with pytest.raises(ProofError) as info:
        proof_from_cbor(VECTOR)
    assert info.value.check_id == "proof.malformed"
    assert "codec.too_large" in info.value.message
    assert decode(VECTOR)["evidence"] == [0] * 100  # the plain decoder takes it


def test_one_byte_items_refused_before_the_schema() -> None:
    with open("fixtures/bundles/valid/01-boolean-observed.cbor", "rb") as f:
        bundle = Bundle.from_cbor(f.read())
    proof = build_one_step_proof(bundle, 0).to_dict()
    proof["evidence"] = [i % 24 for i in range(20_000)]
    report = check_proof(encode(proof), por_root=bundle.commitments.por_root)
    assert not report.won
    assert report.check_id == "proof.malformed"


@pytest.mark.parametrize("path", sorted(glob.glob("fixtures/bundles/valid/*.cbor")))
def test_every_honest_proof_is_far_under_the_cap(path: str) -> None:
    with open(path, "rb") as f:
        bundle = Bundle.from_cbor(f.read())
    for index in range(len(bundle.steps)):
        data = build_one_step_proof(bundle, index).to_cbor()
        assert _items(decode(data)) * 2 * PROOF_BYTES_PER_ITEM <= len(data)
        assert proof_from_cbor(data).to_cbor() == data
