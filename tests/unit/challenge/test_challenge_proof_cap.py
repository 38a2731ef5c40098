"""One proof cap (SPEC §10.7): the library, ``verify --challenges`` and ``check-proof``.

Issue 22: a 159 MB winning one-step proof was "lost" for ``verify --challenges``
(the library's 64 MiB decoder default) and WON for ``check-proof`` (its 256 MiB
``--max-size``).  Now one constant, ``PROOF_MAX_SIZE`` (72 MiB since every proof
but the extraction proof is small), is every checker's default, and a builder
whose only winning proof is over it says so (``no_proof.too_large``) instead of
calling the challenge lost.  The largest honest proof, an extraction proof of an
item at the content cap under a PromptSpec at its cap, is built and checked
under it, within SPEC §10.7's bound (item leaf + PromptSpec + 4 KiB).
"""

from __future__ import annotations

import argparse

import pytest
from bundle_edits import recommit
from citation_support import reordered_08

from por.bundle import build
from por.challenge import (
    PROOF_MAX_SIZE,
    NoProof,
    bundle_from_bytes,
    check_proof,
    records,
    winning_proof,
)
from por.challenge.citations import build_citation_proof
from por.cli import common
from por.cli.chain_cmd import add_parser as add_chain_parser
from por.cli.challenge_cmd import add_check_proof_parser
from por.protocol import limits
from por.scenarios import load_scenario
from por.schemas import EvidenceBundle, PromptSpec, ReasoningStep
from por.schemas.verification import ChallengeRef

CHECK = 3  # scenario 08: the check step whose citations are reordered


def test_one_constant_for_library_and_cli() -> None:
    parser = argparse.ArgumentParser()
    add_check_proof_parser(parser.add_subparsers())
    args = parser.parse_args(["check-proof", "proof.cbor"])
    assert PROOF_MAX_SIZE == limits.PROOF_MAX_SIZE == 72 * 1024 * 1024  # SPEC §10.7
    assert args.max_size == common.PROOF_MAX_SIZE == PROOF_MAX_SIZE
    chain = argparse.ArgumentParser()
    add_chain_parser(chain.add_subparsers())
    for verb in (["settle", "p.cbor"], ["commit", "p.cbor", "--sender", "0x" + "11" * 20]):
        assert chain.parse_args(["chain", *verb, "--market", "m", "--prompt-spec-hash",
                                 "cd" * 32]).max_size == PROOF_MAX_SIZE


def _byte_string(total: int) -> bytes:
    """A CBOR byte string (head 0x5a, 4-byte length) of ``total`` bytes in all."""
    return b"\x5a" + (total - 5).to_bytes(4, "big") + bytes(total - 5)


def test_at_the_cap_decodes_past_it_does_not() -> None:
    at = check_proof(_byte_string(PROOF_MAX_SIZE))
    assert not at.won and not at.message.startswith("codec.too_large")  # not a proof
    past = check_proof(_byte_string(PROOF_MAX_SIZE + 1))
    assert (past.won, past.check_id) == (False, "proof.malformed")
    assert past.message.startswith("codec.too_large")


def _padded_spec(spec: PromptSpec, size: int) -> PromptSpec:
    """``spec`` padded (its market's event definition, which replay never reads)
    to ``size`` canonical bytes."""
    for _ in range(3):  # the text's head may grow by a byte
        delta = size - len(spec.to_cbor())
        text = spec.market.event_definition
        text = text + " " * delta if delta >= 0 else text[:delta]
        spec = spec.model_copy(update={"market": spec.market.model_copy(
            update={"event_definition": text})})
    return PromptSpec.model_validate(spec.model_dump(by_alias=True))


def test_largest_extraction_proof_fits_its_bound_and_the_cap() -> None:
    scenario = load_scenario("08-quorum-agree")
    spec = _padded_spec(scenario.prompt_spec, limits.MAX_PROMPT_SPEC_BYTES)
    items = list(scenario.evidence.items)
    items[0] = items[0].model_copy(update={"content": items[0].content + b" " * (
        limits.MAX_CONTENT_BYTES - len(items[0].content))})
    evidence = EvidenceBundle(bundle_id=scenario.evidence.bundle_id,
                              market_id=scenario.evidence.market_id, items=items)
    honest = bundle_from_bytes(build(spec, evidence).data)
    assert len(honest.prompt_spec) == limits.MAX_PROMPT_SPEC_BYTES
    step = ReasoningStep.from_cbor(honest.steps[0])
    claims = [dict(c) for c in step.output["claims"]]
    claims[0]["value"] = "999.99"
    forged = step.model_copy(update={"output": {**step.output, "claims": claims}})
    bundle = recommit(honest, steps=[forged.to_cbor(), *honest.steps[1:]])
    found = winning_proof(bundle, ChallengeRef(kind="reasoning_leaf", step_id="step_0001",
                                               leaf_index=0))
    assert not isinstance(found, NoProof), found
    data = found[0].to_cbor()
    # SPEC §10.7: the item leaf, the PromptSpec, the step leaf, and 3 072 for the paths
    bound = len(bundle.evidence[0]) + len(bundle.prompt_spec) + len(bundle.steps[0]) + 3072
    assert len(data) > len(bundle.evidence[0]) + len(bundle.prompt_spec) + len(bundle.steps[0])
    assert len(bundle.evidence[0]) > limits.MAX_CONTENT_BYTES
    assert len(data) <= bound < PROOF_MAX_SIZE
    assert check_proof(data, por_root=bundle.commitments.por_root).won


def test_check_proof_default_is_the_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    bundle, _ = reordered_08()
    data = build_citation_proof(bundle, CHECK).to_cbor()
    root = bundle.commitments.por_root
    assert check_proof(data, por_root=root).won
    monkeypatch.setattr(records, "PROOF_MAX_SIZE", len(data) - 1)
    report = check_proof(data, por_root=root)
    assert (report.won, report.check_id) == (False, "proof.malformed")
    assert report.message.startswith("codec.too_large")
    assert check_proof(data, por_root=root, max_size=len(data)).won


def test_builder_says_too_large_not_lost(monkeypatch: pytest.MonkeyPatch) -> None:
    bundle, _ = reordered_08()
    ref = ChallengeRef(kind="reasoning_leaf", step_id=f"step_{CHECK + 1:04d}",
                       leaf_index=CHECK)
    found = winning_proof(bundle, ref)
    assert not isinstance(found, NoProof)
    monkeypatch.setattr(records, "PROOF_MAX_SIZE", 512)  # smaller than every proof
    found = winning_proof(bundle, ref)
    assert isinstance(found, NoProof) and found.reason == "no_proof.too_large"
    assert "SPEC §10.7" in found.message
