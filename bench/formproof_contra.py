"""The FormProof's CONTRADICTIONS family on chain (``PorFormFamilyContradictions``, SPEC
§5.6.9, ADR 0017 s42 addendum ``fpcontra``), in revm: execution gas of ``form(bytes)`` on a
contradictions step leaf (the §2 reader and the record's validity, then ``F`` rebuilt from
its CBOR; the reader's part measured alone by a probe), as ``bench/formproof_gas.py``
measures its families' ``*Form`` (a call's gas less 21 000 and its call data price), the
leaf's bytes and ``F``'s words and conflicts.

Rows: every fixture market's contradictions step (honest: min, median, max, and scenario
08's, the typical one, and 09's, one numeric conflict); ``bench/largest_shapes.py``'s
markets at the caps (``--fill-bytes``: the filler's UTF-8 widths), each market's
contradictions step (``many.conflict``: 16 conflicts, the largest). The contract's
deployed and init code sizes close the table.

Usage: ``PYTHONPATH=. python bench/formproof_contra.py [--fill-bytes 1 4]``.
Gas is deterministic.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests" / "chain"), str(ROOT / "tests"), str(ROOT / "bench")]

from bundle_edits import honest  # noqa: E402
from eth_abi.abi import decode as abi_decode  # noqa: E402
from eth_abi.abi import encode as abi_encode  # noqa: E402
from formproof_gas import FILLS, leaves  # noqa: E402
from forms_harness import call, compiled, deploy, selector, sizes  # noqa: E402

from por.bundle.layout import Bundle  # noqa: E402
from por.encoding import decode  # noqa: E402
from por.forms import step_form  # noqa: E402
from por.scenarios import list_scenarios  # noqa: E402

NAME = "PorFormFamilyContradictions"
#: The record's validity alone (the §2 reader, `PorRecords.reasoningStep`), the part of
#: `form` that is not `F`'s: a probe compiled beside the forms (not committed as a contract).
READER = """// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;
import {PorRecords} from "../PorRecords.sol";
contract ReaderProbe {
    function reader(bytes calldata leaf) external pure returns (bool valid) {
        (valid,) = PorRecords.reasoningStep(leaf);
    }
}
"""


def measure(bundle: Bundle, leaf: int) -> dict[str, int]:
    """One contradictions step: ``form(bytes)``'s gas (its answer = Python's ``F``), sizes."""
    raw = bundle.steps[leaf]
    out, gas = call(deploy(NAME), selector("form(bytes)") + abi_encode(["bytes"], [raw]))
    _, reader = call(deploy("ReaderProbe", READER),
                     selector("reader(bytes)") + abi_encode(["bytes"], [raw]))
    form = step_form(decode(raw))
    assert isinstance(out, bytes), out
    assert abi_decode(["bool", "bool", "bytes"], out) == (True, True, form), "F is not Python's"
    return {"gas": gas, "reader": reader, "leaf": len(raw), "words": len(form) // 32,
            "conflicts": len(decode(raw)["output"]["conflicts"])}


def line(label: str, m: dict[str, int]) -> str:
    return (f"| {label} | {m['gas']:,} | {m['reader']:,} | {m['leaf']:,}"
            f" | {m['words']} | {m['conflicts']} |")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--fill-bytes", type=int, nargs="*", choices=(1, 2, 3, 4),
                        default=[1, 4], help="UTF-8 widths of the caps markets' filler")
    args = parser.parse_args()
    print("\n| contradictions: case | form gas | of which the reader | leaf B | F words | "
          "conflicts |")
    print("| --- | --- | --- | --- | --- | --- |")
    rows = []
    for name in list_scenarios():
        bundle = honest(name)
        for leaf in leaves(bundle, "contradictions"):
            rows.append((name, measure(bundle, leaf)))
    gases = sorted(m["gas"] for _, m in rows)
    print(f"| fixtures: {len(rows)} steps, honest | min {gases[0]:,}, median "
          f"{int(statistics.median(gases)):,}, max {gases[-1]:,} | | | | |")
    for prefix in ("08-", "09-"):
        name, m = next((n, m) for n, m in rows if n.startswith(prefix))
        print(line(f"{name} honest", m))
    from largest_shapes import CAPS, SHAPES, market  # heavy: after the arguments

    for fill in args.fill_bytes:
        CAPS["fill"] = FILLS[fill]
        for shape_name, shape in SHAPES.items():
            bundle = market(shape)
            for leaf in leaves(bundle, "contradictions"):
                print(line(f"caps {shape_name}, fill {fill}", measure(bundle, leaf)), flush=True)
    print(f"\n{NAME}: deployed {sizes(NAME):,} B (EIP-170 24 576), "
          f"init {len(compiled(NAME, part='bytecode')) // 2:,} B (EIP-3860 49 152)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
