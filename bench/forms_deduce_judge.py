"""The deduce executor and the JudgeProof on chain forms (``contracts/src/forms/
PorDeduceForm.sol``, ``PorJudgeForm.sol``; ADR 0017 stage 4, s39 ``dedjudge``), in revm:
execution gas next to today's CBOR executors, call data, and an estimated settle.

Rows: ``bench/gas_steps.py``'s deduce of 3 items (scenario 08's market, its
``forged.deduce``) and its JudgeProof (``forged.verdict``), honest and lying;
``bench/largest_shapes.py``'s markets at the caps with the filler of each UTF-8 width
(``--fill-bytes``, as ``bench/largest_gas.py``), each market's deduce step and
JudgeProof. For each: execution gas (revm: a call's gas less 21 000 and its call data
price, as ``bench/gas_steps.py`` counts it), the call data's bytes and its price
(EIP-2028) and at a flat 16 a byte; today's executor on the same lie (``PorDeduceExec``
``execute(bytes)``, ``PorJudgeExec`` ``check(bytes)``, on the CBOR proof Python writes)
and the proof's bytes. ``settle est.`` follows the spike addendum's method: the forms
executor + the registry's part (``REGISTRY``: anvil's settle less checkProof, ADR 0017
table) + the §2 reader over the forms proof in a CBOR envelope (``bench/forms_envelope.py``:
``checkCbor``, less its cost on ``{}``); the router's own walk and its external call
(7 000-12 000) are not in it.

Usage: ``PYTHONPATH=. python bench/forms_deduce_judge.py [--fill-bytes 1|2|3|4 ...]``.
Gas is deterministic.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests" / "chain"), str(ROOT / "tests"), str(ROOT / "bench")]

import forms_deduce_cases as deduce  # noqa: E402
import forms_judge_cases as judge  # noqa: E402
from forms_envelope import Reader  # noqa: E402
from forms_harness import forms_root_of, sizes  # noqa: E402

from por.bundle.layout import Bundle  # noqa: E402

TX = 21_000
#: The registry's part of a settle on anvil (settle less checkProof; ADR 0017's table).
REGISTRY = 29_138


def price(data: bytes) -> int:
    """EIP-2028 call data gas."""
    zeros = data.count(0)
    return 4 * zeros + 16 * (len(data) - zeros)


def today(kind: str, bundle: Bundle, leaf: int) -> tuple[str, int, int]:
    """Today's executor on the CBOR proof: (check id, exec gas, proof bytes)."""
    from exec_support import ExecChecker
    from gas_steps import _step_proof

    from por.challenge.judge_proof import build_judge_proof

    if kind == "deduce":
        proof = _step_proof(bundle, leaf)
        _won, check_id, gas = ExecChecker("PorDeduceExec").execute(proof)
    else:
        proof = bytes(build_judge_proof(bundle).to_cbor())
        _won, check_id, gas = ExecChecker("PorJudgeExec", entry="check(bytes)").execute(proof)
    return check_id, gas, len(proof)


def row(name: str, kind: str, bundle: Bundle, reader: Reader, with_today: bool
        ) -> dict[str, Any]:
    """One line of figures for the bundle's deduce step or JudgeProof."""
    from bundle_edits import steps_of

    committed = forms_root_of(bundle)
    leaf = steps_of(bundle, "deduce")[0]
    if kind == "deduce":
        data = deduce.step_call_data(bundle, leaf, committed)
        answer, gas = deduce.chain_answer(data)
    else:
        data = judge.call_data(bundle, committed)
        answer, gas = judge.chain_answer(data)
    paid, read = price(data), reader(data)
    out = {"case": name, "exec": gas, "bytes": len(data), "calldata": paid,
           "settle": gas + REGISTRY + read}
    said = answer[1] if isinstance(answer, tuple) else answer
    line = (f"{name:50} {said:18} exec {gas:>9,}  bytes {len(data):>6,}  calldata {paid:>7,}"
            f" (x16 {16 * len(data):>7,})  reader {read:>7,}  settle est. {out['settle']:>9,}")
    if with_today:
        check_id, old, size = today(kind, bundle, leaf)
        line += f"  | today {check_id} exec {old:,} ({size:,} B)"
    print(line)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--fill-bytes", type=int, nargs="*", choices=(1, 2, 3, 4),
                        default=[1, 2, 3, 4], help="UTF-8 widths of the caps markets' filler")
    args = parser.parse_args()
    from largest_gas import FILLS
    from largest_shapes import CAPS, SHAPES, market
    from proofs import classes
    from proofs import market as scenario

    for name in ("PorDeduceForm", "PorJudgeForm"):
        print(f"{name}: {sizes(name):,} bytes deployed (EIP-170 24 576)")
    reader = Reader()
    honest = scenario(3)
    table = classes(honest, 3)
    for kind, lie in (("deduce", "forged.deduce"), ("judge", "forged.verdict")):
        row(f"{kind} of 3 items (gas_steps' market), honest", kind, honest, reader, True)
        row(f"{kind} of 3 items, lie ({lie})", kind, table[lie][0](), reader, True)
    for fill in args.fill_bytes:
        CAPS["fill"] = FILLS[fill]
        for name, shape in SHAPES.items():
            bundle = market(shape)
            for kind in ("deduce", "judge"):
                row(f"caps {name}, fill {fill}: {kind}", kind, bundle, reader, fill == 1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
