"""Benchmark: gas of a `deduce` step's one-step proof decided on chain (SPEC §14.8),
against the `map` step's proof of the same market, measured in one EVM run.

Runs the committed artifacts (contracts/build/PorDeduceExec.json, PorProofCheck.json)
in revm (pyrevm, the test extra) with CANCUN rules and reports *execution gas* (a
call's gas minus the 21 000 intrinsic and its EIP-2028 calldata cost) of
`PorDeduceExec.execute` on the honest deduce step of fixture markets (one per
predicate family), the proof's size, the ratio to `PorProofCheck.checkProof` on
the same market's map step (the baseline: the common part of SPEC §10.5 plus a small
step), and the split of the deduce gas: the common part (steps 1-6,
`bench/common_part.py`) and the deduce's own part.

    PYTHONPATH=$PWD python bench/deduce_gas.py
"""

from __future__ import annotations

import sys
from pathlib import Path

from por.challenge.one_step import build_one_step_proof
from por.encoding import decode

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "chain"))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from bundle_edits import honest
from common_part import CommonPart
from exec_support import ExecChecker
from proof_check_support import ProofChecker

MARKETS = ("01-boolean-observed", "03-threshold-gt-boundary",
           "52-politics-election-winner-page", "61-range-settle",
           "62-field-comparison-home-win", "63-arithmetic-total-over",
           "66-deadline-launch", "67-two-of-three-below")


def main() -> None:
    deduce, baseline, common = ExecChecker("PorDeduceExec"), ProofChecker(), CommonPart()
    print(f"{'market':36} {'bytes':>6} {'deduce gas':>11} {'map gas':>9} {'ratio':>6}"
          f" {'common':>9} {'own':>9}")
    for name in MARKETS:
        bundle = honest(name)
        kinds = [decode(s).get("inputs", {}).get("kind") for s in bundle.steps]
        index = max(i for i, k in enumerate(kinds) if k == "deduce")
        proof = build_one_step_proof(bundle, index).to_cbor()
        _won, check_id, gas = deduce.execute(proof)
        assert check_id == "one_step.match", (name, check_id)
        _won, _id, map_gas = baseline.any_proof(build_one_step_proof(bundle, index + 1).to_cbor())
        shared = common.gas(proof)
        print(f"{name:36} {len(proof):6} {gas:11} {map_gas:9} {gas / map_gas:6.2f}"
              f" {shared:9} {gas - shared:9}")


if __name__ == "__main__":
    main()
