"""Benchmark: gas of a `check_requirement` chunk's one-step proof decided on chain
(SPEC §12.5.3, §14.8), typical chunks (1 and 3 items) against the largest (10 items),
with the split between the common part and the kind's own part, in one EVM run.

Runs the committed artifacts (contracts/build/PorCheckExec.json, PorMapExec.json) in
revm (pyrevm, the test extra) with CANCUN rules and reports *execution gas* (a call's
gas minus the 21 000 intrinsic and its EIP-2028 calldata cost):

- ``execute``: `PorCheckExec.execute` on the honest chunk (lost ``one_step.match``);
- ``common``: `PorMapExec.execute` on the same proof: it runs the same common part
  (`PorOneStepCheck.checkUpTo`, SPEC §10.5 steps 1-6) and reverts ``CourtPath`` at the
  kind, so its gas is the common part's (the revert's few hundred gas included);
- ``kind``: the difference, the check kind's own part (the PromptSpec fields, the
  cited extract steps and chunk c-1 read, the record rebuilt and compared);
- ``ratio``: ``kind`` against the 1-item chunk's ``kind`` of the same run.

Chunks: the first check chunk of fixture markets with 1 and 3 items; markets with the
first requirement's items repeated (new evidence ids) to 23 items, whose second chunk
is a full 10-item chunk citing chunk 0; and the same made "wide": the PromptSpec's
allowed_sources and R's source_targets padded to the caps (24 and 10 entries, the
item's own source last, so each lookup walks the whole list) and 128-character
evidence ids.

    PYTHONPATH=$PWD python bench/check_gas.py
"""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path

from por.bundle import build
from por.bundle.layout import Bundle
from por.challenge import bundle_from_bytes
from por.challenge.one_step import build_one_step_proof
from por.encoding import decode
from por.scenarios import load_scenario
from por.schemas.prompt import SourceTarget

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "chain"))
from bundle_edits import honest, steps_of
from eth_abi import encode
from exec_support import ExecChecker
from proof_check_support import CALLER, TX_BASE_GAS, _selector, calldata_gas

KIND = "check_requirement"
TYPICAL = ("01-boolean-observed", "62-field-comparison-home-win", "08-quorum-agree")
FULL = (
    "62-field-comparison-home-win",
    "67-two-of-three-below",
    "54-sports-over-under-dotted-names",
)


def chunks(bundle: Bundle) -> list[int]:
    """Leaf indices of the bundle's check chunks."""
    return steps_of(bundle, KIND)


def items_of(bundle: Bundle, index: int) -> int:
    return len(decode(bundle.steps[index])["output"]["items"])


def repeated(name: str, count: int, wide: bool) -> Bundle:
    """Scenario ``name`` with its first requirement's items repeated to ``count``;
    ``wide``: lists and ids at the caps (see the module docstring)."""
    scenario = load_scenario(name)
    spec = scenario.prompt_spec
    first = spec.data_requirements[0]
    mine = [i for i in scenario.evidence.items if i.requirement_id == first.requirement_id]
    rest = [i for i in scenario.evidence.items if i.requirement_id != first.requirement_id]
    pad = "x" * 120 if wide else ""
    copies = [
        mine[k % len(mine)].model_copy(update={"evidence_id": f"ev-{k:03d}{pad}"})
        for k in range(count)
    ]
    if wide:
        targets = [
            SourceTarget(
                source_id=f"pad-source-{k:02d}",
                uri="https://pad.example/x",
                method="GET",
                expected_content_type="application/json",
            )
            for k in range(10 - len(first.source_targets))
        ]
        first = first.model_copy(update={"source_targets": targets + list(first.source_targets)})
        allowed = [f"pad-allowed-{k:02d}" for k in range(24 - len(spec.market.allowed_sources))]
        market = spec.market.model_copy(
            update={"allowed_sources": allowed + list(spec.market.allowed_sources)}
        )
        spec = spec.model_copy(
            update={"market": market, "data_requirements": [first, *spec.data_requirements[1:]]}
        )
    evidence = scenario.evidence.model_copy(update={"items": copies + rest})
    return bundle_from_bytes(build(spec, evidence).data)


def common_gas(probe: ExecChecker, proof: bytes) -> int:
    """Execution gas of the common part: `PorMapExec.execute` reverting at the kind."""
    data = _selector("execute(bytes)") + encode(["bytes"], [proof])
    with contextlib.suppress(RuntimeError):  # the CourtPath revert
        probe.evm.message_call(CALLER, probe.address, data)
    result = probe.evm.result
    assert result is not None
    return int(result.gas_used) - TX_BASE_GAS - calldata_gas(data)


def main() -> None:
    chain, probe = ExecChecker("PorCheckExec"), ExecChecker("PorMapExec")
    cases: list[tuple[str, Bundle, int]] = []
    for name in TYPICAL:
        bundle = honest(name)
        index = chunks(bundle)[0]
        cases.append((name, bundle, index))
    for name in FULL:
        for wide in (False, True):
            bundle = repeated(name, 23, wide)
            cases.append((f"{name}{' wide' if wide else ''}", bundle, chunks(bundle)[1]))
    print(
        f"{'chunk':42} {'items':>5} {'bytes':>6} {'execute':>9} {'common':>8} {'kind':>8}"
        f" {'ratio':>6}"
    )
    base = 0
    for label, bundle, index in cases:
        proof = build_one_step_proof(bundle, index).to_cbor()
        won, check_id, gas = chain.execute(proof)
        assert (won, check_id) == (False, "one_step.match"), (label, check_id)
        common = common_gas(probe, proof)
        base = base or gas - common
        print(
            f"{label:42} {items_of(bundle, index):5} {len(proof):6} {gas:9} {common:8}"
            f" {gas - common:8} {(gas - common) / base:6.2f}"
        )


if __name__ == "__main__":
    main()
