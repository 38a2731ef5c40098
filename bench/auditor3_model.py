"""Benchmark: por-auditor/3 (records committed by entry, ``por.OneStepProof/2``)
measured before it is built (ADR 0016; issue 24 item 7).

For every class of ``bench/gas_steps.py`` and every row of ``bench/largest_gas.py``
(the same lying bundles and won /2 proofs), the /3 proof the design implies is built
from the same bundle (``bench/auditor3/``: real entry trees and paths with
``por.merkle``, canonical bytes with ``por.encoding``) and its bytes are printed by
role beside the /2 proof's.  The settle gas of /3 is projected with a model whose
figures are measured on today's contracts in revm in the same run
(``bench/auditor3/model.py``: the reader per document, the registry, the route, the
common part and the step kinds' own stages), but for the few only the gas profiler
gives (``bench/auditor3/profiled.py``, with the commit and command that made them);
the same model applied to today's /2 proofs is compared with their measured settle
(the first ``err`` column, per mille: model less measured; the ``own`` column says
where the kind's own part comes from: ``run``, ``profile``, or ``fit`` where it is the
residual and the error 0 by construction), and its common part with the one measured
(SPEC §10.5 steps 1-6, ``bench/common_part.py``) on every step proof, the largest
included (the ``common`` column and its ``err``).

Usage: ``PYTHONPATH=. python bench/auditor3_model.py [--typical] [--json]
[--reader-scale N/D] [--own-cut KIND=GAS ...] [--id-points N] [--text-bytes B]
[--ascii] [--units] [--every-entry]``.  ``--typical``: gas_steps.py's classes only;
``--reader-scale`` and ``--own-cut`` plug in other cuts of today's contracts (the
JSON's ``cut2`` is /2 with the same cuts); ``--id-points``, ``--text-bytes``,
``--ascii`` build the largest rows under other text caps, as ``bench/largest_gas.py``;
``--units``: the rows of ``bench/largest_units.py`` after the typical ones, one list
cap lowered at a time (the same model); ``--every-entry``:
the variant without the step's group leaf.  Deterministic.
"""

from __future__ import annotations

import argparse
import json
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests" / "chain"), str(ROOT / "tests"), str(ROOT / "bench")]

TYPICAL, LARGEST = 300_000, 3_000_000


#: Step executors whose proofs bench/common_part.py measures (not the map's own).
COMMON_KINDS = ("PorCheckExec", "PorAggregateExec", "PorContradictionsExec", "PorDeduceExec")


class Meter:
    """revm: the checker (``checkCbor``, ``checkProof``) and the executors."""

    def __init__(self) -> None:
        from proof_check_support import ProofChecker

        self.checker = ProofChecker()
        self.base = self._cbor(b"\xa0")
        self.executors: dict[str, Any] = {}

    def _cbor(self, doc: bytes) -> int:
        _out, gas = self.checker._call("checkCbor(bytes)", doc)
        return int(gas)

    def reader(self, doc: bytes) -> int:
        return self._cbor(doc) - self.base

    def run(self, lie: bytes, proof: bytes, executor: str | None, entry: str) -> dict[str, Any]:
        from chain_support import settled
        from common_part import CommonPart
        from exec_support import ExecChecker

        settle = int(settled(lie, proof).execution_gas)
        won, check_id, check = self.checker.any_proof(proof)
        assert won, check_id
        alone = None
        if executor is not None:
            if executor not in self.executors:
                self.executors[executor] = ExecChecker(executor, entry=entry)
            alone = self.executors[executor].execute(proof)[2]
        common = None
        if executor in COMMON_KINDS:  # SPEC §10.5 steps 1-6 (bench/common_part.py)
            self.common = getattr(self, "common", None) or CommonPart()
            common = int(self.common.gas(proof))
        return {"settle": settle, "checkProof": check, "exec": alone, "common": common}


def row(meter: Meter, case: tuple[str, str, str | None, str, bytes, bytes]) -> dict[str, Any]:
    from auditor3.carry import Bundle3, proof_bytes, recompute_hashes
    from auditor3.convert import carried, items2, items3, parts2
    from auditor3.profiled import PASS_IN_OWN
    from proof_anatomy import anatomy

    from por.challenge import bundle_from_bytes
    from por.encoding import decode

    name, target, executor, entry, lie, proof = case
    b3 = Bundle3(bundle_from_bytes(lie))
    kind, schema, c = carried(proof, b3)
    proof3, roles3, sha3 = proof_bytes(c, b3, schema)
    p2 = parts2(proof)
    sha2 = sum(2 + len(p["leaf_path"]) + len(p["component_path"]) for p in p2)
    spec2 = sum(len(p["leaf"]) for p in p2 if p["kind"] == "prompt_spec")
    disputed = [t for (comp, _i), (t, _s) in c.records.items() if c.roles[(comp, _i)] == "step"]
    measured = meter.run(lie, proof, executor, entry)
    leaves3 = [t.leaves[i] for (t, chosen) in c.records.values() for i in sorted(chosen)]
    carried2 = sum(len(p["leaf"]) for p in p2)  # every /2 leaf is hashed once
    read2 = [(p, meter.reader(p["leaf"])) for p in p2]  # each leaf's §2 pass, once
    hashed3 = sum(len(leaf) for leaf in [*leaves3, *c.whole.values()])
    inside = PASS_IN_OWN.get(kind, ())
    out = {"class": name, "target": target, "kind": kind, **measured,
           "bytes2": len(proof), "roles2": anatomy(proof), "bytes3": len(proof3),
           "roles3": roles3, "reader2": meter.reader(proof),
           "leaves2": sum(g for p, g in read2 if kind != "map" or p["kind"] != "prompt_spec"),
           "spec_pass2": sum(g for p, g in read2 if p["kind"] == "prompt_spec"),
           "sha2": sha2, "hashed2": carried2, "fields2": carried2 - spec2,
           "pass_in_own2": sum(g for p, g in read2 if p["kind"] in inside),
           "hashed3": hashed3, "fields3": hashed3 - roles3["spec"],
           "parts2": len(p2), "items2": items2(proof), "items3": items3(c),
           "carried2": carried2, "spec2": spec2, "spec3": roles3["spec"],
           "reader3": meter.reader(proof3),
           "leaves3": sum(meter.reader(leaf) for leaf in [*leaves3, *c.whole.values()]),
           "sha3": sha3, "parts3": len(leaves3) + len(c.whole),
           "recompute_sha": (recompute_hashes(disputed[0])
                             if disputed and kind not in ("omission", "citation") else 0)}
    assert decode(proof3)["schema"] == schema
    return out


def cases(typical_only: bool) -> list[tuple[str, str, str | None, str, bytes, bytes]]:
    from gas_steps import cases as typical

    out = []
    for name, target, executor, entry, make in typical():
        lie, proof = make()
        out.append((name, target, executor, entry, lie, proof))
    if not typical_only:
        from largest_gas import KINDS, proofs

        for kind, shape, lie_bundle, proof in proofs(KINDS):
            out.append((f"{kind.name} [{shape}]", "largest", kind.executor, kind.entry,
                        lie_bundle.to_cbor(), proof))
    return out


EXECUTORS = {"check chunk": "PorCheckExec", "aggregate": "PorAggregateExec",
             "contradictions": "PorContradictionsExec", "deduce": "PorDeduceExec"}


def unit_cases() -> list[tuple[str, str, str | None, str, bytes, bytes]]:
    """bench/largest_units.py's scans (one list cap lowered at a time, texts at the
    caps): the same rows for the model, to read each kind's /3 cost per unit."""
    import dataclasses

    from largest_shapes import SHAPES, market, verified
    from largest_units import SCANS

    out: list[tuple[str, str, str | None, str, bytes, bytes]] = []
    for unit, name, field, values, lie_of in SCANS:
        executor = next(x for k, x in EXECUTORS.items() if unit.startswith(k))
        for value in values:
            change: dict[str, Any] = {field: value, "name": f"{name}.{field}{value}"}
            if field == "sources":
                change["items"] = 2 * value
            lie, proof = lie_of(verified(market(dataclasses.replace(SHAPES[name], **change))))
            out.append((f"{unit} = {value}", "largest", executor, "execute(bytes)",
                        lie.to_cbor(), proof))
    return out


def measure(typical_only: bool = False, scale: Fraction = Fraction(1),
            own_cut: dict[str, int] | None = None, *, units: bool = False
            ) -> tuple[dict[str, str], list[dict[str, Any]]]:
    from auditor3.model import Model

    meter = Meter()
    chosen = [*cases(True), *unit_cases()] if units else cases(typical_only)
    rows = [row(meter, case) for case in chosen]
    model = Model(rows, scale, own_cut)
    for r in rows:
        r["model2"], r["model3"] = model.settle2(r), model.settle3(r)
        r["cut2"] = model.settle2(r, today=False)  # /2 with the same plugged-in cuts
        r["floor3"] = model.settle3(r, floor=True)
        r["err2"] = r["model2"] - r["settle"]
        r["own_from"] = model.source(r)
        r["common_model"] = model.common2(r) if r["common"] is not None else None
        r["limit"] = TYPICAL if r["target"] == "typical" else LARGEST
    return model.figures(), rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--typical", action="store_true", help="gas_steps.py's classes only")
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    parser.add_argument("--reader-scale", type=Fraction, default=Fraction(1),
                        help="the §2 reader's cost relative to today's, e.g. 1/2")
    parser.add_argument("--own-cut", action="append", default=[], metavar="KIND=GAS",
                        help="gas cut from a kind's own stages (check_requirement, "
                        "aggregate, contradictions, deduce, map, judge, omission, citation)")
    parser.add_argument("--id-points", type=int, default=None,
                        help="largest rows: ids of at most N code points (largest_gas.py's)")
    parser.add_argument("--text-bytes", type=int, default=None,
                        help="largest rows: text claim values of B bytes")
    parser.add_argument("--ascii", action="store_true", help="largest rows: ASCII texts")
    parser.add_argument("--every-entry", action="store_true",
                        help="the variant without the step's group leaf (schema, step_id, "
                        "step_type, inputs each a leaf)")
    parser.add_argument("--units", action="store_true",
                        help="bench/largest_units.py's scans instead of the classes")
    args = parser.parse_args()
    from auditor3.entries import GROUPED
    from largest_shapes import CAPS

    if args.every_entry:
        GROUPED.clear()
    CAPS.update({k: v for k, v in (("id", args.id_points), ("text", args.text_bytes),
                                   ("fill", "x" if args.ascii else None)) if v is not None})
    cuts = {k: int(v) for k, v in (c.split("=", 1) for c in args.own_cut)}
    figures, rows = measure(args.typical, args.reader_scale, cuts, units=args.units)
    if args.json:
        print(json.dumps({"schema": "por/bench-auditor3-model/1", "figures": figures,
                          "rows": rows}, indent=2, default=str))
        return 0
    print("fitted figures:", ", ".join(f"{k} {v}" for k, v in figures.items()))
    if args.reader_scale != 1 or cuts:
        print("with cuts plugged in (/2 with the same cuts, then /3):", ", ".join(
            f"{r['class'][:24]} {r['cut2']} -> {r['model3']}" for r in rows))
    print("bytes by role, /2>/3: spec (the PromptSpec), step (the disputed record), cited,"
          " paths (Merkle paths; /3 multiproofs), rest (framing, repeated roots)")
    print(f"{'class':52} {'/2 B':>7} {'/3 B':>6} {'spec':>11} {'step':>11} {'cited':>12} "
          f"{'paths':>11} {'rest':>11} {'settle /2':>10} {'model /2':>10} {'err ‰':>6} "
          f"{'own':>7} {'common':>8} {'err ‰':>6} {'/3 proj':>9} {'/3 floor':>9}  target")
    for r in rows:
        spec = f"{r['roles2']['prompt_spec']}>{r['roles3']['spec']}"
        cited = f"{r['roles2']['cited']}>{r['roles3']['cited']}"
        paths = f"{r['roles2']['paths']}>{r['roles3']['paths']}"
        step = f"{r['roles2']['step']}>{r['roles3']['step']}"
        rest = f"{r['roles2']['framing'] + r['roles2']['repeated']}>{r['roles3']['framing']}"
        err = (f"{1000 * r['err2'] // r['settle']:+d}" if r["err2"] >= 0 else
               f"-{1000 * -r['err2'] // r['settle']}") if r["own_from"] != "fit" else "fit"
        common = "-" if r["common"] is None else str(r["common"])
        cerr = "-" if r["common"] is None else \
            f"{1000 * (r['common_model'] - r['common']) // r['common']:+d}"
        ok = ("met" if r["model3"] <= r["limit"] else
              "floor only" if r["floor3"] <= r["limit"] else "NOT met")
        print(f"{r['class'][:52]:52} {r['bytes2']:>7} {r['bytes3']:>6} {spec:>11} {step:>11} "
              f"{cited:>12} {paths:>11} {rest:>11} {r['settle']:>10} {r['model2']:>10} {err:>6} "
              f"{r['own_from']:>7} {common:>8} {cerr:>6} "
              f"{r['model3']:>9} {r['floor3']:>9}  {r['limit']} {ok}")
    tested = [r for r in rows if r["own_from"] != "fit"]
    if tested:
        worst = max(tested, key=lambda r: abs(r["err2"]) * 1000 // r["settle"])
        most = abs(worst["err2"]) * 1000 // worst["settle"]
        print(f"model /2 error over {len(tested)} rows (own part from the run or the "
              f"profile; 'fit' rows excluded): at most {most} per mille ({worst['class']})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
