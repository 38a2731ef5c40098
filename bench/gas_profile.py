"""Gas profiler: where every gas unit of a settle goes, per contract, per function
(exclusive and inclusive) and per source line (issue 24 item 7; ADR 0014's s34
addendum is its report).

Runs one proof class of ``bench/gas_steps.py`` (its builders; ``--list`` names
them, a unique substring selects one), or a proof file, on anvil started with
``--steps-tracing`` on 127.0.0.1 (``tests/chain/anvil_node.py``; the committed build
deployed as ``contracts/deploy.json`` lists it): by default the registry's
``settleByProof`` as ``anvil_node.settle_fresh`` runs it (the settle column of
``bench/registry_gas.py``), with
``--check-proof`` ``PorProofCheck.checkProof`` alone.  bench/gasprof/trace.py reads
``debug_traceTransaction``'s opcode log (pc, depth, gas) and call tree;
bench/gasprof/srcmap.py recompiles the contracts with the pinned solc-js and the
committed artifacts' settings, requires the committed deployed bytecode, and maps
pc -> source map entry -> (file, line, function); bench/gasprof/attribute.py charges
each opcode (a call's callee frame to the callee, a precompile to its calling line)
and bench/gasprof/groups.py sorts it into the hotspot groups.

Reconciliation: the opcodes' costs sum to the outermost frame's gas (``trace``);
``trace - refund`` is the execution gas, and ``21 000 + calldata (EIP-2028) + trace -
refund`` must equal the receipt's gasUsed, else the tool fails.  Needs node with
``cd contracts && npm ci`` (the solc it recompiles with; the first run compiles for
about two minutes, later runs reuse a cache in the system temporary directory) and
``cd tests/chain/anvil && npm ci``.  The largest class (the aggregate at its caps,
1.4 M opcodes) takes about 90 s.

Usage: ``PYTHONPATH=. python bench/gas_profile.py "aggregate, 3" [--check-proof]
[--top 25] [--json]``; ``--proof FILE [--bundle FILE]`` profiles a proof file
(checkProof alone without the bundle).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests" / "chain"), str(ROOT / "tests"), str(ROOT / "bench")]

TX_BASE_GAS = 21_000


def calldata_cost(data: bytes) -> int:
    """EIP-2028: 4 gas per zero byte, 16 per other byte."""
    return len(data) * 16 - data.count(0) * 12


def pick(name: str) -> tuple[str, bytes, bytes]:
    """The gas_steps.py class whose name contains ``name`` (exactly one): (its full
    name, the lying bundle, the won proof)."""
    from gas_steps import cases

    found = [c for c in cases() if name.lower() in c[0].lower()]
    if len(found) != 1:
        names = ", ".join(repr(c[0]) for c in found or cases())
        raise SystemExit(f"gas_profile: {name!r} names {len(found)} classes (of: {names})")
    bundle, proof = found[0][4]()
    return found[0][0], bundle, proof


def profile(bundle: bytes | None, proof: bytes, only: frozenset[str] | None = None,
            callers: tuple[str, ...] = (), memory: bool = False) -> dict[str, Any]:
    """Trace and attribute one call (settle when ``bundle`` is given, else
    checkProof); the report as a JSON-ready dict.  ``only``: compile just these
    contracts (the call must enter no other: a test's shortcut)."""
    from anvil_node import ANVIL, anvil
    from gasprof import attribute, srcmap, trace

    reason = srcmap.missing()
    if reason is not None:
        raise SystemExit(f"gas_profile: {reason}; enable with `cd contracts && npm ci`")
    if not ANVIL.exists():
        raise SystemExit("gas_profile: anvil is not installed; enable with "
                         "`cd tests/chain/anvil && npm ci`")
    lines, functions = srcmap.Names(), srcmap.Names()
    codes = srcmap.codes(lines, functions, only)
    with anvil(trace.STEPS) as node:
        node.polls = 40_000
        traced = trace.settle(node, bundle, proof, memory) if bundle is not None else \
            trace.check_proof(node, proof, memory)
    attributor = attribute.Attributor(attribute.match(codes, traced.codes), functions, lines)
    p = attributor.run(traced)
    calldata = calldata_cost(traced.calldata)
    refund = min(p.refund, (TX_BASE_GAS + calldata + p.total) // 5)
    if TX_BASE_GAS + calldata + p.total - refund != p.gas_used:
        raise SystemExit(f"gas_profile: the profile does not reconcile: 21000 + {calldata} + "
                         f"{p.total} - {refund} != gasUsed {p.gas_used}")

    def ranked(table: dict[str, int]) -> list[list[Any]]:
        return [[k, v] for k, v in sorted(table.items(), key=lambda kv: (-kv[1], kv[0])) if v]

    return {"call": "settleByProof" if bundle is not None else "checkProof",
            "gas_used": p.gas_used, "intrinsic": TX_BASE_GAS, "calldata": calldata,
            "trace": p.total, "refund": refund, "execution": p.total - refund,
            "opcodes_executed": p.ops, "memory_expansion": p.memory,
            "memory_expansion_exact": memory,
            "memory_by_contract": ranked(p.memory_by), "contracts": ranked(p.contracts),
            "functions_exclusive": ranked(p.exclusive),
            "functions_inclusive": ranked(p.inclusive), "lines": ranked(p.lines),
            "opcodes": ranked(p.opcodes), "groups": ranked(p.groups),
            "calls": [[k, *v] for k, v in sorted(p.calls.items())],
            "callers": {name: ranked(attributor.callers(name)) for name in callers}}


def _print(title: str, report: dict[str, Any], top: int) -> None:
    total = report["trace"]

    def table(heading: str, rows: list[list[Any]], limit: int = top) -> None:
        print(f"\n{heading}")
        for name, gas in rows[:limit]:
            print(f"  {gas:>10} {100 * gas / total:6.2f}%  {name}")

    print(f"{title}: {report['call']}, execution gas {report['execution']} "
          f"(trace {total} - refund {report['refund']}; gasUsed {report['gas_used']} = "
          f"21000 + calldata {report['calldata']} + trace - refund); "
          f"{report['opcodes_executed']} opcodes; memory expansion {report['memory_expansion']}"
          f"{'' if report['memory_expansion_exact'] else ' (lower bound; --memory: exact)'}")
    table("per contract (exclusive)", report["contracts"])
    table("per group (gasprof/groups.py; the groups sum to the trace)", report["groups"], 99)
    print("\ncalls: caller -> callee, count, the calling opcodes' own gas, the callee's gas")
    for key, count, own, callee in report["calls"]:
        print(f"  {key}: {count}, {own}, {callee}")
    table(f"top {top} functions, inclusive", report["functions_inclusive"])
    table(f"top {top} functions, exclusive", report["functions_exclusive"])
    table(f"top {top} lines", report["lines"])
    table(f"top {top} opcodes", report["opcodes"])
    for name, rows in report["callers"].items():
        table(f"{name}, inclusive, by its callers", rows)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("name", nargs="?", help="a gas_steps.py class (unique substring)")
    parser.add_argument("--proof", type=Path, help="a proof file (CBOR) instead of a class")
    parser.add_argument("--bundle", type=Path, help="the lying bundle of --proof (settle)")
    parser.add_argument("--check-proof", action="store_true",
                        help="profile PorProofCheck.checkProof alone, not the settle")
    parser.add_argument("--top", type=int, default=25, help="rows per table (default 25)")
    parser.add_argument("--callers", action="append", default=[], metavar="FUNCTION",
                        help="split FUNCTION's inclusive gas by its callers (repeatable)")
    parser.add_argument("--memory", action="store_true",
                        help="exact memory expansion (a JS tracer pass; slower)")
    parser.add_argument("--list", action="store_true", help="list the classes and exit")
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    args = parser.parse_args()
    if args.list:
        from gas_steps import cases

        print("\n".join(c[0] for c in cases()))
        return 0
    if (args.name is None) == (args.proof is None):
        parser.error("give a class name or --proof FILE")
    if args.proof is not None:
        title, proof = str(args.proof), args.proof.read_bytes()
        bundle = args.bundle.read_bytes() if args.bundle is not None else None
    else:
        title, bundle, proof = pick(args.name)
    report = profile(None if args.check_proof else bundle, proof, None, tuple(args.callers),
                     args.memory)
    if args.json:
        report = {"schema": "por/bench-gas-profile/1", "class": title,
                  "proof_bytes": len(proof), **report}
        for key in ("functions_exclusive", "functions_inclusive", "lines"):
            report[key] = report[key][:args.top]
        print(json.dumps(report, indent=2))
        return 0
    _print(title, report, args.top)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
