"""Benchmark: the check chunk re-executed on chain forms (``contracts/src/forms/
PorCheckForm*.sol``, ADR 0017 stage 4) against today's ``PorCheckExec``, in revm.

Rows:

* the typical chunk of 3 items and the full chunk of 10 (``bench/gas_steps.py``'s
  cases: scenario 08's market of n items, its forged check chunk): the forms executor's
  execution gas on the honest step and on the lie (a call's gas less the 21 000 intrinsic
  and its EIP-2028 calldata price, as ``gas_steps`` counts it), with Python's answer and
  the executor's; today's figures for the same lie (the committed build: ``settle``,
  ``checkProof``, ``exec``; registry part = settle - checkProof);
* bytes: the executor's call data (its forms alone) and its price at 16 gas a byte,
  against today's proof;
* the estimated settle on forms: the executor + today's registry part (revm; on anvil
  it is about 29 000, ADR 0017's table) + the §2 reader (``PorProofCheck.checkCbor``,
  less its cost on ``{}``, ``bench/forms_envelope.py``'s ``Reader``) over a CBOR envelope
  carrying the same forms and paths as byte strings: the spike addendum's method (the
  router's own walk and the external call are not counted: today 7 000-12 000);
* the caps: ``bench/largest_shapes.py``'s markets (``--fill-bytes 1..4``: the long
  texts' UTF-8 width; 1 is ``--ascii``), every chunk honest: the largest executor gas
  and call data per market, and today's ``PorCheckExec`` on the same chunk.

Usage: ``PYTHONPATH=. python bench/forms_check.py [--fill-bytes W ...] [--no-caps]``.
Gas is deterministic.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests" / "chain"), str(ROOT / "tests"), str(ROOT / "bench")]

from forms_envelope import INCLUSION, Reader, envelope  # noqa: E402

from por.encoding import decode  # noqa: E402

#: Anvil's registry part (ADR 0017's table, check 3: 28 632; aggregate 29 138).
ANVIL_REGISTRY = 29_000
FILLS = {1: "x", 2: "\u00e9", 3: "\u4e2d", 4: "\U0001f600"}


def _forms(data: bytes) -> list[bytes]:
    from eth_abi.abi import decode as abi_decode

    forms, _inclusion = abi_decode(["bytes[]", INCLUSION], data[4:])
    return list(forms)


def today(lie: Any, index: int) -> dict[str, int]:
    """gas_steps' figures for the OneStepProof of ``lie``'s step ``index``."""
    from chain_support import settled
    from exec_support import ExecChecker
    from gas_steps import _step_proof
    from proof_check_support import ProofChecker

    proof = _step_proof(lie, index)
    settle = settled(lie.to_cbor(), proof).execution_gas
    _won, _id, check = ProofChecker().any_proof(proof)
    _won, _id, alone = ExecChecker("PorCheckExec").execute(proof)
    return {"bytes": len(proof), "settle": settle, "checkProof": check, "exec": alone,
            "registry": settle - check}


def typical_row(chain: Any, reader: Any, n: int) -> dict[str, int]:
    from forms_check_support import call_data, python_answer
    from proofs import classes, market

    honest = market(n)
    lie = classes(honest, n)["forged.check"][0]()
    index = len(lie.steps) - 1 - 4
    print(f"\ncheck chunk of {n} items (gas_steps' forged.check, leaf {index})")
    gas = {}
    for label, bundle in (("honest", honest), ("lie", lie)):
        _won, py, _cause, _why = python_answer(bundle, index)
        data = call_data(bundle, index).data
        assert data is not None
        _w, answer, _c, gas[label] = chain.answer(data)
        print(f"  {label:7} python {py:18} forms executor {answer:18} exec gas {gas[label]:>9}")
    data = call_data(lie, index).data
    assert data is not None
    forms = _forms(data)
    doc = envelope(data)
    t = today(lie, index)
    read = reader(data)
    print(f"  today (committed build, revm): proof {t['bytes']} B, settle {t['settle']}, "
          f"checkProof {t['checkProof']}, exec {t['exec']}; registry part {t['registry']}")
    print(f"  forms: call data {len(data)} B (forms {sum(len(f) for f in forms)} B; at 16 gas "
          f"a byte {16 * len(data)}), CBOR envelope {len(doc)} B, §2 reader over it {read}")
    revm = gas["lie"] + t["registry"] + read
    anvil = gas["lie"] + ANVIL_REGISTRY + read
    print(f"  settle on forms, estimated: exec {gas['lie']} + registry {t['registry']} (revm) "
          f"+ reader {read} = {revm}; with anvil's registry part {ANVIL_REGISTRY}: {anvil} "
          f"(today: settle {t['settle']} revm)")
    return {"exec": gas["lie"], "settle_revm": revm, "settle_anvil_est": anvil}


def caps(chain: Any, reader: Any, width: int) -> None:
    from exec_support import ExecChecker
    from forms_check_support import KIND, call_data
    from largest_shapes import CAPS, SHAPES, market

    from por.challenge.one_step import build_one_step_proof

    old = CAPS["fill"]
    CAPS["fill"] = FILLS[width]
    exec_today = ExecChecker("PorCheckExec")
    print(f"\ncaps, filler {FILLS[width]!a} ({width} B a code point): largest chunk per market")
    try:
        for name, shape in SHAPES.items():
            bundle = market(shape)
            best: tuple[int, int, int, int, bytes] = (0, 0, 0, 0, b"")
            for index, raw in enumerate(bundle.steps):
                if decode(raw)["inputs"].get("kind") != KIND:
                    continue
                data = call_data(bundle, index).data
                assert data is not None
                _w, answer, _c, gas = chain.answer(data)
                assert answer == "one_step.match", (name, index, answer)
                proof = build_one_step_proof(bundle, index).to_cbor()
                _w2, _answer2, old_gas = exec_today.execute(proof)
                best = max(best, (gas, len(data), old_gas, len(proof), data))
            read = reader(best[4])
            print(f"  {name:14} forms exec {best[0]:>9}, call data {best[1]:>7} B "
                  f"(x16: {16 * best[1]:>8}); §2 reader over its envelope {read:>7}; settle "
                  f"est. {best[0] + ANVIL_REGISTRY + read:>9}; today's PorCheckExec "
                  f"{best[2]:>9}, proof {best[3]:>7} B")
    finally:
        CAPS["fill"] = old


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--fill-bytes", type=int, nargs="*", choices=(1, 2, 3, 4),
                        default=[1, 2, 3, 4], help="the caps' filler widths")
    parser.add_argument("--no-caps", action="store_true", help="skip the caps")
    args = parser.parse_args()
    from forms_check_support import Executor

    chain = Executor()
    print(f"PorCheckForm: {chain.size} bytes deployed (EIP-170: 24 576)")
    reader = Reader()
    for n in (3, 10):
        typical_row(chain, reader, n)
    if not args.no_caps:
        for width in args.fill_bytes:
            caps(chain, reader, width)
    return 0


if __name__ == "__main__":
    sys.exit(main())
