"""Bundles for the CLI tests: ones that verify, are tampered, garbage or unsupported.

``built`` bundles come from the pipeline (por.bundle.build over a bundled
scenario).  ``hand`` bundles are assembled here from a scenario's inputs with
a one-step trace and a hand-written verdict: their commitments are
consistent, so they exercise steps 1-4 (decode, schema, commitments, version
lock) without the auditor, and fail the replay (step 5) on purpose.
"""

from __future__ import annotations

import functools
from typing import Any

from por.bundle import Bundle, Manifest, compute_commitments, current_manifest, honest_forms
from por.merkle import leaf_hash, root_hash
from por.scenarios import load_scenario
from por.schemas import (
    DeterministicVerdict,
    EvidenceBundle,
    PromptSpec,
    ReasoningStep,
    TraceHeader,
    TracePolicy,
)

#: The scenario the single-bundle tests use (YES, R_BINARY_DECISION, 7000 bps).
SCENARIO = "01-boolean-observed"
GARBAGE = b"\xffnot a bundle"


def assemble(spec: PromptSpec, evidence: EvidenceBundle, *,
             manifest: Manifest | None = None) -> bytes:
    """A bundle with consistent commitments around a fake one-step trace."""
    manifest_bytes = (manifest or current_manifest()).to_cbor()
    spec_bytes = spec.to_cbor()
    ev_bytes = [item.to_cbor() for item in evidence.items]
    step = ReasoningStep(step_id="step_0001", step_type="map", description="hand-made",
                         evidence_ids=[evidence.items[0].evidence_id], prior_step_ids=[],
                         inputs={}, output={})
    step_bytes = [step.to_cbor()]
    header = TraceHeader(trace_id="trace_hand", market_id=spec.market.market_id,
                         policy=TracePolicy(max_steps=64), step_count=1).to_cbor()
    verdict = DeterministicVerdict(
        market_id=spec.market.market_id, outcome="YES", confidence_bps=7000,
        resolution_rule_id="R_BINARY_DECISION", prompt_spec_hash=leaf_hash(spec_bytes),
        evidence_root=root_hash(ev_bytes), evidence_count=len(ev_bytes),
        reasoning_root=root_hash(step_bytes), reasoning_count=1,
    ).to_cbor()
    return _encode(manifest_bytes, spec_bytes, ev_bytes, header=header, steps=step_bytes,
                   verdict=verdict)


def _encode(manifest: bytes, spec: bytes, evidence: list[bytes], *, header: bytes,
            steps: list[bytes], verdict: bytes, signatures: list[bytes] | None = None) -> bytes:
    forms = honest_forms(spec, steps, verdict, strict=False)
    commitments = compute_commitments(manifest=manifest, prompt_spec=spec, evidence=evidence,
                                      trace_header=header, steps=steps, verdict=verdict,
                                      forms=forms)
    return Bundle(manifest=manifest, prompt_spec=spec, evidence=evidence, trace_header=header,
                  steps=steps, verdict=verdict, forms=forms, commitments=commitments,
                  signatures=signatures or []).to_cbor()


def with_manifest(data: bytes, **changes: Any) -> bytes:
    """The same bundle with manifest fields changed and every commitment recomputed."""
    b = Bundle.from_cbor(data)
    manifest = Manifest.from_cbor(b.manifest).model_copy(update=changes)
    return _encode(manifest.to_cbor(), b.prompt_spec, list(b.evidence),
                   header=b.trace_header, steps=list(b.steps), verdict=b.verdict,
                   signatures=list(b.signatures))


def tampered(data: bytes) -> bytes:
    """Evidence item 0 altered after commitment (commitments kept): ``commit.evidence_root``."""
    from por.schemas import EvidenceItem

    b = Bundle.from_cbor(data)
    item = EvidenceItem.from_cbor(b.evidence[0])
    changed = item.model_copy(update={"content": item.content + b" "}).to_cbor()
    return b.model_copy(update={"evidence": [changed, *b.evidence[1:]]}).to_cbor()


@functools.cache
def scenario_inputs(name: str = SCENARIO) -> tuple[PromptSpec, EvidenceBundle]:
    """A bundled scenario's PromptSpec and EvidenceBundle."""
    scenario = load_scenario(name)
    return scenario.prompt_spec, scenario.evidence


@functools.cache
def built_bytes(name: str = SCENARIO) -> bytes:
    """bundle.cbor built by the real pipeline for a scenario."""
    from por.bundle import build_bundle

    return build_bundle(*scenario_inputs(name))


@functools.cache
def hand_bytes() -> bytes:
    """A hand-assembled bundle (consistent commitments, fake trace)."""
    return assemble(*scenario_inputs())
