"""One-step proofs (SPEC §10.2.3, §10.5): re-execute one reasoning step, nothing else.

As in fault-proof systems (Arbitrum, Optimism, Truebit), a dispute about a
long computation is narrowed to one step whose committed inputs are proven
and whose output is recomputed.  Here the step is a ReasoningStep; its inputs
are the committed PromptSpec, the evidence items it cites and the earlier
steps it cites, each with its inclusion proof.  The committed step is judged
alone: cited earlier steps are taken as committed, right or wrong (dispute
those with their own one-step proofs).

The step is re-executed by ``por.auditor.steps.recompute_step`` (or the
``recompute`` callable a caller passes).  Outcomes: ``won`` (the committed
step is wrong: the challenger wins) or ``lost`` (it is right: the bundle
stands), with one reason id and, for a differing step, field-level diffs.

Leaves out: facts a step could depend on without citing them (absence of
evidence cannot be shown with inclusion proofs; SPEC §10.7).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any

import cbor2

from por.bundle.layout import Bundle
from por.challenge.batch import ComponentTree, one_step_bytes, one_step_model
from por.challenge.diffs import field_diffs
from por.challenge.proofs import (
    require_por_root,
    verify_challenge_id,
    verify_parts,
)
from por.challenge.records import InclusionProof, OneStepProof
from por.challenge.report import ChallengeOutcome, InclusionCheck
from por.challenge.step_leaf import step_value
from por.errors import AuditError, PorError, ProofError, UnsupportedError
from por.gcpause import gc_paused
from por.merkle import leaf_hash
from por.schemas import EvidenceItem, PromptSpec, ReasoningStep, step_id

Recompute = Callable[
    [PromptSpec, ReasoningStep, Mapping[str, EvidenceItem], Mapping[str, ReasoningStep]],
    ReasoningStep,
]

#: The one step type whose one-step proof carries evidence items (SPEC §10.2.3).
EXTRACT_TYPE = "extract"

_STEP_FIELDS = ("schema", "step_id", "step_type", "description", "evidence_ids",
                "prior_step_ids", "inputs", "output")


def build_one_step_proof(bundle: Bundle, step_index: int) -> OneStepProof:
    """The OneStepProof for ``bundle.steps[step_index]`` (see :func:`_build`); the
    cyclic collector is paused (``por.gcpause``): 10^5 acyclic proofs otherwise
    make it rescan a growing heap."""
    with gc_paused():
        return _build(bundle, step_index)


def _build(bundle: Bundle, step_index: int) -> OneStepProof:
    """The OneStepProof for ``bundle.steps[step_index]``, in O(n + k log n).

    Each component tree is built once and checked once against the
    commitments (``por.challenge.batch``); every cited leaf's path is then read
    from it in O(log n), so a step citing k of n items costs one pass over the
    leaves plus O(log n) per citation (never a rebuild per leaf).

    Raises ``ProofError``: ``proof.no_such_leaf`` (index out of range),
    ``proof.step_record`` (the step leaf is not a ReasoningStep, so its
    citations are unknown: use an InclusionProof), ``proof.citation_missing``
    (the step cites an id no leaf carries: not provable by inclusion), and
    ``proof.leaf_path``/``proof.component_path`` when the records do not hash
    to the bundle's own commitments.
    """
    commitments = bundle.commitments
    if type(step_index) is not int or not 0 <= step_index < len(bundle.steps):
        raise ProofError("proof.no_such_leaf", f"no reasoning_leaf leaf {step_index!r} among "
                         f"{len(bundle.steps)}", required=f"0..{len(bundle.steps) - 1}",
                         found=str(step_index))
    try:  # before the tree and the leaf's proof: a leaf over the item cap costs its head
        step = ReasoningStep.from_cbor(bundle.steps[step_index])
    except PorError as exc:
        raise ProofError("proof.step_record", f"step leaf {step_index} is not a "
                         f"ReasoningStep ({exc.check_id}); challenge it by inclusion") from None
    steps = ComponentTree("reasoning_leaf", bundle.steps, commitments)
    step_proof = steps.proof(step_index)
    # Only an extract step reads its item; later steps read cards (SPEC §10.2.3).
    evidence = _cited(bundle.evidence, "evidence_id", carried_evidence(step),
                      lambda: ComponentTree("evidence_leaf", bundle.evidence, commitments))
    prior = _cited(bundle.steps, "step_id", step.prior_step_ids, lambda: steps,
                   read=step_value)
    spec = ComponentTree("prompt_spec", [bundle.prompt_spec], commitments).proof(0)
    data = one_step_bytes(commitments.por_root, step_proof.to_cbor(), spec.to_cbor(),
                          [p.to_cbor() for p in evidence], [p.to_cbor() for p in prior])
    return one_step_model(data, step_proof, spec, evidence, prior)


def carried_evidence(step: ReasoningStep) -> list[str]:
    """The evidence ids whose items a one-step proof of ``step`` carries: an
    ``extract`` step's, none for any other (SPEC §10.2.3; a step whose type and
    ``inputs.kind`` disagree cannot be executed, ``step.unknown_kind``)."""
    return list(step.evidence_ids) if step.step_type == EXTRACT_TYPE else []


def _cited(leaves: list[bytes], key: str, wanted: list[str],
           tree: Callable[[], ComponentTree], *,
           read: Callable[[bytes], Any] = cbor2.loads) -> list[InclusionProof]:
    """Inclusion proofs of the first leaf carrying each wanted id, in citation order.

    One pass over the leaves finds every position (:func:`positions_of`); the
    tree is built once; each proof then costs O(log n) plus its own leaf.
    """
    if not wanted:
        return []
    positions = positions_of(leaves, key, set(wanted), read=read)
    missing = [w for w in wanted if w not in positions]
    if missing:
        raise ProofError("proof.citation_missing", f"the step cites {key} "
                         f"{missing[0][:80]!r}, which no committed leaf carries (not "
                         "provable by inclusion)")
    built = tree()
    made: dict[int, InclusionProof] = {}
    for position in positions.values():
        made[position] = built.proof(position)
    return [made[positions[w]] for w in wanted]


def positions_of(leaves: list[bytes], key: str, wanted: set[str], *,
                 read: Callable[[bytes], Any] = cbor2.loads) -> dict[str, int]:
    """Position of the first leaf that decodes to a CBOR map carrying each wanted id.

    Located with cbor2's C decoder (about 7 us per leaf; the strict decoder
    costs 100+ us): the proof proves *bytes*, and the checker decodes every
    carried leaf strictly.  A leaf found here that is not a valid record
    makes the challenge won (``one_step.invalid_record``): a valid bundle
    never commits one (SPEC §10.2.3).  ``read``: the decoder (step leaves:
    :func:`~por.challenge.step_leaf.step_value`, under the step item cap).
    """
    found: dict[str, int] = {}
    loads = read
    for index, leaf in enumerate(leaves):
        try:
            value = loads(leaf)
        except Exception:  # noqa: S112 - unreadable leaf: it carries no id
            continue
        got = value.get(key) if type(value) is dict else None
        if type(got) is str and got in wanted and got not in found:
            found[got] = index
            if len(found) == len(wanted):
                break
    return found


def verify_one_step_proof(
    proof: OneStepProof,
    *,
    por_root: bytes | None = None,
    recompute: Recompute | None = None,
    checks: list[InclusionCheck] | None = None,
) -> ChallengeOutcome:
    """Verify every inclusion in ``proof``, re-execute the step, return the outcome.

    Raises ``ProofError``/``MerkleError`` when the proof itself is invalid (the
    numbered steps of SPEC §10.5), ``UnsupportedError`` when no auditor is
    available.  Inclusion checks are appended to ``checks`` as they run.
    """
    sink = checks if checks is not None else []
    # 1. The proof is about the trusted bundle.
    require_por_root(proof.por_root, por_root)
    # 2. Every part is an inclusion proof of the right kind under the same por_root.
    parts: list[tuple[str, InclusionProof, str]] = [
        ("step", proof.step, "reasoning_leaf"),
        ("prompt_spec", proof.prompt_spec, "prompt_spec"),
        *((f"evidence[{i}]", p, "evidence_leaf") for i, p in enumerate(proof.evidence)),
        *((f"prior_steps[{i}]", p, "reasoning_leaf") for i, p in enumerate(proof.prior_steps)),
    ]
    verify_parts(parts, proof.por_root, sink)
    # 3. The id names exactly this proof.
    verify_challenge_id(proof, "one-step")
    # 4. The committed records parse; a committed invalid record is a fault.
    index = proof.step.leaf_index
    records = _parse_records(proof)
    if isinstance(records, ChallengeOutcome):
        return records
    spec, step, evidence, prior = records
    # 5. The proof carries exactly what the step cites, in citation order.
    _require_citations("evidence", [e.evidence_id for e in evidence], carried_evidence(step))
    _require_citations("prior_steps", [s.step_id for s in prior], step.prior_step_ids)
    committed_hash = leaf_hash(proof.step.leaf)
    base: dict[str, Any] = {"step_id": step.step_id, "committed_leaf_hash": committed_hash}
    # 6. Position: step ids follow leaf order and cite earlier steps only (seed M06 §5.3, §11).
    if step.step_id != step_id(index + 1):
        return ChallengeOutcome("won", "one_step.id_position", f"leaf {index} must be "
                                f"{step_id(index + 1)}, not {step.step_id}", **base)
    for part in proof.prior_steps:
        if part.leaf_index >= index:
            return ChallengeOutcome("won", "one_step.prior_order", f"{step.step_id} cites leaf"
                                    f" {part.leaf_index}, which is not an earlier step",
                                    **base)
    # 7. Re-execute the step on its committed inputs and compare bytes.
    run = recompute if recompute is not None else _default_recompute()
    try:
        expected = run(spec, step, {e.evidence_id: e for e in evidence},
                       {s.step_id: s for s in prior})
    except AuditError as exc:
        return ChallengeOutcome("won", "one_step.unexecutable", f"the step cannot be "
                                f"executed on its inputs: {exc.message}", cause=exc.check_id,
                                **base)
    expected_bytes = expected.to_cbor()
    result = {**base, "recomputed_leaf_hash": leaf_hash(expected_bytes),
              "recomputed": expected.to_json_obj()}
    if expected_bytes == proof.step.leaf:
        return ChallengeOutcome("lost", "one_step.match",
                                f"{step.step_id} is what its inputs give", **result)
    want, got = expected.to_dict(), step.to_dict()
    differing = tuple(f for f in _STEP_FIELDS if want.get(f) != got.get(f))
    diffs = tuple(field_diffs(step.to_json_obj(), result["recomputed"]))
    first = f": {diffs[0].line()}" if diffs else ""
    return ChallengeOutcome("won", "one_step.mismatch", f"{step.step_id} differs from the "
                            f"recomputed step in {', '.join(differing) or 'encoding'}{first}",
                            differing_fields=differing, differences=diffs, **result)


def _parse_records(
    proof: OneStepProof,
) -> tuple[PromptSpec, ReasoningStep, list[EvidenceItem], list[ReasoningStep]] | ChallengeOutcome:
    """Parse every carried leaf; the first invalid one makes a ``won`` outcome."""
    committed_hash = leaf_hash(proof.step.leaf)
    current = "step"
    try:
        step = ReasoningStep.from_cbor(proof.step.leaf)
        current = "prompt_spec"
        spec = PromptSpec.from_cbor(proof.prompt_spec.leaf)
        evidence, prior = [], []
        for i, part in enumerate(proof.evidence):
            current = f"evidence[{i}]"
            evidence.append(EvidenceItem.from_cbor(part.leaf))
        for i, part in enumerate(proof.prior_steps):
            current = f"prior_steps[{i}]"
            prior.append(ReasoningStep.from_cbor(part.leaf))
    except PorError as exc:
        return ChallengeOutcome("won", "one_step.invalid_record", f"committed {current} leaf "
                                f"is not a valid record: {exc.message}", cause=exc.check_id,
                                committed_leaf_hash=committed_hash)
    return spec, step, evidence, prior


def _require_citations(role: str, carried: list[str], cited: list[str]) -> None:
    if carried != cited:
        raise ProofError("proof.citations", f"{role} must be the cited records in citation "
                         "order", required=",".join(cited)[:200],
                         found=",".join(carried)[:200])


def _default_recompute() -> Recompute:
    """``por.auditor.steps.recompute_step``, imported when first needed.

    Imported by name so that checking inclusion and bundle proofs never loads
    the auditor; a missing auditor is "no verdict" (exit 2), never a guess.
    """
    try:
        module = importlib.import_module("por.auditor.steps")
        recompute: Recompute = module.recompute_step
    except (ImportError, AttributeError):
        raise UnsupportedError("proof.auditor_unavailable",
                               "no auditor is available to re-execute the step") from None
    return recompute


__all__ = ["Recompute", "build_one_step_proof", "verify_one_step_proof"]
