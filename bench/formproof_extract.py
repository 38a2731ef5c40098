"""The FormProof on chain for the EXTRACT family (``contracts/src/forms/PorFormFamilyExtract.sol``,
an ``IPorFormFamily``; ADR 0017 s42 addendum ``fpextract``), in revm: execution gas of
``form(bytes)`` on an extract step's leaf (the §2 reader and the step's validity, its
identity, then ``F`` EXTRACT rebuilt from its CBOR), as ``bench/formproof_gas.py`` measures
the other families' ``*Form`` (its helpers imported; the envelope, ``check``, is not this
family's: the split helper's ``PorFormProofCheck`` dispatches to it), the call data's price
(EIP-2028), the leaf's bytes and ``F``'s words.

Rows: every fixture market's extract steps (honest: ``F`` defined; min, median, max),
scenario 08's first extract step (typical) honest, with ``F`` undefined (its card's
``status_code`` 600) and invalid (an extra top-level key); ``bench/largest_shapes.py``'s
markets at the caps (``--fill-bytes``: the filler's UTF-8 widths, default 1 and 4): per
market its extract steps' count and gas (min, median) and its largest extract step (by
gas). The contract's deployed and init code sizes close the table.

Usage: ``PYTHONPATH=. python bench/formproof_extract.py [--fill-bytes 1 2 3 4]``.
Gas is deterministic.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests" / "chain"), str(ROOT / "tests"), str(ROOT / "bench")]

from bundle_edits import honest, steps_of  # noqa: E402
from eth_abi.abi import decode as abi_decode  # noqa: E402
from eth_abi.abi import encode as abi_encode  # noqa: E402
from formproof_gas import FILLS  # noqa: E402
from forms_harness import call, compiled, deploy, selector, sizes  # noqa: E402
from proof_check_support import calldata_gas  # noqa: E402

from por.encoding import decode, encode  # noqa: E402
from por.scenarios import list_scenarios  # noqa: E402

NAME = "PorFormFamilyExtract"
KIND = "extract_claims"


def measure(raw: bytes) -> dict[str, object]:
    """One leaf's ``form(bytes)``: the answer, gas, call data price, bytes, words."""
    data = selector("form(bytes)") + abi_encode(["bytes"], [raw])
    out, gas = call(deploy(NAME), data)
    assert not isinstance(out, str), out
    valid, defined, form = abi_decode(["bool", "bool", "bytes"], out)
    answer = "F" if defined else "no form" if valid else "invalid"
    return {"answer": answer, "gas": gas, "calldata gas": calldata_gas(data), "leaf": len(raw),
            "words": len(form) // 32 if defined else 0}


def line(label: str, m: dict[str, object]) -> str:
    return (f"| {label} | {m['answer']} | {m['gas']:,} | {m['calldata gas']:,} | "
            f"{m['leaf']:,} | {m['words']} |")


def edited(raw: bytes, where: str, key: str, value: object) -> bytes:
    step = decode(raw)
    (step["output"]["card"] if where == "card" else step)[key] = value
    return encode(step)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--fill-bytes", type=int, nargs="*", choices=(1, 2, 3, 4),
                        default=[1, 4], help="UTF-8 widths of the caps markets' filler")
    args = parser.parse_args()
    print("\n| extract: case | answer | form gas | call data gas | leaf B | F words |")
    print("| --- | --- | ---: | ---: | ---: | ---: |")
    gases = []
    for name in list_scenarios():
        bundle = honest(name)
        gases += [int(str(measure(bundle.steps[i])["gas"])) for i in steps_of(bundle, KIND)]
    gases.sort()
    print(f"| fixtures: {len(gases)} extract steps, honest | F | min {gases[0]:,}, "
          f"median {int(statistics.median(gases)):,}, max {gases[-1]:,} | | | |")
    name08 = next(n for n in list_scenarios() if n.startswith("08-"))
    raw = honest(name08).steps[steps_of(honest(name08), KIND)[0]]
    print(line(f"{name08} honest (typical)", measure(raw)))
    print(line(f"{name08}, card status_code 600", measure(edited(raw, "card", "status_code", 600))))
    print(line(f"{name08}, an extra top-level key", measure(edited(raw, "step", "extra", 1))))
    from largest_shapes import CAPS, SHAPES, market  # heavy: after the arguments

    for fill in args.fill_bytes:
        CAPS["fill"] = FILLS[fill]
        for shape_name, shape in SHAPES.items():
            bundle = market(shape)
            ms = [measure(bundle.steps[i]) for i in steps_of(bundle, KIND)]
            g = sorted(int(str(m["gas"])) for m in ms)
            big = max(ms, key=lambda m: int(str(m["gas"])))
            print(f"| caps {shape_name}, fill {fill}: {len(ms)} extract steps | F | min {g[0]:,}, "
                  f"median {int(statistics.median(g)):,} | | | |")
            print(line(f"caps {shape_name}, fill {fill}, largest", big), flush=True)
    print(f"\n{NAME}: deployed {sizes(NAME):,} B (EIP-170 24 576), "
          f"init {len(compiled(NAME, part='bytecode')) // 2:,} B (EIP-3860 49 152)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
