"""Proofs are deterministic bytes: same bundle + same challenge -> identical proof,
in this process and in fresh processes with different ``PYTHONHASHSEED`` values
(DESIGN §5)."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]

SCRIPT = """
import hashlib
from challenge_support import make_bundle
from por.bundle import build
from por.challenge import (build_bundle_proof, build_inclusion_proof, build_one_step_proof,
                           bundle_from_bytes)
from por.scenarios import load_scenario

def digest():
    scenario = load_scenario("08-quorum-agree")
    bundles = [make_bundle(5),
               bundle_from_bytes(build(scenario.prompt_spec, scenario.evidence).data)]
    h = hashlib.sha256()
    for bundle in bundles:
        proofs = [build_bundle_proof(bundle), build_inclusion_proof(bundle, "prompt_spec"),
                  build_inclusion_proof(bundle, "verdict")]
        proofs += [build_inclusion_proof(bundle, "evidence_leaf", i)
                   for i in range(len(bundle.evidence))]
        proofs += [build_one_step_proof(bundle, i) for i in range(len(bundle.steps))]
        for proof in proofs:
            data = proof.to_cbor()
            h.update(len(data).to_bytes(8, "big") + data)
    return h.hexdigest()

if __name__ == "__main__":
    print(digest())
"""


def _in_subprocess(seed: str) -> str:
    env = {**os.environ, "PYTHONHASHSEED": seed,
           "PYTHONPATH": os.pathsep.join([str(ROOT), str(HERE)])}
    result = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True,
                            env=env, check=True, cwd=str(HERE))
    return result.stdout.strip()


def test_same_bytes_in_process_and_across_hash_seeds() -> None:
    namespace: dict[str, object] = {"__name__": "determinism"}
    exec(compile(SCRIPT, "determinism", "exec"), namespace)  # noqa: S102 - our own script
    digest = namespace["digest"]
    assert callable(digest)
    here = digest()
    assert here == digest()
    seeds = {seed: _in_subprocess(seed) for seed in ("0", "1", "2718281828")}
    assert set(seeds.values()) == {here}, seeds
    assert len(here) == len(hashlib.sha256().hexdigest())
