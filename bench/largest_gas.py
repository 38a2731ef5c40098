"""Benchmark: the largest honest one-step proof of every kind the chain decides, at the
protocol's true caps, and its settle gas (issue 24 item 7; SPEC §14.6).

The markets (``bench/largest_shapes.py``): every id at 128 code points of 4 UTF-8 bytes
(512 bytes), text claim values at 256 bytes, decimals at 64 characters, the PromptSpec
at exactly 8 192 canonical bytes with its keys and ids as long as that leaves, lists
at their caps (10 sources x 8 fields of one requirement, 20 items so the second check
chunk is a full 10-item chunk citing the first; or 8 requirements x 2 fields x 10
items). Each is built by ``por.bundle.build`` and must pass ``por verify`` (a hard
error otherwise). For each kind and shape, a lie (one step forged, every commitment
recomputed; the field forged is compared late, so the whole record is rebuilt) and
the won proof por's builder writes for it (the proof an honest challenger needs
against that lie): its bytes, and in revm (pyrevm, CANCUN, the committed build) the
registry's ``settleByProof`` (proposed, the proof committed a block earlier),
``PorProofCheck.checkProof`` alone, the executor alone and, for the step kinds but
the map, its common part (SPEC §10.5 steps 1-6, ``bench/common_part.py``), as
execution gas (a call's gas less the 21 000 intrinsic and its EIP-2028 calldata cost),
and the ratio of the settle to the 3 000 000 target. The forged field changes a few
bytes at most, so the honest step's proof (lost ``one_step.match``) is the same size.

``--shapes`` / ``--kinds`` select rows; ``--item-bytes B`` also pads the omitted item
of the OmissionProof row to B bytes of content (that proof carries the item itself,
SPEC §10.2.4 rule 3; at most 4 MiB, SPEC §5.1). ``--id-points``, ``--path-points``,
``--text-bytes``, ``--spec-bytes``, ``--ascii`` and ``--fill-bytes`` build the same
markets under lower caps (or with every long text in ASCII or another script), to
ask what a cap would change; the ``many`` shapes need the 8 KiB PromptSpec (8
requirements x 3 sources do not fit 4 KiB).

``--anvil`` settles each row on anvil instead (``bench/registry_gas.py``'s way, every
slot cold, the transaction given anvil's whole 30 000 000 block gas limit), printing
the receipt's execution gas, or, when the settle does not fit in the block, the failed
transaction's gas used (status 0: the check ran out of gas and the registry reverted).

Usage: ``PYTHONPATH=. python bench/largest_gas.py [--json] [--kinds K ...] [--anvil]``.
Gas is deterministic: the same code and inputs give the same numbers on any machine.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests" / "chain"), str(ROOT / "tests"), str(ROOT / "bench")]

from bundle_edits import steps_of  # noqa: E402
from largest_shapes import CAPS, SHAPES, WIDE, market, verified  # noqa: E402
from proofs import cites, forged_verdict, output_with, recommitted, with_step  # noqa: E402

from por.bundle.layout import Bundle  # noqa: E402
from por.challenge import check_proof  # noqa: E402

#: Issue 24 item 7's target for the largest step, settle execution gas.
LARGEST = 3_000_000
STEP, PROOF = "execute(bytes)", "check(bytes)"


def _flip(value: Any) -> Any:
    return not value


def _step_lie(kind: str, position: int, path: tuple[Any, ...],
              edit: Callable[[Any], Any]) -> Callable[[Bundle], tuple[Bundle, bytes]]:
    """The ``position``-th step of ``kind`` with the output value at ``path`` edited;
    (the lying bundle, its OneStepProof)."""
    from por.challenge.one_step import build_one_step_proof

    def make(honest: Bundle) -> tuple[Bundle, bytes]:
        index = steps_of(honest, kind)[position]
        lie = with_step(honest, index, lambda s: output_with(s, path, edit))
        return lie, bytes(build_one_step_proof(lie, index).to_cbor())
    return make


def _verdict(honest: Bundle) -> tuple[Bundle, bytes]:
    from por.challenge.judge_proof import build_judge_proof

    lie = forged_verdict(honest)
    return lie, bytes(build_judge_proof(lie).to_cbor())


def _citation(honest: Bundle) -> tuple[Bundle, bytes]:
    """The first check chunk citing its first two items swapped (issue 22's lie)."""
    from por.challenge import build_citation_proof, citation_faults

    first = steps_of(honest, "check_requirement")[0]
    lie = cites(honest, first, [1, 0, *range(2, 10)])
    return lie, bytes(build_citation_proof(lie, citation_faults(lie)[0]).to_cbor())


#: Content bytes of the omitted item (``--item-bytes``); None: the market's own.
ITEM_BYTES: list[int | None] = [None]


def _omission(honest: Bundle) -> tuple[Bundle, bytes]:
    """The trace of every item but the last, committed with all of them (the last
    one never read; ``bench/proofs.py``'s ``omitted_evidence``)."""
    from por.bundle import build
    from por.challenge import bundle_from_bytes
    from por.challenge.omission import build_omission_proof, omissions
    from por.schemas import EvidenceBundle, EvidenceItem, PromptSpec

    spec = PromptSpec.from_cbor(honest.prompt_spec)
    items = [EvidenceItem.from_cbor(b) for b in honest.evidence]
    size = ITEM_BYTES[0]
    if size is not None:  # JSON white space after the body: the claims are unchanged
        last = items[-1]
        items[-1] = last.model_copy(update={"content": last.content + b" " * (
            size - len(last.content))})
    header = EvidenceBundle(bundle_id="b1", market_id=spec.market.market_id, items=items)
    partial = bundle_from_bytes(build(spec, header.model_copy(
        update={"items": items[:-1]})).data)
    lie = recommitted(partial, evidence=[i.to_cbor() for i in items])
    step, item = omissions(lie)[0]
    return lie, bytes(build_omission_proof(lie, step, item).to_cbor())


@dataclass(frozen=True)
class Kind:
    """A row: the class, its executor and entry, the shapes tried, the lie."""

    name: str
    executor: str | None
    entry: str
    shapes: tuple[str, ...]
    lie: Callable[[Bundle], tuple[Bundle, bytes]]


KINDS = (
    Kind("check chunk (full, citing chunk 0)", "PorCheckExec", STEP, ("one.numeric", "one.text"),
         _step_lie("check_requirement", 1, ("admitted_count",), lambda v: v + 1)),
    Kind("aggregate", "PorAggregateExec", STEP, ("one.numeric", "one.text", "many"),
         _step_lie("aggregate", 0, ("fields", -1, "fallback_used"), _flip)),
    Kind("contradictions", "PorContradictionsExec", STEP, ("many.conflict",),
         _step_lie("contradictions", 0, ("claim_count",), lambda v: v + 1)),
    Kind("deduce", "PorDeduceExec", STEP, ("many", "one.text"),
         _step_lie("deduce", 0, ("conflict_detected",), _flip)),
    Kind("map", "PorMapExec", STEP, ("one.text", "many"),
         _step_lie("map", 0, ("evaluation_variables", "fallback_used"), _flip)),
    Kind("JudgeProof (forged verdict)", "PorJudgeExec", PROOF, ("one.text", "many"), _verdict),
    Kind("OmissionProof (last item unread)", "PorOmissionExec", PROOF, ("one.text",),
         _omission),
    Kind("CitationProof (reordered)", None, STEP, ("one.numeric", "one.text"), _citation),
)


class Meter:
    """One revm run: the registry, ``PorProofCheck`` and each executor deployed once
    (a fresh registry per settle, as ``bench/gas_steps.py``)."""

    def __init__(self) -> None:
        from proof_check_support import ProofChecker

        self.checker = ProofChecker()
        self.executors: dict[str, Any] = {}

    def settle(self, lie: bytes, proof: bytes) -> int:
        from chain_support import settled

        return int(settled(lie, proof).execution_gas)

    def check(self, proof: bytes) -> tuple[bool, str, int]:
        return self.checker.any_proof(proof)  # type: ignore[no-any-return]

    def common(self, kind: Kind, proof: bytes) -> int | None:
        """SPEC §10.5 steps 1-6 on a step proof of another kind than map
        (``bench/common_part.py``); None for the map and the proof classes."""
        from common_part import CommonPart

        if kind.entry != STEP or kind.executor in (None, "PorMapExec"):
            return None
        if "common" not in self.executors:
            self.executors["common"] = CommonPart()
        return self.executors["common"].gas(proof)  # type: ignore[no-any-return]

    def execute(self, kind: Kind, proof: bytes) -> tuple[bool, str, int] | None:
        from exec_support import ExecChecker

        if kind.executor is None:
            return None
        if kind.executor not in self.executors:
            self.executors[kind.executor] = ExecChecker(kind.executor, entry=kind.entry)
        return self.executors[kind.executor].execute(proof)  # type: ignore[no-any-return]


def proofs(kinds: tuple[Kind, ...], shapes: set[str] | None = None
           ) -> list[tuple[Kind, str, Bundle, bytes]]:
    """(kind, shape, lying bundle, won proof) for every row; each honest market
    verified by ``por verify`` first, each proof won by ``check_proof``."""
    honest: dict[str, Bundle] = {}
    rows = []
    for kind in kinds:
        for shape in kind.shapes:
            if shapes is not None and shape not in shapes:
                continue
            if shape not in honest:
                honest[shape] = verified(market(SHAPES[shape]))
            lie, proof = kind.lie(honest[shape])
            report = check_proof(proof, por_root=lie.commitments.por_root)
            if not report.won:
                raise RuntimeError(f"{kind.name} on {shape}: the proof is not won "
                                   f"({report.check_id})")
            rows.append((kind, shape, lie, proof))
    return rows


def measure(kinds: tuple[Kind, ...], shapes: set[str] | None = None) -> list[dict[str, Any]]:
    meter = Meter()
    out = []
    for kind, shape, lie, proof in proofs(kinds, shapes):
        won, check_id, check = meter.check(proof)
        if not won:
            raise RuntimeError(f"{kind.name} on {shape}: the chain says {check_id}")
        alone = meter.execute(kind, proof)
        settle = meter.settle(lie.to_cbor(), proof)
        out.append({"class": kind.name, "shape": shape, "won": check_id,
                    "proof_bytes": len(proof), "settle": settle, "checkProof": check,
                    "executor": kind.executor, "exec": None if alone is None else alone[2],
                    "common": meter.common(kind, proof),
                    "registry_part": settle - check, "ratio": round(settle / LARGEST, 3)})
    return out


def on_anvil(kinds: tuple[Kind, ...], shapes: set[str] | None = None) -> list[dict[str, Any]]:
    """Each row settled on anvil (``bench/registry_gas.py``'s way: a fresh deployment, the
    lie proposed, the proof committed and settled a block later, every slot cold), sent
    with anvil's whole 30 000 000 block gas limit: the receipt's execution gas, or
    ``None`` and the failed receipt's gas used when the settle does not fit in the block
    (status 0: the check ran out of gas, the registry reverted)."""
    from anvil_node import RpcError, anvil, settle_fresh

    out = []
    with anvil() as node:
        for kind, shape, lie, proof in proofs(kinds, shapes):
            settle: int | None = None
            failed: int | str | None = None
            try:
                settle = settle_fresh(node, lie.to_cbor(), proof)["execution_gas"]
            except AssertionError as exc:  # status 0: out of gas in the 30 M block
                receipt = exc.args[0] if exc.args else None
                failed = int(receipt["gasUsed"], 16) if isinstance(receipt, dict) else -1
            except RpcError as exc:  # e.g. a request body the node's HTTP server refuses
                failed = f"refused by the node: {exc}"
            out.append({"class": kind.name, "shape": shape, "proof_bytes": len(proof),
                        "settle_anvil": settle, "failed_gas_used": failed})
    return out


#: A filler code point of each UTF-8 width (``--fill-bytes``).
FILLS = {1: "x", 2: "\u00e9", 3: "\u4e2d", 4: WIDE}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    parser.add_argument("--kinds", nargs="*", default=None,
                        help="first words of the classes to run (check, aggregate, ...)")
    parser.add_argument("--shapes", nargs="*", default=None, choices=sorted(SHAPES))
    parser.add_argument("--anvil", action="store_true",
                        help="settle on anvil instead of revm (cd tests/chain/anvil && npm ci)")
    parser.add_argument("--item-bytes", type=int, default=None,
                        help="pad the OmissionProof's omitted item to B content bytes")
    parser.add_argument("--id-points", type=int, default=CAPS["id"],
                        help="build at this id cap (code points, >= 8) instead of 128")
    parser.add_argument("--path-points", type=int, default=CAPS["path"],
                        help="json paths of at most this many code points (>= 8) instead of 256")
    parser.add_argument("--text-bytes", type=int, default=CAPS["text"],
                        help="text claim values of B bytes instead of 256")
    parser.add_argument("--spec-bytes", type=int, default=CAPS["spec"],
                        help="pad the PromptSpec to S canonical bytes instead of 8 192")
    parser.add_argument("--ascii", action="store_true",
                        help="fill the long texts with an ASCII letter (1 byte a code point)")
    parser.add_argument("--fill-bytes", type=int, choices=(1, 2, 3, 4), default=4,
                        help="UTF-8 width of the filler code point (1 'x', 2 U+00E9, "
                             "3 U+4E2D, 4 U+1F600, the default): the script the reader "
                             "checks slowest sets the largest proof")
    args = parser.parse_args()
    ITEM_BYTES[0] = args.item_bytes
    CAPS.update(id=args.id_points, path=args.path_points, text=args.text_bytes,
                spec=args.spec_bytes,
                fill="x" if args.ascii else FILLS[args.fill_bytes])
    kinds = tuple(k for k in KINDS if args.kinds is None
                  or any(k.name.lower().startswith(w.lower()) for w in args.kinds))
    chosen = None if args.shapes is None else set(args.shapes)
    if args.anvil:
        for r in on_anvil(kinds, chosen):
            gas = r["settle_anvil"]
            failed = r["failed_gas_used"]
            fails = failed if isinstance(failed, str) else (
                f"fails (status 0, gas used {failed} of 30 000 000)")
            print(f"{r['class']:36} {r['shape']:13} {r['proof_bytes']:>7} "
                  f"{fails if gas is None else gas}")
        return 0
    rows = measure(kinds, chosen)
    if args.json:
        caps = {"id_points": CAPS["id"], "path_points": CAPS["path"], "text_bytes": CAPS["text"],
                "spec_bytes": CAPS["spec"],
                "fill_bytes": len(CAPS["fill"].encode("utf-8"))}
        print(json.dumps({"schema": "por/bench-largest-gas/1", "target": LARGEST,
                          "caps": caps, "rows": rows}, indent=2))
        return 0
    print("the largest honest proof of each kind at the caps: settleByProof in revm "
          "(execution gas; the committed build)")
    print(f"{'class':36} {'shape':13} {'bytes':>7} {'settle':>10} {'checkProof':>10} "
          f"{'exec':>10} {'common':>10} {'registry':>8} {'ratio':>6}  won")
    for r in rows:
        exec_gas = "-" if r["exec"] is None else r["exec"]
        common = "-" if r["common"] is None else r["common"]
        print(f"{r['class']:36} {r['shape']:13} {r['proof_bytes']:>7} {r['settle']:>10} "
              f"{r['checkProof']:>10} {exec_gas:>10} {common:>10} "
              f"{r['registry_part']:>8} {r['settle'] / LARGEST:6.2f}  {r['won']}")
    print(f"target: the largest step <= {LARGEST} (ratio = settle / target)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
