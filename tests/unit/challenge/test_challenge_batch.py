"""Finding 5 (issue 10): one-step proofs read every path from one tree.

The batch builder assembles canonical bytes from pre-encoded pieces; these
tests pin them against ``por.encoding.encode`` of the same map and against
the one-proof-at-a-time builder, at the CBOR head boundaries (23/24, 255/256)
and for a step citing every item of a 300-item bundle.
"""

from __future__ import annotations

import cbor2
import pytest
from challenge_support import make_bundle, with_step

from por.challenge import build_inclusion_proof, build_one_step_proof, check_proof
from por.challenge.batch import ComponentTree, _head
from por.encoding import encode
from por.schemas import EvidenceItem, ReasoningStep

BIG = make_bundle(300)


@pytest.mark.parametrize("value", [0, 23, 24, 255, 256, 65535, 65536, 2**32 - 1, 2**32,
                                   2**64 - 1])
def test_heads_are_the_shortest_canonical_heads(value: int) -> None:
    assert _head(0, value) == cbor2.dumps(value)
    assert _head(2, value)[:1] == bytes([0x40 | _head(0, value)[0] & 0x1F])


@pytest.mark.parametrize("index", [0, 1, 23, 24, 150, 255, 256, 299])
def test_batch_proof_bytes_equal_the_single_builder(index: int) -> None:
    tree = ComponentTree("evidence_leaf", BIG.evidence, BIG.commitments)
    proof = tree.proof(index)
    single = build_inclusion_proof(BIG, "evidence_leaf", index)
    assert proof.to_cbor() == single.to_cbor() == encode(single.to_dict())
    assert proof.to_dict() == single.to_dict()


def test_a_step_citing_every_item_gives_a_checkable_proof() -> None:
    index = 0
    step = ReasoningStep.from_cbor(BIG.steps[index])
    ids = [EvidenceItem.from_cbor(e).evidence_id for e in BIG.evidence]
    bundle = with_step(BIG, index, step.model_copy(update={"evidence_ids": ids}))
    proof = build_one_step_proof(bundle, index)
    data = proof.to_cbor()
    assert data == encode(proof.to_dict())
    report = check_proof(data, por_root=bundle.commitments.por_root)
    assert (report.status, report.check_id) == ("valid", "proof.ok"), report.message
    assert len(report.inclusions) == 2 + len(ids) + len(step.prior_step_ids)


def test_records_that_do_not_hash_to_the_commitments_give_no_tree() -> None:
    from por.errors import ProofError

    tampered = BIG.model_copy(update={"evidence": [b"\xa0", *BIG.evidence[1:]]})
    with pytest.raises(ProofError) as caught:
        ComponentTree("evidence_leaf", tampered.evidence, tampered.commitments)
    assert caught.value.check_id == "proof.leaf_path"
