"""Spike: the aggregate re-executed on chain forms (ADR 0017 stage 1, s38), in revm.

Prints, for the typical aggregate of 3 items (``bench/gas_steps.py``'s class: scenario
08's market, its forged aggregate) and the aggregate at the caps (10 sources x 8 fields,
``gas_steps._forged_at_caps``):

* the scratch executor's execution gas (``bench/forms_spike/PorAggregateForms.sol``:
  the forms' inclusions in the ``forms`` tree and its component path to a ``por_root``
  of seven components, the recomputation, the comparison) on the honest step and on
  the lie, with both answers and Python's;
* today's settle, checkProof and executor figures for the same lie (``gas_steps``'s
  measure, the committed build): the registry's part (settle - checkProof) and the
  checker's (checkProof - exec), which a forms proof would still pay in part;
* the §2 reader (``PorProofCheck.checkCbor``, less its cost on ``{}``) over a CBOR
  document carrying the same forms and paths as byte strings: what a forms proof in
  today's CBOR envelope would pay to be read;
* bytes: the executor's call data and the forms alone, against today's proof;
* the differential: every fixture market's honest aggregate (match on both sides) and
  ``aggregate_lies.forge``'s lies (``--forged N`` a market);
* a FormProof's main part: ``checkCbor`` on the largest extract step record and on the
  PromptSpec of ``bench/largest_gas.py``'s markets at the caps (``--no-caps`` skips;
  ``--fill-bytes 1|2|3|4`` their long texts' UTF-8 width, 4 by default).

Usage: ``PYTHONPATH=. python bench/forms_spike.py [--forged N] [--no-caps]
[--fill-bytes W]``.
Gas is deterministic.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests" / "chain"), str(ROOT / "tests"), str(ROOT / "bench"),
                str(ROOT / "bench" / "forms_spike")]

import spike  # noqa: E402

from por.encoding import decode, encode  # noqa: E402


def today(lie: Any, index: int) -> dict[str, int]:
    """gas_steps' three figures for the OneStepProof of ``lie``'s step ``index``."""
    from chain_support import settled
    from exec_support import ExecChecker
    from gas_steps import _step_proof
    from proof_check_support import ProofChecker

    proof = _step_proof(lie, index)
    settle = settled(lie.to_cbor(), proof).execution_gas
    _won, _id, check = ProofChecker().any_proof(proof)
    _won, _id, alone = ExecChecker("PorAggregateExec").execute(proof)
    return {"bytes": len(proof), "settle": settle, "checkProof": check, "exec": alone,
            "registry": settle - check, "checker": check - alone}


class Reader:
    """``checkCbor`` in revm, less its cost on ``{}``."""

    def __init__(self) -> None:
        from proof_check_support import ProofChecker

        self.checker = ProofChecker()
        self.base = self._gas(b"\xa0")

    def _gas(self, doc: bytes) -> int:
        _out, gas = self.checker._call("checkCbor(bytes)", doc)
        return int(gas)

    def __call__(self, doc: bytes) -> int:
        assert self.checker.cbor(doc) is None, "checkCbor refused the document"
        return self._gas(doc) - self.base


def envelope(data: bytes) -> bytes:
    """The executor's arguments as one CBOR map of byte strings (a forms proof in
    today's envelope, for the §2 reader's price)."""
    from eth_abi.abi import decode as abi_decode

    types = ["bytes32", "uint256", "bytes32[]", "bytes[]", "uint256[]", "bytes32[][]"]
    root, size, top, forms, leaves, paths = abi_decode(types, data[4:])
    return encode({"schema": "por.FormsOneStepProof/0", "por_root": root, "forms_size": size,
                   "component_path": list(top), "forms": list(forms), "leaves": list(leaves),
                   "paths": [list(p) for p in paths]})


def aggregate_row(name: str, chain: Any, reader: Reader, case: tuple[Any, Any, int]
                  ) -> None:
    honest, lie, index = case
    print(f"\n{name}")
    for label, bundle in (("honest", honest), ("lie", lie)):
        _won, py = spike.python_answer(bundle, index)
        data = spike.call_data(bundle, index)
        answer, gas = spike.chain_answer(chain, data)
        print(f"  {label:7} python {py:18} forms executor {answer:18} exec gas {gas:>9}")
    data = spike.call_data(lie, index)
    forms_bytes = sum(len(f) for f in _forms(data))
    doc = envelope(data)
    t = today(lie, index)
    print(f"  today (committed build, revm): proof {t['bytes']} B, settle {t['settle']}, "
          f"checkProof {t['checkProof']}, exec {t['exec']}; registry part {t['registry']}, "
          f"checker part {t['checker']}")
    print(f"  forms proof: call data {len(data)} B (forms {forms_bytes} B), CBOR envelope "
          f"{len(doc)} B; §2 reader over the envelope (checkCbor) {reader(doc)}")
    _answer, gas = spike.chain_answer(chain, data)
    print(f"  settle, forms: exec {gas} + registry {t['registry']} + §2 reader "
          f"{reader(doc)} = {gas + t['registry'] + reader(doc)} (routing and the "
          "executor's external call not counted)")


def _forms(data: bytes) -> list[bytes]:
    from eth_abi.abi import decode as abi_decode

    types = ["bytes32", "uint256", "bytes32[]", "bytes[]", "uint256[]", "bytes32[][]"]
    return list(abi_decode(types, data[4:])[3])


def differential(chain: Any, forged: int) -> None:
    from por.scenarios import list_scenarios

    counts: Counter[tuple[str, str, str]] = Counter()
    for _name, bundle, index in spike.fixture_aggregates():
        py, answer, _gas = spike.compare(chain, bundle, index)
        counts["honest", py, answer] += 1
    for _name, bundle, index in spike.forged(tuple(list_scenarios()), forged, 11):
        py, answer, _gas = spike.compare(chain, bundle, index)
        counts["forged", py, answer or "-"] += 1
    print("\ndifferential (python answer -> forms executor answer; skip: python's id is "
          "invalid_record; form:: a record has no form: both a FormProof's case; python "
          "unexecutable -> match/mismatch: step.bad_prior_output, a cited record malformed "
          "where its form does not read it, left to that record's own proof)")
    for (case, py, answer), n in sorted(counts.items()):
        print(f"  {case:7} {py:32} {answer:18} {n:>5}")
    bad = sum(n for (_c, py, answer), n in counts.items()
              if (py in (spike.MATCH, spike.MISMATCH) or answer == spike.UNEXECUTABLE)
              and py != answer)
    print(f"  disagreements: {bad}")


def caps(reader: Reader) -> None:
    from largest_shapes import CAPS, SHAPES, market

    print("\nFormProof main part at the caps: checkCbor (the §2 pass) on one record "
          f"(filler {CAPS['fill']!a})")
    for name, shape in SHAPES.items():
        bundle = market(shape)
        extracts = [s for s in bundle.steps
                    if decode(s).get("inputs", {}).get("kind") == "extract_claims"]
        largest = max(extracts, key=len)
        print(f"  {name:14} largest extract step {len(largest):>6} B: {reader(largest):>9}; "
              f"PromptSpec {len(bundle.prompt_spec):>5} B: {reader(bundle.prompt_spec):>9}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--forged", type=int, default=25, help="lies a fixture market")
    parser.add_argument("--no-caps", action="store_true", help="skip the caps markets")
    parser.add_argument("--fill-bytes", type=int, choices=(1, 2, 3, 4), default=4,
                        help="UTF-8 width of the caps markets' filler (bench/largest_gas.py's)")
    args = parser.parse_args()
    from largest_gas import FILLS
    from largest_shapes import CAPS

    CAPS["fill"] = FILLS[args.fill_bytes]
    from bundle_edits import steps_of
    from gas_aggregate import largest
    from proofs import output_with, with_step

    chain = spike.harness()
    reader = Reader()
    honest, lie, index = spike.typical()
    aggregate_row("aggregate, 3 items (gas_steps' lie: forged.aggregate)", chain, reader,
                  (honest, lie, index))
    big = largest()
    at = steps_of(big, "aggregate")[0]
    big_lie = with_step(big, at, lambda s: output_with(
        s, ("fields", 7, "fallback_used"), lambda v: not v))
    aggregate_row("aggregate at the caps (10 x 8; gas_steps' lie: last field's fallback_used)",
                  chain, reader, (big, big_lie, at))
    differential(chain, args.forged)
    if not args.no_caps:
        caps(reader)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
