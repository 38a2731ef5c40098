"""From a verifier's ChallengeRef to the most specific proof a bundle supports (SPEC §10.1).

Preference order, most specific first (each falls back to the next when the
bundle cannot support it, e.g. a leaf that is not a valid record, a citation
no leaf carries, or records that do not hash to the commitments):

* ``reasoning_leaf`` with a leaf: OneStepProof, InclusionProof, BundleProof;
* ``evidence_leaf`` with a leaf, ``prompt_spec``, ``verdict``: InclusionProof,
  BundleProof;
* ``por_bundle``, or a leaf kind without a leaf index or id: BundleProof.

A bundle that supports none of them (its component leaves do not hash to its
committed ``por_root``) raises the BundleProof's ``proof.*`` error: nothing in
it can be proven against the root its signer committed to.

Leaves out: files (the CLI names and writes proofs).
"""

from __future__ import annotations

from por.bundle.layout import DEFAULT_BUNDLE_MAX_SIZE, Bundle
from por.bundle.limits import decode_bundle
from por.challenge.one_step import build_one_step_proof
from por.challenge.proofs import build_bundle_proof, build_inclusion_proof, leaf_index_by_id
from por.challenge.records import LeafKind, Proof
from por.errors import PorError, ProofError, SchemaError
from por.schemas.verification import ChallengeRef


def proof_for_ref(bundle: Bundle, ref: ChallengeRef) -> Proof:
    """The most specific proof of ``ref`` that ``bundle`` supports (see module doc)."""
    try:
        return _specific(bundle, ref)
    except PorError:
        return build_bundle_proof(bundle)


def _specific(bundle: Bundle, ref: ChallengeRef) -> Proof:
    kind = ref.kind
    if kind in ("prompt_spec", "verdict"):
        return build_inclusion_proof(bundle, kind)
    if kind == "evidence_leaf":
        index = _leaf_index(bundle, ref)
        return build_inclusion_proof(bundle, "evidence_leaf", index)
    if kind == "reasoning_leaf":
        index = _leaf_index(bundle, ref)
        try:
            return build_one_step_proof(bundle, index)
        except PorError:
            return build_inclusion_proof(bundle, "reasoning_leaf", index)
    return build_bundle_proof(bundle)


def _leaf_index(bundle: Bundle, ref: ChallengeRef) -> int:
    """The ref's leaf index, else the position of its evidence/step id."""
    if ref.leaf_index is not None:
        return ref.leaf_index
    record_id = ref.evidence_id if ref.kind == "evidence_leaf" else ref.step_id
    if record_id is None:
        # No leaf named: the dispute is about the commitments as a whole.
        raise ProofError("proof.no_such_leaf", "the challenge names no leaf")
    kind: LeafKind = "evidence_leaf" if ref.kind == "evidence_leaf" else "reasoning_leaf"
    return leaf_index_by_id(bundle, kind, record_id)


def bundle_from_bytes(data: bytes, *, max_size: int | None = None) -> Bundle:
    """Strictly decode ``bundle.cbor`` bytes into a Bundle (``codec.*``, ``schema.*``).

    Only the bundle map is validated: the records inside stay bytes, so a proof
    can still be built for a leaf that is not a valid record.
    """
    value = decode_bundle(data,
                          max_size=DEFAULT_BUNDLE_MAX_SIZE if max_size is None else max_size)
    bundle = Bundle.from_dict(value)
    if bundle.to_cbor() != bytes(data):
        raise SchemaError("schema.non_canonical_record",
                          f"{Bundle.SCHEMA}: bytes are not the record's canonical form")
    return bundle


def proof_file_name(proof: Proof) -> str:
    """``<kind>-<first 16 hex digits of challenge_id>.cbor``: stable and unique enough."""
    return f"{proof.kind}-{proof.challenge_id.hex()[:16]}.cbor"


__all__ = ["bundle_from_bytes", "proof_file_name", "proof_for_ref"]
