"""The FormProof on chain for the DEDUCE family (``contracts/src/forms/PorFormProof.sol``,
ADR 0017 s41 spike ``formproof``), in revm: execution gas of ``check(bytes)`` on a
``por.FormProof/1`` file (the record part, the form leaf's path, the component path, the
proof's id, the step's validity, ``F`` DEDUCE rebuilt from its CBOR, ``LH(F)``), of
``deduceForm(bytes)`` alone (the §2 reader and the step's validity, then ``F``), the
file's bytes and their call data price (EIP-2028), the step leaf's bytes and ``F``'s
words.

Rows: every fixture market's deduce step (honest: ``form.match``; min, median, max and
scenario 08), scenario 08 with its committed form leaf lied (``form.mismatch``) and with
``F`` undefined (``form.none``); ``bench/largest_shapes.py``'s markets at the caps
(``--fill-bytes``: the filler's UTF-8 widths), each market's deduce step, honest.
Execution gas is a call's gas less 21 000 and its call data price (``bench/gas_steps.py``'s
count). The contract's deployed and init code sizes close the table.

Usage: ``PYTHONPATH=. python bench/formproof_gas.py [--fill-bytes 1 2 3 4]``.
Gas is deterministic.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests" / "chain"), str(ROOT / "tests"), str(ROOT / "bench")]

from bundle_edits import honest, recommit, steps_of  # noqa: E402
from eth_abi.abi import encode as abi_encode  # noqa: E402
from forms_harness import call, compiled, deploy, selector, sizes  # noqa: E402
from proof_check_support import calldata_gas  # noqa: E402

from por.bundle.layout import Bundle  # noqa: E402
from por.challenge.form_proof import build_form_proof, verify_form_proof  # noqa: E402
from por.encoding import decode, encode  # noqa: E402
from por.errors import PorError  # noqa: E402
from por.forms import step_form  # noqa: E402
from por.scenarios import list_scenarios  # noqa: E402

NAME = "PorFormProof"
FILLS = {1: "x", 2: "\u00e9", 3: "\u20ac", 4: "\U0001f600"}


def measure(bundle: Bundle, leaf: int) -> dict[str, object]:
    """One deduce step's FormProof: Python's answer, the chain's gas and sizes."""
    r = len(bundle.forms) - len(bundle.steps) - 2
    proof = build_form_proof(bundle, 1 + r + leaf)
    data = selector("check(bytes)") + abi_encode(["bytes"], [proof.to_cbor()])
    out, gas = call(deploy(NAME), data)
    assert not isinstance(out, str), out
    raw = bundle.steps[leaf]
    only = selector("deduceForm(bytes)") + abi_encode(["bytes"], [raw])
    _, form_gas = call(deploy(NAME), only)
    try:
        words = len(step_form(decode(raw))) // 32
    except PorError:  # no form: no words
        words = 0
    return {"answer": verify_form_proof(proof).reason, "gas": gas, "form gas": form_gas,
            "file": len(proof.to_cbor()), "calldata gas": calldata_gas(data),
            "leaf": len(raw), "words": words}


def line(label: str, m: dict[str, object]) -> str:
    return (f"| {label} | {m['answer']} | {m['gas']:,} | {m['form gas']:,} | {m['file']:,} | "
            f"{m['calldata gas']:,} | {m['leaf']:,} | {m['words']} |")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--fill-bytes", type=int, nargs="*", choices=(1, 2, 3, 4),
                        default=[1, 2, 3, 4], help="UTF-8 widths of the caps markets' filler")
    args = parser.parse_args()
    print("| case | answer | check gas | deduceForm gas | file B | call data gas | leaf B "
          "| F words |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    rows = []
    for name in list_scenarios():
        bundle = honest(name)
        for leaf in steps_of(bundle, "deduce"):
            rows.append((name, measure(bundle, leaf)))
    gases = sorted(int(str(m["gas"])) for _, m in rows)
    print(f"| fixtures: {len(rows)} deduce steps, honest | form.match | min {gases[0]:,}, "
          f"median {int(statistics.median(gases)):,}, max {gases[-1]:,} | | | | | |")
    name08 = next(n for n in list_scenarios() if n.startswith("08-"))
    b08 = honest(name08)
    leaf = steps_of(b08, "deduce")[0]
    print(line(f"{name08} honest", measure(b08, leaf)))
    forms = list(b08.forms)
    j = len(forms) - len(b08.steps) - 1 + leaf
    forms[j] = bytes(32)
    print(line(f"{name08} form leaf lied", measure(recommit(b08, forms=forms), leaf)))
    steps = list(b08.steps)
    step = decode(steps[leaf])
    step["output"]["numeric_value"] = "1.50"
    steps[leaf] = encode(step)
    print(line(f"{name08} numeric_value 1.50", measure(recommit(b08, steps=steps), leaf)))
    from largest_shapes import CAPS, SHAPES, market  # heavy: after the arguments

    for fill in args.fill_bytes:
        CAPS["fill"] = FILLS[fill]
        for shape_name, shape in SHAPES.items():
            bundle = market(shape)
            for leaf in steps_of(bundle, "deduce"):
                print(line(f"caps {shape_name}, fill {fill}", measure(bundle, leaf)))
    print(f"\n{NAME}: deployed {sizes(NAME):,} B (EIP-170 24 576), "
          f"init {len(compiled(NAME, part='bytecode')) // 2:,} B (EIP-3860 49 152)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
