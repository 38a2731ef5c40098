"""Benchmark: a forged ``map`` step struck on chain forms (s45 ``mapform``; SPEC §10.4.4,
§14.4): ``settleByForms(market, keccak256("form:map"), args)``, the whole transaction on
anvil (its receipt's ``gasUsed``: 21 000, the call data, the execution), and the same
args' ``checkForms`` in revm.

Beside it, the same lie's CBOR OneStepProof (``PorMapExec``) sent to ``settleByProof``,
the only route for it before s45: the whole transaction on anvil.

Rows: scenario 08's map step with its description forged (the fixture market, and
``bench/proofs.market(23)``, the anvil tests' market), the records, forms and the
verdict's references rehashed; and the largest map FormStepProof a valid record allows:
the map step and its deduce step each citing ``LONGEST`` ids (a valid step holds at most
1 024 CBOR items, SPEC §17.1: 491 ids as both ``evidence_ids`` and ``source_summary``
is the most both records hold), the map's description forged, so the executor reads
every word and rebuilds the whole form. Ids are ``H`` words (32 bytes whatever their
width), so no text the executor reads grows with the UTF-8 width.

Usage: ``PYTHONPATH=. python bench/forms_map_gas.py`` (anvil: ``cd tests/chain/anvil &&
npm ci``). Deterministic: same code and inputs, same numbers.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from por.bundle.layout import Bundle

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests" / "chain"), str(ROOT / "tests"), str(ROOT / "bench")]

#: The most ids a valid map step holds as evidence_ids and source_summary together.
LONGEST = 491
FORGED = "map to evaluation variablez"


def longest(bundle: Bundle) -> Bundle:
    """``bundle`` with its deduce and map steps citing ``LONGEST`` ids (128 characters
    each), the map's description forged; commitments and verdict references rehashed."""
    from bundle_edits import steps_of
    from proofs import recommitted

    from por.encoding import decode, encode

    ids = [f"{k:0128d}" for k in range(LONGEST)]
    steps = list(bundle.steps)
    leaf = steps_of(bundle, "map")[0]
    at = steps_of(bundle, "deduce")[0]
    d = decode(steps[at])
    d["output"]["source_summary"] = ids
    d["evidence_ids"] = ids
    m = decode(steps[leaf])
    m["output"]["evaluation_variables"]["source_summary"] = ids
    m["evidence_ids"] = ids
    m["description"] = FORGED
    steps[at], steps[leaf] = encode(d), encode(m)
    lie: Bundle = recommitted(bundle, steps=steps)
    return lie


def rows() -> list[tuple[str, Bundle]]:
    from bundle_edits import honest
    from forms_map_cases import described
    from proofs import market

    base = honest("08-quorum-agree")
    return [("08 map, description forged", described(base, FORGED)),
            ("08 x 23 items, description forged", described(market(23), FORGED)),
            (f"largest: {LONGEST} summary ids", longest(base))]


def main() -> int:
    from anvil_node import ANVIL, anvil, settle_fresh
    from forms_map_cases import call_data, map_leaf
    from proof_check_support import ProofChecker
    from registry_gas import forms_answer

    from por.challenge.one_step import build_one_step_proof
    from por.signing.eip712 import keccak256

    kind = keccak256(b"form:map")
    checker = ProofChecker()
    measured = []
    for name, lie in rows():
        args = call_data(lie, map_leaf(lie))[4:]
        won, check_id, gas = forms_answer(checker, kind, args)
        assert won and check_id == keccak256(b"one_step.mismatch"), name
        measured.append((name, lie, args, gas))
    print(f"{'case':36} {'args B':>7} {'checkForms':>10} {'settle tx':>10} {'exec':>9}"
          f" {'CBOR B':>7} {'CBOR tx':>9}")
    if not ANVIL.exists():
        print("anvil absent: cd tests/chain/anvil && npm ci")
        return 1
    with anvil() as node:
        for name, lie, args, gas in measured:
            receipt = settle_fresh(node, lie.to_cbor(), args, kind)
            assert int(receipt["status"], 16) == 1, name
            used = int(receipt["gasUsed"], 16)
            cbor = build_one_step_proof(lie, map_leaf(lie)).to_cbor()
            before = settle_fresh(node, lie.to_cbor(), cbor)  # the CBOR route (settleByProof)
            old = int(before["gasUsed"], 16) if int(before["status"], 16) == 1 else "revert"
            print(f"{name:36} {len(args):>7} {gas:>10} {used:>10} {receipt['execution_gas']:>9}"
                  f" {len(cbor):>7} {old:>9}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
