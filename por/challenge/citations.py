"""Citation proofs (SPEC §10.2.7, §12.5.1): a step whose citations are not canonical.

Re-executing a step on its own citations (a one-step proof) cannot see that
the citations themselves are wrong: a ``check_requirement`` step citing its
items as ``[beta, alpha, gamma]`` recomputes to itself, yet it makes beta the
first candidate of a quorum and can flip the verdict (issue 22).  SPEC §12.5.1
therefore fixes one canonical form for every step's citations, and a step that
breaks it is a fault shown by the step alone or by the extract steps of one or two
cited items (``por.CitationProof/2``: an extract step's ``output.evidence_id`` and
``output.requirement_id`` and its leaf index, which is its item's, stand for the
item, so the proof does not grow with the item, ADR 0011 decision 2):

* ``one_step.citation_repeat``: an id cited twice (visible in the step);
* ``one_step.citation_order``: two adjacent citations out of order (step
  numbers are in the ids; evidence leaf indexes are shown by the two items'
  inclusion proofs);
* ``one_step.citation_set``: a citation count the step's kind forbids
  (visible in the step), a ``check_requirement`` step citing an item of
  another requirement, or a prior step that is not the extract step of the
  item cited at the same position (one item and its path);
* ``one_step.prior_order``: a prior step id that is malformed or not earlier.

The rules are pure functions of plain values (:func:`step_fault`,
:func:`pair_fault`, :func:`item_fault`), shared by the builder, the checker
and the test that the honest auditor satisfies them.  An item of the step's
requirement that a check step leaves out is an OmissionProof's
(``omission.uncited_item``, §10.2.4), not repeated here.

Leaves out: re-execution (``one_step``); a cited evidence id that no leaf
carries (absence needs a non-membership proof, SPEC §10.7).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from por.bundle.layout import Bundle
from por.challenge.batch import ComponentTree
from por.challenge.citation_s5 import StepView, aggregates_of, s5_fault, s5_leaves
from por.challenge.proofs import require_por_root, verify_challenge_id, verify_parts
from por.challenge.records import CitationProof, InclusionProof, seal
from por.challenge.report import ChallengeOutcome, InclusionCheck
from por.challenge.step_leaf import step_value
from por.errors import PorError, ProofError
from por.merkle import leaf_hash
from por.schemas import ReasoningStep, step_id, step_number

REPEAT = "one_step.citation_repeat"
ORDER = "one_step.citation_order"
SET = "one_step.citation_set"
PRIOR_ORDER = "one_step.prior_order"
#: The lost outcome: the carried citations break no rule of SPEC §12.5.1.
CANONICAL = "one_step.citations_canonical"

#: Kinds whose prior steps start with the extract steps of their cited items, in
#: the same order (SPEC §12.5.1 rule S3).
_EXTRACTS_FIRST = ("check_requirement", "aggregate")
#: Kinds whose last prior step is the step right before them (rule S2; a check
#: chunk too when it cites the chunk before it, SPEC §12.5.3).
_PREVIOUS_LAST = ("aggregate", "deduce", "map")
#: Items one check chunk reads (SPEC §12.5.3).
_CHUNK = 10


@dataclass(frozen=True)
class Fault:
    """A broken citation rule: the outcome reason and one line."""

    reason: str
    message: str


def step_fault(number: int, kind: Any, evidence_ids: Sequence[str],
               prior_step_ids: Sequence[str]) -> Fault | None:
    """The first rule the step alone breaks (SPEC §12.5.1 R1, R2, O1, S1, S2), else None.

    ``number`` is the step's own number (leaf index + 1).  O(k) for k citations.
    """
    seen: set[str] = set()
    for eid in evidence_ids:  # R1
        if eid in seen:
            return Fault(REPEAT, f"evidence {eid[:80]!r} is cited twice")
        seen.add(eid)
    previous = 0
    for sid in prior_step_ids:  # O1, R2
        got = step_number(sid)
        if got is None or got >= number:
            return Fault(PRIOR_ORDER, f"prior step {sid[:80]!r} is not an earlier step")
        if got == previous:
            return Fault(REPEAT, f"prior step {sid} is cited twice")
        if got < previous:
            return Fault(ORDER, f"prior step {sid} follows step_{previous:04d}: prior steps "
                         "must be in increasing step order")
        previous = got
    e, p = len(evidence_ids), len(prior_step_ids)
    want: str | None = None  # S1: the counts the kind fixes
    if kind == "extract_claims" and (e, p) != (1, 0):
        want = "one item and no prior step"
    elif kind == "check_requirement" and (e > _CHUNK or p not in (e, e + 1)):
        want = "at most 10 items, one extract step each, then the chunk before (if any)"
    elif kind == "aggregate" and p != e + 1:
        want = "one extract step per cited item, then the last check chunk"
    elif kind == "contradictions" and (e != 0 or p < 1):
        want = "no item and one check chunk per requirement"
    elif kind == "map" and p != 1:
        want = "exactly one prior step (the deduce step)"
    elif kind == "deduce" and p < 2:
        want = "the aggregate steps, then the contradictions step"
    if want is not None:
        return Fault(SET, f"a {kind} step cites {want}; it cites {e} item(s) and {p} prior "
                     "step(s)")
    chained = kind == "check_requirement" and p == e + 1
    if (kind in _PREVIOUS_LAST or chained) and prior_step_ids[-1] != step_id(number - 1):  # S2
        return Fault(SET, f"a {kind} step's last prior step is the step right before it "
                     f"({step_id(number - 1)}), not {prior_step_ids[-1][:80]}")
    return None


def pair_fault(first_id: str, first_index: int, second_id: str,
               second_index: int) -> Fault | None:
    """Two adjacent cited items (ids, evidence leaf indexes): O2, else None."""
    if first_index == second_index:
        return Fault(REPEAT, f"evidence leaf {first_index} is cited twice")
    if first_index > second_index:
        return Fault(ORDER, f"evidence {first_id[:80]!r} (leaf {first_index}) is cited "
                     f"before {second_id[:80]!r} (leaf {second_index}): evidence must be "
                     "in increasing leaf order")
    return None


def item_fault(kind: Any, requirement_id: Any, position: int, prior_step_ids: Sequence[str],
               *, item_index: int, item_requirement: str) -> Fault | None:
    """One cited item (at ``position`` in the step's evidence, at evidence leaf
    ``item_index``): S3 and S4, else None."""
    if kind in _EXTRACTS_FIRST and item_requirement != requirement_id:  # S4
        return Fault(SET, f"a {kind} step for {str(requirement_id)[:80]!r} cites "
                     f"an item of {item_requirement[:80]!r} (evidence leaf {item_index})")
    if kind in _EXTRACTS_FIRST and position < len(prior_step_ids) and (
            prior_step_ids[position] != step_id(item_index + 1)):  # S3
        return Fault(SET, f"prior step {position} must be {step_id(item_index + 1)}, the "
                     f"extract step of the item cited at position {position} (evidence "
                     f"leaf {item_index}), not {prior_step_ids[position][:80]}")
    return None


# --- finding and building --------------------------------------------------------------


@dataclass(frozen=True)
class _Index:
    """Cited items by id, read from their extract steps: the first extract step
    (leaf index = the item's evidence leaf index, §10.2.4 rule 3) and its requirement."""

    position: dict[str, int]
    requirement: dict[str, str]


def _evidence_index(bundle: Bundle) -> _Index:
    """One pass over the first n step leaves (:func:`step_value`, as
    ``one_step.positions_of``); the checker decodes every carried leaf strictly."""
    position: dict[str, int] = {}
    requirement: dict[str, str] = {}
    for index in range(min(len(bundle.evidence), len(bundle.steps))):
        found = _extract_fields(step_value(bundle.steps[index]), index + 1)
        if found is not None and found[0] not in position:
            position[found[0]] = index
            requirement[found[0]] = found[1]
    return _Index(position, requirement)


def _extract_fields(value: Any, number: int) -> tuple[str, str] | None:
    """(``output.evidence_id``, ``output.requirement_id``) of a decoded step map that
    is the ``extract_claims`` step ``step_{number:04d}`` citing exactly that id, else None."""
    if type(value) is not dict:
        return None
    inputs, output = value.get("inputs"), value.get("output")
    if (type(inputs) is not dict or type(output) is not dict
            or value.get("step_type") != "extract" or inputs.get("kind") != "extract_claims"
            or value.get("step_id") != step_id(number)):
        return None
    eid, rid = output.get("evidence_id"), output.get("requirement_id")
    if type(eid) is not str or type(rid) is not str or value.get("evidence_ids") != [eid]:
        return None
    return eid, rid


def extract_view(step: ReasoningStep, leaf_index: int) -> tuple[str, str] | None:
    """What a carried extract step shows of its item (SPEC §10.2.4, §10.2.7): its
    ``output.evidence_id`` and ``output.requirement_id``, when the step is the
    ``extract_claims`` step at its own position (``step_{leaf_index+1:04d}``, step type
    ``extract``) citing exactly that id; else None (``proof.citations``)."""
    return _extract_fields({"step_id": step.step_id, "step_type": step.step_type,
                            "inputs": step.inputs, "output": step.output,
                            "evidence_ids": list(step.evidence_ids)}, leaf_index + 1)


@dataclass(frozen=True)
class _Cited:
    """What the rules read from a step: its kind, requirement and two lists."""

    kind: Any
    requirement_id: Any
    evidence_ids: list[str]
    prior_step_ids: list[str]
    step_id: Any = None

    def view(self) -> StepView:
        """What rule S5 reads of the step."""
        return StepView(self.step_id, self.kind, self.requirement_id, self.prior_step_ids)


def _fault_leaves(step: _Cited, number: int, index: _Index) -> list[int] | None:
    """Evidence leaves a won CitationProof of ``step`` carries (0, 1 or 2), or None."""
    kind = step.kind
    if step_fault(number, kind, step.evidence_ids, step.prior_step_ids) is not None:
        return []
    where = [index.position.get(e) for e in step.evidence_ids]
    for k in range(len(where) - 1):
        a, b = where[k], where[k + 1]
        if a is not None and b is not None and pair_fault("", a, "", b) is not None:
            return [a, b]
    for k, (eid, at) in enumerate(zip(step.evidence_ids, where, strict=True)):
        if at is not None and item_fault(kind, step.requirement_id, k, step.prior_step_ids,
                                         item_index=at,
                                         item_requirement=index.requirement[eid]) is not None:
            return [at]
    return None


def _step_at(bundle: Bundle, step_index: int) -> _Cited | None:
    """The step's citations, read by :func:`step_value` (a whole trace is scanned
    when every other proof is lost; a leaf over the step item cap has no view: it
    differs from its replay, so its one-step or inclusion proof wins instead); None
    unless both lists are lists of text and ``inputs`` is a map.  The proof's checker
    decodes the step strictly."""
    value = step_value(bundle.steps[step_index])
    if type(value) is not dict:
        return None
    inputs, evidence, prior = (value.get("inputs"), value.get("evidence_ids"),
                               value.get("prior_step_ids"))
    if (type(inputs) is not dict or type(evidence) is not list or type(prior) is not list
            or not all(type(e) is str for e in evidence)
            or not all(type(p) is str for p in prior)):
        return None
    return _Cited(inputs.get("kind"), inputs.get("requirement_id"), evidence, prior,
                  value.get("step_id"))


def _views(bundle: Bundle) -> list[_Cited | None]:
    """Every step leaf's citations (None for an unreadable leaf)."""
    return [_step_at(bundle, n) for n in range(len(bundle.steps))]


class _S5:
    """Rule S5's reading of a bundle's steps (SPEC §10.2.7), built once on first use."""

    def __init__(self, views: Sequence[_Cited | None]) -> None:
        self.views = [v.view() if v is not None else None for v in views]
        self.aggregates = aggregates_of(self.views)

    def leaves(self, step: _Cited) -> list[int] | None:
        """[A, X] of a won S5 proof when ``step`` is a contradictions step, else None."""
        if step.kind != "contradictions":
            return None
        return s5_leaves(step.prior_step_ids, self.views, self.aggregates)


def citation_faults(bundle: Bundle) -> list[int]:
    """Leaf indexes of every step whose citations break SPEC §12.5.1 in a way a
    CitationProof shows, in step order (one pass over the evidence and one over
    the steps, and one over the steps per contradictions step for S5)."""
    index = _evidence_index(bundle)
    views = _views(bundle)
    s5: _S5 | None = None
    found = []
    for n, step in enumerate(views):
        if step is None:
            continue
        if _fault_leaves(step, n + 1, index) is not None:
            found.append(n)
        elif step.kind == "contradictions":
            s5 = s5 or _S5(views)
            if s5.leaves(step) is not None:
                found.append(n)
    return found


def build_citation_proof(bundle: Bundle, step_index: int) -> CitationProof:
    """The CitationProof of step leaf ``step_index``: the step and the extract steps
    of the 0-2 items that show its fault.  ``ProofError('proof.no_citation_fault')`` when its
    citations break no rule a CitationProof shows (or the leaf is no step)."""
    if type(step_index) is not int or not 0 <= step_index < len(bundle.steps):
        raise ProofError("proof.no_such_leaf", f"no reasoning_leaf leaf {step_index!r} among "
                         f"{len(bundle.steps)}")
    step = _step_at(bundle, step_index)
    leaves = None if step is None else _fault_leaves(step, step_index + 1,
                                                     _evidence_index(bundle))
    chain = None if step is None or leaves is not None else _S5(_views(bundle)).leaves(step)
    if leaves is None and chain is None:
        raise ProofError("proof.no_citation_fault", f"step leaf {step_index}'s citations "
                         "break no rule of SPEC §12.5.1 that a citation proof shows")
    commitments = bundle.commitments
    steps = ComponentTree("reasoning_leaf", bundle.steps, commitments)
    extracts: list[InclusionProof] = [steps.proof(at) for at in leaves or []]
    body: dict[str, Any] = {"schema": CitationProof.SCHEMA, "kind": "reasoning_leaf",
                            "por_root": commitments.por_root,
                            "step": steps.proof(step_index).to_dict(),
                            "extract_steps": [p.to_dict() for p in extracts]}
    if chain is not None:
        body["prior_steps"] = [steps.proof(at).to_dict() for at in chain]
    proof: CitationProof = seal(CitationProof, body)
    return proof


# --- checking ---------------------------------------------------------------------------


def _view(step: ReasoningStep) -> StepView:
    """What rule S5 reads of a carried step."""
    return StepView(step.step_id, step.inputs.get("kind"), step.inputs.get("requirement_id"),
                    step.prior_step_ids)


def verify_citation_proof(proof: CitationProof, *, por_root: bytes | None = None,
                          checks: list[InclusionCheck] | None = None) -> ChallengeOutcome:
    """Verify the parts and decide (SPEC §10.2.7); raise when the proof itself is
    invalid (``proof.*``/``merkle.*``).  Work: the parts' paths, one step decode,
    at most two extract-step decodes, one pass over the step's citations."""
    sink = checks if checks is not None else []
    # 1-3. Trusted root, every part under it, the id.
    require_por_root(proof.por_root, por_root)
    chain = proof.prior_steps or []
    verify_parts((("step", proof.step, "reasoning_leaf"),
                  *((f"extract_steps[{i}]", p, "reasoning_leaf")
                    for i, p in enumerate(proof.extract_steps)),
                  *((f"prior_steps[{i}]", p, "reasoning_leaf")
                    for i, p in enumerate(chain))), proof.por_root, sink)
    verify_challenge_id(proof, "citation")
    base: dict[str, Any] = {"committed_leaf_hash": leaf_hash(proof.step.leaf)}
    # 4. The carried records parse; a committed invalid record is a fault.
    current = "step"
    try:
        step = ReasoningStep.from_cbor(proof.step.leaf)
        extracts = []
        for i, part in enumerate(proof.extract_steps):
            current = f"extract_steps[{i}]"
            extracts.append(ReasoningStep.from_cbor(part.leaf))
        priors = []
        for i, part in enumerate(chain):
            current = f"prior_steps[{i}]"
            priors.append(ReasoningStep.from_cbor(part.leaf))
    except PorError as exc:
        return ChallengeOutcome("won", "one_step.invalid_record", f"committed {current} leaf "
                                f"is not a valid record: {exc.message}", cause=exc.check_id,
                                **base)
    base["step_id"] = step.step_id
    number = proof.step.leaf_index + 1
    if step.step_id != step_id(number):  # positional ids (SPEC §10.5 step 6)
        return ChallengeOutcome("won", "one_step.id_position", f"leaf {number - 1} must be "
                                f"{step_id(number)}, not {step.step_id}", **base)
    kind = step.inputs.get("kind")
    # 5. The step alone (R1, R2, O1, S1, S2).
    fault = step_fault(number, kind, step.evidence_ids, step.prior_step_ids)
    if chain and (extracts or kind != "contradictions"):
        raise ProofError("proof.citations", "prior_steps are carried only against a "
                         "contradictions step, without extract steps (S5)",
                         required="contradictions", found=str(kind)[:80])
    if fault is None and chain:  # 5b. S5: [aggregate A, cited chunk X]
        won = s5_fault(step.prior_step_ids, _view(priors[0]), chain[0].leaf_index,
                       _view(priors[1]), chain[1].leaf_index)
        fault = None if won is None else Fault(SET, won)
    # 6. The carried extract steps: two adjacent citations (O2) or one citation (S3, S4);
    # each stands for its item at evidence leaf = its own leaf index (§10.2.4 rule 3).
    if fault is None and extracts:
        items = []
        for i, (part, extract) in enumerate(zip(proof.extract_steps, extracts, strict=True)):
            view = extract_view(extract, part.leaf_index)
            if view is None:
                raise ProofError("proof.citations", f"extract_steps[{i}] must be the "
                                 "extract_claims step at its own leaf position citing its "
                                 "output.evidence_id", required=step_id(part.leaf_index + 1),
                                 found=extract.step_id[:80])
            items.append(view)
        cited = step.evidence_ids
        try:
            k = cited.index(items[0][0])
        except ValueError:
            k = -1
        if len(items) == 2:
            if k < 0 or k + 1 >= len(cited) or cited[k + 1] != items[1][0]:
                raise ProofError("proof.citations", "the two items must be cited next to "
                                 "each other, in this order",
                                 required=",".join(cited)[:200],
                                 found=f"{items[0][0]},{items[1][0]}"[:200])
            fault = pair_fault(items[0][0], proof.extract_steps[0].leaf_index,
                               items[1][0], proof.extract_steps[1].leaf_index)
        else:
            if k < 0:
                raise ProofError("proof.citations", "the item must be one the step cites",
                                 required=",".join(cited)[:200], found=items[0][0])
            fault = item_fault(kind, step.inputs.get("requirement_id"), k,
                               step.prior_step_ids,
                               item_index=proof.extract_steps[0].leaf_index,
                               item_requirement=items[0][1])
    if fault is not None:
        return ChallengeOutcome("won", fault.reason, f"{step.step_id}: {fault.message} "
                                "(SPEC §12.5.1)", **base)
    return ChallengeOutcome("lost", CANONICAL, f"{step.step_id}'s citations shown here are "
                            "canonical (SPEC §12.5.1)", **base)


__all__ = [
    "CANONICAL",
    "ORDER",
    "REPEAT",
    "SET",
    "Fault",
    "build_citation_proof",
    "citation_faults",
    "extract_view",
    "item_fault",
    "pair_fault",
    "step_fault",
    "verify_citation_proof",
]
