"""Benchmark: gas of a `contradictions` step's one-step proof decided on chain (SPEC
§12.5.5, §14.8), split into the common part and the kind's own part, in one EVM run.

Runs the committed artifacts (contracts/build/PorContradictionsExec.json, PorMapExec.json)
in revm (pyrevm, the test extra) with CANCUN rules and reports *execution gas* (a call's
gas minus the 21 000 intrinsic and its EIP-2028 calldata cost):

- ``execute``: `PorContradictionsExec.execute` on the honest step (lost
  ``one_step.match``);
- ``common``: `bench/common_part.py` (`PorMapExec`'s ``CourtPath`` revert on the same
  proof: SPEC §10.5 steps 1-6);
- ``kind``: the difference (the PromptSpec's §2 check and fields, the cited chunks'
  states, the merge, the description and output compared);
- ``ratio``: ``kind`` against the first row's ``kind`` of the same run.

Markets: the fixture markets named in ``MARKETS`` (one requirement each), then the same
markets with their first requirement copied to ``REQS`` requirements (new requirement and
evidence ids, the items copied to each), so the step cites that many chunks whose groups
merge; each bundle's contradictions step.

    PYTHONPATH=$PWD python bench/contradictions_gas.py
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests" / "chain"), str(ROOT / "tests"), str(ROOT / "bench")]

from bundle_edits import honest, steps_of  # noqa: E402
from common_part import CommonPart  # noqa: E402
from exec_support import ExecChecker  # noqa: E402

from por.bundle import build  # noqa: E402
from por.bundle.layout import Bundle  # noqa: E402
from por.challenge import bundle_from_bytes  # noqa: E402
from por.challenge.one_step import build_one_step_proof  # noqa: E402
from por.encoding import decode  # noqa: E402
from por.scenarios import load_scenario  # noqa: E402

MARKETS = (
    "01-boolean-observed",
    "62-field-comparison-home-win",
    "08-quorum-agree",
    "67-two-of-three-below",
    "54-sports-over-under-dotted-names",
)

#: Requirement counts of the copied markets (SPEC §4.2 allows 1..8).
REQS = (3, 8)


def copied(name: str, count: int) -> Bundle:
    """Scenario ``name`` with its first requirement (and its items) copied to ``count``
    requirements."""
    scenario = load_scenario(name)
    spec = scenario.prompt_spec
    first = spec.data_requirements[0]
    mine = [i for i in scenario.evidence.items if i.requirement_id == first.requirement_id]
    reqs, items = [], []
    for k in range(count):
        rid = f"{first.requirement_id}-{k}"
        reqs.append(first.model_copy(update={"requirement_id": rid}))
        items += [
            i.model_copy(update={"requirement_id": rid, "evidence_id": f"{i.evidence_id}-{k}"})
            for i in mine
        ]
    spec = spec.model_copy(update={"data_requirements": reqs})
    evidence = scenario.evidence.model_copy(update={"items": items})
    return bundle_from_bytes(build(spec, evidence).data)


def main() -> None:
    chain, common = ExecChecker("PorContradictionsExec"), CommonPart()
    print(
        f"{'market':42} {'reqs':>4} {'bytes':>6} {'execute':>9} {'common':>8} {'kind':>8}"
        f" {'ratio':>6}"
    )
    base = 0
    cases = [(name, honest(name)) for name in MARKETS]
    cases += [(f"{name} x{n}", copied(name, n)) for n in REQS for name in MARKETS[1:3]]
    for name, bundle in cases:
        index = steps_of(bundle, "contradictions")[0]
        proof = bytes(build_one_step_proof(bundle, index).to_cbor())
        won, check_id, gas = chain.execute(proof)
        assert (won, check_id) == (False, "one_step.match"), (name, check_id)
        part = common.gas(proof)
        base = base or gas - part
        reqs = len(decode(bundle.prompt_spec)["data_requirements"])
        print(
            f"{name:42} {reqs:4} {len(proof):6} {gas:9} {part:8} {gas - part:8}"
            f" {(gas - part) / base:6.2f}"
        )


if __name__ == "__main__":
    main()
