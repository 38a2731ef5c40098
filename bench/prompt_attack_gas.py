"""The PromptSpec family's gas on the inputs s44's ``attack`` chose
(``tests/chain/prompt_attack_cases.py``), in revm: ``PorFormFamilyPrompt.formAt(leaf, j)``
alone and, for a valid PromptSpec, the whole FormProof transaction (21 000 + call data +
the envelope's ``check``, scenario 08 with that PromptSpec, its honest form: lost
``form.match``), against ``bench/formproof_gas.py``'s caps markets (the bench's largest).

Rows: the most item-dense valid PromptSpecs found (short ids, value maps, 64 rules; §4's
caps), the longest valid texts of each UTF-8 width, and invalid leaves (not a PromptSpec
for Python: the chain answers ``F`` or the index rule, SPEC §10.2.8's stated case) dense
in items: an array of 8 000 zeros read at ``j = 8 000``, 900 nested arrays at ``j = 900``.

Usage: ``PYTHONPATH=. python bench/prompt_attack_gas.py``. Gas is deterministic.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests" / "chain"), str(ROOT / "tests"), str(ROOT / "bench")]

from bundle_edits import honest, recommit  # noqa: E402
from eth_abi.abi import encode as abi_encode  # noqa: E402
from formproof_families import check_call, prompt_gas  # noqa: E402
from forms_harness import selector  # noqa: E402
from prompt_attack_cases import DENSE_COMMON, DENSE_REQUIREMENT, dense, longest  # noqa: E402
from proof_check_support import calldata_gas  # noqa: E402

from por.challenge.form_proof import build_form_proof  # noqa: E402
from por.encoding import encode  # noqa: E402


def tx(leaf: bytes, j: int) -> tuple[int, str]:
    """(the FormProof transaction's gas, its answer) of form ``j`` of ``leaf`` in 08."""
    proof = build_form_proof(recommit(honest("08-quorum-agree"), prompt_spec=leaf), j)
    got, gas = check_call(proof.to_cbor())
    assert not isinstance(got, str), got
    data = selector("check(bytes)") + abi_encode(["bytes"], [proof.to_cbor()])
    return 21_000 + calldata_gas(data) + gas, got[1]


def main() -> int:
    print("| leaf | bytes | j | formAt gas | tx gas | answer |")
    print("| --- | ---: | ---: | ---: | ---: | --- |")
    valid = [(f"dense {DENSE_COMMON} (valid)", encode(dense(*DENSE_COMMON)), 0),
             (f"dense {DENSE_REQUIREMENT} (valid)", encode(dense(*DENSE_REQUIREMENT)), 8)]
    valid += [(f"longest texts, width {w} (valid)", encode(longest(w)), j)
              for w in (1, 4) for j in (0, 1)]
    for label, leaf, j in valid:
        gas, answer = tx(leaf, j)
        print(f"| {label} | {len(leaf):,} | {j} | {prompt_gas(leaf, j):,} | {gas:,} | {answer} |",
              flush=True)
    hostile = [("8 000 zeros (invalid)", encode({"data_requirements": [0] * 8000}), 8000),
               ("900 nested arrays (invalid)",
                encode({"data_requirements": [[[[[[[[0]]]]]]]] * 900}), 900)]
    for label, leaf, j in hostile:
        print(f"| {label} | {len(leaf):,} | {j} | {prompt_gas(leaf, j):,} | | |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
