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

The rows "on forms" are the same lies' FormStepProofs (ADR 0017 stage 4) sent to
``settleByForms`` (SPEC §14.4), their call data from the forms tests' builders
(``tests/chain/forms_*``): the check chunk, the aggregate, the deduce step and the
judge, at 3 items and the 10-item chunk / 10 x 8 aggregate, and since s45 the map step
(its description forged, ``forms_map_cases.described``); ``checkProof`` is then
``checkForms`` in revm.

Usage: ``PYTHONPATH=. python bench/registry_gas.py [--json]`` (anvil required: ``cd
tests/chain/anvil && npm ci``). Deterministic: same code and inputs, same numbers.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from por.bundle.layout import Bundle

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
        for name, make in forms_cases():
            lie, kind, args = make()
            settle = settle_fresh(node, lie, args, kind)
            won, check_id, check = forms_answer(checker, kind, args)
            assert won, (name, check_id)
            rows.append({"class": name, "proof_bytes": 32 + len(args),
                         "settle": settle["execution_gas"], "checkProof": check,
                         "registry_part": settle["execution_gas"] - check})
    return rows


def forms_cases() -> list[tuple[str, Callable[[], tuple[bytes, bytes, bytes]]]]:
    """(class, () -> (lying bundle, kind, args)): ``gas_steps.cases()``' lies of the
    classes on forms, as FormStepProofs (``settleByForms``' kind and args)."""
    import forms_aggregate_cases
    import forms_check_support
    import forms_deduce_cases
    import forms_judge_cases
    import forms_map_cases
    from bundle_edits import steps_of
    from gas_aggregate import largest
    from proofs import classes, market, output_with, with_step

    from por.signing.eip712 import keccak256

    def check(bundle: Bundle, leaf: int) -> bytes:
        data = forms_check_support.call_data(bundle, leaf).data
        assert data is not None
        return data

    def step(n: int, name: str, kind: str, offset: int,
             build: Callable[[Bundle, int], bytes]) -> Callable[[], tuple[bytes, bytes, bytes]]:
        def make() -> tuple[bytes, bytes, bytes]:
            lie = classes(market(n), n)[name][0]()
            data = build(lie, len(lie.steps) - 1 - offset)
            return lie.to_cbor(), keccak256(b"form:" + kind.encode()), data[4:]
        return make

    def at_caps() -> tuple[bytes, bytes, bytes]:
        honest = largest()
        index = steps_of(honest, "aggregate")[0]
        lie = with_step(honest, index, lambda s: output_with(
            s, ("fields", 7, "fallback_used"), lambda v: not v))
        data = forms_aggregate_cases.call_data(lie, index)
        return lie.to_cbor(), keccak256(b"form:aggregate"), data[4:]

    def verdict() -> tuple[bytes, bytes, bytes]:
        lie = classes(market(3), 3)["forged.verdict"][0]()
        return (lie.to_cbor(), keccak256(b"form:judge"),
                forms_judge_cases.call_data(lie)[4:])

    def map_step() -> tuple[bytes, bytes, bytes]:
        lie = forms_map_cases.described(market(3), "map to evaluation variablez")
        data = forms_map_cases.call_data(lie, forms_map_cases.map_leaf(lie))
        return lie.to_cbor(), keccak256(b"form:map"), data[4:]

    return [
        ("check chunk, 3 items, on forms", step(3, "forged.check", "check", 4, check)),
        ("check chunk, 10 items (full), on forms", step(10, "forged.check", "check", 4, check)),
        ("aggregate, 3 items, on forms", step(3, "forged.aggregate", "aggregate", 3,
                                             forms_aggregate_cases.call_data)),
        ("aggregate at caps (10 x 8), on forms", at_caps),
        ("deduce, 3 items, on forms", step(3, "forged.deduce", "deduce", 1,
                                          forms_deduce_cases.step_call_data)),
        ("judge (forged verdict), on forms", verdict),
        ("map (forged description), 3 items, on forms", map_step),
    ]


def forms_answer(checker: Any, kind: bytes, args: bytes) -> tuple[bool, bytes, int]:
    """``checkForms(kind, args)`` in revm: (won, check id hash, execution gas)."""
    from eth_abi import decode, encode
    from proof_check_support import message_call

    from por.signing.eip712 import keccak256

    call = keccak256(b"checkForms(bytes32,bytes)")[:4] + encode(["bytes32", "bytes"], [kind, args])
    out, gas = message_call(checker.evm, checker.address, call)
    won, check_id, _root = decode(["bool", "bytes32", "bytes32"], out)
    return bool(won), check_id, gas


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
    print("settleByProof (settleByForms: on forms) on anvil per proof class (execution gas "
          "from receipts); checkProof (checkForms) in revm; registry = settle - checkProof")
    print(f"{'class':40} {'bytes':>6} {'settle':>9} {'checkProof':>10} {'registry':>8}")
    for r in rows:
        print(f"{r['class']:40} {r['proof_bytes']:>6} {r['settle']:>9} {r['checkProof']:>10} "
              f"{r['registry_part']:>8}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
