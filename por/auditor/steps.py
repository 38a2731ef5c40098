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
check_requirement   check     items 10c..10c+9 of the      their extract steps, then
 (+requirement_id)            requirement (bundle order)   chunk c-1 (c > 0)
aggregate           aggregate the first admitted item of   their extract steps, then the
 (+requirement_id)            each source (last chunk's)   last check chunk
contradictions      check     --                           the last check chunk of each
                                                           requirement
deduce              deduce    ``source_summary``           one aggregate step per
                                                           requirement, then contradictions
map                 map       ``source_summary``           the deduce step
=================== ========= ============================ ============================

A check chunk carries the chain's running state (``por.auditor.chunk_state``),
so no step after ``extract`` reads more than 10 items (SPEC §12.5, ADR 0011).

Outputs: ``extract`` -> ``{evidence_id, requirement_id, card, claims, warnings}``;
``check_requirement`` -> the chunk's items and running state (SPEC §12.5.3);
``aggregate`` -> ``{requirement_id, strategy, covered, provenance_ok, item_count,
fields, sources_used, fallback_used}`` (+ ``last_leaf``); ``contradictions``
-> ``{claim_count, numeric_tolerance, conflicts}``; ``deduce`` -> the evaluation
variables plus ``predicate``, ``metric``, ``metric_status`` and
``uncovered_requirements``; ``map`` -> ``{evaluation_variables}``.

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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from por.auditor import chunk_state as chunks
from por.auditor import step_io as io
from por.auditor.claim_extraction import (
    ExtractionWarning,
    extract_item,
    fields_for,
    requirement_for,
)
from por.auditor.deduce import deduce, summary_of
from por.auditor.logic_sanity import (
    check_requirement,
    coverage_findings,
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
from por.protocol.limits import CHECK_CHUNK_ITEMS

if TYPE_CHECKING:
    from por.auditor.step_io import (
        AggregateLike,
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
                           prior: StepLike | None = None) -> Built:
    """``check_requirement``, one chunk: admit or reject at most 10 of a
    requirement's items and carry the chain's running state on from ``prior``,
    the chunk before (SPEC §12.5.3)."""
    requirement = _requirement(prompt_spec, requirement_id)
    if len(items) > CHECK_CHUNK_ITEMS:
        raise AuditError(io.CITATION_MISMATCH, f"a check chunk reads at most "
                         f"{CHECK_CHUNK_ITEMS} items", actual=str(len(items)))
    for item in items:
        if item.requirement_id != requirement_id:
            raise AuditError(io.CITATION_MISMATCH,
                             f"{item.evidence_id} belongs to {item.requirement_id!r}",
                             expected=requirement_id, actual=item.requirement_id)
    state = chunks.initial_state() if prior is None else chunks.read_state(prior, requirement_id)
    if prior is not None and (not chunks.full_prior(state) or not items):
        raise AuditError(io.CITATION_MISMATCH, f"chunk {prior.step_id} is not followed by "
                         "a chunk: it holds fewer than 10 items or this one holds none")
    io.same_count(extract_steps, items)
    leaves = [chunks.leaf_of(s.step_id) for s in extract_steps]
    last = state.get("last_leaf", -1)
    for leaf in leaves:
        if leaf <= last:
            raise AuditError(io.CITATION_MISMATCH, "a chunk reads items in bundle order, "
                             "after the chunk before", actual=str(leaf))
        last = leaf
    claims = list(io.read_extracts(extract_steps, items))
    result = check_requirement(prompt_spec, requirement, items, claims)
    admitted = [a.admitted for a in result.items]
    sources = list(state["sources"])
    named = {s["source_id"] for s in sources}
    groups = list(state["groups"])
    claim_count = state["claim_count"]
    for item, step, found, ok in zip(items, extract_steps, claims, admitted, strict=True):
        if not ok:
            continue
        claim_count += len(found)
        chunks.add_claims(groups, found)
        if item.source.source_id not in named:
            named.add(item.source.source_id)
            sources.append({"source_id": item.source.source_id,
                            "evidence_id": item.evidence_id, "step_id": step.step_id})
    admitted_count = state["admitted_count"] + sum(admitted)
    covered = admitted_count > 0
    output: dict[str, Any] = {
        "requirement_id": requirement_id,
        "window": {"start": result.window_start, "end": result.window_end},
        "chunk": state["chunk"] + 1,
        "items": [a.to_value() for a in result.items],
        "item_count": state["item_count"] + len(items),
        "admitted_count": admitted_count, "covered": covered,
        "provenance_ok": covered or (state["provenance_ok"] and result.provenance_ok),
        "claim_count": claim_count, "sources": sources, "groups": groups,
    }
    if last >= 0:
        output["last_leaf"] = last
    if "last_leaf" in state:
        output["from_leaf"] = state["last_leaf"]
    return Built(_step(sid, "check",
                       f"check requirement {requirement_id} chunk {output['chunk']}: "
                       f"{sum(admitted)} of {len(items)} item(s) admitted",
                       inputs={"kind": io.KIND_CHECK, "requirement_id": requirement_id},
                       evidence_ids=[i.evidence_id for i in items],
                       prior_step_ids=io.step_ids(extract_steps, *(
                           () if prior is None else (prior.step_id,))),
                       output=output), functools.partial(requirement_findings, result))


def aggregate_step(prompt_spec: PromptSpec, sid: str, requirement_id: str, *,
                   check_step: StepLike, items: Sequence[EvidenceItem],
                   extract_steps: Sequence[ExtractLike]) -> Built:
    """``aggregate``: apply the selection policy to each field of one requirement,
    each source voting with its first admitted item (SPEC §12.5.4)."""
    requirement = _requirement(prompt_spec, requirement_id)
    state = chunks.read_state(check_step, requirement_id)
    io.same_count(extract_steps, items)
    named = [(s["evidence_id"], s["source_id"], s["step_id"]) for s in state["sources"]]
    cited = [(i.evidence_id, i.source.source_id, s.step_id)
             for i, s in zip(items, extract_steps, strict=True)]
    if named != cited:
        raise AuditError(io.CITATION_MISMATCH, f"aggregate {sid} does not cite exactly the "
                         "first admitted item of each source its check chunk names")
    by_key: dict[tuple[str, str], list[Candidate]] = {}
    for position, (item, step) in enumerate(zip(items, extract_steps, strict=True)):
        for claim in io.read_extract(step, item):
            found = by_key.setdefault((claim.key, claim.kind), [])
            if not found or found[-1].position != position:  # the item's first claim
                found.append(Candidate(position, item.evidence_id, item.source.source_id,
                                       item.provenance_tier, claim.claim_id, claim.value))
    policy = requirement.selection_policy
    targets = [t.source_id for t in requirement.source_targets]
    tolerance = parse_decimal(prompt_spec.conflict_policy.numeric_tolerance)
    selections = [select_field(f.key, f.kind, policy=policy, target_ids=targets,
                               candidates=by_key.get((f.key, f.kind), []), tolerance=tolerance)
                  for f in fields_for(requirement)]
    picked = {eid for s in selections for eid in s.evidence_ids}
    output: dict[str, Any] = {
        "requirement_id": requirement_id, "strategy": policy.strategy,
        "covered": state["covered"], "provenance_ok": state["provenance_ok"],
        "item_count": state["item_count"],
        "fields": [_with_votes(prompt_spec, s, by_key) for s in selections],
        "sources_used": [i.evidence_id for i in items if i.evidence_id in picked],
        "fallback_used": any(s.fallback_used for s in selections),
    }
    if "last_leaf" in state:
        output["last_leaf"] = state["last_leaf"]
    chosen = sum(1 for s in selections if s.status == SELECTED)
    findings = functools.partial(coverage_findings, requirement_id, state["admitted_count"],
                                 state["item_count"], state["covered"], state["provenance_ok"])
    return Built(_step(sid, "aggregate",
                       f"aggregate requirement {requirement_id} by {policy.strategy}: "
                       f"{chosen} of {len(selections)} field(s) selected",
                       inputs={"kind": io.KIND_AGGREGATE, "requirement_id": requirement_id},
                       evidence_ids=[i.evidence_id for i in items],
                       prior_step_ids=io.step_ids(extract_steps, check_step.step_id),
                       output=output), findings)


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


def contradictions_step(prompt_spec: PromptSpec, sid: str,
                        check_steps: Sequence[StepLike]) -> Built:
    """``contradictions``: merge the last check chunk of each requirement's chain
    (their contradiction groups), in requirement order (SPEC §12.5.5)."""
    requirements = prompt_spec.data_requirements
    if len(check_steps) != len(requirements):
        raise AuditError(io.CITATION_MISMATCH, "contradictions must cite one check chunk per "
                         "requirement", expected=str(len(requirements)),
                         actual=str(len(check_steps)))
    states = [chunks.read_state(step, requirement.requirement_id)
              for step, requirement in zip(check_steps, requirements, strict=True)]
    tolerance = prompt_spec.conflict_policy.numeric_tolerance
    results = chunks.conflicts_of(chunks.merge_groups([s["groups"] for s in states]),
                                  parse_decimal(tolerance))
    claim_count = sum(s["claim_count"] for s in states)
    conflicts = [{"check_id": r.check_id, **(r.details or {})} for r in results]
    output = {"claim_count": claim_count, "numeric_tolerance": tolerance,
              "conflicts": conflicts}
    return Built(_step(sid, "check",
                       f"contradiction check over {claim_count} claim(s): "
                       f"{len(conflicts)} conflict(s)",
                       inputs={"kind": io.KIND_CONTRADICTIONS}, evidence_ids=[],
                       prior_step_ids=[s.step_id for s in check_steps],
                       output=output), tuple(results))


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
        extracts, chain = _split(priors, [io.KIND_EXTRACT, io.KIND_CHECK])
        if len(chain) > 1:
            raise AuditError(io.CITATION_MISMATCH, "a check chunk cites one chunk before it")
        built = check_requirement_step(prompt_spec, sid, rid, _cards(extracts, step),
                                       extracts, prior=chain[0] if chain else None)
    elif kind == io.KIND_AGGREGATE:
        extracts, checks = _split(priors, [io.KIND_EXTRACT, io.KIND_CHECK])
        if len(checks) != 1:
            raise AuditError(io.CITATION_MISMATCH, "an aggregate cites one check step")
        built = aggregate_step(prompt_spec, sid, rid, check_step=checks[0],
                               items=_cards(extracts, step),
                               extract_steps=extracts)
    elif kind == io.KIND_CONTRADICTIONS:
        if step.evidence_ids:
            raise AuditError(io.CITATION_MISMATCH, "a contradictions step cites no item")
        (checks,) = _split(priors, [io.KIND_CHECK])
        built = contradictions_step(prompt_spec, sid, checks)
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
