"""Challenges (SPEC §10): proofs a challenger can hand to anyone, checked without the bundle.

* :mod:`~por.challenge.records` -- the proof records (``por.InclusionProof/1``,
  ``por.BundleProof/1``, ``por.OneStepProof/1``) and the ``challenge_id`` rule;
* :mod:`~por.challenge.proofs` -- build and verify inclusion and bundle proofs;
* :mod:`~por.challenge.one_step` -- build a one-step proof and re-execute its step;
* :mod:`~por.challenge.citations` -- a step whose citations are not canonical
  (``por.CitationProof/2``, SPEC §10.2.7);
* :mod:`~por.challenge.refs` -- the proof that answers a verifier's ChallengeRef;
* :mod:`~por.challenge.check` -- ``check_proof`` (a report) and ``verify_proof``
  (raises) over proof bytes.

Pure: bytes and values in, records and reports out; no files, clock or printing.
"""

from por.challenge.check import check_proof, describe_leaf, verify_proof
from por.challenge.citations import (
    build_citation_proof,
    citation_faults,
    verify_citation_proof,
)
from por.challenge.header_proof import build_header_proof, verify_header_proof
from por.challenge.judge_proof import build_judge_proof, verify_judge_proof
from por.challenge.omission import build_omission_proof, omissions, verify_omission_proof
from por.challenge.one_step import Recompute, build_one_step_proof, verify_one_step_proof
from por.challenge.proofs import (
    build_bundle_proof,
    build_inclusion_proof,
    inclusion_proof_from_leaves,
    leaf_index_by_id,
    verify_bundle_proof,
    verify_inclusion_proof,
)
from por.challenge.records import (
    KIND_COMPONENT,
    LEAF_SCHEMA,
    PROOF_MAX_SIZE,
    BundleProof,
    CitationProof,
    HeaderProof,
    InclusionProof,
    JudgeProof,
    OmissionProof,
    OneStepProof,
    Proof,
    challenge_id_from_body,
    proof_from_cbor,
)
from por.challenge.refs import (
    CORRUPTED_COPY,
    NoProof,
    bundle_from_bytes,
    is_corrupted_copy,
    proof_file_name,
    proof_for_ref,
    winning_proof,
)
from por.challenge.report import (
    REPORT_SCHEMA,
    BundleCheck,
    ChallengeOutcome,
    Finding,
    InclusionCheck,
    LevelTrace,
    ProofReport,
)

__all__ = [
    "CORRUPTED_COPY",
    "KIND_COMPONENT",
    "LEAF_SCHEMA",
    "PROOF_MAX_SIZE",
    "REPORT_SCHEMA",
    "BundleCheck",
    "BundleProof",
    "ChallengeOutcome",
    "CitationProof",
    "Finding",
    "HeaderProof",
    "InclusionCheck",
    "InclusionProof",
    "JudgeProof",
    "LevelTrace",
    "NoProof",
    "OmissionProof",
    "OneStepProof",
    "Proof",
    "ProofReport",
    "Recompute",
    "build_bundle_proof",
    "build_citation_proof",
    "build_header_proof",
    "build_inclusion_proof",
    "build_judge_proof",
    "build_omission_proof",
    "build_one_step_proof",
    "bundle_from_bytes",
    "challenge_id_from_body",
    "check_proof",
    "citation_faults",
    "describe_leaf",
    "inclusion_proof_from_leaves",
    "is_corrupted_copy",
    "leaf_index_by_id",
    "omissions",
    "proof_file_name",
    "proof_for_ref",
    "proof_from_cbor",
    "verify_bundle_proof",
    "verify_citation_proof",
    "verify_header_proof",
    "verify_inclusion_proof",
    "verify_judge_proof",
    "verify_omission_proof",
    "verify_one_step_proof",
    "verify_proof",
    "winning_proof",
]
