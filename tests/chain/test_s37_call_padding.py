"""The hand-written internal calls at every proof length modulo 32 (ADR 0013 s36:
"agg5" cut 1, "dj5" cuts 2-3, "contra5" cut 2; deduce4's core call).

Each executor now writes its helper's call data itself: ``PorAggregateWire.begin`` (the
proof by one ``calldatacopy``, its last word zeroed for the padding, then the hand-over
words after it), ``PorJudgeExec.decide`` (the proof, then ``flat`` by ``mcopy``; the
core's fallback reads the proof's length at 0x44 and ``flat`` at the offset in the
second word), ``PorContradictionsExec.recompute`` (the offsets, then the proof's bytes
to the end of the call data, read by the merge's fallback), ``PorDeduceExec.run``.
A padding or offset off by one word shows only for some lengths of the proof modulo
32. Here the evidence ids of 08 (and 67) are renamed so that every executor's proof
takes every length modulo 32 (the first id 3..66 bytes, the second 3..5), and each
proof is compared with Python, honest and with one lie per kind (the deduce step's list
reversed, an aggregate's claims forged, the verdict's market_id changed).
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict

from aggregate_lies import aggregates
from exec_support import ExecChecker, judge_proof
from proof_check_support import python_answer
from test_deduce_summary_ids import with_list
from test_judge_long_texts import _verdict_market
from test_onchain_aggregate_keys import forged
from test_onchain_check import chunks_of
from test_onchain_deduce import _deduce
from test_s37_deduce_word_edges import renamed_to

from por.bundle.layout import Bundle
from por.challenge.one_step import build_one_step_proof
from por.encoding import decode
from por.errors import PorError

COUNTS: Counter[str] = Counter()
CHAINS = {kind: ExecChecker(name) for kind, name in (
    ("aggregate", "PorAggregateExec"), ("deduce", "PorDeduceExec"),
    ("contradictions", "PorContradictionsExec"), ("check", "PorCheckExec"))}
JUDGE = ExecChecker("PorJudgeExec", entry="check(bytes)")
RESIDUES: dict[str, set[int]] = defaultdict(set)


def _one(kind: str, chain: ExecChecker, bundle: Bundle, index: int, case: str) -> None:
    try:
        proof = bytes(build_one_step_proof(bundle, index).to_cbor())
    except PorError:
        COUNTS["unbuildable"] += 1
        return
    won, check_id, _gas = chain.execute(proof)
    assert (won, check_id) == python_answer(proof), (kind, case, len(proof))
    RESIDUES[kind].add(len(proof) % 32)
    COUNTS[f"{kind}.{case}"] += 1
    COUNTS[f"id:{check_id}"] += 1


def _judge(bundle: Bundle, case: str) -> None:
    proof = judge_proof(bundle)
    won, check_id, _gas = JUDGE.execute(proof)
    assert (won, check_id) == python_answer(proof), (case, len(proof))
    RESIDUES["judge"].add(len(proof) % 32)
    COUNTS[f"judge.{case}"] += 1
    COUNTS[f"id:{check_id}"] += 1


def _exercise(bundle: Bundle, rng: random.Random) -> None:
    kinds = [decode(s)["inputs"].get("kind") for s in bundle.steps]
    at = {"aggregate": aggregates(bundle)[0], "deduce": _deduce(bundle),
          "contradictions": kinds.index("contradictions"), "check": chunks_of(bundle)[0]}
    for kind, index in at.items():
        _one(kind, CHAINS[kind], bundle, index, "honest")
    ids = decode(bundle.steps[at["deduce"]])["evidence_ids"]
    _one("deduce", CHAINS["deduce"], with_list(bundle, at["deduce"], ids[::-1]), at["deduce"],
         "reversed")
    lie, index = forged(bundle, rng)
    _one("aggregate", CHAINS["aggregate"], lie, index, "forged")
    _judge(bundle, "honest")
    _judge(_verdict_market(bundle, "m" * (len(ids[0]) % 40 + 1)), "market_id")


def test_every_length_modulo_32() -> None:
    rng = random.Random(3704)  # noqa: S311 - seeded cases, not secrets
    for first in range(3, 67):
        for second in (3, 4, 5):
            ids = ["a-" + "p" * (first - 2), "b-" + "q" * (second - 2), "c-y"]
            _exercise(renamed_to("08-quorum-agree", ids), rng)
    for first in range(3, 35):
        ids = ["a-" + "p" * (first - 2), "b-x", "c-y"]
        _exercise(renamed_to("67-two-of-three-below", ids), rng)
    for kind in (*CHAINS, "judge"):
        assert RESIDUES[kind] == set(range(32)), (kind, sorted(RESIDUES[kind]))
    assert COUNTS["id:one_step.match"] >= 4 * (64 * 3 + 32), COUNTS
    assert COUNTS["id:judge.match"] >= 64 * 3 + 32, COUNTS
    assert COUNTS["id:judge.mismatch"] > 0 and COUNTS["id:one_step.mismatch"] > 0, COUNTS
