"""Benchmark: size and check time of citation proofs (SPEC §10.2.7) by fan-in.

Scenario 08's market with N items of its one requirement (its three items
repeated under new ids, bundle order), built honestly; then its
``check_requirement`` step, which cites all N items, is re-committed three ways
(every commitment recomputed): cited items and their extract steps with the
first two swapped (shown by the step alone), the evidence only with the first
two swapped (shown by the step and two items' extract steps), and the first item
repeated.  Since ADR 0011 stage 3 the step is the requirement's first check chunk
(at most 10 items).
For each: the citation proof's size, the step leaf's size (the proof carries
it whole: bounding a step leaf is issue 22 item 2), the build and check times,
and the outcome.

Usage: ``PYTHONPATH=. python bench/citations.py [--items 10 1000 ...]``.
"""

from __future__ import annotations

import argparse
import time
from typing import Any


def honest_bundle(count: int) -> Any:
    """The honest bundle of scenario 08's market over ``count`` items."""
    from por.bundle import build
    from por.challenge import bundle_from_bytes
    from por.scenarios import load_scenario
    from por.schemas import EvidenceBundle

    scenario = load_scenario("08-quorum-agree")
    base = list(scenario.evidence.items)
    items = [base[k % len(base)].model_copy(update={"evidence_id": f"ev-{k:06d}"})
             for k in range(count)]
    evidence = EvidenceBundle(bundle_id=scenario.evidence.bundle_id,
                              market_id=scenario.evidence.market_id, items=items)
    return bundle_from_bytes(build(scenario.prompt_spec, evidence).data)


def edited(bundle: Any, index: int, **lists: Any) -> Any:
    """``bundle`` with step ``index``'s citation lists replaced, recommitted."""
    from por.bundle.layout import Bundle, compute_commitments, with_forms
    from por.schemas import ReasoningStep

    steps = list(bundle.steps)
    steps[index] = ReasoningStep.from_cbor(steps[index]).model_copy(update=lists).to_cbor()
    records = {"manifest": bundle.manifest, "prompt_spec": bundle.prompt_spec,
               "evidence": list(bundle.evidence), "trace_header": bundle.trace_header,
               "steps": steps, "verdict": bundle.verdict}
    records = with_forms(records)
    return Bundle(**records, commitments=compute_commitments(**records), signatures=[])


def run(count: int) -> None:
    from por.challenge import build_citation_proof, check_proof
    from por.schemas import ReasoningStep

    honest = honest_bundle(count)
    index = count  # the first check chunk follows the N extract steps
    step = ReasoningStep.from_cbor(honest.steps[index])
    e, p = list(step.evidence_ids), list(step.prior_step_ids)
    swap = [e[1], e[0], *e[2:]]
    cases = {
        "reordered": {"evidence_ids": swap, "prior_step_ids": [p[1], p[0], *p[2:]]},
        "evidence out of order": {"evidence_ids": swap},
        "repeated": {"evidence_ids": [e[0], *e], "prior_step_ids": [p[0], *p]},
    }
    for name, lists in cases.items():
        bundle = edited(honest, index, **lists)
        start = time.perf_counter()
        proof = build_citation_proof(bundle, index)
        built = time.perf_counter() - start
        data = proof.to_cbor()
        start = time.perf_counter()
        report = check_proof(data, por_root=bundle.commitments.por_root)
        checked = time.perf_counter() - start
        reason = None if report.outcome is None else report.outcome.reason
        print(f"N={count:>6} {name:<22} proof {len(data):>9} B (step leaf "
              f"{len(bundle.steps[index]):>9} B, {len(proof.extract_steps)} extract step(s)) build "
              f"{built * 1000:8.1f} ms check {checked * 1000:7.1f} ms "
              f"{'WON' if report.won else 'LOST'} {reason}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, nargs="+", default=[10, 1000])
    for count in parser.parse_args().items:
        run(count)


if __name__ == "__main__":
    main()
