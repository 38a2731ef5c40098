"""The worked example of docs/spec-challenges.md §10.9, recomputed.

Provenance: the values were produced by this implementation for
``make_bundle(3)`` and pasted into the document; the RFC 9162 steps are
re-derived here by hand with hashlib (not with por.merkle), and every value
must appear verbatim in the document, so code and text cannot drift apart.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from challenge_support import make_bundle

from por.challenge import build_inclusion_proof

DOC = Path(__file__).resolve().parents[3] / "docs" / "spec-challenges.md"


def lh(data: bytes) -> bytes:
    return hashlib.sha256(b"\x00" + data).digest()


def nh(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


def test_worked_example() -> None:
    bundle = make_bundle(3)
    proof = build_inclusion_proof(bundle, "evidence_leaf", 1)
    data = proof.to_cbor()
    e0, e1, e2 = (lh(x) for x in bundle.evidence)
    assert proof.leaf_path == [e0, e2]
    step1 = nh(e0, e1)
    evidence_root = nh(step1, e2)
    assert evidence_root == proof.component_root == bundle.commitments.evidence_root
    c = [lh(x) for x in bundle.commitments.component_leaves()]
    component_leaf = evidence_root + (3).to_bytes(8, "big")
    assert lh(component_leaf) == c[2]
    assert proof.component_path == [c[3], nh(c[0], c[1]), nh(nh(c[4], c[5]), c[6])]
    a = nh(c[2], c[3])
    b = nh(nh(c[0], c[1]), a)
    por_root = nh(b, nh(nh(c[4], c[5]), c[6]))
    assert por_root == proof.por_root == bundle.commitments.por_root

    text = DOC.read_text(encoding="utf-8")
    flat = "".join(text.split())
    values = [e1, e0, step1, e2, evidence_root, lh(component_leaf), c[3], a, nh(c[0], c[1]),
              b, nh(c[4], c[5]), nh(nh(c[4], c[5]), c[6]), por_root, proof.challenge_id,
              hashlib.sha256(data).digest()]
    for value in values:
        assert value.hex() in text, value.hex()
    assert component_leaf.hex() in text
    assert proof.leaf.hex() in flat
    assert f"The proof file is {len(data)} bytes" in text
    assert f"Leaf ({len(proof.leaf)} bytes" in text
