"""Execution gas of ``PorAggregateExec.execute`` (SPEC §14.8, issue 24 item 2).

Prints, for a typical aggregate (fixture market 08: 3 sources, 2 fields, quorum) and
for the largest one the caps allow (one requirement of 10 source targets and 8
numeric fields, 10 sources voting for every field, ``multi_source_quorum`` with
``sources_required`` on the metric so every field and the votes are written), the
gas of the aggregate's OneStepProof, the proof's size, and the ratio to
``PorProofCheck.checkProof`` on the honest map step of the same bundle measured in
the same run (the common part of a one-step proof plus the map's re-execution).
The aggregate's gas is split into the common part (SPEC §10.5 steps 1-6,
``bench/common_part.py``) and the kind's own part (the rest: the PromptSpec read, the
cited steps read, the selection, the comparison, the calls to the reader and selector).
Also the sizes of the three contracts (the executor's initcode and deployed code, the
reader's and selector's deployed code, read from the executor its constructor made). Run:
``PYTHONPATH=$PWD:tests:tests/chain python bench/gas_aggregate.py``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tests" / "chain"), str(ROOT / "bench")]

from bundle_edits import honest, steps_of  # noqa: E402
from common_part import CommonPart  # noqa: E402
from exec_support import ExecChecker, artifact  # noqa: E402
from largest_shapes import f  # noqa: E402 (the auditor test factories, loaded once)
from proof_check_support import ProofChecker, message_call, python_answer  # noqa: E402

from por.bundle import build  # noqa: E402
from por.bundle.layout import Bundle  # noqa: E402
from por.challenge import bundle_from_bytes  # noqa: E402
from por.challenge.one_step import build_one_step_proof  # noqa: E402
from por.signing.eip712 import keccak256  # noqa: E402


def largest() -> Bundle:
    """10 sources x 8 numeric fields, every source voting for every field."""
    sources = [f"src_{k}" for k in range(10)]
    keys = [f"price_{k}" for k in range(8)]
    fields = [f.json_field(k, "numeric", f"$.{k}") for k in keys]
    requirement = f.requirement("r1", sources=sources, strategy="multi_source_quorum",
                                min_sources=3, quorum=3, tie_breaker="highest_provenance",
                                fields=fields)
    spec = f.prompt_spec(requirements=[requirement], metric=keys[0], tolerance="0.5")
    spec = spec.model_copy(update={"prediction_semantics": spec.prediction_semantics
                                   .model_copy(update={"sources_required": 3})})
    items = [f.item(f"e{n}", {k: f"{100 + n}.{j}" for j, k in enumerate(keys)},
                    source_id=s, tier=n % 4) for n, s in enumerate(sources)]
    return bundle_from_bytes(build(spec, f.bundle(items)).data)


def measure(name: str, bundle: Bundle, chain: ExecChecker, proofs: ProofChecker,
            common: CommonPart) -> None:
    proof = build_one_step_proof(bundle, steps_of(bundle, "aggregate")[0]).to_cbor()
    won, check_id, gas = chain.execute(proof)
    assert (won, check_id) == python_answer(proof) == (False, "one_step.match"), check_id
    shared = common.gas(proof)
    mapped = build_one_step_proof(bundle, steps_of(bundle, "map")[0]).to_cbor()
    _won, _id, base = proofs.any_proof(mapped)
    print(f"{name}: aggregate execute {gas} gas ({len(proof)} bytes); map checkProof "
          f"{base} gas ({len(mapped)} bytes); ratio {gas / base:.2f}\n"
          f"  split: common part {shared}, aggregate's own part {gas - shared}")


def main() -> None:
    chain, proofs, common = ExecChecker("PorAggregateExec"), ProofChecker(), CommonPart()
    typical = honest("08-quorum-agree")
    measure("typical (08-quorum-agree, 3 sources)", typical, chain, proofs, common)
    measure("largest (10 sources, 8 fields)", largest(), chain, proofs, common)
    exec_art = artifact("PorAggregateExec")
    print("PorAggregateExec deployed", len(exec_art["deployedBytecode"]) // 2 - 1,
          "bytes; initcode", len(exec_art["bytecode"]) // 2 - 1, "bytes (limits 24 576 / 49 152)")
    reader = _created(chain, chain.address, "READER()")
    selector = _created(chain, reader, "SELECTOR()")
    print(json.dumps({"deployed": {"PorAggregateReader": chain.code_size(reader),
                                   "PorAggregateSelector": chain.code_size(selector)}}))


def _created(chain: ExecChecker, address: str, getter: str) -> str:
    """The address a constructor-created core's getter (``READER()``, ``SELECTOR()``) names."""
    out = message_call(chain.evm, address, keccak256(getter.encode())[:4])[0]
    return "0x" + out[-20:].hex()


if __name__ == "__main__":
    main()
