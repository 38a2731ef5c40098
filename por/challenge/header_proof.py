"""Header proofs (SPEC §10.2.6): the trace header is derived from committed inputs.

``replay.trace_header``: the header's ``trace_id`` is a function of the
bundle's ``prompt_spec_hash``, ``evidence_root`` and ``evidence_count``, its
``policy`` of the evidence count and the PromptSpec's requirements (SPEC
§12.5, §12.6), its ``market_id`` is the PromptSpec's.  A HeaderProof carries
the seven component leaves (as a BundleProof, so the header's hash and the
evidence root and size are bound to ``por_root``), the header bytes and the
PromptSpec's inclusion proof: no evidence leaf (ADR 0011), so its size does
not grow with the bundle.  The checker recomputes the header (``step_count``
kept as committed: the BundleProof checks it against the reasoning size) and
compares bytes.  Outcomes: ``won`` ``header.mismatch`` (with field diffs) or
``one_step.invalid_record``; ``lost`` ``header.match``.
"""

from __future__ import annotations

from typing import Any

from por.bundle.layout import COMPONENT_INDEX, Bundle
from por.challenge.batch import ComponentTree
from por.challenge.proofs import (
    require_por_root,
    verify_challenge_id,
    verify_parts,
)
from por.challenge.records import HeaderProof, seal
from por.challenge.report import ChallengeOutcome, InclusionCheck, won_by_differences
from por.errors import PorError, ProofError
from por.merkle import leaf_hash, leaf_hashes, root_from_leaf_hashes
from por.schemas import PromptSpec, TraceHeader


def build_header_proof(bundle: Bundle) -> HeaderProof:
    """The HeaderProof of ``bundle`` (``proof.leaf_path`` for a corrupted copy)."""
    commitments = bundle.commitments
    body = {
        "schema": HeaderProof.SCHEMA, "kind": "por_bundle", "por_root": commitments.por_root,
        "component_leaves": commitments.component_leaves(),
        "trace_header": bytes(bundle.trace_header),
        "prompt_spec": ComponentTree("prompt_spec", [bundle.prompt_spec],
                                     commitments).proof(0).to_dict(),
    }
    proof: HeaderProof = seal(HeaderProof, body)
    return proof


def verify_header_proof(proof: HeaderProof, *, por_root: bytes | None = None,
                        checks: list[InclusionCheck] | None = None) -> ChallengeOutcome:
    """Verify the component leaves, the header hash and the PromptSpec; recompute."""
    sink = checks if checks is not None else []
    require_por_root(proof.por_root, por_root)
    calculated = root_from_leaf_hashes(leaf_hashes(proof.component_leaves))
    if calculated != proof.por_root:
        raise ProofError("proof.component_leaves", "the component leaves do not hash to "
                         "por_root", committed=proof.por_root, recomputed=calculated)
    want = proof.component_leaves[COMPONENT_INDEX["trace_header"]][:32]
    if leaf_hash(proof.trace_header) != want:
        raise ProofError("proof.record_hash", "the trace_header record is not the committed "
                         "trace_header", committed=want,
                         recomputed=leaf_hash(proof.trace_header))
    verify_parts([("prompt_spec", proof.prompt_spec, "prompt_spec")], proof.por_root, sink)
    verify_challenge_id(proof, "header")
    evidence_leaf = proof.component_leaves[COMPONENT_INDEX["evidence"]]
    evidence_root, size = evidence_leaf[:32], int.from_bytes(evidence_leaf[32:], "big")
    base: dict[str, Any] = {"committed_leaf_hash": want}
    current = "trace_header"
    try:
        header = TraceHeader.from_cbor(proof.trace_header)
        current = "prompt_spec"
        spec = PromptSpec.from_cbor(proof.prompt_spec.leaf)
    except (PorError, ValueError) as exc:
        cause = exc.check_id if isinstance(exc, PorError) else "schema.value"
        return ChallengeOutcome("won", "one_step.invalid_record", f"committed {current} is "
                                f"not valid: {getattr(exc, 'message', str(exc))[:200]}",
                                cause=cause, **base)
    from por.auditor.agent import trace_id_for  # noqa: PLC0415 - the auditor loads late
    from por.auditor.trace_policy import lean_policy_for  # noqa: PLC0415

    policy = lean_policy_for(size, len(spec.data_requirements)).to_model()
    expected = TraceHeader(trace_id=trace_id_for(leaf_hash(proof.prompt_spec.leaf),
                                                 evidence_root, size),
                           market_id=spec.market.market_id, policy=policy,
                           step_count=header.step_count)
    result = {**base, "recomputed_leaf_hash": leaf_hash(expected.to_cbor()),
              "recomputed": expected.to_json_obj()}
    if expected.to_cbor() == proof.trace_header:
        return ChallengeOutcome("lost", "header.match", "the trace header is the one its "
                                "committed inputs give", **result)
    return won_by_differences("header.mismatch", "the trace header is not the one its "
                              "committed inputs give", header.to_json_obj(),
                              expected.to_json_obj(), **result)


__all__ = ["build_header_proof", "verify_header_proof"]
