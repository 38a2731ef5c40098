"""Benchmark: the registry's part of ``settleByProof`` on a real node, per proof class
(issue 24 item 7; SPEC §14.6, ADR 0012's s33 addendum).

``bench/gas_steps.py`` runs the settle in revm through pyrevm, which keeps one journal
across calls: the slots the proposal and the commitment wrote are still warm and
dirty at the settle, so its ``settle - checkProof`` reads a few thousand gas low (and a
slot cleared to zero would show a refund of 19 900 instead of 4 800). Here each class
of ``gas_steps.cases()`` (same builders, same proofs) is settled on anvil (npm
``@foundry-rs/anvil``, ``tests/chain/anvil``: a fresh deployment per class, the lie
proposed by one dev account, committed and settled one block later by another, a
finder with no credit), and its receipt gives the settle's execution gas (gas used
minus 21 000 and the EIP-2028 calldata cost); ``checkProof`` is the same proof's
execution gas in revm (stateless: no journal effect), so ``registry`` is what the
registry adds on a chain: its reads and writes, the call, the copy and hash of the
proof, the events and the payment.

Usage: ``PYTHONPATH=. python bench/registry_gas.py [--json]`` (anvil required: ``cd
tests/chain/anvil && npm ci``). Deterministic: same code and inputs, same numbers.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests" / "chain"), str(ROOT / "tests"), str(ROOT / "bench")]


def measure() -> list[dict[str, Any]]:
    from anvil_node import anvil, settle_fresh
    from gas_steps import cases
    from proof_check_support import ProofChecker

    checker = ProofChecker()
    rows = []
    with anvil() as node:
        for name, _target, _executor, _entry, make in cases():
            lie, proof = make()
            settle = settle_fresh(node, lie, proof)
            won, check_id, check = checker.any_proof(proof)
            assert won, (name, check_id)
            rows.append({"class": name, "proof_bytes": len(proof),
                         "settle": settle["execution_gas"], "checkProof": check,
                         "registry_part": settle["execution_gas"] - check})
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    args = parser.parse_args()
    from anvil_node import ANVIL

    if not ANVIL.exists():
        print("registry_gas: anvil is not installed (cd tests/chain/anvil && npm ci)",
              file=sys.stderr)
        return 2
    rows = measure()
    if args.json:
        print(json.dumps({"schema": "por/bench-registry-gas/1", "rows": rows}, indent=2))
        return 0
    print("settleByProof on anvil per proof class (execution gas from receipts); "
          "checkProof in revm; registry = settle - checkProof")
    print(f"{'class':37} {'bytes':>6} {'settle':>9} {'checkProof':>10} {'registry':>8}")
    for r in rows:
        print(f"{r['class']:37} {r['proof_bytes']:>6} {r['settle']:>9} {r['checkProof']:>10} "
              f"{r['registry_part']:>8}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
