"""Benchmark: execution gas of PorJudgeExec.check (SPEC §14.8, JudgeProof) in revm.

For the honest JudgeProof of every fixture market (fixtures/bundles/valid): the
execution gas of ``PorJudgeExec.check`` (the committed build, CANCUN rules; the call's
gas less the 21 000 intrinsic and its EIP-2028 calldata cost) and, as the baseline
measured in the same run, ``PorProofCheck.checkProof`` on the same market's map step
OneStepProof (the one-step proof the registry settles today). Prints the median and
the largest, the proof sizes, the ratio to the baseline and the deployed size.

    PYTHONPATH=. python bench/judge_gas.py
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "chain"))
sys.path.insert(0, str(ROOT / "tests"))

from exec_support import ExecChecker, deployed_size, judge_proof  # noqa: E402
from proof_check_support import ProofChecker  # noqa: E402

from por.challenge import bundle_from_bytes  # noqa: E402
from por.challenge.one_step import build_one_step_proof  # noqa: E402


def main() -> None:
    judge, baseline = ExecChecker("PorJudgeExec", entry="check(bytes)"), ProofChecker()
    rows = []
    for path in sorted((ROOT / "fixtures" / "bundles" / "valid").glob("*.cbor")):
        if ".signed" in path.name:
            continue
        bundle = bundle_from_bytes(path.read_bytes())
        proof = judge_proof(bundle)
        _, check_id, gas = judge.execute(proof)
        assert check_id == "judge.match", (path.name, check_id)
        step = bytes(build_one_step_proof(bundle, len(bundle.steps) - 1).to_cbor())
        _, _, base = baseline.any_proof(step)
        rows.append((gas, len(proof), base, path.stem))
    gases = [r[0] for r in rows]
    median = statistics.median(gases)
    biggest = max(rows)
    base = statistics.median(r[2] for r in rows)
    print(f"PorJudgeExec deployed size: {deployed_size('PorJudgeExec')} bytes (limit 24576)")
    print(f"check, honest JudgeProof of {len(rows)} markets: median {median:.0f} gas "
          f"(median proof {statistics.median(r[1] for r in rows):.0f} bytes); "
          f"max {biggest[0]} ({biggest[1]} bytes, {biggest[3]})")
    print(f"baseline checkProof, map OneStepProof: median {base:.0f} gas; "
          f"ratio judge/map {median / base:.2f}")


if __name__ == "__main__":
    main()
