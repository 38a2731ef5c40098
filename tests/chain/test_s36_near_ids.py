"""Ids equal but for their last byte, against wave 1's in-place text compares (s36).

Wave 1 compares texts in calldata word by word (``PorCborKeys.sameText``, since s38
``PorText.sameText``: the
aggregate's R found among the requirements, a chunk's source entries against the cited
items, the check step's and the citations' ids), keeps a field key under 32 bytes as
one word and hashes longer ones (``PorAggregateRead.keyWord``), and reads id lists of
at most 128 bytes in one loop (``PorRecords.idList``). Each is a place where two ids
that differ only in their last byte, at a word boundary (31, 32, 33, 64, 65 bytes) or
at the Id cap (128), could be taken for one another. These markets have three data
requirements whose ids (and so their sources' ids, evidence ids and field keys) share
everything but the last byte; every step's one-step proof, the JudgeProof, and forged
aggregates (R's id moved to its neighbour, the PromptSpec edited around R) are put to
the chain (``PorProofCheck.checkProof``) and to ``por check-proof``: the same (won,
check id) every time.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from aggregate_lies import aggregates, rewrite
from bundle_edits import recommit
from exec_support import judge_proof
from proof_check_support import ProofChecker, python_answer
from test_onchain_aggregate import _factories
from test_onchain_aggregate_spec import forged

from por.bundle import build
from por.bundle.layout import Bundle
from por.challenge import bundle_from_bytes
from por.challenge.one_step import build_one_step_proof
from por.encoding import decode, encode
from por.errors import PorError

COUNTS: Counter[str] = Counter()
#: Lengths of the requirement ids: word edges and the Id cap (its evidence ids are two
#: bytes longer, its sources three, its second field key four).
LENGTHS = (31, 32, 33, 64, 65, 124)


@pytest.fixture(scope="module")
def router() -> ProofChecker:
    return ProofChecker()


def rids(length: int) -> list[str]:
    """Three ids of ``length`` bytes equal but for the last."""
    return ["q" * (length - 1) + last for last in "abc"]


def market(ids: list[str]) -> Bundle:
    """Three requirements (ids ``ids``), each of two or three sources of its own writing
    ``price`` and, for the second, ``vol_<id>`` (test_onchain_aggregate_spec's market)."""
    f = _factories()
    requirements = []
    items = []
    for n, rid in enumerate(ids):
        sources = [f"s{rid}_{k}" for k in range(2 + n % 2)]
        keys = ["price", f"vol_{rid}"][: 1 + n % 2]
        fields = [f.json_field(k, "numeric", "$." + k) for k in keys]
        requirements.append(f.requirement(rid, sources=sources, strategy="multi_source_quorum",
                                          min_sources=1, quorum=1, tie_breaker="source_order",
                                          fields=fields))
        for k, s in enumerate(sources):
            body = "{" + ",".join(f'"{key}":{100 + k + n}' for key in keys) + "}"
            items.append(f.item(f"e{rid}{k}", body, requirement_id=rid, source_id=s, tier=k % 4))
    spec = f.prompt_spec(requirements=requirements, metric="price", tolerance="0")
    return bundle_from_bytes(build(spec, f.bundle(items)).data)


def same(router: ProofChecker, case: str, proof: bytes) -> None:
    won, check_id, _gas = router.any_proof(proof)
    if check_id.startswith("court_path:"):
        COUNTS["court_path"] += 1
        return
    assert (won, check_id) == python_answer(proof), (case, proof.hex()[:400])
    COUNTS[case] += 1
    COUNTS[f"{'won' if won else 'lost'}:{check_id}"] += 1


def moved(bundle: Bundle, index: int, rid: str, recompute: bool) -> Bundle:
    """The aggregate at ``index`` naming requirement ``rid`` (its neighbour), recomputed
    from what it cites or left."""
    raw = [bytes(s) for s in bundle.steps]
    step = decode(raw[index])
    step["inputs"]["requirement_id"] = rid
    raw[index] = encode(step)
    if recompute:
        raw[index] = rewrite(bundle.prompt_spec, raw, index) or raw[index]
    return recommit(bundle, steps=raw)


@pytest.mark.parametrize("length", LENGTHS)
def test_near_ids(router: ProofChecker, length: int) -> None:
    ids = rids(length)
    bundle = market(ids)
    assert len(aggregates(bundle)) == 3
    for index in range(len(bundle.steps)):
        try:
            proof = bytes(build_one_step_proof(bundle, index).to_cbor())
        except PorError:
            continue
        same(router, "honest", proof)
    same(router, "judge", judge_proof(bundle))
    rng = random.Random(length)  # noqa: S311 - seeded cases, not secrets
    for index in aggregates(bundle):
        rid = decode(bundle.steps[index])["inputs"]["requirement_id"]
        for other in ids:
            if other == rid:
                continue
            for recompute in (False, True):
                b = moved(bundle, index, other, recompute)
                same(router, "moved", bytes(build_one_step_proof(b, index).to_cbor()))
    for _ in range(12):
        b, index = forged(bundle, rng)
        same(router, "spec", bytes(build_one_step_proof(b, index).to_cbor()))


def test_outcomes_seen() -> None:
    """Honest proofs lost, moved aggregates won, and the PromptSpec edits both ways."""
    if not COUNTS:
        pytest.skip("run with the other tests of this file")
    print(dict(sorted(COUNTS.items())))
    assert COUNTS["honest"] >= 8 * len(LENGTHS), COUNTS
    assert COUNTS["lost:one_step.match"] > 0, COUNTS
    assert COUNTS["won:one_step.mismatch"] > 0, COUNTS
    assert COUNTS["lost:judge.match"] == len(LENGTHS), COUNTS
