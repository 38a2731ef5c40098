"""Bundles edited after the fact, with every commitment recomputed (test helper).

Importable from every test folder (``tests/`` is on ``sys.path`` through its
conftest).  An attacker can hash records, so these are the bundles a verifier
and a challenger really face: consistent commitments, wrong content.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from por.auditor.steps import recompute_step
from por.bundle import build
from por.bundle.layout import Bundle, compute_commitments, with_forms
from por.challenge import bundle_from_bytes
from por.encoding import decode
from por.errors import PorError
from por.scenarios import load_scenario
from por.schemas import (
    DeterministicVerdict,
    EvidenceBundle,
    PromptSpec,
    ReasoningStep,
    ReasoningTrace,
)
from por.signing.policy import TrustPolicy
from verifier.options import VerifyOptions
from verifier.stages import Handoff


def honest(name: str) -> Bundle:
    """The bundle ``por build`` makes for scenario ``name``."""
    scenario = load_scenario(name)
    return bundle_from_bytes(build(scenario.prompt_spec, scenario.evidence).data)


def steps_of(bundle: Bundle, kind: str) -> list[int]:
    """Leaf indices of ``bundle``'s steps whose ``inputs.kind`` is ``kind``, in order."""
    return [i for i, s in enumerate(bundle.steps)
            if decode(s).get("inputs", {}).get("kind") == kind]


def recommit(bundle: Bundle, **records: Any) -> Bundle:
    """``bundle`` with some records replaced (bytes, or lists of bytes) and every
    commitment recomputed; the verdict is kept as given."""
    merged: dict[str, Any] = {
        "manifest": bundle.manifest, "prompt_spec": bundle.prompt_spec,
        "evidence": list(bundle.evidence), "trace_header": bundle.trace_header,
        "steps": list(bundle.steps), "verdict": bundle.verdict, **records}
    merged = with_forms(merged)
    return Bundle(**merged, commitments=compute_commitments(**merged), signatures=[])


def audited_on(name: str, keep: list[int]) -> Bundle:
    """Scenario ``name`` audited on the items ``keep`` only while every item is
    committed, the verdict's evidence references updated to match: an omission
    that only full replay (or an OmissionProof) exposes."""
    scenario = load_scenario(name)
    items = list(scenario.evidence.items)
    seen = EvidenceBundle(bundle_id=scenario.evidence.bundle_id,
                          market_id=scenario.evidence.market_id,
                          items=[items[i] for i in keep])
    partial = recommit(bundle_from_bytes(build(scenario.prompt_spec, seen).data),
                       evidence=[item.to_cbor() for item in items])
    verdict = DeterministicVerdict.from_cbor(partial.verdict).model_copy(update={
        "evidence_root": partial.commitments.evidence_root,
        "evidence_count": partial.commitments.evidence_count})
    return recommit(partial, verdict=verdict.to_cbor())


def step_edit(index: int, **changes: Any) -> Callable[[ReasoningTrace], ReasoningTrace]:
    """A trace edit: step ``index`` with ``changes`` applied (not validated, as a
    forger's trace would be)."""
    def mutate(trace: ReasoningTrace) -> ReasoningTrace:
        steps = list(trace.steps)
        steps[index] = steps[index].model_copy(update=changes)
        return trace.model_copy(update={"steps": steps})
    return mutate


#: Verifier options with nothing trusted and no signature asked for (the fast path's case).
UNSIGNED_OPTIONS = VerifyOptions(TrustPolicy(trusted=None, require_signature=False, now=None,
                                             chain_id=None, contract=None),
                                 max_size=256 * 1024 * 1024)


def paths_agree(data: bytes) -> str:
    """Both verification paths on ``data`` (SPEC §6.2, ADR 0007): the fast one verifies
    only where the full one does, with the same report, and what it hands over changes
    no report.  Returns the full path's status."""
    from verifier.fast import fast_report
    from verifier.full import check_full

    full = check_full(data, UNSIGNED_OPTIONS)
    handoff = Handoff()
    fast = fast_report(data, UNSIGNED_OPTIONS, handoff)
    if fast is not None:
        assert full.status == "verified", full.first_failure
        assert fast.to_report() == full
    else:
        assert check_full(data, UNSIGNED_OPTIONS, handoff) == full
    return full.status


def recomputed(bundle: Bundle, steps: list[bytes], index: int) -> bytes | None:
    """Step ``index`` recomputed by por's ``recompute_step`` from the (edited) steps
    before it, if it can be."""
    try:
        spec = PromptSpec.from_cbor(bundle.prompt_spec)
        step = ReasoningStep.from_cbor(steps[index])
        prior = {s.step_id: s for s in (ReasoningStep.from_cbor(steps[i])
                                        for i in range(index))}
        return bytes(recompute_step(spec, step, {}, prior).to_cbor())
    except (PorError, KeyError, IndexError, TypeError, ValueError):
        return None
