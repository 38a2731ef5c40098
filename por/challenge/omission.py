"""Omission proofs (SPEC §10.2.4, §10.5.1): a requirement's item its check step leaves out.

Inclusion proves presence, never absence, so a one-step proof cannot show that
a ``check_requirement`` step cites *fewer* items than its requirement has:
re-executed on what it cites, such a step is right.  But the auditor's rule
(SPEC §12.5) fixes what that step must cite: every committed evidence item
whose ``requirement_id`` is the step's requirement, in bundle order.  So one
committed item of that requirement that the step does not cite is a
self-contained proof of omission: two inclusion proofs (the step, the item's
extract step, whose ``output`` names the item's id and requirement and whose leaf
index is the item's) under the same ``por_root`` (``por.OmissionProof/2``).  An
honest bundle has no such item, so an omission challenge against an honest bundle
is always lost.

The same record proves a broken *position*: the auditor commits one
``extract_claims`` step per item first, so step leaf i (i < n) must extract
evidence leaf i; a proof whose two leaves have the same index i and whose step
is not that extract is won (``omission.extract_position``).  This catches a
step citing an id no leaf carries, or items dropped from the trace.

Since ADR 0011 stage 3 a requirement's items are read by a chain of check
chunks of 10 (SPEC §12.5.3): the step is a chunk, and the item is omitted when
it lies in the chunk's span (after its ``from_leaf``; before its ``last_leaf`` or
anywhere after in a chunk of fewer than 10 items) and is not cited, or the step
is the requirement's aggregate and the item lies after its ``last_leaf`` (the
chain ended early) -- :func:`omits`.

Outcomes: ``won`` ``omission.uncited_item``, ``omission.extract_position``;
``won`` ``one_step.invalid_record``
(a carried leaf that is not a valid record); ``lost`` ``omission.not_a_check``
(the step is neither a check chunk nor an aggregate), ``omission.other_requirement``
(the item belongs to another requirement), ``omission.cited`` or
``omission.other_chunk`` (another chunk reads it).

Leaves out: one-step re-execution (``one_step``).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from operator import itemgetter
from typing import Any

import cbor2

from por.bundle.layout import Bundle
from por.challenge.batch import ComponentTree
from por.challenge.citations import extract_view
from por.challenge.proofs import (
    require_por_root,
    verify_challenge_id,
    verify_parts,
)
from por.challenge.records import OmissionProof, seal
from por.challenge.report import ChallengeOutcome, InclusionCheck
from por.challenge.step_leaf import step_value
from por.errors import PorError, ProofError
from por.merkle import leaf_hash
from por.schemas import EvidenceItem, ReasoningStep

#: ``inputs.kind`` of the steps whose citations the auditor fixes (SPEC §12.5).
CHECK_KIND = "check_requirement"
AGGREGATE_KIND = "aggregate"
EXTRACT_KIND = "extract_claims"
#: Items one check chunk reads (SPEC §12.5.3).
CHUNK = 10


def _leaf(output: Any, key: str) -> int | None:
    value = output.get(key) if type(output) is dict else None
    return value if type(value) is int else None


def omits(kind: Any, output: Any, evidence_ids: Any, evidence_id: Any, leaf: int) -> bool:
    """SPEC §10.2.4 rule 1 for an item of the step's requirement at evidence leaf
    ``leaf``: a check chunk that should cite it (after its ``from_leaf``, and before
    its ``last_leaf`` or in a chunk of fewer than 10 items) and does not, or the
    requirement's aggregate with the item after its ``last_leaf``."""
    cited = evidence_ids if isinstance(evidence_ids, list) else []
    if kind == CHECK_KIND:
        after = _leaf(output, "from_leaf")
        last = _leaf(output, "last_leaf")
        return (evidence_id not in cited and (after is None or leaf > after)
                and (len(cited) < CHUNK or (last is not None and leaf < last)))
    if kind == AGGREGATE_KIND:
        last = _leaf(output, "last_leaf")
        return last is None or leaf > last
    return False


def omitted_item(bundle: Bundle, step_index: int) -> int | None:
    """Leaf index of the first committed item of the step's requirement that the
    step does not cite, or None (the step is not a check step, or omits nothing)."""
    if not 0 <= step_index < len(bundle.steps):
        return None
    try:
        step = ReasoningStep.from_cbor(bundle.steps[step_index])
    except PorError:
        return None
    requirement = step.inputs.get("requirement_id")
    kind = step.inputs.get("kind")
    if kind not in (CHECK_KIND, AGGREGATE_KIND) or not isinstance(requirement, str):
        return None
    for index, blob in enumerate(bundle.evidence):
        try:  # cbor2's C decoder (as one_step.positions_of); the checker decodes strictly
            value = cbor2.loads(blob)
        except Exception:  # noqa: S112 - unreadable leaf: no requirement
            continue
        if (type(value) is dict and value.get("requirement_id") == requirement
                and omits(kind, step.output, step.evidence_ids, value.get("evidence_id"),
                          index)):
            return index
    return None


def omissions(bundle: Bundle) -> list[tuple[int, int]]:
    """Every (step leaf, evidence leaf) pair an OmissionProof can be won with, in step
    order, found in one pass over each component (SPEC §10.2.4):

    * position: step leaf i (i < n) is not the ``extract_claims`` step citing
      exactly evidence leaf i's id: the pair (i, i);
    * a check chunk or aggregate that omits an item of its requirement
      (:func:`omits`): the step and the first such item.
    """
    by_requirement: dict[str, list[tuple[int, Any]]] = {}
    ids: dict[int, Any] = {}
    for index, blob in enumerate(bundle.evidence):
        try:  # cbor2's C decoder (as one_step.positions_of); the checker decodes strictly
            value = cbor2.loads(blob)
        except Exception:  # noqa: S112 - unreadable leaf: no requirement
            continue
        if type(value) is dict and isinstance(value.get("requirement_id"), str):
            by_requirement.setdefault(value["requirement_id"], []).append(
                (index, value.get("evidence_id")))
            ids[index] = value.get("evidence_id")
    found = []
    for step_index, blob in enumerate(bundle.steps):
        value = step_value(blob)  # under the step item cap (SPEC §17.1)
        inputs = value.get("inputs") if type(value) is dict else None
        kind = inputs.get("kind") if type(inputs) is dict else None
        cited = value.get("evidence_ids") if type(value) is dict else None
        if step_index in ids and (kind != EXTRACT_KIND or cited != [ids[step_index]]):
            found.append((step_index, step_index))
            continue
        if kind == EXTRACT_KIND and step_index >= len(bundle.evidence) and ids:
            found.append((step_index, min(ids)))  # an extract past the last item
            continue
        if kind not in (CHECK_KIND, AGGREGATE_KIND) or type(inputs) is not dict:
            continue
        output = value.get("output") if type(value) is dict else None
        item = _first_omitted(kind, output, cited,
                              by_requirement.get(str(inputs.get("requirement_id")), []))
        if item is not None:
            found.append((step_index, item))
    return found


def _first_omitted(kind: Any, output: Any, cited: Any,
                   items: list[tuple[int, Any]]) -> int | None:
    """The first of ``items`` (a requirement's (evidence leaf, id) pairs, in leaf
    order) that the step :func:`omits`, reading only the span it can omit: the
    items after its ``from_leaf`` (check) or ``last_leaf`` (aggregate), up to a full
    chunk's ``last_leaf``.  Each step costs a search and the items of its span, so
    one pass over the trace is linear in its size, not steps x items (issue 22)."""
    after = _leaf(output, "from_leaf" if kind == CHECK_KIND else "last_leaf")
    start = 0 if after is None else bisect_right(items, after, key=itemgetter(0))
    listed = cited if isinstance(cited, list) else []
    end = len(items)
    if kind == CHECK_KIND and len(listed) >= CHUNK:
        last = _leaf(output, "last_leaf")
        end = start if last is None else bisect_left(items, last, key=itemgetter(0))
    texts = {entry for entry in listed if type(entry) is str}
    for index, evidence_id in items[start:end]:
        if type(evidence_id) is str and kind == CHECK_KIND and evidence_id in texts:
            continue  # cited: the only case omits would say False in this span
        if omits(kind, output, cited, evidence_id, index):
            return index
    return None


def _extracts(bundle: Bundle, index: int) -> bool:
    """Step leaf ``index`` is the extract step of evidence leaf ``index`` (its id and
    requirement as the item's), so an OmissionProof can carry it instead of the item."""
    if not 0 <= index < min(len(bundle.steps), len(bundle.evidence)):
        return False
    try:
        step = ReasoningStep.from_cbor(bundle.steps[index])
        item = EvidenceItem.from_cbor(bundle.evidence[index])
    except PorError:
        return False
    return extract_view(step, index) == (item.evidence_id, item.requirement_id)


def build_omission_proof(bundle: Bundle, step_index: int,
                         evidence_index: int | None = None) -> OmissionProof:
    """The OmissionProof of step ``step_index`` and item ``evidence_index`` (default:
    :func:`omitted_item`): the item's extract step (step leaf ``evidence_index``) when it
    is the item's, else the item (the position rules 2-3 read the item itself).
    ``ProofError('proof.no_omission')`` when there is none."""
    index = omitted_item(bundle, step_index) if evidence_index is None else evidence_index
    if index is None:
        raise ProofError("proof.no_omission", f"step leaf {step_index} is not a "
                         f"{CHECK_KIND} step that omits an item of its requirement")
    commitments = bundle.commitments
    steps = ComponentTree("reasoning_leaf", bundle.steps, commitments)
    if index != step_index and _extracts(bundle, index):
        item = steps.proof(index)
    else:
        item = ComponentTree("evidence_leaf", bundle.evidence, commitments).proof(index)
    body = {"schema": OmissionProof.SCHEMA, "kind": "reasoning_leaf",
            "por_root": commitments.por_root, "step": steps.proof(step_index).to_dict(),
            "evidence": item.to_dict()}
    proof: OmissionProof = seal(OmissionProof, body)
    return proof


def verify_omission_proof(proof: OmissionProof, *, por_root: bytes | None = None,
                          checks: list[InclusionCheck] | None = None) -> ChallengeOutcome:
    """Verify both inclusions and decide (module docstring); raise when the proof
    itself is invalid (``proof.*``/``merkle.*``)."""
    sink = checks if checks is not None else []
    require_por_root(proof.por_root, por_root)
    carried = proof.evidence.kind if proof.evidence.kind == "reasoning_leaf" else "evidence_leaf"
    verify_parts((("step", proof.step, "reasoning_leaf"),
                  ("evidence", proof.evidence, carried)), proof.por_root, sink)
    verify_challenge_id(proof, "omission")
    base: dict[str, Any] = {"committed_leaf_hash": leaf_hash(proof.step.leaf)}
    current = "step"
    try:
        step = ReasoningStep.from_cbor(proof.step.leaf)
        current = "evidence"
        if carried == "reasoning_leaf":
            extract = ReasoningStep.from_cbor(proof.evidence.leaf)
        else:
            item = EvidenceItem.from_cbor(proof.evidence.leaf)
    except PorError as exc:
        return ChallengeOutcome("won", "one_step.invalid_record", f"committed {current} leaf "
                                f"is not a valid record: {exc.message}", cause=exc.check_id,
                                **base)
    if carried == "reasoning_leaf":
        return _by_extract(proof, step, extract, base)
    requirement = step.inputs.get("requirement_id")
    kind = step.inputs.get("kind")
    if item.requirement_id == requirement and omits(
            kind, step.output, step.evidence_ids, item.evidence_id, proof.evidence.leaf_index):
        return _uncited(step, item.evidence_id, proof.evidence.leaf_index, base)
    if (step.inputs.get("kind") == EXTRACT_KIND
            and proof.step.leaf_index >= proof.evidence.tree_size):
        return ChallengeOutcome("won", "omission.extract_position", f"step leaf "
                                f"{proof.step.leaf_index} ({step.step_id}) is an "
                                f"{EXTRACT_KIND} step, but only the first "
                                f"{proof.evidence.tree_size} step leaves extract (one per "
                                "evidence leaf)", step_id=step.step_id, **base)
    if proof.step.leaf_index == proof.evidence.leaf_index:
        # Position rule (SPEC §12.5): step leaf i < n extracts evidence leaf i.
        if step.inputs.get("kind") == EXTRACT_KIND and step.evidence_ids == [item.evidence_id]:
            return ChallengeOutcome("lost", "omission.cited", f"{step.step_id} extracts "
                                    f"{item.evidence_id}", step_id=step.step_id, **base)
        return ChallengeOutcome("won", "omission.extract_position", f"step leaf "
                                f"{proof.step.leaf_index} ({step.step_id}) must be the "
                                f"{EXTRACT_KIND} step of evidence leaf "
                                f"{proof.evidence.leaf_index} ({item.evidence_id}); it is "
                                f"{step.inputs.get('kind')} citing "
                                f"{','.join(step.evidence_ids)[:120] or 'nothing'}",
                                step_id=step.step_id, **base)
    return _lost(step, item.evidence_id, item.requirement_id, proof.evidence.leaf_index, base)


def _lost(step: ReasoningStep, evidence_id: str, item_requirement: str, leaf: int,
          base: dict[str, Any]) -> ChallengeOutcome:
    """Rule 4: why the item is not one the step leaves out (lost)."""
    requirement, kind = step.inputs.get("requirement_id"), step.inputs.get("kind")
    if kind not in (CHECK_KIND, AGGREGATE_KIND):
        return ChallengeOutcome("lost", "omission.not_a_check", f"{step.step_id} is not a "
                                f"{CHECK_KIND} or {AGGREGATE_KIND} step; its citations are "
                                "not fixed by the requirement", step_id=step.step_id, **base)
    if item_requirement != requirement:
        return ChallengeOutcome("lost", "omission.other_requirement", f"{evidence_id} "
                                f"belongs to {item_requirement!r}, {step.step_id} checks "
                                f"{requirement!r}", step_id=step.step_id, **base)
    if evidence_id in step.evidence_ids:
        return ChallengeOutcome("lost", "omission.cited", f"{step.step_id} cites "
                                f"{evidence_id}", step_id=step.step_id, **base)
    return ChallengeOutcome("lost", "omission.other_chunk", f"{evidence_id} (leaf {leaf}) "
                            f"is read by another chunk of {requirement!r} than "
                            f"{step.step_id}", step_id=step.step_id, **base)


def _by_extract(proof: OmissionProof, step: ReasoningStep, extract: ReasoningStep,
                base: dict[str, Any]) -> ChallengeOutcome:
    """Rule 1 on the item's extract step (its ``output.evidence_id`` and
    ``output.requirement_id``; its leaf index is the item's, rule 3), else rule 4."""
    view = extract_view(extract, proof.evidence.leaf_index)
    if view is None:
        raise ProofError("proof.citations", "evidence must be the extract_claims step at its "
                         "own leaf position citing its output.evidence_id",
                         required=f"step_{proof.evidence.leaf_index + 1:04d}",
                         found=extract.step_id[:80])
    evidence_id, item_requirement = view
    requirement, kind = step.inputs.get("requirement_id"), step.inputs.get("kind")
    leaf = proof.evidence.leaf_index
    if item_requirement == requirement and omits(kind, step.output, step.evidence_ids,
                                                 evidence_id, leaf):
        return _uncited(step, evidence_id, leaf, base)
    return _lost(step, evidence_id, item_requirement, leaf, base)


def _uncited(step: ReasoningStep, evidence_id: str, leaf: int,
             base: dict[str, Any]) -> ChallengeOutcome:
    return ChallengeOutcome("won", "omission.uncited_item", f"{step.step_id} "
                            f"({step.inputs.get('kind')}) of {step.inputs.get('requirement_id')} "
                            f"leaves out its committed item {evidence_id} (evidence leaf "
                            f"{leaf}); SPEC §10.2.4 rule 1: the chain of chunks reads every "
                            "item of the requirement", step_id=step.step_id, **base)


__all__ = ["CHECK_KIND", "build_omission_proof", "omissions", "omits", "omitted_item",
           "verify_omission_proof"]
