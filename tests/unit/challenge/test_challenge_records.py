"""Proof records: the challenge_id rule, strict decoding, and check ids for bad bytes."""

from __future__ import annotations

import hashlib
from typing import Any

import cbor2
import pytest
from challenge_support import make_bundle

from por.challenge import (
    InclusionProof,
    build_bundle_proof,
    build_inclusion_proof,
    build_one_step_proof,
    challenge_id_from_body,
    check_proof,
    proof_from_cbor,
)
from por.encoding import encode
from por.errors import ProofError, UnsupportedError

BUNDLE = make_bundle(3)
PROOF = build_inclusion_proof(BUNDLE, "evidence_leaf", 1)
DATA = PROOF.to_cbor()


def test_challenge_id_is_sha256_of_the_canonical_body_without_the_id() -> None:
    for proof in (PROOF, build_bundle_proof(BUNDLE), build_one_step_proof(BUNDLE, 3)):
        value = cbor2.loads(proof.to_cbor())
        del value["challenge_id"]
        # Independent of por.encoding: cbor2's canonical form of the same map.
        body = cbor2.dumps(value, canonical=True)
        assert proof.challenge_id == hashlib.sha256(body).digest()
        assert challenge_id_from_body(value) == proof.challenge_id
    with pytest.raises(ValueError, match="excludes challenge_id"):
        challenge_id_from_body({"challenge_id": b""})


def test_record_layout() -> None:
    value = cbor2.loads(DATA)
    assert sorted(value) == sorted([
        "schema", "challenge_id", "kind", "component", "leaf", "leaf_index", "tree_size",
        "leaf_path", "component_root", "component_path", "por_root"])
    assert value["schema"] == "por.InclusionProof/1"
    assert (value["kind"], value["component"]) == ("evidence_leaf", "evidence")
    assert value["leaf"] == BUNDLE.evidence[1]
    assert (value["leaf_index"], value["tree_size"]) == (1, 3)
    assert value["component_root"] == BUNDLE.commitments.evidence_root
    assert value["por_root"] == BUNDLE.commitments.por_root
    assert len(value["component_path"]) == 3  # evidence is leaf 2 of 6
    bundle_value = cbor2.loads(build_bundle_proof(BUNDLE).to_cbor())
    assert sorted(bundle_value) == sorted([
        "schema", "challenge_id", "kind", "component_leaves", "manifest", "trace_header",
        "verdict", "por_root"])
    assert bundle_value["component_leaves"] == BUNDLE.commitments.component_leaves()
    step_value = cbor2.loads(build_one_step_proof(BUNDLE, 0).to_cbor())
    assert sorted(step_value) == sorted([
        "schema", "challenge_id", "kind", "por_root", "step", "prompt_spec", "evidence",
        "prior_steps"])


def test_round_trip() -> None:
    assert proof_from_cbor(DATA) == PROOF
    for proof in (build_bundle_proof(BUNDLE), build_one_step_proof(BUNDLE, 3)):
        assert proof_from_cbor(proof.to_cbor()).to_cbor() == proof.to_cbor()


def _modified(**changes: Any) -> bytes:
    value = cbor2.loads(DATA)
    for key, item in changes.items():
        if item is None:
            del value[key]
        else:
            value[key] = item
    return encode(value)


@pytest.mark.parametrize(("data", "check_id"), [
    (b"", "proof.malformed"),
    (DATA + b"\x00", "proof.malformed"),
    (DATA[:-1], "proof.malformed"),
    (b"\xfb\x00\x00\x00\x00\x00\x00\x00\x00", "proof.malformed"),  # a float
    (encode([1, 2]), "proof.schema"),
    (encode({"schema": "por.Bundle/1"}), "proof.schema"),
    (encode({"schema": 7}), "proof.schema"),
    (_modified(tree_size=None), "proof.schema"),
    (_modified(extra=1), "proof.schema"),
    (_modified(leaf_index="1"), "proof.schema"),
    (_modified(kind="por_bundle"), "proof.schema"),
    (_modified(por_root=bytes(31)), "proof.schema"),
    (_modified(leaf_path=[bytes(33)]), "proof.schema"),
    (_modified(leaf_path=[bytes(32)] * 65), "proof.schema"),
    (_modified(tree_size=-1), "proof.schema"),
])
def test_bad_bytes_have_check_ids(data: bytes, check_id: str) -> None:
    with pytest.raises(ProofError) as caught:
        proof_from_cbor(data)
    assert caught.value.check_id == check_id
    report = check_proof(data)
    assert (report.status, report.check_id, report.exit_code) == ("invalid", check_id, 1)


def test_non_canonical_key_order_is_malformed() -> None:
    value = cbor2.loads(DATA)
    items = sorted(value.items(), reverse=True)
    data = cbor2.dumps(dict(items))  # insertion order, not canonical
    assert data != DATA
    report = check_proof(data)
    assert (report.status, report.check_id) == ("invalid", "proof.malformed")


def test_bundle_proof_needs_six_forty_byte_leaves() -> None:
    value = cbor2.loads(build_bundle_proof(BUNDLE).to_cbor())
    for leaves in (value["component_leaves"][:5], [*value["component_leaves"][:5], b"x" * 41]):
        bad = encode({**value, "component_leaves": leaves})
        assert check_proof(bad).check_id == "proof.schema"


def test_unknown_version_is_unsupported() -> None:
    data = _modified(schema="por.InclusionProof/2")
    with pytest.raises(UnsupportedError) as caught:
        proof_from_cbor(data)
    assert caught.value.check_id == "proof.unsupported"
    report = check_proof(data)
    assert (report.status, report.exit_code) == ("error", 2)


def test_size_cap() -> None:
    report = check_proof(DATA, max_size=len(DATA) - 1)
    assert (report.check_id, report.message.split(":")[0]) == ("proof.malformed",
                                                               "codec.too_large")


def test_every_single_bit_flip_of_the_bytes_is_caught() -> None:
    ids = set()
    for bit in range(8 * len(DATA)):
        data = bytearray(DATA)
        data[bit // 8] ^= 1 << (bit % 8)
        report = check_proof(bytes(data))
        assert report.status != "valid", bit
        ids.add(report.check_id)
    assert {"proof.malformed", "proof.schema", "proof.leaf_path", "proof.challenge_id",
            "proof.component_path"} <= ids


def test_json_form_has_every_key() -> None:
    document = check_proof(DATA).to_json_obj()
    assert sorted(document) == sorted([
        "status", "challenge", "exit_code", "check_id", "message", "committed", "recomputed",
        "required", "found", "proof_schema",
        "kind", "challenge_id", "por_root", "inclusions", "bundle", "outcome"])
    inclusion = document["inclusions"][0]
    assert inclusion["leaf"] == BUNDLE.evidence[1].hex()
    assert inclusion["leaf_path"] == [h.hex() for h in PROOF.leaf_path]
    levels = inclusion["levels"]
    assert [lv["level"] for lv in levels] == ["leaf", "component"]
    assert levels[0]["recomputed_root"] == BUNDLE.commitments.evidence_root.hex()
    assert levels[1]["recomputed_root"] == BUNDLE.commitments.por_root.hex()
    assert levels[0]["hashes"][-1] == levels[0]["recomputed_root"]
    assert len(levels[0]["hashes"]) == len(levels[0]["path"]) + 1
    failed = check_proof(_modified(leaf_index=2)).to_json_obj()
    assert failed["check_id"] in {"proof.leaf_path", "merkle.proof_length"}
    assert isinstance(InclusionProof.SCHEMA, str)
