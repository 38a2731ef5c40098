"""On-chain re-execution of the ``aggregate`` step (SPEC §12.5.4, §14.8) agrees with
``por check-proof``.

``PorAggregateExec.execute`` (the committed build, in revm) and the Python library get
the same ``por.OneStepProof/1`` bytes and must give the same WON/LOST and check id.
Cases: every aggregate step of every fixture market (quorum markets 08, 50, 67
included) and of generated markets (``test_citation_properties.markets``), honest
(lost ``one_step.match``), and forged bundles (every commitment recomputed,
``aggregate_lies``): each field's status, value, candidates, claim and evidence ids,
quorum numbers, votes, sources_used, fallback_used, copied keys and the description
changed; claims and cards of the cited extract steps edited (64-character and
non-canonical decimals, tiers for ``highest_provenance`` ties, a second claim of one
key, malformed cards and claims); the cited chunk's state malformed; the PromptSpec
fields the aggregate reads changed, tolerances at the exact |a - b| of two voters, and
malformed. About half the forgeries rewrite the aggregate from its citations by
``recompute_step`` (consistent: lost). At least 2 500 proofs (``test_aggregate_case_count``,
last). Other step kinds revert ``CourtPath(kind)``.
"""

from __future__ import annotations

import importlib.util
import random
from collections import Counter
from pathlib import Path
from typing import Any

from aggregate_lies import aggregates, forge
from bundle_edits import honest, recommit
from exec_support import (
    OUTCOMES,
    ExecChecker,
    assert_case_count,
    every_market,
    generated_cases,
    generated_market,
)
from proof_check_support import ProofChecker, python_answer

from por.bundle import build
from por.bundle.layout import Bundle
from por.challenge import bundle_from_bytes
from por.challenge.one_step import build_one_step_proof
from por.encoding import decode, encode

COUNTS: Counter[str] = Counter()
#: Forged bundles per fixture market.
FORGED = 52
_CHAIN = ExecChecker("PorAggregateExec")


def exercise(bundle: Bundle, rng: random.Random, forged: int) -> None:
    for index in aggregates(bundle):
        _CHAIN.compare(bundle, index, "agg.honest", COUNTS)
    for _ in range(forged):
        forged_bundle, index = forge(bundle, rng)
        _CHAIN.compare(forged_bundle, index, "agg.forged", COUNTS)


def test_aggregate_steps_on_every_fixture_market() -> None:
    every_market(exercise, 2402, FORGED)


@generated_cases(max_examples=30)
def test_aggregate_steps_on_generated_markets(case: Any, seed: int) -> None:
    generated_market(exercise, case, seed, forged=12)


def test_mutated_aggregate_proofs() -> None:
    """Damaged proof bytes: both sides name the same failure, the contract never
    reverts. The executor takes bytes the router's §2 reader accepted
    (``PorProofCheck.checkCbor``); the rest are ``proof.malformed`` there."""
    reader = ProofChecker()
    rng = random.Random(11)  # noqa: S311 - seeded cases, not secrets
    for name in ("08-quorum-agree", "11-fallback-chain", "67-two-of-three-below"):
        bundle = honest(name)
        proof = build_one_step_proof(bundle, aggregates(bundle)[0]).to_cbor()
        for _ in range(60):
            at = rng.randrange(len(proof))
            data = proof[:at] + bytes([proof[at] ^ (1 << rng.randrange(8))]) + proof[at + 1:]
            if reader.cbor(data) is not None:
                assert python_answer(data) == (False, "proof.malformed"), (name, at)
                continue
            won, check_id, _gas = _CHAIN.execute(data)
            assert (won, check_id) == python_answer(data), (name, at)
            COUNTS["agg.mutated"] += 1


def test_other_kinds_take_the_court_path() -> None:
    bundle = honest("08-quorum-agree")
    for index in range(len(bundle.steps)):
        if index in aggregates(bundle):
            continue
        won, check_id, _gas = _CHAIN.execute(build_one_step_proof(bundle, index).to_cbor())
        assert not won and check_id.startswith("court_path:"), (index, check_id)


def test_prompt_spec_not_canonical_is_invalid_record() -> None:
    """The PromptSpec leaf is read on chain (SPEC §14.8): bytes that are not §2 or lack
    a field the aggregate reads are won ``one_step.invalid_record``, as off chain."""
    bundle = honest("08-quorum-agree")
    index = aggregates(bundle)[0]
    spec = decode(bundle.prompt_spec)
    for bad in (b"\xff", encode({"schema": "por.Verdict/1"}), bundle.prompt_spec + b"\x00",
                encode({**spec, "conflict_policy": {"on_conflict": "invalid"}})):
        proof = build_one_step_proof(recommit(bundle, prompt_spec=bad), index).to_cbor()
        assert python_answer(proof) == (True, "one_step.invalid_record")
        assert _CHAIN.execute(proof)[:2] == (True, "one_step.invalid_record"), bad[:20]


def _factories() -> Any:
    path = Path(__file__).resolve().parents[1] / "unit" / "auditor" / "factories.py"
    spec = importlib.util.spec_from_file_location("auditor_factories", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _quorum_market(values: list[str], tolerance: str) -> Bundle:
    """One quorum field whose voters write ``values`` (one source each)."""
    f = _factories()
    sources = [f"src_{k}" for k in range(len(values))]
    requirement = f.requirement("r1", sources=sources, strategy="multi_source_quorum",
                                min_sources=2, quorum=2, tie_breaker="source_order",
                                fields=[f.json_field("price", "numeric", "$.price")])
    spec = f.prompt_spec(requirements=[requirement], metric="price", tolerance=tolerance)
    items = [f.item(f"e{n}", {"price": v}, source_id=s)
             for n, (v, s) in enumerate(zip(values, sources, strict=True))]
    return bundle_from_bytes(build(spec, f.bundle(items)).data)


def test_numbers_past_one_word() -> None:
    """The quorum compares numbers aligned to the field's largest scale in one word; a
    64-digit value beside a 13-digit fraction passes 2^254 and is compared exactly by
    `PorDecimal.absDiffLe` (SPEC §14.8): both ways give Python's answer."""
    rng = random.Random(24)  # noqa: S311 - seeded cases, not secrets
    big, near, tiny = "9" * 64, "9" * 63 + "8", "0.0000000000001"
    for values, tolerance in (([big, near, tiny], "1"), ([big, near, tiny], "0.5"),
                              ([tiny, "-" + "9" * 63, big], "0.0000000000002"),
                              ([big, near, "1.5", "1.25"], "0.25")):
        exercise(_quorum_market(values, tolerance), rng, 12)


def test_aggregate_case_count() -> None:
    """At least 2 500 aggregate proofs compared, and every outcome among them."""
    assert_case_count(COUNTS, "agg.", OUTCOMES, minimum=2_500)
