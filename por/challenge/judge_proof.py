"""Judge proofs (SPEC §10.2.5): re-run the judge on the committed trace, without the bundle.

A verdict that does not follow from a correct trace (``replay.verdict_mismatch``)
is one step too: the judge (SPEC §7) reads the PromptSpec, the final ``map``
step's evaluation variables and, of the items ``source_summary`` names, their
ids, requirements, provenance tiers and confidences, and nothing else that the
commitments do not already fix.  Those four are in each item's extract step
(its ``output.card``, SPEC §12.5.2), so a JudgeProof carries the extract steps,
never an item, each with its inclusion proof, plus the committed verdict; the
checker re-runs the judge and compares the verdict's decision
fields (market, outcome, confidence, rule, resolution time).  The reference
fields (hashes, roots, counts) are the BundleProof's business
(``commit.verdict_refs``) and are taken from the committed verdict.

The final step must be the last reasoning leaf (``leaf_index == tree_size -
1``, else the proof is invalid: ``proof.final_step``); an honest trace ends
with its ``map`` step, so a last leaf of another type wins
(``judge.final_step``).  Outcomes: ``won`` ``judge.mismatch`` (with field
diffs), ``judge.final_step``, ``one_step.invalid_record``; ``lost``
``judge.match``.  Leaves out: a ``source_summary`` naming an id no leaf
carries (absence; the builder refuses with ``proof.citation_missing``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from por.bundle.layout import Bundle
from por.challenge.batch import ComponentTree
from por.challenge.one_step import positions_of
from por.challenge.proofs import (
    require_por_root,
    verify_challenge_id,
    verify_parts,
)
from por.challenge.records import JudgeProof, seal
from por.challenge.report import ChallengeOutcome, InclusionCheck, won_by_differences
from por.errors import AuditError, PorError, ProofError
from por.merkle import leaf_hash
from por.schemas import (
    DeterministicVerdict,
    PromptSpec,
    ReasoningStep,
    ReasoningTrace,
    TracePolicy,
)

if TYPE_CHECKING:
    from por.auditor.step_io import Card

#: Verdict fields the judge decides; the others are references to the commitments.
_REFS = ("prompt_spec_hash", "evidence_root", "evidence_count", "reasoning_root",
         "reasoning_count")


def _summary(step: ReasoningStep) -> list[str]:
    variables = step.output.get("evaluation_variables")
    summary = variables.get("source_summary") if isinstance(variables, dict) else None
    if not isinstance(summary, list) or not all(isinstance(s, str) for s in summary):
        return []
    return [str(s) for s in summary]


def build_judge_proof(bundle: Bundle) -> JudgeProof:
    """The JudgeProof of ``bundle``.  ``ProofError``: ``proof.no_such_leaf`` (no
    steps), ``proof.step_record`` (the last leaf is not a step),
    ``proof.citation_missing`` (``source_summary`` names an id no leaf carries)."""
    commitments = bundle.commitments
    if not bundle.steps:
        raise ProofError("proof.no_such_leaf", "the bundle has no reasoning steps")
    last = len(bundle.steps) - 1
    steps = ComponentTree("reasoning_leaf", bundle.steps, commitments)
    final = steps.proof(last)
    try:
        step = ReasoningStep.from_cbor(final.leaf)
    except PorError as exc:
        raise ProofError("proof.step_record", f"step leaf {last} is not a ReasoningStep "
                         f"({exc.check_id}); challenge it by inclusion") from None
    wanted = list(dict.fromkeys(_summary(step)))
    found = positions_of(bundle.evidence, "evidence_id", set(wanted))
    missing = [w for w in wanted if w not in found]
    if missing:
        raise ProofError("proof.citation_missing", f"source_summary names evidence_id "
                         f"{missing[0][:80]!r}, which no committed leaf carries")
    body = {
        "schema": JudgeProof.SCHEMA, "kind": "verdict", "por_root": commitments.por_root,
        "verdict": ComponentTree("verdict", [bundle.verdict], commitments).proof(0).to_dict(),
        "prompt_spec": ComponentTree("prompt_spec", [bundle.prompt_spec],
                                     commitments).proof(0).to_dict(),
        "final_step": final.to_dict(),
        # The extract step of the item at evidence leaf j is reasoning leaf j (§12.5.1).
        "extract_steps": [steps.proof(found[w]).to_dict() for w in wanted],
    }
    proof: JudgeProof = seal(JudgeProof, body)
    return proof


def verify_judge_proof(proof: JudgeProof, *, por_root: bytes | None = None,
                       checks: list[InclusionCheck] | None = None) -> ChallengeOutcome:
    """Verify every inclusion, re-run the judge, compare (module docstring)."""
    sink = checks if checks is not None else []
    require_por_root(proof.por_root, por_root)
    parts = [("verdict", proof.verdict, "verdict"),
             ("prompt_spec", proof.prompt_spec, "prompt_spec"),
             ("final_step", proof.final_step, "reasoning_leaf"),
             *((f"extract_steps[{i}]", p, "reasoning_leaf")
               for i, p in enumerate(proof.extract_steps))]
    verify_parts(parts, proof.por_root, sink)
    verify_challenge_id(proof, "judge")
    final = proof.final_step
    if final.leaf_index != final.tree_size - 1:
        raise ProofError("proof.final_step", "final_step must be the last reasoning leaf",
                         required=final.tree_size - 1, found=final.leaf_index)
    base: dict[str, Any] = {"committed_leaf_hash": leaf_hash(proof.verdict.leaf)}
    current = "verdict"
    try:
        verdict = DeterministicVerdict.from_cbor(proof.verdict.leaf)
        current = "prompt_spec"
        spec = PromptSpec.from_cbor(proof.prompt_spec.leaf)
        current = "final_step"
        step = ReasoningStep.from_cbor(final.leaf)
        extracts = []
        for i, part in enumerate(proof.extract_steps):
            current = f"extract_steps[{i}]"
            extracts.append(ReasoningStep.from_cbor(part.leaf))
    except PorError as exc:
        return ChallengeOutcome("won", "one_step.invalid_record", f"committed {current} leaf "
                                f"is not a valid record: {exc.message}", cause=exc.check_id,
                                **base)
    wanted = list(dict.fromkeys(_summary(step)))
    read = _cards(proof, extracts, verdict.evidence_count)
    carried = [eid for eid, _ in read]
    if carried != wanted:
        raise ProofError("proof.citations", "extract_steps must be the extract steps (leaves "
                         "below evidence_count) of the items source_summary names, in order",
                         required=",".join(wanted)[:200], found=",".join(carried)[:200])
    if step.step_type != "map":
        return ChallengeOutcome("won", "judge.final_step", f"the last reasoning leaf "
                                f"({step.step_id}) is a {step.step_type} step; a trace ends "
                                "with its map step", step_id=step.step_id, **base)
    cards: list[Card] = []
    for n, (_, card) in enumerate(read):
        if isinstance(card, AuditError):
            return ChallengeOutcome("won", "one_step.invalid_record", f"committed "
                                    f"extract_steps[{n}] has no readable card: {card.message}",
                                    cause=card.check_id, **base)
        cards.append(card)
    return _rejudge(spec, step, cards, verdict, base)


def _cards(proof: JudgeProof, extracts: list[ReasoningStep],
           evidence_count: int) -> list[tuple[str, Card | AuditError]]:
    """Each carried extract step's ``output.evidence_id`` and card (SPEC §12.5.2), or
    the ``AuditError`` for a card that cannot be read; the id is ``""`` for a part
    that is not an extract step (``step_type`` ``extract``, an ``output.evidence_id``)
    at a leaf below ``evidence_count``, which makes the proof invalid."""
    from por.auditor.step_io import read_card  # noqa: PLC0415 - inclusion checks never load it

    out: list[tuple[str, Card | AuditError]] = []
    for part, extract in zip(proof.extract_steps, extracts, strict=True):
        eid = extract.output.get("evidence_id")
        if extract.step_type != "extract" or part.leaf_index >= evidence_count or \
                type(eid) is not str:
            out.append(("", AuditError("step.citation_mismatch", "not an extract step")))
            continue
        try:
            out.append((eid, read_card(extract)))
        except AuditError as exc:
            out.append((eid, exc))
    return out


class _Cards:
    """The items the judge reads, as cards (``judge_core``'s evidence container)."""

    def __init__(self, market_id: str, items: list[Card], root: bytes) -> None:
        self.market_id = market_id
        self.items = items
        self.root = root


def _rejudge(spec: PromptSpec, step: ReasoningStep, items: list[Card],
             verdict: DeterministicVerdict, base: dict[str, Any]) -> ChallengeOutcome:
    # Inclusion checks never load the judge.
    from por.judge.deterministic_mapping import judge_core  # noqa: PLC0415

    market = spec.market.market_id
    trace = ReasoningTrace(trace_id="trace_judge_proof", market_id=market,
                           policy=TracePolicy(max_steps=1), steps=[step])
    lean, _ = judge_core(spec, _Cards(market, items, verdict.evidence_root), trace)
    recomputed = lean.to_model().model_copy(
        update={f: getattr(verdict, f) for f in _REFS})
    result = {**base, "recomputed_leaf_hash": leaf_hash(recomputed.to_cbor()),
              "recomputed": recomputed.to_json_obj()}
    if recomputed.to_cbor() == verdict.to_cbor():
        return ChallengeOutcome("lost", "judge.match", "the verdict is what the judge gives "
                                "on the committed trace", **result)
    return won_by_differences("judge.mismatch", "the committed verdict is not what the "
                              "judge gives on the committed trace", verdict.to_json_obj(),
                              recomputed.to_json_obj(), **result)


__all__ = ["build_judge_proof", "verify_judge_proof"]
