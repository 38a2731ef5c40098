"""Benchmark: what the largest proofs of ``bench/largest_gas.py`` grow with, one list cap
at a time (issue 24 item 7; ADR 0014, s34 addendum).

Each row is the settle (revm execution gas, as ``largest_gas.py`` measures it) of a
won proof on a market of ``bench/largest_shapes.py`` with one count lowered below its
cap, the texts at the caps ``--ascii`` / ``--id-points`` / ``--path-points`` /
``--text-bytes`` give (defaults: the protocol's):

* check chunk: the first chunk (no prior chunk) of ``one.numeric`` with 1, 2, 5, 10
  items (K, SPEC §12.5; one source each);
* aggregate: ``one.numeric`` with 1, 2, 4, 8 fields (10 sources), and with 3, 5, 10
  sources (8 fields, two items each);
* contradictions: ``many.conflict`` with 1, 2, 4, 8 requirements; deduce: ``many``
  with 1, 2, 4, 8 requirements.

``--utf8`` instead measures the §2 reader's UTF-8 check alone (``checkProof`` on a map
holding one text of 1 000 or 4 000 code points of 1, 2 or 4 bytes; the gas column is
``checkProof``'s, not a settle).

Usage: ``PYTHONPATH=. python bench/largest_units.py [--ascii] [--id-points N]
[--path-points N] [--text-bytes N] [--spec-bytes S] [--utf8] [--json]``.  Deterministic.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from largest_gas import Meter, _flip, _step_lie
from largest_shapes import CAPS, SHAPES, market, verified

from por.bundle.layout import Bundle

#: (unit, shape, the field of Shape varied, its values, the lie).
SCANS: tuple[tuple[str, str, str, tuple[int, ...], Callable[[Bundle], Any]], ...] = (
    ("check chunk 0: items", "one.numeric", "items", (1, 2, 5, 10),
     _step_lie("check_requirement", 0, ("admitted_count",), lambda v: v + 1)),
    ("aggregate: fields (10 sources)", "one.numeric", "fields", (1, 2, 4, 8),
     _step_lie("aggregate", 0, ("fields", -1, "fallback_used"), _flip)),
    ("aggregate: sources (8 fields)", "one.numeric", "sources", (3, 5, 10),
     _step_lie("aggregate", 0, ("fields", -1, "fallback_used"), _flip)),
    ("contradictions: requirements", "many.conflict", "requirements", (1, 2, 4, 8),
     _step_lie("contradictions", 0, ("claim_count",), lambda v: v + 1)),
    ("deduce: requirements", "many", "requirements", (1, 2, 4, 8),
     _step_lie("deduce", 0, ("conflict_detected",), _flip)),
)


def measure() -> list[dict[str, Any]]:
    meter = Meter()
    rows = []
    for unit, name, field, values, lie_of in SCANS:
        for value in values:
            change: dict[str, Any] = {field: value, "name": f"{name}.{field}{value}"}
            if field == "sources":
                change["items"] = 2 * value
            bundle = verified(market(dataclasses.replace(SHAPES[name], **change)))
            lie, proof = lie_of(bundle)
            won, check_id, _gas = meter.check(proof)
            if not won:
                raise RuntimeError(f"{unit} {value}: the chain says {check_id}")
            rows.append({"unit": unit, "value": value, "proof_bytes": len(proof),
                         "settle": meter.settle(lie.to_cbor(), proof)})
    return rows


def utf8_rows() -> list[dict[str, Any]]:
    """The §2 reader's UTF-8 check alone: ``PorProofCheck.checkProof`` on a map
    ``{"schema": "aaaaaaaa", "zz": T}`` (lost ``proof.schema`` after the whole scan),
    ``T`` 1 000 and 4 000 code points of 1, 2 and 4 UTF-8 bytes."""
    from proof_check_support import ProofChecker

    from por.encoding import encode

    checker = ProofChecker()
    rows = []
    for points in (1_000, 4_000):
        for fill in ("x", "\u00e9", "\U0001f600"):
            data = encode({"schema": "a" * 8, "zz": fill * points})
            _won, check_id, gas = checker.any_proof(data)
            rows.append({"unit": f"reader: {len(fill.encode())}-byte code points",
                         "value": points, "proof_bytes": len(data), "settle": gas,
                         "check_id": check_id})
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--ascii", action="store_true")
    parser.add_argument("--id-points", type=int, default=CAPS["id"])
    parser.add_argument("--path-points", type=int, default=CAPS["path"])
    parser.add_argument("--text-bytes", type=int, default=CAPS["text"])
    parser.add_argument("--spec-bytes", type=int, default=CAPS["spec"])
    parser.add_argument("--utf8", action="store_true",
                        help="only the reader's UTF-8 check per code point width (checkProof)")
    args = parser.parse_args()
    CAPS.update(id=args.id_points, path=args.path_points, text=args.text_bytes,
                spec=args.spec_bytes,
                fill="x" if args.ascii else CAPS["fill"])
    rows = utf8_rows() if args.utf8 else measure()
    if args.json:
        print(json.dumps({"schema": "por/bench-largest-units/1", "rows": rows}, indent=2))
        return 0
    for r in rows:
        print(f"{r['unit']:32} {r['value']:>3} {r['proof_bytes']:>7} B {r['settle']:>10}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
