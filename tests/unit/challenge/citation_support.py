"""Bundles whose citations are not canonical (SPEC §12.5.1), for the citation-proof tests.

``reordered_08()`` is issue 22's lie: scenario 08 with the threshold at 251.41,
its ``check_requirement`` step citing ``[beta, alpha, gamma]`` instead of bundle
order, every later step computed honestly from there and the verdict judged
from that trace (YES where the honest verdict is NO); every commitment is
recomputed, so only replay, or a citation proof, tells.
"""

from __future__ import annotations

import itertools
from typing import Any
from unittest import mock

from bundle_edits import recommit

from por.auditor import chunk_state
from por.auditor.steps import (
    aggregate_step,
    check_requirement_step,
    contradictions_step,
    deduce_step,
    map_step,
)
from por.bundle import build
from por.bundle.layout import Bundle
from por.challenge import bundle_from_bytes
from por.judge import JudgeAgent
from por.scenarios import load_scenario
from por.schemas import (
    DeterministicVerdict,
    EvidenceBundle,
    PromptSpec,
    ReasoningStep,
    ReasoningTrace,
)

SCENARIO = "08-quorum-agree"
THRESHOLD = "251.41"


def spec_08() -> tuple[PromptSpec, EvidenceBundle]:
    """Scenario 08 with the threshold at 251.41 (alpha 251.40 is first: NO)."""
    scenario = load_scenario(SCENARIO)
    semantics = scenario.prompt_spec.prediction_semantics.model_copy(
        update={"threshold": THRESHOLD})
    spec = scenario.prompt_spec.model_copy(update={"prediction_semantics": semantics})
    return PromptSpec.from_dict(spec.to_dict()), scenario.evidence


def honest_08() -> Bundle:
    """The honest bundle of :func:`spec_08`."""
    spec, evidence = spec_08()
    return bundle_from_bytes(build(spec, evidence).data)


def _verdict(spec: PromptSpec, evidence: EvidenceBundle,
             steps: list[ReasoningStep]) -> DeterministicVerdict:
    """The judge's verdict on the forged trace (the header is the honest one)."""
    trace = build(spec, evidence).trace
    forged = ReasoningTrace(trace_id=trace.trace_id, market_id=trace.market_id,
                            policy=trace.policy, steps=steps)
    verdict, _ = JudgeAgent().judge(spec, evidence, forged)
    return verdict


def reordered_08(order: tuple[int, ...] = (1, 0, 2)) -> tuple[Bundle, str]:
    """Issue 22's reordering (see the module docstring): the check step cites the
    items at ``order`` (a repeat when an index appears twice); returns the bundle
    and the forged verdict's outcome."""
    spec, evidence = spec_08()
    honest = honest_08()
    steps = [ReasoningStep.from_cbor(s) for s in honest.steps]
    items = list(evidence.items)
    n = len(items)
    rid = spec.data_requirements[0].requirement_id
    extracts = steps[:n]
    cited = [items[k] for k in order]
    # A chunk re-executed on its own citations refuses items out of bundle order
    # (SPEC §12.5.3, stage 3); the forger writes the chunk as if they were in order.
    with mock.patch.object(chunk_state, "leaf_of", side_effect=itertools.count()):
        check = check_requirement_step(spec, f"step_{n + 1:04d}", rid, cited,
                                       [extracts[k] for k in order]).step
    firsts = [int(s["step_id"][5:]) - 1 for s in check.output["sources"]]
    aggregate = aggregate_step(spec, f"step_{n + 2:04d}", rid, check_step=check,
                               items=[items[k] for k in firsts],
                               extract_steps=[extracts[k] for k in firsts]).step
    conflicts = contradictions_step(spec, f"step_{n + 3:04d}", [check]).step
    deduce = deduce_step(spec, f"step_{n + 4:04d}", [aggregate], conflicts).step
    final = map_step(spec, f"step_{n + 5:04d}", deduce).step
    forged = extracts + [s.to_record() for s in (check, aggregate, conflicts, deduce, final)]
    assert len(forged) == len(steps)
    verdict = _verdict(spec, evidence, forged)
    bundle = recommit(honest, steps=[s.to_cbor() for s in forged], verdict=verdict.to_cbor())
    return bundle, verdict.outcome


def with_citations(bundle: Bundle, index: int, **lists: Any) -> Bundle:
    """``bundle`` with step ``index``'s ``evidence_ids``/``prior_step_ids`` replaced
    (nothing else recomputed), every commitment and the verdict's
    ``reasoning_root`` recomputed."""
    steps = list(bundle.steps)
    step = ReasoningStep.from_cbor(steps[index])
    steps[index] = step.model_copy(update=lists).to_cbor()
    edited = recommit(bundle, steps=steps)
    verdict = DeterministicVerdict.from_cbor(bundle.verdict).model_copy(update={
        "reasoning_root": edited.commitments.reasoning_root})
    return recommit(edited, verdict=verdict.to_cbor())

