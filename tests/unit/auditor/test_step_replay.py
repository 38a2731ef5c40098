"""One-step re-execution (SPEC §10.2): recompute_step is the identity on honest steps
and tells every tampered step apart."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from factories import (
    bundle,
    item,
    json_field,
    price_body,
    prompt_spec,
    regex_field,
    requirement,
    two_source_case,
)

from por.auditor import AuditorAgent, recompute_step
from por.errors import AuditError
from por.schemas import EvidenceBundle, EvidenceItem, PromptSpec, ReasoningStep, ReasoningTrace

Case = tuple[PromptSpec, EvidenceBundle]


def _mixed() -> Case:
    r1 = requirement("r1", sources=["src_a", "src_b", "src_c"], strategy="multi_source_quorum",
                     min_sources=2, quorum=2, tie_breaker="highest_provenance",
                     fields=[json_field("price", "numeric", "$.data.price"),
                             json_field("at", "timestamp", "$.data.at")])
    r2 = requirement("r2", sources=["news"], content_type="text/html",
                     fields=[regex_field("headline", "text", r"<h1>(.*?)</h1>"),
                             regex_field("up", "boolean", r"up: (\w+)")])
    r3 = requirement("r3", sources=["src_d"])
    spec = prompt_spec(requirements=[r1, r2, r3], slack=10, tolerance="0.25",
                       allowed_sources=["news", "src_a", "src_b", "src_c", "src_d"])
    items = [
        item("a1", b'{"data":{"price":101.2,"at":1200}}', source_id="src_a", tier=1),
        item("n1", b"<h1>BTC up</h1> up: yes", requirement_id="r2", source_id="news",
             content_type="text/html"),
        item("b1", b'{"data":{"price":101.4,"at":1201}}', source_id="src_b", tier=3),
        item("c1", b'{"data":{"price":99}}', source_id="src_c", retrieved_at=3000),
        item("x1", b"{bad json", source_id="src_c"),
        item("z1", price_body("1"), requirement_id="r9", source_id="src_a"),
        item("d1", price_body("7"), requirement_id="r3", source_id="rogue"),
    ]
    return spec, bundle(items)


def _fallback_fields() -> Case:
    req = requirement(fields=[], strategy="fallback_chain")
    spec = prompt_spec(requirements=[req], predicate="event_observed", metric="result")
    return spec, bundle([item("e1", b'{"result":false,"timestamp":1999}', source_id="src_b"),
                         item("e2", b'{"result":true}', source_id="src_a", retrieved_at=1)])


CASES: dict[str, Callable[[], Case]] = {
    "agree": two_source_case,
    "conflict": lambda: two_source_case("101.5", "99"),
    "empty": lambda: (prompt_spec(), bundle([])),
    "mixed": _mixed,
    "fallback_fields": _fallback_fields,
}


def _claims(step: ReasoningStep) -> list[dict[str, Any]]:
    raw: Any = step.output["claims"]
    return [dict(c) for c in raw]


def _trace(name: str) -> tuple[PromptSpec, EvidenceBundle, ReasoningTrace]:
    spec, evidence = CASES[name]()
    trace, _ = AuditorAgent().audit(spec, evidence)
    return spec, evidence, trace


def _citations(evidence: EvidenceBundle, trace: ReasoningTrace, step: ReasoningStep
               ) -> tuple[dict[str, EvidenceItem], dict[str, ReasoningStep]]:
    """Only what the step cites: what a one-step proof carries."""
    items = {i.evidence_id: i for i in evidence.items if i.evidence_id in step.evidence_ids}
    steps = {s.step_id: s for s in trace.steps if s.step_id in step.prior_step_ids}
    return items, steps


@pytest.mark.parametrize("name", sorted(CASES))
def test_recompute_is_identity_on_every_honest_step(name: str) -> None:
    spec, evidence, trace = _trace(name)
    assert trace.steps[-1].step_type == "map"
    for step in trace.steps:
        again = recompute_step(spec, step, *_citations(evidence, trace, step))
        assert again == step
        assert again.to_cbor() == step.to_cbor()


@pytest.mark.parametrize("name", sorted(CASES))
def test_any_altered_output_or_description_is_detected(name: str) -> None:
    spec, evidence, trace = _trace(name)
    for step in trace.steps:
        cited = _citations(evidence, trace, step)
        for change in ({"output": {**step.output, "tampered": True}},
                       {"output": dict(list(step.output.items())[:-1])},
                       {"description": step.description + "!"}):
            forged = step.model_copy(update=change)
            assert recompute_step(spec, forged, *cited) != forged


def test_flipped_values_are_detected() -> None:
    spec, evidence, trace = _trace("agree")
    final = trace.steps[-1]
    variables = dict(final.output["evaluation_variables"])  # type: ignore[arg-type]
    variables["event_observed"] = False
    forged = final.model_copy(update={"output": {"evaluation_variables": variables}})
    assert recompute_step(spec, forged, *_citations(evidence, trace, final)) == final != forged
    extract = trace.steps[0]
    claims = _claims(extract)
    claims[0]["value"] = "150"
    forged = extract.model_copy(update={"output": {**extract.output, "claims": claims}})
    assert recompute_step(spec, forged, *_citations(evidence, trace, extract)) == extract


def test_a_tampered_prior_changes_what_the_next_step_should_be() -> None:
    spec, evidence, trace = _trace("agree")
    extract, aggregate = trace.steps[0], trace.steps[3]
    claims = _claims(extract)
    claims[0]["value"] = "150"
    forged = extract.model_copy(update={"output": {**extract.output, "claims": claims}})
    items, steps = _citations(evidence, trace, aggregate)
    steps[forged.step_id] = forged
    assert recompute_step(spec, aggregate, items, steps) != aggregate


def _error(spec: PromptSpec, step: ReasoningStep, items: dict[str, EvidenceItem],
           steps: dict[str, ReasoningStep]) -> str:
    with pytest.raises(AuditError) as info:
        recompute_step(spec, step, items, steps)
    return info.value.check_id


@pytest.mark.parametrize(("index", "change", "check_id"), [
    (0, {"inputs": {"kind": "guess"}}, "step.unknown_kind"),
    (0, {"step_type": "check"}, "step.unknown_kind"),
    (0, {"inputs": {"kind": "extract_claims", "hint": "x"}}, "step.bad_inputs"),
    (2, {"inputs": {"kind": "check_requirement"}}, "step.bad_inputs"),
    (2, {"inputs": {"kind": "check_requirement", "requirement_id": "r9"}}, "step.bad_inputs"),
    (2, {"evidence_ids": ["e1"]}, "step.citation_mismatch"),
    (2, {"prior_step_ids": ["step_0002", "step_0001"]}, "step.citation_mismatch"),
    (3, {"evidence_ids": ["e2"], "prior_step_ids": ["step_0002", "step_0003"]},
     "step.citation_mismatch"),
    (3, {"prior_step_ids": ["step_0001", "step_0002"]}, "step.citation_mismatch"),
    (4, {"prior_step_ids": ["step_0001", "step_0002"]}, "step.citation_mismatch"),
    (5, {"evidence_ids": ["e2"]}, "step.citation_mismatch"),
    (6, {"prior_step_ids": ["step_0005"]}, "step.citation_mismatch"),
    (6, {"evidence_ids": []}, "step.citation_mismatch"),
])
def test_unexecutable_steps_raise(index: int, change: dict[str, Any], check_id: str) -> None:
    spec, evidence, trace = _trace("agree")
    forged = trace.steps[index].model_copy(update=change)
    everything = ({i.evidence_id: i for i in evidence.items},
                  {s.step_id: s for s in trace.steps})
    assert _error(spec, forged, *everything) == check_id


def test_missing_or_mislabelled_citations() -> None:
    spec, evidence, trace = _trace("agree")
    extract, check = trace.steps[1], trace.steps[2]
    items, steps = _citations(evidence, trace, extract)
    del items["e2"]
    assert _error(spec, extract, items, steps) == "step.missing_citation"
    items, steps = _citations(evidence, trace, extract)
    items["e2"] = evidence.items[0]
    assert _error(spec, extract, items, steps) == "step.missing_citation"
    items, steps = _citations(evidence, trace, check)
    del steps["step_0002"]
    assert _error(spec, check, items, steps) == "step.missing_citation"


def test_later_steps_read_items_only_through_cards() -> None:
    # SPEC §12.5.2: no non-extract step takes an evidence item; a card that is
    # not the item's changes what the check step should be (its extraction proof
    # shows the card is wrong).
    spec, evidence, trace = _trace("mixed")
    every_step = {s.step_id: s for s in trace.steps}
    for step in trace.steps:
        if step.inputs["kind"] != "extract_claims":
            assert recompute_step(spec, step, {}, every_step) == step
    extract = trace.steps[0]
    assert extract.output["card"] == {
        "source_id": evidence.items[0].source.source_id,
        "status_code": evidence.items[0].retrieval_receipt.status_code,
        "retrieved_at": evidence.items[0].retrieval_receipt.retrieved_at,
        "confidence_bps": evidence.items[0].confidence_bps,
        "provenance_tier": evidence.items[0].provenance_tier}
    check = next(s for s in trace.steps if extract.step_id in s.prior_step_ids
                 and s.inputs["kind"] == "check_requirement")
    card = {**extract.output["card"], "provenance_tier": 0, "status_code": 500}
    forged = extract.model_copy(update={"output": {**extract.output, "card": card}})
    assert recompute_step(spec, check, {}, {**every_step, extract.step_id: forged}) != check
    for bad in ({**card, "status_code": "500"}, {**card, "extra": 1},
                {k: v for k, v in card.items() if k != "source_id"},
                {**card, "provenance_tier": 4}):
        broken = extract.model_copy(update={"output": {**extract.output, "card": bad}})
        assert _error(spec, check, {}, {**every_step, extract.step_id: broken}) == \
            "step.bad_prior_output"


def test_malformed_prior_output_raises() -> None:
    spec, evidence, trace = _trace("agree")
    extract, check = trace.steps[0], trace.steps[2]
    claims = _claims(extract)
    claims[0]["value"] = 101  # a numeric claim must be a decimal string
    forged = extract.model_copy(update={"output": {**extract.output, "claims": claims}})
    items, steps = _citations(evidence, trace, check)
    steps[forged.step_id] = forged
    assert _error(spec, check, items, steps) == "step.bad_prior_output"
    about_other = extract.model_copy(update={"output": {**extract.output,
                                                        "evidence_id": "e2"}})
    steps[forged.step_id] = about_other
    assert _error(spec, check, items, steps) == "step.citation_mismatch"


def test_recompute_reads_only_its_citations() -> None:
    # A step recomputes the same way whatever else is in the maps.
    spec, evidence, trace = _trace("mixed")
    everything = ({i.evidence_id: i for i in evidence.items},
                  {s.step_id: s for s in trace.steps})
    for step in trace.steps:
        assert recompute_step(spec, step, *everything) == step
