"""Check any proof file without the bundle: ``check_proof`` (report) and ``verify_proof``.

Bytes in, a :class:`~por.challenge.report.ProofReport` out.  ``check_proof``
never raises for bad input.  One vocabulary (SPEC §10.6): a proof is
``valid`` or ``invalid`` (the first failing check id); a challenge is ``won``
(the committed data is wrong) or ``lost``.  Every valid proof carries an
outcome: a one-step proof re-executes its step, a bundle proof lists the
findings among the committed top-level records, an inclusion proof is won
iff its committed leaf is not a valid record of its kind.  Exit code: 0 won,
1 lost (an invalid proof is a lost challenge), 2 no verdict (an unsupported
proof schema, a missing auditor, an internal error).

Leaves out: files and printing (``por.cli.challenge_cmd``).
"""

from __future__ import annotations

from typing import Any

from por.challenge.citations import verify_citation_proof
from por.challenge.form_proof import verify_form_proof
from por.challenge.form_step import verify_form_step_proof
from por.challenge.header_proof import verify_header_proof
from por.challenge.judge_proof import verify_judge_proof
from por.challenge.omission import verify_omission_proof
from por.challenge.one_step import Recompute, verify_one_step_proof
from por.challenge.proofs import verify_bundle_proof, verify_inclusion_proof
from por.challenge.records import (
    BundleProof,
    CitationProof,
    FormProof,
    FormStepProof,
    HeaderProof,
    InclusionProof,
    JudgeProof,
    OmissionProof,
    OneStepProof,
    Proof,
    proof_from_cbor,
)
from por.challenge.report import (
    BundleCheck,
    ChallengeOutcome,
    FormCheck,
    InclusionCheck,
    ProofReport,
    Status,
    error_values,
)
from por.errors import PorError, ProofError, UnsupportedError
from por.gcpause import gc_paused
from por.schemas import (
    DeterministicVerdict,
    EvidenceItem,
    PromptSpec,
    ReasoningStep,
    step_id,
    step_number,
)


def check_proof(
    data: bytes,
    *,
    por_root: bytes | None = None,
    max_size: int | None = None,
    recompute: Recompute | None = None,
) -> ProofReport:
    """Decode and verify a proof (SPEC §10.4, §10.5); never raises for bad input.

    ``por_root``: the trusted root (from a signature or a chain), 32 bytes;
    without it the proof is checked against its own ``por_root`` field, which
    the caller must then compare with a root it trusts.
    """
    if por_root is not None and (not isinstance(por_root, bytes) or len(por_root) != 32):
        raise ValueError("por_root must be 32 bytes")
    # A one-step proof citing 10^5 items is 10^5 acyclic records: pause the cyclic
    # collector (por.gcpause), which would otherwise rescan the growing heap.
    with gc_paused():
        return _check(data, por_root, max_size, recompute)


def _check(data: bytes, por_root: bytes | None, max_size: int | None,
           recompute: Recompute | None) -> ProofReport:
    try:
        proof = proof_from_cbor(data, max_size=max_size)
    except PorError as exc:
        return _failed(exc)
    common: dict[str, Any] = {"schema": proof.SCHEMA, "kind": proof.kind,
                              "challenge_id": proof.challenge_id, "por_root": proof.por_root}
    inclusions: list[InclusionCheck] = []
    carried: list[FormCheck] = []  # a FormStepProof's forms
    bundle: BundleCheck | None = None
    outcome: ChallengeOutcome | None = None
    try:
        if isinstance(proof, InclusionProof):
            check = InclusionCheck(role="leaf", proof=proof)
            inclusions.append(check)
            verify_inclusion_proof(proof, por_root=por_root, check=check)
            check.leaf_record, check.leaf_id = describe_leaf(proof.kind, proof.leaf)
            outcome = _inclusion_outcome(proof, check.leaf_record, check.leaf_id)
        elif isinstance(proof, BundleProof):
            bundle = BundleCheck(tuple(proof.component_leaves))
            verify_bundle_proof(proof, por_root=por_root, check=bundle)
            outcome = _bundle_outcome(bundle)
        elif isinstance(proof, HeaderProof):
            outcome = verify_header_proof(proof, por_root=por_root, checks=inclusions)
        elif isinstance(proof, JudgeProof):
            outcome = verify_judge_proof(proof, por_root=por_root, checks=inclusions)
        elif isinstance(proof, OmissionProof):
            outcome = verify_omission_proof(proof, por_root=por_root, checks=inclusions)
        elif isinstance(proof, CitationProof):
            outcome = verify_citation_proof(proof, por_root=por_root, checks=inclusions)
        elif isinstance(proof, FormProof):
            outcome = verify_form_proof(proof, por_root=por_root, checks=inclusions)
        elif isinstance(proof, FormStepProof):
            outcome = verify_form_step_proof(proof, por_root=por_root, checks=carried)
        else:
            outcome = verify_one_step_proof(proof, por_root=por_root, recompute=recompute,
                                           checks=inclusions)
    except PorError as exc:
        return _failed(exc, common, [*inclusions, *carried], bundle)
    except Exception as exc:  # fail closed: any surprise is "no verdict"
        return ProofReport(status="error", check_id="internal.error",
                           message=f"internal error: {type(exc).__name__}: {exc}"[:500],
                           inclusions=(*inclusions, *carried), bundle=bundle, **common)
    return ProofReport(status="valid", check_id="proof.ok", message=_summary(proof),
                       inclusions=(*inclusions, *carried), bundle=bundle, outcome=outcome,
                       **common)


def verify_proof(data: bytes, **options: Any) -> ProofReport:
    """Like :func:`check_proof` but raise unless the proof is valid (won or lost).

    Raises ``UnsupportedError`` for an ``error`` report, else ``ProofError``
    with the report's check id (``merkle.*`` ids keep their text).
    """
    report = check_proof(data, **options)
    if report.status == "error":
        raise UnsupportedError(report.check_id, report.message, expected=report.expected,
                               actual=report.actual)
    if report.status != "valid":
        raise ProofError(report.check_id, report.message, committed=report.committed,
                         recomputed=report.recomputed, required=report.required,
                         found=report.found)
    return report


def describe_leaf(kind: str, leaf: bytes) -> tuple[str, str | None]:
    """``("ok", id)`` if ``leaf`` is a valid record of its kind, else ``(check_id, None)``.

    Informational: an inclusion proof proves bytes; a committed leaf that is
    not a valid record is itself a fault in the bundle (SPEC §10.4.1).
    """
    classes: dict[str, Any] = {"prompt_spec": PromptSpec, "evidence_leaf": EvidenceItem,
                               "reasoning_leaf": ReasoningStep,
                               "verdict": DeterministicVerdict}
    cls = classes[kind]
    try:
        record = cls.from_cbor(leaf)
    except PorError as exc:
        return exc.check_id, None
    if isinstance(record, EvidenceItem):
        return "ok", record.evidence_id
    if isinstance(record, ReasoningStep):
        return "ok", record.step_id
    if isinstance(record, PromptSpec):
        return "ok", record.market.market_id
    return "ok", record.market_id


def _bundle_outcome(bundle: BundleCheck) -> ChallengeOutcome:
    if bundle.findings:
        first = bundle.findings[0]
        return ChallengeOutcome("won", first.check_id, first.message)
    return ChallengeOutcome("lost", "bundle.consistent",
                            "the committed components and records agree")


def _inclusion_outcome(proof: InclusionProof, leaf_record: str | None,
                       leaf_id: str | None) -> ChallengeOutcome:
    """Won iff the committed leaf is not a valid record (SPEC §10.4.1), or is a
    reasoning step whose id is not the one its position fixes (``step_{i+1:04d}``,
    SPEC §10.5 step 6): a valid bundle never commits either.  Otherwise the proof
    shows presence only: lost."""
    where = f"{proof.kind} leaf {proof.leaf_index}"
    if leaf_record not in (None, "ok"):
        return ChallengeOutcome("won", "inclusion.invalid_record", f"committed {where} is "
                                f"not a valid record ({leaf_record})", cause=leaf_record)
    if proof.kind == "reasoning_leaf" and leaf_id != step_id(proof.leaf_index + 1):
        return ChallengeOutcome("won", "inclusion.id_position", f"committed {where} is "
                                f"{leaf_id}, but leaf {proof.leaf_index} must be "
                                f"{step_id(proof.leaf_index + 1)}", step_id=leaf_id)
    if proof.kind == "reasoning_leaf":
        step = ReasoningStep.from_cbor(proof.leaf)
        late = [p for p in step.prior_step_ids
                if (step_number(p) or proof.leaf_index + 1) > proof.leaf_index]
        if late:
            return ChallengeOutcome("won", "inclusion.prior_order", f"committed {where} "
                                    f"({step.step_id}) cites {late[0][:80]!r}, which is not "
                                    "the id of an earlier step", step_id=step.step_id)
    return ChallengeOutcome("lost", "inclusion.valid_record", f"committed {where} is a "
                            "valid record; an inclusion proof shows presence, not a fault")


def _summary(proof: Proof) -> str:
    if isinstance(proof, InclusionProof):
        return (f"{proof.kind} leaf {proof.leaf_index} of {proof.tree_size} is in the "
                f"{proof.component} tree under por_root")
    if isinstance(proof, HeaderProof):
        return ("the trace header, the PromptSpec and the evidence root and size are under "
                "por_root")
    if isinstance(proof, JudgeProof):
        return (f"the verdict, the PromptSpec, the last step (leaf "
                f"{proof.final_step.leaf_index}) and the extract steps of "
                f"{len(proof.extract_steps)} summarised items are under por_root")
    if isinstance(proof, OmissionProof):
        return (f"step leaf {proof.step.leaf_index} of {proof.step.tree_size} and "
                f"{proof.evidence.kind} {proof.evidence.leaf_index} of "
                f"{proof.evidence.tree_size} are under por_root")
    if isinstance(proof, CitationProof):
        if proof.prior_steps is not None:  # rule S5
            return (f"step leaf {proof.step.leaf_index} of {proof.step.tree_size}, an "
                    f"aggregate (leaf {proof.prior_steps[0].leaf_index}) and a check chunk "
                    f"(leaf {proof.prior_steps[1].leaf_index}) are under por_root")
        return (f"step leaf {proof.step.leaf_index} of {proof.step.tree_size} and "
                f"the extract steps of {len(proof.extract_steps)} of its cited items are "
                "under por_root")
    if isinstance(proof, FormProof):
        return (f"form {proof.form_index} of {proof.forms_size} and its {proof.kind} record "
                f"(leaf {proof.record.leaf_index} of {proof.record.tree_size}) are under "
                "por_root")
    if isinstance(proof, FormStepProof):
        return (f"{len(proof.forms)} forms the {proof.kind} executor reads (forms "
                f"{', '.join(map(str, proof.index[:8]))}{', ...' if len(proof.index) > 8 else ''}"
                f" of {proof.forms_size}) are under por_root")
    if isinstance(proof, OneStepProof):
        return (f"step leaf {proof.step.leaf_index} of {proof.step.tree_size} and its "
                f"{len(proof.evidence)} evidence and {len(proof.prior_steps)} prior-step "
                "citations are under por_root")
    return "the seven component leaves and the bundle records are under por_root"


def _failed(exc: PorError, common: dict[str, Any] | None = None,
            inclusions: list[InclusionCheck | FormCheck] | None = None,
            bundle: BundleCheck | None = None) -> ProofReport:
    status: Status = "error" if isinstance(exc, UnsupportedError) else "invalid"
    return ProofReport(status=status, check_id=exc.check_id, message=exc.message,
                       **error_values(exc),
                       inclusions=tuple(inclusions or ()), bundle=bundle, **(common or {}))


__all__ = ["check_proof", "describe_leaf", "verify_proof"]
