"""Form proofs (SPEC §10.2.8; ADR 0017 §3): a committed form hash is not its record's.

A ``por.FormProof/1`` carries one record (the PromptSpec, a reasoning step or the
verdict) as an InclusionProof, the leaf hash committed for one of its chain forms
(SPEC §5.6) at ``form_index`` with its path in the ``forms`` tree, and the ``forms``
component leaf's path to ``por_root``.  The checker verifies both, checks that the
index is the record's (SPEC §5.4's forms order), recomputes ``F`` and compares.
Outcomes: ``won`` ``one_step.invalid_record`` (the record is not valid),
``form.none`` (it has no form), ``form.mismatch`` (the committed hash is not
``LH(F)``); ``lost`` ``form.match``.  Off chain only (stage 4 brings it on chain).
"""

from __future__ import annotations

from typing import Any

from por.bundle.layout import Bundle
from por.challenge.batch import ComponentTree
from por.challenge.proofs import require_por_root, verify_challenge_id, verify_parts
from por.challenge.records import LEAF_SCHEMA, FormProof, seal
from por.challenge.report import ChallengeOutcome, InclusionCheck
from por.container import POR_BUNDLE, component_path, root_from_component_path
from por.encoding import decode
from por.errors import PorError, ProofError
from por.forms import form_of
from por.merkle import leaf_hash, root_from_inclusion_proof
from por.merkle.tree import inclusion_proof_from_leaf_hashes
from por.schemas import DeterministicVerdict, PromptSpec, ReasoningStep

_RECORDS: dict[str, Any] = {"prompt_spec": PromptSpec, "reasoning_leaf": ReasoningStep,
                            "verdict": DeterministicVerdict}


def form_record(forms_size: int, steps: int, index: int) -> tuple[str, int]:
    """(ChallengeRef kind, leaf index) of the record form ``index`` is of (SPEC §5.4)."""
    r = forms_size - steps - 2
    if r < 0 or not 0 <= index < forms_size:
        raise ProofError("proof.form_index", f"no form {index} in a forms tree of "
                         f"{forms_size} for {steps} steps")
    if index <= r:
        return "prompt_spec", 0
    if index <= r + steps:
        return "reasoning_leaf", index - 1 - r
    return "verdict", 0


def build_form_proof(bundle: Bundle, index: int) -> FormProof:
    """The FormProof of carried form ``index`` of ``bundle`` (``proof.*`` for a
    corrupted copy or an index outside the forms)."""
    c = bundle.commitments
    forms = list(bundle.forms)
    kind, leaf_index = form_record(len(forms), len(bundle.steps), index)
    leaves = {"prompt_spec": [bundle.prompt_spec], "reasoning_leaf": list(bundle.steps),
              "verdict": [bundle.verdict]}[kind]
    body = {
        "schema": FormProof.SCHEMA, "kind": kind, "por_root": c.por_root,
        "record": ComponentTree(kind, leaves, c).proof(leaf_index).to_dict(),  # type: ignore[arg-type]
        "form_index": index, "forms_size": len(forms), "form_leaf": forms[index],
        "form_path": inclusion_proof_from_leaf_hashes(forms, index),
        "forms_root": c.forms_root, "forms_path": component_path(POR_BUNDLE, c, "forms"),
    }
    proof: FormProof = seal(FormProof, body)
    return proof


def verify_form_proof(proof: FormProof, *, por_root: bytes | None = None,
                      checks: list[InclusionCheck] | None = None) -> ChallengeOutcome:
    """SPEC §10.4.3: both inclusions, the id, the record's validity, the index, ``F``."""
    sink = checks if checks is not None else []
    require_por_root(proof.por_root, por_root)
    verify_parts([("record", proof.record, proof.kind)], proof.por_root, sink)
    root = root_from_inclusion_proof(proof.form_leaf, proof.form_index, proof.forms_size,
                                     proof.form_path)
    if root != proof.forms_root:
        raise ProofError("proof.leaf_path", "the form leaf hash does not lead to forms_root",
                         committed=proof.forms_root, recomputed=root)
    top = root_from_component_path(POR_BUNDLE, "forms", proof.forms_root, proof.forms_size,
                                   proof.forms_path)
    if top != proof.por_root:
        raise ProofError("proof.component_path", "the forms component leaf does not lead "
                         "to por_root", committed=proof.por_root, recomputed=top)
    verify_challenge_id(proof, "form")
    base: dict[str, Any] = {"committed_leaf_hash": proof.form_leaf}
    record = proof.record
    try:
        _RECORDS[proof.kind].from_cbor(record.leaf)
    except (PorError, ValueError) as exc:
        cause = exc.check_id if isinstance(exc, PorError) else "schema.value"
        return ChallengeOutcome("won", "one_step.invalid_record", f"the committed "
                                f"{LEAF_SCHEMA[proof.kind]} is not valid: "
                                f"{getattr(exc, 'message', str(exc))[:200]}", cause=cause,
                                **base)
    value = decode(record.leaf)
    _require_index(proof, value)
    requirement = proof.form_index - 1 if proof.kind == "prompt_spec" and \
        proof.form_index > 0 else None
    try:
        form = form_of(value, requirement)
    except PorError as exc:
        if exc.check_id != "form.none":
            raise
        return ChallengeOutcome("won", "form.none", f"form {proof.form_index}: its record "
                                f"has no chain form: {exc.message}"[:300], **base)
    recomputed = leaf_hash(form)
    if recomputed != proof.form_leaf:
        return ChallengeOutcome("won", "form.mismatch", f"form {proof.form_index}: the "
                                "committed leaf hash is not LH(F) of its record",
                                recomputed_leaf_hash=recomputed, **base)
    return ChallengeOutcome("lost", "form.match", f"form {proof.form_index} is LH(F) of its "
                            "record", recomputed_leaf_hash=recomputed, **base)


def _require_index(proof: FormProof, value: dict[str, Any]) -> None:
    """The form index is the record's (SPEC §5.4): COMMON or a REQUIREMENT of the
    PromptSpec (``<= r``), step ``i`` at ``1 + r + i``, the verdict last."""
    record, index, size = proof.record, proof.form_index, proof.forms_size
    if proof.kind == "prompt_spec":
        good = index <= len(value["data_requirements"]) and index < size
    elif proof.kind == "reasoning_leaf":
        good = index == 1 + (size - record.tree_size - 2) + record.leaf_index
    else:
        good = index == size - 1
    if not good:
        raise ProofError("proof.form_index", f"form {index} of {size} is not a form of this "
                         f"{proof.kind} record", found=index)


__all__ = ["build_form_proof", "form_record", "verify_form_proof"]
