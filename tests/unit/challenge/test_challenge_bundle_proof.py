"""Bundle proofs (kind ``por_bundle``): the six component leaves under por_root.

A verified BundleProof proves what the signed ``por_root`` commits to (every
component's root and size) and carries the manifest, trace header and verdict;
inconsistencies among them are *findings* (outcome ``upheld``), not proof
failures.
"""

from __future__ import annotations

from typing import Any

import pytest
from challenge_support import MARKET_ID, WINDOW, assemble, make_bundle

from por.bundle.layout import COMPONENT_INDEX, Bundle, component_leaf, compute_commitments
from por.challenge import BundleProof, build_bundle_proof, check_proof, verify_bundle_proof
from por.challenge.records import seal
from por.errors import ProofError
from por.merkle import leaf_hash, root_hash
from por.schemas import DeterministicVerdict, TraceHeader, TracePolicy

BUNDLE = make_bundle(3)


def _reseal(proof: BundleProof, **changes: Any) -> BundleProof:
    body = proof.to_dict()
    del body["challenge_id"]
    body.update(changes)
    result: BundleProof = seal(BundleProof, body)
    return result


def _outcome(bundle: Bundle) -> tuple[str, str, list[str]]:
    report = check_proof(build_bundle_proof(bundle).to_cbor(),
                         por_root=bundle.commitments.por_root)
    assert report.status == "valid"
    assert report.outcome is not None and report.bundle is not None
    assert report.exit_code == (0 if report.outcome.outcome == "won" else 1)
    return (report.outcome.outcome, report.outcome.reason,
            [f.check_id for f in report.bundle.findings])


def test_valid_bundle_proof_is_consistent() -> None:
    proof = build_bundle_proof(BUNDLE)
    check = verify_bundle_proof(proof, por_root=BUNDLE.commitments.por_root)
    assert check.calculated_root == BUNDLE.commitments.por_root
    assert check.findings == []
    assert _outcome(BUNDLE) == ("lost", "bundle.consistent", [])
    components = check.to_json_obj()["components"]
    assert [(c["name"], c["size"]) for c in components] == [
        ("manifest", 1), ("prompt_spec", 1), ("evidence", 3), ("trace_header", 1),
        ("reasoning", 4), ("verdict", 1), ("forms", len(BUNDLE.forms))]
    assert components[2]["root"] == BUNDLE.commitments.evidence_root.hex()


def _header(step_count: int, market_id: str = MARKET_ID) -> bytes:
    return TraceHeader(trace_id="t", market_id=market_id, policy=TracePolicy(max_steps=64),
                       step_count=step_count).to_cbor()


def test_trace_header_count_that_differs_from_the_reasoning_tree() -> None:
    bundle = assemble(BUNDLE.prompt_spec, list(BUNDLE.evidence), list(BUNDLE.steps),
                      header=_header(5))
    assert _outcome(bundle) == ("won", "bundle.step_count", ["bundle.step_count"])


def test_verdict_that_names_other_commitments() -> None:
    verdict = DeterministicVerdict(
        market_id=MARKET_ID, outcome="YES", confidence_bps=7000,
        resolution_rule_id="R_BINARY_DECISION", prompt_spec_hash=leaf_hash(BUNDLE.prompt_spec),
        evidence_root=root_hash(list(BUNDLE.evidence)), evidence_count=2,
        reasoning_root=bytes(32), reasoning_count=4, resolution_time=WINDOW[1]).to_cbor()
    bundle = assemble(BUNDLE.prompt_spec, list(BUNDLE.evidence), list(BUNDLE.steps),
                      verdict=verdict, header=_header(4, market_id="another"))
    assert _outcome(bundle) == ("won", "bundle.market_id", [
        "bundle.market_id", "commit.verdict_refs", "commit.verdict_refs"])


def test_records_that_are_not_valid() -> None:
    bundle = assemble(BUNDLE.prompt_spec, list(BUNDLE.evidence), list(BUNDLE.steps),
                      verdict=b"\xa0")
    assert _outcome(bundle)[2] == ["schema.unknown_schema"]


def test_single_record_component_with_a_size_other_than_one() -> None:
    leaves = BUNDLE.commitments.component_leaves()
    leaves[COMPONENT_INDEX["prompt_spec"]] = component_leaf(BUNDLE.commitments.prompt_spec_hash,
                                                            2)
    proof = _reseal(build_bundle_proof(BUNDLE), component_leaves=leaves,
                    por_root=root_hash(leaves))
    check = verify_bundle_proof(proof)
    assert [f.check_id for f in check.findings] == ["bundle.component_size"]


def _fails(proof: BundleProof, por_root: bytes | None = None) -> str:
    with pytest.raises(ProofError) as caught:
        verify_bundle_proof(proof, por_root=por_root)
    report = check_proof(proof.to_cbor(), por_root=por_root)
    assert (report.status, report.check_id) == ("invalid", caught.value.check_id)
    return caught.value.check_id


def test_corruptions() -> None:
    proof = build_bundle_proof(BUNDLE)
    leaves = list(proof.component_leaves)
    for i in range(6):
        for bit in (0, 255, 319):
            bad = list(leaves)
            flipped = bytearray(bad[i])
            flipped[bit // 8] ^= 1 << (bit % 8)
            bad[i] = bytes(flipped)
            assert _fails(_reseal(proof, component_leaves=bad)) == "proof.component_leaves"
    swapped = [leaves[1], leaves[0], *leaves[2:]]
    assert _fails(_reseal(proof, component_leaves=swapped)) == "proof.component_leaves"
    assert _fails(_reseal(proof, por_root=bytes(32))) == "proof.component_leaves"
    assert _fails(proof, por_root=bytes(32)) == "proof.por_root"
    for name in ("manifest", "trace_header", "verdict"):
        assert _fails(_reseal(proof, **{name: getattr(proof, name) + b"x"})) \
            == "proof.record_hash"
    stale = BundleProof.from_dict({**proof.to_dict(), "challenge_id": bytes(32)})
    assert _fails(stale) == "proof.challenge_id"


def test_builder_refuses_commitments_that_do_not_hash_to_por_root() -> None:
    wrong = BUNDLE.commitments.model_copy(update={"evidence_count": 9})
    with pytest.raises(ProofError) as caught:
        build_bundle_proof(BUNDLE.model_copy(update={"commitments": wrong}))
    assert caught.value.check_id == "proof.component_leaves"
    # Consistent commitments over different records: the records are not committed.
    commitments = compute_commitments(manifest=BUNDLE.manifest, prompt_spec=BUNDLE.prompt_spec,
                                      evidence=list(BUNDLE.evidence), trace_header=b"\xa0",
                                      steps=list(BUNDLE.steps), verdict=BUNDLE.verdict)
    with pytest.raises(ProofError) as caught:
        build_bundle_proof(BUNDLE.model_copy(update={"commitments": commitments}))
    assert caught.value.check_id == "proof.record_hash"
