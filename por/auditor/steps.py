"""The auditor's steps as pure functions, and one-step re-execution (SPEC §12.5, §10.2).

Every step is a pure function of (PromptSpec, its ``step_id``, ``step_type``,
``inputs``, the evidence items it cites, the prior steps it cites).
``inputs["kind"]`` selects the computation; :func:`recompute_step` re-runs it
from the citations alone, and :class:`~por.auditor.agent.AuditorAgent` builds
every step through the same builders, so for an honest trace
``recompute_step(step) == step``.

=================== ========= ============================ ============================
inputs              type      cites evidence               cites prior steps
=================== ========= ============================ ============================
extract_claims      extract   the one item it reads        --
check_requirement   check     the requirement's items      their extract steps
 (+requirement_id)            (bundle order)
aggregate           aggregate the items that check step    their extract steps, then the
 (+requirement_id)            admitted (its order)         check step
contradictions      check     every admitted item          their extract steps, then one
                              (bundle order)               check step per requirement
deduce              deduce    ``source_summary``           one aggregate step per
                                                           requirement, then contradictions
map                 map       ``source_summary``           the deduce step
=================== ========= ============================ ============================

Outputs: ``extract`` -> ``{evidence_id, requirement_id, card, claims, warnings}``;
``check_requirement`` -> :meth:`RequirementCheck.to_value`; ``aggregate`` ->
``{requirement_id, strategy, covered, provenance_ok, fields, sources_used,
fallback_used}``; ``contradictions`` -> ``{claim_count, numeric_tolerance,
conflicts}``; ``deduce`` -> the evaluation variables plus ``predicate``,
``metric``, ``metric_status`` and ``uncovered_requirements``; ``map`` ->
``{evaluation_variables}``.

Deduce (SPEC §12.4, §12.4.1): :mod:`por.auditor.deduce` finds every field the
predicate reads and computes the evaluation variables from the aggregates;
with ``sources_required`` the metric's aggregate also commits per-source
``votes``.  For the two original predicates the output is what it always was,
except that a ``fallback_chain`` field raises no conflict (its unread sources
are never read).

Steps are lean :class:`~por.lean.trace.Step` records (no pydantic, issue 16);
their report checks are lean too and made only when asked for
(:attr:`Built.findings`).  :func:`recompute_step` returns a ``ReasoningStep``.

A step whose declared computation cannot be executed raises ``AuditError``:
``step.unknown_kind``, ``step.bad_inputs``, ``step.missing_citation``,
``step.citation_mismatch``, ``step.bad_prior_output``.  Such a step is wrong
as committed.  A step is judged against its own citations: that it cites the
right evidence (all of a requirement's items, say) is checked by full replay.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from por.auditor import step_io as io
from por.auditor.claim_extraction import (
    Claim,
    ExtractionWarning,
    extract_item,
    fields_for,
    requirement_for,
)
from por.auditor.contradiction_checks import ContradictionChecker
from por.auditor.deduce import deduce, summary_of
from por.auditor.logic_sanity import (
    check_requirement,
    requirement_findings,
    variables_finding,
)
from por.auditor.selection import SELECTED, Candidate, FieldSelection, select_field
from por.encoding.encoder import Fragments
from por.errors import AuditError
from por.lean.trace import Step, Variables
from por.lean.writer_hooks import results_from
from por.lean.writers_gen import Check
from por.numbers import parse_decimal

if TYPE_CHECKING:
    from por.auditor.step_io import (
        AggregateLike,
        CheckLike,
        ConflictsLike,
        ExtractLike,
        StepLike,
    )
    from por.schemas import (
        CheckResult,
        DataRequirement,
        EvidenceItem,
        PromptSpec,
        ReasoningStep,
    )

#: A step's report checks, or how to make them when a report is asked for.
Findings = tuple[Check, ...] | Callable[[], Sequence[Check]]


@dataclass(frozen=True, slots=True)
class Built:
    """A step and the report checks it gives rise to (the checks are not committed).

    ``findings`` may be a thunk: the replaying verifier never asks for them, so
    an extraction warning costs no report object there (issue 16)."""

    step: Step
    findings: Findings = ()
    #: A ``check_requirement`` step's reading for later steps, when its output
    #: holds encoded items (a streaming audit): ``io.read_check`` cannot parse them.
    view: io.CheckView | None = None

    def lean_checks(self) -> Sequence[Check]:
        """The report checks, as lean checks."""
        found = self.findings
        return found if isinstance(found, tuple) else found()

    @property
    def checks(self) -> tuple[CheckResult, ...]:
        """The report checks, as ``CheckResult``."""
        return tuple(results_from(self.lean_checks()))


def _step(sid: str, step_type: str, description: str, *, inputs: dict[str, Any],
          evidence_ids: list[str], prior_step_ids: list[str] | Fragments,
          output: dict[str, Any]) -> Step:
    return Step(sid, step_type, description, evidence_ids, prior_step_ids, inputs, output)


def _warning_checks(eid: str, warnings: Sequence[ExtractionWarning]) -> tuple[Check, ...]:
    return tuple(Check(w.check_id, False, "warn", f"{eid}: {w.message}",
                       details={"evidence_id": eid}
                       if w.key is None else {"evidence_id": eid, "key": w.key})
                 for w in warnings)


def _requirement(prompt_spec: PromptSpec, requirement_id: str) -> DataRequirement:
    requirement = requirement_for(prompt_spec, requirement_id)
    if requirement is None:
        raise AuditError("step.bad_inputs", f"unknown requirement {requirement_id!r}")
    return requirement


def extract_step(prompt_spec: PromptSpec, sid: str, item: EvidenceItem) -> Built:
    """``extract_claims``: the claims of one item (``claim_extraction``)."""
    found = extract_item(requirement_for(prompt_spec, item.requirement_id), item)
    eid = item.evidence_id
    # Keys in canonical order (by length, then bytewise), so the encoder need not
    # copy the map (issue 16); a map's order never changes its bytes or equality.
    output = {"card": io.card_of(item),
              "claims": [c.to_value() for c in found.claims],
              "warnings": [w.to_value() for w in found.warnings],
              "evidence_id": eid, "requirement_id": item.requirement_id}
    findings: Findings = (functools.partial(_warning_checks, eid, found.warnings)
                          if found.warnings else ())
    step = _step(sid, "extract", f"extract {len(found.claims)} claim(s) from {eid}",
                 inputs={"kind": io.KIND_EXTRACT}, evidence_ids=[eid], prior_step_ids=[],
                 output=output)
    # What io.read_extract(step, item) would parse back: the same claims, keyed by
    # the same (id, confidence), so the auditor's own readers skip the parse.
    step._claims = ((eid, item.confidence_bps), found.claims)
    return Built(step, findings)


def check_requirement_step(prompt_spec: PromptSpec, sid: str, requirement_id: str,
                           items: Sequence[EvidenceItem],
                           extract_steps: Sequence[ExtractLike], *,
                           encoded: bool = False) -> Built:
    """``check_requirement``: admit or reject each of a requirement's items
    (``encoded``: as :meth:`RequirementCheck.to_value`, with the step's reading in
    :attr:`Built.view`)."""
    requirement = _requirement(prompt_spec, requirement_id)
    for item in items:
        if item.requirement_id != requirement_id:
            raise AuditError(io.CITATION_MISMATCH,
                             f"{item.evidence_id} belongs to {item.requirement_id!r}",
                             expected=requirement_id, actual=item.requirement_id)
    claims = io.read_extracts(extract_steps, items)
    result = check_requirement(prompt_spec, requirement, items, claims)
    output = result.to_value(encoded=encoded)
    view = io.CheckView(list(result.admitted_ids), result.covered,
                        result.provenance_ok) if encoded else None
    return Built(_step(sid, "check",
                       f"check requirement {requirement_id}: {output['admitted_count']} of "
                       f"{len(items)} item(s) admitted",
                       inputs={"kind": io.KIND_CHECK, "requirement_id": requirement_id},
                       evidence_ids=[i.evidence_id for i in items],
                       prior_step_ids=io.step_ids(extract_steps),
                       output=output), functools.partial(requirement_findings, result),
                 view)


def aggregate_step(prompt_spec: PromptSpec, sid: str, requirement_id: str, *,
                   check_step: CheckLike, items: Sequence[EvidenceItem],
                   extract_steps: Sequence[ExtractLike]) -> Built:
    """``aggregate``: apply the selection policy to each field of one requirement."""
    requirement = _requirement(prompt_spec, requirement_id)
    view = io.read_check(check_step, requirement_id)
    if [i.evidence_id for i in items] != view.admitted:
        raise AuditError(io.CITATION_MISMATCH,
                         f"aggregate {sid} does not cite exactly the admitted evidence")
    io.same_count(extract_steps, items)
    # Every policy reads a field's candidates one per source, the first in bundle
    # order (``selection._one_per_source``): the others are never kept, and an
    # item with nothing new is not read further than its claims' keys (issue 16).
    by_key: dict[tuple[str, str], list[Candidate]] = {}
    sources: dict[tuple[str, str], set[str]] = {}
    for position, (item, step) in enumerate(zip(items, extract_steps, strict=True)):
        source_id = item.source.source_id
        if all(source_id in sources.get(k, ()) for k in io.read_extract_keys(step, item)):
            continue
        for claim in io.read_extract(step, item):
            key = (claim.key, claim.kind)
            seen = sources.setdefault(key, set())
            if source_id not in seen:
                seen.add(source_id)
                by_key.setdefault(key, []).append(Candidate(
                    position, item.evidence_id, source_id, item.provenance_tier,
                    claim.claim_id, claim.value))
    policy = requirement.selection_policy
    targets = [t.source_id for t in requirement.source_targets]
    tolerance = parse_decimal(prompt_spec.conflict_policy.numeric_tolerance)
    selections = [select_field(f.key, f.kind, policy=policy, target_ids=targets,
                               candidates=by_key.get((f.key, f.kind), []), tolerance=tolerance)
                  for f in fields_for(requirement)]
    used = bytearray(len(items))
    picked = {eid for s in selections for eid in s.evidence_ids}
    index = {item.evidence_id: n for n, item in enumerate(items)
             if item.evidence_id in picked}  # the last place, as cited
    for eid in picked:
        used[index[eid]] = True
    output = {
        "requirement_id": requirement_id, "strategy": policy.strategy,
        "covered": view.covered, "provenance_ok": view.provenance_ok,
        "fields": [_with_votes(prompt_spec, s, by_key) for s in selections],
        "sources_used": [i.evidence_id for i, u in zip(items, used, strict=True) if u],
        "fallback_used": any(s.fallback_used for s in selections),
    }
    chosen = sum(1 for s in selections if s.status == SELECTED)
    return Built(_step(sid, "aggregate",
                       f"aggregate requirement {requirement_id} by {policy.strategy}: "
                       f"{chosen} of {len(selections)} field(s) selected",
                       inputs={"kind": io.KIND_AGGREGATE, "requirement_id": requirement_id},
                       evidence_ids=[i.evidence_id for i in items],
                       prior_step_ids=io.step_ids(extract_steps, check_step.step_id),
                       output=output))


def _with_votes(prompt_spec: PromptSpec, selection: FieldSelection,
                by_key: Mapping[tuple[str, str], list[Candidate]]) -> dict[str, Any]:
    """A field's committed selection; a k-of-n metric (``sources_required``) also
    lists ``votes``: every source's first candidate, in bundle order (SPEC §12.3)."""
    out = selection.to_value()
    semantics = prompt_spec.prediction_semantics
    if semantics.sources_required is not None and selection.key == semantics.metric:
        out["votes"] = [{"value": c.value, "source_id": c.source_id,
                         "evidence_id": c.evidence_id}
                        for c in by_key.get((selection.key, selection.kind), [])]
    return out


def contradictions_step(prompt_spec: PromptSpec, sid: str, check_steps: Sequence[CheckLike],
                        items: Sequence[EvidenceItem],
                        extract_steps: Sequence[ExtractLike]) -> Built:
    """``contradictions``: detect disagreeing claims among all admitted evidence."""
    requirements = prompt_spec.data_requirements
    if len(check_steps) != len(requirements):
        raise AuditError(io.CITATION_MISMATCH, "contradictions must cite one check step per "
                         "requirement", expected=str(len(requirements)),
                         actual=str(len(check_steps)))
    admitted: list[str] = []
    for step, requirement in zip(check_steps, requirements, strict=True):
        admitted += io.read_admitted(step, requirement.requirement_id)
    cited = [i.evidence_id for i in items]
    # The same ids, as sets, compared as sorted lists of distinct ids: two lists
    # of references instead of two sets (issue 16: one entry per item each).
    if cited != admitted and (len(cited) != len(admitted)  # equal lists: equal sets
                              or _distinct_sorted(cited) != _distinct_sorted(admitted)):
        raise AuditError(io.CITATION_MISMATCH,
                         f"contradictions {sid} does not cite exactly the admitted evidence")
    del admitted  # gone before the claims are read
    claims = io.read_extracts(extract_steps, items)
    counted = [0]

    def every_claim() -> Iterator[Claim]:  # one item's claims at a time
        for found in claims:
            counted[0] += len(found)
            yield from found
    tolerance = prompt_spec.conflict_policy.numeric_tolerance
    results = ContradictionChecker(tolerance).conflicts(every_claim())
    claim_count = counted[0]
    conflicts = [{"check_id": r.check_id, **(r.details or {})} for r in results]
    output = {"claim_count": claim_count, "numeric_tolerance": tolerance,
              "conflicts": conflicts}
    return Built(_step(sid, "check",
                       f"contradiction check over {claim_count} claim(s): "
                       f"{len(conflicts)} conflict(s)",
                       inputs={"kind": io.KIND_CONTRADICTIONS}, evidence_ids=cited,
                       prior_step_ids=io.step_ids(extract_steps,
                                                  *(s.step_id for s in check_steps)),
                       output=output), tuple(results))


def _distinct_sorted(ids: list[str]) -> list[str]:
    """``sorted(set(ids))`` without the set."""
    ordered = sorted(ids)
    return [e for n, e in enumerate(ordered) if n == 0 or ordered[n - 1] != e]


def deduce_step(prompt_spec: PromptSpec, sid: str, aggregate_steps: Sequence[AggregateLike],
                contradictions: ConflictsLike) -> Built:
    """``deduce``: the predicate's variables from the aggregates (``por.auditor.deduce``)."""
    requirements = prompt_spec.data_requirements
    if len(aggregate_steps) != len(requirements):
        raise AuditError(io.CITATION_MISMATCH, "deduce must cite one aggregate step per "
                         "requirement", expected=str(len(requirements)),
                         actual=str(len(aggregate_steps)))
    views = [io.read_aggregate(s, r.requirement_id)
             for s, r in zip(aggregate_steps, requirements, strict=True)]
    step_ids = [s.step_id for s in aggregate_steps]
    found = deduce(prompt_spec, views, io.read_conflict_keys(contradictions), step_ids)
    semantics = prompt_spec.prediction_semantics
    summary = summary_of(found, views, step_ids)
    uncovered = found.uncovered
    insufficient = bool(uncovered) or found.insufficient or found.event is None
    variables: dict[str, Any] = {
        "conflict_detected": found.conflict,
        "insufficient_evidence": insufficient,
        "fallback_used": found.fallback,
        "provenance_ok": all(v.provenance_ok for v in views),
        "source_summary": summary,
    }
    if not insufficient:
        variables["event_observed"] = found.event
        if found.numeric is not None:
            variables["numeric_value"] = found.numeric
        if found.stamp is not None:
            variables["timestamp"] = found.stamp
    status = found.status
    output = {"predicate": semantics.predicate, "metric": semantics.metric,
              "metric_status": status, "uncovered_requirements": uncovered,
              **Variables(**variables).to_value()}
    reason = f"status {status}" + (f"; uncovered: {', '.join(uncovered)}" if uncovered else "")
    return Built(_step(sid, "deduce",
                       f"deduce {semantics.predicate} on {semantics.metric}: "
                       + ("insufficient evidence" if insufficient else "variables computed"),
                       inputs={"kind": io.KIND_DEDUCE}, evidence_ids=summary,
                       prior_step_ids=([s.step_id for s in aggregate_steps]
                                       + [contradictions.step_id]), output=output),
                 (variables_finding(not insufficient or status == SELECTED,
                                    semantics.metric, reason),))


def map_step(prompt_spec: PromptSpec, sid: str, deduce: StepLike) -> Built:
    """``map``: the evaluation variables the judge reads, from the deduce step."""
    del prompt_spec  # the map reads only its prior step; kept for a uniform signature
    variables = io.read_variables(deduce)
    return Built(_step(sid, "map", "map to evaluation variables", inputs={"kind": io.KIND_MAP},
                       evidence_ids=list(variables.source_summary),
                       prior_step_ids=[deduce.step_id],
                       output={"evaluation_variables": variables.to_value()}))


_INPUT_KEYS = {
    io.KIND_EXTRACT: ("kind",), io.KIND_CHECK: ("kind", "requirement_id"),
    io.KIND_AGGREGATE: ("kind", "requirement_id"), io.KIND_CONTRADICTIONS: ("kind",),
    io.KIND_DEDUCE: ("kind",), io.KIND_MAP: ("kind",),
}


def _split(priors: Sequence[StepLike], kinds: Sequence[str]) -> list[list[StepLike]]:
    out: list[list[StepLike]] = [[] for _ in kinds]
    for prior in priors:
        kind = io.kind_of(prior)
        if kind not in kinds:
            raise AuditError(io.CITATION_MISMATCH,
                             f"cited step {prior.step_id} is not read by this step")
        out[kinds.index(kind)].append(prior)
    return out


def recompute_step(prompt_spec: PromptSpec, step: ReasoningStep,
                   cited_evidence: Mapping[str, EvidenceItem],
                   cited_steps: Mapping[str, ReasoningStep]) -> ReasoningStep:
    """What ``step`` should be, recomputed from its citations alone (see module docstring).

    Only an ``extract_claims`` step reads ``cited_evidence`` (its one item); every
    other step reads items through the cards of its cited extract steps (SPEC
    §12.5.2), the k-th cited extract step standing for the k-th cited evidence id,
    so ``cited_evidence`` may be empty for it (a one-step proof carries no item)."""
    kind = step.inputs.get("kind")
    if not isinstance(kind, str) or io.STEP_TYPE_OF_KIND.get(kind) != step.step_type:
        raise AuditError("step.unknown_kind", f"step {step.step_id}: no {step.step_type} "
                         f"computation named {kind!r}", actual=str(kind))
    keys = _INPUT_KEYS[kind]
    if sorted(step.inputs) != sorted(keys) or (
            "requirement_id" in keys and type(step.inputs["requirement_id"]) is not str):
        raise AuditError("step.bad_inputs", f"step {step.step_id}: inputs must be {keys}")
    priors = [_cited(cited_steps, s, step, "step") for s in step.prior_step_ids]
    sid = step.step_id
    rid = str(step.inputs.get("requirement_id", ""))
    if kind == io.KIND_EXTRACT:
        items = [_cited(cited_evidence, e, step, "evidence") for e in step.evidence_ids]
        if len(items) != 1 or priors:
            raise AuditError(io.CITATION_MISMATCH, "an extract step cites one item only")
        built = extract_step(prompt_spec, sid, items[0])
    elif kind == io.KIND_CHECK:
        (extracts,) = _split(priors, [io.KIND_EXTRACT])
        built = check_requirement_step(prompt_spec, sid, rid,
                                       _cards(extracts, step), extracts)
    elif kind == io.KIND_AGGREGATE:
        extracts, checks = _split(priors, [io.KIND_EXTRACT, io.KIND_CHECK])
        if len(checks) != 1:
            raise AuditError(io.CITATION_MISMATCH, "an aggregate cites one check step")
        built = aggregate_step(prompt_spec, sid, rid, check_step=checks[0],
                               items=_cards(extracts, step),
                               extract_steps=extracts)
    elif kind == io.KIND_CONTRADICTIONS:
        extracts, checks = _split(priors, [io.KIND_EXTRACT, io.KIND_CHECK])
        built = contradictions_step(prompt_spec, sid, checks,
                                    _cards(extracts, step), extracts)
    elif kind == io.KIND_DEDUCE:
        aggregates, found = _split(priors, [io.KIND_AGGREGATE, io.KIND_CONTRADICTIONS])
        if len(found) != 1:
            raise AuditError(io.CITATION_MISMATCH, "deduce cites one contradictions step")
        built = deduce_step(prompt_spec, sid, aggregates, found[0])
    else:
        (deduces,) = _split(priors, [io.KIND_DEDUCE])
        if len(deduces) != 1:
            raise AuditError(io.CITATION_MISMATCH, "map cites one deduce step")
        built = map_step(prompt_spec, sid, deduces[0])
    recomputed = built.step
    if (recomputed.evidence_ids != step.evidence_ids
            or recomputed.prior_step_ids != step.prior_step_ids):
        raise AuditError(io.CITATION_MISMATCH,
                         f"step {sid} cites other evidence or steps than it reads",
                         expected=",".join(recomputed.evidence_ids),
                         actual=",".join(step.evidence_ids))
    return recomputed.to_record()


def _cards(extracts: Sequence[StepLike], step: ReasoningStep) -> list[EvidenceItem]:
    """The cited items as their extract steps' cards (``step_io.read_cards``), read
    where the builders read an item: only the card's fields are ever asked for."""
    return cast("list[EvidenceItem]", io.read_cards(extracts, step.evidence_ids))


def _cited(table: Mapping[str, Any], key: str, step: StepLike, what: str) -> Any:
    found = table.get(key)
    if found is None:
        raise AuditError("step.missing_citation",
                         f"step {step.step_id}: cited {what} {key!r} was not supplied")
    own = found.evidence_id if what == "evidence" else found.step_id
    if own != key:
        raise AuditError("step.missing_citation",
                         f"step {step.step_id}: supplied {what} {own!r} under id {key!r}")
    return found


__all__ = [
    "Built",
    "aggregate_step",
    "check_requirement_step",
    "contradictions_step",
    "deduce_step",
    "extract_step",
    "map_step",
    "recompute_step",
]
