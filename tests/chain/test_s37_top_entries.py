"""A PromptSpec of 15, 16 and 17 top-level entries before every executor that reads it
(the §2 pass keeps at most ``PorCbor.TOP_ITEMS`` = 32 top-level items' offsets: 16
entries; past that each executor walks the map instead).

The extra keys break a §4.2 rule no executor reads (SPEC §14.8, "Reading the PromptSpec
on chain"): off chain the proof is ``one_step.invalid_record``; on chain each executor
must give the honest bundle's answer whether it found its keys among the kept offsets
or by the walk (contradictions' ``topKept``, s36 contra5; the check chunk's
``readSpecAt``; deduce's and the JudgeProof's core; the aggregate). The extra keys sort
before every key (``a00``...) or after them all; their values sit at the skip's edges.
"""

from __future__ import annotations

import pytest
from aggregate_lies import aggregates
from bundle_edits import honest, recommit
from exec_support import ExecChecker, judge_proof
from proof_check_support import python_answer
from test_onchain_check import chunks_of
from test_onchain_deduce import _deduce
from test_s37_contradictions_edges import SKIPPED

from por.bundle.layout import Bundle
from por.challenge.one_step import build_one_step_proof
from por.encoding import decode, encode

CHAINS = {"aggregate": ExecChecker("PorAggregateExec"), "deduce": ExecChecker("PorDeduceExec"),
          "check": ExecChecker("PorCheckExec"),
          "contradictions": ExecChecker("PorContradictionsExec")}
JUDGE = ExecChecker("PorJudgeExec", entry="check(bytes)")


def _indices(bundle: Bundle) -> dict[str, int]:
    kinds = [decode(s)["inputs"].get("kind") for s in bundle.steps]
    return {"aggregate": aggregates(bundle)[0], "deduce": _deduce(bundle),
            "check": chunks_of(bundle)[0], "contradictions": kinds.index("contradictions")}


@pytest.mark.parametrize("market", ["08-quorum-agree", "01-boolean-observed"])
def test_kept_and_walked_agree(market: str) -> None:
    bundle = honest(market)
    spec = decode(bundle.prompt_spec)
    at = _indices(bundle)
    for entries in (15, 16, 17):
        for stem in ("a", "zz_after_every_key_"):
            extra = {f"{stem}{i:02d}": SKIPPED[i % len(SKIPPED)]
                     for i in range(entries - len(spec))}
            edited = recommit(bundle, prompt_spec=encode({**spec, **extra}))
            for kind, index in at.items():
                proof = build_one_step_proof(edited, index).to_cbor()
                assert CHAINS[kind].execute(proof)[:2] == (False, "one_step.match"), (
                    kind, entries, stem)
                assert python_answer(proof) == (True, "one_step.invalid_record")
            proof = judge_proof(edited)
            assert JUDGE.execute(proof)[:2] == (False, "judge.match"), (entries, stem)
            assert python_answer(proof)[0], (entries, stem)
