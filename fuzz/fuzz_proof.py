"""Fuzz proof checking (SPEC §10.4-10.5) against an honest bundle's por_root:
no proof for a leaf the bundle does not commit, no challenge won against it.

Seeds are the valid proofs of the honest bundle; the fuzzer mutates them.
Run: python fuzz/fuzz_proof.py [CORPUS_DIR ...] [libFuzzer flags]
"""

from __future__ import annotations

import functools
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import fuzzlib

PROOF_ERRORS = ("proof.unsupported", "proof.auditor_unavailable")
_COMPONENT = {"prompt_spec": "prompt_spec", "verdict": "verdict", "evidence_leaf": "evidence",
              "reasoning_leaf": "steps"}


@functools.cache
def honest() -> Any:
    return fuzzlib.seed_bundle(0)


def check(data: bytes) -> None:
    from por.challenge import check_proof
    from por.challenge.records import InclusionProof, proof_from_cbor

    bundle = honest()
    report = check_proof(data, por_root=bundle.commitments.por_root)
    shown = (report.status, report.check_id, report.message)
    assert report.check_id != "internal.error", shown
    if report.status == "error":
        assert report.check_id in PROOF_ERRORS, shown
        return
    if report.status != "verified":
        return
    proof = proof_from_cbor(data)
    if isinstance(proof, InclusionProof):
        leaves = getattr(bundle, _COMPONENT[proof.kind])
        leaves = leaves if isinstance(leaves, list) else [leaves]
        assert proof.leaf_index < len(leaves), "proof for a leaf past the tree"
        assert proof.leaf == leaves[proof.leaf_index], "proof for a non-committed leaf"
    elif report.outcome is not None:
        assert report.outcome.outcome != "upheld", "a challenge won against an honest bundle"


def seeds() -> dict[str, bytes]:
    """The honest bundle's valid proofs (the committed seed corpus)."""
    from por.challenge import build_bundle_proof, build_inclusion_proof, build_one_step_proof

    bundle = honest()
    proofs = {"prompt_spec": build_inclusion_proof(bundle, "prompt_spec"),
              "verdict": build_inclusion_proof(bundle, "verdict"),
              "bundle": build_bundle_proof(bundle),
              "evidence-0": build_inclusion_proof(bundle, "evidence_leaf", 0),
              "step-0": build_inclusion_proof(bundle, "reasoning_leaf", 0)}
    for i in range(len(bundle.steps)):
        proofs[f"one-step-{i}"] = build_one_step_proof(bundle, i)
    return {name: p.to_cbor() for name, p in proofs.items()}


def main() -> None:
    import atheris

    with atheris.instrument_imports(include=["por"]):
        import por.auditor
        import por.challenge  # noqa: F401
    fuzzlib.run_atheris(check)


if __name__ == "__main__":
    main()
