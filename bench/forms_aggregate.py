"""The aggregate executor on chain forms (``contracts/src/forms/PorAggregateForm.sol``,
ADR 0017 stage 4, s39 ``aggform``), in revm: its execution gas next to today's CBOR
executor (``PorAggregateExec`` on the OneStepProof Python writes), and its call data.

Rows: ``bench/gas_steps.py``'s aggregate of 3 items (scenario 08, its forged aggregate)
honest and lying; ``bench/gas_aggregate.py``'s 10 x 8 and its lie (the last field's
``fallback_used``); ``bench/largest_shapes.py``'s markets at the caps with the filler of
each UTF-8 width (``--fill-bytes``, as ``bench/largest_gas.py``), the largest aggregate
of each. For each: execution gas (revm: total less 21 000 and the call data's price, as
``bench/gas_steps.py`` counts it), the call data's bytes, its price (EIP-2028: 16 a
non-zero byte, 4 a zero byte) and at a flat 16 a byte, the AGGREGATE form's words, and
execution + call data + 21 000 (what the transaction would pay for the executor alone;
a settle adds the registry and the router).

Usage: ``PYTHONPATH=. python bench/forms_aggregate.py [--fill-bytes 1|2|3|4 ...]
[--no-today]``. Gas is deterministic.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests" / "chain"), str(ROOT / "tests"), str(ROOT / "bench")]

from forms_aggregate_cases import call_data, chain_answer  # noqa: E402
from forms_harness import forms_root_of, sizes  # noqa: E402

from por.bundle.layout import Bundle  # noqa: E402

TX = 21_000


def price(data: bytes) -> int:
    """EIP-2028 call data gas."""
    zeros = data.count(0)
    return 4 * zeros + 16 * (len(data) - zeros)


def row(name: str, bundle: Bundle, leaf: int) -> dict[str, Any]:
    """One line of figures for the aggregate at ``leaf``."""
    committed = forms_root_of(bundle)
    data = call_data(bundle, leaf, committed)
    answer, gas = chain_answer(data)
    words = len(committed.forms.forms[committed.index_of_step(leaf)].form) // 32
    paid = price(data)
    out = {"case": name, "answer": answer, "exec": gas, "bytes": len(data), "calldata": paid,
           "flat16": 16 * len(data), "words": words, "total": TX + paid + gas}
    print(f"{name:58} {answer[1] if isinstance(answer, tuple) else answer!s:20} "
          f"exec {gas:>9,}  bytes {len(data):>7,}  calldata {paid:>9,} (x16 {16 * len(data):>9,})"
          f"  AGGREGATE {words:>5} words  exec+calldata+tx {out['total']:>9,}")
    return out


def today(forms: dict[str, Any], bundles: dict[str, Bundle], index: int) -> None:
    """Today's ``PorAggregateExec`` on the same steps' CBOR OneStepProofs, against the
    executor on forms (``forms``: the rows of :func:`row`)."""
    from exec_support import ExecChecker
    from gas_steps import _step_proof

    checker = ExecChecker("PorAggregateExec")
    for name, bundle in bundles.items():
        proof = _step_proof(bundle, index)
        _won, check_id, gas = checker.execute(proof)
        print(f"  today's PorAggregateExec (CBOR proof, {len(proof):,} bytes) {name}: "
              f"{check_id} exec {gas:,}; on forms {forms[name]['exec']:,} "
              f"({forms[name]['exec'] / gas:.2f} of today's)")


def typical() -> tuple[Bundle, Bundle, int]:
    """``bench/gas_steps.py``'s aggregate of 3 items: (honest, lying, the aggregate's leaf)."""
    from proofs import classes, market

    honest = market(3)
    lie = classes(honest, 3)["forged.aggregate"][0]()
    return honest, lie, len(lie.steps) - 1 - 3


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--fill-bytes", type=int, nargs="*", choices=(1, 2, 3, 4),
                        default=[1, 2, 3, 4], help="UTF-8 widths of the caps markets' filler")
    parser.add_argument("--no-today", action="store_true", help="skip today's executor")
    args = parser.parse_args()
    from bundle_edits import steps_of
    from gas_aggregate import largest
    from largest_gas import FILLS
    from largest_shapes import CAPS, SHAPES, market
    from proofs import output_with, with_step

    print(f"PorAggregateForm: {sizes('PorAggregateForm'):,} bytes deployed (EIP-170 24 576)")
    honest, lie, index = typical()
    rows = {"honest": row("aggregate of 3 (gas_steps' market), honest", honest, index),
            "lie": row("aggregate of 3 (gas_steps' lie: forged.aggregate)", lie, index)}
    if not args.no_today:
        today(rows, {"honest": honest, "lie": lie}, index)
    big = largest()
    at = steps_of(big, "aggregate")[0]
    big_lie = with_step(big, at, lambda s: output_with(
        s, ("fields", 7, "fallback_used"), lambda v: not v))
    rows = {"honest": row("10 x 8 (gas_aggregate.largest), honest", big, at),
            "lie": row("10 x 8 lie (last field's fallback_used)", big_lie, at)}
    if not args.no_today:
        today(rows, {"honest": big, "lie": big_lie}, at)
    worst: dict[str, Any] = {"total": 0}
    for fill in args.fill_bytes:
        CAPS["fill"] = FILLS[fill]
        for name, shape in SHAPES.items():
            bundle = market(shape)
            rows = [row(f"caps {name}, fill {fill} bytes, leaf {leaf}", bundle, leaf)
                    for leaf in steps_of(bundle, "aggregate")[:2]]
            top = max(rows, key=lambda r: r["total"])
            worst = max(worst, top, key=lambda r: r["total"])
    print(f"largest: {worst['case']}: exec {worst['exec']:,} + calldata {worst['calldata']:,} "
          f"+ {TX:,} = {worst['total']:,} ({'under' if worst['total'] <= 3_000_000 else 'OVER'}"
          " 3 000 000)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
