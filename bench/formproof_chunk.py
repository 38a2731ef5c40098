"""The FormProof on chain for the CHUNK family (``PorFormFamilyChunk``, form tag 4; ADR 0017
s42 addendum ``fpchunk2``), in revm, measured as ``bench/formproof_gas.py`` measures the
other families (its helpers, imported): execution gas of the envelope's ``check(bytes)``
on a ``por.FormProof/1`` file whose record is a ``check_requirement`` step, of
``PorFormFamilyChunk.form(bytes)`` alone, the file's bytes and call data price, the leaf's
bytes and ``F``'s words.

Rows: every fixture market's CHUNK steps (honest: ``form.match``; min, median, max),
scenario 08's CHUNK step honest, its form leaf lied, ``F`` undefined (a reason outside the
set); ``bench/largest_shapes.py``'s markets at the caps (``--fill-bytes``), each market's
CHUNK steps, honest: the largest one's row and the count (every step is measured).

Usage: ``PYTHONPATH=. python bench/formproof_chunk.py [--fill-bytes 1 4]``.
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
from formproof_families import check_call, family_gas  # noqa: E402
from formproof_gas import FILLS, line  # noqa: E402
from forms_harness import compiled, selector, sizes  # noqa: E402
from proof_check_support import calldata_gas  # noqa: E402

from por.bundle.layout import Bundle  # noqa: E402
from por.challenge.form_proof import build_form_proof, verify_form_proof  # noqa: E402
from por.encoding import decode, encode  # noqa: E402
from por.errors import PorError  # noqa: E402
from por.forms import step_form  # noqa: E402
from por.scenarios import list_scenarios  # noqa: E402

NAME = "PorFormFamilyChunk"
KIND = "check_requirement"


def measure(bundle: Bundle, leaf: int) -> dict[str, object]:
    """One CHUNK step's FormProof: Python's answer, the chain's gas and sizes."""
    r = len(bundle.forms) - len(bundle.steps) - 2
    proof = build_form_proof(bundle, 1 + r + leaf)
    data = selector("check(bytes)") + abi_encode(["bytes"], [proof.to_cbor()])
    out, gas = check_call(proof.to_cbor())
    assert not isinstance(out, str), out
    raw = bundle.steps[leaf]
    try:
        words = len(step_form(decode(raw))) // 32
    except PorError:
        words = 0
    return {"answer": verify_form_proof(proof).reason, "gas": gas,
            "form gas": family_gas(NAME, raw), "file": len(proof.to_cbor()),
            "calldata gas": calldata_gas(data), "leaf": len(raw), "words": words}


def table(fills: list[int]) -> None:
    print(f"\n| chunk: case | answer | check gas | {NAME}.form gas | file B | call data gas | "
          "leaf B | F words |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    gases = sorted(int(str(measure(bundle, leaf)["gas"]))
                   for bundle in map(honest, list_scenarios()) for leaf in steps_of(bundle, KIND))
    print(f"| fixtures: {len(gases)} chunk steps, honest | form.match | min {gases[0]:,}, "
          f"median {int(statistics.median(gases)):,}, max {gases[-1]:,} | | | | | |")
    name08 = next(n for n in list_scenarios() if n.startswith("08-"))
    b08 = honest(name08)
    leaf = steps_of(b08, KIND)[0]
    print(line(f"{name08} honest", measure(b08, leaf)))
    forms = list(b08.forms)
    forms[len(forms) - len(b08.steps) - 1 + leaf] = bytes(32)
    print(line(f"{name08} form leaf lied", measure(recommit(b08, forms=forms), leaf)))
    steps = list(b08.steps)
    step = decode(steps[leaf])
    step["output"]["items"][0]["reasons"] = ["sanity.bogus"]
    steps[leaf] = encode(step)
    print(line(f"{name08} a reason sanity.bogus", measure(recommit(b08, steps=steps), leaf)))
    from largest_shapes import CAPS, SHAPES, market  # heavy: after the arguments

    for fill in fills:
        CAPS["fill"] = FILLS[fill]
        for shape_name, shape in SHAPES.items():
            bundle = market(shape)
            rows = [measure(bundle, leaf) for leaf in steps_of(bundle, KIND)]
            top = max(rows, key=lambda m: int(str(m["gas"])))
            print(line(f"caps {shape_name}, fill {fill}: largest of {len(rows)} chunk steps",
                       top), flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--fill-bytes", type=int, nargs="*", choices=(1, 2, 3, 4),
                        default=[1, 4], help="UTF-8 widths of the caps markets' filler")
    args = parser.parse_args()
    table(args.fill_bytes)
    print(f"\n{NAME}: deployed {sizes(NAME):,} B (EIP-170 24 576), "
          f"init {len(compiled(NAME, part='bytecode')) // 2:,} B (EIP-3860 49 152)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
