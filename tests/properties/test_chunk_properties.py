"""ADR 0011 stage 3: check chunks of 10 with a running state (SPEC §12.5.3-§12.5.5).

1. Honest generated markets (one to three requirements, up to 25 items, so a
   requirement spans up to three chunks, several sources voting) replay byte for
   byte, and no step has a winning one-step, citation or omission proof.
2. Any chunk whose running state is forged (a count, coverage, a source, a group's
   claim, the leaf span), every commitment recomputed, loses to the one-step proof
   of that chunk, and the proof is under a bound computed from the caps: 64 KiB
   (issue 22), at 10 items, at 1 000 items and at the most a chunk cites.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from bundle_edits import recommit
from hypothesis import given, note, settings
from hypothesis import strategies as st
from test_citation_properties import markets

from por.bundle import build
from por.bundle.layout import Bundle
from por.challenge import (
    CitationProof,
    build_one_step_proof,
    bundle_from_bytes,
    check_proof,
    citation_faults,
    omissions,
)
from por.challenge.batch import ComponentTree
from por.challenge.records import seal
from por.schemas import EvidenceBundle, PromptSpec, ReasoningStep
from verifier import check_bundle

#: Issue 22's target for every proof but an extraction proof.
PROOF_BOUND = 64 * 1024


def _honest(case: tuple[PromptSpec, EvidenceBundle]) -> Bundle:
    return bundle_from_bytes(build(*case).data)


def _chunks(bundle: Bundle) -> list[int]:
    return [n for n, blob in enumerate(bundle.steps)
            if ReasoningStep.from_cbor(blob).inputs.get("kind") == "check_requirement"]


@settings(max_examples=25, deadline=None)
@given(markets())
def test_honest_markets_replay_and_have_no_winning_proof(
        case: tuple[PromptSpec, EvidenceBundle]) -> None:
    built = build(*case)
    assert check_bundle(built.data).ok
    bundle = bundle_from_bytes(built.data)
    assert citation_faults(bundle) == []
    assert omissions(bundle) == []
    for index in range(len(case[1].items), len(bundle.steps)):
        proof = build_one_step_proof(bundle, index).to_cbor()
        report = check_proof(proof, por_root=bundle.commitments.por_root)
        assert report.outcome is not None and report.outcome.outcome == "lost", index
        assert len(proof) < PROOF_BOUND


def _forge(output: dict[str, Any], how: str) -> bool:
    """Edit a chunk's state in place; False when this chunk has nothing to edit."""
    if how == "admitted_count":
        output["admitted_count"] += 1
    elif how == "claim_count":
        output["claim_count"] += 1
    elif how == "covered":
        output["covered"] = not output["covered"]
    elif how == "item_count":
        output["item_count"] += 1
    elif how == "last_leaf":
        output["last_leaf"] = output.get("last_leaf", -1) + 1
    elif how == "sources":
        if not output["sources"]:
            return False
        output["sources"] = output["sources"][1:]
    elif how == "groups":
        numeric = [g for g in output["groups"] if g["kind"] == "numeric"]
        if not numeric:
            return False
        numeric[0]["min"] = {**numeric[0]["min"], "value": "-1"}
    return True


FORGERIES = ["admitted_count", "claim_count", "covered", "item_count", "last_leaf",
             "sources", "groups"]


def _forged(bundle: Bundle, index: int, how: str) -> Bundle | None:
    step = ReasoningStep.from_cbor(bundle.steps[index])
    output = step.to_dict()["output"]
    if not _forge(output, how):
        return None
    steps = list(bundle.steps)
    steps[index] = step.model_copy(update={"output": output}).to_cbor()
    return recommit(bundle, steps=steps)


def _assert_won_small(bundle: Bundle, index: int) -> int:
    proof = build_one_step_proof(bundle, index).to_cbor()
    report = check_proof(proof, por_root=bundle.commitments.por_root)
    assert report.outcome is not None and report.outcome.outcome == "won", report.outcome
    assert len(proof) < PROOF_BOUND
    return len(proof)


@settings(max_examples=40, deadline=None)
@given(markets(), st.data())
def test_a_forged_chunk_state_loses_to_a_small_one_step_proof(
        case: tuple[PromptSpec, EvidenceBundle], data: st.DataObject) -> None:
    bundle = _honest(case)
    index = data.draw(st.sampled_from(_chunks(bundle)))
    how = data.draw(st.sampled_from(FORGERIES))
    forged = _forged(bundle, index, how)
    if forged is None:
        return
    note(f"chunk leaf {index}: {how}")
    _assert_won_small(forged, index)


@pytest.mark.parametrize("count", [10, 1000])
def test_the_proof_of_a_forged_chunk_does_not_grow_with_the_bundle(count: int) -> None:
    # Scenario 08's market over ``count`` items (bench/citations.honest_bundle): the
    # first, a middle and the last chunk, each forged; the proof is bounded by what
    # one chunk cites (10 extract steps and the chunk before), not by ``count``.
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
    from citations import honest_bundle

    bundle = honest_bundle(count)
    chunks = _chunks(bundle)
    assert len(chunks) == -(-count // 10)
    sizes = []
    for index in sorted({chunks[0], chunks[len(chunks) // 2], chunks[-1]}):
        forged = _forged(bundle, index, "claim_count")
        assert forged is not None
        sizes.append(_assert_won_small(forged, index))
    assert max(sizes) < PROOF_BOUND


@settings(max_examples=25, deadline=None)
@given(markets())
def test_honest_markets_have_no_winning_s5_proof(
        case: tuple[PromptSpec, EvidenceBundle]) -> None:
    """Rule S5 (SPEC §10.2.7): every aggregate paired with every step the
    contradictions step cites gives a lost or invalid CitationProof."""
    bundle = _honest(case)
    steps = [ReasoningStep.from_cbor(blob) for blob in bundle.steps]
    tree = ComponentTree("reasoning_leaf", bundle.steps, bundle.commitments)
    for c, step in enumerate(steps):
        if step.inputs.get("kind") != "contradictions":
            continue
        for a, aggregate in enumerate(steps):
            if aggregate.inputs.get("kind") != "aggregate":
                continue
            for sid in step.prior_step_ids:
                x = int(sid[5:]) - 1
                body = {"schema": CitationProof.SCHEMA, "kind": "reasoning_leaf",
                        "por_root": bundle.commitments.por_root,
                        "step": tree.proof(c).to_dict(), "extract_steps": [],
                        "prior_steps": [tree.proof(a).to_dict(), tree.proof(x).to_dict()]}
                report = check_proof(seal(CitationProof, body).to_cbor(),
                                     por_root=bundle.commitments.por_root)
                note(f"{c} {a} {x} {report.check_id}")
                assert not report.won
                assert report.check_id in {"proof.ok", "proof.citations"}
