"""Canonical citations (SPEC §12.5.1) on honest and forged traces.

1. The honest auditor already emits exactly the canonical citations: on every
   fixture market and on generated markets (one to three requirements, items
   interleaved), every step's evidence and prior steps are the SPEC §12.5.1
   set in the SPEC §12.5.1 order, computed here from the rule's text, not from
   ``por.auditor``; and no step has a citation proof.
2. Any reordering or repeat of any step's citations (every commitment
   recomputed) has a citation proof the challenger wins.
"""

from __future__ import annotations

from typing import Any

from bundle_edits import recommit
from hypothesis import given, note, settings
from hypothesis import strategies as st
from test_auditor_properties import f, item_specs

from por.bundle import build
from por.bundle.layout import Bundle
from por.challenge import build_citation_proof, bundle_from_bytes, check_proof, citation_faults
from por.scenarios import list_scenarios, load_scenario
from por.schemas import EvidenceBundle, EvidenceItem, PromptSpec, ReasoningStep, step_id

WON = {"one_step.citation_order", "one_step.citation_repeat", "one_step.citation_set",
       "one_step.prior_order"}


def expected_citations(spec: PromptSpec, items: list[EvidenceItem],
                       steps: list[ReasoningStep]) -> list[tuple[list[str], list[str]]]:
    """SPEC §12.5.1's citation lists for every step of the trace, from the rule."""
    ids = [i.evidence_id for i in items]

    def extracts(chosen: list[str]) -> list[str]:
        return [step_id(ids.index(e) + 1) for e in chosen]
    out: list[tuple[list[str], list[str]]] = [([e], []) for e in ids]
    last_chunks, aggregates = [], []
    for requirement in spec.data_requirements:
        mine = [i.evidence_id for i in items if i.requirement_id == requirement.requirement_id]
        before: list[str] = []  # chunk c-1, the step right before chunk c
        firsts: dict[str, str] = {}  # source id -> its first admitted item
        for start in range(0, max(1, len(mine)), 10):
            chunk = mine[start:start + 10]
            out.append((chunk, [*extracts(chunk), *before]))
            made = steps[len(out) - 1]
            for entry in made.output["items"]:
                if entry["admitted"]:
                    firsts.setdefault(entry["source_id"], entry["evidence_id"])
            before = [made.step_id]
        kept = list(firsts.values())
        out.append((kept, [*extracts(kept), *before]))
        last_chunks += before
        aggregates.append(step_id(len(out)))
    out.append(([], last_chunks))
    deduce = steps[-2]
    summary = sorted(deduce.output["source_summary"], key=ids.index)
    out.append((summary, [*aggregates, step_id(len(steps) - 2)]))
    out.append((summary, [deduce.step_id]))
    return out


def assert_canonical(spec: PromptSpec, evidence: EvidenceBundle) -> Bundle:
    built = build(spec, evidence)
    steps = list(built.trace.steps)
    items = list(evidence.items)
    want = expected_citations(spec, items, steps)
    assert len(want) == len(steps)
    for step, (evidence_ids, prior_step_ids) in zip(steps, want, strict=True):
        assert (step.evidence_ids, step.prior_step_ids) == (evidence_ids, prior_step_ids), \
            step.step_id
    bundle = bundle_from_bytes(built.data)
    assert citation_faults(bundle) == []
    return bundle


def test_every_fixture_market_is_canonical() -> None:
    names = list_scenarios()
    assert len(names) >= 15
    for name in names:
        scenario = load_scenario(name)
        assert_canonical(scenario.prompt_spec, scenario.evidence)


@st.composite
def markets(draw: st.DrawFn) -> tuple[PromptSpec, EvidenceBundle]:
    """One to three requirements (strategies drawn), items interleaved among them
    (up to 25: a requirement may span three check chunks, SPEC §12.5.3)."""
    count = draw(st.integers(1, 3))
    sources = ["src_a", "src_b", "src_c", "src_d"]
    requirements = [f.requirement(
        f"r{k}", sources=sources,
        strategy=draw(st.sampled_from(["single_best", "multi_source_quorum",
                                       "fallback_chain"])),
        quorum=(quorum := draw(st.integers(1, 2))), min_sources=quorum,
        min_tier=draw(st.integers(0, 2)),
        fields=[f.json_field("price", "numeric", "$.data.price"),
                f.json_field("at", "timestamp", "$.data.at")]) for k in range(count)]
    spec = f.prompt_spec(requirements=requirements, allowed_sources=sources[:3],
                         tolerance=draw(st.sampled_from(["0", "0.5", "10"])))
    items = []
    for n, (source, price, tier, at, with_at) in enumerate(draw(st.lists(item_specs,
                                                                         max_size=25))):
        content = ('{"data":{"price":' + format(price, "f")
                   + (f',"at":{at}' if with_at else "") + "}}")
        items.append(f.item(f"e{n}", content, source_id=source, tier=tier, retrieved_at=at,
                            requirement_id=f"r{draw(st.integers(0, count - 1))}"))
    return spec, f.bundle(items)


@settings(max_examples=60, deadline=None)
@given(markets())
def test_generated_markets_are_canonical(case: tuple[PromptSpec, EvidenceBundle]) -> None:
    assert_canonical(*case)


def _edited(bundle: Bundle, index: int, update: dict[str, Any]) -> Bundle:
    steps = list(bundle.steps)
    steps[index] = ReasoningStep.from_cbor(steps[index]).model_copy(update=update).to_cbor()
    return recommit(bundle, steps=steps)


@settings(max_examples=80, deadline=None)
@given(markets(), st.data())
def test_any_reordering_or_repeat_has_a_won_citation_proof(
        case: tuple[PromptSpec, EvidenceBundle], data: st.DataObject) -> None:
    bundle = assert_canonical(*case)
    index = data.draw(st.integers(0, len(bundle.steps) - 1))
    step = ReasoningStep.from_cbor(bundle.steps[index])
    field = data.draw(st.sampled_from(["evidence_ids", "prior_step_ids", "both"]))
    names = ["evidence_ids", "prior_step_ids"] if field == "both" else [field]
    update: dict[str, Any] = {}
    for name in names:
        cited = list(getattr(step, name))
        if not cited:
            continue
        if data.draw(st.booleans(), label="repeat") or len(cited) < 2:
            at = data.draw(st.integers(0, len(cited) - 1))
            to = data.draw(st.integers(0, len(cited)))
            cited.insert(to, cited[at])
        else:
            shuffled = data.draw(st.permutations(cited))
            if shuffled == cited:
                shuffled = cited[1:] + cited[:1]
            cited = list(shuffled)
        update[name] = cited
    if not update:
        return  # a step citing nothing of that kind
    note(f"step {index} {update}")
    forged = _edited(bundle, index, update)
    assert index in citation_faults(forged)
    proof = build_citation_proof(forged, index)
    report = check_proof(proof.to_cbor(), por_root=forged.commitments.por_root)
    assert report.outcome is not None, report.check_id
    assert (report.status, report.exit_code) == ("valid", 0)
    assert report.outcome.reason in WON
    assert len(proof.to_cbor()) < 64 * 1024
