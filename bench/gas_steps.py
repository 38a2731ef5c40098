"""Benchmark: settle gas of every proof class the chain decides, one table, one run
(issue 24 item 7; SPEC §14.6, §14.8).

For each class, a lying bundle and the won proof ``por verify --challenges`` writes
for it, in revm (pyrevm, the test extra; CANCUN rules; the committed build,
``contracts/build``, deployed as ``contracts/deploy.json`` lists it through
``tests/chain/deployment.py``), three execution gas figures (a call's gas less the
21 000 intrinsic and its EIP-2028 calldata cost):

* ``settle``: the registry's ``settleByProof`` transaction (the verdict proposed, the
  proof committed a block earlier; the strike, the bonds credited);
* ``checkProof``: ``PorProofCheck.checkProof`` alone on the same bytes (the §2
  reader, the router, the executor); ``settle - checkProof`` is the registry's part;
* ``exec``: the class's executor called directly (``execute(bytes)``, or
  ``check(bytes)`` for a proof executor); ``checkProof - exec`` is the checker's
  part (the reader over the proof, the routing, the external call). Empty for a
  CitationProof (checked inside PorProofCheck).

Classes (builders imported from the other benches and tests, not copied): the
CitationProof of issue 22's reordered citations (``bench/gas.py``), the forged map
step (``tests/chain/map_lies.py``), and, over scenario 08's market of n items
(``bench/proofs.py``: extract steps, ceil(n/10) check chunks, aggregate,
contradictions, deduce, map), a forged check chunk of 3 items (typical) and of 10
(a full chunk), a forged aggregate, contradictions and deduce step, a forged verdict
(JudgeProof); the aggregate at the caps (10 sources x 8 fields,
``bench/gas_aggregate.py``'s market, its last field forged); and an omitted item
(OmissionProof) when ``PorOmissionExec`` is in the deployment list. Ratios are to
issue 24's targets: a typical proof (fan-in <= 8) <= 300 000, the largest step the
protocol allows <= 3 000 000 (the ``target`` column says which applies).

Usage: ``PYTHONPATH=. python bench/gas_steps.py [--json]``.  Gas is deterministic:
the same code and inputs give the same numbers on any machine.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests" / "chain"), str(ROOT / "tests"), str(ROOT / "bench")]

#: Issue 24 item 7's targets, settle execution gas.
TYPICAL, LARGEST = 300_000, 3_000_000

#: The executor deciding each class (contracts/deploy.json names) and its entry.
STEP, PROOF = "execute(bytes)", "check(bytes)"


def _step_proof(bundle: Any, index: int) -> bytes:
    from por.challenge.one_step import build_one_step_proof

    return bytes(build_one_step_proof(bundle, index).to_cbor())


def _forged_at_caps() -> tuple[bytes, bytes]:
    """bench/gas_aggregate.py's largest aggregate (10 sources x 8 fields) with its
    last field's fallback_used flipped (compared late: the whole output is built),
    every commitment recomputed; (bundle, proof)."""
    from bundle_edits import steps_of
    from gas_aggregate import largest
    from proofs import output_with, with_step

    honest = largest()
    index = steps_of(honest, "aggregate")[0]
    lie = with_step(honest, index, lambda s: output_with(
        s, ("fields", 7, "fallback_used"), lambda v: not v))
    return lie.to_cbor(), _step_proof(lie, index)


def cases() -> list[tuple[str, str, str | None, str, Callable[[], tuple[bytes, bytes]]]]:
    """(class, target kind, executor or None, entry, () -> (lying bundle, won proof))."""
    from gas import _lie, _map_lie
    from proofs import classes, market

    from por.challenge.judge_proof import build_judge_proof

    def step(n: int, name: str, offset: int) -> Callable[[], tuple[bytes, bytes]]:
        # offset of the forged step from the map step (the last leaf)
        def make() -> tuple[bytes, bytes]:
            lie = classes(market(n), n)[name][0]()
            return lie.to_cbor(), _step_proof(lie, len(lie.steps) - 1 - offset)
        return make

    def verdict() -> tuple[bytes, bytes]:
        lie = classes(market(3), 3)["forged.verdict"][0]()
        return lie.to_cbor(), bytes(build_judge_proof(lie).to_cbor())

    rows: list[tuple[str, str, str | None, str, Callable[[], tuple[bytes, bytes]]]] = [
        ("CitationProof (issue 22, reordered)", "typical", None, STEP, lambda: _lie((1, 0, 2))),
        ("map (forged, map_lies)", "typical", "PorMapExec", STEP, _map_lie),
        ("check chunk, 3 items", "typical", "PorCheckExec", STEP, step(3, "forged.check", 4)),
        ("check chunk, 10 items (full)", "largest", "PorCheckExec", STEP,
         step(10, "forged.check", 4)),
        ("aggregate, 3 items", "typical", "PorAggregateExec", STEP,
         step(3, "forged.aggregate", 3)),
        ("aggregate at caps (10 x 8)", "largest", "PorAggregateExec", STEP, _forged_at_caps),
        ("contradictions, 3 items", "typical", "PorContradictionsExec", STEP,
         step(3, "forged.contradictions", 2)),
        ("deduce, 3 items", "typical", "PorDeduceExec", STEP, step(3, "forged.deduce", 1)),
        ("JudgeProof (forged verdict)", "typical", "PorJudgeExec", PROOF, verdict),
    ]
    if "PorOmissionExec" in _executors():
        rows.append(("OmissionProof (omitted item)", "typical", "PorOmissionExec", PROOF,
                     _omission))
    return rows


def _omission() -> tuple[bytes, bytes]:
    from omission_gas import written
    from proofs import classes, market

    lie = classes(market(3), 3)["omitted_evidence"][0]()
    return lie.to_cbor(), written(lie)


def _executors() -> list[str]:
    from deployment import executor_names

    return executor_names()


def measure() -> list[dict[str, Any]]:
    from chain_support import settled
    from exec_support import ExecChecker
    from proof_check_support import ProofChecker

    checker = ProofChecker()
    executors: dict[str, ExecChecker] = {}
    rows = []
    for name, target, executor, entry, make in cases():
        lie, proof = make()
        settle = settled(lie, proof).execution_gas
        won, check_id, check = checker.any_proof(proof)
        assert won, (name, check_id)
        alone = None
        if executor is not None:
            if executor not in executors:
                executors[executor] = ExecChecker(executor, entry=entry)
            _won, _id, alone = executors[executor].execute(proof)
        limit = TYPICAL if target == "typical" else LARGEST
        rows.append({"class": name, "won": check_id, "proof_bytes": len(proof),
                     "settle": settle, "checkProof": check, "executor": executor,
                     "exec": alone, "registry_part": settle - check,
                     "checker_part": None if alone is None else check - alone,
                     "target": target, "limit": limit, "ratio": round(settle / limit, 3)})
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    args = parser.parse_args()
    rows = measure()
    if args.json:
        print(json.dumps({"schema": "por/bench-gas-steps/1",
                          "targets": {"typical": TYPICAL, "largest": LARGEST},
                          "rows": rows}, indent=2))
        return 0
    print("settleByProof per proof class in revm (execution gas; the committed build)")
    print(f"{'class':37} {'bytes':>6} {'settle':>9} {'checkProof':>10} {'exec':>9} "
          f"{'registry':>8} {'checker':>8}  target     ratio  won")
    for r in rows:
        print(f"{r['class']:37} {r['proof_bytes']:>6} {r['settle']:>9} {r['checkProof']:>10} "
              f"{r['exec'] if r['exec'] is not None else '-':>9} {r['registry_part']:>8} "
              f"{r['checker_part'] if r['checker_part'] is not None else '-':>8}  "
              f"{r['target']:8} {r['ratio']:6.2f}  {r['won']}")
    print(f"targets: typical <= {TYPICAL}, largest <= {LARGEST} (ratio = settle / target)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
