"""The step item cap ``MAX_STEP_ITEMS = 1024`` (SPEC §17.1, issue 22 item 5): vectors.

A ``por.ReasoningStep/1`` record of exactly 1024 items in its arrays and maps is
accepted; one of 1025 is ``codec.too_large`` at the head of the container that passes
the cap (offset given).  Recommitted in fixture ``01-boolean-observed`` at a
non-extract step's place, the over-cap step is rejected by replay with that check id
at its leaf, its InclusionProof is won (``inclusion.invalid_record``, cause
``codec.too_large``) and is the leaf plus a few hundred bytes, and the one-step proof
of the next step, which carries it as a prior step, is won
(``one_step.invalid_record``).  Provenance: generated here from the committed fixture
(its ``map`` step, padded with an ``output`` list of zeros).
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import pytest
from file_modules import load_file
from item_count import items

from por.bundle import Bundle
from por.challenge import (
    build_inclusion_proof,
    build_one_step_proof,
    check_proof,
    describe_leaf,
    winning_proof,
)
from por.challenge.records import InclusionProof
from por.encoding import decode, encode
from por.errors import PorError
from por.protocol.limits import MAX_STEP_ITEMS
from por.schemas import ReasoningStep
from por.schemas.verification import ChallengeRef
from verifier import check_bundle

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "fixtures" / "bundles" / "valid" / "01-boolean-observed.cbor"
GEN: Any = load_file("gen_bundles_step_item_cap", ROOT / "fixtures" / "bundles" / "generate.py")
BUNDLE = Bundle.from_cbor(FIXTURE.read_bytes())
#: The fixture's steps: 1 extract, 1 check chunk, aggregate, contradictions, deduce, map.
DEDUCE = len(BUNDLE.steps) - 2



def padded(index: int, total: int) -> bytes:
    """Step leaf ``index`` of the fixture with ``output.pad``, a list of zeros, so
    that the record holds exactly ``total`` items."""
    value = decode(BUNDLE.steps[index])
    base = items(value) + 2  # the "pad" key and its list's value slot
    value["output"] = {**value["output"], "pad": [0] * (total - base)}
    data = encode(value)
    assert items(decode(data)) == total
    return data


#: Known answers: the first 16 hex digits of each record's SHA-256, and the offset of
#: the container that passes the cap in the 1025-item record (its last array,
#: ``prior_step_ids``: keys are charged in canonical order, §2).
AT_SHA, PAST_SHA, PAST_OFFSET = "f573c603500b7e7a", "0630d5b3c9723ce3", 1414


def test_a_step_at_the_cap_is_accepted_and_one_past_it_refused() -> None:
    at, past = padded(DEDUCE, MAX_STEP_ITEMS), padded(DEDUCE, MAX_STEP_ITEMS + 1)
    assert hashlib.sha256(at).hexdigest()[:16] == AT_SHA
    assert hashlib.sha256(past).hexdigest()[:16] == PAST_SHA
    assert ReasoningStep.from_cbor(at).step_id == f"step_{DEDUCE + 1:04d}"
    with pytest.raises(PorError) as info:
        ReasoningStep.from_cbor(past)
    assert info.value.check_id == "codec.too_large"
    assert info.value.message == f"more items than the format allows at offset {PAST_OFFSET}"
    assert past[PAST_OFFSET] >> 5 == 4 and b"prior_step_ids" in past[PAST_OFFSET - 15:PAST_OFFSET]
    assert describe_leaf("reasoning_leaf", at) == ("ok", f"step_{DEDUCE + 1:04d}")
    assert describe_leaf("reasoning_leaf", past) == ("codec.too_large", None)


@pytest.fixture(scope="module")
def forged() -> Bundle:
    steps = list(BUNDLE.steps)
    steps[DEDUCE] = padded(DEDUCE, MAX_STEP_ITEMS + 1)
    return Bundle.from_cbor(GEN.rebuild(BUNDLE, steps=steps))


def test_replay_rejects_the_over_cap_step_at_its_leaf(forged: Bundle) -> None:
    report = check_bundle(forged.to_cbor())
    failed = [c for c in report.checks if not c.ok]
    assert failed[0].check_id == "codec.too_large"
    assert failed[0].challenge == ChallengeRef(kind="reasoning_leaf", leaf_index=DEDUCE)


def test_its_inclusion_proof_is_won_and_the_leaf_plus_little(forged: Bundle) -> None:
    proof = build_inclusion_proof(forged, "reasoning_leaf", DEDUCE)
    report = check_proof(proof.to_cbor(), por_root=forged.commitments.por_root)
    assert report.won and report.outcome is not None
    assert (report.outcome.reason, report.outcome.cause) == (
        "inclusion.invalid_record", "codec.too_large")
    assert len(proof.to_cbor()) <= len(forged.steps[DEDUCE]) + 1024
    found = winning_proof(forged, ChallengeRef(kind="reasoning_leaf", leaf_index=DEDUCE))
    assert isinstance(found, tuple) and isinstance(found[0], InclusionProof)


def test_a_proof_carrying_it_as_a_prior_step_is_won(forged: Bundle) -> None:
    proof = build_one_step_proof(forged, DEDUCE + 1)  # the map step cites the deduce step
    report = check_proof(proof.to_cbor(), por_root=forged.commitments.por_root)
    assert report.won and report.outcome is not None
    assert (report.outcome.reason, report.outcome.cause) == (
        "one_step.invalid_record", "codec.too_large")
